"""Crews, armoury, missions and options as validated data. Seed: 003_52d4831de0a47706.txt."""
import json

import pytest
from data_refusals import refused
from pydantic import ValidationError

from engine.data.errors import DataError
from engine.rulesets.counterblast.data import (
    DATA_DIR,
    Mission,
    is_hero,
    load_armoury,
    load_crew,
    load_mission,
    parse_crew,
    shipped_crews,
    shipped_missions,
)
from engine.rulesets.counterblast.options import CounterblastOptions


def crew_json(name="reach_rangers.json"):
    return json.loads((DATA_DIR / "crews" / name).read_text())


def refusal(data, tmp_path, **kw):
    p = tmp_path / "crew.json"
    p.write_text(json.dumps(data))
    with pytest.raises(DataError) as ei:
        load_crew(p, **kw)
    return ei.value


def test_three_shipped_crews_of_500_points_with_every_role():
    """003_52d4831de0a47706.txt: 'Assemble Crew (500 points is a standard game)' and
    'The game has Heroes, Lackeys'."""
    crews = shipped_crews()
    assert len(crews) >= 3
    for c in crews.values():
        assert c.points <= 500
        roles = {e.profile.role for e in c.models}
        assert {"hero", "lackey", "character", "psifer"} <= roles, c.id
        kinds = {e.profile.kind for e in c.models}
        assert kinds <= {"living", "robot", "cyberform"}
    assert {k for c in crews.values() for k in (e.profile.kind for e in c.models)} == {"living", "robot", "cyberform"}


def test_instances_expand_counts():
    c = shipped_crews()["reach-rangers"]
    ids = [i for i, _ in c.instances()]
    assert ids[:4] == ["captain", "medic", "dray", "ollo"] and ids[4:] == [f"ranger-{i}" for i in range(1, 6)]


def test_refuse_over_points_with_file_field_reason(tmp_path):
    d = crew_json()
    d["models"][4]["count"] = 7                 # two more Rangers at 46 points (points.py) each
    err = refusal(d, tmp_path)
    assert err.file.endswith("crew.json")
    assert err.problems == [("models", "crew costs 565 points (70 + 53 + 64 + 56 + 46x7), over the 500-point limit")]
    assert "crew.json: models: crew costs 565 points" in str(err)


def test_smaller_game_size_refuses():
    d = crew_json()
    with pytest.raises(DataError, match="over the 400-point limit"):
        parse_crew(d, "x.json", game_points=400)


def test_refuse_two_copies_of_a_character(tmp_path):
    """003_52d4831de0a47706.txt: 'A crew can never multiple copies of the same character'."""
    d = crew_json()
    dray = d["models"][2]
    d["models"][4]["count"] = 1                 # make room for the points
    d["models"].append({**dray, "id": "dray-again"})
    err = refusal(d, tmp_path)
    assert ("models[5].profile.name",
            "character 'Sergeant Kessa Dray' already in the crew at models[2]; "
            "a crew may never hold two copies of one character") in err.problems
    d = crew_json()
    d["models"][2]["count"] = 2
    d["models"][4]["count"] = 1
    err = refusal(d, tmp_path)
    assert err.problems == [("models[2].count",
                             "Sergeant Kessa Dray is a character: a crew may field only one copy, not 2")]


def test_refuse_unknown_weapon_and_bad_leader(tmp_path):
    d = crew_json()
    d["models"][0]["profile"]["shooting"] = ["laser-sword"]
    d["leader"] = "ranger"
    err = refusal(d, tmp_path)
    assert ("models[0].profile.shooting[0]", "unknown shooting weapon 'laser-sword'") in err.problems
    assert ("leader", "Ranger is a lackey; the leader must be a hero") in err.problems


def test_refuse_psi_gear_rules(tmp_path):
    d = crew_json()
    d["models"][3]["profile"]["gear"] = []
    d["models"][1]["profile"]["gear"] = ["deep-focus"]
    err = refusal(d, tmp_path)
    assert ("models[3].profile.gear", "Ollo the Quiet is a psifer but carries no psi gear") in err.problems
    assert ("models[1].profile.gear[0]", "Doc Harrow is a hero; only psifers carry psi gear") in err.problems


def test_refuse_schema_error_names_field(tmp_path):
    d = crew_json()
    d["models"][0]["profile"]["kind"] = "vehicle"
    err = refusal(d, tmp_path)
    assert err.problems[0][0] == "models[0].profile.kind"
    d = crew_json()
    del d["schema_version"]
    assert refusal(d, tmp_path).problems[0][0] == "schema_version"


def test_armoury_weapons_and_gear():
    arm = load_armoury()
    assert arm.shooting_weapon("blaster-pistol").pistol
    assert arm.shooting_weapon("needler").explode_on == 9
    assert arm.striking_weapon("shock-maul").reach == 1
    kinds = {g.kind for g in arm.gear}
    assert {"scanner", "medkit", "tools", "psi_focus"} <= kinds
    assert "hack_mark" in arm.gear_item("scanner").enables


