"""Counterblast Jump and Throw directions (issue 32), through Game.submit with forced dice: any
heading, answered by a point on the table (a ``HeadingSpace``) with the eight compass headings
as shortcuts; a Throw's direction asked after a successful roll; a Panicked model may not jump
toward an enemy; the client's generic controller answers both by a click.

Seed: ../shared/seeds/003_52d4831de0a47706.txt.
"""
import math

import pytest
from counterblast_fixtures import IN, staged, submit, texts

from engine.core import IllegalChoice
from engine.rulesets.common import MoveTo
from engine.rulesets.counterblast import choices as C
from engine.rulesets.counterblast.flow.headings import HeadingSpace, heading_between
from game.controllers import GenericController

COMPASS = tuple(float(h) for h in range(0, 360, 45))


def _jump_space(d) -> HeadingSpace:
    return next(s for s in d.spaces if isinstance(s, HeadingSpace) and s.choice_type is C.Jump)


def _rally_on(g, mid):
    """A Panicked model's first action: Rally with a result of exactly 1 (still Panicked, acts on)."""
    g.state.rng.force(7, *([1] * (g.rules.profile[mid].knack - 1)))
    ev = submit(g, C.Rally(mid))
    assert any("still Panicked, but acts on" in t for t in texts(ev))


def test_heading_between_points():
    assert heading_between(0, 0, 1, 0) == 0.0 and heading_between(0, 0, 0, 1) == 90.0
    assert heading_between(0, 0, -1, -1) == 225.0 and heading_between(0, 0, 1, -1e-9) == 0.0
    assert heading_between(0, 0, 3, 1) == 18.43 and heading_between(5, 5, 5, 5) is None


def test_a_jump_takes_any_heading_from_a_point_with_the_compass_as_shortcuts():
    """003_52d4831de0a47706.txt, Jump: 'the model chooses a direction and rolls a d5. The model moves
    the number rolled in inches in a straight line in the direction chosen'. The Ranger jumps toward
    a point 1" west and 3" north of it: heading 108.43°, not one of the eight."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (40, 30)})
    submit(g, C.ActivateSingle("1-ranger-1"))
    d = g.pending()
    space = _jump_space(d)
    assert [o.heading for o in d.options if isinstance(o, C.Jump)] == list(COMPASS)
    assert all(space.check(o) is None for o in d.options if isinstance(o, C.Jump))
    m = g.state.models["1-ranger-1"]
    (jump,) = space.at_point(m.x - 1 * IN, m.y + 3 * IN)
    assert jump == C.Jump("1-ranger-1", 108.43) and space.check(jump) is None
    assert g.describe(jump) == "Ranger 1 jumps a d5 toward 108°"     # read in whole degrees (issue 58)
    assert g.describe(C.Jump("1-ranger-1", 90.0)) == "Ranger 1 jumps a d5 toward north (90°)"
    # refused, the state unchanged: out of range, another model's, not a number
    h = g.state_hash()
    for bad, why in ((C.Jump("1-ranger-1", 360.0), "from 0 up to 360"), (C.Jump("1-ranger-1", -5.0), "from 0 up to 360"),
                     (C.Jump("1-ranger-2", 10.0), "this heading is for")):
        assert why in space.check(bad)
        with pytest.raises(IllegalChoice):
            g.submit(1, bad)
    with pytest.raises(IllegalChoice):
        g.submit(1, C.Jump("1-ranger-1", float("nan")))
    assert g.state_hash() == h
    g.state.rng.force(10)                                 # d10 10 -> d5 5
    ev = submit(g, jump)
    assert "Ranger 1 Jumps 5\" (d5)" in texts(ev) and "Ranger 1 lands 5.0\" away" in texts(ev)
    assert m.x == pytest.approx(18 * IN + 5 * IN * math.cos(math.radians(108.43)), abs=0.01)
    assert m.y == pytest.approx(7 * IN + 5 * IN * math.sin(math.radians(108.43)), abs=0.01)
    assert m.has("spent") and g.state.rng.forced_left == 0


def test_sampled_headings_are_legal_and_any_value_is_accepted():
    import random
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (40, 30)})
    submit(g, C.ActivateSingle("1-ranger-1"))
    space = _jump_space(g.pending())
    rng = random.Random(3)
    got = [space.sample(rng) for _ in range(30)]
    assert all(c is not None and space.check(c) is None for c in got)
    assert len({c.heading for c in got}) == 30 and not {c.heading for c in got} <= set(COMPASS)
    g.clone().submit(1, got[0])


def test_a_panicked_model_may_not_jump_toward_an_enemy():
    """003_52d4831de0a47706.txt, Panic: 'A panicked model may not end a move closer to an enemy model
    than it started'. The d5 is rolled after the direction is chosen, so a heading is allowed only
    if no distance it could fly ends closer: away from, or square to, every enemy. Drone 1 is 4"
    east and Drone 2 6" north: headings from 180° (west) to 270° (south) are left."""
    g = staged({"1-ranger-1": (22, 7), "2-drone-1": (26, 7), "2-drone-2": (22, 13)}, moxie=(3, 0))
    g.state.models["1-ranger-1"].gain("panic")
    submit(g, C.ActivateSingle("1-ranger-1"))
    _rally_on(g, "1-ranger-1")
    d = g.pending()
    space = _jump_space(d)
    assert [o.heading for o in d.options if isinstance(o, C.Jump)] == [180.0, 225.0, 270.0]
    for h in (180.0, 200.0, 269.99, 270.0):
        assert space.check(C.Jump("1-ranger-1", h)) is None
    for h in (179.0, 271.0, 0.0, 90.0, 135.0):
        assert "may not jump toward an enemy" in space.check(C.Jump("1-ranger-1", h))
    m = g.state.models["1-ranger-1"]
    assert space.at_point(m.x - IN, m.y + IN)[0].heading == 135.0
    with pytest.raises(IllegalChoice):
        g.submit(1, C.Jump("1-ranger-1", 135.0))
    # every landing on an allowed heading is no closer: the longest and a stopped-short flight
    st = g.state
    start = {e: math.hypot(st.models[e].x - m.x, st.models[e].y - m.y) for e in ("2-drone-1", "2-drone-2")}
    g.state.rng.force(10)
    submit(g, C.Jump("1-ranger-1", 200.0))
    for e, d0 in start.items():
        assert math.hypot(st.models[e].x - m.x, st.models[e].y - m.y) >= d0 - 1e-6


