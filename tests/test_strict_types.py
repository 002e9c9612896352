"""Strict types in rosters, options and saves (issue 59, item 7): ``"points": "70"``,
``"count": "5"``, ``"count": true`` and a Doubles characteristic ``"4"`` passed ``validate`` and
played; every numeric option took ``true`` as 1, a true/false took 0 and 1, ``"no"`` read False and
``"500"`` read 500. Each is now refused with the file, the field and the type expected, while a
whole number still stands for a decimal (``"short_range": 6``) and the command line and the
Options form still read what a person types (``engine/data/option_text.py``)."""
from __future__ import annotations

import copy
import json
import typing
from fractions import Fraction

import pytest

from engine.core.rules import get_rules
from engine.data.errors import DataError, parse_data
from engine.data.option_text import _unwrap, from_text
from game.cli import validate_file

RULESETS = ("counterblast", "frontier", "doubles")


def start(rs, gid=None):
    starts = get_rules(rs).force_catalog().starts
    return copy.deepcopy(starts[gid] if gid else next(iter(starts.values())))


def refused(tmp_path, data) -> str:
    path = tmp_path / "roster.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataError) as err:
        validate_file(path)
    assert str(err.value).startswith(str(path))
    return str(err.value)


# --- rosters -----------------------------------------------------------------------------------

def test_a_counterblast_crew_with_a_number_as_text_or_true_is_refused(tmp_path):
    crew = start("counterblast", "iron-choir")
    crew["models"][0]["profile"]["points"] = str(crew["models"][0]["profile"]["points"])
    assert "models[0].profile.points: Input should be a valid integer, not the text '" in refused(tmp_path, crew)
    for count, words in (("5", "not the text '5'"), (True, "not true"), (2.0, "not the number 2.0")):
        crew = start("counterblast", "iron-choir")
        crew["models"][-1]["count"] = count
        assert f"models[{len(crew['models']) - 1}].count: Input should be a valid integer, {words}" \
            in refused(tmp_path, crew)


def test_a_doubles_characteristic_as_text_is_refused(tmp_path):
    wb = start("doubles")
    wb["fighters"][0]["characteristics"]["combat"] = "4"
    assert ("fighters[0].characteristics.combat: Input should be a valid integer, not the text '4'"
            in refused(tmp_path, wb))


def test_a_frontier_posse_with_a_number_as_text_is_refused_and_a_whole_number_is_a_decimal(tmp_path):
    posse = start("frontier")
    posse["models"][0]["wounds"] = "3"
    assert "models[0].wounds: Input should be a valid integer, not the text '3'" in refused(tmp_path, posse)
    posse = start("frontier")
    posse["models"][0]["move"] = 5                          # a float field: a whole number still reads
    path = tmp_path / "posse.json"
    path.write_text(json.dumps(posse))
    assert validate_file(path).startswith("Frontier posse")


# --- options -----------------------------------------------------------------------------------

def option_fields():
    for rs in RULESETS:
        model = get_rules(rs).options_model()
        for name, f in model.model_fields.items():
            yield rs, model, name, _unwrap(f.annotation)[0]


def _problem(model, name, value) -> str:
    with pytest.raises(DataError) as err:
        parse_data(model, {name: value}, "options.json")
    [(field, why)] = [p for p in err.value.problems if p[0].split("[")[0] == name]
    return why


def test_every_option_refuses_a_value_of_another_json_type():
    numbers = bools = 0
    for rs, model, name, t in option_fields():
        if t is int:
            numbers += 1
            assert _problem(model, name, True) == "Input should be a valid integer, not true", (rs, name)
            assert _problem(model, name, "5") == "Input should be a valid integer, not the text '5'", (rs, name)
        elif t is float:
            numbers += 1
            assert _problem(model, name, True) == "Input should be a valid number, not true", (rs, name)
            assert _problem(model, name, "0.5") == "Input should be a valid number, not the text '0.5'", (rs, name)
        elif t is bool:
            bools += 1
            for v, words in ((1, "the whole number 1"), (0, "the whole number 0"), ("no", "the text 'no'")):
                assert _problem(model, name, v) == f"Input should be a valid boolean, not {words}", (rs, name)
        elif t is Fraction:
            numbers += 1
            assert "not true" in _problem(model, name, True), (rs, name)
        elif typing.get_origin(t) is tuple:
            assert _problem(model, name, [True, 36]) == "Input should be a valid number, not true", (rs, name)
    assert numbers >= 110 and bools >= 12          # every ruleset's: 117 numbers and 14 true/falses when written


def test_what_json_holds_for_the_types_it_has_no_name_for_still_reads():
    CB = get_rules("counterblast").options_model()
    m = parse_data(CB, {"short_range": 6, "table_size": [48, 36], "cover_fraction": "1/2", "sight_fraction": 0.25},
                   "options.json")
    assert m.short_range == 6.0 and m.table_size == (48.0, 36.0)
    assert m.cover_fraction == Fraction(1, 2) and m.sight_fraction == Fraction(1, 4)
    assert parse_data(CB, CB().model_dump(mode="json"), "options.json") == CB()   # a save's options read back


