"""Public geometry an agent may use: walking distances over the static table, and candidate
destinations for a move.

Everything here reads only the table (static terrain, shared by every game on the map) and
positions the agent was shown in its view. Nothing reads a game state.

``WalkGrid``: the table as a grid of cells a base of one radius can stand on (terrain only;
other models are ignored, they move), with 8-neighbour steps a swept base can take. Walking
distance from a set of goal points to every cell is a vectorised relaxation (numpy), cached per
goal set: "how far, going round the buildings, is this point from the nearest enemy / marker".
"""
from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence

import numpy as np

from engine.rulesets.common import MoveSpace, MoveTo

_GRIDS: dict = {}
_LOCK = threading.Lock()
_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
INF = 1e12


def walk_grid(table, radius: float) -> WalkGrid:
    """The shared grid of ``table`` for bases of ``radius`` mm (built once per table and radius)."""
    key = (id(table), round(float(radius), 3))
    g = _GRIDS.get(key)
    if g is None or g.table is not table:     # (an id can be reused once a table is gone)
        with _LOCK:
            g = _GRIDS.get(key)
            if g is None or g.table is not table:
                if len(_GRIDS) > 64:
                    _GRIDS.clear()
                g = WalkGrid(table, radius)
                _GRIDS[key] = g
    return g


