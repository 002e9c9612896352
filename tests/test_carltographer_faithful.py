"""A Carltographer layout imports faithfully (every shape, its obscuring footprints, its coverage)
and ``analyze-map --metric carltographer`` gives its program's figures.

``polygons-and-footprints.json`` is a layout written by hand in Carltographer's format (no file of
its repository: see tests/data/carltographer/README.md). The expected figures below were computed
by Carltographer's own engine (khaaarl/carltographer, v2/engine/visibility.py at commit d4eb250a,
``compute_layout_visibility`` with its defaults: blocking heights 4" and 2.2") on this very file.

Three layouts made by Carltographer's own engine are checked the same way when
``SKIRMISH_CARLTOGRAPHER_LAYOUTS`` names a folder of its engine results (its repository has no
licence, so none of its files is kept here; ``tools/carltographer_reference.py`` makes them from
a checkout of it).
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.core.tables import table_for
from engine.workshop.analysis import footprint_pieces
from engine.workshop.carlto_metric import carltographer_metrics
from engine.workshop.carltographer import import_layout

HAND = Path(__file__).parent / "data" / "carltographer" / "polygons-and-footprints.json"
REFERENCE = os.environ.get("SKIRMISH_CARLTOGRAPHER_LAYOUTS")


# --- the source, read independently of the importer ------------------------------------------

def _place(x, z, deg, pts):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return [(x + px * c - pz * s, z + px * s + pz * c) for px, pz in pts]


def source_shapes(data: dict):
    """(outline in our frame, feature, object, shape) for every shape the layout draws, the
    rotational twins included, in the importer's order."""
    lay = data.get("layout", data)
    W, D = lay["table_width_inches"], lay["table_depth_inches"]
    objects = {o["id"]: o for o in lay.get("terrain_objects", [])}
    placed = list(lay["placed_features"])
    if lay.get("rotationally_symmetric"):
        for pf in list(placed):
            t = pf["transform"]
            if t.get("x_inches", 0) or t.get("z_inches", 0):
                placed.append({"feature": pf["feature"], "transform": {
                    "x_inches": -t.get("x_inches", 0), "z_inches": -t.get("z_inches", 0),
                    "rotation_deg": t.get("rotation_deg", 0) + 180}})
    out = []
    for pf in placed:
        t = pf["transform"]
        for comp in pf["feature"]["components"]:
            obj = objects[comp["object_id"]]
            ct = comp.get("transform") or {}
            for sh in obj["shapes"]:
                if sh.get("shape_type") == "polygon":
                    local = [tuple(v) for v in sh["vertices"]]
                else:
                    w, d = sh["width_inches"] / 2, sh["depth_inches"] / 2
                    local = [(-w, -d), (w, -d), (w, d), (-w, d)]
                so = sh.get("offset") or {}
                pts = _place(so.get("x_inches", 0), so.get("z_inches", 0), so.get("rotation_deg", 0), local)
                pts = _place(ct.get("x_inches", 0), ct.get("z_inches", 0), ct.get("rotation_deg", 0), pts)
                pts = _place(t.get("x_inches", 0), t.get("z_inches", 0), t.get("rotation_deg", 0), pts)
                out.append(([(x + W / 2, D / 2 - z) for x, z in pts], pf["feature"], obj, sh))
    return out


def raster_cover(polys, W, D, step=0.05) -> float:
    """Share of the table under the union of the polygons, on a fine grid."""
    xs = np.arange(step / 2, W, step)
    ys = np.arange(step / 2, D, step)
    gx, gy = np.meshgrid(xs, ys)
    cov = np.zeros(gx.shape, dtype=bool)
    for pts in polys:
        inside = np.zeros(gx.shape, dtype=bool)
        n = len(pts)
        for k in range(n):
            (x0, y0), (x1, y1) = pts[k - 1], pts[k]
            cross = (y1 > gy) != (y0 > gy)
            with np.errstate(divide="ignore", invalid="ignore"):
                xi = (x0 - x1) * (gy - y1) / np.where(cross, y0 - y1, 1.0) + x1
            inside ^= cross & (gx < xi)
        cov |= inside
    return float(cov.mean())


def check_faithful(path: Path):
    """Every shape of the source is one piece with the same outline, the same sight and the same
    footprint; the coverage is the source's."""
    data = json.loads(path.read_text())
    m, notes = import_layout(path)
    src = source_shapes(data)
    assert len(m.pieces) == len(src)
    for piece, (pts, feat, obj, sh) in zip(m.pieces, src):
        assert piece.shape.type == "polygon"
        assert np.allclose(piece.shape.points, pts, atol=1e-6), piece.id
        footprint = "obscuring" in feat.get("tags", []) and obj.get("is_footprint", False)
        assert piece.prop("obscuring") == footprint, piece.id
        opacity = sh.get("opacity_height_inches")
        opacity = sh["height_inches"] if opacity is None else opacity
        blocks = not footprint and sh["height_inches"] > 0 and opacity > 0
        assert piece.prop("blocks_sight") == blocks, piece.id
        if blocks:
            assert piece.height == pytest.approx(min(opacity, sh["height_inches"]))
        if "container" in obj.get("tags", []):
            assert piece.kind == "container"
    # the 40k reading blocks through exactly Carltographer's obscuring footprints
    t = table_for(m)
    assert {p.id for p in footprint_pieces(t)} == {p.id for p in m.pieces if p.prop("obscuring")}
    lay = data.get("layout", data)
    W, D = lay["table_width_inches"], lay["table_depth_inches"]
    assert t.coverage() == pytest.approx(raster_cover([s[0] for s in src], W, D), abs=0.003)
    return m, notes, data


