"""The geometry both exports share (``skirmish export``, issue 62): a piece's outline in inches,
whether it is a rectangle, and the oriented block that holds it.

Everything here is in inches in the map's own frame (origin at the table's lower left corner, y
up, angles counter-clockwise from +x); the exports turn that into their own frames.
"""
from __future__ import annotations

import math

from engine.data.maps import MM_PER, CircleShape, PolygonShape

# A circle written as a polygon (Carltographer has no circle) keeps every point of its rim
# within this many inches of the true one: the round trip's tolerance is 0.01".
CIRCLE_TOLERANCE_IN = 0.005


def inches_per_unit(mapfile) -> float:
    return MM_PER[mapfile.unit] / 25.4


def circle_sides(radius_in: float) -> int:
    """Sides of a regular polygon inscribed in the circle whose rim stays within
    ``CIRCLE_TOLERANCE_IN`` of the circle's (the sagitta r(1 - cos(pi/n)))."""
    if radius_in <= CIRCLE_TOLERANCE_IN:
        return 12
    n = math.ceil(math.pi / math.acos(1 - CIRCLE_TOLERANCE_IN / radius_in))
    return min(max(n, 12), 720)           # a map's polygon holds at most 1,000 corners


def outline_in(piece, k: float) -> list[tuple[float, float]]:
    """The piece's outline in inches (``k`` inches per map unit): a polygon's corners, a circle's
    inscribed polygon (``circle_sides``), a wall's four corners."""
    sh = piece.shape
    if isinstance(sh, PolygonShape):
        return [(x * k, y * k) for x, y in sh.points]
    if isinstance(sh, CircleShape):
        cx, cy, r = sh.center[0] * k, sh.center[1] * k, sh.radius * k
        n = circle_sides(r)
        return [(cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n)) for i in range(n)]
    (ax, ay), (bx, by), t = sh.a, sh.b, sh.thickness
    L = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / L * t / 2, (bx - ax) / L * t / 2
    return [((ax - nx) * k, (ay - ny) * k), ((bx - nx) * k, (by - ny) * k),
            ((bx + nx) * k, (by + ny) * k), ((ax + nx) * k, (ay + ny) * k)]


Block = tuple[float, float, float, float, float]     # centre x, centre y, width, depth, degrees


def rectangle(pts) -> Block | None:
    """(centre x, centre y, width along the first edge, depth, the first edge's angle in degrees)
    when the four points are a rectangle's corners in order, else None."""
    if len(pts) != 4:
        return None
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts
    e0, e1 = (x1 - x0, y1 - y0), (x2 - x1, y2 - y1)
    w, d = math.hypot(*e0), math.hypot(*e1)
    if w <= 0 or d <= 0:
        return None
    tol = 1e-9 * max(w, d, 1.0)
    opposite = abs(x3 - x2 + e0[0]) < tol and abs(y3 - y2 + e0[1]) < tol and abs(x0 - x3 + e1[0]) < tol \
        and abs(y0 - y3 + e1[1]) < tol
    if not opposite or abs(e0[0] * e1[0] + e0[1] * e1[1]) > tol * max(w, d):
        return None
    return (x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4, w, d, math.degrees(math.atan2(e0[1], e0[0]))


def _hull(pts) -> list[tuple[float, float]]:
    """Convex hull (Andrew's monotone chain), counter-clockwise."""
    p = sorted(set(pts))
    if len(p) < 3:
        return p

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower: list = []
    upper: list = []
    for q in p:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], q) <= 0:
            lower.pop()
        lower.append(q)
    for q in reversed(p):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], q) <= 0:
            upper.pop()
        upper.append(q)
    return lower[:-1] + upper[:-1]


def block_of(pts) -> Block:
    """The smallest-area rectangle around the points with a side along one of their hull's edges
    (a rectangle's own block is itself): the block a Tabletop Simulator export shows."""
    rect = rectangle(pts)
    if rect:
        return rect
    hull = _hull(pts)
    best: tuple | None = None
    for i in range(len(hull)):
        (ax, ay), (bx, by) = hull[i], hull[(i + 1) % len(hull)]
        a = math.atan2(by - ay, bx - ax)
        c, s = math.cos(a), math.sin(a)
        us = [x * c + y * s for x, y in hull]
        vs = [-x * s + y * c for x, y in hull]
        area = (max(us) - min(us)) * (max(vs) - min(vs))
        if best is None or area < best[0] - 1e-12:
            best = (area, a, us, vs)
    assert best is not None           # a map's outline has area, so a hull of at least three corners
    _, a, us, vs = best
    c, s = math.cos(a), math.sin(a)
    mu, mv = (max(us) + min(us)) / 2, (max(vs) + min(vs)) / 2
    return mu * c - mv * s, mu * s + mv * c, max(us) - min(us), max(vs) - min(vs), math.degrees(a)


def to_local(pts, block: Block) -> list[list[float]]:
    """The points in the block's frame, as fractions of its width and depth (-0.5 to 0.5)."""
    cx, cy, w, d, deg = block
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return [[((x - cx) * c + (y - cy) * s) / w, (-(x - cx) * s + (y - cy) * c) / d] for x, y in pts]


def from_local(local, block: Block) -> list[tuple[float, float]]:
    """``to_local`` undone, for a block that may have been moved, turned or stretched since."""
    cx, cy, w, d, deg = block
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return [(cx + u * w * c - v * d * s, cy + u * w * s + v * d * c) for u, v in local]
