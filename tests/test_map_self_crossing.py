"""A polygon piece whose edges cross is refused; the check tests only the pairs of edges that could
cross (issue 59, item 4) and must answer exactly as testing every pair did: the old check is kept
here as the oracle, and compared on random outlines that touch themselves, run along themselves,
repeat corners and lie on long lines far from the table's corner (where the signs are rounding
noise, and the old check sometimes called two far-apart edges of one line a crossing)."""
from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.data import self_crossing as sc
from engine.data.maps import PolygonShape, polygon_area

# --- the oracle: maps.py's check before issue 59, word for word ------------------------------

def _segments_cross(p1, p2, q1, q2) -> bool:
    def orient(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return 0 if abs(v) < 1e-12 else (1 if v > 0 else -1)
    o1, o2, o3, o4 = orient(p1, p2, q1), orient(p1, p2, q2), orient(q1, q2, p1), orient(q1, q2, p2)
    return o1 * o2 < 0 and o3 * o4 < 0


def _old_self_intersects(pts) -> bool:
    n = len(pts)
    edges = [(pts[i], pts[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue  # neighbours through the closing edge
            if _segments_cross(*edges[i], *edges[j]):
                return True
    return False


def _old_refusal(pts) -> str | None:
    if abs(polygon_area(pts)) < 1e-9:
        return "polygon has no area (points are collinear or repeated)"
    if _old_self_intersects(pts):
        return "polygon edges cross each other; split it into simple polygons"
    return None


def _every_way(pts) -> set[bool]:
    """The answers of the public check and of each of its ways (the plain loop, the candidates
    found by each way alone, the whole table of signs): one answer, the oracle's."""
    P = np.asarray(pts, dtype=np.float64)
    answers = {sc.polygon_crosses_itself(pts), sc._pairwise(pts), sc._cross_all_pairs(P), sc._crosses(P)}
    for ways in (("sweep",), ("turn",)):        # each way alone, however many pairs it finds
        answers.add(sc._crosses(P, ways, budget=len(P) ** 2))
    return answers


# --- random outlines ------------------------------------------------------------------------

def _place(pts, scale, dx, dy, turn):
    c, s = math.cos(turn), math.sin(turn)
    return [(x * scale * c - y * scale * s + dx, x * scale * s + y * scale * c + dy) for x, y in pts]


frames = st.tuples(st.sampled_from([1.0, 0.1, 2.54, 25.4, 1000.0, 1 / 3]),
                   st.floats(-5e4, 5e4), st.floats(-5e4, 5e4),
                   st.sampled_from([0.0, math.pi / 2, 0.1, 1.0, math.pi / 7]))

# corners on a small grid: touching, running along, repeated corners and real crossings abound
grid = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=3, max_size=40)


@st.composite
def rounds(draw):
    """Star-shaped outlines (corners at rising angles): simple, unless a corner is moved."""
    n = draw(st.integers(3, 120))
    radii = draw(st.lists(st.floats(0.05, 1.0), min_size=n, max_size=n))
    pts = [(r * math.cos(2 * math.pi * i / n), r * math.sin(2 * math.pi * i / n)) for i, r in enumerate(radii)]
    if draw(st.booleans()):
        k = draw(st.integers(0, n - 1))
        pts[k] = (draw(st.floats(-1, 1)), draw(st.floats(-1, 1)))
    if draw(st.booleans()):                      # a corner repeated
        k = draw(st.integers(0, n - 1))
        pts.insert(k, pts[k])
    return pts


@st.composite
def lines(draw):
    """Corners on one long line, then back by one or two corners off it: edges of one line far
    apart, whose signs are rounding noise at large coordinates."""
    x, y = draw(st.floats(-9e4, 9e4)), draw(st.floats(-9e4, 9e4))
    turn, length = draw(st.floats(0, 2 * math.pi)), draw(st.floats(1.0, 9e4))
    ts = draw(st.lists(st.floats(0, 1), min_size=2, max_size=30))
    if draw(st.booleans()):
        ts.sort()
    pts = [(x + length * t * math.cos(turn), y + length * t * math.sin(turn)) for t in ts]
    off = draw(st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1)), min_size=1, max_size=3))
    return pts + [(x + length * a, y + length * b) for a, b in off]


