"""Corner commands: move a vertex (a polygon's corner, a wall's end, a zone's corner), add or
remove a corner of a polygon piece or a zone; each undone by restoring that one outline."""
from __future__ import annotations

from dataclasses import dataclass

from engine.data.maps import PolygonShape

from .. import shapes as S
from .command import Edit
from .items import EditRefused, _name, geometry, with_geometry
from .transforms import SetGeometry


def _vertex_geom(key, geom):
    if key[0] == "piece":
        return S.vertices(geom)
    if key[0] == "zone":
        return list(geom)
    return [geom]


@dataclass(frozen=True)
class _OneOutline(Edit):
    """A corner edit (vertex ``index``) of one item (its ``key``): undone by restoring its outline."""
    key: tuple
    index: int

    def refuse_no_vertex(self, n: int) -> None:
        """Refuse an ``index`` outside ``0 .. n - 1`` (an insertion gives one more: after the last)."""
        if not (0 <= self.index < n):
            raise EditRefused(f"{_name(self.key)} has no vertex {self.index}")

    def inverse(self, m):
        return SetGeometry(((self.key, geometry(m, self.key)),), "restore")

    def geometry_keys(self, m):
        return {self.key}


@dataclass(frozen=True)
class MoveVertex(_OneOutline):
    """Move one vertex: a polygon's corner, a wall's end (0 or 1), a zone's corner."""
    to: tuple

    def apply(self, m):
        g = geometry(m, self.key)
        self.refuse_no_vertex(len(_vertex_geom(self.key, g)))
        to = (float(self.to[0]), float(self.to[1]))
        if self.key[0] == "piece":
            new = S.with_vertex(g, self.index, to)
        elif self.key[0] == "zone":
            pts = list(g)
            pts[self.index] = to
            new = tuple(pts)
        else:
            new = to
        return with_geometry(m, {self.key: new})

    def describe(self):
        return f"move vertex {self.index} of {_name(self.key)} to ({self.to[0]:g}, {self.to[1]:g})"


@dataclass(frozen=True)
class InsertVertex(_OneOutline):
    """A new corner ``at`` before vertex ``index`` of a polygon piece or a zone."""
    at: tuple

    def apply(self, m):
        pts = _outline(self.key, geometry(m, self.key))
        self.refuse_no_vertex(len(pts) + 1)
        pts.insert(self.index, (float(self.at[0]), float(self.at[1])))
        return with_geometry(m, {self.key: _with_outline(self.key, pts)})

    def describe(self):
        return f"add a corner to {_name(self.key)}"


@dataclass(frozen=True)
class DeleteVertex(_OneOutline):
    """Remove corner ``index`` of a polygon piece or a zone (three at least stay)."""

    def apply(self, m):
        pts = _outline(self.key, geometry(m, self.key))
        if len(pts) <= 3:
            raise EditRefused(f"{_name(self.key)} keeps at least three corners")
        self.refuse_no_vertex(len(pts))
        pts.pop(self.index)
        return with_geometry(m, {self.key: _with_outline(self.key, pts)})

    def describe(self):
        return f"remove corner {self.index} of {_name(self.key)}"


def _outline(key, g) -> list:
    if key[0] == "zone":
        return list(g)
    if key[0] == "piece" and isinstance(g, PolygonShape):
        return [tuple(p) for p in g.points]
    raise EditRefused(f"{_name(key)} has no corners to add or remove (only polygons and zones)")


def _with_outline(key, pts):
    if key[0] == "zone":
        return tuple(pts)
    return PolygonShape.model_construct(type="polygon", points=list(pts))
