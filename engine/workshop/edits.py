"""The layout editor's model: a map changed only through small edit commands, each with an exact
inverse, kept on an undo stack that also holds the symmetry twins and the locks.

A command is a frozen dataclass: ``apply(m)`` returns the new map (``MapFile`` is frozen; pieces
that did not change are the very same objects, so a renderer can tell what changed by identity),
``inverse(m)`` the command that turns ``apply(m)`` back into ``m`` exactly. Inverses of geometric
commands restore the old shapes themselves rather than moving back by ``-dx``: floats do not
promise ``x + d - d == x``, and undo must give back the very map that was there. Redo re-applies
the command to that restored map, a pure function of equal inputs, so it is exact too.

Items are addressed by keys: ``("piece", id)``, ``("objective", id)``, ``("evac", id)`` and
``("zone", index)``.

``EditStack`` is the one place the editor's rules live:
- **symmetry**: with a mode (``mirror_x``, ``mirror_y``, ``point``) every edit brings its
  counterparts along in the same undo step: the counterpart of an item is the item whose shape is
  its mirror image (same kind and properties; found by geometry, so imported and shipped layouts
  need no links). A moved piece's counterpart gets the mirror image of its new shape; a piece that
  is its own counterpart (on the axis, at the centre) only moves along the axis, or not at all
  for the point symmetry. Added items get mirrored twins, deleted ones take theirs along.
- **locks**: an edit that would move, turn, scale, reshape or delete a locked piece (or its
  counterpart) is refused whole, and the map stays as it was.
- **validity**: an edit whose result the map schema would refuse (a piece wholly off the table,
  a polygon whose edges cross, a duplicate id, NaN) is refused with the schema's reason. A draft
  may lack one side's deployment zone while it is redrawn; saving refuses that.

The same commands serve the layout generator and balancer: their output is a list of edits a
designer can read (``describe``) and undo.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Iterable

from pydantic import ValidationError

from engine.data.errors import problems_of
from engine.data.maps import KIND_DEFAULTS, MM_PER, MapFile, Piece, PolygonShape, Zone

from . import shapes as S

Key = tuple  # ("piece", id) | ("objective", id) | ("evac", id) | ("zone", index)

PIECE_FIELDS = ("id", "kind", "name", "height", "blocks_sight", "obscuring", "cover", "impassable",
                "difficult", "climbable", "group", "locked")
PROPS = ("blocks_sight", "obscuring", "cover", "impassable", "difficult", "climbable")
MARKER_GROUPS = {"objective": "objectives", "evac": "evac_points"}
MAP_FIELDS = ("id", "name", "description", "width", "height", "suits")
TOLERANCE = 1e-6          # map units: a counterpart's shape must match the mirror image this closely


class EditRefused(ValueError):
    """An edit the editor will not make; the map is unchanged. ``str()`` says why."""


# ----------------------------------------------------------------------------- item access

def piece_index(m: MapFile) -> dict[str, int]:
    return {p.id: i for i, p in enumerate(m.pieces)}


def get_piece(m: MapFile, pid: str) -> Piece:
    for p in m.pieces:
        if p.id == pid:
            return p
    raise EditRefused(f"no piece {pid!r}")


def _marker_list(m: MapFile, group: str) -> list:
    return list(getattr(m, MARKER_GROUPS[group]))


def geometry(m: MapFile, key: Key):
    """A piece's shape, a marker's point, a zone's tuple of points."""
    kind, ident = key
    if kind == "piece":
        return get_piece(m, ident).shape
    if kind in MARKER_GROUPS:
        for mk in _marker_list(m, kind):
            if mk.id == ident:
                return tuple(mk.at)
        raise EditRefused(f"no {kind} {ident!r}")
    if kind == "zone":
        if not (isinstance(ident, int) and 0 <= ident < len(m.deployment)):
            raise EditRefused(f"no deployment zone {ident!r}")
        return tuple(tuple(p) for p in m.deployment[ident].points)
    raise EditRefused(f"unknown item {key!r}")


def keys_of(m: MapFile) -> list[Key]:
    """Every item of the map."""
    out: list[Key] = [("piece", p.id) for p in m.pieces]
    out += [("objective", o.id) for o in m.objectives]
    out += [("evac", o.id) for o in m.evac_points]
    out += [("zone", i) for i in range(len(m.deployment))]
    return out


