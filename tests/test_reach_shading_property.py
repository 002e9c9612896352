"""The reach shading (``MoveSpace.shading``, ``engine/table/reach_shading.py``) holds what it
shows (issue 58, item 5): a point inside it is one ``check`` accepts, with no tolerance; a point
outside it that ``check`` accepts lies within one cell of the raster (2.5 mm here) of a point
``check`` refuses (the shading errs only on the side of leaving out, along the boundary and on
strips narrower than a cell).

And Doubles' own straight route is the table's swept test, the one the shading asks: its old
radius query let a base slide through the edge of the Chief's Hut on the Ford of Bones, where the
centre line passed beside the hut's bounding box.
"""
from __future__ import annotations

import math
from functools import cache

import pytest
from ai_fixtures import _game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.rulesets.common import MoveSpace
from engine.rulesets.doubles.spaces import _CachedMoveSpace
from engine.table import Base

RINGS = (0.25, 0.5, 0.75, 1.25, 1.9, 2.5)      # mm: where a refused point is looked for


def _cell(space) -> float:
    return max(2.5, min(6.35, space.allowance / 50))      # the client's cell (game/play/table_overlays.py)


def _ford():
    return Game(Setup("doubles", load_map(resolve_map("prehistoric")), (), {"deployment": "automatic"}, 1))


@cache
def _cases(ruleset: str) -> tuple:
    """(space, shading) at move decisions of seeded random games on the home map; for Doubles
    also Lokee on the Ford of Bones (the prehistoric map) beside the strip between the Hut and
    the Chief's Hut."""
    out = []
    for seed in (1, 2):
        g = _game(ruleset, seed)
        agents = {p: make_agent("random", p, seed * 10 + p) for p in (1, 2)}
        k = 0
        while (d := g.pending()) is not None and k < 8:
            spaces = [s for s in d.spaces if isinstance(s, MoveSpace)]
            if spaces and k in (0, 3, 7):
                out.append((spaces[0], spaces[0].shading(_cell(spaces[0]))))
            k += bool(spaces)
            g.submit(d.player, agents[d.player].choose(d, g.view(d.player, drawing=False)))
    if ruleset == "doubles":
        g = _ford()
        for at in ((440.0, 690.0), (460.0, 830.0)):
            sp = _CachedMoveSpace(g.rules, Base("1.lokee", *at, 12.5, 32.0, 0.0, 0.0), 120.0, (),
                                  1.0 / g.rules.opts.difficult_terrain_factor)
            out.append((sp, sp.shading(_cell(sp))))
    return tuple(out)


def _refused_near(space, x: float, y: float, within: float) -> bool:
    for rad in (r for r in RINGS if r <= within + 1e-9):
        for k in range(24):
            a = 2 * math.pi * k / 24
            c = space.at_point(x + rad * math.cos(a), y + rad * math.sin(a))[0]
            if space.check(c) is not None:
                return True
    return False


def _holds(ruleset, pick, u, v):
    cases = _cases(ruleset)
    space, shade = cases[pick % len(cases)]
    rows, cols = shade.mask.shape
    x, y = shade.x0 + u * cols * shade.cell, shade.y0 + v * rows * shade.cell
    c = space.at_point(x, y)[0]                     # a click's point, to 0.01 mm
    why = space.check(c)
    if shade.contains(c.x, c.y):
        assert why is None, (ruleset, space.base, c, why)
    elif why is None:
        assert _refused_near(space, c.x, c.y, _cell(space)), (ruleset, space.base, c, "accepted, unshaded, far inside")


@pytest.mark.parametrize("ruleset", ["counterblast", "frontier", "doubles"])
@settings(max_examples=1500, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(pick=st.integers(0, 50), u=st.floats(0, 1, exclude_max=True), v=st.floats(0, 1, exclude_max=True))
def test_a_point_in_the_shading_is_accepted_and_one_outside_is_refused(ruleset, pick, u, v):
    _holds(ruleset, pick, u, v)


def test_the_strip_between_the_hut_and_the_chiefs_hut_is_shaded_where_a_base_fits():
    """The Ford of Bones: the Hut (r 4.5 cm) and the Chief's Hut (r 6 cm) stand 2.9 cm apart, a
    Doubles base is 2.5 cm across. Every point of the strip between them inside the shading is
    accepted, and the strip is shaded (a base does fit through)."""
    g = _ford()
    sp = _CachedMoveSpace(g.rules, Base("1.lokee", 440.0, 690.0, 12.5, 32.0, 0.0, 0.0), 120.0, (),
                          1.0 / g.rules.opts.difficult_terrain_factor)
    shade = sp.shading(_cell(sp))
    ax, ay, bx, by = 400.0, 760.0, 520.0, 700.0           # the huts' centres, mm
    L = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / L, (by - ay) / L
    shaded = refused = 0
    for s10 in range(520, 700):                           # along the line joining the centres
        for w10 in range(-80, 81, 2):                     # and across it, 0.2 mm apart
            x, y = ax + ux * s10 / 10 - uy * w10 / 10, ay + uy * s10 / 10 + ux * w10 / 10
            c = sp.at_point(x, y)[0]
            if shade.contains(c.x, c.y):
                shaded += 1
                refused += sp.check(c) is not None
    assert shaded > 300 and refused == 0, (shaded, refused)


def test_a_doubles_base_does_not_slide_through_the_chiefs_hut():
    """Grit 60 mm from a spot whose straight line passes 70 mm from the Chief's Hut's centre (the
    hut 60 mm, the base 12.5 mm: 2.5 mm of overlap), beside the hut's bounding box. The straight
    line is refused; whatever route ``check`` accepts (here none within 10 cm: the spot is 0.9 mm
    off the hut's grown edge, where the path finder's turning points cannot reach) stays clear of
    the hut. Before, Doubles' radius query missed the hut and took the straight line."""
    g = _ford()
    rules, table = g.rules, g.table
    start, goal = (476.8, 766.35), (536.13, 771.6)
    assert not table.segment_clear(start, goal, 12.5)                          # the swept test
    assert not rules._straight_clear(start, goal, 12.5, ())
    sp = _CachedMoveSpace(rules, Base("1.grit", *start, 12.5, 32.0, 0.0, 0.0), 100.0, (), 1.0)
    route = sp.route(sp.at_point(*goal)[0])
    for a, b in zip(route[0], route[0][1:]) if route else ():
        assert table.segment_clear(a, b, 12.5), (route, a, b)
