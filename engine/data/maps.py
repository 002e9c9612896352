"""Map files: table size and unit, terrain pieces, deployment zones, objectives, evac points.

Coordinates and heights are in the map's own ``unit`` (in, cm or mm); the table converts them
to millimetres, so any map can host any ruleset. The frame is x to the right and y up, with the
origin at the table's bottom-left corner; angles count counter-clockwise from +x. A piece's properties may be left out: they
then come from its kind (``KIND_DEFAULTS``), so a map says only what is special about a piece.
"""
from __future__ import annotations

import math
from itertools import chain
from pathlib import Path
from collections.abc import Sequence
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .errors import DataError, load_model
from .self_crossing import polygon_crosses_itself
from .text import ID_CHARS, NAME_CHARS, TEXT_CHARS, IdText

MAP_SCHEMA_VERSION = 1

Unit = Literal["in", "cm", "mm"]
MM_PER: dict[str, float] = {"in": 25.4, "cm": 10.0, "mm": 1.0}

CoverClass = Literal["none", "light", "heavy"]

Kind = Literal[
    "building", "wall", "fence", "hedge", "rock", "boulder", "woods", "tree", "crate",
    "barrel", "wagon", "trough", "water", "hill", "ruin", "container", "tank", "pipe",
    "console", "barricade", "platform", "tower", "scrub", "smoke", "bones", "hut", "door",
]

# Defaults by kind: (height in mm, blocks_sight, obscuring, cover, impassable, difficult, climbable).
# Heights are mm so they read the same whatever unit a map uses; a map may override any of them.
KIND_DEFAULTS: dict[str, dict] = {
    "building":  dict(height_mm=100.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=False),
    "hut":       dict(height_mm=70.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=False),
    "tower":     dict(height_mm=150.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=False),
    "wall":      dict(height_mm=25.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=True),
    "fence":     dict(height_mm=20.0, blocks_sight=True, obscuring=False, cover="light", impassable=True, difficult=False, climbable=True),
    "hedge":     dict(height_mm=30.0, blocks_sight=True, obscuring=False, cover="light", impassable=True, difficult=False, climbable=True),
    "barricade": dict(height_mm=22.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=True),
    "rock":      dict(height_mm=40.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=True),
    "boulder":   dict(height_mm=60.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=False),
    "woods":     dict(height_mm=120.0, blocks_sight=False, obscuring=True, cover="light", impassable=False, difficult=True, climbable=False),
    "scrub":     dict(height_mm=20.0, blocks_sight=False, obscuring=True, cover="light", impassable=False, difficult=True, climbable=False),
    "smoke":     dict(height_mm=150.0, blocks_sight=False, obscuring=True, cover="light", impassable=False, difficult=False, climbable=False),
    "tree":      dict(height_mm=150.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=False),
    "crate":     dict(height_mm=25.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=True),
    "barrel":    dict(height_mm=28.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=False),
    "wagon":     dict(height_mm=35.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=True),
    "trough":    dict(height_mm=15.0, blocks_sight=True, obscuring=False, cover="light", impassable=True, difficult=False, climbable=True),
    "water":     dict(height_mm=0.0, blocks_sight=False, obscuring=False, cover="none", impassable=False, difficult=True, climbable=False),
    "hill":      dict(height_mm=30.0, blocks_sight=True, obscuring=False, cover="none", impassable=False, difficult=False, climbable=True),
    "platform":  dict(height_mm=50.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=True),
    "ruin":      dict(height_mm=50.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=True),
    "container": dict(height_mm=65.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=True),
    "tank":      dict(height_mm=60.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=False),
    "pipe":      dict(height_mm=20.0, blocks_sight=True, obscuring=False, cover="light", impassable=True, difficult=False, climbable=True),
    "console":   dict(height_mm=30.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=False),
    # A closed door or gate: a wall until a ruleset opens it (Counterblast: Hack a secure door).
    "door":      dict(height_mm=60.0, blocks_sight=True, obscuring=False, cover="heavy", impassable=True, difficult=False, climbable=False),
    "bones":     dict(height_mm=10.0, blocks_sight=False, obscuring=False, cover="none", impassable=False, difficult=True, climbable=False),
}

# No table is larger than this, and no piece lies, reaches or rises further from the table's
# corner: a number beyond it is a typo (and would overflow the geometry), refused with its field.
# The schema states it per number in the loosest unit (100,000 mm); ``MapFile._size_problems``
# then applies it in the map's own unit (100 m is 3,937 in).
MAX_MM = 100_000.0

# Fifteen times the pieces of the fullest table (the town has 131): the editor opened 2,000 in 7 s of
# CPU, 10,000 in 45 s and 100,000 in minutes, so a file with more is refused with its field.
MAX_PIECES = 2_000

Coord = Annotated[float, Field(ge=-MAX_MM, le=MAX_MM)]
Point = tuple[Coord, Coord]
Length = Field(gt=0, le=MAX_MM, description="in the map's unit; at most 100 m")
Corners = Field(min_length=3, max_length=1000, description="corners (x, y) in the map's unit")