def with_geometry(m: MapFile, items: dict) -> MapFile:
    """``m`` with the given items' geometry replaced; every other object is shared."""
    if not items:
        return m
    update: dict = {}
    pieces = {k[1]: g for k, g in items.items() if k[0] == "piece"}
    if pieces:
        update["pieces"] = [p.model_copy(update={"shape": pieces[p.id]}) if p.id in pieces else p for p in m.pieces]
    for group, attr in MARKER_GROUPS.items():
        pts = {k[1]: g for k, g in items.items() if k[0] == group}
        if pts:
            update[attr] = [mk.model_copy(update={"at": (float(pts[mk.id][0]), float(pts[mk.id][1]))})
                            if mk.id in pts else mk for mk in getattr(m, attr)]
    zones = {k[1]: g for k, g in items.items() if k[0] == "zone"}
    if zones:
        update["deployment"] = [z.model_copy(update={"points": [tuple(p) for p in zones[i]]}) if i in zones else z
                                for i, z in enumerate(m.deployment)]
    return m.model_copy(update=update)


def map_geometry(key: Key, geom, f):
    """An item's geometry sent through the point map ``f``."""
    if key[0] == "piece":
        return S.transform_shape(geom, f)
    if key[0] == "zone":
        return tuple(S.map_point(p, f) for p in geom)
    return S.map_point(geom, f)


def geometry_bounds(key: Key, geom) -> tuple[float, float, float, float]:
    if key[0] == "piece":
        return S.bounds(geom)
    if key[0] == "zone":
        return S.points_bounds(geom)
    return (geom[0], geom[1], geom[0], geom[1])


def selection_bounds(m: MapFile, keys: Iterable[Key]):
    return S.bounds_of(geometry_bounds(k, geometry(m, k)) for k in keys)


def selection_centre(m: MapFile, keys: Iterable[Key]) -> tuple[float, float]:
    b = selection_bounds(m, keys)
    if b is None:
        raise EditRefused("nothing selected")
    return ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)


def new_id(taken: Iterable[str], base: str) -> str:
    """``base`` or ``base-2``, ``base-3``... whichever is not taken (ids are lower case, digits,
    ``-`` and ``_``, as the schema wants for map ids)."""
    taken = set(taken)
    base = re.sub(r"[^a-z0-9_\-]+", "-", base.lower()).strip("-") or "piece"
    base = re.sub(r"-\d+$", "", base) or base
    if base not in taken:
        return base
    for n in itertools.count(2):
        cand = f"{base}-{n}"
        if cand not in taken:
            return cand


# ----------------------------------------------------------------------------- commands

class Edit:
    """A change to a map. Subclasses are frozen dataclasses."""

    def apply(self, m: MapFile) -> MapFile:
        raise NotImplementedError

    def inverse(self, m: MapFile) -> "Edit":
        """The edit that turns ``self.apply(m)`` back into ``m`` exactly."""
        raise NotImplementedError

    def geometry_keys(self, m: MapFile) -> set:
        """Items whose place or shape this edit changes, or which it deletes (locks refuse it)."""
        return set()

    def describe(self) -> str:
        return type(self).__name__


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


def _vertex_geom(key, geom):
    if key[0] == "piece":
        return S.vertices(geom)
    if key[0] == "zone":
        return list(geom)
    return [geom]


class _OneOutline(Edit):
    """A corner edit of one polygon piece or zone (its ``key``): undone by restoring that outline."""

    def inverse(self, m):
        return SetGeometry(((self.key, geometry(m, self.key)),), "restore")

    def geometry_keys(self, m):
        return {self.key}


@dataclass(frozen=True)
class MoveVertex(_OneOutline):
    """Move one vertex: a polygon's corner, a wall's end (0 or 1), a zone's corner."""
    key: tuple
    index: int
    to: tuple

    def apply(self, m):
        g = geometry(m, self.key)
        n = len(_vertex_geom(self.key, g))
        if not (0 <= self.index < n):
            raise EditRefused(f"{_name(self.key)} has no vertex {self.index}")
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
    key: tuple
    index: int
    at: tuple

    def apply(self, m):
        g = geometry(m, self.key)
        pts = _outline(self.key, g)
        if not (0 <= self.index <= len(pts)):
            raise EditRefused(f"{_name(self.key)} has no vertex {self.index}")
        pts.insert(self.index, (float(self.at[0]), float(self.at[1])))
        return with_geometry(m, {self.key: _with_outline(self.key, pts)})

    def describe(self):
        return f"add a corner to {_name(self.key)}"


