"""The attack-odds query (``Rules.attack_odds`` / ``Game.attack_odds`` -> ``AttackOdds``) for the
three rulesets: Counterblast wraps its exact odds (the labels' numbers), Doubles enumerates its
dice under a stated model of the players' keeps and effects, Frontier enumerates the cards the
asking player cannot see (and never peeks). Seeds: 003_*.txt (Counterblast), 004_*.txt (Doubles),
000_*.txt (Frontier).
"""
import re
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from engine.ai import make_agent
from engine.core import AttackOdds, Game, Setup
from engine.data.maps import load_map
from engine.paths import resolve_map

sys.path.insert(0, str(Path(__file__).resolve().parent))

from counterblast_fixtures import CLOSE, staged  # noqa: E402


def label_of(g, choice):
    d = g.pending()
    return d.labels[d.options.index(choice)]


def check_odds(a: AttackOdds):
    """Probabilities in [0, 1]; the nested outcomes never grow down the list; the same for every
    part and variant."""
    assert isinstance(a, AttackOdds) and a.summary and a.outcomes and a.method
    assert a.outcomes[0][0].startswith("hit")
    probs = [p for _, p in a.outcomes]
    for _, p in a.outcomes + a.others:
        assert 0.0 <= p <= 1.0 + 1e-12
    for wide, narrow in zip(probs, probs[1:]):
        assert narrow <= wide + 1e-12, a.outcomes
    for p in a.parts:
        check_odds(p)
    for _, v in a.variants:
        check_odds(v)


# ------------------------------------------------------------------------------- the core API

def test_game_attack_odds_defaults_to_the_pending_player_and_changes_nothing():
    from engine.rulesets.counterblast import choices as C
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7)})
    g.submit(g.pending().player, C.ActivateSingle("1-ranger-1"))
    before = g.state_hash()
    shot = C.Shoot("1-ranger-1", "pulse-carbine", "2-drone-1")
    a = g.attack_odds(shot)
    assert a == g.attack_odds(shot, player=1) and (a.attacker, a.target) == ("1-ranger-1", "2-drone-1")
    assert a.exact and a.method == "exact" and a.to_json()["outcomes"][0][0] == "hit"
    assert g.attack_odds(C.EndActivation()) is None                       # not an attack
    assert g.state_hash() == before


# ------------------------------------------------------------------------------- Counterblast

def test_counterblast_shot_odds_are_the_labels_and_odds_py():
    """A Ranger (Zap 4, carbine damage 1) shoots a Gun Drone (Defense 3, Mettle 2) at difficulty 7
    in the open: the Down chance is the label's, and every number is ``odds.attack_odds``'s."""
    from engine.rulesets.counterblast import choices as C
    from engine.rulesets.counterblast.odds import attack_odds
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7)})
    g.submit(1, C.ActivateSingle("1-ranger-1"))
    shot = C.Shoot("1-ranger-1", "pulse-carbine", "2-drone-1")
    a = g.attack_odds(shot)
    want = attack_odds(4, 7, 1, 3, mettle=2)
    assert a.p("hit") == float(1 - want.successes.p(0))
    assert a.p("1+ token") == float(want.tokens.at_least(1))
    assert a.p("Down") == float(want.outcome.down_or_worse)
    assert a.p("casualty") == float(want.outcome.casualty)
    pct = re.search(r"(\d+)% to put it Down\)$", label_of(g, shot)).group(1)
    assert f"{a.p('Down'):.0%}" == pct + "%"
    assert f"{pct}% to put it Down" in a.summary


def test_counterblast_strike_odds_use_the_frenzy_explosions_like_the_label():
    """Mad Tibbs (Grit 5, claws damage 2, Frenzy: strikes explode on 8) strikes a Gun Drone."""
    from engine.rulesets.counterblast import choices as C
    from engine.rulesets.counterblast.odds import attack_odds
    from engine.rulesets.counterblast.rules import _attack_chance
    contact = (18 * 25.4 + 15 + 12.5 + 0.3) / 25.4
    g = staged({"1-tibbs": (18, 7), "2-drone-1": (contact, 7)}, rosters=("dustjaw-raiders", "iron-choir"))
    g.submit(1, C.ActivateSingle("1-tibbs"))
    strike = C.Strike("1-tibbs", "claws", "2-drone-1")
    a = g.attack_odds(strike)
    assert a.p("Down") == pytest.approx(_attack_chance(5, 7, 2, 8, 3, 2, 0, False), abs=1e-12)
    assert a.p("Down") == float(attack_odds(5, 7, 2, 3, explode_on=8, mettle=2).outcome.down_or_worse)
    assert label_of(g, strike).endswith(f"{a.p('Down'):.0%} to put it Down)")


