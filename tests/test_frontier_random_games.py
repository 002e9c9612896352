"""Seeded random Last Hope Frontier games on the town map with invariant checks after every
decision (seed: ../shared/seeds/000_0c05cfd63e59894e.txt):

- every one of each player's 54 cards is in exactly one place (deck, hand, committed, played,
  discard);
- every model's wounds stay between 0 and its maximum;
- no hidden card leaks: a player's view holds no card of the opponent's hand or of a card the
  opponent has committed but not yet revealed, and no log line about such a card;
- every offered option is accepted by a clone of the game (all of them in the first games,
  a random one afterwards), and a point sampled from each move space too;
- replaying the decisions reproduces the state hash; every game ends with a result.

The default run plays 200 games in 8 blocks of seeds that xdist's workers share (plus 8 under
house rules); ``-m long`` plays 2,000.
"""
import json
import random

import pytest

from engine.ai import make_agent
from engine.core import Game, Setup, replay
from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.rulesets.frontier.rules import card_places

TOWN = load_map(resolve_map("town"))
GAMES = 200
FACTIONS = ("sheriffs", "outlawmen", "bootleggers", "townsfolk")


def rosters_for(seed):
    return (FACTIONS[seed % 4], FACTIONS[(seed // 4 + seed) % 4])


def no_card_objects(view):
    """A view is plain JSON data: card codes, never Card objects (json refuses those)."""
    json.dumps(view)


def hidden_codes(st, q):
    c = st.cards[q]
    return {x.code for x in c.hand} | {x.code for x in c.committed}


def hidden_before(game):
    """Each player's hidden cards (hand, committed) and reshuffle count, taken before a submit."""
    return {q: ({x.code for x in c.hand}, {x.code for x in c.committed}, c.reshuffles)
            for q, c in game.state.cards.items()}


def check_invariants(game, new_events, before=None):
    """``before``: ``hidden_before`` of the state the events came from. A reveal may name only
    cards committed face down before it (before the submit, or by the submit's own commit); a
    public card event may name only cards that were the player's, and, unless the player's deck
    was reshuffled during the submit, none still hidden after it (a reshuffle can legitimately
    deal a revealed or laid-down card straight back: seed 1286 did)."""
    st = game.state
    for p in (1, 2):
        assert len(card_places(st, p)) == 54
    for m in st.models.values():
        assert 0 <= m.wounds <= m.max_wounds, f"{m.id} has {m.wounds} of {m.max_wounds} wounds"
    for viewer in (1, 2, None):
        v = game.rules.view(st, viewer)  # the log is checked event by event below
        no_card_objects(v)
        for q in (1, 2):
            if q == viewer:
                mine = v["cards"][str(q)]
                assert sorted(mine["hand"]) == sorted(x.code for x in st.cards[q].hand)
                continue
            theirs = v["cards"][str(q)]
            assert theirs["hand"] is None and isinstance(theirs["committed"], int)
            assert theirs["hand_size"] == len(st.cards[q].hand)
            secret = hidden_codes(st, q)
            assert not secret & set(theirs["played"])
            hand0, committed0, reshuffles0 = before[q] if before else (set(), set(), st.cards[q].reshuffles)
            committed_now = {c for e in new_events if e.kind == "commit" and e.data.get("owner") == q
                             for c in e.data.get("cards", ())}
            still_secret = secret if st.cards[q].reshuffles == reshuffles0 else set()
            for e in new_events:
                if not e.visible(viewer):
                    continue
                assert e.data.get("owner") in (None, viewer), f"player {viewer} sees {e.text!r}"
                if e.kind == "reveal":
                    shown = set(e.data["cards"].get(str(q), ()))
                    assert shown <= committed0 | committed_now, f"a reveal names cards not committed: {e.text}"
                    assert not shown & still_secret, f"a reveal names hidden cards: {e.text}"
                elif e.data.get("player") == q and "cards" in e.data:
                    named = set(e.data["cards"])
                    assert named <= hand0 | committed0, f"a public event names cards not the player's: {e.text}"
                    assert not named & still_secret, f"a public event names hidden cards: {e.text}"


DEPLOYMENTS = ("alternate", "hidden", "groups", "automatic")    # one per seed in turn


def play_checked(seed, clone_all=False, check_replay=True, options=None):
    opts = {"deployment": DEPLOYMENTS[seed % 4], **(options or {})}
    g = Game(Setup("frontier", TOWN, rosters_for(seed), opts, seed))
    agents = {p: make_agent("random", p, seed * 31 + p) for p in (1, 2)}
    probe = random.Random(seed)
    check_invariants(g, [])
    n = 0
    while (d := g.pending()) is not None:
        assert d.options or d.spaces, f"decision {d.kind} offers nothing"
        opts = list(d.options) if clone_all else ([probe.choice(d.options)] if d.options else [])
        for opt in opts:
            g.clone().submit(d.player, opt)
        if clone_all:
            for sp in d.spaces:
                c = sp.sample(probe)
                if c is not None:
                    g.clone().submit(d.player, c)
        choice = agents[d.player].choose(d, g.view(d.player))
        before = hidden_before(g)
        events = g.submit(d.player, choice)
        check_invariants(g, events, before)
        n += 1
        assert n < 5000, "the game does not end"
    r = g.result()
    assert r is not None and r.winner in (1, 2, None)
    assert g.state.turn <= g.rules.opts.turn_limit
    if check_replay:
        assert replay(g.setup, g.decisions).state_hash() == g.state_hash()
    return g


BLOCK = 25          # the 200 games in blocks of seeds that xdist's workers share (about 30 s each)


@pytest.mark.parametrize("first", range(0, GAMES, BLOCK))
def test_random_games_keep_every_invariant(first):
    results = {1: 0, 2: 0, None: 0}
    tests = 0
    for seed in range(first, first + BLOCK):
        g = play_checked(seed, clone_all=seed < 4, check_replay=seed % 5 == 0)
        results[g.result().winner] += 1
        tests += sum(1 for e in g.log if e.kind == "reveal")
    # the random games do reach the table's fights: opposed tests happen and games are decided;
    # asked of every block, so of all 200 as before (measured: 372-493 reveals and 22-25
    # decided games a block)
    assert tests > BLOCK and results[1] + results[2] > BLOCK // 2


@pytest.mark.parametrize("options", [
    {"shortfall": "lay_down", "initiative_tie": "keep"},
    {"eighth_card_actions_per_turn": 0, "tiebreak_cards": "any", "five_of_a_kind": False},
    {"victory": "last_standing", "turn_limit": 4, "into_combat_penalty": 2},
    {"hand_size": 6, "cards_per_turn": 5, "eighth_card_actions_per_turn": 2, "rout_fraction": 0.34},
])
def test_random_games_with_house_rules(options):
    for seed in (7, 8):
        g = play_checked(seed, check_replay=seed == 7, options=options)
        assert g.rules.opts.model_dump(include=set(options)) == options


def test_simulate_is_repeatable_with_no_errors():
    from engine.simulate import simulate

    a = simulate("frontier", TOWN, 6, 1, ("random", "random"))
    b = simulate("frontier", TOWN, 6, 1, ("random", "random"))
    assert a["errors"] == 0 and a["final_hashes"] == b["final_hashes"] and None not in a["final_hashes"]


@pytest.mark.long
def test_two_thousand_random_games_keep_every_invariant():
    for seed in range(1000, 3000):
        play_checked(seed, clone_all=seed % 100 == 0, check_replay=seed % 10 == 0)


@pytest.mark.long
@pytest.mark.xfail(strict=True, reason="since the deployment phase (issue 45) the posses place themselves and the "
                   "Outlawmen win 66% on the town (docs/rules/deployment.md, 'What the deployment changed'); the "
                   "forces are rebalanced under the default deployment with issue 49's budgets")
def test_the_default_posses_are_balanced_between_easy_agents():
    """Issue 12, Frontier item 4: over 200 easy-vs-easy games on the town (the simulator's seed 1,
    crossed design: each posse from each zone on the same seeds), neither posse -- Sheriffs or
    Outlawmen -- wins more than 60% of the decided games. easy has no clock, so the games repeat
    exactly; docs/rules/frontier.md gives the figures of the earlier runs, docs/workshop.md the
    crossed experiment (Sheriffs 50% [45-55] of 397 decided games)."""
    from engine.simulate import simulate

    out = simulate("frontier", TOWN, 200, 1, ("easy", "easy"))
    posses = out["wins_by_roster"]
    decided = posses.get("sheriffs", 0) + posses.get("outlawmen", 0)
    assert out["errors"] == 0 and decided >= 180
    assert max(posses.get("sheriffs", 0), posses.get("outlawmen", 0)) <= 0.60 * decided, posses