def _with_area(pts: list[Point], why: str) -> list[Point]:
    """``pts`` (a polygon's or a zone's corners) when they enclose an area, else ``ValueError(why)``."""
    if abs(polygon_area(pts)) < 1e-9:
        raise ValueError(why)
    return pts


class _Strict(BaseModel):
    # NaN and infinity are refused wherever a number is (also the strings "NaN", "inf")
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class PolygonShape(_Strict):
    type: Literal["polygon"] = "polygon"
    points: list[Point] = Corners

    @field_validator("points")
    @classmethod
    def _simple(cls, pts: list[Point]) -> list[Point]:
        _with_area(pts, "polygon has no area (points are collinear or repeated)")
        if polygon_crosses_itself(pts):
            raise ValueError("polygon edges cross each other; split it into simple polygons")
        return pts


class CircleShape(_Strict):
    type: Literal["circle"] = "circle"
    center: Point = Field(description="(x, y) in the map's unit")
    radius: float = Length


class WallShape(_Strict):
    """A straight wall or fence: the segment a-b, ``thickness`` wide."""
    type: Literal["wall"] = "wall"
    a: Point = Field(description="one end (x, y) in the map's unit")
    b: Point = Field(description="the other end (x, y) in the map's unit")
    thickness: float = Length

    @model_validator(mode="after")
    def _length(self) -> "WallShape":
        if math.dist(self.a, self.b) <= 0:
            raise ValueError("wall has zero length (a == b)")
        return self


Shape = Annotated[Union[PolygonShape, CircleShape, WallShape], Field(discriminator="type")]


class Piece(_Strict):
    """One terrain piece. Unset properties come from ``KIND_DEFAULTS[kind]``."""
    id: str = Field(min_length=1, max_length=ID_CHARS, description=f"unique on the map, at most {ID_CHARS} characters")
    kind: Kind
    name: str = Field("", max_length=NAME_CHARS, description=f"shown in the editor, at most {NAME_CHARS} characters")
    shape: Shape
    height: float | None = Field(default=None, ge=0, le=MAX_MM, description="in the map's unit; at most 100 m")
    blocks_sight: bool | None = None
    obscuring: bool | None = None
    cover: CoverClass | None = None
    impassable: bool | None = None
    difficult: bool | None = None
    climbable: bool | None = None
    # editor-only facts (the rules ignore them): pieces of one group move together (a template's
    # parts), a locked piece refuses every edit that moves, turns, reshapes or deletes it
    group: str | None = Field(default=None, min_length=1, max_length=ID_CHARS,
                              description=f"the pieces' group id, at most {ID_CHARS} characters")
    locked: bool | None = None

    def prop(self, name: str):
        """The effective value of a property (explicit, else the kind's default)."""
        v = getattr(self, name)
        return KIND_DEFAULTS[self.kind][name] if v is None else v

    def height_mm(self, unit: str) -> float:
        """The piece's height in mm: ``height`` is in the map's unit, the kind's default in mm."""
        if self.height is None:
            return float(KIND_DEFAULTS[self.kind]["height_mm"])
        return float(self.height) * MM_PER[unit]

    def label(self) -> str:
        return self.name or f"{self.kind} {self.id}"


class Zone(_Strict):
    side: int = Field(ge=1, le=2, description="the side that deploys here (1 or 2)")
    points: list[Point] = Corners

    @field_validator("points")
    @classmethod
    def _area(cls, pts: list[Point]) -> list[Point]:
        return _with_area(pts, "zone has no area")


class Marker(_Strict):
    id: str = Field(min_length=1, max_length=ID_CHARS,
                    description=f"unique among its kind, at most {ID_CHARS} characters")
    name: str = Field("", max_length=NAME_CHARS, description=f"at most {NAME_CHARS} characters")
    at: Point = Field(description="(x, y) in the map's unit")