@dataclass(frozen=True)
class DeleteVertex(_OneOutline):
    key: tuple
    index: int

    def apply(self, m):
        pts = _outline(self.key, geometry(m, self.key))
        if len(pts) <= 3:
            raise EditRefused(f"{_name(self.key)} keeps at least three corners")
        if not (0 <= self.index < len(pts)):
            raise EditRefused(f"{_name(self.key)} has no vertex {self.index}")
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


@dataclass(frozen=True)
class AddPieces(Edit):
    """Insert pieces (at the given list positions, ascending; else at the end)."""
    pieces: tuple
    at: tuple | None = None

    def apply(self, m):
        taken = {p.id for p in m.pieces}
        for p in self.pieces:
            if p.id in taken:
                raise EditRefused(f"a piece {p.id!r} is already on the map")
            taken.add(p.id)
        pieces = list(m.pieces)
        if self.at is None:
            pieces.extend(self.pieces)
        else:
            for i, p in sorted(zip(self.at, self.pieces), key=lambda t: t[0]):
                pieces.insert(i, p)
        return m.model_copy(update={"pieces": pieces})

    def inverse(self, m):
        return DeletePieces(tuple(p.id for p in self.pieces))

    def describe(self):
        return f"add {_names(('piece', p.id) for p in self.pieces)}"


@dataclass(frozen=True)
class DeletePieces(Edit):
    ids: tuple

    def apply(self, m):
        gone = set(self.ids)
        missing = gone - {p.id for p in m.pieces}
        if missing:
            raise EditRefused(f"no piece {sorted(missing)[0]!r}")
        return m.model_copy(update={"pieces": [p for p in m.pieces if p.id not in gone]})

    def inverse(self, m):
        gone = set(self.ids)
        at = tuple(i for i, p in enumerate(m.pieces) if p.id in gone)
        return AddPieces(tuple(m.pieces[i] for i in at), at)

    def geometry_keys(self, m):
        return {("piece", i) for i in self.ids}

    def describe(self):
        return f"delete {_names(('piece', i) for i in self.ids)}"


@dataclass(frozen=True)
class SetFields(Edit):
    """Set fields of pieces: ``((id, field, value), ...)`` (a field set to None takes the kind's
    default again). Renaming a piece (``id``) is allowed when the new id is free."""
    changes: tuple

    def apply(self, m):
        idx = piece_index(m)
        new = list(m.pieces)
        for pid, name, value in self.changes:
            if name not in PIECE_FIELDS:
                raise EditRefused(f"a piece has no field {name!r}")
            if pid not in idx:
                raise EditRefused(f"no piece {pid!r}")
            i = idx[pid]
            if name == "id":
                if value in idx and idx[value] != i:
                    raise EditRefused(f"a piece {value!r} is already on the map")
                del idx[pid]
                idx[value] = i
            new[i] = new[i].model_copy(update={name: value})
        return m.model_copy(update={"pieces": new})

    def inverse(self, m):
        # undo in reverse order, from the values each change found (a piece renamed and then
        # changed is found under its new id)
        state = {p.id: p for p in m.pieces}
        back = []
        for pid, name, value in self.changes:
            p = state.get(pid)
            if p is None:
                raise EditRefused(f"no piece {pid!r}")
            back.append((value if name == "id" else pid, name, getattr(p, name)))
            state.pop(pid)
            p = p.model_copy(update={name: value})
            state[p.id] = p
        return SetFields(tuple(reversed(back)))

    def geometry_keys(self, m):
        # renaming or retyping a locked piece is still a change the lock refuses; locking and
        # unlocking are not (or a locked piece could never be unlocked)
        return {("piece", pid) for pid, name, _ in self.changes if name != "locked"}

    def describe(self):
        return "; ".join(f"set {name} of {pid} to {value!r}" for pid, name, value in self.changes)


def set_field(ids, name: str, value) -> SetFields:
    return SetFields(tuple((pid, name, value) for pid in ids))


def group(ids, name: str) -> SetFields:
    return set_field(ids, "group", name)


def ungroup(ids) -> SetFields:
    return set_field(ids, "group", None)


def lock(ids, on: bool = True) -> SetFields:
    return set_field(ids, "locked", True if on else None)


