"""Doubles: damage table, armour, weapon breakage (seed 004_664065b4c29fdc82.txt)."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.rng import GameRng
from engine.rulesets.doubles.damage import (
    DAMAGE_TABLE,
    apply_damage,
    armour_test_penalty,
    break_chance,
    compute_damage,
    duel_damage,
    table_damage,
    weapon_break_test,
)
from engine.rulesets.doubles.data import Armour, DoublesOptions
from engine.rulesets.doubles.duel import DuelResult


# 004_664065b4c29fdc82.txt: "Up to 2 : 3-4 : 5-6 : 7-8 : 9 : 10 : 11 : 12 : ... 1pt 2pts 3pts
# 4pts 5pts 6pts 8pts Instant death"
@pytest.mark.parametrize("difference,points", [
    (0, 1), (1, 1), (2, 1),          # up to 2
    (3, 2), (4, 2),                  # 3-4
    (5, 3), (6, 3),                  # 5-6
    (7, 4), (8, 4),                  # 7-8
    (9, 5),                          # 9
    (10, 6),                         # 10
    (11, 8),                         # 11 (the table skips 7)
])
def test_each_row_of_the_damage_table(difference, points):
    assert table_damage(difference) == points
    assert compute_damage(difference).points == points


def test_twelve_is_instant_death():
    assert table_damage(12) is None
    out = compute_damage(12, protection=3, reduction=2)
    assert out.instant_death
    assert apply_damage(20, out) == (0, True)
    opt = DoublesOptions(instant_death_points=10)
    out = compute_damage(12, protection=1, options=opt)
    assert not out.instant_death and out.points == 9


def test_negative_difference_is_refused():
    with pytest.raises(ValueError):
        table_damage(-1)


def test_armour_deducts_protection():
    # 004_664065b4c29fdc82.txt: "Deduct the protection score from the damage suffered" and
    # "Bones is protected from 1 point of damage each time he takes a hit"
    assert compute_damage(5, protection=1).points == 2
    assert compute_damage(1, protection=1).points == 0
    assert compute_damage(1, protection=3).points == 0         # never below 0


def test_armour_penalty_on_tests():
    # 004_664065b4c29fdc82.txt: "suffers a penalty on each of his tests because his pieces of armor hinder him"
    assert armour_test_penalty(Armour(id="bone_plates", name="Bone plates", protection=1)) == 1
    assert armour_test_penalty(None) == 0


def test_flaw_reduces_armour_or_adds_one():
    # 004_664065b4c29fdc82.txt: "Flaw : Reduces defender's armor by 1 or adds +1 damage if the
    # defender is not wearing armor."
    assert compute_damage(5, protection=2, flaws=1).points == 3 - 1
    assert compute_damage(5, protection=0, flaws=1).points == 4
    # a second flaw on stripped armour adds +1 (option stripped_armour_counts_as_none)
    assert compute_damage(5, protection=1, flaws=2).points == 4
    strict = DoublesOptions(stripped_armour_counts_as_none=False)
    assert compute_damage(5, protection=1, flaws=2, options=strict).points == 3


def test_force_attack_armour_to_zero_and_plus_one():
    # 004_664065b4c29fdc82.txt: "Reduces the defender's armor to zero or adds +1 damage if the
    # defender is not wearing armor" and "+1 to damage"
    assert compute_damage(5, protection=2, force_attacks=1).points == 3 + 1
    assert compute_damage(5, protection=0, force_attacks=1).points == 3 + 2


def test_armour_lost_for_good_only_with_the_option():
    assert compute_damage(5, protection=2, flaws=1).armour_lost == 0
    assert compute_damage(5, protection=2, flaws=1,
                          options=DoublesOptions(armour_damage_permanent=True)).armour_lost == 1


def _result(**kw):
    base = dict(kind="shoot", winner="attacker", decided_by="result", attack_score=9, defence_score=4,
                attack_remaining=0, defence_remaining=0, attacker_effects=(), defender_effects=(), rerolls=0)
    base.update(kw)
    return DuelResult(**base)


def test_duel_damage_bonuses_and_aggressiveness():
    # 004_664065b4c29fdc82.txt: "These dirty tricks cause 1 point of additional damage." and
    # "Aggressiveness : Decreases the number of damage suffered this turn by 1pt."
    r = _result()                                        # difference 5: 3 points
    assert duel_damage(r).points == 3
    assert duel_damage(r, back_shot=True).points == 4
    assert duel_damage(r, back_shot=True, target_on_ground=True).points == 5
    assert duel_damage(_result(defender_effects=("aggressiveness",))).points == 2
    assert duel_damage(r, aggressiveness_this_turn=1).points == 2
    assert duel_damage(_result(winner="defender")) is None


def test_tactical_advantage_damage():
    # 004_664065b4c29fdc82.txt: "The defender takes 1 point of damage." / "Le défenseur encaisse
    # 1pt de dommage": by default exactly 1 point, armour, bonuses and aggressiveness aside
    r = _result(decided_by="tactical_advantage", attack_score=6, defence_score=6)
    assert duel_damage(r).points == 1
    assert duel_damage(r, protection=1).points == 1
    assert duel_damage(r, protection=2, back_shot=True, target_on_ground=True).points == 1
    assert duel_damage(r, protection=1, aggressiveness_this_turn=1).points == 1
    # option tactical_advantage_fixed_damage=False: the table's 1 point for a difference of 0,
    # then armour and the +1s as for any hit
    table = DoublesOptions(tactical_advantage_fixed_damage=False)
    assert duel_damage(r, options=table).points == 1
    assert duel_damage(r, protection=1, options=table).points == 0
    assert duel_damage(r, protection=1, back_shot=True, options=table).points == 1


@pytest.mark.parametrize("material,rolls,broken", [
    # 004_664065b4c29fdc82.txt: "Bone/wood : ... 1-2 on 1D6", "Obsidian/stone : 1 sur 1D6",
    # "metal : 1 sur 1D6 and once again 1 sur 1D6"
    ("bone", [2], True), ("bone", [3], False), ("wood", [1], True), ("wood", [3], False),
    ("obsidian", [1], True), ("obsidian", [2], False), ("stone", [1], True), ("stone", [2], False),
    ("metal", [1, 1], True), ("metal", [1, 2], False), ("metal", [2], False),
])
def test_weapon_breakage_by_material(material, rolls, broken):
    rng = GameRng(0)
    rng.force(*rolls)
    t = weapon_break_test(material, rng)
    assert t.broken is broken and t.rolls == tuple(rolls) and rng.forced_left == 0


def test_unknown_material_is_bone():
    # 004_664065b4c29fdc82.txt: "If the model, character or scenario does not allow it, consider
    # the weapon to be bone."
    rng = GameRng(0)
    rng.force(2)
    assert weapon_break_test(None, rng).broken
    assert break_chance(None) == pytest.approx(1 / 3)
    assert break_chance("metal") == pytest.approx(1 / 36)


@given(st.integers(0, 11), st.integers(0, 11), st.integers(0, 3), st.integers(0, 2), st.integers(0, 2))
def test_damage_never_falls_as_the_difference_grows(a, b, prot, flaws, force):
    lo, hi = sorted((a, b))
    d_lo = compute_damage(lo, protection=prot, flaws=flaws, force_attacks=force)
    d_hi = compute_damage(hi, protection=prot, flaws=flaws, force_attacks=force)
    assert 0 <= d_lo.points <= d_hi.points
    assert [p for _, p in DAMAGE_TABLE] == sorted(p for _, p in DAMAGE_TABLE)


# --- which rows of the damage table a game can reach, under each penalty reading -------------------
def _row(difference: int) -> str:
    """The seed's row label for a difference: 'up to 2', '3-4', '5-6', '7-8', '9', '10', '11', '12'."""
    for label, top in (("up to 2", 2), ("3-4", 4), ("5-6", 6), ("7-8", 8), ("9", 9), ("10", 10), ("11", 11)):
        if difference <= top:
            return label
    return "12"


