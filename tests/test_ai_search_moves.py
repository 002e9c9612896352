"""The search agents' other destinations (``moves``): the runners-up of easy's own move scoring
are played beside easy's point (docs/ai.md, "Other destinations")."""
from __future__ import annotations

import math

from ai_fixtures import _agents, _game

from engine.ai import make_agent
from engine.ai.easy_moves import Spot, runners_up
from engine.rulesets.common import MoveTo
from engine.table import Base

INCH = 25.4


def _spot(x: float, y: float, score: float) -> Spot:
    return Spot(MoveTo(model="m", x=x, y=y), Base("m", x, y, 12.5, 30.0), score=score)


def test_runners_up_are_the_next_best_an_inch_apart():
    here = _spot(0, 0, 99.0)                 # where the model stands: never a runner-up, whatever its score
    pick = _spot(100, 0, 5.0)
    near_pick = _spot(110, 0, 4.9)           # 10 mm from the pick: too close to play differently
    second = _spot(200, 0, 4.0)
    near_second = _spot(200, 20, 3.9)        # 20 mm from the second: too close
    third = _spot(300, 0, 3.0)
    fourth = _spot(0, 300, 1.0)
    spots = [here, near_pick, pick, third, near_second, second, fourth]
    assert runners_up(spots, pick.move) == (second.move, third.move, fourth.move)
    assert runners_up(spots, pick.move, most=2) == (second.move, third.move)
    assert runners_up([here, pick], pick.move) == ()


def _first_move(ruleset: str, seed: int):
    """Play easy v easy until easy's answer to a decision is a point of a move space with
    runners-up; the game, the decision and a hard agent (``moves=3``) on that seat."""
    g = _game(ruleset, seed)
    agents = _agents(g, ("easy", "easy"), seed)
    for a in agents.values():       # as a search agent's own easy keeps them
        a.policy({"ruleset": ruleset}).keep_runners = True
    for _ in range(600):
        d = g.pending()
        assert d is not None
        v = g.view(d.player)
        c = agents[d.player].choose(d, v)
        if isinstance(c, MoveTo) and d.spaces and agents[d.player]._policy.runners_up(c):
            return g, d, c
        g.submit(d.player, c)
    raise AssertionError("no move with runners-up in 600 decisions")


def test_the_search_plays_the_runners_up_and_takes_one_that_plays_better():
    """The utility is replaced by one that rewards only how far east the mover stands, and easy's
    pick is made the worst: the search must look at its runners-up and answer the eastmost of
    the candidates. Each runner-up is a point the decision's space accepts, an inch from the pick."""
    g, d, pick = _first_move("doubles", 3)
    p = d.player
    a = make_agent("hard:iters=3,moves=3,k=1,margin=0,z=0", p, 5)
    a.attach(g.table, g.rules)
    a.bind_worlds(lambda rng: g.sample_world(p, rng))
    v = g.view(p)
    assert a.easy._policy.keep_runners and not make_agent("easy", p, 0).policy({"ruleset": "doubles"}).keep_runners
    assert a.easy.choose(d, v) == pick           # the same easy answer the search starts from
    alts = a._destinations(d, pick)
    assert 1 <= len(alts) <= 3 and pick not in alts
    for alt in alts:
        assert any(sp.check(alt) is None for sp in d.spaces)
        assert math.hypot(alt.x - pick.x, alt.y - pick.y) >= INCH - 1e-6

    n0 = len(g.sample_world(p, __import__("random").Random(0)).decisions)

    def east(world, player):
        """How far east the candidate (the first answer after the sampled world's start) moved."""
        first = world.decisions[n0][1]
        return first.x / 10.0 if isinstance(first, MoveTo) else -1000.0   # the other options ranked
    a.utility = east
    want = max([pick] + alts, key=lambda m: m.x)
    assert want != pick, "a position where a runner-up lies east of easy's point"
    got = a.choose(d, v)
    assert a.stats["searched"] == 1
    assert got.x == want.x and got.y == want.y
    off = make_agent("hard:iters=3,k=1,margin=0,z=0,moves=0", p, 5)     # easy's point only (hard-2026, normal)
    off.attach(g.table, g.rules)
    off.bind_worlds(lambda rng: g.sample_world(p, rng))
    off.utility = east
    assert off.choose(d, v) == pick
