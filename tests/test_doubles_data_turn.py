"""Doubles: warband data, options, and the whole-game interpretations (turn.py)."""
import json

import pytest
from data_refusals import refused

from engine.core.rng import GameRng
from engine.data.errors import DataError
from engine.rulesets.doubles.data import (
    WARBAND_DIR,
    DoublesOptions,
    bundled_warbands,
    load_warband,
    parse_options,
    parse_warband,
)
from engine.rulesets.doubles.turn import (
    FighterTally,
    TurnStatus,
    action_cost,
    action_points_for_turn,
    allowed_actions,
    can_move,
    end_of_turn,
    first_roller,
    intimidation_loss,
    is_engaged,
    melee_pools,
    move_cost_cm,
    roll_initiative_track,
    track_order,
    victory,
)


def test_three_bundled_warbands_load():
    wbs = bundled_warbands()
    assert len(wbs) >= 3
    # 004_664065b4c29fdc82.txt: "Lokee has 4 in"; "Bones is protected from 1 point of damage"
    lokee = wbs["ash_skulls"].fighter("lokee")
    assert lokee.characteristics.throw == 4
    bh = wbs["bone_hunters"]
    assert bh.armour_of(bh.fighter("bones")).protection == 1
    materials = {w.material for wb in wbs.values() for w in wb.weapons}
    assert {"bone", "wood", "stone", "obsidian", "metal"} <= materials


def test_bundled_warbands_are_parsed_once_and_read_again_when_a_file_changes(tmp_path, monkeypatch):
    """Parsed once per process (a game's set-up used to parse them twice), handed out in a new
    dict each time, and read again when a file on disk changes."""
    import engine.rulesets.doubles.data as data

    a, b = bundled_warbands(), bundled_warbands()
    assert a is not b and a["ash_skulls"] is b["ash_skulls"]
    a.pop("ash_skulls")
    assert "ash_skulls" in bundled_warbands()
    for name in ("ash_skulls", "bone_hunters"):
        (tmp_path / f"{name}.json").write_text((WARBAND_DIR / f"{name}.json").read_text())
    monkeypatch.setattr(data, "WARBAND_DIR", tmp_path)
    first = data.bundled_warbands()
    assert sorted(first) == ["ash_skulls", "bone_hunters"]
    changed = json.loads((tmp_path / "ash_skulls.json").read_text())
    changed["name"] = "The Ash Skulls, renamed"
    (tmp_path / "ash_skulls.json").write_text(json.dumps(changed) + "\n" * 3)   # another size
    assert data.bundled_warbands()["ash_skulls"].name == "The Ash Skulls, renamed"
    assert data.bundled_warbands()["bone_hunters"] is not first["bone_hunters"]   # all read again


def test_bad_warband_file_is_refused_with_file_field_reason(tmp_path):
    data = json.loads((WARBAND_DIR / "ash_skulls.json").read_text())
    data["fighters"][0]["characteristics"]["throw"] = -1
    data["fighters"][0]["weapons"] = ["laser"]
    data["weapons"][0]["material"] = "plastic"
    path = tmp_path / "bad.json"
    text = str(refused(load_warband, data, path))
    assert "bad.json" in text
    assert "fighters[0].characteristics.throw" in text
    assert "weapons[0].material" in text
    data = json.loads(path.read_text())
    data["fighters"][0]["characteristics"]["throw"] = 2
    data["weapons"][0]["material"] = "bone"
    with pytest.raises(DataError, match=r"fighters\[0\]\.weapons\[0\]: unknown weapon 'laser'"):
        parse_warband(data, "x.json")
    with pytest.raises(DataError, match="schema_version"):
        parse_warband({**data, "schema_version": 2}, "x.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(DataError, match="not valid JSON"):
        load_warband(tmp_path / "broken.json")


def test_options_defaults_and_refusals():
    o = DoublesOptions()
    assert o.turn_limit == 6 and o.shots_per_turn == 2 and o.penalty_rule == "cancels_highest"
    # the seed's readings (issue 32): a fixed point for a tactical advantage, low ammunition in melee
    assert o.tactical_advantage_fixed_damage and o.melee_defender_double_six == "low_ammunition"
    with pytest.raises(DataError, match="partly_visible_from"):
        parse_options({"visible_from": 0.2, "partly_visible_from": 0.5}, "opts.json")
    with pytest.raises(DataError, match="penalty_rule"):
        parse_options({"penalty_rule": "nope"}, "opts.json")


def test_initiative_track_and_first_roller():
    rng = GameRng(0)
    rng.force(3, 1, 6)                                 # ids in order: bones, lokee, vitra
    track = roll_initiative_track({"lokee": 3, "bones": 2, "vitra": 1}, rng)
    assert track_order(track) == ("vitra", "bones", "lokee")     # 7, 5, 4
    assert first_roller(track, "lokee", "vitra") == "attacker"     # lokee is lower: rolls first
    assert first_roller(track, "vitra", "lokee") == "defender"


def test_initiative_ties_roll_off():
    rng = GameRng(0)
    rng.force(4, 4, 2, 5)
    track = roll_initiative_track({"a": 1, "b": 1}, rng)
    assert track_order(track) == ("b", "a") and track[0].tiebreak == (5,)


def test_intimidation_loss_and_action_points():
    # 004_664065b4c29fdc82.txt: "loses the rest of his action points for this turn or 2 AP on his
    # next turn if he has none left"
    assert intimidation_loss(2) == (0, 0)
    assert intimidation_loss(0) == (0, 2)
    assert action_points_for_turn(3, 2) == 1 and action_points_for_turn(3, 5) == 0


def test_actions_and_costs():
    assert action_cost("aimed_shot") == 2 and action_cost("disengage") == 2
    assert allowed_actions(ap_left=3, engaged=False, on_ground=True, shots_taken=0, can_throw=True) == ("stand_up", "end_activation")
    acts = allowed_actions(ap_left=1, engaged=False, on_ground=False, shots_taken=0, can_throw=True)
    assert "shoot" in acts and "aimed_shot" not in acts
    assert "shoot" not in allowed_actions(ap_left=3, engaged=True, on_ground=False, shots_taken=0, can_throw=True)


def test_movement_and_engagement():
    assert move_cost_cm(10, 4) == 14 and can_move(12, 10, 2) and not can_move(12, 10, 4)
    assert is_engaged(0.5) and not is_engaged(2)
    a, d = melee_pools(combat=3, weapon_bonus=2, defence=3, defender_on_ground=True, defender_test_penalty=1)
    assert a.counts() == (5, 0) and d.counts() == (3, 2)


def test_end_of_turn_keeps_only_what_lasts():
    s = end_of_turn(TurnStatus(cover=1, aggressiveness=2, shots_taken=2, moved=True, low_ammunition=True))
    assert s == TurnStatus(low_ammunition=True)


def test_victory():
    alive, dead = FighterTally(2, False), FighterTally(3, True)
    v = victory({1: [alive], 2: [dead]}, turn=2, turn_over=False)
    assert v.over and v.winner == 1
    v = victory({1: [alive, FighterTally(1, True)], 2: [alive, dead]}, turn=6, turn_over=True)
    assert v.over and v.winner == 1 and v.points == (3, 1)
    assert not victory({1: [alive], 2: [alive]}, turn=5, turn_over=True).over
    v = victory({1: [alive], 2: [alive]}, turn=6, turn_over=True)
    assert v.over and v.winner is None