def test_a_surrounded_panicked_model_has_no_jump():
    """Enemies east, west, north and south: every heading leads toward one of them."""
    g = staged({"1-ranger-1": (22, 7), "2-drone-1": (26, 7), "2-drone-2": (22, 13), "2-drone-3": (18, 7),
                "2-drone-4": (22, 3)}, moxie=(3, 0))
    g.state.models["1-ranger-1"].gain("panic")
    submit(g, C.ActivateSingle("1-ranger-1"))
    _rally_on(g, "1-ranger-1")
    d = g.pending()
    assert not any(isinstance(o, C.Jump) for o in d.options)
    assert not any(isinstance(s, HeadingSpace) for s in d.spaces)
    # without Panic the same model may jump any way
    g = staged({"1-ranger-1": (22, 7), "2-drone-1": (26, 7), "2-drone-2": (22, 13), "2-drone-3": (18, 7),
                "2-drone-4": (22, 3)}, moxie=(3, 0))
    submit(g, C.ActivateSingle("1-ranger-1"))
    assert len([o for o in g.pending().options if isinstance(o, C.Jump)]) == 8


def _unit_zero_throws(dice):
    g = staged({"1-ranger-1": (24, 7), "2-unit-zero": (24 - (15 + 20 + 0.3) / IN, 7), "2-drone-1": (40, 30)},
               active=2, moxie=(0, 3))
    submit(g, C.ActivateSingle("2-unit-zero"))
    g.state.rng.force(*dice)
    return g, submit(g, C.Throw("2-unit-zero", "1-ranger-1"))


