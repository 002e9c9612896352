"""The clearance rasters answer only where the exact tests agree: every point they call free the
exact position test accepts, every route they call clear the swept test finds clear, every route
they call plain meets no climbable or difficult part (random tables, the shipped maps, points
packed near pieces). And they must decide most open ground, or they buy nothing."""
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.table import Table, movement
from engine.table.clearance import distance_field
from engine.table.geometry import CirclePart, ConvexPart, segment_intervals_plain
from table_fixtures import box, table
from test_table_properties import H, W, layouts, part_distance

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _agree(t: Table, pts, starts, radius: float) -> tuple[int, int, int]:
    """Assert the raster's sure answers against the exact tests; how many it decided."""
    ras = t.clearance()
    xs = np.array([p[0] for p in pts], float)
    ys = np.array([p[1] for p in pts], float)
    free = ras.free_at(xs, ys, radius)
    n_free = n_clear = n_plain = 0
    for k in np.flatnonzero(free):
        x, y = float(xs[k]), float(ys[k])
        if radius <= x <= t.width - radius and radius <= y <= t.height - radius:
            assert movement.terrain_problem(t, x, y, radius) is None, (x, y, radius)
            n_free += 1
    for ax, ay in starts:
        clear, plain = ras.routes(ax, ay, xs, ys, radius)
        for k in np.flatnonzero(clear):
            assert movement._clear(t, (ax, ay), (float(xs[k]), float(ys[k])), radius), (ax, ay, xs[k], ys[k])
            n_clear += 1
        for k in np.flatnonzero(plain):
            a, b = (ax, ay), (float(xs[k]), float(ys[k]))
            assert not segment_intervals_plain(t._climb_arrays, [a], [b])
            assert not segment_intervals_plain(t._difficult_arrays, [a], [b])
            assert movement.straight_run(t, a, b) == (math.hypot(b[0] - a[0], b[1] - a[1]), 0.0)
            n_plain += 1
    return n_free, n_clear, n_plain


def _near_pieces(t: Table, rng, n: int):
    """Points spread over the table and packed round the pieces' corners and edges."""
    pts = [(rng.uniform(0, t.width), rng.uniform(0, t.height)) for _ in range(n)]
    for p in t.pieces:
        for part in p.parts:
            x0, y0, x1, y1 = part.bbox
            for _ in range(8):
                pts.append((rng.uniform(x0 - 40, x1 + 40), rng.uniform(y0 - 40, y1 + 40)))
    return pts


@SETTINGS
@given(layouts(), st.sampled_from([10.0, 12.5, 20.0, 30.0]), st.integers(0, 2 ** 31))
def test_the_rasters_answer_only_where_the_exact_tests_agree(t, radius, seed):
    rng = random.Random(seed)
    pts = _near_pieces(t, rng, 60)
    starts = [(rng.uniform(radius, W - radius), rng.uniform(radius, H - radius)) for _ in range(3)]
    _agree(t, pts, starts, radius)


@pytest.mark.parametrize("mapname", ["outpost", "town", "prehistoric"])
def test_the_rasters_on_the_shipped_maps(mapname):
    t = Table(load_map(resolve_map(mapname)))
    rng = random.Random(mapname)
    _agree(t, _near_pieces(t, rng, 400), [(rng.uniform(20, t.width - 20), rng.uniform(20, t.height - 20))
                                          for _ in range(4)], 12.5)
    # candidate moves as the agents make them (rings up to 6" round a base): the raster must
    # decide most of them, or it buys nothing
    decided = [0, 0, 0]
    n = 0
    for _ in range(30):
        ax, ay = rng.uniform(20, t.width - 20), rng.uniform(20, t.height - 20)
        ring = [(ax + f * 152.4 * math.cos(a), ay + f * 152.4 * math.sin(a))
                for f in (1.0, 0.66, 0.33) for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)]
        ring = [(x, y) for x, y in ring if 12.5 <= x <= t.width - 12.5 and 12.5 <= y <= t.height - 12.5]
        for k, v in enumerate(_agree(t, ring, [(ax, ay)], 12.5)):
            decided[k] += v
        n += len(ring)
    assert min(decided) > 0.25 * n, (decided, n)


def test_distance_field_by_hand():
    """A 10 mm square at (50..60, 50..60) and a disc r 5 at (20, 80), 5 mm cells, cap 30: each
    cell holds the signed distance from its centre, capped."""
    parts = [ConvexPart(((50.0, 50.0), (60.0, 50.0), (60.0, 60.0), (50.0, 60.0))), CirclePart(20.0, 80.0, 5.0)]
    D = distance_field(parts, 100.0, 100.0, cell=5.0, cap=30.0)
    assert D.shape == (20, 20)
    assert D[10, 10] == pytest.approx(-2.5)            # centre (52.5, 52.5): 2.5 inside
    assert D[12, 10] == pytest.approx(2.5)             # centre (62.5, 52.5): 2.5 right of it
    assert D[13, 13] == pytest.approx(math.hypot(7.5, 7.5))     # off the corner (60, 60)
    assert D[4, 16] == pytest.approx(math.hypot(2.5, 2.5) - 5.0)  # (22.5, 82.5) inside the disc
    assert D[0, 0] == 30.0                             # far from both: the cap
    for i in range(20):
        for j in range(20):
            want = min(30.0, min(part_distance(p, (i + 0.5) * 5, (j + 0.5) * 5) for p in parts))
            assert D[i, j] == pytest.approx(want, abs=1e-9)


def test_a_route_along_a_wall_is_left_to_the_exact_test():
    """Sliding 12.5 mm from a building's face (contact): the raster is not sure, the exact test
    says clear; 1 mm into it the exact test says blocked."""
    t = table([box("s", "building", 400, 300, 500, 400)])
    ras = t.clearance()
    for y, ok in ((287.5, True), (288.5, False)):
        xs, ys = np.array([600.0]), np.array([y])
        assert not ras.routes(300.0, y, xs, ys, 12.5)[0][0]
        assert movement._clear(t, (300.0, y), (600.0, y), 12.5) == ok
    assert ras.routes(300.0, 250.0, np.array([600.0]), np.array([250.0]), 12.5)[0][0]