@dataclass(frozen=True)
class AddMarkers(Edit):
    """Objectives (``group="objective"``) or evacuation points (``"evac"``)."""
    group: str
    markers: tuple
    at: tuple | None = None

    def apply(self, m):
        lst = _marker_list(m, self.group)
        taken = {mk.id for mk in lst}
        for mk in self.markers:
            if mk.id in taken:
                raise EditRefused(f"an {self.group} {mk.id!r} is already on the map")
            taken.add(mk.id)
        if self.at is None:
            lst.extend(self.markers)
        else:
            for i, mk in sorted(zip(self.at, self.markers), key=lambda t: t[0]):
                lst.insert(i, mk)
        return m.model_copy(update={MARKER_GROUPS[self.group]: lst})

    def inverse(self, m):
        return DeleteMarkers(tuple((self.group, mk.id) for mk in self.markers))

    def describe(self):
        return f"add {_names((self.group, mk.id) for mk in self.markers)}"


@dataclass(frozen=True)
class DeleteMarkers(Edit):
    keys: tuple

    def apply(self, m):
        update = {}
        for group, attr in MARKER_GROUPS.items():
            gone = {k[1] for k in self.keys if k[0] == group}
            if not gone:
                continue
            lst = _marker_list(m, group)
            missing = gone - {mk.id for mk in lst}
            if missing:
                raise EditRefused(f"no {group} {sorted(missing)[0]!r}")
            update[attr] = [mk for mk in lst if mk.id not in gone]
        return m.model_copy(update=update)

    def inverse(self, m):
        parts = []
        for group in MARKER_GROUPS:
            gone = {k[1] for k in self.keys if k[0] == group}
            lst = _marker_list(m, group)
            at = tuple(i for i, mk in enumerate(lst) if mk.id in gone)
            if at:
                parts.append(AddMarkers(group, tuple(lst[i] for i in at), at))
        return Compound(tuple(parts), "restore")

    def describe(self):
        return f"delete {_names(self.keys)}"


@dataclass(frozen=True)
class SetMarkerFields(Edit):
    """Rename a marker (``id``, ``name``): ``((key, field, value), ...)``."""
    changes: tuple

    def apply(self, m):
        update = {}
        lists = {g: _marker_list(m, g) for g in MARKER_GROUPS}
        for (group, mid), name, value in self.changes:
            if name not in ("id", "name"):
                raise EditRefused(f"a marker has no field {name!r} to set (move it instead)")
            lst = lists[group]
            i = next((j for j, mk in enumerate(lst) if mk.id == mid), None)
            if i is None:
                raise EditRefused(f"no {group} {mid!r}")
            if name == "id" and any(mk.id == value for j, mk in enumerate(lst) if j != i):
                raise EditRefused(f"an {group} {value!r} is already on the map")
            lst[i] = lst[i].model_copy(update={name: value})
            update[MARKER_GROUPS[group]] = lst
        return m.model_copy(update=update)

    def inverse(self, m):
        lists = {g: {mk.id: mk for mk in _marker_list(m, g)} for g in MARKER_GROUPS}
        back = []
        for (group, mid), name, value in self.changes:
            mk = lists[group][mid]
            back.append(((group, value if name == "id" else mid), name, getattr(mk, name)))
            del lists[group][mid]
            mk = mk.model_copy(update={name: value})
            lists[group][mk.id] = mk
        return SetMarkerFields(tuple(reversed(back)))

    def describe(self):
        return "; ".join(f"set {name} of {_name(k)} to {v!r}" for k, name, v in self.changes)


@dataclass(frozen=True)
class AddZones(Edit):
    zones: tuple
    at: tuple | None = None

    def apply(self, m):
        lst = list(m.deployment)
        if self.at is None:
            lst.extend(self.zones)
        else:
            for i, z in sorted(zip(self.at, self.zones), key=lambda t: t[0]):
                lst.insert(i, z)
        return m.model_copy(update={"deployment": lst})

    def inverse(self, m):
        n = len(m.deployment)
        if self.at is None:
            idx = tuple(range(n, n + len(self.zones)))
        else:
            idx = tuple(sorted(self.at))
        return DeleteZones(idx)

    def describe(self):
        return f"add {len(self.zones)} deployment zone(s)"