class WalkGrid:
    def __init__(self, table, radius: float, step: float | None = None):
        self.table, self.radius = table, float(radius)
        self.step = step or max(20.0, min(table.width, table.height) / 36.0)
        self.nx = max(2, int(table.width // self.step))
        self.ny = max(2, int(table.height // self.step))
        sx, sy = table.width / self.nx, table.height / self.ny
        self.sx, self.sy = sx, sy
        xs = (np.arange(self.nx) + 0.5) * sx
        ys = (np.arange(self.ny) + 0.5) * sy
        self.xs, self.ys = xs, ys
        ok = np.zeros((self.nx, self.ny), bool)
        for i in range(self.nx):
            for j in range(self.ny):
                ok[i, j] = table.position_problem(float(xs[i]), float(ys[j]), self.radius) is None
        self.ok = ok
        # passable steps per direction: both cells free and the swept base clear between them
        self.steps = []
        for dx, dy in _DIRS:
            m = np.zeros((self.nx, self.ny), bool)
            for i in range(self.nx):
                for j in range(self.ny):
                    i2, j2 = i + dx, j + dy
                    if 0 <= i2 < self.nx and 0 <= j2 < self.ny and ok[i, j] and ok[i2, j2]:
                        m[i, j] = table.segment_clear((xs[i], ys[j]), (xs[i2], ys[j2]), self.radius)
            self.steps.append((dx, dy, m, math.hypot(dx * sx, dy * sy)))
        self._fields: dict = {}
        self._field_rows: dict = {}                 # id(field) -> (field, its rows as lists)
        self._xl, self._yl = xs.tolist(), ys.tolist()

    def cell(self, x: float, y: float) -> tuple[int, int]:
        return (min(self.nx - 1, max(0, int(x / self.sx))), min(self.ny - 1, max(0, int(y / self.sy))))

    def _near(self, x: float, y: float, reach: float) -> tuple[range, range]:
        """Columns and rows whose cell centres lie within ``reach`` cells of (x, y), a hair of
        tolerance included: a point on the line between two cells gets both, as the same point
        turned half a turn would (picking one side made a marker between cells nearer from one
        side of the table than from the other). Never empty: a point off the table keeps the
        edge cell."""
        fx, fy = x / self.sx - 0.5, y / self.sy - 0.5
        r = reach + 1e-9
        a0, a1 = max(0, math.ceil(fx - r)), min(self.nx - 1, math.floor(fx + r))
        b0, b1 = max(0, math.ceil(fy - r)), min(self.ny - 1, math.floor(fy + r))
        if a0 > a1:
            a0 = a1 = min(self.nx - 1, max(0, int(x / self.sx)))
        if b0 > b1:
            b0 = b1 = min(self.ny - 1, max(0, int(y / self.sy)))
        return range(a0, a1 + 1), range(b0, b1 + 1)

    def _seed_cells(self, x: float, y: float) -> list[tuple[int, int]]:
        """Free cells next to a point (the point itself may be on terrain: a marker on a crate):
        the cell it is in (both, on the line between two), else the nearest ring with a free
        cell."""
        for r in range(0, 6):
            ia, jb = self._near(x, y, 0.5 + r)
            cells = [(a, b) for a in ia for b in jb if self.ok[a, b]]
            if cells:
                return cells
        return [self.cell(x, y)]

    def field(self, goals: Iterable[tuple[float, float]]) -> np.ndarray:
        """Walking distance (mm) from every cell to the nearest goal point; INF where unreachable."""
        near = [(x, y, self._seed_cells(x, y)) for x, y in goals]
        key = tuple(sorted(c for _, _, cells in near for c in cells))
        f = self._fields.get(key)
        if f is not None:
            return f
        seeds: dict = {}
        for x, y, cells in near:
            for (i, j) in cells:
                h = math.hypot(self.xs[i] - x, self.ys[j] - y)
                seeds[(i, j)] = min(seeds.get((i, j), INF), h)
        d = self._shortest(seeds)
        if d is None:
            d = np.full((self.nx, self.ny), INF)
            for (i, j), h in seeds.items():
                d[i, j] = h
            self._relax(d)
        if len(self._fields) > 512:
            self._fields.clear()
        self._fields[key] = d
        return d

    def _relax(self, d: np.ndarray) -> None:
        """The field by relaxation, in place: every direction's steps in turn over all cells,
        until nothing changes (at most ``_sweeps`` rounds)."""
        moves = self._moves()
        for _ in range(self._sweeps()):
            before = d.copy()
            for here, there, m in moves:
                # a cell reaches the goal through its neighbour (i+dx, j+dy) when the step is
                # passable: each direction in turn, all cells at once from the field as the
                # previous direction left it (in place: the sums are made before any cell
                # changes). ``m`` is the step's length where passable and INF where not: a
                # distance plus INF is never below a cell's own (at most INF), so those cells keep
                # theirs, as they did when the step was masked out
                np.minimum(d[here], d[there] + m, out=d[here])
            if np.array_equal(d, before):
                break

    def _sweeps(self) -> int:
        return 4 * (self.nx + self.ny)

    def _shortest(self, seeds: dict) -> np.ndarray | None:
        """The same field as ``_relax`` by Dijkstra (scipy, compiled), or None where they might
        differ. Both reach the least fixed point of d[c] = min(d[c], d[n] + step) over the
        passable steps, each cell's value the cheapest walk's lengths added from its seed in
        walking order (float addition is monotone, so the relaxation never goes below it and
        Dijkstra finds it). The relaxation gets there once every cell's walk in Dijkstra's
        tree has had a round per step; a tree deeper than its rounds allow (a maze) is left to
        the relaxation itself, so the answers are the same in every case."""
        if not seeds:
            return None
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import dijkstra

        data, cols, ptr = self._step_graph()
        V = self.nx * self.ny                 # the last node: a source with an edge to each seed
        cells = list(seeds)
        g = csr_matrix((np.concatenate([data, [seeds[c] for c in cells]]),
                        np.concatenate([cols, [i * self.ny + j for i, j in cells]]).astype(np.int32),
                        np.concatenate([ptr, [len(data) + len(cells)]]).astype(np.int32)), shape=(V + 1, V + 1))
        dist, pred = dijkstra(g, indices=V, return_predecessors=True)
        # the tree's depth in steps (the first edge, to the seed, is no step)
        reach = np.flatnonzero(pred[:V] >= 0)
        tree = csr_matrix((np.ones(len(reach)), (pred[reach], reach)), shape=(V + 1, V + 1))
        hops = dijkstra(tree, indices=V, unweighted=True)[:V]
        if len(reach) and hops[reach].max() - 1 > self._sweeps() - 1:
            return None
        d = dist[:V].reshape(self.nx, self.ny)
        d[~np.isfinite(d)] = INF
        return np.ascontiguousarray(d)

    def _step_graph(self):
        """The passable steps as a graph in CSR arrays (data, column, row pointer), node i*ny+j:
        an edge from the cell a step leads to, back to the cell it starts from, weighing the
        step's length (the field flows from the goal outward)."""
        got = self.__dict__.get("_graph_kept")
        if got is None:
            src, dst, w = [], [], []
            for dx, dy, m, c in self.steps:
                a, b = np.nonzero(m)
                src.append((a + dx) * self.ny + (b + dy))
                dst.append(a * self.ny + b)
                w.append(np.full(len(a), c))
            src, dst, w = np.concatenate(src), np.concatenate(dst), np.concatenate(w)
            order = np.argsort(src, kind="stable")
            ptr = np.zeros(self.nx * self.ny + 1, np.int64)
            np.cumsum(np.bincount(src, minlength=self.nx * self.ny), out=ptr[1:])
            got = self._graph_kept = (w[order], dst[order], ptr)
        return got

    def _moves(self) -> list:
        """Per step direction: the cells that step (a slice), their neighbours (a slice), and the
        step's length from each of those cells (INF where it is not passable)."""
        got = self.__dict__.get("_moves_kept")
        if got is None:
            got = []
            for dx, dy, m, c in self.steps:
                here = (slice(max(0, -dx), self.nx - max(0, dx)), slice(max(0, -dy), self.ny - max(0, dy)))
                there = (slice(max(0, dx), self.nx - max(0, -dx)), slice(max(0, dy), self.ny - max(0, -dy)))
                got.append((here, there, np.where(m[here], c, INF)))
            self._moves_kept = got
        return got

    def _rows(self, field: np.ndarray) -> list:
        """The field as nested lists of floats (the same numbers; indexing a list of floats is
        several times cheaper than a numpy scalar, and ``dist`` is asked thousands of times)."""
        held = self._field_rows.get(id(field))
        if held is None or held[0] is not field:    # (an id can be reused once a field is gone)
            if len(self._field_rows) > 512:
                self._field_rows.clear()
            held = self._field_rows[id(field)] = (field, field.tolist())
        return held[1]

    def dist(self, field: np.ndarray, x: float, y: float) -> float:
        """Walking distance from the point (x, y) by the field: the best of the cells around it
        (those within a cell and a half, so a point on a cell line has the same neighbourhood
        from both sides)."""
        rows, xs, ys = self._rows(field), self._xl, self._yl
        ia, jb = self._near(x, y, 1.5)
        best = INF
        hypot = math.hypot
        for a in ia:
            row, dx = rows[a], xs[a] - x
            for b in jb:
                v = row[b]
                if v < INF:
                    v += hypot(dx, ys[b] - y)
                    if v < best:
                        best = v
        if best >= INF:  # shut in (on a roof, say): fall back on the straight line to the field's best
            return INF
        return best

    def entry(self, field: np.ndarray, x: float, y: float, frame=None) -> tuple[int, int] | None:
        """The cell ``dist`` measures (x, y) by: the one within a cell and a half whose distance
        on the field plus the way to its centre is least (None: none within reach); equal ones
        (to 1e-6 mm) as the player faces the table (``frame``, engine/table/facing.py: the
        left, then the front), so that a point and its half-turn image enter alike."""
        ia, jb = self._near(x, y, 1.5)
        near = [(round(field[a, b] + math.hypot(self.xs[a] - x, self.ys[b] - y), 6), a, b)
                for a in ia for b in jb if field[a, b] < INF]
        if not near:
            return None
        if frame is None:
            return min(near)[1:]
        best = min(v for v, _, _ in near)
        return max(((a, b) for v, a, b in near if v == best),
                   key=lambda ab: frame.tie_key(float(self.xs[ab[0]]), float(self.ys[ab[1]])))

    def downhill(self, field: np.ndarray, x: float, y: float, length: float,
                 enter: bool = False, frame=None) -> tuple[float, float] | None:
        """The point ``length`` mm along the field's steepest descent from (x, y) (round the
        buildings toward the goal), or None when there is nowhere to go. Where the grid cannot
        stand a base in (x, y)'s own cell (a base at the table's edge, or on a container) there
        is no way, unless ``enter``: then it starts through the cell ``dist`` measures the point
        by (``entry``). Counterblast's easy policy enters (a model deployed at the edge found no
        step toward its goal); the others do not yet, which keeps their seeded games. With
        ``frame`` (engine/table/facing.py) equal steps go as the player faces the table, so that a
        point and its half-turn image walk alike."""
        i, j = self.cell(x, y)
        px, py, left = x, y, length
        if field[i, j] >= INF:
            if not enter:
                return None
            got = self.entry(field, x, y, frame)
            if got is None:
                return None
            i, j = got
            tx, ty = float(self.xs[i]), float(self.ys[j])
            seg = math.hypot(tx - px, ty - py)
            if seg >= left:
                return (px + (tx - px) * left / seg, py + (ty - py) * left / seg)
            px, py, left = tx, ty, left - seg
        seen = {(i, j)}
        while left > 0:
            best, nxt = field[i, j], None
            if frame is None:
                for dx, dy, m, _c in self.steps:
                    if m[i, j]:
                        a, b = i + dx, j + dy
                        if field[a, b] + 1e-9 < best and (a, b) not in seen:
                            best, nxt = field[a, b], (a, b)
            else:
                # the lowest neighbour; equal ones (to 1e-6 mm) as the player faces the table, not
                # in the steps' order, which turns with the table (a mirror match parted there)
                low = [(round(field[i + dx, j + dy], 6), i + dx, j + dy) for dx, dy, m, c in self.steps
                       if m[i, j] and field[i + dx, j + dy] + 1e-9 < best and (i + dx, j + dy) not in seen]
                if low:
                    v0 = min(v for v, _, _ in low)
                    nxt = max(((a, b) for v, a, b in low if v == v0),
                              key=lambda ab: frame.tie_key(float(self.xs[ab[0]]), float(self.ys[ab[1]])))
            if nxt is None:
                break
            tx, ty = float(self.xs[nxt[0]]), float(self.ys[nxt[1]])
            seg = math.hypot(tx - px, ty - py)
            if seg >= left:
                k = left / seg
                return (px + (tx - px) * k, py + (ty - py) * k)
            px, py, left = tx, ty, left - seg
            i, j = nxt
            seen.add(nxt)
        return (px, py)


def ring_points(x: float, y: float, allowance: float, directions: int = 16,
                fractions: Sequence[float] = (1.0, 0.66, 0.33)) -> list[tuple[float, float]]:
    out = []
    for f in fractions:
        r = allowance * f * 0.98
        for k in range(directions):
            # the inner rings turned half a step: every ring's set of directions is its own image
            # under the half turn and under both mirrors (a quarter step was not, under a mirror,
            # so the two sides of a mirror-symmetric table weighed different points; issue 45)
            a = 2 * math.pi * k / directions + (math.pi / directions if f < 1 else 0.0)
            out.append((x + r * math.cos(a), y + r * math.sin(a)))
    return out


def toward(x: float, y: float, gx: float, gy: float, length: float, stop_short: float = 0.0):
    d = math.hypot(gx - x, gy - y)
    if d <= 1e-9:
        return None
    step = min(length * 0.98, max(0.0, d - stop_short))
    return (x + (gx - x) * step / d, y + (gy - y) * step / d)


def legal_moves(space: MoveSpace, points: Iterable[tuple[float, float]], exact: Sequence[tuple[float, float]] = (),
                max_exact: int = 3) -> list[MoveTo]:
    """The points a move space accepts: each by the straight route (``quick``, all points in
    one pass: ``quick_all``); the ``exact`` points (waypoints round corners) by the space's own
    ``check`` (path finder).
    Every returned move has passed the space's ``quick`` or ``check``; ``quick`` accepting
    implies ``check`` accepts (the straight route is one legal route)."""
    out, seen = [], set()
    mid = space.base.id
    w, h = space.table.width, space.table.height

    def fresh(pts):
        """Each point clamped onto the table, rounded, and offered once as a move."""
        for (x, y) in pts:
            x, y = round(min(w - 0.01, max(0.01, x)), 2), round(min(h - 0.01, max(0.01, y)), 2)
            if (x, y) not in seen:
                seen.add((x, y))
                yield MoveTo(mid, x, y)

    pts = list(fresh(points))
    out = [c for c, ok in zip(pts, space.quick_all(pts)) if ok]
    n = 0
    ex = list(fresh(exact))
    for c, ok in zip(ex, space.quick_all(ex)):
        if ok:
            out.append(c)
            continue
        if n >= max_exact or space._basic(c) is not None:
            continue
        n += 1                      # the path finder: a route round the corner
        if space.check(c) is None:
            out.append(c)
    return out
