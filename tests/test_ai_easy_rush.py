"""The easy agent does not waste a Counterblast Rush (issue 46, item 16: "ai:easy sometimes rushes
and then stays put"). Why it did: a model deployed at the table's edge, or standing on a
container, found no step along the walking route (the walk grid's cell under it holds no base, so
``WalkGrid.downhill`` gave nothing), and the candidates of a long rolled move, spread over the
whole roll, passed between the short steps out of a packed crew that a plain Move found; yet the
policy took a step "that opens a Rush" and Rushed toward a far goal without asking whether the
Rush could get anywhere. Seeds 1-5 (easy v easy on the outpost): 21 of 206 Rushes stayed put, 16
of them after a roll of 5" or more; now none of 176."""
from __future__ import annotations

import math

from engine.ai import make_agent
from engine.ai.geo import INF, walk_grid
from engine.core import Game, Setup
from engine.data.maps import load_named_map
from engine.rulesets.common import MoveTo
from engine.rulesets.counterblast.choices import Rush, Stay

IN = 25.4


def test_a_rush_of_the_mean_or_more_never_stays_put():
    """Every Rush easy makes in three seeded games is followed by a move, whenever the d10 gave the
    mean (5.5") or more: a smaller roll may leave nowhere better to go, a larger one may not. (The
    games begin with the agents' own deployment since issue 45: two games gave 23 such Rushes.)"""
    rolled = stayed = 0
    for seed in (1, 2, 3):
        g = Game(Setup("counterblast", load_named_map("outpost"), (), {}, seed))
        agents = {p: make_agent("easy", p, seed * 10 + p) for p in (1, 2)}
        for a in agents.values():
            a.attach(g.table, g.rules)
        rushed = None
        while (d := g.pending()) is not None:
            c = agents[d.player].choose(d, g.view(d.player))
            if d.kind == "move" and rushed == len(g.decisions) - 1 and d.spaces[0].allowance >= 5.5 * IN:
                rolled += 1
                m = g.state.models[d.spaces[0].base.id]
                stayed += isinstance(c, Stay) or (isinstance(c, MoveTo) and math.hypot(c.x - m.x, c.y - m.y) < 1.0)
            rushed = len(g.decisions) if isinstance(c, Rush) else rushed
            g.submit(d.player, c)
    assert rolled >= 30 and stayed == 0, (rolled, stayed)


def test_the_walking_route_starts_from_the_table_edge_and_from_a_container_top():
    """The outpost's deployment rows: a base at the table's top edge (its grid cell is off the
    table for a 30 mm base) and one on a Container (65 mm, climbable) get a point along the walking
    route toward the centre, which ``dist`` already measured them by; before, ``downhill`` gave None."""
    g = Game(Setup("counterblast", load_named_map("outpost"), (), {}, 1))
    grid = walk_grid(g.table, 15.0)
    f = grid.field([(24 * IN, 18 * IN)])
    for x, y in ((642.0, 890.0), (530.07, 895.2)):
        i, j = grid.cell(x, y)
        assert f[i, j] >= INF and grid.dist(f, x, y) < INF
        assert grid.downhill(f, x, y, 4 * IN) is None            # as Frontier and Doubles still walk
        p = grid.downhill(f, x, y, 4 * IN, enter=True)
        assert p is not None and grid.dist(f, *p) < grid.dist(f, x, y) - 2 * IN
