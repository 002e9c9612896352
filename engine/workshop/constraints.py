"""The rules a generated layout always keeps: every piece on the table and clear of its edges by
a set gap, pieces of different groups (a template placed, a lone piece) apart by a set gap, no
piece in a deployment zone unless its template may stand there, the catalog's counts, and
reachability on foot (``reachability.py``).

Distances are between the true outlines (convex parts in mm, ``engine.table.terrain``): the gap
between two polygons is the shortest distance between their edges, 0 when they overlap. Locked
pieces were placed by a designer: they are kept apart from the generated ones but not from each
other, and not from the edges or the zones.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.data.maps import MM_PER, MapFile
from engine.table.geometry import CirclePart, ConvexPart, convex_parts, polygon_edges
from engine.table.terrain import build_piece


@dataclass(frozen=True)
class Rules:
    """The geometric rules, in the map's unit."""
    piece_gap: float = 2.0           # between pieces of different groups
    edge_gap: float = 1.0            # between a piece and the table's edge
    in_zones: frozenset = frozenset()   # templates whose pieces may stand in a deployment zone


# ----------------------------------------------------------------------------- distances (mm)

def _seg_dist2(px, py, ax, ay, bx, by) -> float:
    ex, ey = bx - ax, by - ay
    L2 = ex * ex + ey * ey
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((px - ax) * ex + (py - ay) * ey) / L2))
    dx, dy = px - ax - t * ex, py - ay - t * ey
    return dx * dx + dy * dy


def _sat_separation(a: tuple, b: tuple) -> float:
    """The largest separation of two convex CCW polygons along their edge normals: negative when
    they overlap (minus the penetration), else a lower bound of their distance."""
    best = -math.inf
    for P, Q in ((a, b), (b, a)):
        for x0, y0, ex, ey in polygon_edges(P):
            L = math.hypot(ex, ey)
            if L == 0:
                continue
            nx, ny = ey / L, -ex / L                   # outward normal of a CCW edge
            s = min((qx - x0) * nx + (qy - y0) * ny for qx, qy in Q)
            if s > best:
                best = s
    return best


def _poly_point_distance(P: tuple, x: float, y: float) -> float:
    """Signed: negative inside (minus the depth)."""
    n = len(P)
    d2 = min(_seg_dist2(x, y, *P[i], *P[(i + 1) % n]) for i in range(n))
    inside = all((P[(i + 1) % n][0] - P[i][0]) * (y - P[i][1]) - (P[(i + 1) % n][1] - P[i][1]) * (x - P[i][0]) >= 0
                 for i in range(n))
    return -math.sqrt(d2) if inside else math.sqrt(d2)


def part_distance(a, b) -> float:
    """Distance between two convex parts in mm (0 or negative when they overlap)."""
    if isinstance(a, CirclePart) and isinstance(b, CirclePart):
        return math.hypot(a.cx - b.cx, a.cy - b.cy) - a.r - b.r
    if isinstance(a, CirclePart):
        a, b = b, a
    if isinstance(b, CirclePart):
        return _poly_point_distance(a.points, b.cx, b.cy) - b.r
    sep = _sat_separation(a.points, b.points)
    if sep <= 0:
        return sep
    P, Q = a.points, b.points
    best = math.inf
    for U, W in ((P, Q), (Q, P)):
        n = len(W)
        for x, y in U:
            for i in range(n):
                best = min(best, _seg_dist2(x, y, *W[i], *W[(i + 1) % n]))
    return math.sqrt(best)


class Parts:
    """Each piece's convex parts and bounding box in mm, kept per piece object (a map changed by
    an edit shares every piece it did not touch, so only the changed ones are built again)."""

    def __init__(self):
        self._cache: dict[int, tuple] = {}

    def of(self, piece, unit: str):
        hit = self._cache.get(id(piece))
        if hit is not None and hit[0] is piece and hit[1] == unit:
            return hit[2]
        tp = build_piece(0, piece, unit)
        val = (tp.parts, np.array(tp.bbox), tp)
        if len(self._cache) > 20_000:
            self._cache.clear()
        self._cache[id(piece)] = (piece, unit, val)
        return val


