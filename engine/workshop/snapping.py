"""Where a dragged selection lands: the grid, 15-degree turns, alignment with the table's edges
and other pieces, and the ruler's distances to the nearest edges and neighbours.

All in the map's unit. The editor asks these while dragging (each call is well under a
millisecond for a 130-piece table) and draws what they return; nothing here knows about pixels
except the alignment tolerance it is given.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from engine.data.maps import CircleShape, PolygonShape, WallShape

from . import shapes as S

GRID = {"in": 0.5, "cm": 1.0, "mm": 10.0}     # the default grid per unit: 1/2" or 1 cm
ANGLE_STEP = 15.0


def grid_step(unit: str) -> float:
    return GRID[unit]


def snap(v: float, step: float) -> float:
    return round(v / step) * step if step > 0 else v


def snap_angle(degrees: float, step: float = ANGLE_STEP) -> float:
    return snap(degrees, step)


@dataclass
class Snapped:
    dx: float
    dy: float
    guides: list = field(default_factory=list)     # ("x", value) or ("y", value): lines to draw


def _lines(b) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    x0, y0, x1, y1 = b
    return (x0, (x0 + x1) / 2, x1), (y0, (y0 + y1) / 2, y1)


def snap_move(box, dx: float, dy: float, step: float | None, width: float, height: float,
              others=(), tol: float = 0.0) -> Snapped:
    """The move of a selection whose bounding box is ``box`` by about (dx, dy): its left, centre
    or right (bottom, middle, top) lines up with a table edge or centre line or with another
    item's (``others``: bounding boxes) when one is within ``tol``; otherwise its lower left
    corner lands on the grid (``step``; None: no grid)."""
    xs, ys = _lines(box)
    cand_x = [0.0, width / 2, width]
    cand_y = [0.0, height / 2, height]
    for b in others:
        ox, oy = _lines(b)
        cand_x += ox
        cand_y += oy
    out = Snapped(dx, dy)
    for axis, mine, cands, d in (("x", xs, cand_x, dx), ("y", ys, cand_y, dy)):
        best = None
        if tol > 0:
            for v in mine:
                for c in cands:
                    gap = abs(v + d - c)
                    if gap <= tol and (best is None or gap < best[0]):
                        best = (gap, c - v, c)
        if best is not None:
            nd = best[1]
            out.guides.append((axis, best[2]))
        elif step:
            nd = snap(mine[0] + d, step) - mine[0]
        else:
            nd = d
        if axis == "x":
            out.dx = nd
        else:
            out.dy = nd
    return out


# ----------------------------------------------------------------------------- the ruler

def outline(shape) -> list[tuple[float, float]]:
    """A shape's outline as a polygon (walls as their rectangle; circles: the centre only,
    distances to them subtract the radius)."""
    if isinstance(shape, PolygonShape):
        return [(x, y) for x, y in shape.points]
    if isinstance(shape, WallShape):
        (ax, ay), (bx, by), t = shape.a, shape.b, shape.thickness
        L = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / L * t / 2, (bx - ax) / L * t / 2
        return [(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)]
    return [tuple(shape.center)]


def seg_point(p, a, b) -> tuple[float, tuple[float, float]]:
    ax, ay = a
    ex, ey = b[0] - ax, b[1] - ay
    L2 = ex * ex + ey * ey
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * ex + (p[1] - ay) * ey) / L2))
    q = (ax + t * ex, ay + t * ey)
    return math.dist(p, q), q


def _edges(pts):
    n = len(pts)
    return [(pts[i], pts[(i + 1) % n]) for i in range(n)] if n > 1 else [(pts[0], pts[0])]


def _inside(p, pts) -> bool:
    inside = False
    n = len(pts)
    for i in range(n):
        (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % n]
        if (y0 > p[1]) != (y1 > p[1]) and p[0] < x0 + (p[1] - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def shape_gap(a, b) -> tuple[float, tuple, tuple]:
    """The shortest distance between two shapes (0 when they touch or overlap) and the two
    points it runs between."""
    pa, pb = outline(a), outline(b)
    ra = a.radius if isinstance(a, CircleShape) else 0.0
    rb = b.radius if isinstance(b, CircleShape) else 0.0
    if len(pa) > 2 and len(pb) > 2 and (_inside(pb[0], pa) or _inside(pa[0], pb)):
        return 0.0, pa[0], pa[0]
    if len(pa) > 2 and len(pb) == 1 and _inside(pb[0], pa):
        return 0.0, pb[0], pb[0]
    if len(pb) > 2 and len(pa) == 1 and _inside(pa[0], pb):
        return 0.0, pa[0], pa[0]
    # each outline has a point at least, so the loops below always find a pair
    best: tuple[float, Any, Any] = (math.inf, None, None)
    for p in pa:
        for e in _edges(pb):
            d, q = seg_point(p, *e)
            if d < best[0]:
                best = (d, p, q)
    for p in pb:
        for e in _edges(pa):
            d, q = seg_point(p, *e)
            if d < best[0]:
                best = (d, q, p)
    d, p, q = best
    if ra or rb:
        # move the ends off the circles' centres onto their rims
        L = d or 1.0
        ux, uy = (q[0] - p[0]) / L, (q[1] - p[1]) / L
        p = (p[0] + ux * ra, p[1] + uy * ra)
        q = (q[0] - ux * rb, q[1] - uy * rb)
        d = d - ra - rb
    return max(0.0, d), p, q


@dataclass
class Measure:
    a: tuple
    b: tuple
    length: float
    what: str                # "edge" or a neighbour's label


def ruler(shapes, width: float, height: float, neighbours=(), count: int = 1) -> list[Measure]:
    """What a designer reads while dragging ``shapes`` (a selection): the distance from their
    bounding box to the nearest side edge and the nearest top or bottom edge of the table, and
    to the ``count`` nearest ``neighbours`` (``(label, shape)`` pairs)."""
    b = S.bounds_of(S.bounds(s) for s in shapes)
    if b is None:
        return []
    x0, y0, x1, y1 = b
    cy, cx = (y0 + y1) / 2, (x0 + x1) / 2
    out = []
    if x0 <= width - x1:
        out.append(Measure((0.0, cy), (x0, cy), x0, "edge"))
    else:
        out.append(Measure((x1, cy), (width, cy), width - x1, "edge"))
    if y0 <= height - y1:
        out.append(Measure((cx, 0.0), (cx, y0), y0, "edge"))
    else:
        out.append(Measure((cx, y1), (cx, height), height - y1, "edge"))
    if neighbours and count > 0:
        # the bounding-box gap is a lower bound of the true gap: measure the nearest few exactly
        def box_gap(nb):
            u0, v0, u1, v1 = S.bounds(nb[1])
            gx = max(0.0, u0 - x1, x0 - u1)
            gy = max(0.0, v0 - y1, y0 - v1)
            return math.hypot(gx, gy)
        cands = sorted(neighbours, key=box_gap)[:max(6, count * 3)]
        found = []
        for label, nb in cands:
            best = min((shape_gap(s, nb) for s in shapes), key=lambda t: t[0])
            found.append(Measure(best[1], best[2], best[0], label))
        found.sort(key=lambda m: m.length)
        out += found[:count]
    return out
