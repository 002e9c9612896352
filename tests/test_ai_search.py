"""The search agents ``normal`` and ``hard``: determinized worlds keep the view, every answer is
legal, and no answer depends on what the player may not know (other hands, deck orders, dice)."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from ai_fixtures import HOME, _agents, _game, simulate_one_json  # noqa: E402

from engine.ai import agent_names, make_agent, parse_agent
from engine.ai.easy import policy_class
from engine.core import Game, get_rules
from engine.core.rng import GameRng
from engine.rulesets.frontier import duel
from engine.simulate import DidNotEnd, play

RULESETS = sorted(HOME)


# ------------------------------------------------------------------ names and parameters
def test_agent_names_take_parameters():
    assert {"normal", "hard"} <= set(agent_names())
    assert parse_agent("hard") == ("hard", {})
    assert parse_agent("hard:budget=2.0,k=5") == ("hard", {"budget": 2.0, "k": 5})
    a = make_agent("hard:budget=2.5,iters=3", 1, 0)
    assert a.budget == 2.5 and a.iters == 3 and a.k == 3 and a.depth == 2 and a.race == 0   # since 2026-12-08
    assert a.moves == 3 and a.params.searched == "move"
    n = make_agent("normal", 2, 0)
    assert n.k == 3 and n.depth == 1 and n.budget < a.budget and n.moves == 0 and n.params.searched == ""
    with pytest.raises(ValueError):
        make_agent("hard:speed=9", 1, 0)
    with pytest.raises(ValueError):
        parse_agent("hard:budget")


# ------------------------------------------------------------------ determinize
def _cards(piles) -> Counter:
    return Counter(c.code for name in ("deck", "hand", "committed", "played", "discard")
                   for c in getattr(piles, name))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_sampled_worlds_keep_the_view(ruleset):
    """view(player) of a sampled world equals view(player) of the real game, log included; the
    hidden part (dice to come, other cards) really changes; the pending decision is the same."""
    checked = changed = pairs = 0
    rng = random.Random(5)
    for seed in (21, 22, 23, 24):
        if checked >= 30:
            break
        g = _game(ruleset, seed)
        agents = _agents(g, ("random", "random") if ruleset != "frontier" else ("easy", "random"), seed)
        n = 0
        while (d := g.pending()) is not None and n < 160:
            if n % 4 == 0 or "card" in d.kind:
                p = d.player
                v = g.view(p)
                h0 = g.state_hash()
                for _ in range(2):
                    w = g.sample_world(p, rng)
                    assert w.view(p) == v, f"{ruleset}: a sampled world shows player {p} something else"
                    dw = w.pending()
                    assert dw.player == d.player and dw.kind == d.kind and dw.options == d.options
                    changed += w.state_hash() != h0
                    if ruleset == "frontier":
                        for q in (1, 2):  # every card still in exactly one pile, 54 each
                            assert _cards(w.state.cards[q]) == _cards(g.state.cards[q])
                            if len(w.state.cards[q].committed) == 2:  # a leader's pair stays a pair
                                pairs += 1
                                duel.check_pair(*w.state.cards[q].committed)
                            for name in ("deck", "hand", "committed", "played", "discard"):
                                assert len(getattr(w.state.cards[q], name)) == len(getattr(g.state.cards[q], name))
                assert g.state_hash() == h0, "sampling a world must leave the real game alone"
                checked += 1
            g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
            n += 1
    assert checked >= 30
    assert changed == 2 * checked


def test_frontier_worlds_redeal_only_what_the_player_cannot_see():
    g = _game("frontier", 4)
    p, o = 1, 2
    seen_hands = set()
    for k in range(6):
        w = g.sample_world(p, random.Random(k))
        mine, theirs = w.state.cards[p], w.state.cards[o]
        assert mine.hand == g.state.cards[p].hand and mine.played == g.state.cards[p].played
        assert theirs.played == g.state.cards[o].played
        seen_hands.add(tuple(c.code for c in theirs.hand))
    assert len(seen_hands) > 1, "the opponent's hand must be dealt anew"


def test_frontier_worlds_keep_a_committed_pair_a_pair():
    """A leader's committed eighth-card pair is hidden; the world deals a legal pair in its place."""
    g = _game("frontier", 4)
    piles = g.state.cards[2]
    a, b = next((x, y) for i, x in enumerate(piles.hand) for y in piles.hand[i + 1:]
                if not (x.is_joker and y.is_joker) and (x.is_joker or y.is_joker or x.rank == y.rank))
    piles.hand.remove(a)
    piles.hand.remove(b)
    piles.committed = [a, b]
    for k in range(40):
        w = g.sample_world(1, random.Random(k))
        assert w.view(1) == g.view(1)
        duel.check_pair(*w.state.cards[2].committed)


