"""The client's controller and session without a window: input to choices, undo, seats."""
from __future__ import annotations

import pytest

from engine.core import Game, IllegalChoice, Setup
from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.rulesets.common import MoveSpace, MoveTo
from engine.rulesets.frontier.rules import INCH, Fight
from game.controllers import GenericController, involved
from game.session import GameSession, parse_seat

TOWN = load_map(resolve_map("town"))


def toward_middle(b) -> int:
    """+1 when the table's middle lies east of the base (the west zone), else -1."""
    return 1 if b.x < TOWN.width * INCH / 2 else -1


def free_step(d, inches: float):
    """The first move space of ``d`` whose model may step ``inches`` straight toward the table's
    middle (the automatic placement puts some models behind buildings: issue 58)."""
    for space in d.spaces:
        if isinstance(space, MoveSpace):
            b = space.base
            to = MoveTo(b.id, round(b.x + toward_middle(b) * inches * INCH, 2), round(b.y, 2))
            if space.check(to) is None:
                return space
    raise AssertionError(f"no model may step {inches}\" toward the middle")


def frontier(seed=1):
    return Game(Setup("frontier", TOWN, (), {"deployment": "automatic"}, seed))


def pieces(g, player=1):
    return g.view(player)["pieces"]


def test_involved_names_the_actor_first_then_the_targets():
    ids = {"p1-marshal", "p2-outlaw_1"}
    assert involved(Fight("p1-marshal", "p2-outlaw_1", "hunting_knife"), ids) == ["p1-marshal", "p2-outlaw_1"]
    assert involved(MoveTo("p2-outlaw_1", 1.0, 2.0), ids) == ["p2-outlaw_1"]


def test_every_view_lists_the_pieces_in_one_shape():
    for rs, mp in (("counterblast", "outpost"), ("frontier", "town"), ("doubles", "prehistoric")):
        g = Game(Setup(rs, load_map(resolve_map(mp)), (), {"deployment": "automatic"}, 3))
        ps = g.view(1)["pieces"]
        assert len(ps) >= 5
        for p in ps:
            assert {"id", "player", "name", "x", "y", "radius", "height", "out", "markers", "profile"} <= set(p)
            assert p["player"] in (1, 2) and p["radius"] > 0 and p["profile"]


def test_a_model_is_selected_and_the_table_click_is_checked_by_the_engine():
    g = frontier()
    d = g.pending()
    assert d.kind == "move"
    c = GenericController(d, pieces(g))
    mid = free_step(d, 2).actor
    assert mid in c.actors()
    out = c.click_model(mid)
    assert out.choice is None and c.selected == mid
    assert all(mid in [x for x in involved(d.options[i], c.pieces)] for i, _ in c.items())
    space = c.spaces_for(mid)[0]
    b = space.base
    k = toward_middle(b)
    # 2" toward the table's middle is free ground for this model
    ok = c.click_table(b.x + k * 2 * INCH, b.y)
    assert ok.choice == MoveTo(mid, round(b.x + k * 2 * INCH, 2), round(b.y, 2))
    assert space.check(ok.choice) is None
    # 20" is beyond any allowance: refused with the engine's own reason
    far = c.click_table(b.x + k * 20 * INCH, b.y)
    assert far.choice is None and "allowed" in far.refusal
    pv = c.preview(b.x + k * 2 * INCH, b.y)
    assert pv.legal and pv.cost == pytest.approx(2 * INCH, abs=0.05) and pv.path[0] == (b.x, b.y)
    bad = c.preview(b.x + k * 20 * INCH, b.y)
    assert not bad.legal and bad.reason == far.refusal


def test_hotkeys_pick_the_listed_options_in_order():
    g = frontier()
    d = g.pending()
    c = GenericController(d, pieces(g))
    items = c.items()
    assert c.hotkey(1).choice == d.options[items[0][0]]
    assert c.hotkey(len(items) + 1).choice is None if len(items) < 9 else True


def test_undo_point_goes_back_over_own_decisions_that_drew_nothing():
    g = frontier()
    n0 = len(g.decisions)
    d = g.pending()
    b = free_step(d, 1).base
    g.submit(d.player, MoveTo(b.id, round(b.x + toward_middle(b) * INCH, 2), round(b.y, 2)))
    # the move drew no card and no die, but the other player decides next
    assert g.revealed[-1] is False
    assert g.undo_point(d.player) == n0  # the mover may take it back
    other = 3 - d.player
    assert g.undo_point(other) == len(g.decisions)  # the other player has nothing to take back


