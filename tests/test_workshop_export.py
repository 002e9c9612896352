"""``skirmish export MAP --to carltographer|tts OUT`` (issue 62): each export read back by ``skirmish
import`` gives the map again, in every field the format carries, on the shipped maps and three of
the team's shared layouts; and bad input is refused with the file, the field and the reason,
leaving nothing written."""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from engine.data.errors import DataError
from engine.data.maps import load_map, load_named_map
from engine.workshop.carltographer import import_layout
from engine.workshop.export_carltographer import to_carltographer
from engine.workshop.export_geometry import circle_sides, outline_in
from engine.workshop.tts import to_tts
from game.cli import main

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "layouts"          # the team's shared folder, beside the project
SHARED_THREE = ("gw-11e-crucible", "take-and-hold-mirror-1", "purge-the-foe-vs-reconnaissance-2")
SHIPPED = ("town", "prehistoric", "outpost", "quarry", "field")
FLAGS = ("blocks_sight", "obscuring", "cover", "impassable", "difficult", "climbable")
TOL_IN = 0.01


def _maps():
    out = [pytest.param(load_named_map(m), id=m) for m in SHIPPED]
    for name in SHARED_THREE:
        f = SHARED / f"{name}.json"
        out.append(pytest.param(f, id=name, marks=pytest.mark.skipif(
            not f.exists(), reason=f"the team's shared layouts are not beside the project ({SHARED})")))
    return out


def _load(m):
    return load_map(m) if isinstance(m, Path) else m


def _close(a, b, tol=TOL_IN) -> bool:
    """Every corner of each outline within ``tol`` of a corner of the other (any start, either winding)."""
    return len(a) == len(b) and all(min(math.dist(p, q) for q in b) <= tol for p in a) \
        and all(min(math.dist(p, q) for q in a) <= tol for p in b)


def _export(m, to: str, tmp_path: Path) -> Path:
    doc, _ = (to_tts if to == "tts" else to_carltographer)(m)
    out = tmp_path / f"{m.id}-{to}.json"
    out.write_text(json.dumps(doc))
    return out


def _in_group_order(pieces):
    """The pieces as the Carltographer export lists them: group by group, in order of first sight."""
    groups: dict = {}
    for p in pieces:
        groups.setdefault(p.group or f"\0{p.id}", []).append(p)
    return [p for g in groups.values() for p in g]


@pytest.mark.parametrize("m", _maps())
def test_carltographer_round_trip_keeps_every_field_it_can_carry(m, tmp_path):
    m = _load(m)
    back, notes = import_layout(_export(m, "carltographer", tmp_path))
    k = {"in": 1.0, "cm": 1 / 2.54, "mm": 1 / 25.4}[m.unit]
    assert back.unit == "in" and back.name == m.name
    assert back.width == pytest.approx(m.width * k, abs=1e-6) and back.height == pytest.approx(m.height * k, abs=1e-6)
    mine = _in_group_order(m.pieces)
    assert len(back.pieces) == len(mine)
    for p, q in zip(mine, back.pieces):
        assert _close(outline_in(p, k), q.shape.points), p.id
        assert q.kind == p.kind, p.id
        assert q.height_mm("in") == pytest.approx(p.height_mm(m.unit), abs=1e-4), p.id
        assert {f: q.prop(f) for f in FLAGS} == {f: p.prop(f) for f in FLAGS}, p.id
    # groups: the same pieces together (a group of one is no group in Carltographer)
    for p, q in zip(mine, back.pieces):
        mates = {i for i, r in enumerate(mine) if r.group and r.group == p.group}
        back_mates = {i for i, r in enumerate(back.pieces) if r.group and r.group == q.group}
        assert (mates if len(mates) > 1 else set()) == back_mates, p.id
    for side in (1, 2):
        zs = [[(x * k, y * k) for x, y in z.points] for z in m.deployment if z.side == side]
        assert [z.points for z in back.deployment if z.side == side] == \
            [[pytest.approx(pt, abs=1e-6) for pt in z] for z in zs]
    assert [o.id for o in back.objectives] == [o.id for o in m.objectives]
    assert [o.at for o in back.objectives] == [pytest.approx((x * k, y * k), abs=1e-6) for x, y in
                                               (o.at for o in m.objectives)]
    assert any("skirmish: tags" in n for n in notes)


