"""The shipped maps load, meet their design targets, and render headless."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from engine.data.maps import load_map, point_in_polygon, polygon_area

ROOT = Path(__file__).resolve().parents[1]
MAPS = sorted((ROOT / "maps").glob("*.json"))


def _coverage_module():
    spec = importlib.util.spec_from_file_location("mapgen_coverage", ROOT / "tools" / "mapgen" / "coverage.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_there_are_maps():
    names = {p.stem for p in MAPS}
    assert {"town", "outpost", "prehistoric", "field"} <= names


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_every_map_loads_with_zones_for_both_sides(path):
    m = load_map(path)
    assert {z.side for z in m.deployment} == {1, 2}
    assert m.id == path.stem


def test_town_is_scenery_heavy():
    m = load_map(ROOT / "maps" / "town.json")
    assert len(m.pieces) >= 100
    assert m.unit == "in"
    assert "frontier" in m.suits
    names = {p.name for p in m.pieces}
    for landmark in ("Last Chance Saloon", "Frontier Bank", "Sheriff's Office", "Livery Stable",
                     "Church", "Water Tower", "Miller's General Store"):
        assert landmark in names


def test_outpost_size_coverage_objectives():
    m = load_map(ROOT / "maps" / "outpost.json")
    assert (m.unit, m.width, m.height) == ("in", 48, 36)
    share = _coverage_module().coverage(m, step=0.1)
    assert 0.25 <= share <= 0.50, share
    assert len(m.objectives) >= 3 and len(m.evac_points) >= 2
    assert any(p.prop("climbable") and p.kind == "platform" for p in m.pieces)


def test_coverage_estimator_on_known_shapes():
    cov = _coverage_module().coverage
    base = {"width": 10, "height": 10}
    square = {"shape": {"type": "polygon", "points": [[0, 0], [5, 0], [5, 5], [0, 5]]}}
    assert cov({**base, "pieces": [square]}) == pytest.approx(0.25, abs=0.01)
    assert cov({**base, "pieces": [square, square]}) == pytest.approx(0.25, abs=0.01)   # counted once
    disc = {"shape": {"type": "circle", "center": [5, 5], "radius": 2}}
    assert cov({**base, "pieces": [disc]}) == pytest.approx(3.14159 * 4 / 100, abs=0.01)
    wall = {"shape": {"type": "wall", "a": [1, 5], "b": [9, 5], "thickness": 1}}
    assert cov({**base, "pieces": [wall]}) == pytest.approx(8.8 / 100, abs=0.01)


def test_prehistoric_in_centimetres():
    m = load_map(ROOT / "maps" / "prehistoric.json")
    assert m.unit == "cm"
    kinds = {p.kind for p in m.pieces}
    assert {"rock", "boulder", "scrub", "water", "hut", "bones", "tree"} <= kinds


# The missions' markers of the town and the prehistoric map (issue 49; docs/rules/frontier.md,
# section 9, and docs/rules/doubles.md, "Missions"): (base radius mm, difficult ground counted this
# many times, each marker's partner, tolerance in the map's unit). Frontier's bases are 30 mm;
# Doubles' 25 mm, and its difficult ground counts double (difficult_terrain_factor 0.5).
FAIR_MARKERS = {"town": (15.0, 1.0, {"obj-1": "obj-3", "obj-2": "obj-2", "obj-3": "obj-1"}, 0.1),
                "prehistoric": (12.5, 2.0, {"obj-1": "obj-2", "obj-2": "obj-1"}, 1.0)}


def _zone_walks(table, radius, factor, step):
    """Per side, a function: the cheapest walk (find_path's shortest path, its difficult stretch
    counted ``factor`` times) from a base anywhere along the zone's inner edge (every ``step`` mm)
    to a point; the zones are strips along a table edge."""
    k = table.mapfile.mm_per_unit
    walks = {}
    for z in table.mapfile.deployment:
        xs, ys = [x * k for x, _ in z.points], [y * k for _, y in z.points]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        if x1 - x0 < y1 - y0:           # a strip along the west or east edge: its inner edge is x
            x = x1 - radius if x0 <= 0 else x0 + radius
            starts = [(x, y0 + radius + i * step) for i in range(int((y1 - y0 - 2 * radius) // step) + 1)]
        else:
            y = y1 - radius if y0 <= 0 else y0 + radius
            starts = [(x0 + radius + i * step, y) for i in range(int((x1 - x0 - 2 * radius) // step) + 1)]
        starts = [s for s in starts if table.position_problem(s[0], s[1], radius) is None]

        def walk(pt, starts=starts):
            paths = [table.find_path(s, pt, radius) for s in starts]
            return min(q.length + (factor - 1.0) * q.difficult for q in paths if q is not None)
        walks[z.side] = walk
    return walks


@pytest.mark.parametrize("name", sorted(FAIR_MARKERS))
def test_mission_markers_stand_in_the_open_at_fair_walking_distances(name):
    """Each marker is where a model's base may stand, inside no piece (no building, no water), and
    its walk from zone 1 is its partner's walk from zone 2 and the other way round (a marker that
    is its own partner: as far from both zones), as the engine's path finder measures a walk."""
    from engine.table import Table

    radius, factor, partner, tol = FAIR_MARKERS[name]
    table = Table(load_map(ROOT / "maps" / f"{name}.json"))
    k = table.mapfile.mm_per_unit
    at = {o.id: (o.at[0] * k, o.at[1] * k) for o in table.mapfile.objectives}
    assert set(at) == set(partner)
    walks = _zone_walks(table, radius, factor, step=k / 4 if table.mapfile.unit == "in" else k / 2)
    for mid, (x, y) in at.items():
        assert table.position_problem(x, y, radius) is None, mid
        assert table.pieces_at(x, y) == [], mid
        other = at[partner[mid]]
        assert walks[1]((x, y)) / k == pytest.approx(walks[2](other) / k, abs=tol), mid
        assert walks[2]((x, y)) / k == pytest.approx(walks[1](other) / k, abs=tol), mid


