"""The easy agents' walking grid (``engine/ai/geo.py``): its distance field is the shortest walk
over the grid's passable steps, the same numbers exactly as a plain Dijkstra over the same cells
(issue 28 made the field's relaxation work in place; this holds it to an independent answer)."""
from __future__ import annotations

import heapq
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai.geo import INF, WalkGrid
from engine.core.tables import table_for
from engine.data.maps import load_map
from engine.paths import resolve_map

GRIDS = {}


def _grid(mapname: str, radius: float) -> WalkGrid:
    key = (mapname, radius)
    if key not in GRIDS:
        GRIDS[key] = WalkGrid(table_for(load_map(resolve_map(mapname))), radius)
    return GRIDS[key]


def _dijkstra(g: WalkGrid, goals) -> np.ndarray:
    """The same seeds as ``field`` (each goal's free cells, at their straight distance), then
    every passable step, cheapest first: each cell's best sum of step lengths, added in walking
    order from the goal."""
    d = np.full((g.nx, g.ny), INF)
    for x, y in goals:
        for i, j in g._seed_cells(x, y):
            d[i, j] = min(d[i, j], math.hypot(g.xs[i] - x, g.ys[j] - y))
    heap = [(d[i, j], i, j) for i in range(g.nx) for j in range(g.ny) if d[i, j] < INF]
    heapq.heapify(heap)
    done = np.zeros_like(d, dtype=bool)
    while heap:
        dist, i, j = heapq.heappop(heap)
        if done[i, j]:
            continue
        done[i, j] = True
        for dx, dy, m, c in g.steps:
            # the step from (a, b) to (i, j) is passable from (a, b): (a, b) + (dx, dy) == (i, j)
            a, b = i - dx, j - dy
            if 0 <= a < g.nx and 0 <= b < g.ny and m[a, b] and not done[a, b]:
                nd = dist + c
                if nd < d[a, b]:
                    d[a, b] = nd
                    heapq.heappush(heap, (nd, a, b))
    return d


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["outpost", "town", "prehistoric"]), st.sampled_from([12.5, 20.0]),
       st.lists(st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)), min_size=1, max_size=4))
def test_field_equals_dijkstra_exactly(mapname, radius, where):
    g = _grid(mapname, radius)
    goals = [(fx * g.table.width, fy * g.table.height) for fx, fy in where]
    f = g.field(goals)
    ref = _dijkstra(g, goals)
    assert np.array_equal(f, ref)
    assert (f < INF).sum() > 0.5 * g.ok.sum()      # most of the standable table is reachable


def test_field_on_an_open_row_is_the_step_count():
    """Hand-computed: a goal at a cell centre in the open on the prehistoric map; the cell k steps
    along the row is k cell widths away, added one step at a time (a diagonal only adds length)."""
    g = _grid("prehistoric", 12.5)
    i, j = next((i, j) for i in range(5, g.nx - 10) for j in range(5, g.ny - 5)
                if all(g.ok[i + k, j] and g.steps[0][2][i + k, j] and g.steps[1][2][i + k + 1, j]
                       for k in range(6)))
    f = g.field([(float(g.xs[i]), float(g.ys[j]))])
    want = 0.0
    for k in range(1, 6):
        want += g.sx
        assert f[i + k, j] == want


def test_dijkstra_is_the_relaxation_and_a_maze_keeps_the_relaxation():
    """``field`` works the relaxation's answer out by a compiled Dijkstra: on the home maps the
    two are the same arrays; in a maze deeper than the relaxation's rounds (a serpentine of
    10 x 10 cells, 80 rounds) the two would differ, and the relaxation itself answers."""
    from table_fixtures import box, table

    for mapname in ("outpost", "town", "prehistoric"):
        g = _grid(mapname, 12.5)
        for k in range(6):
            x, y = (0.13 + 0.15 * k) * g.table.width, (0.9 - 0.14 * k) * g.table.height
            seeds = {(i, j): math.hypot(g.xs[i] - x, g.ys[j] - y) for i, j in g._seed_cells(x, y)}
            d = np.full((g.nx, g.ny), INF)
            for c, h in seeds.items():
                d[c] = h
            g._relax(d)
            assert np.array_equal(g._shortest(seeds), d)
    walls = [box(f"w{k}", "building", 0 if k % 2 else 20, 20 * k + 19, 180 if k % 2 else 200, 20 * k + 21)
             for k in range(1, 10)]
    g = WalkGrid(table(walls, width=200, height=200), 2.0, step=20.0)
    assert (g.nx, g.ny, g._sweeps()) == (10, 10, 80)
    seeds = {(0, 0): math.hypot(g.xs[0] - 5.0, g.ys[0] - 5.0)}
    assert g._shortest(seeds) is None            # the far end of the maze is 99 steps away
    d = np.full((g.nx, g.ny), INF)
    d[0, 0] = seeds[(0, 0)]
    g._relax(d)
    assert np.array_equal(g.field([(5.0, 5.0)]), d)
    assert np.array_equal(_dijkstra(g, [(5.0, 5.0)])[:, :5], d[:, :5])   # the near rows agree
