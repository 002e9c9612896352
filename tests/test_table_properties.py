"""Property tests: legality, paths, sight bounds, the numpy kernel against the pymunk reference."""
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.table import Base, openness_heatmap, sight_reference
from engine.table.geometry import CirclePart
from table_fixtures import box, circle, model, poly, table, wall

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

W, H = 600, 400


@st.composite
def piece(draw, i):
    kind = draw(st.sampled_from(["building", "wall", "crate", "woods", "barrel", "hedge", "rock", "tree",
                                 "smoke", "hill"]))
    x = draw(st.integers(0, W - 40))
    y = draw(st.integers(0, H - 40))
    shape = draw(st.sampled_from(["box", "wall", "circle", "L"]))
    height = draw(st.one_of(st.none(), st.integers(5, 150)))
    props = {} if height is None else {"height": height}
    if shape == "box":
        return box(f"p{i}", kind, x, y, x + draw(st.integers(5, 150)), y + draw(st.integers(5, 150)), **props)
    if shape == "wall":
        L = draw(st.integers(20, 200))
        b = (x + L, y) if draw(st.booleans()) else (x, y + L)
        return wall(f"p{i}", kind, (x, y), b, draw(st.integers(3, 15)), **props)
    if shape == "circle":
        return circle(f"p{i}", kind, (x, y), draw(st.integers(5, 60)), **props)
    w, h = draw(st.integers(30, 150)), draw(st.integers(30, 150))
    return poly(f"p{i}", kind, [(x, y), (x + w, y), (x + w, y + h // 3), (x + w // 3, y + h // 3),
                                (x + w // 3, y + h), (x, y + h)], **props)


@st.composite
def layouts(draw, max_pieces=7):
    n = draw(st.integers(0, max_pieces))
    return table([draw(piece(i)) for i in range(n)], width=W, height=H)


@st.composite
def bases(draw, bid, off):
    # integer positions plus an irrational-looking offset: rays never graze piece corners exactly
    x = draw(st.integers(10, W - 10)) + off
    y = draw(st.integers(10, H - 10)) + off * 0.7
    return Base(bid, x, y, draw(st.sampled_from([10.0, 12.5, 15.0, 20.0])), float(draw(st.integers(10, 60))),
                0.0, float(draw(st.sampled_from([0, 0, 0, 20, 60, 110]))))


def part_distance(part, x, y):
    """Signed distance from a point to a convex part (negative inside), plain geometry."""
    if isinstance(part, CirclePart):
        return math.hypot(x - part.cx, y - part.cy) - part.r
    pts = part.points
    inside, best = True, math.inf
    for i in range(len(pts)):
        (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % len(pts)]
        ex, ey = x1 - x0, y1 - y0
        if ey * (x - x0) - ex * (y - y0) > 0:
            inside = False
        t = max(0.0, min(1.0, ((x - x0) * ex + (y - y0) * ey) / (ex * ex + ey * ey)))
        best = min(best, math.hypot(x - x0 - t * ex, y - y0 - t * ey))
    return -best if inside else best


@SETTINGS
@given(layouts(), st.lists(st.tuples(st.floats(0, W), st.floats(0, H)), min_size=1, max_size=20),
       st.sampled_from([10.0, 12.5, 20.0]))
def test_legal_positions_never_overlap_impassable_terrain(t, points, r):
    for x, y in points:
        if t.position_problem(x, y, r) is not None:
            continue
        assert r - 1e-6 <= x <= W - r + 1e-6 and r - 1e-6 <= y <= H - r + 1e-6
        for p in t.pieces:
            if not p.impassable:
                continue
            if p.climbable and p.contains(x, y):
                continue      # standing on top of it
            for part in p.parts:
                assert part_distance(part, x, y) >= r - 1e-5, (p.id, x, y)


@SETTINGS
@given(layouts(max_pieces=6), st.lists(st.tuples(st.floats(0, W), st.floats(0, H)), min_size=2, max_size=6),
       st.lists(st.tuples(st.integers(20, W - 20), st.integers(20, H - 20)), max_size=3))
def test_paths_never_cross_impassable_terrain_or_models(t, points, mpos):
    r = 12.5
    models = [model(f"m{i}", x + 0.37, y + 0.11) for i, (x, y) in enumerate(mpos)]
    legal = [(x, y) for x, y in points if t.position_problem(x, y, r, models) is None]
    for a, b in zip(legal, legal[1:]):
        p = t.find_path(a, b, r, others=models)
        if p is None:
            continue
        assert p.points[0][:2] == pytest.approx(a) and p.points[-1][:2] == pytest.approx(b)
        assert p.horizontal >= math.dist(a, b) - 1e-6
        assert p.length == pytest.approx(p.horizontal + p.vertical)
        for (x0, y0, _), (x1, y1, _) in zip(p.points, p.points[1:]):
            for piece in t.pieces:
                if piece.impassable and not piece.climbable:
                    for part in piece.parts:
                        assert segment_part_distance((x0, y0), (x1, y1), part) >= r - 0.05
            for m in models:
                dx, dy = x1 - x0, y1 - y0
                L2 = dx * dx + dy * dy
                u = 0.0 if L2 == 0 else max(0.0, min(1.0, ((m.x - x0) * dx + (m.y - y0) * dy) / L2))
                assert math.hypot(x0 + u * dx - m.x, y0 + u * dy - m.y) >= r + m.radius - 0.05
            assert r - 1e-6 <= x1 <= W - r + 1e-6 and r - 1e-6 <= y1 <= H - r + 1e-6
        # walking the whole allowance arrives; walking part of it stays legal
        assert t.walk(p, p.length + 1, r, models)[:2] == pytest.approx(b)
        x, y, _ = t.walk(p, p.length / 2, r, models)
        assert t.position_problem(x, y, r, models) is None


def _point_segment(p, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    L2 = dx * dx + dy * dy
    u = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L2))
    return math.hypot(a[0] + u * dx - p[0], a[1] + u * dy - p[1])


def segment_part_distance(a, b, part) -> float:
    """Exact distance from segment a-b to a convex part or a disc (0 when they meet), computed
    without pymunk so it checks the table's queries independently."""
    if hasattr(part, "cx"):
        return max(0.0, _point_segment((part.cx, part.cy), a, b) - part.r)
    pts = list(part.points)
    if part.contains(*a) or part.contains(*b):
        return 0.0
    edges = list(zip(pts, pts[1:] + pts[:1]))

    def cross(o, p, q):
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])

    for c, d in edges:
        if cross(a, b, c) * cross(a, b, d) < 0 and cross(c, d, a) * cross(c, d, b) < 0:
            return 0.0
    return min([_point_segment(p, a, b) for p in pts] + [_point_segment(a, c, d) for c, d in edges]
               + [_point_segment(b, c, d) for c, d in edges])


@SETTINGS
@given(layouts(), bases("v", 0.1234567), bases("t", 0.7654321),
       st.lists(bases("o", 0.3141592), max_size=3), st.integers(1, 6), st.integers(1, 4), st.booleans())
def test_numpy_sight_equals_reference(t, viewer, target, others, h, v, mb):
    others = [Base(f"o{i}", o.x + i * 17.3, o.y, o.radius, o.height, 0.0, o.z) for i, o in enumerate(others)]
    a = t.sight(viewer, target, others, h, v, mb)
    b = sight_reference(t, viewer, target, others, h, v, mb)
    assert 0.0 <= a.visible_fraction <= 1.0 and 0.0 <= a.obscured_fraction <= a.visible_fraction
    assert a == b


@settings(max_examples=25, deadline=None)
@given(layouts(), st.lists(bases("x", 0.2718281), min_size=1, max_size=5))
def test_matrix_equals_single_calls(t, ms):
    ms = [Base(f"m{i}", m.x + 13.1 * i, m.y, m.radius, m.height, 0.0, m.z) for i, m in enumerate(ms)]
    vis, cov = t.sight_matrix(ms, ms)
    codes = {"none": 0, "light": 1, "heavy": 2}
    for i, a in enumerate(ms):
        for j, b in enumerate(ms):
            s = t.sight(a, b, ms)
            assert vis[i, j] == s.visible_fraction and cov[i, j] == codes[s.cover]


def test_heatmap_hand_computed():
    # 200 x 100 mm at 50 mm: points x = 25, 75, 125, 175; y = 25, 75. A tall wall splits the table.
    t = table([box("b", "building", 90, 0, 110, 100), box("low", "wall", 140, 40, 160, 60, height=10)],
              width=200, height=100)
    for procs in (1, 2):
        hm = openness_heatmap(t, step_mm=50, processes=procs)
        assert hm.shape == (2, 4)
        assert np.allclose(hm, 3 / 7)          # each sees the 3 others on its side; the low wall is no bar
    t2 = table([box("b", "building", 90, 0, 110, 100), box("c", "building", 0, 0, 40, 40)], width=200, height=100)
    hm = openness_heatmap(t2, step_mm=50, processes=2)
    assert math.isnan(hm[0, 0])
    assert hm[1, 0] == hm[0, 1] == hm[1, 1] == pytest.approx(2 / 6)
    assert np.allclose(hm[:, 2:], 3 / 6)


def test_heatmap_numpy_equals_pymunk_on_a_random_town():
    from table_fixtures import random_town
    t = random_town(n_pieces=40, seed=5, width=24, height=18)
    a = openness_heatmap(t, step_mm=40.0, processes=1)
    b = openness_heatmap(t, step_mm=40.0, processes=2, method="pymunk")
    assert np.array_equal(np.isnan(a), np.isnan(b))
    assert np.allclose(np.nan_to_num(a), np.nan_to_num(b))
    assert 0 < np.nanmean(a) < 1
