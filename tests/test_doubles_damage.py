"""Doubles: damage table, armour, weapon breakage (seed 004_664065b4c29fdc82.txt)."""
import pytest
from hypothesis import given, strategies as st

from engine.core.rng import GameRng
from engine.rulesets.doubles.damage import (
    DAMAGE_TABLE, apply_damage, armour_test_penalty, break_chance, compute_damage, duel_damage,
    table_damage, weapon_break_test,
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
    # 004_664065b4c29fdc82.txt: "The defender takes 1 point of damage."
    r = _result(decided_by="tactical_advantage", attack_score=6, defence_score=6)
    assert duel_damage(r).points == 1
    assert duel_damage(r, protection=1).points == 0
    assert duel_damage(r, protection=1, options=DoublesOptions(tactical_advantage_fixed_damage=True)).points == 1


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