@dataclass(frozen=True)
class DeleteZones(Edit):
    indexes: tuple

    def apply(self, m):
        gone = set(self.indexes)
        if any(not (0 <= i < len(m.deployment)) for i in gone):
            raise EditRefused("no such deployment zone")
        return m.model_copy(update={"deployment": [z for i, z in enumerate(m.deployment) if i not in gone]})

    def inverse(self, m):
        at = tuple(sorted(set(self.indexes)))
        return AddZones(tuple(m.deployment[i] for i in at), at)

    def describe(self):
        return f"delete {_names(('zone', i) for i in self.indexes)}"


@dataclass(frozen=True)
class SetZoneSide(Edit):
    changes: tuple            # ((index, side), ...)

    def apply(self, m):
        lst = list(m.deployment)
        for i, side in self.changes:
            if not (0 <= i < len(lst)):
                raise EditRefused(f"no deployment zone {i}")
            lst[i] = lst[i].model_copy(update={"side": side})
        return m.model_copy(update={"deployment": lst})

    def inverse(self, m):
        lst = list(m.deployment)
        back = []
        for i, side in self.changes:
            back.append((i, lst[i].side))
            lst[i] = lst[i].model_copy(update={"side": side})
        return SetZoneSide(tuple(reversed(back)))

    def describe(self):
        return "; ".join(f"zone {i + 1} to side {s}" for i, s in self.changes)


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
        f = (lambda x, y: (x * k, y * k))
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


@dataclass(frozen=True)
class Compound(Edit):
    """Several edits as one step (a template placed, a paste, an edit and its symmetry twins)."""
    edits: tuple
    label: str = ""

    def apply(self, m):
        for e in self.edits:
            m = e.apply(m)
        return m

    def inverse(self, m):
        inv = []
        for e in self.edits:
            inv.append(e.inverse(m))
            m = e.apply(m)
        return Compound(tuple(reversed(inv)), f"undo {self.label}".strip())

    def geometry_keys(self, m):
        out = set()
        for e in self.edits:
            out |= e.geometry_keys(m)
            m = e.apply(m)
        return out

    def describe(self):
        return self.label or "; ".join(e.describe() for e in self.edits)


def _name(key) -> str:
    kind, ident = key
    if kind == "zone":
        return f"zone {ident + 1}"
    return str(ident) if kind == "piece" else f"{kind} {ident}"


def _names(keys) -> str:
    keys = list(keys)
    if len(keys) > 3:
        return f"{', '.join(_name(k) for k in keys[:3])} and {len(keys) - 3} more"
    return ", ".join(_name(k) for k in keys)


# ----------------------------------------------------------------------------- symmetry twins

def _props(p: Piece, unit: str) -> tuple:
    return (p.kind, round(p.height_mm(unit), 6)) + tuple(p.prop(n) for n in PROPS)


def counterpart(m: MapFile, key: Key, mode: str, tol: float = TOLERANCE, taken=()) -> Key | None:
    """The item whose geometry is the mirror image of ``key``'s under ``mode`` (the item itself
    when it is its own image), or None; items in ``taken`` are already someone's counterpart."""
    f = S.mirror_fn(mode, m.width, m.height)
    g = map_geometry(key, geometry(m, key), f)
    kind = key[0]
    if kind == "piece":
        p = get_piece(m, key[1])
        props = _props(p, m.unit)
        b = S.bounds(g)
        best = None
        for q in m.pieces:
            qb = S.bounds(q.shape)
            if any(abs(u - v) > tol for u, v in zip(b, qb)):
                continue
            if ("piece", q.id) in taken and q.id != p.id:
                continue
            if _props(q, m.unit) == props and S.same_shape(g, q.shape, tol):
                if q.id == p.id:
                    return key
                best = best or ("piece", q.id)
        return best
    if kind in MARKER_GROUPS:
        for mk in _marker_list(m, kind):
            if (kind, mk.id) in taken and mk.id != key[1]:
                continue
            if abs(mk.at[0] - g[0]) <= tol and abs(mk.at[1] - g[1]) <= tol:
                return (kind, mk.id)
        return None
    side = m.deployment[key[1]].side
    want = 3 - side
    for i, z in enumerate(m.deployment):
        if z.side != want or len(z.points) != len(g) or ("zone", i) in taken:
            continue
        if S.same_shape(PolygonShape.model_construct(points=list(g)),
                        PolygonShape.model_construct(points=[tuple(p) for p in z.points]), tol):
            return ("zone", i)
    return None


