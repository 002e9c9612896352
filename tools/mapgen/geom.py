"""Small helpers for writing map layouts by hand: shapes as plain dicts ready for JSON.

Coordinates are in the map's unit, on a plan drawn top-down (x right, y down from the top
edge); make_maps.py flips them into the engine's y-up frame when it writes the files.
"""
from __future__ import annotations

import math
from collections import defaultdict


def r2(v: float) -> float:
    return round(float(v), 2)


def pt(x: float, y: float) -> list[float]:
    return [r2(x), r2(y)]


def poly(points) -> dict:
    return {"type": "polygon", "points": [pt(x, y) for x, y in points]}


def rect(x0: float, y0: float, x1: float, y1: float) -> dict:
    """Axis-aligned rectangle from corner (x0, y0) to corner (x1, y1)."""
    return poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def box(cx: float, cy: float, w: float, h: float, angle_deg: float = 0.0) -> dict:
    """Rectangle of size w x h centred on (cx, cy), turned by angle_deg (clockwise on screen)."""
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    pts = []
    for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        pts.append((cx + dx * ca - dy * sa, cy + dx * sa + dy * ca))
    return poly(pts)


def circle(cx: float, cy: float, r: float) -> dict:
    return {"type": "circle", "center": pt(cx, cy), "radius": r2(r)}


def wall(ax: float, ay: float, bx: float, by: float, thickness: float) -> dict:
    return {"type": "wall", "a": pt(ax, ay), "b": pt(bx, by), "thickness": r2(thickness)}


def blob(cx: float, cy: float, rx: float, ry: float, bumps, angle_deg: float = 0.0) -> dict:
    """An irregular, star-shaped outline (rocks, scrub, ponds): radii scaled by ``bumps``.

    ``bumps`` is a fixed list of factors (one per vertex), so layouts stay deterministic.
    """
    n = len(bumps)
    a0 = math.radians(angle_deg)
    pts = []
    for i, f in enumerate(bumps):
        t = 2 * math.pi * i / n
        x, y = math.cos(t) * rx * f, math.sin(t) * ry * f
        pts.append((cx + x * math.cos(a0) - y * math.sin(a0), cy + x * math.sin(a0) + y * math.cos(a0)))
    return poly(pts)


def ribbon(centre, half_widths, clamp=None) -> dict:
    """A band along a polyline (streams, trenches): left bank out, right bank back.

    ``clamp=(w, h)`` keeps the banks on a w x h table (a stream running off an edge)."""
    left, right = [], []
    n = len(centre)
    for i, (x, y) in enumerate(centre):
        xa, ya = centre[max(i - 1, 0)]
        xb, yb = centre[min(i + 1, n - 1)]
        dx, dy = xb - xa, yb - ya
        L = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / L, dx / L
        hw = half_widths[i] if isinstance(half_widths, (list, tuple)) else half_widths
        left.append((x + nx * hw, y + ny * hw))
        right.append((x - nx * hw, y - ny * hw))
    pts = left + right[::-1]
    if clamp:
        pts = [(min(max(x, 0.0), clamp[0]), min(max(y, 0.0), clamp[1])) for x, y in pts]
    return poly(pts)


def rotate180(shape: dict, w: float, h: float) -> dict:
    """The same shape turned half a turn about the table's centre (for point-symmetric layouts)."""
    f = lambda p: pt(w - p[0], h - p[1])  # noqa: E731
    s = dict(shape)
    if s["type"] == "polygon":
        s["points"] = [f(p) for p in s["points"]]
    elif s["type"] == "circle":
        s["center"] = f(s["center"])
    else:
        s["a"], s["b"] = f(s["a"]), f(s["b"])
    return s


def mirror_x(shape: dict, w: float) -> dict:
    f = lambda p: pt(w - p[0], p[1])  # noqa: E731
    s = dict(shape)
    if s["type"] == "polygon":
        s["points"] = [f(p) for p in s["points"]][::-1]
    elif s["type"] == "circle":
        s["center"] = f(s["center"])
    else:
        s["a"], s["b"] = f(s["a"]), f(s["b"])
    return s


class Layout:
    """Collects pieces with readable ids (``kind-01``, ``kind-02`` ...)."""

    def __init__(self):
        self.pieces: list[dict] = []
        self._count: dict[str, int] = defaultdict(int)

    def add(self, kind: str, shape: dict, name: str = "", **props) -> dict:
        self._count[kind] += 1
        p = {"id": f"{kind}-{self._count[kind]:02d}", "kind": kind}
        if name:
            p["name"] = name
        p["shape"] = shape
        for k, v in props.items():
            p[k] = r2(v) if isinstance(v, float) else v
        self.pieces.append(p)
        return p