class MapFile(_Strict):
    schema_version: Literal[1] = Field(description="map schema version; this build reads 1")
    id: str = Field(min_length=1, max_length=ID_CHARS, pattern=r"^[a-z0-9_\-]+$",
                    description=f"lower-case letters, digits, - and _, at most {ID_CHARS} characters")
    name: str = Field(min_length=1, max_length=NAME_CHARS,
                      description=f"the map's title, at most {NAME_CHARS} characters")
    description: str = Field("", max_length=TEXT_CHARS, description=f"at most {TEXT_CHARS} characters")
    unit: Unit
    width: float = Length
    height: float = Length
    suits: list[IdText] = Field(default_factory=list, max_length=20,
                                description="ruleset ids this layout was designed for")
    pieces: list[Piece] = Field(default_factory=list, max_length=MAX_PIECES,
                                description=f"the terrain, at most {MAX_PIECES:,} pieces")
    deployment: list[Zone] = Field(min_length=2, max_length=100)
    objectives: list[Marker] = Field(default_factory=list, max_length=1000)
    evac_points: list[Marker] = Field(default_factory=list, max_length=1000)

    def _size_problems(self) -> list[str]:
        """Every length and coordinate within ``MAX_MM`` (100 m) of the table's corner."""
        mm, lim = MM_PER[self.unit], MAX_MM
        out = []

        def far(v: float) -> bool:
            return abs(v) * mm > lim

        for name in ("width", "height"):
            if far(getattr(self, name)):
                out.append(f"{name}: {getattr(self, name):g}{self.unit} is larger than any table (100 m)")
        for i, p in enumerate(self.pieces):
            sh = p.shape
            if isinstance(sh, PolygonShape):   # the farthest number stands for them all (far() is monotonic)
                nums = [("shape.points", max(map(abs, chain.from_iterable(sh.points)), default=0.0))]
            elif isinstance(sh, CircleShape):
                nums = [("shape.center", v) for v in sh.center] + [("shape.radius", sh.radius)]
            else:
                nums = [("shape.a", v) for v in sh.a] + [("shape.b", v) for v in sh.b] + [("shape.thickness", sh.thickness)]
            if p.height is not None:
                nums.append(("height", p.height))
            bad = next((f for f, v in nums if far(v)), None)
            if bad:
                out.append(f"pieces[{i}].{bad} ({p.id}): beyond 100 m from the table")
        for group in ("deployment", "objectives", "evac_points"):
            for i, z in enumerate(getattr(self, group)):
                pts = z.points if group == "deployment" else [z.at]
                if any(far(v) for pt in pts for v in pt):
                    out.append(f"{group}[{i}]: a point beyond 100 m from the table")
        return out

    @model_validator(mode="after")
    def _consistent(self) -> "MapFile":
        problems = self._size_problems()
        if problems:  # nothing else is worth checking on numbers that size
            raise ValueError("; ".join(problems))
        seen: set[str] = set()
        for i, p in enumerate(self.pieces):
            if p.id in seen:
                problems.append(f"pieces[{i}].id: duplicate id {p.id!r}")
            seen.add(p.id)
            x0, y0, x1, y1 = shape_bounds(p.shape)
            if x1 < 0 or y1 < 0 or x0 > self.width or y0 > self.height:
                problems.append(f"pieces[{i}] ({p.id}): lies entirely off the {self.width}x{self.height}{self.unit} table")
        for i, z in enumerate(self.deployment):
            for (x, y) in z.points:
                if not (-1e-6 <= x <= self.width + 1e-6 and -1e-6 <= y <= self.height + 1e-6):
                    problems.append(f"deployment[{i}]: point ({x}, {y}) is off the table")
                    break
        sides = {z.side for z in self.deployment}
        if sides != {1, 2}:
            problems.append(f"deployment: needs zones for sides 1 and 2, has {sorted(sides)}")
        for group in ("objectives", "evac_points"):
            ids: set[str] = set()
            for i, m in enumerate(getattr(self, group)):
                if m.id in ids:
                    problems.append(f"{group}[{i}].id: duplicate id {m.id!r}")
                ids.add(m.id)
                if not (0 <= m.at[0] <= self.width and 0 <= m.at[1] <= self.height):
                    problems.append(f"{group}[{i}] ({m.id}): off the table")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def mm_per_unit(self) -> float:
        return MM_PER[self.unit]


def polygon_area(pts: Sequence[Point]) -> float:
    """Signed area (positive when counter-clockwise in a y-up frame)."""
    s = 0.0
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        s += x0 * y1 - x1 * y0
    return s / 2.0


def point_in_polygon(x: float, y: float, pts) -> bool:
    """Even-odd test: is (x, y) inside the simple polygon ``pts`` (either winding)?"""
    inside = False
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def shape_bounds(shape) -> tuple[float, float, float, float]:
    if isinstance(shape, PolygonShape):
        xs = [p[0] for p in shape.points]
        ys = [p[1] for p in shape.points]
        return min(xs), min(ys), max(xs), max(ys)
    if isinstance(shape, CircleShape):
        (cx, cy), r = shape.center, shape.radius
        return cx - r, cy - r, cx + r, cy + r
    t = shape.thickness / 2
    return (min(shape.a[0], shape.b[0]) - t, min(shape.a[1], shape.b[1]) - t,
            max(shape.a[0], shape.b[0]) + t, max(shape.a[1], shape.b[1]) + t)


def load_map(path: str | Path) -> MapFile:
    """Read and validate a map file; raises ``DataError`` naming file, field and reason."""
    return load_model(MapFile, path)


def load_named_map(name: str) -> MapFile:
    """A map given as a file or as the id of a shipped map; a missing one is refused with the
    ids of the shipped maps."""
    from engine.paths import resolve_map, shipped_map_ids

    path = resolve_map(name)
    if not path.exists():
        raise DataError(path, [("", f"no such map file; the shipped maps are {', '.join(shipped_map_ids())} "
                                    "(give one of those ids or a path to a map file)")])
    return load_map(path)


def suits_problem(mapfile: MapFile, ruleset: str) -> str | None:
    """Why a ruleset should not be played on a map whose ``suits`` leaves it out (None: it may)."""
    if mapfile.suits and ruleset not in mapfile.suits:
        return (f"map {mapfile.id!r} is made for {', '.join(mapfile.suits)}, not {ruleset} "
                "(give --any-map to play it anyway)")
    return None