def test_counterblast_return_fire_prices_the_reactors_own_shot():
    """The Gun Drone answers the Ranger's shot with Return fire: its odds are those of its own shot
    at the Ranger (no Aim-Assist or Aim: it is not in the activation), by the label's formula."""
    from engine.rulesets.counterblast import attacks, damage
    from engine.rulesets.counterblast import choices as C
    from engine.rulesets.counterblast.rules import _attack_chance
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7)}, moxie=(3, 3))
    g.submit(1, C.ActivateSingle("1-ranger-1"))
    g.submit(1, C.Shoot("1-ranger-1", "pulse-carbine", "2-drone-1"))
    d = g.pending()
    rf = next(o for o in d.options if isinstance(o, C.React) and o.reaction == "return_fire")
    a = g.attack_odds(rf)
    assert (a.attacker, a.target) == ("2-drone-1", "1-ranger-1")
    r, st = g.rules, g.state
    diff, explode = r._shot_params(st, "2-drone-1", rf.weapon, "1-ranger-1")
    prof = r.profile["1-ranger-1"]
    ddice = damage.defense_pool(prof.defense, cover=r.cover(st, "2-drone-1", "1-ranger-1"), attack="shoot")
    want = _attack_chance(attacks.pool_size(r.zap(st, "2-drone-1"), 0, r.opt), diff,
                          r.armoury.shooting_weapon(rf.weapon).damage, explode, ddice, prof.mettle, 0, False)
    assert a.p("Down") == pytest.approx(want, abs=1e-12)
    assert g.attack_odds(C.NoReaction()) is None
    assert g.attack_odds(next(o for o in d.options if isinstance(o, C.React) and o.reaction == "action_roll")) is None


def test_counterblast_split_attack_combines_independent_checks():
    """Each target of a split shot has its own check: P(at least one hit) = 1 - both miss."""
    from engine.rulesets.counterblast import choices as C
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7), "2-drone-2": (24, 9)})
    g.submit(1, C.ActivateSingle("1-ranger-1"))
    g.submit(1, C.Aim("1-ranger-1"))
    split = C.SplitShoot("1-ranger-1", "pulse-carbine", ("2-drone-1", "2-drone-2"), (2, 2))
    a = g.attack_odds(split)
    assert [p.target for p in a.parts] == ["2-drone-1", "2-drone-2"]
    # 003_52d4831de0a47706.txt: 'All attacks made by splitting dice are considered to be a single
    # instance of the respective action': the Aim (-1) helps both checks
    assert "(2 dice, difficulty 6" in a.parts[0].summary and "(2 dice, difficulty 6" in a.parts[1].summary
    assert a.parts[0].hit == pytest.approx(a.parts[1].hit)
    miss = (1 - a.parts[0].hit) * (1 - a.parts[1].hit)
    assert a.hit == pytest.approx(1 - miss)
    check_odds(a)


# ------------------------------------------------------------------------------- Doubles

def test_doubles_one_die_against_one_die():
    """1d6 against 1d6, no armour, health 2. Each keeps its only die (no double possible). The
    attack hits when its die is higher: 15 of 36. A tie has no remaining dice on either side
    (0 = 0, a second tie): the attack fails. Damage: difference 1-2 -> 1 point, 3-4 -> 2,
    5 -> 3; out of action (2+ points) on a difference of 3+: 3 + 2 + 1 = 6 of 36."""
    from engine.rulesets.doubles.odds import duel_odds
    o = duel_odds("shoot", (1, 0), (1, 0), health=2)
    assert o.hit == F(15, 36) and o.wounded == F(15, 36) and o.out == F(6, 36)
    assert o.force_attack == 0 and o.low_ammunition == 0