def unmatched(m: MapFile, mode: str, tol: float = TOLERANCE) -> list[Key]:
    """Items with no counterpart under ``mode`` (zones carry over to the other side's)."""
    return [k for k in keys_of(m) if counterpart(m, k, mode, tol) is None]


def twins_of(m: MapFile, keys, mode: str) -> tuple[list, dict, set]:
    """(primaries, twin of each primary, items that are their own counterpart) for ``keys``:
    of a selected item and its selected counterpart, only the first is primary."""
    primaries, twin, selfs = [], {}, set()
    covered = set()
    for k in keys:
        if k in covered:
            continue
        c = counterpart(m, k, mode, taken=covered)
        primaries.append(k)
        covered.add(k)
        if c == k:
            selfs.add(k)
        elif c is not None:
            twin[k] = c
            covered.add(c)
    return primaries, twin, selfs


def project_move(mode: str, dx: float, dy: float) -> tuple[float, float]:
    """The part of a move that keeps an item its own counterpart."""
    if mode == "mirror_x":
        return 0.0, dy
    if mode == "mirror_y":
        return dx, 0.0
    return 0.0, 0.0


def _mirror_piece(p: Piece, mode: str, m: MapFile, taken: set, groups: dict, taken_groups: set) -> Piece:
    pid = new_id(taken, p.id)
    taken.add(pid)
    upd = {"id": pid, "shape": S.mirror(p.shape, mode, m.width, m.height)}
    if p.group is not None:
        if p.group not in groups:
            groups[p.group] = new_id(taken_groups, p.group)
            taken_groups.add(groups[p.group])
        upd["group"] = groups[p.group]
    return p.model_copy(update=upd)


def _groups(m: MapFile) -> set:
    return {p.group for p in m.pieces if p.group}


def with_twins(edit: Edit, m: MapFile, mode: str) -> Edit:
    """``edit`` and what keeps every counterpart in step under ``mode``, as one edit. An edit
    that would leave an item that was its own mirror image without one (a piece on the mirror
    line turned by 30 degrees, a corner of it dragged off the line) is refused."""
    full = _with_twins(edit, m, mode)
    selfs = [k for k in _geometric_keys(full, m) if k[0] == "piece" and counterpart(m, k, mode) == k]
    if selfs:
        after = full.apply(m)
        f = S.mirror_fn(mode, m.width, m.height)
        for k in selfs:
            if ("piece", k[1]) not in {("piece", p.id) for p in after.pieces}:
                continue                  # deleted
            g = geometry(after, k)
            if not S.same_shape(map_geometry(k, g, f), g, TOLERANCE):
                raise EditRefused(f"{_name(k)} is its own mirror image under {mode.replace('_', ' ')} symmetry "
                                  "and this would break that (turn it by 180 degrees, or switch symmetry off)")
    return full


def _geometric_keys(edit: Edit, m: MapFile) -> set:
    try:
        return edit.geometry_keys(m)
    except EditRefused:
        return set()


