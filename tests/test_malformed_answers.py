"""Malformed answers to a decision are refused, never crash, and never change the state.

Seeded random games of every ruleset give many decision points; hypothesis throws arbitrary
field values (wrong types, huge and non-finite numbers, unknown ids, the legal options with one
field changed) at every choice type the ruleset knows, and bad player numbers and sequence
numbers. Each answer must be accepted by ``Game.check`` or refused with an ``IllegalChoice``
(with a reason); on a refusal the state hash is unchanged.
"""
from __future__ import annotations

import dataclasses
import math

import pytest
from ai_fixtures import HOME  # each ruleset's home map, from the engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.core.errors import IllegalChoice
from engine.core.protocol import _CHOICE_TYPES, Choice
from engine.core.rules import get_rules
from engine.data.maps import load_map
from engine.paths import resolve_map


def _points(ruleset: str, seed: int = 5, every: int = 7, limit: int = 12) -> list[Game]:
    """Clones of a seeded random game at every ``every``-th decision, up to ``limit`` of them."""
    g = Game(Setup(ruleset, load_map(resolve_map(HOME[ruleset])), (), {}, seed))
    agents = {p: make_agent("random", p, seed * 31 + p) for p in (1, 2)}
    out, n = [], 0
    while (d := g.pending()) is not None and len(out) < limit:
        if n % every == 0:
            out.append(g.clone())
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
        n += 1
    return out


_GAMES: dict[str, list[Game]] = {}


@pytest.fixture(scope="module", autouse=True)
def _drop_games():
    """Let the games (and their pymunk spaces) go before the interpreter shuts down: pymunk's
    finalisers print tracebacks when they run after the module is torn down."""
    yield
    _GAMES.clear()


def games(ruleset: str) -> list[Game]:
    if ruleset not in _GAMES:
        _GAMES[ruleset] = _points(ruleset)
    return _GAMES[ruleset]


def _types(ruleset: str) -> list[type[Choice]]:
    get_rules(ruleset)
    prefix = {"counterblast": ("counterblast.", "common."), "frontier": ("frontier.", "common."),
              "doubles": ("doubles.", "common.")}[ruleset]
    return [c for t, c in sorted(_CHOICE_TYPES.items()) if t.startswith(prefix)]


scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(), st.integers(min_value=-(10 ** 400), max_value=10 ** 400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.sampled_from(["", "no-such-id", "12", "NaN", "1-captain", "p1-boss", "1.soot"]),
)
values = st.one_of(scalars, st.lists(scalars, max_size=4).map(tuple), st.lists(scalars, max_size=3))


def _ids(game: Game) -> list[str]:
    """Ids the state knows (models, weapons...), so answers get past the first check."""
    view = game.view(None)
    out = []

    def walk(v, depth=0):
        if depth > 4 or len(out) > 200:
            return
        if isinstance(v, str) and 0 < len(v) < 40:
            out.append(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k, depth + 1)
                walk(x, depth + 1)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x, depth + 1)
    walk({k: v for k, v in view.items() if k != "log"})
    return out or ["x"]


@st.composite
def answers(draw, ruleset: str):
    gi = draw(st.integers(0, len(games(ruleset)) - 1))
    game = games(ruleset)[gi]
    d = game.pending()
    how = draw(st.sampled_from(["any", "any", "mutate", "ids"]))
    if how == "mutate" and d.options:
        base = draw(st.sampled_from(list(d.options)))
        cls, fields = type(base), dataclasses.fields(base)
        kwargs = {f.name: getattr(base, f.name) for f in fields}
    else:
        cls = draw(st.sampled_from(_types(ruleset)))
        fields = dataclasses.fields(cls)
        kwargs = {}
    ids = _ids(game)
    for f in fields:
        if f.name in kwargs and draw(st.booleans()):
            continue
        if how == "ids":
            kwargs[f.name] = draw(st.one_of(st.sampled_from(ids), values,
                                            st.lists(st.sampled_from(ids), max_size=3).map(tuple)))
        else:
            kwargs[f.name] = draw(values)
    player = draw(st.one_of(st.just(d.player), st.just(3 - d.player), st.sampled_from([True, False, 2.0, 0, -1, 3, None, "1"])))
    return gi, player, cls(**kwargs)


def _run(ruleset, data):
    gi, player, choice = data
    game = games(ruleset)[gi]
    before = game.state_hash()
    try:
        game.check(player, choice)
    except IllegalChoice as err:
        assert err.what and err.expected
        assert game.state_hash() == before
        return
    # accepted: it must be a proper answer, and applying it must work (on a copy)
    assert isinstance(player, int) and not isinstance(player, bool) and player == game.pending().player
    assert not choice.field_problems()
    copy = game.clone()
    copy.submit(player, choice)
    assert game.state_hash() == before