@pytest.mark.parametrize("m", _maps())
def test_tts_round_trip_gives_the_map_again(m, tmp_path):
    m = _load(m)
    back, _ = import_layout(_export(m, "tts", tmp_path))
    a, b = m.model_dump(exclude={"pieces", "deployment", "objectives", "evac_points"}), \
        back.model_dump(exclude={"pieces", "deployment", "objectives", "evac_points"})
    assert a == b
    k = {"in": 1.0, "cm": 1 / 2.54, "mm": 1 / 25.4}[m.unit]
    assert len(back.pieces) == len(m.pieces)
    for p, q in zip(m.pieces, back.pieces):
        assert p.model_dump(exclude={"shape"}) == q.model_dump(exclude={"shape"})
        assert q.shape.type == p.shape.type, p.id
        if p.shape.type == "circle":
            assert math.dist(p.shape.center, q.shape.center) * k <= TOL_IN
            assert abs(p.shape.radius - q.shape.radius) * k <= TOL_IN
        else:
            assert _close(outline_in(p, k), outline_in(q, k)), p.id
    assert [(z.side, len(z.points)) for z in m.deployment] == [(z.side, len(z.points)) for z in back.deployment]
    for z, y in zip(m.deployment, back.deployment):
        assert _close([(u * k, v * k) for u, v in z.points], [(u * k, v * k) for u, v in y.points])
    for group in ("objectives", "evac_points"):
        for o, n in zip(getattr(m, group), getattr(back, group), strict=True):
            assert (o.id, o.name) == (n.id, n.name) and math.dist(o.at, n.at) * k <= TOL_IN


def test_a_block_moved_and_turned_in_tts_moves_and_turns_its_piece(tmp_path):
    """Reading back takes the block's place from its Transform: a rectangle moved 2" along TTS's X
    and turned a quarter turn comes back there (a quarter turn clockwise seen from above)."""
    m = load_named_map("town")
    doc, _ = to_tts(m)
    i, obj = next((i, o) for i, o in enumerate(doc["ObjectStates"]) if '"piece"' in o["GMNotes"]
                  and json.loads(o["GMNotes"])["piece"]["id"] == m.pieces[0].id)
    t = obj["Transform"]
    t["posX"] += 2.0
    t["rotY"] += 90.0
    f = tmp_path / "moved.json"
    f.write_text(json.dumps(doc))
    back, _ = import_layout(f)
    before, after = outline_in(m.pieces[0], 1.0), back.pieces[0].shape.points
    cx, cy = (sum(x for x, _ in before) / 4, sum(y for _, y in before) / 4)
    # turned clockwise by 90 degrees about its centre, then 2" to the right
    want = [(cx + (y - cy) + 2.0, cy - (x - cx)) for x, y in before]
    assert _close(want, after, 1e-4)


def test_circles_exported_to_carltographer_stay_within_the_tolerance():
    for r in (0.25, 1.0, 3.0, 12.0):
        n = circle_sides(r)
        assert r * (1 - math.cos(math.pi / n)) <= 0.005 + 1e-12


def test_a_skirmish_tag_we_do_not_write_is_refused_with_its_field(tmp_path):
    doc, _ = to_carltographer(load_named_map("field"))
    doc["terrain_objects"][0]["tags"][0] = "skirmish:kind=castle"
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(doc))
    with pytest.raises(DataError) as e:
        import_layout(f)
    assert "skirmish:kind=castle" in str(e.value) and "placed_features[0]" in str(e.value)


def test_a_tts_save_not_ours_is_refused_with_the_reason(tmp_path):
    f = tmp_path / "other.json"
    f.write_text(json.dumps({"SaveName": "x", "ObjectStates": [{"Name": "BlockSquare", "GMNotes": "hello"}]}))
    with pytest.raises(DataError) as e:
        import_layout(f)
    assert "not one skirmish export wrote" in str(e.value)