def test_determinize_depends_on_the_view_only():
    """Two states with the same view for player 1 but other hidden cards give the same world."""
    g = _game("frontier", 9)
    h = _hidden_variant(g, 1, 3)
    assert h.view(1) == g.view(1) and h.state_hash() != g.state_hash()
    a = g.sample_world(1, random.Random(77))
    b = h.sample_world(1, random.Random(77))
    assert a.state_hash() == b.state_hash()


# ------------------------------------------------------------------ legality
SMALL = "normal:iters=1,k=2,prefilter=2,steps=8"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_search_answers_are_legal(ruleset):
    """A few hundred decisions per ruleset with the search agent at a small fixed budget on
    one side (the simulator binds its worlds): every answer is accepted by ``submit``."""
    total = searched = 0
    for seed, names in ((31, (SMALL, "random")), (32, ("random", SMALL))):
        g = _game(ruleset, seed)
        agents = {p: make_agent(names[p - 1], p, seed + p) for p in (1, 2)}
        try:
            played = play(g, agents, max_decisions=150)
            total += played.decisions
        except DidNotEnd:
            total += 150
        agent = next(a for a in agents.values() if hasattr(a, "stats"))
        assert agent.stats["errors"] == 0, "a look-ahead met an engine refusal"
        searched += agent.stats["searched"]
    assert total >= 200 and searched >= 20


# ------------------------------------------------------------------ no peeking
def _hidden_variant(g: Game, player: int, k: int) -> Game:
    """The same view for ``player``, other hidden facts: another RNG state and, in Frontier, the
    opponent's unseen cards (hand, committed card, deck, discard) and the player's own deck and
    discard dealt anew, keeping every pile's count."""
    h = g.clone()
    h.state.rng = GameRng(10_000 + k)
    if g.setup.ruleset == "frontier":
        r = random.Random(k)
        for q, names in ((3 - player, ("hand", "committed", "deck", "discard")), (player, ("deck", "discard"))):
            piles = h.state.cards[q]
            pool = [c for name in names for c in getattr(piles, name)]
            r.shuffle(pool)
            i = 0
            for name in names:
                n = len(getattr(piles, name))
                setattr(piles, name, pool[i:i + n])
                i += n
    h._pending_ok = False
    return h


NOPEEK = "hard:iters=2,prefilter=6,steps=16"
LEFT = "hard:iters=2,prefilter=6,steps=16,searched="    # Frontier's movement phase left to easy


@pytest.mark.parametrize("ruleset", RULESETS)
def test_search_decisions_do_not_depend_on_hidden_state(ruleset):
    """Hold the view fixed and change what the player may not know: a fresh search agent with
    the same seed and a fixed number of rounds gives the same answer on every variant."""
    g = _game(ruleset, 13)
    agents = _agents(g, ("easy", "easy"), 13)
    checked = differed = 0
    n = 0
    want, every = (8, 5) if ruleset == "frontier" else (4, 9)   # Frontier: more, the cards hide more
    while (d := g.pending()) is not None and checked < want and n < 400:
        p = d.player
        v = g.view(p)
        interesting = (len(d.options) > 2 and n % every == 0
                       and d.kind not in policy_class(get_rules(ruleset)).trusted)  # those are easy's alone
        if n and interesting:
            answers = []
            for k in range(-1, 2):
                h = g if k < 0 else _hidden_variant(g, p, k)
                if k >= 0:
                    differed += h.state_hash() != g.state_hash()
                    assert h.view(p) == v
                agent = make_agent(NOPEEK, p, 99)
                agent.attach(h.table, h.rules)
                agent.bind_worlds(lambda rng, h=h, p=p: h.sample_world(p, rng))
                answers.append(agent.choose(h.pending(), h.view(p)))
                assert agent.stats["searched"] == 1
            assert answers[1:] == answers[:1] * 2, f"{ruleset}: the answer changed with hidden state at {n}"
            checked += 1
        g.submit(p, agents[p].choose(d, v))
        n += 1
    assert checked >= 3
    assert differed >= checked * 2