def test_a_throw_asks_for_the_direction_after_a_success_and_takes_any_heading():
    """003_52d4831de0a47706.txt, Throw: 'On a success, choose a direction and move the target by the
    Check result in inches as though it Jumped ... It lands Prone.' Unit Zero (Grit 6) rolls three
    successes: only then, knowing the Ranger will fly 3", it chooses 330°."""
    g, ev = _unit_zero_throws((7, 7, 7, 1, 1, 1))
    assert g.state.rng.forced_left == 0
    assert "Unit Zero Throws Ranger 1: 6d10 vs 7" in texts(ev)[0]
    d = g.pending()
    assert d.kind == "throw direction" and d.player == 2
    assert "Unit Zero throws Ranger 1 3\"" in d.prompt
    assert [o.heading for o in d.options] == list(COMPASS)
    assert d.labels[2] == "Unit Zero sends Ranger 1 toward north (90°)"
    space = d.spaces[0]
    r = g.state.models["1-ranger-1"]
    x0, y0 = r.x, r.y
    (c,) = space.at_point(x0 + 40 * math.cos(math.radians(330)), y0 + 40 * math.sin(math.radians(330)))
    assert c == C.ThrowDirection("2-unit-zero", "1-ranger-1", 330.0) and space.check(c) is None
    h = g.state_hash()
    for bad in (C.ThrowDirection("2-unit-zero", "2-drone-1", 10.0), C.ThrowDirection("2-unit-zero", "1-ranger-1", 400.0),
                C.Jump("2-unit-zero", 10.0), C.Throw("2-unit-zero", "1-ranger-1")):
        with pytest.raises(IllegalChoice):
            g.submit(2, bad)
    assert g.state_hash() == h
    import random
    probe = random.Random(5)
    for _ in range(10):                                   # sampled headings: any, and accepted
        sampled = space.sample(probe)
        assert space.check(sampled) is None and sampled.heading not in COMPASS
        g.clone().submit(2, sampled)
    ev = g.submit(2, c)
    assert "Unit Zero sends Ranger 1 toward 330°" in texts(ev) and "Ranger 1 lands 3.0\" away" in texts(ev)
    assert (r.x - x0) / IN == pytest.approx(3 * math.cos(math.radians(330)), abs=1e-3)
    assert (r.y - y0) / IN == pytest.approx(3 * math.sin(math.radians(330)), abs=1e-3)
    assert r.has("prone") and g.state.models["2-unit-zero"].has("spent") and g.pending().kind == "act"


def test_a_failed_throw_asks_for_no_direction():
    g, ev = _unit_zero_throws((1, 1, 1, 1, 1, 1))
    d = g.pending()
    assert d.kind == "act" and g.state.rng.forced_left == 0
    assert g.state.models["1-ranger-1"].x == pytest.approx(24 * IN) and not g.state.models["1-ranger-1"].has("prone")


def test_the_generic_controller_answers_headings_by_a_click():
    """The client: with the Ranger selected a plain click moves it and a Shift+click jumps toward the
    point; a Throw's direction (one model decides) is a plain click on the table."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (40, 30)})
    submit(g, C.ActivateSingle("1-ranger-1"))
    d = g.pending()
    c = GenericController(d, g.view(1)["pieces"])
    c.click_model("1-ranger-1")
    m = g.state.models["1-ranger-1"]
    x, y = m.x - 1 * IN, m.y + 3 * IN
    assert isinstance(c.click_table(x, y).choice, MoveTo)
    shift = c.click_table(x, y, alternate=True)
    assert shift.choice == C.Jump("1-ranger-1", 108.43)
    assert c.preview(x, y, alternate=True).legal
    g.submit(1, shift.choice)
    g, _ = _unit_zero_throws((7, 7, 7, 1, 1, 1))
    d = g.pending()
    c = GenericController(d, g.view(2)["pieces"])
    r = g.state.models["1-ranger-1"]
    out = c.click_table(r.x, r.y - 2 * IN)
    assert out.choice == C.ThrowDirection("2-unit-zero", "1-ranger-1", 270.0)
    g.submit(2, out.choice)
    assert g.state.models["1-ranger-1"].y < 7 * IN


@pytest.mark.parametrize("agent", ["random", "easy", "normal:iters=2", "hard:iters=1"])
def test_every_agent_answers_a_throw_direction(agent):
    """The new decision, "throw direction" (options and a heading space): each agent answers it legally."""
    from engine.ai import make_agent
    g, _ = _unit_zero_throws((7, 7, 7, 1, 1, 1))
    a = make_agent(agent, 2, 11)
    a.attach(g.table, g.rules)
    if hasattr(a, "bind_worlds"):
        a.bind_worlds(lambda rng: g.sample_world(2, rng))
    d = g.pending()
    assert d.kind == "throw direction"
    c = a.choose(d, g.view(2))
    assert isinstance(c, C.ThrowDirection) and d.spaces[0].check(c) is None
    g.submit(2, c)
    assert g.pending().kind == "act"
