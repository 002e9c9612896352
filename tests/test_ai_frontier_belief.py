"""Frontier: the search agent remembers the cards it saw played that have gone to the discard
(``engine/ai/frontier_belief.py``), and its sampled worlds keep them there; its answers still
depend on nothing but the views it was handed and its own RNG."""
from __future__ import annotations

import copy
import random

from ai_fixtures import _agents, _game  # noqa: E402
from test_ai_search import _hidden_variant  # noqa: E402

from engine.ai import make_agent

AGENT = "hard:iters=2,prefilter=6,steps=16"


def _played_into_turn(seed: int, turn: int, kinds: tuple = ()):
    """An easy v easy Frontier game played into ``turn``, a search agent for player 1 handed
    every view player 1 was handed; the game, that agent and the real discard's codes."""
    g = _game("frontier", seed)
    agents = _agents(g, ("easy", "easy"), seed)
    hard = make_agent(AGENT, 1, 5)
    hard.attach(g.table, g.rules)
    hard.bind_worlds(lambda rng: g.sample_world(1, rng))
    n = 0
    while (d := g.pending()) is not None and n < 600:
        v = g.view(d.player)
        if d.player == 1:
            hard.memory.observe(v)
            if g.state.turn >= turn and hard.memory.gone[2] and (not kinds or d.kind in kinds):
                return g, hard, d
        g.submit(d.player, agents[d.player].choose(d, v))
        n += 1
    raise AssertionError("the game never reached that turn")


def test_remembered_cards_are_in_the_discard_and_worlds_keep_them_there():
    for seed in (4, 9):
        g, hard, _ = _played_into_turn(seed, 2)
        gone = hard.memory.gone[2]
        real = {c.code for c in g.state.cards[2].discard}
        assert gone and gone <= real, "the memory holds only cards that really went to the discard"
        for k in range(12):
            w = hard._world(k)
            assert w.view(1) == g.view(1), "a conditioned world is still one player 1 cannot tell apart"
            piles = w.state.cards[2]
            elsewhere = {c.code for name in ("hand", "committed", "deck") for c in getattr(piles, name)}
            assert not (elsewhere & gone), "a world dealt a card player 1 saw going to the discard"
            every = [c.code for name in ("deck", "hand", "committed", "played", "discard")
                     for c in getattr(piles, name)]
            assert len(every) == len(set(every)) == 54


def test_plain_worlds_deal_remembered_cards_elsewhere():
    """Why the memory is needed: ``Game.sample_world`` alone (hard-2026's worlds) deals some of
    those cards into the opponent's hand or deck."""
    g, hard, _ = _played_into_turn(4, 2)
    gone = hard.memory.gone[2]
    hits = 0
    for k in range(12):
        piles = g.sample_world(1, random.Random(k)).state.cards[2]
        hits += bool({c.code for c in piles.hand + piles.deck} & gone)
    assert hits > 0


def test_answers_with_a_memory_do_not_depend_on_hidden_state():
    """Hold the views fixed (the memory is built from them) and change what player 1 may not
    know, the remembered cards included: the same agent, copied, answers the same in each."""
    checked = 0
    for seed in (4, 9, 13):
        # a test card: easy's pick there models the opponent's card from the cards it may hold
        g, hard, d = _played_into_turn(seed, 2, ("attack card", "defend card"))
        v = g.view(1)
        answers = []
        for k in range(-1, 3):
            h = g if k < 0 else _hidden_variant(g, 1, k)
            assert h.view(1) == v
            a = copy.deepcopy(hard)
            a.bind_worlds(lambda rng, h=h: h.sample_world(1, rng))
            answers.append(a.choose(h.pending(), h.view(1)))
        assert answers[1:] == answers[:1] * 3, f"seed {seed}: the answer changed with hidden state"
        checked += 1
    assert checked == 3
