"""Ability checks with forced dice. Seed: 003_52d4831de0a47706.txt (Counterblast)."""
import pytest

from engine.core.rng import GameRng
from engine.rulesets.counterblast.checks import ability_check, pool_size, roll_off
from engine.rulesets.counterblast.options import CounterblastOptions


def forced(*values):
    rng = GameRng(0)
    rng.force(*values)
    return rng


def test_one_die_per_point_and_successes_at_or_above_difficulty():
    """003_52d4831de0a47706.txt: 'roll a number of d10's equal to the ability' /
    'Dice that show equal to or greater than the difficulty are successes'."""
    rng = forced(7, 6, 9, 1)
    r = ability_check(rng, 4, 7)
    assert r.values == (7, 6, 9, 1)
    assert r.successes == 2 and r.success and r.pool == 4
    assert [d.success for d in r.dice] == [True, False, True, False]
    assert rng.forced_left == 0


def test_zero_successes_is_a_failure():
    """003_52d4831de0a47706.txt: 'a check with a result of 0 is a failure'."""
    r = ability_check(forced(1, 2, 6), 3, 7)
    assert r.successes == 0 and r.failed and not r.success


def test_dice_cap_of_ten():
    """003_52d4831de0a47706.txt: 'up to a maximum of 10 dice'."""
    rng = forced(*([1] * 10), 5)
    r = ability_check(rng, 13, 7)
    assert r.pool == 10 and len(r.dice) == 10
    assert rng.forced_left == 1          # the 11th forced die was never rolled
    assert pool_size(8, bonus_dice=3) == 10
    assert pool_size(8, 3, CounterblastOptions(dice_cap_includes_bonus_dice=False)) == 11


def test_exploding_tens_chain_in_waves():
    """003_52d4831de0a47706.txt: 'comes up a 10, you get to roll an additional dice that can also explode'."""
    # wave 0: 10, 3  -> one explosion; wave 1: 10 -> explodes again; wave 2: 7 -> stops.
    rng = forced(10, 3, 10, 7)
    r = ability_check(rng, 2, 7)
    assert r.values == (10, 3, 10, 7)
    assert [d.wave for d in r.dice] == [0, 0, 1, 2]
    assert [d.exploded for d in r.dice] == [True, False, True, False]
    assert r.successes == 3


def test_exploded_die_need_not_succeed():
    """003_52d4831de0a47706.txt: 'equal to or greater than the number used to explode'
    (an explosion is independent of success: an 8 explodes on exploding 8s even vs 9)."""
    r = ability_check(forced(8, 2), 1, 9, explode_on=8)
    assert r.values == (8, 2) and r.successes == 0 and r.dice[0].exploded


def test_exploding_nines_and_eights():
    """003_52d4831de0a47706.txt: 'Some rules allow for exploding 8's or 9's'."""
    r9 = ability_check(forced(9, 9, 4, 1), 2, 7, explode_on=9)
    assert r9.values == (9, 9, 4, 1) and r9.successes == 2
    r8 = ability_check(forced(8, 5), 1, 7, explode_on=8)
    assert r8.values == (8, 5) and r8.successes == 1
    r10 = ability_check(forced(9, 5), 1, 7)          # 9s do not explode by default
    assert r10.values == (9,) and r10.successes == 1


def test_no_explosion_when_rule_says_so():
    r = ability_check(forced(10), 1, 7, explode_on=None)
    assert r.values == (10,) and r.successes == 1


def test_zero_dice_ability_rolls_nothing():
    rng = forced(10)
    r = ability_check(rng, 0, 7)
    assert r.successes == 0 and r.dice == () and rng.forced_left == 1


def test_automatic_zero_rolls_no_dice():
    """003_52d4831de0a47706.txt: 'Blind models automatically roll a result of 0 on Zap checks'."""
    rng = forced(10, 10)
    r = ability_check(rng, 5, 7, automatic_zero=True)
    assert r.automatic and r.successes == 0 and rng.forced_left == 2


def test_bad_explosion_threshold_refused():
    with pytest.raises(ValueError):
        ability_check(GameRng(0), 3, 7, explode_on=1)


def test_describe_shows_dice():
    r = ability_check(forced(10, 7, 2), 2, 7)
    assert r.describe() == "2d10 vs 7, explode on 10+: [10!* 7* 2] = 2"


def test_roll_off_repeats_until_one_highest():
    """003_52d4831de0a47706.txt: 'Continue rolling off until an Active crew is determined'."""
    rng = forced(6, 6, 2, 3, 9)    # A 6, B 6, C 2 -> A and B again: 3, 9 -> B
    w, rounds = roll_off(rng, ["A", "B", "C"])
    assert w == "B" and rounds == [{"A": 6, "B": 6, "C": 2}, {"A": 3, "B": 9}]


def test_seeded_checks_reproducible():
    a = [ability_check(GameRng(42), 6, 7).values for _ in range(1)]
    b = [ability_check(GameRng(42), 6, 7).values for _ in range(1)]
    assert a == b