# ------------------------------------------------------------------ where worlds are bound
def test_the_session_binds_worlds_for_search_seats():
    from game.session import GameSession

    g = _game("doubles", 3)
    s = GameSession(g, {1: "ai:normal:iters=1,k=2", 2: "human"}, ai_seed=3, autosave=False)
    agent = s.agents[1]
    assert agent.worlds is not None and agent.table is g.table
    w = agent.worlds(random.Random(1))
    assert w is not s.game and w.view(1) == s.game.view(1)
    while s.pending() is not None and s.pending().player == 1:
        s.submit(*s.ai_choose())
    # the bound function reads the session's game when called: still right after undo or load
    s.game = g.clone()
    assert agent.worlds(random.Random(2)).view(1) == s.game.view(1)


def test_the_cli_takes_agent_parameters():
    rc, out = simulate_one_json("normal:iters=1,k=2,steps=6", "random")
    assert rc == 0 and out["errors"] == 0 and out["agents"]["p1"] == "normal:iters=1,k=2,steps=6"


# ------------------------------------------------------------------ when the search changes easy's answer
def _hard(**kw):
    return make_agent("hard:" + ",".join(f"{k}={v}" for k, v in kw.items()) if kw else "hard", 1, 0)


def test_easy_pick_gives_way_only_to_evidence():
    """Column 0 is easy's pick. One round never changes it; a steady lead of 1.0 over 4 rounds
    does; a lead of 0.3 drowned in noise (paired differences +2.3, -1.7, +2.3, -1.7) does not."""
    a = _hard()
    assert a.z == 1.0 and a.margin == 0.05
    assert not a._beats_pick([[0.0, 5.0]], 1)
    assert a._beats_pick([[0.0, 1.0], [1.0, 2.0], [2.0, 3.0], [-1.0, 0.0]], 1)
    noisy = [[0.0, 2.3], [0.0, -1.7], [0.0, 2.3], [0.0, -1.7]]
    assert not a._beats_pick(noisy, 1)
    # with z=0 the best mean over margin wins, as before
    assert _hard(z=0)._beats_pick(noisy, 1)


def test_search_settles_when_no_candidate_can_be_much_better():
    a = _hard()
    assert a.tie == 0.25 and a.settle == 4
    same = [[1.0, 1.0, 1.0]] * 4                       # every candidate led to the same score
    assert a._settled(same)
    clear = [[3.0, 0.0, 1.0], [2.5, 0.2, 0.9], [3.1, -0.1, 1.2], [2.9, 0.1, 1.0]]
    assert a._settled(clear)
    close = [[1.0, 1.5, 0.0], [1.0, 0.3, 0.0], [1.0, 1.6, 0.0], [1.0, 0.2, 0.0]]   # 0.9 +- 0.7
    assert not a._settled(close)


