"""Bad files are refused with file, field and reason (exit 1, no traceback): NaN and infinity,
sizes beyond any table, deep nesting, duplicate ids, broken or edited saves; a byte-order mark
is fine. A seeded fuzz of every shipped file kind and of saves keeps it so."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from file_fuzz import as_version_1, fuzz, make_saves, run_command, sources

from engine.data.errors import DataError, load_json_file
from engine.data.maps import load_map

ROOT = Path(__file__).resolve().parent.parent
OUTPOST = ROOT / "maps" / "outpost.json"


def _map_with(tmp_path, change, name="m.json", text=None):
    data = json.loads(OUTPOST.read_text())
    change(data)
    p = tmp_path / name
    p.write_text(text if text is not None else json.dumps(data))
    return p


def _piece(data, kind):
    return next(p for p in data["pieces"] if p["shape"]["type"] == kind)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), "NaN", "inf", 1e400])
@pytest.mark.parametrize("where", ["polygon", "circle.center", "circle.radius", "wall.thickness", "height", "width"])
def test_non_finite_numbers_are_refused_with_the_field(tmp_path, value, where):
    def change(d):
        if where == "polygon":
            _piece(d, "polygon")["shape"]["points"][0][0] = value
        elif where == "circle.center":
            _piece(d, "circle")["shape"]["center"][1] = value
        elif where == "circle.radius":
            _piece(d, "circle")["shape"]["radius"] = value
        elif where == "wall.thickness":
            _piece(d, "wall")["shape"]["thickness"] = value
        elif where == "height":
            d["pieces"][0]["height"] = value
        else:
            d["width"] = value
    if not any(p["shape"]["type"] == where.split(".")[0] for p in json.loads(OUTPOST.read_text())["pieces"]) \
            and where not in ("height", "width"):
        pytest.skip(f"the outpost has no {where} piece")
    text = None
    if value == 1e400:  # json.dumps cannot write it: put the literal in the text
        p = _map_with(tmp_path, lambda d: None)
        data = json.loads(OUTPOST.read_text())
        change(data)
        text = json.dumps(data).replace("Infinity", "1e400")
    p = _map_with(tmp_path, change, text=text)
    with pytest.raises(DataError) as e:
        load_map(p)
    assert all(f for f, _ in e.value.problems), e.value.problems   # every problem names its field
    rc, err, exc = run_command(["validate", str(p)])
    assert exc is None and rc == 1 and str(p) in err and "Traceback" not in err


def test_a_circle_beyond_any_table_is_refused_and_analyze_map_does_not_crash(tmp_path):
    p = _map_with(tmp_path, lambda d: d["pieces"].append(
        {"id": "huge", "kind": "rock", "shape": {"type": "circle", "center": [10, 10], "radius": 1e300}}))
    rc, err, exc = run_command(["analyze-map", str(p)])
    # the schema's own bound on every length (100,000, i.e. 100 m in the loosest unit, mm)
    assert exc is None and rc == 1 and "shape.circle.radius" in err and "less than or equal to 100000" in err
    big = _map_with(tmp_path, lambda d: d.update(width=5000), name="big.json")   # 5000 in = 127 m
    with pytest.raises(DataError, match="width: 5000in is larger than any table \\(100 m\\)"):
        load_map(big)


def test_deep_nesting_is_refused(tmp_path):
    p = tmp_path / "deep.json"
    p.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(DataError, match="nested"):
        load_json_file(p)
    p.write_text('{"a": ' + "[" * 200 + "]" * 200 + "}")
    with pytest.raises(DataError, match="nested more than"):
        load_json_file(p)


def test_a_byte_order_mark_is_accepted(tmp_path):
    p = tmp_path / "bom.json"
    p.write_bytes(b"\xef\xbb\xbf" + OUTPOST.read_bytes())
    assert load_map(p).id == "outpost"


@pytest.mark.parametrize("group", ["objectives", "evac_points"])
def test_duplicate_marker_ids_are_refused(tmp_path, group):
    p = _map_with(tmp_path, lambda d: d[group].append(dict(d[group][0])))
    with pytest.raises(DataError, match=f"{group}\\[{len(json.loads(OUTPOST.read_text())[group])}\\].id: duplicate"):
        load_map(p)


def test_duplicate_enigma_ids_are_refused(tmp_path):
    from engine.rulesets.counterblast.data import load_armoury

    src = ROOT / "engine" / "rulesets" / "counterblast" / "data" / "armoury.json"
    data = json.loads(src.read_text())
    psi = next(g for g in data["gear"] if g.get("enigmas"))
    psi["enigmas"].append(dict(psi["enigmas"][0]))
    p = tmp_path / "armoury.json"
    p.write_text(json.dumps(data))
    with pytest.raises(DataError, match="duplicate enigma"):
        load_armoury(p)


def test_the_shipped_options_file_validates():
    rc, err, exc = run_command(["validate", str(ROOT / "engine" / "rulesets" / "frontier" / "data" / "options.json")])
    assert exc is None and rc == 0, err


@pytest.fixture(scope="module")
def saves(tmp_path_factory):
    folder = tmp_path_factory.mktemp("saves")
    return {p.stem.split("-")[1]: p for p in make_saves(folder, steps=15)}


def _edit(src: Path, tmp_path: Path, change, v1=False) -> Path:
    if v1:
        src = as_version_1(src)
    data = json.loads(src.read_text())
    change(data)
    p = tmp_path / "edited.json"
    p.write_text(json.dumps(data))
    return p


def test_a_frontier_save_with_three_rosters_is_refused(saves, tmp_path):
    from engine.rulesets.frontier.rules import FrontierRules  # noqa: F401

    p = _edit(saves["frontier"], tmp_path, lambda d: d.update(rosters=[None, None, None]), v1=True)
    rc, err, exc = run_command(["replay", str(p), "--check"])
    assert exc is None and rc == 1 and "rosters" in err


@pytest.mark.parametrize("value", ["12", None, 10 ** 400, [1, 2], {"a": 1}, True])
def test_a_save_with_bad_choice_fields_is_refused(saves, tmp_path, value):
    def change(d):
        c = next(x["choice"] for x in d["decisions"] if len(x["choice"]) > 1)
        key = next(k for k in c if k != "type")
        c[key] = value
    p = _edit(saves["doubles"], tmp_path, change, v1=True)
    for cmd in (["replay", str(p), "--check"], ["validate", str(p)]):
        rc, err, exc = run_command(cmd)
        assert exc is None and rc == 1 and "decisions[" in err and "Traceback" not in err


@pytest.mark.parametrize("v1", [False, True])
def test_a_save_whose_map_has_a_nan_vertex_is_refused(saves, tmp_path, v1):
    def change(d):
        next(p for p in d["map"]["pieces"] if p["shape"]["type"] == "polygon")["shape"]["points"][0][0] = float("nan")
    p = _edit(saves["counterblast"], tmp_path, change, v1=v1)
    rc, err, exc = run_command(["replay", str(p), "--check"])
    assert exc is None and rc == 1 and "map.pieces" in err


def test_a_hand_edited_map_in_a_save_is_refused(saves, tmp_path):
    def change(d):
        next(p for p in d["map"]["pieces"] if p["shape"]["type"] == "polygon")["shape"]["points"][0][0] += 0.25
    p = _edit(saves["frontier"], tmp_path, change)
    for cmd in (["replay", str(p), "--check"], ["replay", str(p)], ["validate", str(p)]):
        rc, err, exc = run_command(cmd)
        assert exc is None and rc == 1 and "map: was changed after the game was saved" in err


@pytest.mark.parametrize("part, change", [
    ("decisions", lambda d: d["decisions"].pop()),
    ("seed", lambda d: d.update(seed=d["seed"] + 1)),
    ("options", lambda d: d.update(options={"turn_limit": 3})),
    ("rules_version", lambda d: d.update(rules_version="0")),
    ("setup_hash", lambda d: d.update(setup_hash="0" * 32)),
])
def test_an_edited_save_says_what_differs(saves, tmp_path, part, change):
    p = _edit(saves["frontier"], tmp_path, change)
    rc, err, exc = run_command(["replay", str(p), "--check"])
    assert exc is None and rc == 1 and f"{p}: {part}:" in err and "other rules" not in err


def test_an_edited_state_hash_is_named(saves, tmp_path):
    p = _edit(saves["doubles"], tmp_path, lambda d: d.update(state_hash="0" * 32))
    rc, err, exc = run_command(["replay", str(p)])
    assert rc == 1 and "state_hash" in err and "setup and the decisions are as saved" in err


def test_version_1_saves_still_load_and_say_they_carry_no_setup_check(saves, capsys):
    p = as_version_1(saves["doubles"])
    rc, err, exc = run_command(["validate", str(p)])
    assert rc == 0 and exc is None
    from game.cli import main
    assert main(["replay", str(p), "--check"]) == 0
    assert "no setup check" in capsys.readouterr().out


def test_seeded_fuzz_of_every_file_kind(tmp_path):
    """A few hundred mutations: maps, crews, posses, warbands, the other data files, saves
    (version 2 and version 1). None crashes; every mutation that can never be valid is refused."""
    counts = fuzz(sources(tmp_path), n_per_file=12, seed=20261201, folder=tmp_path)
    failures = counts.pop("failures")
    assert counts["tried"] > 400
    assert failures == [] and counts["crashed"] == 0 and counts["accepted_wrongly"] == 0, (counts, failures[:10])


def test_a_file_larger_than_any_data_file_is_refused_unread(tmp_path):
    from engine.data.errors import MAX_FILE_BYTES

    p = tmp_path / "huge.json"
    with open(p, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)        # sparse: nothing is written, nothing must be read
    with pytest.raises(DataError, match="larger than any data file"):
        load_json_file(p)