def test_the_frontier_options_file_is_strict(tmp_path):
    from engine.rulesets.frontier.data import OPTIONS_FILE
    data = json.loads(OPTIONS_FILE.read_text())
    data["hand_size"] = "8"
    path = tmp_path / "options.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataError, match="hand_size: Input should be a valid integer, not the text '8'"):
        validate_file(path)


def test_a_game_refuses_options_of_another_type():
    from engine.core import Game, Setup, SetupError
    from engine.data.maps import load_named_map
    for opts, words in (({"game_points": "500"}, "game_points: Input should be a valid integer, not the text '500'"),
                        ({"points_formula": "no"}, "points_formula: Input should be a valid boolean, not the text 'no'")):
        with pytest.raises(SetupError, match=words):
            Game(Setup("counterblast", load_named_map("outpost"), (), {"deployment": "automatic", **opts}, 1))


# --- typed text: the command line and the Options form ----------------------------------------

def test_the_command_line_reads_each_option_as_its_declared_type():
    from game.cli.args import option_pairs
    got, why = option_pairs(["points_formula=no", "psifer_is_hero=ON", "game_points=500", "short_range=6",
                             "table_size=48x36", "cover_fraction=1/2", "deployment=hidden", "turns=true"],
                            "counterblast")
    assert why is None and got == {"points_formula": False, "psifer_is_hero": True, "game_points": 500,
                                   "short_range": 6.0, "table_size": [48.0, 36.0], "cover_fraction": "1/2",
                                   "deployment": "hidden", "turns": True}
    CB = get_rules("counterblast").options_model()
    with pytest.raises(DataError, match="turns: Input should be a valid integer, not true"):
        parse_data(CB, got, "--option")
    got.pop("turns")
    assert CB(**got).game_points == 500
    # the words of a true/false are the command line's; a JSON value stays one; none for an optional
    FR = get_rules("frontier").options_model()
    for text, value in (("yes", True), ("off", False), ("1", True), ("0", False), ("TRUE", True), ("maybe", "maybe")):
        assert from_text(FR, "five_of_a_kind", text) == value
    assert from_text(FR, "turn_limit", "none") is None and from_text(FR, "turn_limit", "12") == 12
    assert from_text(FR, "hand_size", '"8"') == "8" and from_text(FR, "hand_size", "8.0") == 8.0
    assert option_pairs(["hand_size=8"]) == ({"hand_size": 8}, None)          # no ruleset: JSON, as before


def test_simulate_takes_option_words_and_refuses_a_wrong_type(capsys):
    from game.cli import main
    base = ["simulate", "--ruleset", "frontier", "--map", "town", "--games", "1", "--fixed", "--json"]
    assert main(base + ["--option", "five_of_a_kind=no", "--option", "turn_limit=2"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1
    assert main(base + ["--option", "turn_limit=yes"]) != 0
    assert "turn_limit: Input should be a valid integer, not the text 'yes'" in capsys.readouterr().err
    assert main(base + ["--option", "turn_limit=true"]) != 0
    assert "turn_limit: Input should be a valid integer, not true" in capsys.readouterr().err


def test_the_options_form_reads_typed_text_as_the_declared_type():
    from game.ui.house_rules import HouseRulesForm
    form = HouseRulesForm(get_rules("counterblast").options_model())
    form.set("game_points", "600")
    form.set("short_range", "6")
    form.set("table_size", "[40, 30]")
    assert form.result() == ({"game_points": 600, "short_range": 6.0, "table_size": [40.0, 30.0]}, [])
    form.set("dice_cap", "yes")
    assert form.result() == (None, [("dice_cap", "Input should be a valid integer, not the text 'yes'")])


# --- saves -------------------------------------------------------------------------------------

def test_a_save_with_a_seed_or_an_option_of_another_type_is_refused(tmp_path):
    from engine.core import Game, Setup
    from engine.core.saves import load_game, part_hashes, setup_hash, to_save
    from engine.data.maps import load_named_map
    save = to_save(Game(Setup("frontier", load_named_map("town"), (), {"deployment": "automatic"}, 3)))
    path = tmp_path / "game.json"

    def write(d):
        d = json.loads(json.dumps(d))
        d["part_hashes"] = part_hashes(d)
        d["setup_hash"] = setup_hash(d["part_hashes"])
        path.write_text(json.dumps(d))

    write(save)
    assert load_game(path).setup.seed == 3
    write({**save, "seed": "3"})
    with pytest.raises(DataError, match="seed: Input should be a valid integer, not the text '3'"):
        load_game(path)
    write({**save, "options": {**save["options"], "hand_size": "8"}})
    with pytest.raises(DataError, match="hand_size: Input should be a valid integer, not the text '8'"):
        load_game(path)
