"""The workshop's sight analysis: one visibility matrix for every metric (engine/workshop/analysis)."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pymunk
import pytest

from engine.data.maps import MapFile, load_map
from engine.table import Table
from engine.table.heatmap import openness_heatmap
from engine.table.terrain import build_space
from engine.workshop.analysis import analyse, open_grid, visibility_matrix

ROOT = Path(__file__).resolve().parents[1]
LAYOUTS = Path("/work/shared/layouts")


def _map(pieces=(), objectives=(), w=24, h=24) -> MapFile:
    return MapFile(schema_version=1, id="t", name="T", unit="in", width=w, height=h, pieces=list(pieces),
                   deployment=[{"side": 1, "points": [[0, 0], [w, 0], [w, 4], [0, 4]]},
                               {"side": 2, "points": [[0, h - 4], [w, h - 4], [w, h], [0, h]]}],
                   objectives=list(objectives))


def _wall(height_in, x0=0.0, x1=24.0):
    return {"id": "w", "kind": "building", "height": height_in,
            "shape": {"type": "polygon", "points": [[x0, 11.5], [x1, 11.5], [x1, 12.5], [x0, 12.5]]}}


def test_open_table_sees_everything():
    a = analyse(Table(_map()))
    s = a.metrics
    assert s["overall_los_pct"] == 100.0
    assert s["dz_hideability_pct"] == {"1": 0.0, "2": 0.0}
    assert s["dz_exposure_pct"] == {"1": 100.0, "2": 100.0}
    # the longest lane is the diagonal between the corner cell centres
    assert s["lanes"][0]["length"] == pytest.approx(math.hypot(23, 23), abs=0.01)
    assert s["lanes"][0]["zone_to_zone"]


def test_a_tall_wall_hides_the_zones_from_each_other_and_a_low_one_does_not():
    objs = [{"id": "o", "at": [12, 6]}]
    tall = analyse(Table(_map([_wall(4)], objs))).metrics
    assert tall["dz_hideability_pct"] == {"1": 100.0, "2": 100.0}
    assert tall["dz_exposure_pct"] == {"1": 0.0, "2": 0.0}
    # side 1 can hold the objective out of side 2's sight; side 2 cannot hide from side 1 there
    assert tall["objective_hidability_pct"] == {"1": 100.0, "2": 0.0}
    assert 40 < tall["overall_los_pct"] < 60
    # a wall lower than the eye: every ray passes over it (2.5D); its cells are still not observers
    low = analyse(Table(_map([_wall(0.5)], objs)), eye_mm=27.0).metrics
    assert low["overall_los_pct"] == 100.0
    assert low["dz_hideability_pct"] == {"1": 0.0, "2": 0.0}
    # raise the eye above the tall wall: it stops blocking
    over = analyse(Table(_map([_wall(4)], objs)), eye_mm=4 * 25.4 + 1).metrics
    assert over["overall_los_pct"] == 100.0


def _pymunk_matrix(table, pts, eye):
    space = build_space(table.pieces, lambda p: p.blocks_sight and p.height > eye)
    f = pymunk.ShapeFilter()
    n = len(pts)
    V = np.ones((n, n), dtype=bool)
    for i in range(n):
        for j in range(i + 1, n):
            V[i, j] = V[j, i] = space.segment_query_first(tuple(pts[i]), tuple(pts[j]), 0.0, f) is None
    return V


@pytest.mark.parametrize("name", ["town", "prehistoric"])
def test_matrix_matches_pymunk_segment_queries(name):
    """Against plain pymunk ray casts on a coarse grid: equal but for rays grazing a corner."""
    t = Table(load_map(ROOT / "maps" / f"{name}.json"))
    g = open_grid(t, step_mm=4 * 25.4)
    V = visibility_matrix(t, g.pts, 27.0)
    R = _pymunk_matrix(t, g.pts, 27.0)
    assert (V != R).mean() < 0.005
    assert V.sum() > 0 and (~V).sum() > 0


def test_heat_agrees_with_the_openness_heatmap_and_processes_agree():
    t = Table(load_map(ROOT / "maps" / "town.json"))
    a = analyse(t, step_mm=2 * 25.4)
    h = openness_heatmap(t, step_mm=2 * 25.4, processes=1)
    assert (np.isnan(h) == np.isnan(a.heat)).all()
    assert np.nanmax(np.abs(h - a.heat)) < 0.02
    g = open_grid(t, step_mm=2 * 25.4)
    assert (visibility_matrix(t, g.pts, processes=1) == visibility_matrix(t, g.pts, processes=2)).all()


def test_mirror_layout_is_symmetric():
    p = LAYOUTS / "take-and-hold-mirror-1.json"
    if not p.exists():
        pytest.skip("shared layouts not here")
    s = analyse(Table(load_map(p)), step_mm=2 * 25.4).metrics
    assert s["objective_hidability_pct"]["1"] == s["objective_hidability_pct"]["2"]
    assert abs(s["dz_hideability_pct"]["1"] - s["dz_hideability_pct"]["2"]) < 2.0


def test_cli_json_and_png(tmp_path, capsys):
    from game.cli import main

    out = tmp_path / "a.png"
    assert main(["analyze-map", "field", "--json", "--grid", "2in", "--png", str(out)]) == 0
    info = json.loads(capsys.readouterr().out)
    s = info["sight"]
    for key in ("overall_los_pct", "dz_hideability_pct", "objective_hidability_pct", "lanes"):
        assert key in s
    assert set(s["dz_hideability_pct"]) == {"1", "2"}
    assert out.exists() and out.stat().st_size > 10_000
    assert main(["analyze-map", "field", "--eye", "1in", "--grid", "2in"]) == 0
    assert "overall line of sight" in capsys.readouterr().out
