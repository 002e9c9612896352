"""Symmetry twins: an item's counterpart under a mirror or point symmetry (found by geometry), and
an edit widened so every counterpart keeps in step, in the same undo step."""
from __future__ import annotations

from engine.data.maps import MapFile, Piece, PolygonShape

from .. import shapes as S
from .command import Compound, Edit
from .items import (
    MARKER_GROUPS,
    PROPS,
    TOLERANCE,
    EditRefused,
    Key,
    _marker_list,
    _name,
    _names,
    geometry,
    get_piece,
    keys_of,
    map_geometry,
    new_id,
    selection_centre,
)
from .markers import AddMarkers, DeleteMarkers
from .pieces import AddPieces, DeletePieces, SetFields
from .transforms import Move, Rotate, Scale, SetGeometry
from .vertices import DeleteVertex, InsertVertex, MoveVertex
from .zones import AddZones, DeleteZones


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
                        PolygonShape.model_construct(points=[(x, y) for x, y in z.points]), tol):
            return ("zone", i)
    return None


def unmatched(m: MapFile, mode: str, tol: float = TOLERANCE) -> list[Key]:
    """Items with no counterpart under ``mode`` (zones carry over to the other side's)."""
    return [k for k in keys_of(m) if counterpart(m, k, mode, tol) is None]


def twins_of(m: MapFile, keys, mode: str) -> tuple[list, dict, set]:
    """(primaries, twin of each primary, items that are their own counterpart) for ``keys``:
    of a selected item and its selected counterpart, only the first is primary."""
    primaries, twin, selfs = [], {}, set()
    covered: set = set()
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
        zones = tuple(z.model_copy(update={"side": 3 - z.side, "points": [S.map_point(p, f) for p in z.points]})
                      for z in edit.zones)
        return Compound((edit, AddZones(zones)), edit.describe())
    return edit        # map fields, zone sides, marker names, unit: nothing to mirror


def _follow(primary: Compound, m: MapFile, twin: dict, f) -> Edit:
    """``primary`` then the twins set to the mirror images of their primaries' new geometry."""
    if not twin:
        return primary
    after = primary.apply(m)
    items = tuple((t, map_geometry(p, geometry(after, p), f)) for p, t in twin.items())
    return Compound(primary.edits + (SetGeometry(items, "mirror"),), primary.label)
