"""Each map piece's outline in world coordinates (walls become rectangles), the piece under a
point, and the order pieces are drawn in."""
from __future__ import annotations

import functools
import math
import zlib
from dataclasses import dataclass, field

from engine.data.maps import CircleShape, MapFile, Piece, WallShape, point_in_polygon, polygon_area

from .look import PALETTE

# ----------------------------------------------------------------------------- geometry

@dataclass
class PieceGeom:
    piece: Piece
    kind: str
    shape: str                         # "poly" or "circle"
    points: list = field(default_factory=list)   # world polygon (walls become rectangles)
    center: tuple = (0.0, 0.0)
    radius: float = 0.0
    seg: tuple | None = None           # (a, b, thickness) for wall shapes
    height_mm: float = 0.0
    bounds: tuple = (0, 0, 0, 0)
    seed: int = 0
    colour: tuple = (128, 128, 128)

    # area and anchor are asked for every frame a label is placed: the outline is fixed once the
    # geometry is built (a changed map gets new geometries), so each is worked out once
    @functools.cached_property
    def area(self) -> float:
        if self.shape == "circle":
            return math.pi * self.radius ** 2
        return abs(polygon_area(self.points))

    def contains(self, x: float, y: float) -> bool:
        if self.shape == "circle":
            return (x - self.center[0]) ** 2 + (y - self.center[1]) ** 2 <= self.radius ** 2
        return point_in_polygon(x, y, self.points)

    def anchor(self) -> tuple[float, float]:
        """Where a label goes: the centre of the bounding box, or the centroid if inside."""
        return self._label_anchor

    @functools.cached_property
    def _label_anchor(self) -> tuple[float, float]:
        if self.shape == "circle":
            return self.center
        x0, y0, x1, y1 = self.bounds
        c = ((x0 + x1) / 2, (y0 + y1) / 2)
        if self.contains(*c):
            return c
        cx = sum(p[0] for p in self.points) / len(self.points)
        cy = sum(p[1] for p in self.points) / len(self.points)
        return (cx, cy)


def _wall_rect(a, b, t):
    (ax, ay), (bx, by) = a, b
    L = math.hypot(bx - ax, by - ay)
    nx, ny = -(by - ay) / L * t / 2, (bx - ax) / L * t / 2
    return [(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)]


def build_geoms(m: MapFile) -> list[PieceGeom]:
    out = []
    for p in m.pieces:
        s = p.shape
        seed = zlib.crc32(p.id.encode())
        h = p.height_mm(m.unit)
        pal = PALETTE.get(p.kind, [(128, 128, 128)])
        g = PieceGeom(piece=p, kind=p.kind, shape="poly", height_mm=h, seed=seed, colour=pal[seed % len(pal)])
        if isinstance(s, CircleShape):
            g.shape, g.center, g.radius = "circle", tuple(s.center), s.radius
            cx, cy = s.center
            g.bounds = (cx - s.radius, cy - s.radius, cx + s.radius, cy + s.radius)
        else:
            if isinstance(s, WallShape):
                g.points = _wall_rect(s.a, s.b, s.thickness)
                g.seg = (tuple(s.a), tuple(s.b), s.thickness)
            else:
                g.points = [tuple(q) for q in s.points]
            xs = [q[0] for q in g.points]
            ys = [q[1] for q in g.points]
            g.bounds = (min(xs), min(ys), max(xs), max(ys))
        out.append(g)
    return out


def piece_at(geoms: list[PieceGeom], x: float, y: float):
    """The topmost piece (tallest drawn last) under world point (x, y), or None."""
    best = None
    for g in geoms:
        x0, y0, x1, y1 = g.bounds
        if x0 <= x <= x1 and y0 <= y <= y1 and g.contains(x, y):
            if best is None or _draw_order(g) >= _draw_order(best):
                best = g
    return best


_FLAT = {"water": 0, "hill": 1, "bones": 2}


def _draw_order(g: PieceGeom):
    if g.kind in _FLAT:
        return (_FLAT[g.kind], g.height_mm)
    if g.kind == "smoke":
        return (9, g.height_mm)
    if g.kind == "platform" and g.piece.prop("impassable") is False:
        return (3, g.height_mm)
    return (5, g.height_mm)
