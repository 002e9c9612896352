"""A player's world (``Rules.redact``, ``engine/core/worlds.py``): what a network game's server
sends a seat so that its client can work out its own decisions. Checked through whole random
games of each ruleset: the world, written to JSON and read back, is the redacted state exactly;
the client's ``WorldGame`` shows the seat the view the server's game shows it and works out the
same decision (kind, prompt, options, words, spaces) whenever the seat decides; nothing hidden is
in it; and reading refuses anything but the engine's own shapes."""
from __future__ import annotations

import json

import pytest

from engine.ai import make_agent
from engine.core import Game, GameError, Setup, state_hash
from engine.core.protocol import same_choice
from engine.core.worlds import WorldError, WorldGame, decode_state, encode_state, world_of
from engine.data.maps import load_named_map

GAMES = [("counterblast", "outpost", "hidden"), ("frontier", "town", "hidden"), ("frontier", "town", "alternate"),
         ("doubles", "prehistoric", "hidden")]


def _no_log(v: dict) -> dict:
    v = dict(v)
    v.pop("log", None)
    return v


@pytest.mark.parametrize("ruleset,mapname,mode", GAMES)
def test_a_world_gives_the_seat_its_view_and_its_decisions(ruleset, mapname, mode):
    setup = Setup(ruleset, load_named_map(mapname), (), {"deployment": mode}, 11)
    g = Game(setup)
    worlds = {p: WorldGame(setup, p, table=g.table) for p in (1, 2)}
    agents = {p: make_agent("random", p, 3 + p) for p in (1, 2)}
    n = 0
    while g.pending() is not None and n < 160:
        d = g.pending()
        for p in (1, 2):
            text = json.dumps(world_of(g, p), allow_nan=False)
            state = decode_state(json.loads(text))
            assert state_hash(state) == state_hash(g.rules.redact(g.state, p))
            w = worlds[p]
            w.update(state, d.seq, (d.player, d.kind))
            assert _no_log(w.view(p)) == _no_log(g.view(p)), (n, p)
            mine = w.pending()
            assert (mine.player, mine.kind, mine.seq) == (d.player, d.kind, d.seq)
            if d.player == p:
                assert mine.prompt == d.prompt and list(mine.labels) == list(d.labels)
                assert len(mine.options) == len(d.options)
                assert all(same_choice(a, b) for a, b in zip(mine.options, d.options))
                assert [type(s) for s in mine.spaces] == [type(s) for s in d.spaces]
                assert [s.describe() for s in mine.spaces] == [s.describe() for s in d.spaces]
            else:
                assert not mine.options and not mine.spaces   # another seat's options are its own
        c = agents[d.player].choose(d, g.view(d.player))
        w = worlds[d.player]
        w.check(d.player, c, d.seq)                 # the world accepts what the game accepts
        g.submit(d.player, c)
        n += 1
    assert n > 20


def test_frontier_worlds_hold_no_unseen_card():
    g = Game(Setup("frontier", load_named_map("town"), (), {}, 4))
    for p in (1, 2):
        st = g.rules.redact(g.state, p)
        mine, theirs = st.cards[p], st.cards[3 - p]
        assert all(c is None for c in mine.deck + mine.discard)
        assert mine.hand == g.state.cards[p].hand and all(c is not None for c in mine.hand)
        assert all(c is None for c in theirs.hand + theirs.committed + theirs.deck + theirs.discard)
        assert len(theirs.hand) == len(g.state.cards[3 - p].hand)
    spectator = g.rules.redact(g.state, None)
    assert all(c is None for q in (1, 2) for c in spectator.cards[q].hand)


