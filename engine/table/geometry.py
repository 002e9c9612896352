"""Plain 2D geometry of terrain footprints: convex parts, decomposition, numpy segment clipping.

Every footprint is stored as convex parts (``ConvexPart`` polygons, counter-clockwise, and
``CirclePart`` discs) in millimetres. ``PartArrays`` packs a list of parts into numpy arrays so
that many (segment, part) pairs can be clipped at once (Cyrus–Beck for polygons, the quadratic
for discs): this is the kernel used by sight, path costs and the heatmap.
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pymunk.autogeometry

from engine.data.maps import polygon_area

Point = tuple[float, float]


def polygon_edges(pts: Sequence[Point]) -> Iterator[tuple[float, float, float, float]]:
    """Each edge of the closed polygon ``pts`` as (x0, y0, ex, ey): its first vertex and the
    vector to the next one (the last edge closes back to the first vertex)."""
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        yield x0, y0, x1 - x0, y1 - y0


@dataclass(frozen=True, slots=True)
class ConvexPart:
    """A convex polygon, vertices counter-clockwise (y up), in mm."""
    points: tuple[Point, ...]

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        xs = [p[0] for p in self.points]
        ys = [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float, tol: float = 0.0) -> bool:
        for x0, y0, ex, ey in polygon_edges(self.points):
            # outward normal of a CCW edge is (ey, -ex); inside when the projection is <= 0
            if (ey * (x - x0) - ex * (y - y0)) / math.hypot(ex, ey) > tol:
                return False
        return True

    def area(self) -> float:
        return polygon_area(self.points)


@dataclass(frozen=True, slots=True)
class CirclePart:
    cx: float
    cy: float
    r: float

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return self.cx - self.r, self.cy - self.r, self.cx + self.r, self.cy + self.r

    def contains(self, x: float, y: float, tol: float = 0.0) -> bool:
        return math.hypot(x - self.cx, y - self.cy) <= self.r + tol

    def area(self) -> float:
        return math.pi * self.r * self.r


Part = ConvexPart | CirclePart


def _clean(pts: list[Point]) -> list[Point]:
    """Drop repeated and collinear vertices."""
    out = [p for i, p in enumerate(pts) if math.dist(p, pts[i - 1]) > 1e-9]
    changed = True
    while changed and len(out) > 3:
        changed = False
        for i in range(len(out)):
            a, b, c = out[i - 1], out[i], out[(i + 1) % len(out)]
            cr = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
            if abs(cr) <= 1e-9 * max(1.0, math.dist(a, b) * math.dist(b, c)):
                del out[i]
                changed = True
                break
    return out


def is_convex_ccw(pts: list[Point]) -> bool:
    n = len(pts)
    for i in range(n):
        a, b, c = pts[i - 1], pts[i], pts[(i + 1) % n]
        if (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]) < -1e-9:
            return False
    return True


def _ear_clip(pts: list[Point]) -> list[list[Point]]:
    """Triangulate a simple CCW polygon (fallback when pymunk's decomposition loses area)."""
    idx = list(range(len(pts)))
    tris = []

    def inside(p, a, b, c):
        def s(u, v, w):
            return (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])
        return s(a, b, p) >= 0 and s(b, c, p) >= 0 and s(c, a, p) >= 0

    guard = 0
    while len(idx) > 3 and guard < 10000:
        guard += 1
        for k in range(len(idx)):
            i0, i1, i2 = idx[k - 1], idx[k], idx[(k + 1) % len(idx)]
            a, b, c = pts[i0], pts[i1], pts[i2]
            if (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) <= 1e-12:
                continue
            if any(inside(pts[j], a, b, c) for j in idx if j not in (i0, i1, i2)):
                continue
            tris.append([a, b, c])
            del idx[k]
            break
        else:
            break
    if len(idx) == 3:
        tris.append([pts[i] for i in idx])
    return tris


