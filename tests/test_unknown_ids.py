"""A look-up of an unknown id is a clear error naming the id and what there is, never the bare
``StopIteration`` of a ``next(...)`` (issue 59, item 2): one escaped ``read_force_file`` and the
launcher exited at start on a player's force naming an unknown weapon."""
from __future__ import annotations

import copy
import json
import pickle
from types import SimpleNamespace

import pytest

from engine.core.rules import get_rules
from engine.data.errors import DataError, UnknownId
from engine.data.maps import load_named_map
from engine.rulesets.counterblast.data import load_armoury
from engine.rulesets.counterblast.flow.geometry import GeometryRules
from engine.rulesets.doubles.data import bundled_warbands
from engine.rulesets.doubles.duel import Die, DuelError, PoolSpec, Side
from engine.table import Table


def _refused(call, *named):
    """``call()`` raises an ``UnknownId`` (a DataError and a KeyError) whose words hold ``named``."""
    with pytest.raises(UnknownId) as got:
        call()
    err = got.value
    assert isinstance(err, DataError) and isinstance(err, KeyError)
    for word in named:
        assert word in str(err), (word, str(err))
    again = pickle.loads(pickle.dumps(err))     # a worker process's error comes back whole
    assert str(again) == str(err) and again.known == err.known
    return str(err)


def test_the_counterblast_armoury_names_an_unknown_id_and_its_own():
    arm = load_armoury()
    words = _refused(lambda: arm.shooting_weapon("nope"), "armoury: shooting: no shooting weapon 'nope'",
                     "blaster-pistol")
    assert words.count("\n") == 0
    _refused(lambda: arm.striking_weapon("nope"), "no striking weapon 'nope'", "shock-maul")
    _refused(lambda: arm.gear_item("nope"), "no gear 'nope'", "scanner")
    _refused(lambda: arm.ability("nope"), "no ability 'nope'")
    assert arm.shooting_weapon("blaster-pistol").id == "blaster-pistol"        # a known id still found


def test_a_counterblast_enigma_not_in_the_models_gear():
    arm = load_armoury()
    psi = next(g for g in arm.gear if g.enigmas)
    rules = SimpleNamespace(armoury=arm, profile={"ollo": SimpleNamespace(gear=[psi.id])})
    _refused(lambda: GeometryRules.enigma(rules, "ollo", "nope"), "model 'ollo'", "no enigma 'nope'",
             psi.enigmas[0].id)
    assert GeometryRules.enigma(rules, "ollo", psi.enigmas[0].id) == psi.enigmas[0]


def test_a_doubles_warband_names_an_unknown_id_and_its_own():
    wb = next(iter(bundled_warbands().values()))
    _refused(lambda: wb.weapon("nope"), f"warband {wb.id!r}: weapons: no weapon 'nope'", wb.weapons[0].id)
    _refused(lambda: wb.fighter("nope"), "no fighter 'nope'", wb.fighters[0].id)
    f = wb.fighters[0].model_copy(update={"armour": "nope"})
    _refused(lambda: wb.armour_of(f), "no armour 'nope'")


def test_a_table_piece_and_a_duel_die_not_there():
    table = Table(load_named_map("outpost"))
    words = _refused(lambda: table.piece("nope"), "map 'outpost': pieces: no piece 'nope'", table.pieces[0].id)
    assert "more)" in words                     # a long list is cut short, the rest counted
    side = Side("attacker", PoolSpec(2), dice=(Die(1, 4), Die(2, 6)))
    with pytest.raises(DuelError, match=r"die 7 is not one of the attacker's dice \(there are: 1, 2\)"):
        side.die(7)


# --- a player's force naming an unknown weapon ----------------------------------------------------

@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SKIRMISH_HOME", str(tmp_path))
    return tmp_path


def bad_crew() -> dict:
    crew = copy.deepcopy(get_rules("counterblast").force_catalog().starts["iron-choir"])
    crew["id"], crew["name"] = "bad", "Bad Crew"
    crew["models"][0]["profile"]["shooting"] = ["nope"]
    return crew


def test_a_force_naming_an_unknown_weapon_is_listed_as_unreadable(home):
    from game.forces import files
    folder = files.forces_dir("counterblast")
    folder.mkdir(parents=True)
    (folder / "bad.json").write_text(json.dumps(bad_crew()))
    [f] = files.list_forces("counterblast")
    assert not f.readable
    assert f.problem == f"{folder / 'bad.json'}: models[0].profile.shooting[0]: unknown shooting weapon 'nope'"
    assert "user:bad" not in files.roster_choices("counterblast")
    assert files.unreadable_words([f]) == ("A saved force does not read and is not listed: bad.json "
                                           "(models[0].profile.shooting[0]: unknown shooting weapon 'nope')")
    R = get_rules("counterblast")
    price = R.price_force(bad_crew(), file="bad.json")
    assert price.total is None and [(p.field, p.reason) for p in price.problems] == [
        ("models[0].profile.shooting[0]", "unknown shooting weapon 'nope'")]
    with pytest.raises(DataError, match="unknown shooting weapon 'nope'"):
        R.read_force(bad_crew(), "bad.json")