def test_field_is_open_and_suits_all():
    m = load_map(ROOT / "maps" / "field.json")
    assert len(m.pieces) <= 6
    assert set(m.suits) == {"frontier", "counterblast", "doubles"}


def _headless():
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"


def test_save_map_png_headless(tmp_path):
    _headless()
    import pygame

    from game.render.png import save_map_png

    out = save_map_png(load_map(ROOT / "maps" / "town.json"), tmp_path / "town.png", width_px=640)
    assert out.exists() and out.stat().st_size > 1000
    img = pygame.image.load(str(out))
    assert img.get_width() == 640
    colours = {tuple(img.get_at((x, y))) for x in range(0, 640, 37) for y in range(0, img.get_height(), 29)}
    assert len(colours) > 10


def test_table_view_screenshot_headless(tmp_path):
    _headless()
    from game.table_app import run_table_view

    shot = run_table_view(ROOT / "maps" / "prehistoric.json", screenshot=tmp_path / "shot.png", frames=2,
                          tape=((10, 10), (40, 50)), mouse=(640, 400))
    assert shot.exists() and shot.stat().st_size > 1000


def test_camera_round_trip_and_zoom_about_cursor():
    _headless()
    from game.render.camera import Camera

    cam = Camera(25.4, (0, 0, 1280, 800)).fit(48, 36)
    for wx, wy in ((0, 0), (48, 36), (12.5, 30.25)):
        sx, sy = cam.to_screen(wx, wy)
        assert cam.to_world(sx, sy) == pytest.approx((wx, wy))
    assert cam.to_screen(0, 0)[1] > cam.to_screen(0, 36)[1]        # y up: the origin is at the bottom
    before = cam.to_world(300, 200)
    cam.zoom_at(2.0, 300, 200)
    assert cam.to_world(300, 200) == pytest.approx(before)


def test_tooltip_and_tape_words():
    _headless()
    from game.render.geoms import build_geoms
    from game.table_app import format_length, tooltip_lines

    m = load_map(ROOT / "maps" / "town.json")
    saloon = next(g for g in build_geoms(m) if g.piece.name == "Last Chance Saloon")
    lines = tooltip_lines(saloon, m)
    assert lines[0] == "Last Chance Saloon"
    assert 'height 4.2"' in lines[1]
    assert "blocks sight" in lines[2] and "cover: heavy" in lines[2]
    assert format_length(5.24, "in") == '5.2"'
    assert format_length(12.0, "cm") == "12.0 cm"


def test_point_in_polygon_and_area_by_hand():
    # An L-shaped hexagon, counter-clockwise: area 3 squares of 10 x 10 = 300.
    ell = [(0, 0), (20, 0), (20, 10), (10, 10), (10, 20), (0, 20)]
    assert polygon_area(ell) == 300
    assert polygon_area(ell[::-1]) == -300
    assert point_in_polygon(5, 15, ell) and point_in_polygon(15, 5, ell)
    assert not point_in_polygon(15, 15, ell)      # the notch of the L
    assert not point_in_polygon(-1, 5, ell) and not point_in_polygon(5, 21, ell)
    assert point_in_polygon(5, 15, ell[::-1])     # either winding