@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_malformed_answers_are_refused_cleanly(ruleset):
    @settings(max_examples=350, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(answers(ruleset))
    def prop(data):
        _run(ruleset, data)
    prop()


@pytest.mark.parametrize("ruleset, make", [
    ("counterblast", lambda m: m.GroupAction("no-such-id")),
    ("counterblast", lambda m: m.ActivateGroup(("no-such-id",))),
    ("counterblast", lambda m: m.Shoot(model="no-such-id", weapon="no-such-id", target="x")),
    ("counterblast", lambda m: m.React(model="x", reaction="")),
    ("counterblast", lambda m: m.PsiCraft(model="x", enigma="no-such-id", target="x")),
])
def test_unknown_ids_are_refused_in_plain_words(ruleset, make):
    from engine.rulesets.counterblast import choices

    for g in games(ruleset)[:6]:
        d = g.pending()
        before = g.state_hash()
        with pytest.raises(IllegalChoice):
            g.check(d.player, make(choices))
        assert g.state_hash() == before


@pytest.mark.parametrize("x", [10 ** 400, None, "12", math.nan, math.inf, True])
def test_move_fields_of_the_wrong_type_are_refused(x):
    from engine.rulesets.common import MoveTo

    for ruleset in sorted(HOME):
        for g in games(ruleset)[:4]:
            d = g.pending()
            with pytest.raises(IllegalChoice, match="x: "):
                g.check(d.player, MoveTo("m", x, 1.0))


@pytest.mark.parametrize("player", [True, 2.0, "1", None, 0, 3])
def test_player_must_be_a_player_number(player):
    g = games("doubles")[0]
    d = g.pending()
    with pytest.raises(IllegalChoice, match="player"):
        g.check(player, d.options[0] if d.options else None)


def test_from_json_checks_field_types():
    from engine.rulesets.common import MoveTo  # noqa: F401  (registers the tag)

    for bad in ({"x": "12"}, {"x": None}, {"x": 10 ** 400}, {"y": True}, {"model": 3}):
        data = {"type": "common.MoveTo", "model": "m", "x": 1.0, "y": 2.0, **bad}
        with pytest.raises(ValueError):
            Choice.from_json(data)
    assert Choice.from_json({"type": "common.MoveTo", "model": "m", "x": 1, "y": 2.5}).x == 1


# --- issue 30: answers whose comparison raises, split shares of the wrong type ----------------
class HostileStr(str):
    """Text whose comparison (and hash) raises: a legal option's field swapped for this must be
    refused as malformed before anything compares it."""
    def __eq__(self, other):
        raise RuntimeError("compared")
    __ne__ = __eq__

    def __hash__(self):
        raise RuntimeError("hashed")


class HostileInt(int):
    def __eq__(self, other):
        raise RuntimeError("compared")
    __hash__ = int.__hash__


@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_an_answer_whose_comparison_raises_is_refused(ruleset):
    tried = 0
    for g in games(ruleset):
        d = g.pending()
        for o in d.options[:6]:
            for f in dataclasses.fields(o):
                v = getattr(o, f.name)
                hostile = HostileStr(v) if type(v) is str else HostileInt(v) if type(v) is int else None
                if hostile is None:
                    continue
                bad = dataclasses.replace(o, **{f.name: hostile})
                before = g.state_hash()
                with pytest.raises(IllegalChoice, match=f.name):
                    g.submit(d.player, bad)
                assert g.state_hash() == before and g.pending().seq == d.seq
                tried += 1
    assert tried >= 10


def test_same_choice_compares_by_exact_type_first():
    from engine.core.protocol import same_choice
    from engine.rulesets.common import MoveTo

    a = MoveTo("m", 1.0, 2.0)
    assert same_choice(a, MoveTo("m", 1.0, 2.0))
    assert not same_choice(a, MoveTo(HostileStr("m"), 1.0, 2.0))   # no comparison is made: no raise
    assert not same_choice(a, MoveTo("m", 1, 2.0))                   # 1 and 1.0 are not the same answer


def _split_decision():
    from counterblast_fixtures import staged, submit

    from engine.rulesets.counterblast import choices as C

    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7), "2-drone-2": (22, 4.5), "2-drone-4": (26, 5)})
    submit(g, C.ActivateSingle("1-ranger-1"))
    return g, C


@pytest.mark.parametrize("dice", [(1.5, 3.2), ("2", "2"), (True, 3), (" 2", "2\n"), (2.0, 2.0), (1.5, 2.5),
                                  (0, 4), (-1, 5), (10 ** 400, 4), (HostileInt(2), 2), [2, 2], 4])
def test_split_shares_must_be_positive_whole_numbers(dice):
    """Counterblast's split attacks (issue 30): ``dice`` is typed ``tuple[int, ...]``; shares of
    another type, or below one die, are refused with the field named, the state unchanged."""
    g, C = _split_decision()
    d = g.pending()
    before = g.state_hash()
    for kind in (C.SplitShoot, C.SplitStrike):
        weapon = "pulse-carbine" if kind is C.SplitShoot else "combat-knife"
        with pytest.raises(IllegalChoice):
            g.submit(d.player, kind("1-ranger-1", weapon, ("2-drone-2", "2-drone-1"), dice))
        assert g.state_hash() == before
    legal = C.SplitShoot("1-ranger-1", "pulse-carbine", ("2-drone-2", "2-drone-1"), (2, 2))
    g.check(d.player, legal)                                        # the same split with whole shares


def test_the_split_space_itself_refuses_shares_that_are_not_whole_numbers():
    from engine.rulesets.counterblast import choices as C
    from engine.rulesets.counterblast.flow.actions import SplitSpace

    space = SplitSpace(C.SplitShoot, "1-ranger-1", "pulse-carbine", ("a", "b"), 4)
    assert space.check(C.SplitShoot("1-ranger-1", "pulse-carbine", ("a", "b"), (2, 2))) is None
    for dice in [(1.5, 2.5), ("2", "2"), (True, 3), (" 2", "2\n"), (2.0, 2.0)]:
        assert space.check(C.SplitShoot("1-ranger-1", "pulse-carbine", ("a", "b"), dice))