def instance_of(piece) -> str:
    """The instance a piece belongs to: its group, else itself."""
    return piece.group or f"piece:{piece.id}"


def geometry_problems(m: MapFile, rules: Rules, templates: dict, parts: Parts | None = None,
                      limit: int = 3) -> list[str]:
    """Edge gaps, gaps between instances and deployment-zone exclusion (see the module note).
    ``templates`` maps a generated instance (group) to its template id."""
    parts = parts or Parts()
    k = MM_PER[m.unit]
    W, H = m.width * k, m.height * k
    eg, pg = rules.edge_gap * k, rules.piece_gap * k
    out: list[str] = []
    items = []          # (instance, locked, piece, parts, bbox)
    for p in m.pieces:
        ps, bb, _ = parts.of(p, m.unit)
        items.append((instance_of(p), bool(p.locked), p, ps, bb))
        if p.locked:
            continue
        if bb[0] < eg - 1e-6 or bb[1] < eg - 1e-6 or bb[2] > W - eg + 1e-6 or bb[3] > H - eg + 1e-6:
            out.append(f"{p.id}: closer than {rules.edge_gap:g}{_u(m)} to the table's edge")
            if len(out) >= limit:
                return out
    if len(items) > 1:
        bbs = np.array([it[4] for it in items])
        lo, hi = bbs[:, :2] - pg, bbs[:, 2:] + pg
        near = ((lo[:, None, 0] <= bbs[None, :, 2]) & (hi[:, None, 0] >= bbs[None, :, 0])
                & (lo[:, None, 1] <= bbs[None, :, 3]) & (hi[:, None, 1] >= bbs[None, :, 1]))
        I, J = np.nonzero(np.triu(near, 1))
        for i, j in zip(I.tolist(), J.tolist()):
            a, b = items[i], items[j]
            if a[0] == b[0] or (a[1] and b[1]):
                continue
            d = min(part_distance(u, v) for u in a[3] for v in b[3])
            if d < pg - 1e-6:
                out.append(f"{a[2].id} and {b[2].id}: {max(d, 0) / k:.2f}{_u(m)} apart, closer than "
                           f"{rules.piece_gap:g}{_u(m)}")
                if len(out) >= limit:
                    return out
    zones = [(i, z.side, convex_parts([(x * k, y * k) for x, y in z.points])) for i, z in enumerate(m.deployment)]
    for inst, locked, p, ps, bb in items:
        if locked or templates.get(inst) in rules.in_zones:
            continue
        for i, side, zparts in zones:
            if any(part_distance(u, v) < -1e-6 for u in ps for v in zparts
                   if _bbox_overlap(bb, v)):
                out.append(f"{p.id}: stands in zone {i + 1} (side {side})")
                if len(out) >= limit:
                    return out
                break
    return out


def _bbox_overlap(bb, part) -> bool:
    x0, y0, x1, y1 = part.bbox
    return bb[0] <= x1 and bb[2] >= x0 and bb[1] <= y1 and bb[3] >= y0


def _u(m: MapFile) -> str:
    return '"' if m.unit == "in" else f" {m.unit}"


def count_problems(counts: dict, bounds: dict) -> list[str]:
    """Template counts outside their (min, max)."""
    out = []
    for tid, (lo, hi) in bounds.items():
        n = counts.get(tid, 0)
        if n < lo:
            out.append(f"{tid}: {n} placed, at least {lo} wanted")
        elif n > hi:
            out.append(f"{tid}: {n} placed, at most {hi} allowed")
    return out


__all__ = ["Rules", "Parts", "part_distance", "geometry_problems", "count_problems", "instance_of",
           "ConvexPart", "CirclePart"]