def convex_parts(points: list[Point]) -> list[ConvexPart]:
    """Split a simple polygon (either winding) into convex CCW parts covering exactly its area."""
    pts = [(float(x), float(y)) for x, y in points]
    if polygon_area(pts) < 0:
        pts.reverse()
    pts = _clean(pts)
    if is_convex_ccw(pts):
        return [ConvexPart(tuple(pts))]
    area = polygon_area(pts)
    parts: list[list[Point]] = []
    try:
        hulls = pymunk.autogeometry.convex_decomposition(pts + [pts[0]], 0.0)
        for h in hulls:
            hp = [(float(v[0]), float(v[1])) for v in h]
            if len(hp) > 1 and math.dist(hp[0], hp[-1]) < 1e-12:
                hp = hp[:-1]
            if polygon_area(hp) < 0:
                hp.reverse()
            hp = _clean(hp)
            if len(hp) >= 3 and polygon_area(hp) > 1e-9:
                parts.append(hp)
        ok = parts and abs(sum(polygon_area(p) for p in parts) - area) <= 1e-6 * max(1.0, area) \
            and all(is_convex_ccw(p) for p in parts)
    except Exception:  # pragma: no cover - defensive: fall back to triangles
        ok = False
    if not ok:
        parts = _ear_clip(pts)
    return [ConvexPart(tuple(p)) for p in parts]


def wall_part(a: Point, b: Point, thickness: float) -> ConvexPart:
    """The rectangle of a straight wall: segment a-b, ``thickness`` wide (square ends)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    L = math.hypot(dx, dy)
    nx, ny = -dy / L * thickness / 2, dx / L * thickness / 2
    pts = [(a[0] - nx, a[1] - ny), (b[0] - nx, b[1] - ny), (b[0] + nx, b[1] + ny), (a[0] + nx, a[1] + ny)]
    if polygon_area(pts) < 0:
        pts.reverse()
    return ConvexPart(tuple(pts))


class PartArrays:
    """Convex parts packed for vectorised clipping.

    Polygons: for part p and edge k, a point q is inside when ``n[p,k] . q <= c[p,k]`` for all k;
    short polygons are padded with ``n = 0, c = 1`` (always satisfied). Discs: centre and radius.
    ``owner`` maps each part to an index chosen by the caller (a piece, a model...).
    """

    def __init__(self, parts: list[Part], owners: list[int]):
        polys = [(p, o) for p, o in zip(parts, owners) if isinstance(p, ConvexPart)]
        circs = [(p, o) for p, o in zip(parts, owners) if isinstance(p, CirclePart)]
        m = max((len(p.points) for p, _ in polys), default=3)
        P = len(polys)
        self.nx = np.zeros((P, m))
        self.ny = np.zeros((P, m))
        self.c = np.ones((P, m))
        self.poly_owner = np.array([o for _, o in polys], dtype=np.int64)
        self.poly_bbox = np.array([p.bbox for p, _ in polys], dtype=float).reshape(P, 4)
        self.poly_nedge = np.array([len(p.points) for p, _ in polys], dtype=np.int64)
        self.m = m
        self.poly_vx = np.zeros((P, m))
        self.poly_vy = np.zeros((P, m))
        for i, (p, _) in enumerate(polys):
            pts = p.points
            n = len(pts)
            for k, (x0, y0, ex, ey) in enumerate(polygon_edges(pts)):
                L = math.hypot(ex, ey)
                nx, ny = ey / L, -ex / L
                self.nx[i, k], self.ny[i, k] = nx, ny
                self.c[i, k] = nx * x0 + ny * y0
            for k in range(m):
                self.poly_vx[i, k], self.poly_vy[i, k] = pts[min(k, n - 1)]
        # bounding circles for cheap culling
        if P:
            bx = (self.poly_bbox[:, 0] + self.poly_bbox[:, 2]) / 2
            by = (self.poly_bbox[:, 1] + self.poly_bbox[:, 3]) / 2
            self.poly_cx, self.poly_cy = bx, by
            self.poly_rho = np.sqrt(((self.poly_vx - bx[:, None]) ** 2 + (self.poly_vy - by[:, None]) ** 2).max(axis=1))
        else:
            self.poly_cx = self.poly_cy = self.poly_rho = np.zeros(0)
        self.ccx = np.array([p.cx for p, _ in circs], dtype=float)
        self.ccy = np.array([p.cy for p, _ in circs], dtype=float)
        self.cr = np.array([p.r for p, _ in circs], dtype=float)
        self.circ_owner = np.array([o for _, o in circs], dtype=np.int64)
        self.n_poly = P
        self.n_circ = len(circs)
        self._plain: tuple | None = None      # the same parts as Python tuples, built on first use (_plain_parts)


def clip_polys(pa: PartArrays, seg: np.ndarray, part: np.ndarray,
               ax, ay, dx, dy) -> tuple[np.ndarray, np.ndarray]:
    """Cyrus–Beck: parameter interval [t0, t1] of segments ``seg`` (a + t d, t in [0,1]) inside
    polygon parts ``part`` (paired arrays). Empty intervals have t0 >= t1.

    Pairs whose segment misses the part's bounding circle are dropped first, and quadrilaterals
    are clipped apart from the few larger polygons so padding costs nothing."""
    K = len(seg)
    t0 = np.full(K, 1.0)
    t1 = np.full(K, -1.0)
    if K == 0:
        return t0, t1
    sax, say, sdx, sdy = ax[seg], ay[seg], dx[seg], dy[seg]
    fx = pa.poly_cx[part] - sax
    fy = pa.poly_cy[part] - say
    L2 = sdx * sdx + sdy * sdy
    u = np.clip((fx * sdx + fy * sdy) / np.where(L2 > 0, L2, 1.0), 0.0, 1.0)
    gx, gy = fx - u * sdx, fy - u * sdy
    rho = pa.poly_rho[part]
    near = np.flatnonzero(gx * gx + gy * gy <= rho * rho)
    if len(near) == 0:
        return t0, t1
    for idx, m in edge_groups(pa, near, part[near]):
        if len(idx) == 0:
            continue
        pp = part[idx]
        nx, ny, c = pa.nx[pp, :m], pa.ny[pp, :m], pa.c[pp, :m]
        qax, qay = sax[idx][:, None], say[idx][:, None]
        qdx, qdy = sdx[idx][:, None], sdy[idx][:, None]
        num = c - (nx * qax + ny * qay)
        den = nx * qdx + ny * qdy
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = num / den
        a0 = np.where(den < 0, ratio, 0.0).max(axis=1)
        a1 = np.where(den > 0, ratio, 1.0).min(axis=1)
        np.maximum(a0, 0.0, out=a0)
        np.minimum(a1, 1.0, out=a1)
        a1[((den == 0) & (num < 0)).any(axis=1)] = -1.0
        t0[idx] = a0
        t1[idx] = a1
    return t0, t1


def edge_groups(pa, idx: np.ndarray, parts: np.ndarray) -> list[tuple[np.ndarray, int]]:
    """Split candidate indices ``idx`` (whose convex parts are ``parts``) into the quadrilaterals
    and the rest, with the number of edge columns each group needs: most pieces are boxes, so
    clipping them against 4 columns instead of the widest part's ``pa.m`` saves most of the work."""
    if pa.m <= 4:
        return [(idx, pa.m)]
    small = pa.poly_nedge[parts] <= 4
    return [(idx[small], 4), (idx[~small], pa.m)]


