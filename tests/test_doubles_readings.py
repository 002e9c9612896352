"""Doubles: the three readings issue 32 put right (seed 004_664065b4c29fdc82.txt), each checked
three ways: the pure rule with forced dice, the exact odds of ``odds.py`` against a brute-force
enumeration of every roll through the duel's own code, and a scripted game through Game.submit.

- A penalty die never makes a test easier (``penalty_rule="cancels_highest"``, the default).
- A tactical advantage deals exactly 1 point, armour aside ("Le défenseur encaisse 1pt de
  dommage"; ``tactical_advantage_fixed_damage=True``, the default).
- A defender's double 6 in melee is low ammunition ("Double 6 : Peu de munitions", its only
  double-6 defence; ``melee_defender_double_six="low_ammunition"``, the default).
"""
from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
from test_doubles_rules import new_game, stage, submit, texts

from engine.core.rng import GameRng
from engine.rulesets.doubles import damage as dmg
from engine.rulesets.doubles import duel as dl
from engine.rulesets.doubles.data import DoublesOptions
from engine.rulesets.doubles.odds import double_test_chance, duel_odds, side_dist
from engine.rulesets.doubles.rules import Announce, ChooseEffect, KeepDice, Shoot

RULES = ("cancels_highest", "must_keep", "opponent_discards")


def _at_least(n: int, pen: int, rule: str) -> dict:
    """P(result >= t) for t = 0..12, a side keeping its best result."""
    dist: dict = {}
    for (score, _dbl), rem in side_dist(n, pen, rule).items():
        dist[score] = dist.get(score, F(0)) + sum(rem.values())
    return {t: sum((p for s, p in dist.items() if s >= t), F(0)) for t in range(13)}


# --------------------------------------------------------------------------- 1. penalty dice
def test_aptitude_two_with_a_penalty_die_hand_computed():
    """Aptitude 2 passes a double test 1/6 of the time. With one penalty die:
    - cancels_highest (default): the penalty die sets aside the highest die (itself on a tie) and
      a pair with a penalty die is no double, so the test passes only when the two dice match and
      the penalty die is not under them: sum over v of 1/36 x (7 - v)/6 = 21/216 = 7/72;
    - must_keep: the penalty die is kept with either die: 1 - (5/6)^2 = 11/36, easier than 1/6;
    - opponent_discards: one die is left, never a double: 0."""
    o = {r: DoublesOptions(penalty_rule=r) for r in RULES}
    assert double_test_chance(2) == F(1, 6)
    assert double_test_chance(2, penalty=1) == F(7, 72) < F(1, 6)
    assert double_test_chance(2, penalty=1, options=o["must_keep"]) == F(11, 36) > F(1, 6)
    assert double_test_chance(2, penalty=1, options=o["opponent_discards"]) == 0
    # an advantage and a penalty still cancel one for one
    assert double_test_chance(2, advantage=1, penalty=1) == F(1, 6)