@st.composite
def fans(draw):
    """Spikes that all start from one corner (a hub the outline comes back to), at drawn angles:
    in order they only touch there, out of order they cross."""
    k = draw(st.integers(2, 40))
    angles = draw(st.lists(st.floats(0, 2 * math.pi), min_size=2 * k, max_size=2 * k))
    if draw(st.booleans()):
        angles.sort()
    radii = draw(st.lists(st.floats(0.1, 1.0), min_size=2 * k, max_size=2 * k))
    pts = []
    for i in range(k):
        pts += [(0.0, 0.0)] + [(radii[j] * math.cos(angles[j]), radii[j] * math.sin(angles[j])) for j in (2 * i, 2 * i + 1)]
    return pts


@st.composite
def combs(draw):
    """A comb: teeth whose feet and tips lie on two lines (edges of one line, far apart)."""
    teeth = draw(st.integers(2, 40))
    pitch, depth = draw(st.floats(0.01, 1.0)), draw(st.floats(0.01, 1.0))
    pts = [(pitch * (2 * k + dx), depth * y) for k in range(teeth) for dx, y in ((0, 0), (0, 1), (1, 1), (1, 0))]
    pts += [(pitch * 2 * teeth, -depth), (0.0, -depth)]
    if draw(st.booleans()):                      # a tooth's tip moved: it may cross its neighbours
        k = draw(st.integers(0, len(pts) - 1))
        pts[k] = (pts[k][0] + draw(st.floats(-3, 3)) * pitch, pts[k][1])
    return pts


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(grid, rounds(), fans(), combs()), frames)
def test_the_check_answers_as_every_pair_did_on_random_outlines(pts, frame):
    pts = _place(pts, *frame)
    assert _every_way(pts) == {_old_self_intersects(pts)}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines())
@example([(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0), (5.0, 0.0), (6.0, 0.0), (7.0, 0.0),
          (8.0, 0.0), (3.0, 1.0)])
def test_the_check_answers_as_every_pair_did_on_long_lines(pts):
    assert _every_way(pts) == {_old_self_intersects(pts)}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(grid, rounds(), fans(), combs(), lines()), frames)
def test_a_piece_is_refused_or_kept_as_before_with_the_same_words(pts, frame):
    pts = _place(pts, *frame) if len(pts) < 60 else pts
    if any(abs(v) > 1e5 for p in pts for v in p):
        return                                   # beyond the map's numbers, refused before the check
    want = _old_refusal(pts)
    try:
        PolygonShape(points=pts)
        got = None
    except ValidationError as err:
        got = err.errors()[0]["msg"].removeprefix("Value error, ")
    assert got == want


def _noise_crossing():
    """Two far-apart edges of one long line that the old check calls crossing (rounding noise),
    and whose boxes are apart, so only the table of lines finds them."""
    rng = np.random.default_rng(5)
    while True:
        x, y = rng.uniform(-1e5, 1e5, 2)
        turn, length = rng.uniform(0, 2 * math.pi), rng.uniform(1e3, 1e5)
        ts = np.sort(rng.uniform(0, 1, 4))
        p = [(float(x + length * t * math.cos(turn)), float(y + length * t * math.sin(turn))) for t in ts]
        if _segments_cross(*p) and max(p[0][0], p[1][0]) < min(p[2][0], p[3][0]) - 1:
            return p


def test_far_apart_edges_of_one_line_are_answered_as_before():
    a, b, c, d = _noise_crossing()
    # a thin ten-corner strip along the line: edges 0 and 2 are the pair, the rest lies 100 away
    ux, uy = (d[0] - a[0]) / math.dist(a, d), (d[1] - a[1]) / math.dist(a, d)
    back = [(d[0] + (a[0] - d[0]) * k / 5 - 100 * uy, d[1] + (a[1] - d[1]) * k / 5 + 100 * ux) for k in range(6)]
    pts = [a, b, c, d] + back
    assert _old_self_intersects(pts) and _segments_cross(a, b, c, d)
    assert [(i, j) for i in range(10) for j in range(i + 2, 10 - (i == 0))
            if _segments_cross(pts[i], pts[(i + 1) % 10], pts[j], pts[(j + 1) % 10])] == [(0, 2)]
    assert _every_way(pts) == {True}