def test_session_undo_replays_the_game_without_the_last_decision():
    s = GameSession(frontier(), {1: "human", 2: "human"}, autosave=False)
    h0 = s.game.state_hash()
    d = s.pending()
    b = free_step(d, 1).base
    s.submit(d.player, MoveTo(b.id, round(b.x + toward_middle(b) * INCH, 2), round(b.y, 2)))
    assert s.game.state_hash() != h0
    assert s.undo() and s.game.state_hash() == h0
    assert not s.undo()  # nothing left


def test_an_illegal_answer_leaves_the_session_unchanged():
    s = GameSession(frontier(), {1: "human", 2: "ai:random"}, autosave=False)
    h0, v0 = s.game.state_hash(), s.version
    d = s.pending()
    space = next(sp for sp in d.spaces if isinstance(sp, MoveSpace))
    with pytest.raises(IllegalChoice):
        s.submit(d.player, MoveTo(space.base.id, space.base.x + 30 * INCH, space.base.y))
    assert s.game.state_hash() == h0 and s.version == v0


def test_seats_are_checked_against_the_agent_registry():
    assert parse_seat("human") == "human"
    assert parse_seat("random") == "ai:random" == parse_seat("ai:random")
    with pytest.raises(ValueError, match="available"):
        parse_seat("ai:grandmaster")


def test_aim_info_and_ranges_speak_each_rulesets_words():
    from engine.rulesets.frontier.rules import INCH as IN
    g = frontier()
    info = g.aim_info("p1-marshal", "p2-boss")
    assert len(info) == 2 and "edge to edge" in info[1] and "ranges: Revolver" in info[1]
    revolver = g.rules.items["revolver"].range
    assert g.ranges("p1-marshal")[0] == ("Revolver", pytest.approx(revolver * IN))
    d = Game(Setup("doubles", load_map(resolve_map("prehistoric")), (), {"deployment": "automatic"}, 1))
    rings = d.ranges("1.lokee")
    # Lokee throws 4: short to 10 cm, medium to 30 cm, long to 40 cm (004: 10 cm slices)
    assert rings == [("short range", 100.0), ("medium range", 300.0), ("long range", 400.0)]
    assert d.aim_info("1.lokee", "2.tusk")[0].startswith("sight: ")
    assert d.aim_info("1.lokee", "2.tusk")[1].endswith(("short range", "medium range", "long range", "out of range"))
    c = Game(Setup("counterblast", load_map(resolve_map("outpost")), (), {"deployment": "automatic"}, 1))
    a, b = c.view(1)["pieces"][0]["id"], c.view(1)["pieces"][-1]["id"]
    assert "cover" in c.aim_info(a, b)[0] and "long range" in c.aim_info(a, b)[1]
    assert c.ranges(a)[-1] == ("short range", pytest.approx(8 * 25.4))


def test_a_plain_click_moves_and_shift_click_throws_in_doubles():
    from engine.rulesets.doubles.rules import ShootAt
    g = Game(Setup("doubles", load_map(resolve_map("prehistoric")), (), {"deployment": "automatic"}, 1))
    # play until a fighter may both move and throw at the ground
    from engine.ai import make_agent
    agents = {p: make_agent("random", p, p) for p in (1, 2)}
    for _ in range(400):
        d = g.pending()
        kinds = {type(s).__name__ for s in d.spaces}
        if {"GroundShotSpace"} <= kinds and any(isinstance(s, MoveSpace) for s in d.spaces):
            break
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    else:
        pytest.fail("no decision with both a move and a ground shot")
    c = GenericController(d, g.view(d.player)["pieces"])
    mover = next(s for s in d.spaces if isinstance(s, MoveSpace))
    c.click_model(mover.actor)
    b = mover.base
    for dx, dy in ((30, 0), (-30, 0), (0, 30), (0, -30)):
        plain = c.click_table(b.x + dx, b.y + dy)
        if plain.choice is not None:
            break
    assert isinstance(plain.choice, MoveTo)
    shift = c.click_table(b.x + dx, b.y + dy, alternate=True)
    assert isinstance(shift.choice, ShootAt) if shift.choice is not None else bool(shift.refusal)
