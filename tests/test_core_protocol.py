"""The decision protocol of engine/core, exercised through the test-only toy ruleset."""
import json

import pytest
from core_fixtures import small_map
from toy_rules import MoveMarker, PlayCard, React

from engine.ai import make_agent
from engine.core import (
    Choice,
    Game,
    GameOver,
    IllegalChoice,
    NotYourDecision,
    Setup,
    StaleDecision,
    UnknownRuleset,
    get_rules,
    replay,
)
from engine.core.errors import EngineBug
from engine.core.rng import ForcedValueError, GameRng
from engine.simulate import play


def new_game(seed=1):
    return Game(Setup("toy", small_map(), seed=seed))


def advance_to(game, kind):
    while game.pending().kind != kind:
        d = game.pending()
        game.submit(d.player, d.options[0] if d.options else d.spaces[0].sample(__import__("random").Random(0)))


def test_pending_names_player_kind_and_options():
    g = new_game()
    d = g.pending()
    assert (d.player, d.kind, d.seq) == (1, "move marker", 0)
    assert d.spaces and not d.options
    g.submit(1, MoveMarker(300.0, 300.0))
    d = g.pending()
    assert d.kind == "choose card" and d.player == 1 and d.seq == 1
    assert d.labels == tuple(f"play the {c}" for c in sorted(g.state.hands[1]))


def test_illegal_choice_refused_state_unchanged():
    g = new_game()
    h = g.state_hash()
    with pytest.raises(IllegalChoice) as e:
        g.submit(1, MoveMarker(5000.0, 5000.0))  # off the table
    assert "off the table" in str(e.value) and "expected player 1 to move marker" in str(e.value)
    assert g.state_hash() == h and g.decisions == []
    with pytest.raises(IllegalChoice, match='more than 6"'):
        g.submit(1, MoveMarker(g.state.marker[0] + 200, g.state.marker[1]))
    with pytest.raises(IllegalChoice, match="is not allowed"):
        g.submit(1, PlayCard(3))  # right player, wrong kind of choice
    assert g.state_hash() == h


def test_wrong_player_and_stale_answers_refused():
    g = new_game()
    h = g.state_hash()
    with pytest.raises(NotYourDecision, match="player 2 answered, but the decision is player 1's"):
        g.submit(2, MoveMarker(300.0, 300.0))
    g.submit(1, MoveMarker(300.0, 300.0), seq=0)
    h = g.state_hash()
    card = g.pending().options[0]
    with pytest.raises(StaleDecision, match="decision #0"):
        g.submit(1, card, seq=0)
    assert g.state_hash() == h
    with pytest.raises(IllegalChoice):
        g.submit(1, "a string")  # not even a Choice
    assert g.state_hash() == h


def test_hidden_hand_and_simultaneous_secret():
    g = new_game(seed=7)
    g.submit(1, MoveMarker(300.0, 300.0))
    secret = g.pending().options[-1].card
    g.submit(1, PlayCard(secret))
    v2 = g.view(2)
    assert v2["committed"] == {1: "hidden"}
    assert v2["hand"] == sorted(g.state.hands[2]) and 1 not in v2.get("hands", {})
    assert v2["hand_sizes"][1] == 2
    assert all(str(secret) not in line for line in v2["log"])  # "You commit the N" is player 1's alone
    assert any(f"You commit the {secret}" in line for line in g.view(1)["log"])
    # the spectator view shows no hand at all
    assert g.view(None)["hand"] is None
    # once both have committed the cards are revealed together
    g.submit(2, g.pending().options[0])
    assert any(line.startswith("Revealed:") for line in g.view(2)["log"])


def test_reaction_by_non_active_player_with_forced_dice():
    g = new_game(seed=3)
    g.submit(1, MoveMarker(300.0, 300.0))
    hi1, hi2 = max(g.state.hands[1]), max(g.state.hands[2])
    g.submit(1, PlayCard(hi1))
    g.state.rng.force(2, 5)  # the roll, then the reroll
    g.submit(2, PlayCard(hi2))
    roller = 1 if hi1 > hi2 else 2
    d = g.pending()
    assert d.kind == "react" and d.player == 3 - roller and React(True) in d.options
    events = g.submit(3 - roller, React(True))
    assert "rolled again: 5" in events[0].text
    assert g.state.score[roller] == 1 and g.state.tokens[3 - roller] == 0


