"""The layout editor's parts without a window: the catalog, snapping and the ruler, the document
(save, autosave), the analysis worker."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from engine.data.errors import DataError
from engine.data.maps import CircleShape, MapFile, PolygonShape, WallShape, load_map
from engine.workshop import catalog as C
from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop import snapping as SN

LAYOUTS = Path(__file__).parent / "data" / "layouts"


# ----------------------------------------------------------------------------- catalog

def test_shipped_catalog_has_every_kind_and_the_templates():
    from engine.data.maps import KIND_DEFAULTS

    cat = C.load_catalog()
    assert cat.refused == []
    kinds = {t.pieces[0].kind for t, _ in cat.templates if t.section == "Kinds"}
    assert kinds == set(KIND_DEFAULTS)
    names = {t.name for t, _ in cat.templates}
    assert {"Ruin with walls", "Building with a yard", "Fence run", "Forest"} <= names
    assert len(cat.missions) >= 4


def test_placing_a_template_converts_units_and_groups_its_pieces():
    from game.editor.document import new_map

    cat = C.load_catalog()
    t, unit = cat.template("ruin-with-walls")
    m = new_map(120.0, 120.0, "cm")
    pieces = C.place_template(t, unit, m, (60.0, 60.0), 90.0)
    assert len(pieces) == 3 and len({p.group for p in pieces}) == 1
    floor = next(p for p in pieces if p.name == "Ruin floor")
    # a 10 x 6" floor turned a quarter: 6 x 10", i.e. 15.24 x 25.4 cm about (60, 60)
    x0, y0, x1, y1 = S.bounds(floor.shape)
    assert (x1 - x0, y1 - y0) == pytest.approx((15.24, 25.4))
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx((60.0, 60.0))
    wall = next(p for p in pieces if p.name == "Ruin wall")
    assert wall.height == pytest.approx(5 * 2.54) and wall.shape.thickness == pytest.approx(0.5 * 2.54)
    # placing it twice gives fresh ids and a second group
    st = E.EditStack(m)
    st.do(C.template_edit(t, unit, st.map, (30.0, 30.0)))
    st.do(C.template_edit(t, unit, st.map, (90.0, 90.0)))
    assert len({p.id for p in st.map.pieces}) == 6 and len({p.group for p in st.map.pieces}) == 2


def test_a_user_catalog_adds_templates_and_a_bad_file_is_refused_with_its_field(tmp_path):
    good = {"schema_version": 1, "name": "Mine", "unit": "cm", "templates": [
        {"id": "hut-ring", "name": "Hut ring", "section": "Mine", "pieces": [
            {"id": "a", "kind": "hut", "shape": {"type": "circle", "center": [0, 5], "radius": 3}},
            {"id": "b", "kind": "hut", "shape": {"type": "circle", "center": [0, -5], "radius": 3}}]}]}
    bad = {"schema_version": 1, "name": "Broken", "templates": [
        {"id": "x", "name": "X", "pieces": [{"id": "a", "kind": "castle", "shape": {"type": "circle", "center": [0, 0], "radius": 1}}]}]}
    (tmp_path / "mine.json").write_text(json.dumps(good))
    (tmp_path / "broken.json").write_text(json.dumps(bad))
    cat = C.load_catalog([tmp_path])
    assert cat.template("hut-ring")[1] == "cm"
    assert "Mine" in cat.sections()
    assert len(cat.refused) == 1
    err = cat.refused[0]
    assert isinstance(err, DataError) and err.file.endswith("broken.json")
    assert any("kind" in f for f, _ in err.problems)


def test_a_mission_replaces_the_zones_and_markers_in_one_step():
    m = load_map(LAYOUTS / "take-and-hold-mirror-1.json")
    cat = C.load_catalog()
    st = E.EditStack(m)
    st.do(C.mission_edit(cat.mission("long-edges"), st.map))
    assert [z.side for z in st.map.deployment] == [1, 2]
    assert st.map.deployment[0].points == [(0.0, 0.0), (60.0, 0.0), (60.0, 11.0), (0.0, 11.0)]
    assert [o.id for o in st.map.objectives] == ["centre", "left", "right"] and st.map.pieces == m.pieces
    st.undo()
    assert st.map == m


# ----------------------------------------------------------------------------- snapping, ruler

def test_snap_move_grid_and_guides():
    box = (10.2, 5.1, 14.2, 7.1)
    s = SN.snap_move(box, 3.0, 2.0, 0.5, 60, 44)
    assert (s.dx, s.dy, s.guides) == (pytest.approx(2.8), pytest.approx(1.9), [])       # corner to (13, 7)
    other = (20.0, 0.0, 22.0, 3.0)
    s = SN.snap_move(box, 5.7, 0.0, 0.5, 60, 44, [other], tol=0.3)
    # the right edge 14.2 + 5.7 = 19.9 is 0.1 from the other's left edge 20: aligned to it
    assert s.dx == pytest.approx(5.8) and ("x", 20.0) in s.guides
    assert SN.snap_angle(22.0) == 15.0 and SN.snap_angle(23.0) == 30.0


def test_ruler_distances_are_hand_computed():
    a = PolygonShape(points=S.rect(10, 10, 14, 12))
    wall = WallShape(a=(20, 0), b=(20, 30), thickness=1.0)       # its face is at x = 19.5
    tree = CircleShape(center=(12, 20), radius=2.0)              # its rim is 6 above the box
    ms = SN.ruler([a], 60, 44, [("wall", wall), ("tree", tree)], count=2)
    edges = [m for m in ms if m.what == "edge"]
    assert [m.length for m in edges] == [10.0, 10.0]            # left edge 10 away, bottom 10 away
    near = {m.what: m.length for m in ms if m.what != "edge"}
    assert near["wall"] == pytest.approx(5.5) and near["tree"] == pytest.approx(6.0)
    assert SN.shape_gap(a, PolygonShape(points=S.rect(13, 11, 16, 16)))[0] == 0.0    # overlapping


# ----------------------------------------------------------------------------- the document

def test_a_shipped_map_is_saved_to_the_users_folder_never_over_itself(tmp_path):
    from engine.paths import MAPS_DIR
    from game.editor.document import Document

    m = load_map(MAPS_DIR / "town.json")
    doc = Document(m, MAPS_DIR / "town.json", tmp_path / "maps", tmp_path / "auto.json")
    doc.stack.do(E.Move((("piece", m.pieces[0].id),), 1.0, 0.0))
    assert doc.save_path() == tmp_path / "maps" / "town.json"
    res = doc.save()
    assert res.ok and (tmp_path / "maps" / "town.json").is_file() and not doc.dirty
    assert load_map(tmp_path / "maps" / "town.json") == doc.map
    refused = doc.save(MAPS_DIR / "town.json")
    assert not refused.ok and "not written over" in refused.lines[0]


def test_autosave_keeps_a_draft_even_without_a_zone_and_reads_it_back(tmp_path):
    from game.editor.document import Document, new_map, read_autosave

    auto = tmp_path / "auto.json"
    doc = Document(new_map(), None, tmp_path, auto)
    doc.stack.do(E.DeleteZones((1,)))
    assert doc.autosave_due(now=1e12)
    assert doc.autosave() is None
    m, path = read_autosave(auto)
    assert m == doc.map and path is None and len(m.deployment) == 1
    doc.save(tmp_path / "x.json")      # refused (no zone for side 2): the autosave stays
    assert auto.exists()
    doc.stack.undo()
    assert doc.save(tmp_path / "x.json").ok and not auto.exists()
    assert read_autosave(tmp_path / "missing.json") is None


# ----------------------------------------------------------------------------- the analysis worker

def test_the_worker_process_answers_the_newest_request_promptly_after_warm_up():
    """Measured: 3.0 and 3.1 s here at load 12 on two cores (other jobs running), so "within a
    second" holds only on a quiet machine. The bound is a generous 12 s, four times the loaded
    figure: it fails when the worker stops answering or its analysis becomes several times slower."""
    import time

    from game.editor.worker import AnalysisRunner

    m = load_map(LAYOUTS / "take-and-hold-mirror-1.json")
    r = AnalysisRunner()
    try:
        r.request(m, 1, coarse=True)                # starts the process (imports numpy, pymunk...)
        first = r.wait(60)
        assert first is not None and first.version == 1 and first.coarse and first.error is None
        moved = E.Move((("piece", m.pieces[3].id),), 2.0, 0.0).apply(m)
        r.request(m, 2, coarse=True)
        r.request(moved, 3, coarse=False)           # supersedes the coarse one if it has not started
        t0 = time.monotonic()
        last = r.wait(60)
        assert last.version == 3 and not last.coarse and last.error is None
        seconds = time.monotonic() - t0
        assert last.heat.shape == (44, 60)
        assert seconds < 12.0, f"the newest (full) analysis came back after {seconds:.1f} s"
    finally:
        r.close()


def test_live_result_for_a_draft_without_a_zone():
    from engine.workshop.live import analyse_map

    m = load_map(LAYOUTS / "take-and-hold-mirror-1.json")
    draft = E.DeleteZones((1,)).apply(m)
    res = analyse_map(draft.model_dump(mode="json"), 5, coarse=True)
    assert res.error is None and res.metrics["missing_sides"] == [2]
    assert not math.isnan(res.metrics["overall_los_pct"])
    assert MapFile.model_validate(m.model_dump()) == m
