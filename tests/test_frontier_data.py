"""Posses, items and options as data; bad files refused with file, field and reason.

Seed: ../shared/seeds/000_0c05cfd63e59894e.txt.
"""
import copy
import json

import pytest
from data_refusals import refused

from engine.data.errors import DataError
from engine.rulesets.frontier.data import (
    FACTION_RULE,
    ITEMS_FILE,
    POSSES_DIR,
    Options,
    Posse,
    load_items,
    load_options,
    load_posse,
    load_posses,
    parse_posse,
)
from engine.rulesets.frontier.duel import FACTIONS, LEADER_ACTION


def raw(faction):
    return json.loads((POSSES_DIR / f"{faction}.json").read_text())


def test_all_four_factions_ship_a_posse():
    # 000_0c05cfd63e59894e.txt: 'Four fan themes – Sheriffs, outlawmen, bootleggers, townsfolk.'
    ps = load_posses()
    assert set(ps) == set(FACTIONS)
    for fac, p in ps.items():
        roles = [m.role for m in p.models]
        assert roles.count("leader") == 1 and "deputy" in roles and "ganger" in roles
        assert p.leader_rule.id == LEADER_ACTION[fac]
        for m in p.models:
            assert m.wounds >= 1 and m.move > 0 and m.items


def test_faction_rules_are_kept_as_inactive_slots():
    # 000_0c05cfd63e59894e.txt: 'Sheriffs – Badge of Honour rule – ' (and three more, with no text)
    for fac, p in load_posses().items():
        assert (p.faction_rule.id, p.faction_rule.name) == FACTION_RULE[fac]
        assert p.faction_rule.active is False and p.faction_rule.text == ""
    d = raw("sheriffs")
    d["faction_rule"]["active"] = True
    with pytest.raises(DataError) as e:
        parse_posse(d, "sheriffs.json")
    assert "faction_rule.active" in str(e.value)


def test_items_have_dollar_values_and_the_seed_weapons():
    cat = load_items()
    by = cat.by_id()
    assert [by[i].damage for i in ("switchblade", "hunting_knife", "hatchet", "machete")] == [0, 1, 2, 3]
    assert by["hunting_knife"].throw_range == 1
    assert all(it.range > 0 for it in cat.items if it.kind == "firearm")
    assert all(isinstance(it.value, int) for it in cat.items)
    assert by["padded_vest"].defence == 1


def test_bad_posse_is_refused_with_file_field_and_reason(tmp_path):
    d = raw("outlawmen")
    d["models"][2]["strength"] = -1
    d["models"][0]["role"] = "ganger"
    p = tmp_path / "bad.json"
    err = refused(load_posse, d, p)
    msg = str(err)
    assert str(p) in msg and "models[2].strength" in msg and "greater than or equal to 0" in msg
    assert err.file == str(p)


def test_posse_consistency_checks():
    d = raw("townsfolk")
    d2 = copy.deepcopy(d)
    d2["models"].append(dict(d2["models"][0]))  # second leader, duplicate id
    with pytest.raises(DataError) as e:
        parse_posse(d2, "t.json")
    assert "exactly one leader" in str(e.value) and "duplicate id" in str(e.value)
    d3 = copy.deepcopy(d)
    d3["leader_rule"]["id"] = "slippery_paws"
    with pytest.raises(DataError, match="heart_of_the_town"):
        parse_posse(d3, "t.json")
    d4 = copy.deepcopy(d)
    d4["models"][3]["items"].append("gatling_gun")
    with pytest.raises(DataError) as e:
        parse_posse(d4, "t.json")
    assert e.value.problems == [("models[3].items[2]", "unknown item 'gatling_gun' (not in the item catalogue)")]
    d5 = copy.deepcopy(d)
    d5["schema_version"] = 2
    with pytest.raises(DataError, match="schema_version"):
        parse_posse(d5, "t.json")
    d6 = copy.deepcopy(d)
    d6["models"][1]["armour"] = 3
    with pytest.raises(DataError, match="models\\[1\\].armour"):
        parse_posse(d6, "t.json")


def test_bad_items_refused(tmp_path):
    d = json.loads(ITEMS_FILE.read_text())
    d["items"][4]["range"] = 0          # a firearm without range
    d["items"][0]["heal"] = 2           # a switchblade that heals
    p = tmp_path / "items.json"
    p.write_text(json.dumps(d))
    with pytest.raises(DataError) as e:
        load_items(p)
    fields = [f for f, _ in e.value.problems]
    assert "items[4]" in fields and "items[0]" in fields
    with pytest.raises(DataError, match="not valid JSON"):
        (tmp_path / "x.json").write_text("{")
        load_items(tmp_path / "x.json")
    with pytest.raises(DataError, match="no such file"):
        load_items(tmp_path / "missing.json")


def test_options_defaults_and_validation(tmp_path):
    o = Options()
    # 000_0c05cfd63e59894e.txt: 'Players have eight cards in hand', 'seven cards minimum have to be spent in a turn'
    assert (o.hand_size, o.cards_per_turn) == (8, 7)
    assert (o.cover_half_bonus, o.cover_three_quarters_bonus) == (1, 2)
    assert o.shortfall == "forfeit" and o.victory == "rout" and o.turn_limit == 8
    assert o.tiebreak_cards == "number_only"
    r = o.duel_rules()
    assert r.cover_half_at == 0.5 and r.cover_three_quarters_at == 0.75 and r.into_combat_penalty == 1
    p = tmp_path / "opts.json"
    p.write_text(json.dumps({"schema_version": 1, "hand_size": 7, "cards_per_turn": 7}))
    with pytest.raises(DataError, match="below hand_size"):
        load_options(p)
    p.write_text(json.dumps({"schema_version": 1, "shortfall": "pass"}))
    with pytest.raises(DataError) as e:
        load_options(p)
    assert e.value.problems[0][0] == "shortfall"
    p.write_text(json.dumps({"schema_version": 1, "hand_size": 10, "cards_per_turn": 9, "turn_limit": None}))
    assert load_options(p).turn_limit is None


def test_shipped_options_file_holds_the_defaults():
    assert load_options() == Options()


def test_schema_is_versioned():
    assert Posse.model_fields["schema_version"].annotation.__args__ == (1,)