def test_hidden_placements_are_not_in_the_other_sides_world():
    g = Game(Setup("counterblast", load_named_map("outpost"), (), {"deployment": "hidden"}, 2))
    first = g.pending().player
    space = g.pending().spaces[0]
    spot = space.sample(__import__("random").Random(1))
    g.submit(first, spot)
    dp = g.rules.redact(g.state, 3 - first).deploy
    assert dp["hidden"][first] == {}                          # placing now: no progress shown
    assert len(dp["left"][first]) == len(g.rules.deploy_roster(first))
    assert g.rules.redact(g.state, first).deploy["hidden"][first] == g.state.deploy["hidden"][first]
    while g.pending().player == first:
        g.submit(first, next(o for o in g.pending().options))  # the rest placed automatically
    dp = g.rules.redact(g.state, 3 - first).deploy
    assert set(dp["hidden"][first]) == set(g.state.deploy["hidden"][first])
    assert all(v == [None, None, None] for v in dp["hidden"][first].values())


@pytest.mark.parametrize("bad", [
    {"~c": "os:system", "f": {}},
    {"~c": "builtins:object", "f": {}},
    {"~c": "engine.core.rng:GameRng", "f": {}},                    # not a dataclass
    {"~c": "engine.core.protocol:Event", "f": {"text": "x"}},      # fields missing
    {"~c": "engine.core.protocol:Event.__init__", "f": {}},
    {"~e": "engine.rulesets.frontier.cards:Suit", "v": "STARS"},
    {"~n": "engine.core.protocol:Event", "v": []},
    {"~d": [[1]]},
    {"~d": [[[1], 2]]},
    {"~s": [[1]]},
    {"~x": 1},
    {"~t": 3},
    {"~m": "engine.core.protocol:Event", "j": "{}"},                # not a model
    {"~m": "engine.rulesets.doubles.data:DoublesOptions", "j": '{"penalty_rule": 7}'},
    {"~m": "engine.rulesets.doubles.data:DoublesOptions", "j": 3},
    float("nan"),
    b"bytes",
])
def test_reading_a_world_refuses_anything_else(bad):
    with pytest.raises(WorldError):
        decode_state(bad)


def test_a_doubles_duel_goes_into_a_world():
    """A Doubles duel keeps the game's options (a pydantic model) in the state: the world of a
    keep decision is written, read back to the same state, and gives its seat the same decision
    (it was refused, "cannot write a DoublesOptions", at the first attack's keep: a network game
    of Doubles, and the player's hint, stopped there)."""
    setup = Setup("doubles", load_named_map("prehistoric"), (), {"deployment": "automatic"}, 5)
    g = Game(setup)
    agents = {p: make_agent("easy", p, p) for p in (1, 2)}
    for a in agents.values():
        a.attach(g.table, g.rules)
    n = 0
    while (d := g.pending()).kind != "keep" and n < 300:
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
        n += 1
    assert d.kind == "keep" and g.state.attack.duel is not None
    for p in (1, 2):
        state = decode_state(json.loads(json.dumps(world_of(g, p), allow_nan=False)))
        assert state_hash(state) == state_hash(g.rules.redact(g.state, p))
        assert state.attack.duel.options == g.state.attack.duel.options
    w = WorldGame(setup, d.player, table=g.table)
    w.update(decode_state(world_of(g, d.player)), d.seq, (d.player, d.kind))
    mine = w.pending()
    assert all(same_choice(a, b) for a, b in zip(mine.options, d.options)) and len(mine.options) == len(d.options)


def test_reading_a_world_refuses_deep_nesting():
    deep: object = 1
    for _ in range(200):
        deep = [deep]
    with pytest.raises(WorldError):
        decode_state(deep)


def test_a_world_game_cannot_be_played_on():
    setup = Setup("doubles", load_named_map("prehistoric"), (), {}, 1)
    g = Game(setup)
    d = g.pending()
    w = WorldGame(setup, d.player, table=g.table)
    w.update(decode_state(encode_state(g.rules.redact(g.state, d.player))), d.seq, (d.player, d.kind))
    with pytest.raises(GameError):
        w.submit(d.player, d.options[0], d.seq)
    assert w.setup.seed == 0                      # the seed stays on the server
    w.update(w.state, d.seq, None)
    assert w.over and w.pending() is None
