"""Doubles fighter points (issue 32): a fighter's points from its sheet, a warband file's stated
points and limit checked, and the enemy scoring a fighter's points when it is put out of action.
The seed (``../shared/seeds/004_664065b4c29fdc82.txt``) gives fighters no cost; the points are
ours, weighed in games (``engine/rulesets/doubles/points.py``, ``docs/rules/doubles.md``, "Points")."""
from __future__ import annotations

import copy
import json

import pytest

from engine.core import Game, Setup
from engine.data.errors import DataError
from engine.data.maps import load_named_map
from engine.rulesets.doubles.data import WARBAND_DIR, parse_warband
from engine.rulesets.doubles.points import (
    POINTS_PER_LOGIT,
    WEIGHTS,
    features,
    fighter_points,
    outside_measured,
    warband_points,
)


def shipped(name: str) -> dict:
    return json.loads((WARBAND_DIR / f"{name}.json").read_text())


def test_points_are_the_weighted_sheet_worked_by_hand():
    data = shipped("bone_hunters")
    wb = parse_warband(data, "bone_hunters.json")
    bones = next(f for f in wb.fighters if f.id == "bones")
    x = features(wb, bones)
    c = bones.characteristics
    # the sheet as the weights read it: the bone axe (melee +2), no throwing weapon so a stone's
    # bonus, the bone plates (protection 1, one penalty die)
    assert (x["melee_bonus"], x["protection"], x["test_penalty"]) == (2, 1, 1)
    assert x["throw_bonus"] == 0 and x["health"] == c.health and x["one"] == 1
    by_hand = sum(WEIGHTS[k] * x[k] for k in WEIGHTS)
    assert fighter_points(wb, bones) == max(1, round(POINTS_PER_LOGIT * by_hand))
    assert warband_points(wb) == sum(fighter_points(wb, f) for f in wb.fighters)


def test_a_better_sheet_costs_more_and_a_penalty_costs_less():
    wb = parse_warband(shipped("ash_skulls"), "ash_skulls.json")
    base = fighter_points(wb, wb.fighters[0])
    for field in ("health", "defence", "throw"):
        d = copy.deepcopy(shipped("ash_skulls"))
        d["fighters"][0]["characteristics"][field] += 1
        better = parse_warband(d, "x.json")
        assert fighter_points(better, better.fighters[0]) > base, field


def test_stated_points_and_the_limit_are_checked_with_field_and_reason():
    d = shipped("obsidian_clan")
    wb = parse_warband(d, "o.json")
    total = warband_points(wb)
    ok = copy.deepcopy(d)
    ok["points_limit"] = total
    ok["fighters"][0]["points"] = fighter_points(wb, wb.fighters[0])
    parse_warband(ok, "o.json")                              # true figures pass
    wrong = copy.deepcopy(d)
    wrong["fighters"][1]["points"] = fighter_points(wb, wb.fighters[1]) + 5
    with pytest.raises(DataError) as err:
        parse_warband(wrong, "o.json")
    assert "o.json" in str(err.value) and "fighters[1].points" in str(err.value)
    over = copy.deepcopy(d)
    over["points_limit"] = total - 1
    with pytest.raises(DataError) as err:
        parse_warband(over, "o.json")
    assert "points_limit" in str(err.value) and str(total) in str(err.value)


def test_the_shipped_warbands_are_priced_within_the_measured_range():
    for name in ("ash_skulls", "bone_hunters", "obsidian_clan"):
        wb = parse_warband(shipped(name), f"{name}.json")
        assert all(not outside_measured(wb, f) for f in wb.fighters), name


def test_the_enemy_scores_a_fighters_points_unless_the_file_gives_a_value():
    g = Game(Setup("doubles", load_named_map("prehistoric"), (), {}, 1))
    rules = g.rules
    for side, wb in rules.warbands.items():
        for f in wb.fighters:
            want = f.value if f.value is not None else fighter_points(wb, f)
            assert rules.victory_values[(side, f.id)] == want
    d = shipped("bone_hunters")
    d["fighters"][0]["value"] = 7
    g2 = Game(Setup("doubles", load_named_map("prehistoric"), (d, "ash_skulls"), {}, 1))
    assert g2.rules.victory_values[(1, d["fighters"][0]["id"])] == 7