def _star(n, inner, outer, cx=500.0, cy=500.0):
    return [(cx + (outer if i % 2 == 0 else inner) * math.cos(2 * math.pi * i / n),
             cy + (outer if i % 2 == 0 else inner) * math.sin(2 * math.pi * i / n)) for i in range(n)]


def _fan(spikes):
    pts = []
    for k in range(spikes):
        a, b = 2 * math.pi * k / spikes, 2 * math.pi * (k + 0.5) / spikes
        pts += [(0.0, 0.0), (400 * math.cos(a), 400 * math.sin(a)), (400 * math.cos(b), 400 * math.sin(b))]
    return pts


def _comb(teeth):
    return [(4.0 * k + dx, y) for k in range(teeth) for dx, y in ((0, 10), (1, 10), (2, 100), (3, 100))] + [
        (4.0 * teeth, 0.0), (0.0, 0.0)]


@pytest.mark.parametrize("name, pts, crosses", [
    ("star", _star(300, 40, 400), False),
    ("star, one spike crossed", _star(300, 40, 400)[:150] + [(700.0, 503.0)] + _star(300, 40, 400)[151:], True),
    ("fan of spikes meeting at one corner", _fan(100), False),
    ("comb", _comb(75), False),
    ("comb, closed across its teeth", _comb(75)[:-2] + [(300.0, 50.0), (0.0, 50.0)], True),
])
def test_large_outlines_of_each_kind_are_answered_as_before(name, pts, crosses):
    assert _old_self_intersects(pts) is crosses
    assert _every_way(pts) == {crosses}


def test_a_thousand_corner_piece_is_checked_in_milliseconds_and_a_repeated_one_once(monkeypatch):
    """0.4 s of CPU each before issue 59 (every pair of edges): 20 distinct 1,000-corner pieces
    took 8 s; now well under one."""
    shapes = [_star(1000, 40 + k, 400) for k in range(10)] + [
        [(500 + (300 + k) * math.cos(2 * math.pi * i / 1000), 500 + 200 * math.sin(2 * math.pi * i / 1000))
         for i in range(1000)] for k in range(10)]
    t = time.process_time()
    for pts in shapes:
        PolygonShape(points=pts)
    assert time.process_time() - t < 2.0
    calls = []
    monkeypatch.setattr(sc, "_check", lambda P: calls.append(1) or False)
    sc._cached.cache_clear()
    for _ in range(3):
        PolygonShape(points=shapes[0])
    PolygonShape(points=[(x + 1.0, y) for x, y in shapes[0]])    # moved: another shape, checked again
    assert len(calls) == 2


@pytest.mark.parametrize("corner, height, refusal", [
    (10_000.0, None, None),                                     # 100 m exactly: on the limit
    (10_000.5, None, "pieces[0].shape.points (p): beyond 100 m from the table"),
    (-10_000.5, 20_000.0, "pieces[0].shape.points (p): beyond 100 m from the table"),  # the first field named
    (5.0, 10_000.5, "pieces[0].height (p): beyond 100 m from the table"),
])
def test_a_far_corner_is_refused_with_its_field_as_before(corner, height, refusal):
    """The size check reads a polygon's farthest number (issue 59: it called far() on each)."""
    from engine.data.maps import MapFile
    piece = {"id": "p", "kind": "rock", "shape": {"type": "polygon", "points": [[1, 1], [corner, 2], [3, 5]]}}
    if height is not None:
        piece["height"] = height
    data = {"schema_version": 1, "id": "m", "name": "M", "unit": "cm", "width": 100, "height": 100,
            "pieces": [piece], "deployment": [{"side": s, "points": [[0, 0], [10, 0], [10, 10]]} for s in (1, 2)]}
    try:
        MapFile.model_validate(data)
        got = None
    except ValidationError as err:
        got = err.errors()[0]["msg"].removeprefix("Value error, ")
    assert got == refusal