def test_refuse_unknown_ability_and_ability_on_a_non_character(tmp_path):
    """003_52d4831de0a47706.txt: 'Characters are a special sub-type of Heroes that sometimes have special
    abilities unique to them': an ability is an armoury id, on characters only."""
    d = crew_json()
    d["models"][2]["profile"]["special"] = ["eagle-eye"]
    assert refusal(d, tmp_path).problems == [("models[2].profile.special[0]", "unknown ability 'eagle-eye'")]
    d = crew_json()
    d["models"][0]["profile"]["special"] = ["steady-aim"]
    assert refusal(d, tmp_path).problems == [
        ("models[0].profile.special[0]", "Captain Vell is a hero; only characters have special abilities")]


def _armoury_refusal(tmp_path, change):
    data = json.loads((DATA_DIR / "armoury.json").read_text())
    change(data)
    p = tmp_path / "armoury.json"
    p.write_text(json.dumps(data))
    with pytest.raises(DataError) as ei:
        load_armoury(p)
    return ei.value.problems


def test_refuse_malformed_abilities_enigmas_and_inflicted_conditions(tmp_path):
    def no_condition(d):
        d["abilities"][2].pop("condition")
    assert "immune" in _armoury_refusal(tmp_path, no_condition)[0][1]

    def unknown_condition(d):
        d["shooting"][0]["inflicts"] = {"condition": "on-fire"}
    field, _ = _armoury_refusal(tmp_path, unknown_condition)[0]
    assert field.startswith("shooting[0].inflicts.condition")

    def craft_without_effect(d):
        d["gear"][3]["enigmas"][1].pop("craft")
    assert "names its craft effect" in _armoury_refusal(tmp_path, craft_without_effect)[0][1]

    def strike_that_does_nothing(d):
        en = d["gear"][3]["enigmas"][2]
        en.pop("inflicts")
    assert "deals damage or inflicts" in _armoury_refusal(tmp_path, strike_that_does_nothing)[0][1]


def test_shipped_data_gives_every_seed_condition_a_source_and_every_character_ability_an_effect():
    """The four conditions the seed leaves without a cause are each inflicted by some weapon or
    enigma a shipped crew carries; every shipped character ability is a defined effect."""
    arm = load_armoury()
    inflicted = set()
    for crew in shipped_crews().values():
        for e in crew.models:
            p = e.profile
            items = [arm.shooting_weapon(w) for w in p.shooting] + [arm.striking_weapon(w) for w in p.striking]
            items += [en for g in p.gear for en in arm.gear_item(g).enigmas]
            inflicted |= {i.inflicts.condition for i in items if getattr(i, "inflicts", None)}
            for a in p.special:
                assert arm.ability(a).effect in ("long_shot_difficulty", "strike_explode_on", "immune")
    assert inflicted == {"burning", "blind", "half_blind", "pinned"}
    specials = {a for c in shipped_crews().values() for e in c.models for a in e.profile.special}
    assert specials == {"steady-aim", "frenzy", "relentless"}


def test_missions_as_data():
    ms = shipped_missions()
    assert len(ms) >= 3
    for m in ms.values():
        assert m.max_objective_score() > 0
    with pytest.raises(DataError, match="duplicate id"):
        from engine.data.errors import parse_data
        bad = json.loads((DATA_DIR / "missions" / "headhunters.json").read_text())
        bad["objectives"].append(bad["objectives"][0])
        parse_data(Mission, bad, "m.json")


def test_bad_mission_file(tmp_path):
    refused(load_mission, '{"schema_version": 1, "id": "x", "name": "X", "description": "d", "objectives": []}',
            tmp_path / "m.json", match="m.json: objectives")


def test_psifer_is_hero_option():
    p = shipped_crews()["reach-rangers"].models[3].profile
    assert is_hero(p)
    assert not is_hero(p, CounterblastOptions(psifer_is_hero=False))


def test_options_defaults_are_the_seed_numbers():
    """003_52d4831de0a47706.txt: 'within Short Range 8″' / 'maximum of 10 dice' / 'lasts for six turns'."""
    o = CounterblastOptions()
    assert (o.short_range, o.dice_cap, o.turns, o.game_points, o.defense_difficulty, o.panic_difficulty) == (8, 10, 6, 500, 7, 7)
    assert CounterblastOptions.model_validate_json(o.model_dump_json()) == o
    with pytest.raises(ValidationError):
        CounterblastOptions(bogus=1)


def test_vehicles_and_area_weapons_stay_out_of_the_game(tmp_path):
    """003_52d4831de0a47706.txt names 'Vehicles' ('The game has Heroes, Lackeys, and Vehicles.') and
    'an area weapon' (Action-roll) and describes neither: a vehicle role is refused, and no shipped
    weapon or enigma has an area (docs/rules/counterblast.md, Still missing)."""
    d = crew_json()
    d["models"][-1]["profile"]["role"] = "vehicle"
    err = refusal(d, tmp_path)
    assert any("role" in field for field, _ in err.problems)
    armoury = json.loads((DATA_DIR / "armoury.json").read_text())
    assert "area" not in json.dumps(armoury).lower()