def reachable_rows(penalty_rule: str, defences, max_penalty: int = 3) -> set[str]:
    """Rows of the table some hit can land on: the attacker's best result is 12 (any pool of two
    dice or more; shipped attack pools have at least two), the defender's lowest possible
    result is taken from the engine's own pool model (``odds.side_dist``, the result kept from
    its dice) for every defence characteristic in ``defences`` and 0..``max_penalty`` penalties
    (armour, on the ground, a back shot, a precise attack), through ``PoolSpec.counts``."""
    from engine.rulesets.doubles.duel import defence_pool
    from engine.rulesets.doubles.odds import side_dist
    opts = DoublesOptions(penalty_rule=penalty_rule)
    rows = set()
    for d in defences:
        for pen in range(max_penalty + 1):
            n, p = defence_pool(d, penalty=pen).counts(opts)
            low = min(score for (score, _dbl), r in side_dist(n, p, penalty_rule).items() if sum(r.values()) > 0)
            rows.update(_row(diff) for diff in range(0, 12 - low + 1))
    return rows


def test_reachable_rows_of_the_damage_table_under_each_penalty_reading():
    """004_664065b4c29fdc82.txt's table runs to '11 : 8pts' and '12 : Instant death'. A defender's
    result is two kept dice, so 11 and 12 need a defender result of 1 or 0: fewer than two dice.
    cancels_highest (the default) sets aside as many dice as it adds and must_keep only adds dice, so
    neither leaves a defender of Defence 2+ with fewer than two; opponent_discards takes dice
    away, and reaches both rows."""
    from engine.rulesets.doubles.data import bundled_warbands
    shipped = sorted({f.characteristics.defence for wb in bundled_warbands().values() for f in wb.fighters})
    assert min(shipped) >= 2
    low_rows = {"up to 2", "3-4", "5-6", "7-8", "9", "10"}
    assert reachable_rows("must_keep", shipped) == low_rows
    assert reachable_rows("cancels_highest", shipped) == low_rows
    assert reachable_rows("opponent_discards", shipped) == low_rows | {"11", "12"}
    # one penalty on a Defence 2 defender reaches 11; two reach instant death
    assert reachable_rows("opponent_discards", [2], max_penalty=1) == low_rows | {"11"}
    assert reachable_rows("opponent_discards", [2], max_penalty=2) == low_rows | {"11", "12"}
    # under must_keep the top rows need a fighter of Defence 1 (row 11) or 0 (row 12), which the
    # warband schema allows but no shipped warband has
    assert reachable_rows("must_keep", [1], max_penalty=0) == low_rows | {"11"}
    assert reachable_rows("must_keep", [0], max_penalty=0) == low_rows | {"11", "12"}
    assert reachable_rows("cancels_highest", [1]) == low_rows | {"11"}
    assert reachable_rows("cancels_highest", [0]) == low_rows | {"11", "12"}
    assert table_damage(11) == 8 and table_damage(12) is None
