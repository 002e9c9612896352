"""The automatic placement ("deploy the rest", the ``automatic`` mode) is the agents' own
placement policy (issue 58, item 3: it used to put a Counterblast crew in a knot of bases a few
millimetres apart, nearest the zone's middle, while the agents spread out in cover).

The measure: each model's gap to its nearest friend, base edge to base edge. The agents' policy
keeps every friend at least 1" away (it scores a penalty within 3"); the old lattice gave the
Dustjaw Raiders on the outpost a mean nearest gap of 7 mm and a least of 3 mm.
"""
from __future__ import annotations

import math

import pytest

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.core.rules import get_rules
from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.rulesets.deployment import DeployRest

RULESETS = ("counterblast", "frontier", "doubles")
INCH = 25.4


def _game(ruleset: str, mode: str, seed: int = 1, mapname: str | None = None) -> Game:
    mf = load_map(resolve_map(mapname or get_rules(ruleset).home_map))
    return Game(Setup(ruleset, mf, (), {"deployment": mode}, seed))


def _bases(g: Game, player: int) -> list:
    side = {p["id"] for p in g.view(None)["pieces"] if p["player"] == player}
    return [b for b in g.rules.deploy_bases(g.state) if b.id in side]


def _nearest_gaps(bases) -> list[float]:
    return [min(math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius for b in bases if b is not a)
            for a in bases]


@pytest.mark.parametrize("mapname", [None, "prehistoric"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_automatic_placement_spreads_each_force_out(ruleset, mapname):
    """The default forces on a real map: every model at least 1" from its nearest friend, and
    2" on average."""
    g = _game(ruleset, "automatic", mapname=mapname)
    for p in (1, 2):
        gaps = _nearest_gaps(_bases(g, p))
        assert len(gaps) >= 3
        assert min(gaps) >= INCH, (ruleset, p, [round(x) for x in gaps])
        assert sum(gaps) / len(gaps) >= 2 * INCH, (ruleset, p, [round(x) for x in gaps])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_deploy_the_rest_puts_the_force_where_the_easy_agent_would(ruleset):
    """In the hidden mode the first side places its whole force in a row: "deploy the rest"
    puts every model where the easy agent, placing them one by one, puts them."""
    by_agent = _game(ruleset, "hidden", seed=2)
    first = by_agent.pending().player
    agent = make_agent("easy", first, 5)
    agent.attach(by_agent.table, by_agent.rules)
    while by_agent.pending().player == first:
        d = by_agent.pending()
        by_agent.submit(first, agent.choose(d, by_agent.view(first, drawing=False)))
    by_rest = _game(ruleset, "hidden", seed=2)
    by_rest.submit(first, DeployRest())
    assert by_rest.state.deploy["hidden"][first] == by_agent.state.deploy["hidden"][first]
