"""Items of a map and what every edit command shares: keys, the refusal, reading and replacing an
item's geometry, bounds, fresh ids, and the words naming items in a command's description."""
from __future__ import annotations

import re
from collections.abc import Iterable

from engine.data.maps import MapFile, Piece

from .. import shapes as S

Key = tuple  # ("piece", id) | ("objective", id) | ("evac", id) | ("zone", index)

PIECE_FIELDS = ("id", "kind", "name", "height", "blocks_sight", "obscuring", "cover", "impassable",
                "difficult", "climbable", "group", "locked")
PROPS = ("blocks_sight", "obscuring", "cover", "impassable", "difficult", "climbable")
MARKER_GROUPS = {"objective": "objectives", "evac": "evac_points"}
MAP_FIELDS = ("id", "name", "description", "width", "height", "suits")
TOLERANCE = 1e-6          # map units: a counterpart's shape must match the mirror image this closely


class EditRefused(ValueError):
    """An edit the editor will not make; the map is unchanged. ``str()`` says why."""


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
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def inserted(items, new, at) -> list:
    """``items`` as a new list with ``new`` added at the list positions ``at`` (each an index in
    the result, so they go in ascending), or at the end when ``at`` is None: the Add commands'
    one way in, so an Add that undoes a Delete puts each item back where it stood."""
    out = list(items)
    if at is None:
        out.extend(new)
    else:
        for i, item in sorted(zip(at, new), key=lambda t: t[0]):
            out.insert(i, item)
    return out


def refuse_taken(taken: Iterable[str], ids: Iterable[str], what: str) -> None:
    """Refuse ids already on the map or given twice (``what``: "a piece", "an objective")."""
    seen = set(taken)
    for i in ids:
        if i in seen:
            raise EditRefused(f"{what} {i!r} is already on the map")
        seen.add(i)


def refuse_missing(gone: set, present: Iterable, what: str) -> None:
    """Refuse to delete what is not on the map, naming the first (in order) of those missing."""
    missing = gone - set(present)
    if missing:
        raise EditRefused(f"no {what} {sorted(missing)[0]!r}")


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