@pytest.mark.parametrize("rule", RULES)
def test_double_test_odds_match_every_roll_through_the_duel_code(rule):
    """``odds.double_test_chance`` against all 6^(n+pen) rolls forced through ``duel.double_test``."""
    opts = DoublesOptions(penalty_rule=rule)
    rng = GameRng(0)
    for n, pen in [(0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (2, 3), (3, 2)]:
        dice = n + (pen if rule != "opponent_discards" else 0)
        passed = 0
        for faces in itertools.product(range(1, 7), repeat=dice):
            rng.force(*faces)
            passed += dl.double_test(n, rng, penalty=pen, options=opts)
            assert rng.forced_left == 0
        assert double_test_chance(n, penalty=pen, options=opts) == F(passed, 6 ** dice), (n, pen)


def test_a_penalty_never_makes_a_roll_better_by_default():
    """For every pool of 0-6 dice and 1-3 penalty dice, by default: the chance of each result or
    better, and the chance of a double, are never higher than without the penalty (exact). The
    former default, must_keep, fails both: a penalty die adds a die to the sum of a small pool."""
    for n in range(7):
        base, base_dbl = _at_least(n, 0, "cancels_highest"), double_test_chance(n)
        for pen in (1, 2, 3):
            got = _at_least(n, pen, "cancels_highest")
            assert all(got[t] <= base[t] for t in range(13)), (n, pen)
            assert double_test_chance(n, penalty=pen) <= base_dbl, (n, pen)
    mk = DoublesOptions(penalty_rule="must_keep")
    # Defence 2 with armour's penalty die defends better under must_keep: 6 or more goes from 26/36
    # to P(penalty + the higher die >= 6) = sum over the higher die m of (2m - 1)/36 x P(penalty
    # >= 6 - m) = (2 + 9 + 20 + 35 + 54 + 66)/216 = 31/36
    assert _at_least(2, 0, "must_keep")[6] == F(26, 36)
    assert _at_least(2, 1, "must_keep")[6] == F(31, 36) > F(26, 36)
    assert _at_least(2, 1, "cancels_highest")[6] < F(26, 36)
    assert double_test_chance(1, penalty=1, options=mk) == F(1, 6) > double_test_chance(1) == 0


def test_a_penalty_never_raises_the_chance_to_hit_or_to_avoid_a_hit():
    """Duel odds (exact, the odds model): a penalty die on the attacker never raises its chances to
    hit, wound or take out; one on the defender never lowers them."""
    for na in range(1, 5):
        for nd in range(1, 4):
            clean = duel_odds("shoot", (na, 0), (nd, 0), health=3, protection=1)
            for pen in (1, 2):
                weak = duel_odds("shoot", (na, pen), (nd, 0), health=3, protection=1)
                assert weak.hit <= clean.hit and weak.wounded <= clean.wounded and weak.out <= clean.out, (na, nd, pen)
                exposed = duel_odds("shoot", (na, 0), (nd, pen), health=3, protection=1)
                assert exposed.hit >= clean.hit and exposed.wounded >= clean.wounded and exposed.out >= clean.out


# --------------------------------------------------------------------------- 2 and 3. the duel's odds
def _played_odds(kind, attack, defence, options, *, protection=0, health=3):
    """Every roll of both pools forced through ``duel.py`` with the odds model's decisions (the
    defender rolls first; best keeps; the attacker's double 1-5 a Flaw, or a Tactical advantage when
    the results tie and its remaining dice would not win; its double 6 the force attack; the
    defender's double 1-5 Aggressiveness, its double 6 Low ammunition where offered, else
    Aggressiveness; under opponent_discards the highest die set aside), damage by
    ``damage.duel_damage``."""
    (na, pa), (nd, pd) = attack, defence
    ad = na + (pa if options.penalty_rule != "opponent_discards" else 0)
    dd = nd + (pd if options.penalty_rule != "opponent_discards" else 0)
    count = {"hit": 0, "wounded": 0, "out": 0, "low": 0, "force": 0}
    rng = GameRng(0)
    for dfaces in itertools.product(range(1, 7), repeat=dd):
        for afaces in itertools.product(range(1, 7), repeat=ad):
            rng.force(*dfaces, *afaces)
            d = dl.start_duel(kind, dl.PoolSpec(na, penalty=pa), dl.PoolSpec(nd, penalty=pd), first="defender",
                              options=options)
            while not isinstance(step := dl.next_step(d), dl.ResolveStep):
                if isinstance(step, dl.RollStep):
                    d = dl.roll(d, step.role, rng)
                elif isinstance(step, dl.KeepStep):
                    d = dl.keep(d, step.role, step.options[0])
                elif isinstance(step, dl.EffectStep):
                    if step.role == "defender":
                        pick = next(e for e in (dl.LOW_AMMUNITION, dl.AGGRESSIVENESS, dl.NO_EFFECT) if e in step.options)
                    elif dl.FORCE_ATTACK in step.options:
                        pick = dl.FORCE_ATTACK
                    else:
                        a, df = d.attacker, d.defender
                        tie_lost = a.score == df.score and not a.remaining > df.remaining
                        pick = dl.TACTICAL_ADVANTAGE if tie_lost else dl.FLAW
                    d = dl.choose_effect(d, step.role, pick)
                elif isinstance(step, dl.DiscardStep):     # opponent_discards: the highest die goes
                    d = dl.discard(d, step.role, max(step.options, key=lambda x: x.value).id)
                else:
                    raise AssertionError(step)   # the model makes no manoeuvre
            assert rng.forced_left == 0
            r = dl.resolve(d)
            count["low"] += r.low_ammunition
            count["force"] += r.force_attacks > 0
            o = dmg.duel_damage(r, protection=protection, options=options)
            if o is not None:
                count["hit"] += 1
                count["wounded"] += o.instant_death or o.points >= 1
                count["out"] += o.instant_death or o.points >= health
    return {k: F(v, 6 ** (ad + dd)) for k, v in count.items()}


@pytest.mark.parametrize("kind, attack, defence, options", [
    ("shoot", (2, 1), (2, 0), {}),                                          # the defaults
    ("melee", (2, 0), (2, 1), {}),
    ("melee", (3, 0), (2, 0), {"melee_defender_double_six": "two_effects"}),
    ("shoot", (2, 0), (2, 0), {"tactical_advantage_fixed_damage": False}),
    ("shoot", (2, 1), (2, 0), {"penalty_rule": "must_keep"}),
    ("melee", (2, 0), (3, 1), {"penalty_rule": "opponent_discards"}),
])
def test_duel_odds_match_every_roll_played_through_the_duel_code(kind, attack, defence, options):
    """``odds.duel_odds`` (exact) equals the enumeration of every roll of both sides, played out
    through ``duel.py`` and ``damage.py`` with the odds model's decisions, against armour 1."""
    opts = DoublesOptions(**options)
    want = _played_odds(kind, attack, defence, opts, protection=1, health=3)
    got = duel_odds(kind, attack, defence, health=3, protection=1, options=opts)
    assert (got.hit, got.wounded, got.out, got.low_ammunition, got.force_attack) == \
        (want["hit"], want["wounded"], want["out"], want["low"], want["force"])


def test_tactical_advantage_against_armour_hand_computed():
    """2 dice against 2 dice, armour 1. The ties the attacker wins by tactical advantage: its double
    (k, k), k = 1..5 (1/36 each), against a defender total of 2k (neither side has dice left, so
    the remaining dice would not decide it): 1, 3, 5, 5 and 3 ordered pairs, 17 of 1296. By
    default each deals exactly 1 point; with the table reading armour takes it (0, and less with
    the defender's Aggressiveness). Everything else is equal, so the chance to wound differs by
    exactly 17/1296."""
    fixed = duel_odds("shoot", (2, 0), (2, 0), health=9, protection=1)
    table = duel_odds("shoot", (2, 0), (2, 0), health=9, protection=1,
                      options=DoublesOptions(tactical_advantage_fixed_damage=False))
    assert fixed.hit == table.hit
    assert fixed.wounded - table.wounded == F(17, 1296)
    assert fixed.damage[1] - table.damage[1] == F(17, 1296)
    assert table.damage[0] - fixed.damage.get(0, F(0)) == F(17, 1296)


def test_melee_double_six_odds_hand_computed():
    """A melee defender of 2 dice keeps a double 6 1/36 of the time: by default that is low
    ammunition for the attacker (1/36); with two_effects none (it is Aggressiveness)."""
    assert duel_odds("melee", (3, 0), (2, 0), health=3).low_ammunition == F(1, 36)
    two = DoublesOptions(melee_defender_double_six="two_effects")
    assert duel_odds("melee", (3, 0), (2, 0), health=3, options=two).low_ammunition == 0
    assert duel_odds("shoot", (3, 0), (2, 0), health=3, options=two).low_ammunition == F(1, 36)


# --------------------------------------------------------------------------- scripted games
def _lokee_faces_bones(options=None):
    """Lokee 7.5 cm in front of Bones (armour 1, 6 health), inside his vision arc: no back shot.
    Bones is lower on the track, so he rolls first."""
    g = stage(new_game(options=options), {"1.lokee": (200, 100, 90), "2.bones": (200, 200, 270)}, "1.lokee",
              ["1.lokee", "2.bones"])
    submit(g, Shoot("1.lokee", "2.bones", weapon="knife"))
    submit(g, Announce("1.lokee", 0))
    return g


@pytest.mark.parametrize("fixed, damage, health", [(True, 1, 5), (False, 0, 6)])
def test_tactical_advantage_against_armour_in_play(fixed, damage, health):
    """004_664065b4c29fdc82.txt: 'Tactical Advantage: In case of a tie on the first roll, the
    attacker wins without comparing the remaining Ds. The defender takes 1 point of damage.' By
    default Bones' armour does not take that point off; with the table reading it does."""
    g = _lokee_faces_bones({"tactical_advantage_fixed_damage": fixed})
    # Bones: 3 dice + armour's penalty die (6: not under his best die, set aside); Lokee: Throw 4 +
    # knife 1 + short range 1 = 6 dice
    g.state.rng.force(4, 2, 1, 6, 3, 3, 1, 1, 1, 2)
    ev = submit(g, Announce("2.bones", 0))
    assert "set aside (cancelled by penalty dice): 6 (penalty die)" in texts(ev)
    submit(g, KeepDice("2.bones", (4, 2)))
    submit(g, KeepDice("1.lokee", (3, 3)))
    ev = submit(g, ChooseEffect("1.lokee", "tactical_advantage"))
    assert f"Lokee hits Bones, 6 against 6 (tactical advantage): {damage} damage; {health} health left" in texts(ev)
    assert g.state.fighters["2.bones"].health == health


@pytest.mark.parametrize("faces, falls", [((3, 3, 5), False), ((4, 2, 2), True), ((3, 3, 2), True)])
def test_armour_penalty_on_the_off_balance_test_in_play(faces, falls):
    """Bones (Aptitude 2, armour: a penalty die on every test) takes a force attack and survives,
    then tests for a double or falls. A penalty 5 is set aside (not under his 3s): the double of 3
    stands. A penalty 2 under a 4 takes its place, and 2 + penalty 2 is no double (under the old
    must_keep reading it was, and armour kept him up). A penalty 2 under 3, 3 breaks the double."""
    g = _lokee_faces_bones()
    g.state.rng.force(5, 4, 1, 6, 6, 6, 1, 1, 1, 1)   # Bones 5 + 4 (penalty 6 set aside); Lokee 6 + 6
    submit(g, Announce("2.bones", 0))
    submit(g, KeepDice("2.bones", (5, 4)))
    submit(g, KeepDice("1.lokee", (6, 6)))
    g.state.rng.force(*faces, 3)                       # the off-balance test, then the knife's break test
    ev = submit(g, ChooseEffect("1.lokee", "force_attack"))
    # 12 - 9 = 3: 2 points, armour to 0, +1 force attack = 3
    assert "Lokee hits Bones, 12 against 9: 3 damage; 3 health left" in texts(ev)
    assert ("it falls to the ground" in texts(ev)) == falls
    assert g.state.fighters["2.bones"].on_ground == falls
    assert g.state.rng.forced_left == 0


def test_melee_double_six_gives_two_effects_only_with_the_option():
    """The default is covered in play by test_doubles_rules.py::test_low_ammunition_applies_in_melee_too;
    with melee_defender_double_six="two_effects" the defender picks two different 1-5 defences and
    the attacker is not low on ammunition."""
    from engine.rulesets.common import MoveTo
    from engine.rulesets.doubles.rules import MeleeAttack
    g = stage(new_game(options={"melee_defender_double_six": "two_effects"}),
              {"1.grit": (200, 300, 270), "2.marrow": (200, 220, 90)}, "1.grit", ["1.grit", "2.marrow"])
    submit(g, [o for o in g.pending().options if isinstance(o, MoveTo)][0])     # charge
    submit(g, MeleeAttack("1.grit", "2.marrow"))
    submit(g, Announce("1.grit", 0))
    g.state.rng.force(6, 6, 1, 2, 3, 4, 5)
    submit(g, Announce("2.marrow", 0))
    assert {o.effect for o in g.pending().options} == {"manoeuvre", "aggressiveness", "intimidation", "cover", "none"}
    submit(g, ChooseEffect("2.marrow", "cover"))
    assert "cover" not in {o.effect for o in g.pending().options}
    submit(g, ChooseEffect("2.marrow", "aggressiveness"))
    ev = submit(g, KeepDice("1.grit", (4, 3)))
    assert "Marrow avoids Grit's blow, 12 against 7" in texts(ev) and "low on ammunition" not in texts(ev)
    assert not g.state.fighters["1.grit"].status.low_ammunition
    assert g.state.fighters["2.marrow"].status.aggressiveness == 1
