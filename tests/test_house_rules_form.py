"""The Options dialog's model (game/ui/house_rules.py, no pygame): every field of a ruleset's
options model with its kind and default, values typed as text read by the model, refusals with
the field and the reason, and only the changed fields kept, as JSON values (issue 49)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from engine.core.rules import get_rules
from game.ui.house_rules import HouseRulesForm, checked, option_fields, problem_words, shown, wrap

CB = get_rules("counterblast").options_model()
FR = get_rules("frontier").options_model()


@pytest.mark.parametrize("ruleset", ["counterblast", "frontier", "doubles"])
def test_every_field_but_the_launchers_own(ruleset):
    model = get_rules(ruleset).options_model()
    names = [f.name for f in option_fields(model)]
    assert names == [n for n in model.model_fields if n not in ("schema_version", "mission", "deployment")]
    assert "deployment_group" in names                       # no launcher list sets it
    assert all(f.description for f in option_fields(model))  # each says what it does


def test_kinds_defaults_and_how_they_are_written():
    fields = {f.name: f for f in option_fields(CB)}
    assert fields["dice_cap_includes_bonus_dice"].kind == "toggle"
    assert fields["psi_ability"].kind == "choice" and fields["psi_ability"].choices == ("knack", "zap", "grit")
    assert fields["table_size"].kind == "pair" and fields["dice_cap"].kind == "number"
    assert shown(Fraction(1, 3)) == "1/3" and shown(8.0) == "8" and shown((48.0, 36.0)) == "48, 36"
    assert shown(True) == "yes" and shown(None) == "none"
    f = {x.name: x for x in option_fields(FR)}["turn_limit"]
    assert f.optional and f.kind == "number"


def test_typed_values_are_read_by_the_model_and_only_changes_are_kept():
    form = HouseRulesForm(CB)
    assert form.result() == ({}, [])
    form.set("dice_cap", " 8 ")
    form.set("cover_fraction", "1/2")
    form.set("table_size", "40 x 30")
    form.set("psi_ability", "zap")
    form.set("cover_vs_strikes", True)
    changes, problems = form.result()
    assert problems == []
    assert changes == {"dice_cap": 8, "cover_fraction": "1/2", "table_size": [40.0, 30.0], "psi_ability": "zap",
                       "cover_vs_strikes": True}
    again = HouseRulesForm(CB, changes)                      # remembered, and read back the same
    assert again.raw["cover_fraction"] == "1/2" and again.raw["table_size"] == "40, 30"
    assert again.result() == (changes, [])
    assert CB(**changes).dice_cap == 8                       # what a game's options take


def test_refusals_name_the_field_and_the_reason():
    form = HouseRulesForm(CB)
    form.set("dice_cap", "lots")
    form.set("short_range", "inf")
    changes, problems = form.result()
    assert changes is None
    assert dict(problems)["dice_cap"].startswith("Input should be a valid integer")
    assert "finite" in dict(problems)["short_range"]
    assert "dice cap: Input should be a valid integer" in problem_words(problems)
    form.reset()
    form.set("battle_mid_share", "9/10")                     # a rule between two fields
    assert form.result() == (None, [("", "battle_mid_share must not exceed battle_high_share")])


def test_none_is_an_empty_entry():
    form = HouseRulesForm(FR)
    assert form.raw["turn_limit"] == "8"
    form.set("turn_limit", "")
    assert form.result() == ({"turn_limit": None}, [])
    assert form.default_words("turn_limit") == "default 8"


def test_remembered_values_the_model_refuses_fall_back_to_the_defaults_with_why():
    m, why = checked(CB, {"dice_cap": 1000})
    assert m == CB() and "dice_cap" in why
    m, why = checked(CB, {"dice_cap": 9})
    assert m.dice_cap == 9 and why is None


def test_wrap_keeps_lines_in_width_and_marks_what_is_cut():
    lines = wrap("one two three four five six", 9, len)
    assert lines == ["one two", "three", "four five", "six"]
    cut = wrap("one two three four five six", 9, len, max_lines=2)
    assert len(cut) == 2 and cut[-1].endswith("…") and all(len(x) <= 9 for x in cut)