def test_doubles_two_dice_against_one_with_doubles_and_armour():
    """2d6 (keeps both) against 1d6. P(sum > d) over d = 1..6 is (36+35+33+30+26+21)/216 =
    181/216; a tie (sum = d) is won only with a double, by tactical advantage: (1,1) v 2,
    (2,2) v 4, (3,3) v 6, 3 more: 184/216.
    With armour 1: a plain hit wounds from a difference of 3 (2 points - 1); a double 1-5 is a
    Flaw (armour to 0) and a double 6 a force attack (armour 0, +1): every such hit on the result
    wounds (doubles k=1: d=1 -> 1; k=2: d<4 -> 3; k=3: d<6 -> 5; k=4,5,6: 6 each -> 27). Plain
    pairs, counted by sum s (ordered pairs x defender dice d <= s-3): s4 2x1, s5 4x2, s6 4x3,
    s7 6x4, s8 4x5, s9 4x6, s10 2x6, s11 2x6 = 114. A tie won by tactical advantage deals
    exactly 1 point by default (the seed: 'the defender takes 1 point of damage'): 3 more.
    Wounded: (27 + 114 + 3)/216 = 144/216; with tactical_advantage_fixed_damage=False the
    armour takes that point (1 - 1 = 0): 141/216."""
    from engine.rulesets.doubles.data import DoublesOptions
    from engine.rulesets.doubles.odds import duel_odds
    assert duel_odds("shoot", (2, 0), (1, 0), health=9).hit == F(184, 216)
    o = duel_odds("shoot", (2, 0), (1, 0), health=9, protection=1)
    assert o.hit == F(184, 216) and o.wounded == F(144, 216)
    assert o.force_attack == F(1, 36)
    table = DoublesOptions(tactical_advantage_fixed_damage=False)
    assert duel_odds("shoot", (2, 0), (1, 0), health=9, protection=1, options=table).wounded == F(141, 216)


def test_doubles_defender_double_is_aggressiveness():
    """1d6 against 2d6: the attack hits when its die beats the defender's sum S (a tie fails:
    no remaining dice): S=2 (1 way) a=3..6, S=3 (2 ways) a=4..6, S=4 (3 ways) a=5,6, S=5 (4 ways)
    a=6: 4 + 6 + 6 + 4 = 20 of 216. A defender's double takes 1 point off: S=2 is (1,1) -> hits
    by 1-2 deal 0, by 3-4 deal 1 (a=5,6: 2); S=3 all wound (6); S=4: (1,3),(3,1) wound (4), (2,2)
    by 1-2 deals 0; S=5 (4). Wounded: 16 of 216. A shot's double 6 is low ammunition: 1/36."""
    from engine.rulesets.doubles.odds import duel_odds
    o = duel_odds("shoot", (1, 0), (2, 0), health=9)
    assert o.hit == F(20, 216) and o.wounded == F(16, 216) and o.low_ammunition == F(1, 36)


def test_doubles_penalty_die_cancels_the_highest_or_must_be_kept():
    """1 die + 1 penalty die. Default (cancels_highest): the higher of the two is set aside (the
    penalty die on a tie), so the result is the lower die: P(v) = (13 - 2v)/36, never a double, no
    remaining dice. must_keep: the keep is both dice, so the result is their sum and (1, 1) is a
    double 1: 1/36."""
    from engine.rulesets.doubles.odds import keep_of, side_dist
    d = side_dist(1, 1)
    assert d == {(v, 0): {0: F(13 - 2 * v, 36)} for v in range(1, 7)}
    assert keep_of((6, 5), (1,)) == (1, 6)
    assert keep_of((6,), (3, 2)) == (3, 2)
    d = side_dist(1, 1, "must_keep")
    assert sum(sum(r.values()) for r in d.values()) == 1
    assert d[(2, 1)] == {0: F(1, 36)}


@pytest.mark.parametrize("n, pen", [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (0, 1), (1, 1), (3, 1),
                                    (0, 2), (2, 2), (1, 3), (2, 1), (4, 1), (3, 2)])