def _with_twins(edit: Edit, m: MapFile, mode: str) -> Edit:
    f = S.mirror_fn(mode, m.width, m.height)
    if isinstance(edit, Compound):
        out, cur = [], m
        for e in edit.edits:
            t = _with_twins(e, cur, mode)
            out.append(t)
            cur = t.apply(cur)
        return Compound(tuple(out), edit.label)
    if isinstance(edit, (Move, Rotate, Scale)):
        prim, twin, selfs = twins_of(m, edit.keys, mode)
        if isinstance(edit, Move):
            free = tuple(k for k in prim if k not in selfs)
            parts: list[Edit] = [Move(free, edit.dx, edit.dy)] if free else []
            pdx, pdy = project_move(mode, edit.dx, edit.dy)
            held = tuple(k for k in prim if k in selfs)
            if held and (pdx or pdy):
                parts.append(Move(held, pdx, pdy))
            if not parts:
                raise EditRefused(f"{_names(held)} {'is its' if len(held) == 1 else 'are their'} own mirror image "
                                  f"under {mode.replace('_', ' ')} symmetry and stay{'s' if len(held) == 1 else ''} "
                                  "where that keeps them (switch symmetry off to move them)")
        else:
            about = edit.about if edit.about is not None else selection_centre(m, edit.keys)
            parts = [type(edit)(**{**edit.__dict__, "keys": tuple(prim), "about": about})]
        return _follow(Compound(tuple(parts), edit.describe()), m, twin, f)
    if isinstance(edit, (MoveVertex, InsertVertex, DeleteVertex)):
        prim, twin, selfs = twins_of(m, (edit.key,), mode)
        return _follow(Compound((edit,), edit.describe()), m, twin, f)
    if isinstance(edit, SetGeometry):
        prim, twin, selfs = twins_of(m, [k for k, _ in edit.items], mode)
        keep = tuple((k, g) for k, g in edit.items if k in prim)
        return _follow(Compound((SetGeometry(keep, edit.label),), edit.describe()), m, twin, f)
    if isinstance(edit, DeletePieces):
        prim, twin, _ = twins_of(m, [("piece", i) for i in edit.ids], mode)
        ids = list(edit.ids) + [t[1] for t in twin.values() if t[1] not in edit.ids]
        return DeletePieces(tuple(ids))
    if isinstance(edit, DeleteMarkers):
        prim, twin, _ = twins_of(m, edit.keys, mode)
        return DeleteMarkers(tuple(edit.keys) + tuple(t for t in twin.values() if t not in edit.keys))
    if isinstance(edit, DeleteZones):
        prim, twin, _ = twins_of(m, [("zone", i) for i in edit.indexes], mode)
        return DeleteZones(tuple(sorted(set(edit.indexes) | {t[1] for t in twin.values()})))
    if isinstance(edit, SetFields):
        extra = []
        for pid, name, value in edit.changes:
            if name in ("id", "group"):
                continue
            c = counterpart(m, ("piece", pid), mode)
            if c is not None and c[1] != pid and not any(c[1] == q for q, n, _ in edit.changes if n == name):
                extra.append((c[1], name, value))
        return SetFields(tuple(edit.changes) + tuple(extra)) if extra else edit
    if isinstance(edit, AddPieces):
        taken = {p.id for p in m.pieces} | {p.id for p in edit.pieces}
        groups: dict = {}
        taken_groups = _groups(m) | {p.group for p in edit.pieces if p.group}
        twins = []
        for p in edit.pieces:
            img = S.mirror(p.shape, mode, m.width, m.height)
            if S.same_shape(img, p.shape, TOLERANCE):
                continue                     # on the axis, or at the centre: its own twin
            twins.append(_mirror_piece(p, mode, m, taken, groups, taken_groups))
        if not twins:
            return edit
        return Compound((edit, AddPieces(tuple(twins))), edit.describe() + " (and its mirror image)")
    if isinstance(edit, AddMarkers):
        lst = _marker_list(m, edit.group)
        taken = {mk.id for mk in lst} | {mk.id for mk in edit.markers}
        twins = []
        for mk in edit.markers:
            at = S.map_point(mk.at, f)
            if abs(at[0] - mk.at[0]) <= TOLERANCE and abs(at[1] - mk.at[1]) <= TOLERANCE:
                continue
            mid = new_id(taken, mk.id)
            taken.add(mid)
            twins.append(mk.model_copy(update={"id": mid, "at": at}))
        if not twins:
            return edit
        return Compound((edit, AddMarkers(edit.group, tuple(twins))), edit.describe())
    if isinstance(edit, AddZones):
        twins = tuple(z.model_copy(update={"side": 3 - z.side, "points": [S.map_point(p, f) for p in z.points]})
                      for z in edit.zones)
        return Compound((edit, AddZones(twins)), edit.describe())
    return edit        # map fields, zone sides, marker names, unit: nothing to mirror


def _follow(primary: Compound, m: MapFile, twin: dict, f) -> Edit:
    """``primary`` then the twins set to the mirror images of their primaries' new geometry."""
    if not twin:
        return primary
    after = primary.apply(m)
    items = tuple((t, map_geometry(p, geometry(after, p), f)) for p, t in twin.items())
    return Compound(primary.edits + (SetGeometry(items, "mirror"),), primary.label)


# ----------------------------------------------------------------------------- validity

def draft_problems(m: MapFile) -> list[tuple[str, str]]:
    """What the map schema refuses in ``m`` as (field, reason), except a side without a
    deployment zone (a draft may lack one while it is redrawn; ``save_problems`` has it)."""
    sides = {z.side for z in m.deployment}
    stubs = [Zone(side=s, points=[(0, 0), (m.width, 0), (m.width, m.height)]) for s in (1, 2) if s not in sides]
    probe = m.model_copy(update={"deployment": list(m.deployment) + stubs}) if stubs else m
    return _schema_problems(probe)


