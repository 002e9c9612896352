"""Frontier's opponent card model (``easy_frontier.FrontierPolicy.opponent_plays``), used by the
search agents' card choices: the opponent's card is the one it would choose from a hand dealt
from the cards it may hold, not any of those cards evenly."""
from __future__ import annotations

import copy
import random

import pytest
from ai_fixtures import _agents, _game
from test_ai_easy import _hidden_variants

from engine.ai.easy_frontier import FrontierPolicy
from engine.rulesets.frontier.cards import full_deck


def _to_card_decision(seed: int, kind: str):
    """An easy v easy town game played to its first decision of ``kind``."""
    g = _game("frontier", seed)
    agents = _agents(g, ("easy", "easy"), seed)
    while (d := g.pending()) is not None:
        if d.kind == kind:
            return g, d, agents
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    raise AssertionError(f"no {kind} decision in game {seed}")


def _policy(g, d, agents) -> tuple[FrontierPolicy, dict, tuple, dict]:
    a = agents[d.player]
    v = g.view(d.player)
    pol = a.policy(v)
    pol.agent.rng = random.Random(5)
    ms = {m["id"]: m for m in v["models"]}
    return pol, v, pol.test_context(v, ms), ms


def test_a_one_card_hand_is_any_card_evenly():
    """Holding one card, the opponent plays it: its card is any it may hold, evenly."""
    g, d, agents = _to_card_decision(3, "attack card")
    pol, v, test, _ = _policy(g, d, agents)
    opp = 3 - d.player
    v = copy.deepcopy(v)
    v["cards"][str(opp)].update(hand_size=1, committed=0)
    pol.MODEL_HANDS = 4000
    plays = pol.opponent_plays(v, test, opp)
    shown = set(v["cards"][str(opp)]["played"])
    pool = [c for c in full_deck() if c.code not in shown]
    assert all(len(cs) == 1 for cs, _ in plays)
    assert abs(sum(w for _, w in plays) - 1.0) < 1e-9
    assert len(plays) > 0.9 * len(pool)
    assert max(w for _, w in plays) < 3.0 / len(pool)


def test_a_whole_pool_hand_is_its_best_card():
    """Holding every card it may hold, the opponent always plays its best one: the card whose
    expected gain against every card we may hold, less its price, is the highest."""
    g, d, agents = _to_card_decision(3, "attack card")
    pol, v, test, _ = _policy(g, d, agents)
    opp = 3 - d.player
    shown = set(v["cards"][str(opp)]["played"])
    pool = [c for c in full_deck() if c.code not in shown]
    v = copy.deepcopy(v)
    v["cards"][str(opp)].update(hand_size=len(pool), committed=0, pairs_played=9)   # no pair
    plays = pol.opponent_plays(v, test, opp)
    mine = [((c,), w) for c, w in pol.unseen(v, d.player)]
    opp_attacking = test[0]["player"] == opp
    values = {c: pol.play_value(test, (c,), mine, opp_attacking) - pol.price((c,), opp) for c in pool}
    best = max(values.values())
    assert len(plays) >= 1 and abs(sum(w for _, w in plays) - 1.0) < 1e-9
    for (c,), _w in plays:
        assert values[c] == pytest.approx(best)


def test_the_committed_count_says_single_or_pair():
    """Defending, we see how many cards the attacker committed: one card is not a pair, two are
    a leader's pair, and the model keeps to what was seen."""
    g, d, agents = _to_card_decision(4, "defend card")
    pol, v, test, _ = _policy(g, d, agents)
    opp = 3 - d.player
    v1 = copy.deepcopy(v)
    v1["cards"][str(opp)].update(hand_size=6, committed=1, pairs_played=0)
    assert all(len(cs) == 1 for cs, _ in pol.opponent_plays(v1, test, opp))
    attacker = test[0]
    if pol.profile(attacker).role == "leader":
        v2 = copy.deepcopy(v)
        v2["cards"][str(opp)].update(hand_size=5, committed=2, pairs_played=0)
        plays = pol.opponent_plays(v2, test, opp)
        assert plays and all(len(cs) == 2 for cs, _ in plays)


@pytest.mark.parametrize("kind", ["attack card", "defend card"])
def test_modelled_card_choice_does_not_depend_on_hidden_state(kind):
    """With the model on, the same view gives the same card whatever the opponent really holds
    (the model deals hands from the agent's own RNG, out of the cards the view leaves unseen)."""
    checked = 0
    for seed in (3, 4, 5, 6):
        g = _game("frontier", seed)
        agents = _agents(g, ("easy", "easy"), seed)
        for a in agents.values():
            a.policy(g.view(a.player)).model_cards = True
        while (d := g.pending()) is not None and checked < 6 * (1 + (seed - 3)):
            p = d.player
            v = g.view(p)
            if d.kind == kind and len(d.options) > 1:
                want = copy.deepcopy(agents[p]).choose(d, v)
                for k in range(3):
                    h = _hidden_variants(g, p, k)
                    assert h.view(p) == v and h.state_hash() != g.state_hash()
                    assert copy.deepcopy(agents[p]).choose(h.pending(), h.view(p)) == want
                checked += 1
            g.submit(p, agents[p].choose(d, v))
    assert checked >= 12


def test_search_agents_model_the_opponents_card():
    from engine.ai import make_agent

    g = _game("frontier", 3)
    for name in ("normal", "hard"):
        a = make_agent(name, 1, 1)
        a.attach(g.table, g.rules)
        assert a.easy.policy(g.view(1)).model_cards is True
        assert all(not r.policy(g.view(q)).model_cards for q, r in a.roll.items())
    e = make_agent("easy", 1, 1)
    e.attach(g.table, g.rules)
    assert e.policy(g.view(1)).model_cards is False


def test_healing_counts_for_whoever_heals(monkeypatch):
    """Heart of the Town healing is worth half a wound to the side that heals: a defender's own
    healing makes a card better for it, not worse (the sign was once wrong for defenders)."""
    from engine.rulesets.frontier import duel

    g, d, agents = _to_card_decision(3, "attack card")
    pol, v, test, _ = _policy(g, d, agents)
    real = duel.resolve_combat if test[6]["kind"] == "combat" else duel.resolve_shot
    name = real.__name__
    heals = {"attacker_healed": 0, "defender_healed": 0}

    def healed(*a, **k):
        r = real(*a, **k)
        assert isinstance(r, duel.DuelNumbers)     # the scorer asks for the numbers only
        return r._replace(**heals)

    monkeypatch.setattr(duel, name, healed)
    card = (full_deck()[0],)
    theirs = [((full_deck()[1],), 1.0)]
    base_att = pol.play_value(test, card, theirs, True)
    base_def = pol.play_value(test, card, theirs, False)
    heals["defender_healed"] = 2
    pol._gains.clear()   # the policy keeps each duel's worth (the duel is pure); this one changed
    assert pol.play_value(test, card, theirs, False) == pytest.approx(base_def + 1.0)
    assert pol.play_value(test, card, theirs, True) == pytest.approx(base_att - 1.0)
    heals.update(attacker_healed=2, defender_healed=0)
    pol._gains.clear()
    assert pol.play_value(test, card, theirs, True) == pytest.approx(base_att + 1.0)