def test_doubles_side_distribution_matches_every_roll_kept_by_best_keep(n, pen):
    """``side_dist`` (built die by die) against all 6^(n+pen) rolls, each cut down by the duel's
    own ``cancel_highest`` (default) and kept by its ``best_keep``: the same (result, double,
    remaining) distribution, exactly; then the same for ``must_keep``."""
    import itertools

    from engine.rulesets.doubles import duel as dl
    from engine.rulesets.doubles.data import DoublesOptions
    from engine.rulesets.doubles.odds import side_dist
    for rule in ("cancels_highest", "must_keep"):
        opts = DoublesOptions(penalty_rule=rule)
        want = {}
        for faces in itertools.product(range(1, 7), repeat=n + pen):
            dice = tuple(dl.Die(i, v, i >= n) for i, v in enumerate(faces))
            if rule == "cancels_highest":
                dice, _ = dl.cancel_highest(dice, pen)
            kp = dl.best_keep(dice, opts) if dice else dl.Keep(())
            key = (kp.total, kp.values[0] if kp.is_double else 0)
            rem = sum(d.value for d in dice) - kp.total
            want.setdefault(key, {}).setdefault(rem, F(0))
            want[key][rem] += F(1, 6 ** (n + pen))
        assert side_dist(n, pen, rule) == want, rule
    # opponent_discards: the opponent sets the highest dice aside, the rest are kept at best
    want = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        left = sorted(faces, reverse=True)[pen:]
        kept = left[:2]
        key = (sum(kept), kept[0] if len(kept) == 2 and kept[0] == kept[1] else 0)
        want.setdefault(key, {}).setdefault(sum(left) - sum(kept), F(0))
        want[key][sum(left) - sum(kept)] += F(1, 6 ** n)
    assert side_dist(n, pen, "opponent_discards") == want


def test_doubles_shot_through_the_game_uses_the_state_machine_pools():
    """Lokee (Throw 4 + knife 1 + short range 1 = 6 dice) at Bones (Defence 3 + an armour
    penalty die; armour 1), no back shot, no AP: the same as ``duel_odds`` of those pools."""
    from test_doubles_rules import _lokee_and_bones, new_game

    from engine.rulesets.doubles.odds import duel_odds
    from engine.rulesets.doubles.rules import EndActivation, Shoot
    g = _lokee_and_bones(new_game(), (200, 100, 90))
    before = g.state_hash()
    a = g.attack_odds(Shoot("1.lokee", "2.bones", weapon="knife"))
    bones = g.state.fighters["2.bones"]
    o = duel_odds("shoot", (6, 0), (3, 1), health=bones.health, protection=1, options=g.rules.opts)
    assert a.outcomes == (("hit", float(o.hit)), ("1+ damage", float(o.wounded)), ("out of action", float(o.out)))
    assert "6 dice vs 3 + 1 penalty" in a.summary and "Aggressiveness" in a.assumptions
    assert g.attack_odds(EndActivation("1.lokee")) is None
    assert g.state_hash() == before


# ------------------------------------------------------------------------------- Frontier

def test_frontier_card_odds_hand_computed():
    """Example 1's fight (the Sheriff leader, strength 3, hunting knife +1, plays the J of Spades:
    3 + 11 + 1 = 15) against an Outlaw ganger (defence 1, toughness 1, 3 wounds) whose card is one
    of 7D, 2C, KD, equally likely:
    7D: 1 + 7 = 8, margin 7 -> 2, +1 knife -1 toughness = 2 wounds;
    2C: 1 + 2 = 3, margin 12 -> 3, +1 -1 = 3 wounds (out of action);
    KD: 1 + 13 + 1 (favoured King) = 15, a tie with a favoured card on both sides: a score draw.
    So: hit 2/3, 2+ wounds 2/3, 3 wounds (out) 1/3."""
    from engine.rulesets.frontier import duel
    from engine.rulesets.frontier.cards import card
    from engine.rulesets.frontier.odds import card_test_odds, class_counts
    leader = duel.Fighter("sheriffs", 3, 2, 2, 2, 3, 3, is_leader=True)
    ganger = duel.Fighter("outlawmen", 1, 1, 1, 1, 3, 3)
    knife = duel.Weapon("hunting knife", 1, 1.0, thrown=True)
    o = card_test_odds("combat", leader, ganger, duel.Play.of(card("JS")),
                       class_counts([card("7D"), card("2C"), card("KD")], "outlawmen"), knife)
    assert o.hit == F(2, 3) and o.at_least(2) == F(2, 3) and o.out == F(1, 3)
    assert o.wounds == {0: F(1, 3), 2: F(1, 3), 3: F(1, 3)}
    # a lone joker is the favoured ace: 1 + 14 + 2 = 17 beats 15
    j = card_test_odds("combat", leader, ganger, duel.Play.of(card("JS")),
                       class_counts([card("7D"), card("JK1")], "outlawmen"), knife)
    assert j.hit == F(1, 2)