def test_a_damaged_tag_in_our_tts_save_is_refused_with_its_field(tmp_path):
    doc, _ = to_tts(load_named_map("field"))
    obj = doc["ObjectStates"][-1]
    tag = json.loads(obj["GMNotes"])
    obj["Transform"]["scaleX"] = -3
    obj["GMNotes"] = json.dumps(tag)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(doc))
    with pytest.raises(DataError) as e:
        import_layout(f)
    assert f"ObjectStates[{len(doc['ObjectStates']) - 1}]" in str(e.value) and "scaleX" in str(e.value)


# --- the command ---------------------------------------------------------------------------

def test_export_writes_and_refuses_to_overwrite_without_force(tmp_path, capsys):
    out = tmp_path / "t.json"
    assert main(["export", "field", str(out), "--to", "tts"]) == 0
    first = out.read_bytes()
    assert main(["export", "town", str(out), "--to", "tts"]) == 1
    assert "exists" in capsys.readouterr().err and out.read_bytes() == first
    assert main(["export", "town", str(out), "--to", "carltographer", "--force"]) == 0
    assert "table_width_inches" in json.loads(out.read_text())
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]        # no temporary file left


def test_export_refuses_a_bad_map_with_its_field_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad-map.json"
    doc = json.loads((ROOT / "maps" / "field.json").read_text())
    doc["width"] = -5
    bad.write_text(json.dumps(doc))
    out = tmp_path / "o.json"
    assert main(["export", str(bad), str(out), "--to", "carltographer"]) == 1
    err = capsys.readouterr().err
    assert "bad-map.json" in err and "width" in err and not out.exists()


def test_export_refuses_an_unknown_target(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["export", "field", str(tmp_path / "o.json"), "--to", "vassal"])
    assert e.value.code == 2 and "vassal" in capsys.readouterr().err


def test_export_refuses_an_unwritable_path_and_its_own_map(tmp_path, capsys):
    assert main(["export", "field", "/proc/x.json", "--to", "tts"]) == 1
    assert "/proc/x.json" in capsys.readouterr().err
    src = tmp_path / "mine.json"
    src.write_text((ROOT / "maps" / "field.json").read_text())
    before = src.read_bytes()
    assert main(["export", str(src), str(src), "--to", "tts", "--force"]) == 1
    assert "the map being exported" in capsys.readouterr().err and src.read_bytes() == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_export_into_a_read_only_folder_is_refused(tmp_path, capsys):
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o500)
    try:
        assert main(["export", "field", str(d / "o.json"), "--to", "carltographer"]) == 1
        assert str(d) in capsys.readouterr().err and not list(d.iterdir())
    finally:
        d.chmod(0o700)


def test_a_tts_tag_that_is_not_json_is_refused_not_dropped(tmp_path):
    """A piece whose notes name our tag but no longer parse would vanish from the map read back."""
    doc, _ = to_tts(load_named_map("field"))
    i = next(i for i, o in enumerate(doc["ObjectStates"]) if '"piece"' in o["GMNotes"])
    doc["ObjectStates"][i]["GMNotes"] = doc["ObjectStates"][i]["GMNotes"][:-5]
    f = tmp_path / "cut.json"
    f.write_text(json.dumps(doc))
    with pytest.raises(DataError) as e:
        import_layout(f)
    assert f"ObjectStates[{i}].GMNotes" in str(e.value) and "not JSON" in str(e.value)


def test_feature_ids_stay_unique_when_a_group_shares_an_id_with_a_piece():
    m = load_named_map("field")
    p0, p1, p2 = m.pieces[:3]
    pieces = [p0.model_copy(update={"group": p2.id}), p1.model_copy(update={"group": p2.id}), p2, *m.pieces[3:]]
    doc, _ = to_carltographer(m.model_copy(update={"pieces": pieces}))
    ids = [f["feature"]["id"] for f in doc["placed_features"]]
    assert len(ids) == len(set(ids))
