"""Importing a Carltographer layout (engine/workshop/carltographer.py): a small layout written by
hand in its published format, its pieces at hand-computed places, and the analysis of it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.data.errors import DataError
from engine.data.maps import MapFile
from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop.carltographer import import_layout

SMALL = Path(__file__).parent / "data" / "carltographer" / "small-layout.json"


def by_name(m, name):
    return [p for p in m.pieces if p.name.startswith(name)]


def test_the_small_layout_imports_where_carltographer_draws_it():
    m, notes = import_layout(SMALL)
    assert (m.width, m.height, m.unit, m.id, m.name) == (44.0, 30.0, "in", "small-layout", "Hammer and Anvil")
    # two crates and their... the symmetric layout lists one of each pair: 2 + 2 x 3 + 1 at the centre
    assert len(m.pieces) == 9
    crates = sorted(S.bounds(p.shape) for p in by_name(m, "Crate"))
    # crate-1: centre (-10, 5), turned 90 degrees: x -11.25..-8.75, z 2.5..7.5 -> ours x + 22, 15 - z
    assert crates[0] == pytest.approx((10.75, 7.5, 13.25, 12.5))
    assert crates[1] == pytest.approx((19.5, 13.75, 24.5, 16.25))          # the centre crate
    assert crates[2] == pytest.approx((30.75, 17.5, 33.25, 22.5))          # crate-1's twin at (10, -5)
    base = max(by_name(m, "Ruin Base"), key=lambda p: S.bounds(p.shape)[0])      # not its twin at (-8, 6)
    assert S.bounds(base.shape) == pytest.approx((25.0, 18.5, 35.0, 23.5))
    assert (base.kind, base.height, base.blocks_sight, base.impassable) == ("ruin", 0.0, False, False)
    walls = sorted(by_name(m, "Tall L Walls"), key=lambda p: S.bounds(p.shape))
    long_wall = next(p for p in walls if S.bounds(p.shape) == pytest.approx((28.9, 23.2, 34.9, 23.4)))
    short_wall = next(p for p in walls if S.bounds(p.shape) == pytest.approx((34.7, 18.7, 34.9, 23.3)))
    assert (long_wall.height, long_wall.blocks_sight, long_wall.kind) == (5.0, True, "ruin")
    assert short_wall.height == 2.0 and short_wall.blocks_sight       # opaque only up to 2": kept at 2"
    assert [p.kind for p in by_name(m, "Crate")] == ["container"] * 3
    # one group per placed feature: the ruin's base and walls move together in the editor
    assert len({p.group for p in m.pieces if "ruin" in p.id}) == 2
    # the mission: green is side 1, red side 2; objectives at (22, 15), (22, 24), (22, 6)
    assert [(z.side, z.points[0]) for z in m.deployment] == [(1, (0.0, 30.0)), (2, (32.0, 30.0))]
    assert [o.at for o in m.objectives] == [(22.0, 15.0), (22.0, 24.0), (22.0, 6.0)]
    assert any("rotationally symmetric" in n for n in notes)
    assert any("see-through above part" in n for n in notes)
    MapFile.model_validate(m.model_dump())


def test_the_imported_layout_is_point_symmetric_and_analyses():
    from engine.table import Table
    from engine.workshop.analysis import analyse

    m, _ = import_layout(SMALL)
    assert E.unmatched(m, "point") == []
    a = analyse(Table(m), step_mm=25.4)
    sym = a.metrics["symmetry"]
    assert sym["fair_symmetry"] == "point" and sym["unmatched_pct"] == 0.0
    assert a.metrics["dz_hideability_pct"]["1"] == a.metrics["dz_hideability_pct"]["2"]
    # the 40k reading makes the ruin bases block sight through them: less is seen
    b = analyse(Table(m), step_mm=25.4, footprints_block=True)
    assert b.metrics["overall_los_pct"] < a.metrics["overall_los_pct"]


def test_an_engine_result_and_a_missing_object_and_a_bad_field(tmp_path):
    data = json.loads(SMALL.read_text())
    wrapped = tmp_path / "result.json"
    wrapped.write_text(json.dumps({"layout": data, "score": 1.0, "steps_completed": 10}))
    m, _ = import_layout(wrapped)
    assert len(m.pieces) == 9
    data2 = json.loads(SMALL.read_text())
    data2["terrain_objects"] = data2["terrain_objects"][1:]      # no "crate" object any more
    bad = tmp_path / "missing.json"
    bad.write_text(json.dumps(data2))
    with pytest.raises(DataError) as err:
        import_layout(bad)
    assert err.value.problems[0][0] == "placed_features[0].feature.components[0].object_id"
    data3 = json.loads(SMALL.read_text())
    data3["table_width_inches"] = -4
    neg = tmp_path / "neg.json"
    neg.write_text(json.dumps(data3))
    with pytest.raises(DataError, match="table_width_inches"):
        import_layout(neg)


def test_a_layout_without_a_mission_gets_zones_and_says_so(tmp_path):
    data = json.loads(SMALL.read_text())
    del data["mission"]
    f = tmp_path / "bare.json"
    f.write_text(json.dumps(data))
    m, notes = import_layout(f)
    assert {z.side for z in m.deployment} == {1, 2} and m.objectives == []
    assert any("no mission" in n for n in notes)