def save_problems(m: MapFile) -> list[tuple[str, str]]:
    """What the map schema refuses in ``m`` as (field, reason): empty when it may be saved."""
    return _schema_problems(m)


def _schema_problems(m: MapFile) -> list[tuple[str, str]]:
    try:
        MapFile.model_validate(m.model_dump())
    except ValidationError as err:
        out = []
        for fld, reason in problems_of(err):
            # the map-level check joins its findings with "; ": one line each
            parts = reason.split("; ") if fld == "" else [reason]
            out.extend((_split_field(fld, r)) for r in parts)
        return out
    return []


def _split_field(fld: str, reason: str) -> tuple[str, str]:
    if fld:
        return fld, reason
    head, sep, rest = reason.partition(": ")
    if sep and re.match(r"^[a-z_]+(\[\d+\])?(\.[a-z_]+)?( \([^)]*\))?$", head):
        return head, rest
    return "", reason


# ----------------------------------------------------------------------------- the stack

@dataclass
class Step:
    edit: Edit            # as applied (with its twins)
    inverse: Edit
    version: int          # the map's version once the step is done


@dataclass
class EditStack:
    """The map being edited, its undo and redo lists, the symmetry mode and the locks."""
    map: MapFile
    symmetry: str | None = None
    done: list = field(default_factory=list)
    undone: list = field(default_factory=list)
    version: int = 0              # names the map's state: every edit gets a new one; undo and
    saved_version: int = 0        # redo go back to the version that state had
    base_version: int = 0         # the version of the state before the first step

    def __post_init__(self):
        self._next = 1

    @property
    def dirty(self) -> bool:
        return self.version != self.saved_version

    def mark_saved(self) -> None:
        self.saved_version = self.version

    def expand(self, edit: Edit) -> Edit:
        """The edit as it would be applied: with its symmetry twins."""
        return with_twins(edit, self.map, self.symmetry) if self.symmetry else edit

    def check(self, edit: Edit, before: MapFile | None = None) -> MapFile:
        """The map ``edit`` (already expanded) gives, or ``EditRefused`` (locks, validity)."""
        m = self.map if before is None else before
        locked = {p.id for p in m.pieces if p.locked}
        if locked:
            hit = sorted(k[1] for k in edit.geometry_keys(m) if k[0] == "piece" and k[1] in locked)
            if hit:
                raise EditRefused(f"{_names(('piece', i) for i in hit)} {'is' if len(hit) == 1 else 'are'} locked "
                                  "(unlock first)")
        new = edit.apply(m)
        problems = draft_problems(new)
        if problems:
            raise EditRefused("; ".join(f"{f}: {r}" if f else r for f, r in problems[:3]))
        return new

    def preview(self, edit: Edit) -> MapFile:
        """The map ``edit`` would give (twins, locks and validity as ``do``), without doing it."""
        return self.check(self.expand(edit))

    def do(self, edit: Edit) -> Edit:
        """Apply ``edit`` with its twins as one undo step; returns what was applied. Refused
        edits raise ``EditRefused`` and change nothing."""
        full = self.expand(edit)
        new = self.check(full)
        inv = full.inverse(self.map)
        self.map = new
        self.version = self._new_version()
        self.done.append(Step(full, inv, self.version))
        self.undone.clear()
        return full

    def _new_version(self) -> int:
        v = self._next
        self._next += 1
        return v

    def undo(self) -> Edit | None:
        if not self.done:
            return None
        step = self.done.pop()
        self.map = step.inverse.apply(self.map)
        self.undone.append(step)
        self.version = self.done[-1].version if self.done else self.base_version
        return step.edit

    def redo(self) -> Edit | None:
        if not self.undone:
            return None
        step = self.undone.pop()
        self.map = step.edit.apply(self.map)
        self.done.append(step)
        self.version = step.version
        return step.edit

    def reset(self, m: MapFile) -> None:
        """Start over with ``m`` (a file opened): no undo history, nothing unsaved."""
        self.map = m
        self.done.clear()
        self.undone.clear()
        self.version = self.base_version = self.saved_version = self._new_version()


def default_props(kind: str) -> dict:
    """A kind's defaults (height in mm), for the property panel."""
    return dict(KIND_DEFAULTS[kind])