def _frontier_fight(hand2, deck2):
    """Example 1 on the table: the Marshal (hand JS + hearts) fights Outlaw 1. Player 2's cards:
    ``hand2`` in hand, ``deck2`` in the deck in that order, every other card face up in its
    played pile (so only hand2 + deck2 are unseen by player 1)."""
    from test_frontier_rules import OPEN, contact, new_game, place, stack, to_main

    from engine.rulesets.frontier.cards import card, full_deck
    g = new_game()
    g.state.models["p2-outlaw_1"].wounds = 2         # as in example 1 (the shipped gangers have 3 since issue 32)
    stack(g, 1, ["JS", "2H", "3H", "4H", "5H", "6H", "8H", "9H"])
    place(g, "p2-outlaw_1", *OPEN)
    contact(g, "p1-marshal", "p2-outlaw_1")
    to_main(g, active=1)
    piles = g.state.cards[2]
    hidden = [card(x) for x in hand2 + deck2]
    piles.hand, piles.deck = [card(x) for x in hand2], [card(x) for x in deck2]
    piles.committed, piles.discard = [], []
    piles.played = [c for c in full_deck() if c not in hidden]
    g._pending_ok = False
    return g


def test_frontier_fight_odds_per_card_from_the_attackers_view():
    """Player 1 cannot see 7D, 2C (player 2's hand) and KD (its deck): each is 1/3. Outlaw 1 has
    2 wounds. With the J of Spades (15, see above): 2 wounds, 3 wounds, a score draw -> hit 2/3,
    taken out 2/3. With the 6 of Hearts (3 + 6 = 9): v 7D (8) margin 1 -> 1 + 1 knife - 1 = 1
    wound; v 2C (3) margin 6 -> 2 + 1 - 1 = 2 (out); v KD (15) fails -> hit 2/3, 1+ wound 2/3,
    taken out 1/3."""
    from engine.rulesets.frontier.rules import Commit, Fight
    g = _frontier_fight(["7D", "2C"], ["KD"])
    assert g.state.models["p2-outlaw_1"].wounds == 2
    fight = Fight("p1-marshal", "p2-outlaw_1", "hunting_knife")
    a = g.attack_odds(fight)
    check_odds(a)
    by_card = dict(a.variants)
    assert set(by_card) == {"JS", "2H", "3H", "4H", "5H", "6H", "8H", "9H"}
    js, h6 = by_card["JS"], by_card["6H"]
    assert js.outcomes == (("hit", 2 / 3), ("1+ wound", 2 / 3), ("taken out", 2 / 3))
    assert h6.outcomes == (("hit", 2 / 3), ("1+ wound", 2 / 3), ("taken out", 1 / 3))
    assert a.variants[0][0] == "JS" and "best card, the Jack of Spades" in a.summary
    assert a.outcomes == js.outcomes
    # the same numbers once the fight is declared, for the card committed
    g.submit(1, fight)
    assert g.attack_odds(Commit(("JS",))).outcomes == js.outcomes
    assert g.attack_odds(Commit(("JS",)), player=2) is None   # player 1's secret card


def test_frontier_odds_never_peek():
    """Two states that differ only in player 2's hand and deck order (same unseen cards, same
    hand size) give identical odds to player 1; a different face-up played pile does not."""
    from engine.rulesets.frontier.rules import Fight
    fight = Fight("p1-marshal", "p2-outlaw_1", "hunting_knife")
    a = _frontier_fight(["7D", "2C"], ["KD", "QS", "3C"])
    b = _frontier_fight(["3C", "KD"], ["QS", "2C", "7D"])
    assert a.attack_odds(fight, 1).to_json() == b.attack_odds(fight, 1).to_json()
    assert a.attack_odds(fight, None).to_json() == b.attack_odds(fight, None).to_json()
    c = _frontier_fight(["7D", "2C"], ["KD", "QS", "4C"])
    assert c.attack_odds(fight, 1).to_json() != a.attack_odds(fight, 1).to_json()


