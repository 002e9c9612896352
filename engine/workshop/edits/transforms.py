"""Commands that move, turn and scale items (pieces, markers, zones) together, and
``SetGeometry``, which puts given shapes back: the exact inverse of each of them."""
from __future__ import annotations

from dataclasses import dataclass

from .. import shapes as S
from .command import Edit
from .items import _names, geometry, map_geometry, selection_centre, with_geometry


@dataclass(frozen=True)
class SetGeometry(Edit):
    """Put these shapes, points and zone outlines in place (the exact inverse of any move)."""
    items: tuple            # ((key, geometry), ...)
    label: str = "reshape"

    def apply(self, m):
        for k, _ in self.items:
            geometry(m, k)          # refuses an unknown item
        return with_geometry(m, dict(self.items))

    def inverse(self, m):
        return SetGeometry(tuple((k, geometry(m, k)) for k, _ in self.items), self.label)

    def geometry_keys(self, m):
        return {k for k, _ in self.items}

    def describe(self):
        return f"{self.label} {_names(k for k, _ in self.items)}"


class _Geometric(Edit):
    """An edit that sends its items' geometry through one point map."""
    keys: tuple

    def point_map(self, m):
        raise NotImplementedError

    def apply(self, m):
        f = self.point_map(m)
        return with_geometry(m, {k: map_geometry(k, geometry(m, k), f) for k in self.keys})

    def inverse(self, m):
        return SetGeometry(tuple((k, geometry(m, k)) for k in self.keys), "restore")

    def geometry_keys(self, m):
        return set(self.keys)


@dataclass(frozen=True)
class Move(_Geometric):
    keys: tuple
    dx: float
    dy: float

    def point_map(self, m):
        dx, dy = float(self.dx), float(self.dy)
        return lambda x, y: (x + dx, y + dy)

    def describe(self):
        return f"move {_names(self.keys)} by ({self.dx:g}, {self.dy:g})"


@dataclass(frozen=True)
class Rotate(_Geometric):
    """Turn the items together by ``degrees`` (counter-clockwise) about ``about``, by default the
    centre of their bounding box."""
    keys: tuple
    degrees: float
    about: tuple | None = None

    def point_map(self, m):
        ax, ay = self.about if self.about is not None else selection_centre(m, self.keys)
        c, s = S.cos_sin(float(self.degrees))
        return lambda x, y: (ax + (x - ax) * c - (y - ay) * s, ay + (x - ax) * s + (y - ay) * c)

    def describe(self):
        return f"turn {_names(self.keys)} by {self.degrees:g} degrees"


@dataclass(frozen=True)
class Scale(_Geometric):
    """Scale the items together about ``about`` (default: their bounding box's centre). A
    circle's radius takes the mean factor; a wall keeps its thickness."""
    keys: tuple
    sx: float
    sy: float | None = None
    about: tuple | None = None

    def point_map(self, m):
        ax, ay = self.about if self.about is not None else selection_centre(m, self.keys)
        sx = float(self.sx)
        sy = sx if self.sy is None else float(self.sy)
        return lambda x, y: (ax + (x - ax) * sx, ay + (y - ay) * sy)

    def apply(self, m):
        ax, ay = self.about if self.about is not None else selection_centre(m, self.keys)
        sx = float(self.sx)
        sy = sx if self.sy is None else float(self.sy)
        out = {}
        for k in self.keys:
            g = geometry(m, k)
            out[k] = S.scale(g, sx, sy, (ax, ay)) if k[0] == "piece" else map_geometry(k, g, self.point_map(m))
        return with_geometry(m, out)

    def describe(self):
        return f"scale {_names(self.keys)} by {self.sx:g}" + ("" if self.sy is None else f" x {self.sy:g}")