def test_frontier_position_term_counts_shots_from_where_models_stand():
    """The term is mine minus theirs (antisymmetric), and a model with a gun gains when an
    enemy stands in its range and sight on the open table, against the same enemy far off."""
    import copy

    g = _game("frontier", 3)
    a = make_agent("hard", 1, 0)
    a.attach(g.table, g.rules)
    st = g.state
    u = a.utility
    assert abs(u.frontier_position(st, 1) + u.frontier_position(st, 2)) < 1e-9
    pol = u.policy
    shooters = [m for m in st.models.values() if m.player == 1 and m.wounds > 0
                and pol.ranged({"items": m.items})]
    assert shooters, "the Sheriffs carry guns"
    me = shooters[0]
    near, far = copy.deepcopy(st), copy.deepcopy(st)
    for s in (near, far):   # keep one model a side: the shooter and one enemy, on open ground
        enemy = next(m for m in s.models.values() if m.player == 2)
        for m in s.models.values():
            if m.id not in (me.id, enemy.id):
                m.wounds = 0
        mine = s.models[me.id]
        mine.x, mine.y, mine.z = 30.0 * 25.4, 22.0 * 25.4, 0.0
        enemy.x, enemy.y, enemy.z = mine.x + (3.0 * 25.4 if s is near else 0.0), mine.y, 0.0
    far_enemy = next(m for m in far.models.values() if m.player == 2 and m.wounds > 0)
    far_enemy.x, far_enemy.y = 2.0 * 25.4, 2.0 * 25.4
    assert u.frontier_position(near, 1) != u.frontier_position(far, 1)
    # near: both may shoot (the balance is the two fighters' numbers); far: nobody is in range,
    # and each side pays for the distance it must still close
    assert u.frontier_position(far, 1) == pytest.approx(0.0, abs=1e-9)


def test_frontier_movement_phase_is_left_to_easy():
    """Frontier's movement-phase moves are easy's (FrontierPolicy.trusted) for ``normal`` and for
    ``hard:searched=``: the truncated look-ahead traded easy's advances for Hold and lost to easy
    (docs/ai.md). Such an agent answers each such decision with easy's pick and runs no search
    for it (``hard`` searches it since 2026-12-08, through the reply, with other destinations)."""
    g = _game("frontier", 21)
    agents = _agents(g, ("easy", "easy"), 21)
    seen = 0
    n = 0
    while (d := g.pending()) is not None and seen < 3 and n < 400:
        p = d.player
        v = g.view(p)
        if d.kind == "move" and len(d.options) > 1:
            hard = make_agent(LEFT, p, 5)
            hard.attach(g.table, g.rules)
            hard.bind_worlds(lambda rng, p=p: g.sample_world(p, rng))
            easy = make_agent("easy", p, 0)
            easy.attach(g.table, g.rules)
            hard.easy = easy   # the same easy as the reference, so the two picks can be compared
            ref = make_agent("easy", p, 0)
            ref.attach(g.table, g.rules)
            assert hard.choose(d, v) == ref.choose(d, v)
            assert hard.stats["searched"] == 0
            seen += 1
        g.submit(p, agents[p].choose(d, v))
        n += 1
    assert seen == 3


# ------------------------------------------------------------------ racing and widening
def test_hard_given_hard_2026s_parameters_plays_its_games():
    """The rounds' loop was rewritten for racing (issue 61, item 3); with ``race=0`` and
    hard-2026's k and depth it is hard-2026's own loop: the same answers, the same game."""
    from test_ai_hard_2026 import STRETCH, _stretch

    assert _stretch("doubles", "hard:iters=2,k=4,depth=2,race=0") == STRETCH["doubles"]


def test_racing_drops_a_hopeless_challenger_for_the_next_option():
    """With ``race`` on, a challenger that plays out as easy's pick (or worse) is dropped and
    the next ranked option is tried: more options looked at than ``k``, the answer legal."""
    g = _game("doubles", 3)
    agents = _agents(g, ("easy", "easy"), 3)
    a = make_agent("hard:iters=8,k=2,race=2,prefilter=30", 1, 4)
    a.attach(g.table, g.rules)
    a.bind_worlds(lambda rng: g.sample_world(1, rng))
    n = 0
    while (d := g.pending()) is not None and n < 200 and a.stats["dropped"] == 0:
        v = g.view(d.player)
        c = a.choose(d, v) if d.player == 1 else agents[d.player].choose(d, v)
        g.submit(d.player, c)
        n += 1
    assert a.stats["dropped"] > 0 and a.stats["errors"] == 0
    assert not make_agent("hard", 1, 0).race, "racing is off by default (not shown to help)"
