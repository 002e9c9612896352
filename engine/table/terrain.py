"""Terrain built from a MapFile: pieces in millimetres, as convex parts, in a static pymunk space."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pymunk

from engine.data.maps import MM_PER, CircleShape, Piece, PolygonShape, WallShape

from .geometry import CirclePart, Part, PartArrays, convex_parts, wall_part

COVER_CODE = {"none": 0, "light": 1, "heavy": 2}
COVER_NAME = ("none", "light", "heavy")

# pymunk collision categories of terrain shapes
CAT_HARD = 1          # impassable and not climbable: a base may never overlap it
CAT_CLIMB_BLOCK = 2   # impassable but climbable (walls, crates): stand on top or climb over
CAT_SIGHT = 4         # blocks sight or obscures
CAT_CLIMBABLE = 8     # any climbable piece (gives a surface height)
CAT_DIFFICULT = 16
CAT_ANY = 32


@dataclass(frozen=True, slots=True)
class TablePiece:
    """One terrain piece with effective properties, everything in mm.

    ``shape`` is the map's shape type; ``outline`` the footprint polygon (polygon and wall
    pieces; empty for circles), ``center``/``radius`` for circles; ``parts`` the convex parts
    the geometry uses (a concave polygon is split, never replaced by its hull).
    """
    index: int
    id: str
    label: str
    kind: str
    height: float
    blocks_sight: bool
    obscuring: bool
    cover: str
    impassable: bool
    difficult: bool
    climbable: bool
    shape: str
    outline: tuple[tuple[float, float], ...]
    center: tuple[float, float] | None
    radius: float | None
    parts: tuple[Part, ...]
    bbox: tuple[float, float, float, float]

    def contains(self, x: float, y: float, tol: float = 0.0) -> bool:
        x0, y0, x1, y1 = self.bbox
        if x < x0 - tol or x > x1 + tol or y < y0 - tol or y > y1 + tol:
            return False
        return any(p.contains(x, y, tol) for p in self.parts)

    @property
    def hard(self) -> bool:
        """A base may never overlap it (impassable and not climbable)."""
        return self.impassable and not self.climbable

    @property
    def area(self) -> float:
        return sum(p.area() for p in self.parts)


def build_piece(index: int, piece: Piece, unit: str) -> TablePiece:
    k = MM_PER[unit]
    sh = piece.shape
    center = radius = None
    if isinstance(sh, PolygonShape):
        outline = tuple((x * k, y * k) for x, y in sh.points)
        parts: list[Part] = list(convex_parts(list(outline)))
        kind = "polygon"
    elif isinstance(sh, CircleShape):
        center = (sh.center[0] * k, sh.center[1] * k)
        radius = sh.radius * k
        outline = ()
        parts = [CirclePart(center[0], center[1], radius)]
        kind = "circle"
    else:
        assert isinstance(sh, WallShape)
        part = wall_part((sh.a[0] * k, sh.a[1] * k), (sh.b[0] * k, sh.b[1] * k), sh.thickness * k)
        outline = part.points
        parts = [part]
        kind = "wall"
    bbs = [p.bbox for p in parts]
    bbox = (min(b[0] for b in bbs), min(b[1] for b in bbs), max(b[2] for b in bbs), max(b[3] for b in bbs))
    return TablePiece(
        index=index, id=piece.id, label=piece.label(), kind=piece.kind,
        height=piece.height_mm(unit),
        blocks_sight=bool(piece.prop("blocks_sight")), obscuring=bool(piece.prop("obscuring")),
        cover=piece.prop("cover"), impassable=bool(piece.prop("impassable")),
        difficult=bool(piece.prop("difficult")), climbable=bool(piece.prop("climbable")),
        shape=kind, outline=outline, center=center, radius=radius, parts=tuple(parts), bbox=bbox)


def categories(p: TablePiece) -> int:
    c = CAT_ANY
    if p.impassable and not p.climbable:
        c |= CAT_HARD
    if p.impassable and p.climbable:
        c |= CAT_CLIMB_BLOCK
    if (p.blocks_sight or p.obscuring) and p.height > 0:
        c |= CAT_SIGHT
    if p.climbable:
        c |= CAT_CLIMBABLE
    if p.difficult:
        c |= CAT_DIFFICULT
    return c


def make_shape(body: pymunk.Body, part: Part, radius: float = 0.0) -> pymunk.Shape:
    if isinstance(part, CirclePart):
        return pymunk.Circle(body, part.r + radius, (part.cx, part.cy))
    return pymunk.Poly(body, list(part.points), radius=radius)


def build_space(pieces: tuple[TablePiece, ...], select=None) -> pymunk.Space:
    """A static space holding every part of the selected pieces. Each shape carries
    ``piece_index`` and ``part``; its filter categories say what the piece does."""
    space = pymunk.Space()
    body = space.static_body
    shapes = []
    for p in pieces:
        if select is not None and not select(p):
            continue
        cat = categories(p)
        for part in p.parts:
            s = make_shape(body, part)
            s.filter = pymunk.ShapeFilter(categories=cat)
            s.piece_index = p.index
            s.part = part
            shapes.append(s)
    space.add(*shapes)
    return space


def filter_for(mask: int) -> pymunk.ShapeFilter:
    return pymunk.ShapeFilter(mask=mask)


def piece_part_arrays(pieces, select) -> PartArrays:
    parts, owners = [], []
    for p in pieces:
        if select(p):
            for part in p.parts:
                parts.append(part)
                owners.append(p.index)
    return PartArrays(parts, owners)


def piece_arrays(pieces) -> dict[str, np.ndarray]:
    """Per-piece property arrays indexed by piece index."""
    return dict(
        height=np.array([p.height for p in pieces], dtype=float),
        blocks=np.array([p.blocks_sight for p in pieces], dtype=bool),
        obscures=np.array([p.obscuring for p in pieces], dtype=bool),
        cover=np.array([COVER_CODE[p.cover] for p in pieces], dtype=np.int8),
        climbable=np.array([p.climbable for p in pieces], dtype=bool),
    )


def build_swept_space(space: pymunk.Space, radius: float) -> pymunk.Space:
    """A copy of the impassable shapes of ``space`` grown by ``radius``; each new shape keeps
    ``piece_index`` and points back to the terrain shape as ``orig``."""
    out = pymunk.Space()
    body = out.static_body
    grown = []
    for sh in space.shapes:
        if not sh.filter.categories & (CAT_HARD | CAT_CLIMB_BLOCK):
            continue
        g = make_shape(body, sh.part, radius)
        g.filter = sh.filter
        g.piece_index = sh.piece_index
        g.part = sh.part
        g.orig = sh
        grown.append(g)
    if grown:
        out.add(*grown)
    return out