def test_the_hand_made_layout_imports_every_shape_as_its_source():
    m, notes, _ = check_faithful(HAND)
    tank = next(p for p in m.pieces if p.id == "tank-1-tank")
    assert len(tank.shape.points) == 24                       # round, not a 5x5" box
    area = table_for(m).pieces[0].area / 25.4 ** 2
    assert area == pytest.approx(0.5 * 24 * 2.5 ** 2 * math.sin(2 * math.pi / 24), rel=1e-3)   # 19.4 in^2, not 25
    wood = next(p for p in m.pieces if p.id == "bean-1-bean")
    assert len(wood.shape.points) == 12 and not wood.prop("obscuring")   # a wood, not an obscuring feature
    base = next(p for p in m.pieces if p.id == "ruin-1-base")
    assert (base.kind, base.prop("obscuring"), base.prop("blocks_sight")) == ("ruin", True, False)
    assert any("polygon shapes kept as polygons" in n for n in notes)
    assert any("tags not carried over" in n and "wtc" in n for n in notes)


# Carltographer's program on polygons-and-footprints.json (see the module's docstring)
ITS_FIGURES = {
    3.0: dict(overall=37.75, observers=470, dz={"1": 9.26, "2": 8.94}, obj={"1": 0.0, "2": 0.0}),
    6.0: dict(overall=38.5, observers=800, dz={"1": 9.57, "2": 10.33}, obj={"1": 20.0, "2": 20.0}),
}


@pytest.mark.parametrize("control", [3.0, 6.0])
def test_the_carltographer_metric_gives_its_programs_figures(control):
    m, _ = import_layout(HAND)
    ours = carltographer_metrics(m, control_mm=control * 25.4)
    its = ITS_FIGURES[control]
    assert ours["observers"] == its["observers"]
    assert "infantry_in" in ours                               # its 3" walls call for the second pass
    # overall within 0.2: one observer standing exactly on a footprint's edge reads it from
    # inside here and from outside there, by the rounding of its corners
    assert ours["overall"] == pytest.approx(its["overall"], abs=0.2)
    assert ours["dz_hideability"] == its["dz"]
    assert ours["objective_hidability"] == its["obj"]


def test_the_sight_polygon_is_exact_where_pieces_overlap():
    """Where two blockers cross, the seen area matches a 400,000-ray count."""
    from engine.workshop.carlto_metric import polygon_area, sight_polygon

    segs = np.array([(-2, 3, 2, 3), (0, 1.5, 0.5, 5), (-20, -10, 20, -10), (20, -10, 20, 10),
                     (20, 10, -20, 10), (-20, 10, -20, -10)], float)
    area = polygon_area(sight_polygon(0.0, 0.0, segs))
    th = np.linspace(-math.pi, math.pi, 400_001)[:-1]
    dx, dz = np.cos(th), np.sin(th)
    best = np.full(th.shape, np.inf)
    for x0, z0, x1, z1 in segs:
        ex, ez = x1 - x0, z1 - z0
        den = dx * ez - dz * ex
        with np.errstate(all="ignore"):
            t = (x0 * ez - z0 * ex) / den
            u = (x0 * dz - z0 * dx) / den
        best = np.where((np.abs(den) > 1e-12) & (t >= 0) & (u >= 0) & (u <= 1), np.minimum(best, t), best)
    assert area == pytest.approx(float((best ** 2 / 2).sum() * 2 * math.pi / len(th)), rel=1e-4)


def _skirmish(*args, timeout=60):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    return subprocess.run([sys.executable, "-m", "game.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=Path(__file__).parent.parent)


def test_skirmish_import_writes_the_map_and_reports_and_never_overwrites(tmp_path):
    out = tmp_path / "hand.json"
    r = _skirmish("import", str(HAND), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert "4 polygon shapes kept as polygons" in r.stdout and "obscuring footprints" in r.stdout
    before = out.read_text()
    again = _skirmish("import", str(HAND), "--out", str(out))
    assert again.returncode == 1 and "exists" in again.stderr and out.read_text() == before
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    r = _skirmish("import", str(fifo), "--out", str(tmp_path / "x.json"), timeout=30)
    assert r.returncode == 1 and "not a regular file" in r.stderr and "Traceback" not in r.stderr
    r = _skirmish("analyze-map", str(out), "--metric", "carltographer", "--json")
    assert r.returncode == 0, r.stderr
    c = json.loads(r.stdout)["carltographer"]
    assert c["dz_hideability"] == ITS_FIGURES[3.0]["dz"] and c["observers"] == 470
    r = _skirmish("analyze-map", str(out), "--metric", "carltographer", "--png", str(tmp_path / "x.png"))
    assert r.returncode == 2 and "figures only" in r.stderr


def _reference_files():
    if not REFERENCE:
        return []
    return sorted(Path(REFERENCE).glob("*.json"))


@pytest.mark.skipif(not REFERENCE, reason="SKIRMISH_CARLTOGRAPHER_LAYOUTS not set (Carltographer's own layouts)")
@pytest.mark.parametrize("path", _reference_files(), ids=lambda p: p.stem)
def test_layouts_made_by_carltographer_import_faithfully_and_score_as_it_does(path):
    m, notes, data = check_faithful(path)
    vis = data["layout"]["visibility"]
    zones = [z["id"] for z in data["layout"]["mission"]["deployment_zones"]]
    ours = carltographer_metrics(m)
    assert ours["overall"] == pytest.approx(vis["overall"]["value"], abs=1.0)
    for side, zone in zip(("1", "2"), zones):
        assert ours["dz_hideability"][side] == pytest.approx(vis["dz_hideability"][zone]["value"], abs=3.0)
        assert ours["objective_hidability"][side] == pytest.approx(vis["objective_hidability"][zone]["value"], abs=3.0)
