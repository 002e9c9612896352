"""Commands on the map as a whole: its own fields, a whole map put in place, a change of unit."""
from __future__ import annotations

from dataclasses import dataclass

from engine.data.maps import MM_PER, MapFile

from .. import shapes as S
from .command import Edit
from .items import MAP_FIELDS, EditRefused


@dataclass(frozen=True)
class SetMap(Edit):
    """The map's own fields: ``((name, value), ...)`` of id, name, description, width, height,
    suits (changing the table's size leaves the pieces where they are)."""
    changes: tuple

    def apply(self, m):
        for name, _ in self.changes:
            if name not in MAP_FIELDS:
                raise EditRefused(f"a map has no field {name!r} to set")
        return m.model_copy(update=dict(self.changes))

    def inverse(self, m):
        return SetMap(tuple((name, getattr(m, name)) for name, _ in reversed(self.changes)))

    def describe(self):
        return "; ".join(f"set the map's {n} to {v!r}" for n, v in self.changes)


@dataclass(frozen=True)
class ReplaceMap(Edit):
    """Put a whole map in place (the inverse of wholesale changes such as a unit change)."""
    map: MapFile
    label: str = "restore the map"

    def apply(self, m):
        return self.map

    def inverse(self, m):
        return ReplaceMap(m, self.label)

    def geometry_keys(self, m):
        return {("piece", p.id) for p in m.pieces} | {("piece", p.id) for p in self.map.pieces}

    def describe(self):
        return self.label


@dataclass(frozen=True)
class ConvertUnit(Edit):
    """Change the map's unit keeping the table's real size: every coordinate, size and stated
    height is converted."""
    unit: str

    def apply(self, m):
        if self.unit not in MM_PER:
            raise EditRefused(f"unknown unit {self.unit!r} (in, cm or mm)")
        k = MM_PER[m.unit] / MM_PER[self.unit]
        if k == 1.0:
            return m

        def f(x, y):
            return x * k, y * k

        pieces = []
        for p in m.pieces:
            sh = S.transform_shape(p.shape, f, radius_factor=k, thickness_factor=k)
            upd = {"shape": sh}
            if p.height is not None:
                upd["height"] = p.height * k
            pieces.append(p.model_copy(update=upd))
        return m.model_copy(update={
            "unit": self.unit, "width": m.width * k, "height": m.height * k, "pieces": pieces,
            "deployment": [z.model_copy(update={"points": [S.map_point(q, f) for q in z.points]}) for z in m.deployment],
            "objectives": [o.model_copy(update={"at": S.map_point(o.at, f)}) for o in m.objectives],
            "evac_points": [o.model_copy(update={"at": S.map_point(o.at, f)}) for o in m.evac_points],
        })

    def inverse(self, m):
        return ReplaceMap(m, f"back to {m.unit}")

    def geometry_keys(self, m):
        return {("piece", p.id) for p in m.pieces}

    def describe(self):
        return f"measure the map in {self.unit}"
