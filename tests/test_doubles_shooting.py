"""Doubles: shooting (seed 004_664065b4c29fdc82.txt)."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.rng import GameRng
from engine.rulesets.doubles.data import DoublesOptions
from engine.rulesets.doubles.duel import PoolSpec
from engine.rulesets.doubles.shooting import (
    ShootingError,
    back_shot_allowed,
    can_shoot,
    low_ammunition_check,
    max_range_cm,
    melee_target,
    range_band,
    range_bands,
    range_dice,
    shot_modifiers,
    shot_pools,
    thrown_weapon_bonus,
    visibility,
)


def test_each_point_is_a_ten_cm_slice():
    # 004_664065b4c29fdc82.txt: "A fighter with 3 will therefore throw 30cm."
    assert max_range_cm(3) == 30
    assert range_band(3, 30) == "long" and range_band(3, 30.1) == "out_of_range"


def test_lokee_example():
    # 004_664065b4c29fdc82.txt: "Lokee has 4 in . If he throws his knife, the short range will be
    # up to 10cm, the medium range from 11cm to 30cm. The long range beyond 30cm."
    assert range_band(4, 10) == "short"
    assert range_band(4, 11) == "medium" and range_band(4, 30) == "medium"
    assert range_band(4, 31) == "long" and range_band(4, 40) == "long"
    assert range_band(4, 41) == "out_of_range"


def test_a_value_of_one_is_short_to_5_cm_then_long():
    # 004_664065b4c29fdc82.txt: "A fighter with 1 in will have a short range for the first 5cm
    # and a long range for the rest."
    assert range_band(1, 0) == "short" and range_band(1, 5) == "short"
    assert range_band(1, 5.5) == "long" and range_band(1, 10) == "long"
    assert range_band(1, 10.5) == "out_of_range"


def test_two_slices_have_no_medium_and_zero_cannot_throw():
    assert [b for b, *_ in range_bands(2)] == ["short", "long"]
    assert range_band(0, 1) == "out_of_range"


@given(st.integers(1, 10), st.floats(0, 120, allow_nan=False))
def test_bands_partition_the_range(throw, dist):
    band = range_band(throw, dist)
    assert (band == "out_of_range") == (dist > max_range_cm(throw))
    bands = range_bands(throw)
    assert bands[0][1] == 0 and bands[-1][2] == max_range_cm(throw)
    assert all(a[2] == b[1] for a, b in zip(bands, bands[1:]))


def test_range_dice_and_out_of_range():
    assert range_dice("short") == (1, 0) and range_dice("medium") == (0, 0) and range_dice("long") == (0, 1)
    with pytest.raises(ShootingError):
        range_dice("out_of_range")


def test_who_may_shoot():
    # 004_664065b4c29fdc82.txt: "each unengaged fighter can devote up to 2 actions to shoot" and
    # "Shooting without getting up is impossible."
    kw = dict(throw=3, ap_left=3, shots_taken=0, engaged=False, on_ground=False)
    assert can_shoot(**kw).allowed and can_shoot(**kw).ap_cost == 1
    assert not can_shoot(**{**kw, "engaged": True}).allowed
    assert not can_shoot(**{**kw, "on_ground": True}).allowed
    assert not can_shoot(**{**kw, "shots_taken": 2}).allowed
    assert can_shoot(**kw, aimed=True).ap_cost == 2
    assert not can_shoot(**{**kw, "ap_left": 1}, aimed=True).allowed
    assert not can_shoot(**kw, low_ammunition_blocked=True).allowed


def test_low_ammunition_check_needs_a_double():
    rng = GameRng(0)
    rng.force(5, 5, 1)
    assert low_ammunition_check(3, rng)
    rng.force(5, 4, 1)
    assert not low_ammunition_check(3, rng)


def test_shooting_into_a_melee_hits_the_lowest_aptitude_result():
    # 004_664065b4c29fdc82.txt: "Each engaged character performs an aptitude test to avoid being
    # in the path of the shooter. The lower result will be the target"
    rng = GameRng(0)
    rng.force(6, 5,   2, 1,   4, 4)        # candidates in name order: ally, bones, foe
    t = melee_target({"ally": PoolSpec(2), "bones": PoolSpec(2), "foe": PoolSpec(2)}, rng)
    assert t.target == "bones" and t.rounds == ({"ally": 11, "bones": 3, "foe": 8},)


def test_melee_target_ties_are_retested_or_left_to_the_shooter():
    rng = GameRng(0)
    rng.force(2, 1, 1, 2, 6, 6,   3, 3, 4, 1)
    t = melee_target({"a": PoolSpec(2), "b": PoolSpec(2), "c": PoolSpec(2)}, rng)
    assert t.target == "b" and len(t.rounds) == 2 and t.rounds[1] == {"a": 6, "b": 5}
    rng.force(2, 1, 1, 2, 6, 6)
    t = melee_target({"a": PoolSpec(2), "b": PoolSpec(2), "c": PoolSpec(2)}, rng,
                     DoublesOptions(melee_target_tie="shooter_chooses"))
    assert t.target is None and t.tied == ("a", "b")


def test_aiming_in_a_melee_costs_an_ap_and_gives_a_penalty():
    # 004_664065b4c29fdc82.txt: "The shooter can spend 1 additional AP to target a specific
    # opponent. In this case he can choose his target in a melee with penalty."
    m = shot_modifiers(band="medium", aimed_in_melee=True)
    assert (m.attack_advantage, m.attack_penalty) == (0, 1)


def test_moving_before_shooting_gives_a_penalty():
    # 004_664065b4c29fdc82.txt: "A fighter who moves on the same turn before shooting suffers a
    # penalty on all his shots."
    assert shot_modifiers(band="medium", moved_before=True).attack_penalty == 1


def test_back_shot_allowed_when_unseen():
    # 004_664065b4c29fdc82.txt: "it is imperative that the fighter has never been in the target's
    # line of sight during his movement since the start of the turn"
    assert back_shot_allowed(False)
    m = shot_modifiers(band="medium", back_shot="advantage", seen_by_target_since_turn_start=False)
    assert m.attack_advantage == 1 and m.back_shot and m.target_may_turn and m.damage_bonus == 1
    m = shot_modifiers(band="medium", back_shot="penalty", seen_by_target_since_turn_start=False)
    assert m.defence_penalty == 1 and m.attack_advantage == 0


def test_back_shot_refused_when_the_shooter_was_seen():
    assert not back_shot_allowed(True)
    with pytest.raises(ShootingError, match="saw the shooter"):
        shot_modifiers(band="medium", back_shot="advantage", seen_by_target_since_turn_start=True)


def test_target_and_shooter_on_the_ground():
    # 004_664065b4c29fdc82.txt (French): "le défenseur subit une pénalité de à tous ses tests.
    # Ces sales coups occasionnent 1pt de dommage supplémentaire."
    m = shot_modifiers(band="short", target_on_ground=True)
    assert m.defence_penalty == 1 and m.damage_bonus == 1
    with pytest.raises(ShootingError):
        shot_modifiers(band="short", shooter_on_ground=True)


def test_sight_words_and_their_dice():
    # 004_664065b4c29fdc82.txt (French): "visible, partiellement visible ou caché"
    assert visibility(1.0) == "visible" and visibility(0.5) == "partly_visible" and visibility(0.0) == "hidden"
    opt = DoublesOptions(visible_from=0.5, partly_visible_from=0.25)
    assert visibility(0.5, opt) == "visible" and visibility(0.2, opt) == "hidden"
    assert shot_modifiers(band="medium", sight="partly_visible").defence_advantage == 1
    with pytest.raises(ShootingError):
        shot_modifiers(band="medium", sight="hidden")


def test_cover_and_armour_dice_and_pools():
    # 004_664065b4c29fdc82.txt: "Cover : ... It gains defense until end of turn against all projectiles."
    m = shot_modifiers(band="long", target_cover_dice=1, shooter_test_penalty=1, target_test_penalty=1)
    assert (m.attack_advantage, m.attack_penalty, m.defence_advantage, m.defence_penalty) == (0, 2, 1, 1)
    a, d = shot_pools(throw=4, weapon_bonus=1, defence=3, mods=m, attack_ap=1)
    assert a.counts() == (6, 2) and d.counts() == (3, 0)


def test_whatever_is_in_hand_can_be_thrown():
    # 004_664065b4c29fdc82.txt: "with what he is holding in his hand, be it a stone, a dagger, a skull"
    assert thrown_weapon_bonus(2) == 2 and thrown_weapon_bonus(None) == 0
    assert thrown_weapon_bonus(None, DoublesOptions(improvised_throw_bonus=1)) == 1
