"""Doubles: the duel, with scripted dice (seed 004_664065b4c29fdc82.txt)."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.rng import GameRng
from engine.rulesets.doubles.data import DoublesOptions
from engine.rulesets.doubles.duel import (
    AGGRESSIVENESS,
    COVER,
    FLAW,
    FORCE_ATTACK,
    INTIMIDATION,
    LOW_AMMUNITION,
    MANOEUVRE,
    NO_EFFECT,
    PRECISE_ATTACK,
    TACTICAL_ADVANTAGE,
    Die,
    DiscardStep,
    DuelError,
    EffectStep,
    Keep,
    KeepStep,
    ManoeuvreStep,
    PoolSpec,
    ResolveStep,
    RollStep,
    aptitude_test,
    attack_pool,
    choose_effect,
    defence_pool,
    discard,
    keep,
    legal_keeps,
    make_keep,
    manoeuvre,
    next_step,
    off_balance_test,
    play_out,
    resolve,
    roll,
    start_duel,
    take_step,
)

SEED = "004_664065b4c29fdc82.txt"
MUST_KEEP = DoublesOptions(penalty_rule="must_keep")


DEFAULT_OPTIONS = DoublesOptions()


def K(*vals, pen=(), options=DEFAULT_OPTIONS):
    return make_keep(tuple(sorted(vals, reverse=True)), tuple(sorted(pen, reverse=True)), options)


def rolled(duel, role, rng, *values):
    rng.force(*values)
    d = roll(duel, role, rng)
    assert rng.forced_left == 0
    return d


# --- pools ------------------------------------------------------------------------------------
def test_attack_pool_is_characteristic_plus_weapon_bonus_plus_ap():
    # 004_664065b4c29fdc82.txt: "uses his characteristic by adding his weapon bonus. The total
    # is the number of D6"; "Action points can be spent to each add an additional D"
    spec = attack_pool(3, 2, action_points=1)
    assert spec.counts() == (6, 0)
    assert defence_pool(3, action_points=2).counts() == (5, 0)


def test_advantage_adds_a_die_and_penalty_a_kept_die_they_cancel():
    assert PoolSpec(3, advantage=1).counts() == (4, 0)
    assert PoolSpec(3, penalty=1).counts() == (3, 1)
    assert PoolSpec(3, advantage=2, penalty=1).counts() == (4, 0)
    no_cancel = DoublesOptions(cancel_advantage_and_penalty=False)
    assert PoolSpec(3, advantage=1, penalty=1).counts(no_cancel) == (4, 1)


def test_penalty_die_is_rolled_with_the_pool_and_cancels_the_highest_die():
    # 004_664065b4c29fdc82.txt: "These penalty D6s are to be rolled at the same time as the attack"
    # (the default reading, penalty_rule="cancels_highest": a penalty never makes a roll better)
    rng = GameRng(0)
    d = start_duel("shoot", PoolSpec(3, penalty=1), PoolSpec(2), first="attacker")
    d = rolled(d, "attacker", rng, 6, 5, 1, 2)        # three dice, then the penalty die (2)
    side = d.side("attacker")
    assert [x.value for x in side.set_aside] == [6]   # the 2 is lower than the 6: it takes its place
    step = next_step(d)
    assert isinstance(step, KeepStep)
    assert step.options == (K(5, 2, pen=(2,)), K(5, 1), K(2, 1, pen=(2,)))   # best 7, not 6 + 5 = 11
    # a penalty die that does not roll under the best die is set aside itself: nothing changes
    d = start_duel("shoot", PoolSpec(3, penalty=1), PoolSpec(2), first="attacker")
    d = rolled(d, "attacker", rng, 6, 5, 1, 6)
    assert [(x.value, x.penalty) for x in d.side("attacker").set_aside] == [(6, True)]
    assert next_step(d).options[0] == K(6, 5)
    # a pair with a penalty die in it is no double: no effect is offered for it
    d = start_duel("shoot", PoolSpec(2, penalty=1), PoolSpec(2), first="attacker")
    d = rolled(d, "attacker", rng, 4, 2, 2)
    assert next_step(d).options == (K(2, 2, pen=(2,)),) and not K(2, 2, pen=(2,)).is_double
    assert "no double" in K(2, 2, pen=(2,)).describe()
    d = keep(d, "attacker", K(2, 2, pen=(2,)))
    assert next_step(d) == RollStep("defender", "pool")


def test_must_keep_option_keeps_the_penalty_die():
    # the former default, kept as penalty_rule="must_keep": the penalty die is added and must be kept
    rng = GameRng(0)
    d = start_duel("shoot", PoolSpec(3, penalty=1), PoolSpec(2), first="attacker", options=MUST_KEEP)
    d = rolled(d, "attacker", rng, 6, 5, 1, 2)
    step = next_step(d)
    assert all(2 in kp.penalty_values for kp in step.options)
    assert step.options[0] == K(6, 2, pen=(2,), options=MUST_KEEP)
    assert K(6, 5, options=MUST_KEEP) not in step.options
    # under must_keep a penalty die does make doubles: this is what made a penalty help
    d = start_duel("shoot", PoolSpec(2, penalty=1), PoolSpec(2), first="attacker", options=MUST_KEEP)
    d = keep(rolled(d, "attacker", rng, 4, 2, 2), "attacker", K(2, 2, pen=(2,), options=MUST_KEEP))
    assert isinstance(next_step(d), EffectStep)


def test_keeps_are_distinct_and_best_first():
    dice = [Die(0, 4), Die(1, 4), Die(2, 4), Die(3, 1)]
    assert legal_keeps(dice) == (K(4, 4), K(4, 1))
    assert legal_keeps([]) == (Keep(()),)
    assert legal_keeps([Die(0, 5)]) == (Keep((5,)),)


# --- order and comparison -----------------------------------------------------------------------
def test_lower_on_track_rolls_and_keeps_first():
    # 004_664065b4c29fdc82.txt: "The lowest character on the initiative track makes its attack
    # or defense test first"
    d = start_duel("shoot", PoolSpec(2), PoolSpec(2), first="defender")
    assert next_step(d) == RollStep("defender", "pool")
    with pytest.raises(DuelError):
        roll(d, "attacker", GameRng(0))
    rng = GameRng(0)
    d = rolled(d, "defender", rng, 3, 1)
    assert isinstance(next_step(d), KeepStep) and next_step(d).role == "defender"
    d = keep(d, "defender", K(3, 1))
    assert next_step(d) == RollStep("attacker", "pool")


def play(first, a_spec, d_spec, script, kind="shoot", options=DEFAULT_OPTIONS):
    """Run a duel where ``script`` lists, in order, forced dice for rolls (lists) and answers."""
    rng = GameRng(0)
    d = start_duel(kind, a_spec, d_spec, first=first, options=options)
    it = iter(script)
    while not isinstance(step := next_step(d), ResolveStep):
        if isinstance(step, RollStep):
            rng.force(*next(it))
            d = roll(d, step.role, rng)
        elif isinstance(step, KeepStep):
            d = keep(d, step.role, next(it))
        elif isinstance(step, EffectStep):
            d = choose_effect(d, step.role, next(it))
        elif isinstance(step, ManoeuvreStep):
            value, dice, *want_kept = next(it)
            want_kept = want_kept[0] if want_kept else True
            target = d.side("defender" if step.role == "attacker" else "attacker")
            die = next(x for x in step.options if x.value == value and (x.id in (target.kept or ())) == want_kept)
            rng.force(*dice)
            d = manoeuvre(d, step.role, die.id, rng)
        else:
            raise AssertionError(step)
        assert rng.forced_left == 0
    assert next(it, None) is None, "script not used up"
    return d, resolve(d)


def test_higher_result_wins_and_hits():
    # 004_664065b4c29fdc82.txt: "The highest result wins the fight"
    d, r = play("attacker", PoolSpec(3), PoolSpec(3),
                [[6, 5, 1], K(6, 5), [4, 3, 2], K(4, 3)])
    assert r.winner == "attacker" and r.hit and r.difference == 4 and r.decided_by == "result"


def test_tie_goes_to_remaining_dice_then_the_attack_fails():
    # 004_664065b4c29fdc82.txt: "In case of a tie, compare the total of the remaining dice ...
    # In the event of a new tie, the attack fails."
    _, r = play("attacker", PoolSpec(3), PoolSpec(3), [[5, 3, 4], K(5, 3), [6, 2, 1], K(6, 2)])
    assert (r.attack_score, r.defence_score, r.attack_remaining, r.defence_remaining) == (8, 8, 4, 1)
    assert r.winner == "attacker" and r.decided_by == "remaining_dice" and r.difference == 0
    _, r = play("attacker", PoolSpec(3), PoolSpec(3), [[5, 3, 2], K(5, 3), [6, 2, 2], K(6, 2)])
    assert r.winner == "defender" and r.decided_by == "second_tie" and not r.hit


# --- attacker doubles 1-5 -----------------------------------------------------------------------
def test_attacker_double_offers_the_four_effects_or_none():
    # 004_664065b4c29fdc82.txt: "Any double : (from 1 to 5) - Precise Attack ... - Maneuver ...
    # - Flaw ... - Tactical Advantage"
    rng = GameRng(0)
    d = start_duel("shoot", PoolSpec(3), PoolSpec(3), first="attacker")
    d = keep(rolled(d, "attacker", rng, 4, 4, 1), "attacker", K(4, 4))
    step = next_step(d)
    assert step == EffectStep("attacker", 4, (PRECISE_ATTACK, MANOEUVRE, FLAW, TACTICAL_ADVANTAGE, NO_EFFECT))
    with pytest.raises(DuelError):
        choose_effect(d, "attacker", AGGRESSIVENESS)


def test_precise_attack_before_the_defender_rolls_adds_a_penalty_die():
    # 004_664065b4c29fdc82.txt: "Precise Attack : Gives penalty to opponent."
    d, r = play("attacker", PoolSpec(3), PoolSpec(3), [
        [4, 4, 1], K(4, 4), PRECISE_ATTACK,
        [6, 5, 1, 2], K(5, 2, pen=(2,)),            # 6+5 = 11 would have won; the penalty 2 cancels the 6
    ])
    assert r.attacker_effects == (PRECISE_ATTACK,)
    assert (r.attack_score, r.defence_score) == (8, 7) and r.winner == "attacker"
    # must_keep: the penalty 2 must stay beside the 6
    d, r = play("attacker", PoolSpec(3), PoolSpec(3), [
        [4, 4, 1], K(4, 4, options=MUST_KEEP), PRECISE_ATTACK,
        [6, 5, 1, 2], K(6, 2, pen=(2,), options=MUST_KEEP),
    ], options=MUST_KEEP)
    assert (r.attack_score, r.defence_score) == (8, 8)
    assert r.winner == "defender" and r.decided_by == "remaining_dice"   # 1 against 5+1


def test_precise_attack_after_the_defender_rolled_makes_it_roll_a_penalty_die_and_keep_again():
    d, r = play("defender", PoolSpec(3), PoolSpec(3), [
        [6, 5, 1], K(6, 5),
        [3, 3, 1], K(3, 3), PRECISE_ATTACK,
        [2], K(5, 2, pen=(2,)),                     # the 2 takes the kept 6's place: 5 + 2
    ])
    assert r.defence_score == 7 and r.winner == "defender"
    assert [x.value for x in d.defender.set_aside] == [6]
    d, r = play("defender", PoolSpec(3), PoolSpec(3), [
        [6, 5, 1], K(6, 5, options=MUST_KEEP),
        [3, 3, 1], K(3, 3, options=MUST_KEEP), PRECISE_ATTACK,
        [2], K(6, 2, pen=(2,), options=MUST_KEEP),
    ], options=MUST_KEEP)
    assert r.defence_score == 8 and r.winner == "defender"


def test_attacker_manoeuvre_rerolls_a_defender_die_and_it_keeps_again():
    # 004_664065b4c29fdc82.txt: "Maneuver : Chooses a D from his opponent who must roll it again."
    d, r = play("attacker", PoolSpec(3), PoolSpec(3), [
        [2, 2, 5], K(2, 2), MANOEUVRE,
        [6, 5, 1], K(6, 5),
        (6, [1]), K(5, 1),                           # the kept 6 is rerolled: a 1
    ])
    assert r.rerolls == 1 and (r.attack_score, r.defence_score) == (4, 6)


def test_manoeuvre_waits_for_the_opponent_to_roll():
    rng = GameRng(0)
    d = start_duel("shoot", PoolSpec(2), PoolSpec(2), first="attacker")
    d = choose_effect(keep(rolled(d, "attacker", rng, 3, 3), "attacker", K(3, 3)), "attacker", MANOEUVRE)
    assert next_step(d) == RollStep("defender", "pool")


def test_flaw_and_tactical_advantage_are_reported():
    # 004_664065b4c29fdc82.txt: "Tactical Advantage: In case of a tie on the first roll, the
    # attacker wins without comparing the remaining Ds."
    _, r = play("attacker", PoolSpec(3), PoolSpec(3), [
        [3, 3, 1], K(3, 3), TACTICAL_ADVANTAGE,
        [5, 1, 6], K(5, 1),                            # 6 = 6; the defender's remaining 6 is ignored
    ])
    assert r.winner == "attacker" and r.decided_by == "tactical_advantage" and r.difference == 0
    _, r = play("attacker", PoolSpec(2), PoolSpec(2), [[5, 5], K(5, 5), FLAW, [2, 1], K(2, 1)])
    assert r.flaws == 1 and r.difference == 7


# --- attacker double 6 --------------------------------------------------------------------------
def test_attacker_double_six_is_the_force_attack():
    # 004_664065b4c29fdc82.txt: "Double 6 : Attaque en force : (tous les effets suivants s'appliquent)"
    d, r = play("attacker", PoolSpec(3), PoolSpec(2), [
        [6, 6, 2], K(6, 6), FORCE_ATTACK, [3, 1], K(3, 1)])
    assert r.force_attacks == 1 and r.off_balance and r.weapon_break_tests and r.difference == 8
    rng = GameRng(0)
    d = start_duel("shoot", PoolSpec(2), PoolSpec(2), first="attacker")
    d = keep(rolled(d, "attacker", rng, 6, 6), "attacker", K(6, 6))
    assert next_step(d).options == (FORCE_ATTACK, NO_EFFECT)


def test_off_balance_needs_a_double_on_an_aptitude_test():
    # 004_664065b4c29fdc82.txt: "Off balance: The opponent must pass an aptitude test by rolling
    # a double or be knocked to the ground"
    rng = GameRng(0)
    rng.force(4, 2, 4)
    assert off_balance_test(3, rng) is False           # a double of 4: stays up
    rng.force(4, 2, 5)
    assert off_balance_test(3, rng) is True            # knocked down
    # armour's penalty die: a 5 does not roll under the 3s, so it is set aside and the double
    # of 3 stands; a 2 cancels a 3, and a pair with a penalty die is no double
    rng.force(3, 3, 5)
    assert off_balance_test(2, rng, penalty=1) is False
    rng.force(3, 3, 2)
    assert off_balance_test(2, rng, penalty=1) is True
    rng.force(4, 2, 2)                                 # 2 + penalty 2: a pair, not a double
    assert off_balance_test(2, rng, penalty=1) is True
    # must_keep: the penalty die is kept with one of the dice, so 4, 2 + penalty 2 is a double
    rng.force(4, 2, 2)
    assert off_balance_test(2, rng, penalty=1, options=MUST_KEEP) is False
    rng.force(3, 3, 5)
    assert off_balance_test(2, rng, penalty=1, options=MUST_KEEP) is True


# --- defender doubles ---------------------------------------------------------------------------
def test_defender_double_offers_its_four_effects():
    # 004_664065b4c29fdc82.txt: "The defender does : Any double : (from 1 to 5) - Maneuver ...
    # - Aggressiveness ... - intimidation ... - Cover"
    rng = GameRng(0)
    d = start_duel("shoot", PoolSpec(2), PoolSpec(2), first="defender")
    d = keep(rolled(d, "defender", rng, 2, 2), "defender", K(2, 2))
    assert next_step(d).options == (MANOEUVRE, AGGRESSIVENESS, INTIMIDATION, COVER, NO_EFFECT)


def test_defender_manoeuvre_rerolls_an_attacker_die():
    _, r = play("attacker", PoolSpec(3), PoolSpec(3), [
        [6, 5, 1], K(6, 5),
        [4, 4, 2], K(4, 4), MANOEUVRE,
        (6, [2]), K(5, 2),
    ])
    assert r.attack_score == 7 and r.defence_score == 8 and r.winner == "defender"


def test_aggressiveness_cover_and_intimidation():
    # 004_664065b4c29fdc82.txt: "intimidation : If the defender's score is higher than that of
    # the attacker, the latter loses the rest of his action points"
    _, r = play("attacker", PoolSpec(2), PoolSpec(2), [[3, 1], K(3, 1), [5, 5], K(5, 5), INTIMIDATION])
    assert r.intimidation and r.winner == "defender"
    _, r = play("defender", PoolSpec(2), PoolSpec(2), [[2, 2], K(2, 2), INTIMIDATION, [6, 5], K(6, 5)])
    assert INTIMIDATION in r.defender_effects and not r.intimidation     # lower score: no effect
    _, r = play("attacker", PoolSpec(2), PoolSpec(2), [[6, 5], K(6, 5), [1, 1], K(1, 1), AGGRESSIVENESS])
    assert r.aggressiveness == 1 and r.hit
    _, r = play("attacker", PoolSpec(2), PoolSpec(2), [[6, 5], K(6, 5), [1, 1], K(1, 1), COVER])
    assert r.cover == 1


def test_defender_double_six_is_low_ammunition_when_shot():
    # 004_664065b4c29fdc82.txt: "Double 6 : Peu de munitions : L'attaquant doit obtenir un double
    # sur un test d'aptitude au début du prochain tour pour pouvoir tirer."
    rng = GameRng(0)
    d = start_duel("shoot", PoolSpec(2), PoolSpec(2), first="defender")
    d = keep(rolled(d, "defender", rng, 6, 6), "defender", K(6, 6))
    assert next_step(d).options == (LOW_AMMUNITION, NO_EFFECT)
    d = choose_effect(d, "defender", LOW_AMMUNITION)
    d = keep(rolled(d, "attacker", rng, 3, 2), "attacker", K(3, 2))
    assert resolve(d).low_ammunition


def test_defender_double_six_in_melee_is_low_ammunition_or_two_effects_by_option():
    # 004_664065b4c29fdc82.txt: the defender's only double 6 is "Peu de munitions", for any
    # confrontation: the default gives it in melee too
    rng = GameRng(0)
    d = start_duel("melee", PoolSpec(2), PoolSpec(2), first="defender")
    d = keep(rolled(d, "defender", rng, 6, 6), "defender", K(6, 6))
    assert next_step(d).options == (LOW_AMMUNITION, NO_EFFECT)
    d = keep(rolled(choose_effect(d, "defender", LOW_AMMUNITION), "attacker", rng, 2, 1), "attacker", K(2, 1))
    assert resolve(d).low_ammunition and resolve(d).aggressiveness == 0
    # option melee_defender_double_six="two_effects": two different 1-5 defences
    two = DoublesOptions(melee_defender_double_six="two_effects")
    _, r = play("defender", PoolSpec(2), PoolSpec(2), [
        [6, 6], K(6, 6), COVER, AGGRESSIVENESS, [2, 1], K(2, 1)], kind="melee", options=two)
    assert r.defender_effects == (COVER, AGGRESSIVENESS) and not r.low_ammunition
    d = start_duel("melee", PoolSpec(2), PoolSpec(2), first="defender", options=two)
    d = choose_effect(keep(rolled(d, "defender", rng, 6, 6), "defender", K(6, 6)), "defender", COVER)
    assert COVER not in next_step(d).options and LOW_AMMUNITION not in next_step(d).options


def test_double_six_on_both_sides():
    # both force attack and low ammunition apply; 12 = 12, the remaining dice decide
    _, r = play("attacker", PoolSpec(3), PoolSpec(3), [
        [6, 6, 3], K(6, 6), FORCE_ATTACK,
        [6, 6, 1], K(6, 6), LOW_AMMUNITION,
    ])
    assert r.force_attacks == 1 and r.low_ammunition
    assert r.winner == "attacker" and r.decided_by == "remaining_dice" and r.difference == 0
    assert r.off_balance and r.weapon_break_tests


# --- rerolls ------------------------------------------------------------------------------------
def test_reroll_chain_effects_accumulate():
    # 004_664065b4c29fdc82.txt: "a triggered double remain active even if one of the results
    # needs to be re-rolled. The effects of doubles are therefore cumulative." and
    # "there is no limit to the re-roll of a dice."
    d, r = play("attacker", PoolSpec(3), PoolSpec(3), [
        [2, 2, 1], K(2, 2), MANOEUVRE,               # attacker first: manoeuvre waits
        [4, 4, 1], K(4, 4), MANOEUVRE,               # defender's own manoeuvre
        (4, [4]), K(4, 4), AGGRESSIVENESS,           # its rerolled 4 comes back 4: a new double
        (2, [2]), K(2, 2), FLAW,                     # the attacker's rerolled 2 is a 2 again
    ])
    assert r.attacker_effects == (MANOEUVRE, FLAW)
    assert r.defender_effects == (MANOEUVRE, AGGRESSIVENESS)
    assert r.rerolls == 2 and r.winner == "defender"


def test_an_unchanged_double_does_not_trigger_again():
    # the reroll hits a die outside the kept pair: the same double is kept, no second effect
    rng = GameRng(0)
    d = start_duel("shoot", PoolSpec(3), PoolSpec(3), first="defender")
    d = choose_effect(keep(rolled(d, "defender", rng, 3, 3, 6), "defender", K(3, 3)), "defender", AGGRESSIVENESS)
    d = choose_effect(keep(rolled(d, "attacker", rng, 2, 2, 1), "attacker", K(2, 2)), "attacker", MANOEUVRE)
    six = next(x for x in next_step(d).options if x.value == 6)
    rng.force(5)
    d = manoeuvre(d, "attacker", six.id, rng)
    d = keep(d, "defender", K(3, 3))
    assert isinstance(next_step(d), ResolveStep)        # no EffectStep: nothing new in the pair


def test_distinct_effects_option():
    opt = DoublesOptions(distinct_double_effects=True)
    rng = GameRng(0)
    d = start_duel("shoot", PoolSpec(3), PoolSpec(3), first="attacker", options=opt)
    d = choose_effect(keep(rolled(d, "attacker", rng, 2, 2, 1), "attacker", K(2, 2)), "attacker", FLAW)
    d = choose_effect(keep(rolled(d, "defender", rng, 4, 4, 1), "defender", K(4, 4)), "defender", MANOEUVRE)
    die = next(x for x in next_step(d).options if x.value == 2)
    rng.force(2)
    d = keep(manoeuvre(d, "defender", die.id, rng), "attacker", K(2, 2))
    assert FLAW not in next_step(d).options


def test_refusals_leave_the_duel_unchanged():
    rng = GameRng(0)
    d = start_duel("shoot", PoolSpec(2), PoolSpec(2), first="attacker")
    d = rolled(d, "attacker", rng, 3, 1)
    with pytest.raises(DuelError):
        keep(d, "attacker", K(6, 6))
    with pytest.raises(DuelError):
        keep(d, "defender", K(3, 1))
    with pytest.raises(DuelError):
        resolve(d)
    assert next_step(d) == KeepStep("attacker", (K(3, 1),))


def test_opponent_discards_option():
    opt = DoublesOptions(penalty_rule="opponent_discards")
    rng = GameRng(0)
    d = start_duel("shoot", PoolSpec(3), PoolSpec(3, penalty=1), first="defender", options=opt)
    d = rolled(d, "defender", rng, 6, 5, 1)
    step = next_step(d)
    assert isinstance(step, DiscardStep) and step.role == "attacker" and step.target == "defender"
    six = next(x for x in step.options if x.value == 6)
    d = discard(d, "attacker", six.id)
    assert next_step(d).options[0] == K(5, 1)


def test_aptitude_test_keeps_the_best_pair():
    rng = GameRng(0)
    rng.force(2, 6, 5)
    t = aptitude_test(3, rng)
    assert t.result == 11 and not t.has_double


# --- properties ---------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 6), st.integers(0, 2), st.integers(0, 3), st.integers(0, 6), st.integers(0, 2),
       st.integers(0, 3), st.sampled_from(["attacker", "defender"]), st.sampled_from(["shoot", "melee"]),
       st.sampled_from(["cancels_highest", "must_keep", "opponent_discards"]), st.integers(0, 10**6))
def test_random_duels_end_and_keep_the_rules(adice, aadv, apen, ddice, dadv, dpen, first, kind, rule, seed):
    opt = DoublesOptions(penalty_rule=rule)
    pick = random.Random(seed)
    rng = GameRng(seed)

    def chooser(step):
        if isinstance(step, KeepStep):
            side = d_holder[0].side(step.role)
            n = min(2, len(side.dice))
            need = min(n, sum(x.penalty for x in side.dice))
            assert all(len(kp.values) == n for kp in step.options)
            if rule == "must_keep":
                assert all(len(kp.penalty_values) == need for kp in step.options)
            if rule == "cancels_highest":      # a pair with a penalty die is no double
                assert all(not kp.is_double for kp in step.options if kp.penalty_values)
            if rule == "opponent_discards":
                assert not any(x.penalty for x in side.dice)
            return pick.choice(step.options)
        if isinstance(step, EffectStep):
            return pick.choice(step.options)
        return pick.choice(step.options).id

    d = start_duel(kind, PoolSpec(adice, 0, aadv, apen), PoolSpec(ddice, 0, dadv, dpen), first=first, options=opt)
    d_holder = [d]
    steps = 0
    while not isinstance(step := next_step(d), ResolveStep):
        steps += 1
        assert steps < 500
        d = take_step(d, step, rng, chooser)
        d_holder[0] = d
    r = resolve(d)
    assert r.hit == (r.attack_score > r.defence_score
                     or (r.attack_score == r.defence_score
                         and (TACTICAL_ADVANTAGE in r.attacker_effects or r.attack_remaining > r.defence_remaining)))
    assert 0 <= r.difference <= 12
    # the same seed and choices replay to the same duel
    pick2, rng2 = random.Random(seed), GameRng(seed)
    assert play_out(start_duel(kind, PoolSpec(adice, 0, aadv, apen), PoolSpec(ddice, 0, dadv, dpen),
                               first=first, options=opt), rng2,
                    lambda s: pick2.choice(s.options) if isinstance(s, (KeepStep, EffectStep))
                    else pick2.choice(s.options).id)[1] == r


# --- legal_keeps is kept per the roll (issue 28): the same answer as worked out afresh ----------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hs

from engine.rulesets.doubles import duel as _duel  # noqa: E402
from engine.rulesets.doubles.data import DoublesOptions  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(hs.lists(hs.tuples(hs.integers(1, 6), hs.booleans()), max_size=6),
       hs.sampled_from(["cancels_highest", "must_keep", "opponent_discards"]), hs.randoms())
def test_kept_legal_keeps_equal_a_fresh_answer_in_any_order(vals, rule, rnd):
    opts = DoublesOptions(penalty_rule=rule)
    dice = [Die(i, v, p) for i, (v, p) in enumerate(vals)]
    fresh = _duel._legal_keeps(tuple(dice), opts)
    assert legal_keeps(dice, opts) == fresh
    rnd.shuffle(dice)
    assert legal_keeps(dice, opts) == fresh          # the key is the roll, not the dice's order
    assert _duel._legal_keeps(tuple(dice), opts) == fresh