def test_forced_dice_must_fit():
    r = GameRng(1)
    r.force(7)
    with pytest.raises(ForcedValueError):
        r.d(6)


def test_same_seed_same_game_and_replay_reproduces_hash():
    def run(seed):
        g = new_game(seed)
        agents = {p: make_agent("random", p, seed * 10 + p) for p in (1, 2)}
        play(g, agents)
        return g

    a, b = run(11), run(11)
    assert a.state_hash() == b.state_hash() and a.decisions == b.decisions
    assert run(12).state_hash() != a.state_hash() or run(12).decisions != a.decisions
    r = replay(a.setup, a.decisions)
    assert r.state_hash() == a.state_hash()
    assert r.result() == a.result()


def test_clone_is_independent_and_shares_the_table():
    g = new_game(5)
    g.submit(1, MoveMarker(300.0, 300.0))
    c = g.clone()
    assert c.table is g.table and c.rules is g.rules
    assert c.state_hash() == g.state_hash()
    c.submit(1, c.pending().options[0])
    assert c.state_hash() != g.state_hash()
    assert len(g.decisions) == 1 and g.pending().kind == "choose card"


def test_choices_round_trip_json():
    for c in (MoveMarker(1.5, 2.25), PlayCard(4), React(True)):
        assert Choice.from_json(json.loads(json.dumps(c.to_json()))) == c
    with pytest.raises(ValueError, match="unknown choice type"):
        Choice.from_json({"type": "nope"})
    with pytest.raises(ValueError, match="unknown fields"):
        Choice.from_json({"type": "toy.PlayCard", "card": 3, "extra": 1})


def test_game_over_refuses_more():
    g = new_game(2)
    play(g, {p: make_agent("random", p, p) for p in (1, 2)})
    assert g.pending() is None and g.result() is not None
    with pytest.raises(GameOver):
        g.submit(1, PlayCard(1))


def test_engine_bug_restores_state(monkeypatch):
    g = new_game(4)
    g.submit(1, MoveMarker(300.0, 300.0))
    h = g.state_hash()
    real = type(g.rules).apply

    def broken(self, st, player, c):
        if not isinstance(c, PlayCard):
            return real(self, st, player, c)
        st.score[1] = 99  # half-applied change...
        raise ZeroDivisionError("boom")  # ...then a crash

    monkeypatch.setattr(type(g.rules), "apply", broken)
    with pytest.raises(EngineBug, match="boom"):
        g.submit(1, g.pending().options[0])
    monkeypatch.setattr(type(g.rules), "apply", real)
    assert g.state_hash() == h and len(g.decisions) == 1


def test_unknown_and_planned_rulesets():
    with pytest.raises(UnknownRuleset, match="no ruleset 'chess'"):
        get_rules("chess")


def test_many_random_games_every_offered_option_is_accepted():
    """Seeded random games: every option offered is accepted, no hidden card leaks, all end."""
    for seed in range(200):
        g = new_game(seed)
        agents = {p: make_agent("random", p, seed + p) for p in (1, 2)}
        while (d := g.pending()) is not None:
            for opt in d.options:  # every offered option is accepted by a clone
                g.clone().submit(d.player, opt)
            other = 3 - d.player
            for p in g.state.committed:
                if p != other:
                    assert g.view(other)["committed"][p] == "hidden"
            g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
        assert g.result() is not None


def test_planned_ruleset_is_reported_as_not_implemented(monkeypatch):
    from engine.core import rules

    monkeypatch.setitem(rules._BUILTIN, "later", "engine.rulesets.later.rules")
    with pytest.raises(UnknownRuleset, match="'later' is planned but not implemented yet") as e:
        get_rules("later")
    assert e.value.planned