# ------------------------------------------------------------------------------- every option of random games

def _walk(g, seed, decisions, must_answer):
    """Play ``decisions`` random decisions; at each, ask the odds of every option (as the deciding
    player and as a spectator) and check them. Returns how many attacks were priced."""
    agents = {1: make_agent("random", 1, seed), 2: make_agent("random", 2, seed + 1)}
    priced = 0
    for _ in range(decisions):
        d = g.pending()
        if d is None:
            break
        before = g.state_hash()
        for o in d.options:
            for who in (d.player, None):
                a = g.attack_odds(o, who)
                if a is not None:
                    check_odds(a)
                    priced += 1
                elif who == d.player:
                    assert not isinstance(o, must_answer), o
        assert g.state_hash() == before
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    return priced


@pytest.mark.parametrize("seed", [3, 5, 11])
def test_counterblast_random_games_every_option(seed):
    from engine.rulesets.counterblast import choices as C
    g = Game(Setup("counterblast", CLOSE, (), {"deployment": "automatic"}, seed))
    agents = {1: make_agent("random", 1, seed), 2: make_agent("random", 2, seed + 1)}
    priced = 0
    while (d := g.pending()) is not None:
        for o, lab in zip(d.options, d.labels):
            a = g.attack_odds(o)
            if isinstance(o, (C.Shoot, C.Strike, C.SplitShoot, C.SplitStrike, C.PsiStrike)):
                assert a is not None, lab
            if a is None:
                continue
            check_odds(a)
            priced += 1
            if isinstance(o, (C.Shoot, C.Strike)):          # the label shows the same Down chance
                m = re.search(r"(\d+)% to (put|finish)", lab)
                goal = a.outcomes[2][1]
                assert f"{goal:.0%}" == m.group(1) + "%", (lab, a.summary)
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    assert priced > 0


@pytest.mark.parametrize("seed", [1, 4])
def test_doubles_random_games_every_option(seed):
    from test_doubles_rules import arena_map

    from engine.rulesets.doubles.rules import MeleeAttack, Shoot
    g = Game(Setup("doubles", arena_map(), (), {"deployment": "automatic"}, seed))
    assert _walk(g, seed, 400, (Shoot, MeleeAttack)) > 0


@pytest.mark.parametrize("seed", [2, 7])
def test_frontier_random_games_every_option(seed):
    from engine.rulesets.frontier.rules import Fight, Shoot
    g = Game(Setup("frontier", load_map(resolve_map("town")), (), {"deployment": "automatic"}, seed))
    assert _walk(g, seed, 300, (Shoot, Fight)) > 0


def test_doubles_defence_announce_odds_step_with_each_ap():
    """Issue 31: the defender's AP for extra defence dice come with the odds of each count (a
    stepper): the attack as announced against that many more dice, each AP lowering the odds."""
    from engine.ai import make_agent
    from engine.rulesets.doubles import odds as dodds
    g = Game(Setup("doubles", load_map(resolve_map("prehistoric")), (), {"deployment": "automatic"}, 4))
    agents = {p: make_agent("easy", p, p) for p in (1, 2)}
    for a in agents.values():
        a.attach(g.table, g.rules)
    while not ((d := g.pending()).kind == "announce defence" and len(d.options) >= 3):
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    hits = [g.attack_odds(o).outcomes[0][1] for o in d.options]
    assert all(a > b for a, b in zip(hits, hits[1:]))
    at = g.state.attack
    from dataclasses import replace
    att, dfs = g.rules.pools(g.state, replace(at, defence_ap=d.options[1].ap))
    want = dodds.duel_odds(at.kind, att.counts(g.rules.opts), dfs.counts(g.rules.opts),
                           health=g.state.fighters[at.defender].health,
                           protection=g.rules.protection(g.state.fighters[at.defender]),
                           back_shot=at.back is not None, target_on_ground=g.state.fighters[at.defender].on_ground,
                           aggressiveness_this_turn=g.state.fighters[at.defender].status.aggressiveness,
                           options=g.rules.opts)
    assert hits[1] == pytest.approx(float(want.hit))