def clip_circles(cx, cy, cr, seg: np.ndarray, part: np.ndarray,
                 ax, ay, dx, dy) -> tuple[np.ndarray, np.ndarray]:
    """Interval [t0, t1] of segments inside discs (paired arrays); empty when t0 >= t1."""
    fx = ax[seg] - cx[part]
    fy = ay[seg] - cy[part]
    sdx, sdy = dx[seg], dy[seg]
    a = sdx * sdx + sdy * sdy
    b = fx * sdx + fy * sdy
    cc = fx * fx + fy * fy - cr[part] ** 2
    disc = b * b - a * cc
    ok = (disc > 0) & (a > 0)
    sq = np.sqrt(np.where(ok, disc, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        t0 = np.where(ok, (-b - sq) / a, 2.0)
        t1 = np.where(ok, (-b + sq) / a, -1.0)
    np.maximum(t0, 0.0, out=t0)
    np.minimum(t1, 1.0, out=t1)
    return t0, t1


PLAIN_MAX = 2   # up to this many segments, segment_intervals runs in plain Python


def segment_intervals(pa: PartArrays, a: np.ndarray, b: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All non-empty (segment, owner, t0, t1) for segments a->b (arrays (S,2)) against every part,
    culled by bounding boxes first. Returns arrays seg, owner, t0, t1.

    One or two segments go through ``segment_intervals_plain`` (the same tests in the same
    order, without numpy's fixed cost per operation); more go through the numpy kernel."""
    a = np.asarray(a, dtype=float).reshape(-1, 2)
    b = np.asarray(b, dtype=float).reshape(-1, 2)
    if len(a) > PLAIN_MAX:
        return segment_intervals_np(pa, a, b)
    rows = segment_intervals_plain(pa, a.tolist(), b.tolist())
    if not rows:
        e = np.zeros(0)
        return e.astype(np.int64), e.astype(np.int64), e, e
    s, o, t0, t1 = zip(*rows)
    return (np.array(s, dtype=np.int64), np.array(o, dtype=np.int64), np.array(t0, dtype=float),
            np.array(t1, dtype=float))


def _plain_parts(pa: PartArrays):
    """The parts as Python tuples, built once per PartArrays, for segment_intervals_plain."""
    cached = pa._plain
    if cached is None:
        polys = []
        for i in range(pa.n_poly):
            n = int(pa.poly_nedge[i])
            x0, y0, x1, y1 = (float(v) for v in pa.poly_bbox[i])
            edges = tuple((float(pa.nx[i, k]), float(pa.ny[i, k]), float(pa.c[i, k])) for k in range(n))
            polys.append((x0, y0, x1, y1, float(pa.poly_cx[i]), float(pa.poly_cy[i]), float(pa.poly_rho[i]),
                          int(pa.poly_owner[i]), edges))
        circs = [(float(pa.ccx[i]), float(pa.ccy[i]), float(pa.cr[i]), int(pa.circ_owner[i]))
                 for i in range(pa.n_circ)]
        grids = (_grid([q[:4] for q in polys]),
                 _grid([(cx - cr, cy - cr, cx + cr, cy + cr) for cx, cy, cr, _ in circs]))
        cached = pa._plain = (polys, circs, grids)
    return cached


GRID_MM = 100.0      # cell of the plain path's bucket grid
GRID_MAX_CELLS = 36  # a segment whose box spans more cells scans every part


def _grid(boxes) -> dict:
    """(cell x, cell y) -> indices of the boxes (x0, y0, x1, y1) that reach into that cell."""
    cells: dict = {}
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        for gx in range(math.floor(x0 / GRID_MM), math.floor(x1 / GRID_MM) + 1):
            for gy in range(math.floor(y0 / GRID_MM), math.floor(y1 / GRID_MM) + 1):
                cells.setdefault((gx, gy), []).append(i)
    return cells


def _near(cells: dict, n: int, sx0: float, sy0: float, sx1: float, sy1: float):
    """Indices (ascending) of every box that may overlap the box (sx0, sy0)-(sx1, sy1): a box
    that overlaps it shares a point, and that point's cell is in both boxes' cell ranges. Only a
    shortcut: the caller still applies its own bounding-box test, in index order as before."""
    if n <= 8:              # a few parts: scanning them all is cheaper than the grid
        return range(n)
    try:
        gx0, gx1 = math.floor(sx0 / GRID_MM), math.floor(sx1 / GRID_MM)
        gy0, gy1 = math.floor(sy0 / GRID_MM), math.floor(sy1 / GRID_MM)
    except (ValueError, OverflowError):   # not finite: scan them all
        return range(n)
    if (gx1 - gx0 + 1) * (gy1 - gy0 + 1) > GRID_MAX_CELLS:
        return range(n)
    if gx0 == gx1 and gy0 == gy1:   # one cell: its list is in index order already
        return cells.get((gx0, gy0), ())
    found: set = set()
    for gx in range(gx0, gx1 + 1):
        for gy in range(gy0, gy1 + 1):
            hit = cells.get((gx, gy))
            if hit:
                found.update(hit)
    return sorted(found)


def segment_intervals_plain(pa: PartArrays, a, b) -> list[tuple[int, int, float, float]]:
    """``segment_intervals`` for a few segments in plain Python: the same bounding-box cull,
    bounding-circle cull, Cyrus–Beck clip and disc quadratic, with the same floating-point
    operations, giving the same rows in the same order (polygons first, then discs, each by
    segment then part). ``a`` and ``b`` are sequences of (x, y)."""
    polys, circs, (pgrid, cgrid) = _plain_parts(pa)
    out = []
    segs = [(ax, ay, bx - ax, by - ay, min(ax, bx), max(ax, bx), min(ay, by), max(ay, by))
            for (ax, ay), (bx, by) in zip(a, b)]
    for si, (ax, ay, dx, dy, sx0, sx1, sy0, sy1) in enumerate(segs):
        L2 = dx * dx + dy * dy
        Ld = L2 if L2 > 0 else 1.0
        for k in _near(pgrid, len(polys), sx0, sy0, sx1, sy1):
            x0, y0, x1, y1, cx, cy, rho, owner, edges = polys[k]
            if sx1 < x0 or sx0 > x1 or sy1 < y0 or sy0 > y1:
                continue
            fx, fy = cx - ax, cy - ay
            u = (fx * dx + fy * dy) / Ld
            u = 0.0 if u < 0.0 else (1.0 if u > 1.0 else u)
            gx, gy = fx - u * dx, fy - u * dy
            if gx * gx + gy * gy > rho * rho:
                continue
            t0, t1, empty = 0.0, 1.0, False
            for nx, ny, c in edges:
                num = c - (nx * ax + ny * ay)
                den = nx * dx + ny * dy
                if den < 0:
                    r = num / den
                    if r > t0:
                        t0 = r
                elif den > 0:
                    r = num / den
                    if r < t1:
                        t1 = r
                elif num < 0:
                    empty = True
            if empty:
                t1 = -1.0
            if t0 < t1:
                out.append((si, owner, t0, t1))
    for si, (ax, ay, dx, dy, sx0, sx1, sy0, sy1) in enumerate(segs):
        for k in _near(cgrid, len(circs), sx0, sy0, sx1, sy1):
            cx, cy, cr, owner = circs[k]
            if sx1 < cx - cr or sx0 > cx + cr or sy1 < cy - cr or sy0 > cy + cr:
                continue
            fx, fy = ax - cx, ay - cy
            qa = dx * dx + dy * dy
            qb = fx * dx + fy * dy
            qc = fx * fx + fy * fy - cr * cr
            disc = qb * qb - qa * qc
            if not (disc > 0 and qa > 0):
                continue
            sq = math.sqrt(disc)
            t0 = max((-qb - sq) / qa, 0.0)
            t1 = min((-qb + sq) / qa, 1.0)
            if t0 < t1:
                out.append((si, owner, t0, t1))
    return out


def segment_intervals_np(pa: PartArrays, a: np.ndarray, b: np.ndarray):
    """``segment_intervals`` through the numpy kernel, for any number of segments."""
    a = np.asarray(a, dtype=float).reshape(-1, 2)
    b = np.asarray(b, dtype=float).reshape(-1, 2)
    ax, ay = a[:, 0], a[:, 1]
    dx, dy = b[:, 0] - ax, b[:, 1] - ay
    sx0, sx1 = np.minimum(ax, b[:, 0]), np.maximum(ax, b[:, 0])
    sy0, sy1 = np.minimum(ay, b[:, 1]), np.maximum(ay, b[:, 1])
    outs = []
    if pa.n_poly:
        bb = pa.poly_bbox
        m = (sx1[:, None] >= bb[None, :, 0]) & (sx0[:, None] <= bb[None, :, 2]) & \
            (sy1[:, None] >= bb[None, :, 1]) & (sy0[:, None] <= bb[None, :, 3])
        s, p = np.nonzero(m)
        if len(s):
            t0, t1 = clip_polys(pa, s, p, ax, ay, dx, dy)
            k = t0 < t1
            outs.append((s[k], pa.poly_owner[p[k]], t0[k], t1[k]))
    if pa.n_circ:
        m = (sx1[:, None] >= (pa.ccx - pa.cr)[None]) & (sx0[:, None] <= (pa.ccx + pa.cr)[None]) & \
            (sy1[:, None] >= (pa.ccy - pa.cr)[None]) & (sy0[:, None] <= (pa.ccy + pa.cr)[None])
        s, p = np.nonzero(m)
        if len(s):
            t0, t1 = clip_circles(pa.ccx, pa.ccy, pa.cr, s, p, ax, ay, dx, dy)
            k = t0 < t1
            outs.append((s[k], pa.circ_owner[p[k]], t0[k], t1[k]))
    if not outs:
        e = np.zeros(0)
        return e.astype(np.int64), e.astype(np.int64), e, e
    return tuple(np.concatenate(z) for z in zip(*outs))


def union_length(intervals: list[tuple[float, float]]) -> float:
    total, end = 0.0, -math.inf
    for s, e in sorted(intervals):
        if e > end:
            total += e - max(s, end)
            end = e
    return total
