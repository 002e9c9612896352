"""A map as a Tabletop Simulator save, and back (``skirmish export MAP --to tts OUT.json``; ``skirmish
import OUT.json`` reads it again; issue 62).

The convention (docs/workshop.md says the same): one TTS unit is one inch, the usual reading at
the default scale (Carltographer's own TTS export places its features so too); the table's centre
is the world's origin, our x is TTS's X and our y its Z (away from the first seat), and our
counter-clockwise angle is minus TTS's ``rotY`` (Unity turns clockwise seen from above). Every
object is TTS's built-in ``BlockSquare`` (a cube one unit on a side, scaled to size), locked:

- the table: a 0.2" slab the table's size, its top at ``TOP`` (just above the glass table's top);
- each piece: a block over its outline (a rectangle's own, else the smallest rectangle around it
  with a side along its hull), as tall as the piece (0.05" when flat), standing on the table;
- each deployment zone, objective and evacuation point: a flat marker on the table (a zone that
  is not a rectangle: its edges as flat strips and a marker at its centre).

Each object's ``GMNotes`` (which TTS keeps, and shows only to the game master) holds a JSON tag
saying what it is: the table's holds the map's id, name, unit and size; a piece's its kind and
flags and its outline as fractions of the block's width and depth; a zone's its side and outline.
Reading back takes each block's place, turn and footprint from its ``Transform`` (so a block
moved, turned or stretched in TTS moves, turns or stretches its piece) and the rest from its tag.
"""
from __future__ import annotations

import json
import math
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.data.errors import DataError, problems_of
from engine.data.maps import MAX_PIECES, MM_PER, MapFile, Marker, Piece, Zone

from .export_geometry import block_of, from_local, inches_per_unit, outline_in, rectangle, to_local

TOP = 1.1                 # the table slab's top (TTS's tables stand about one unit high)
SLAB = 0.2                # its thickness, inches
FLAT = 0.05               # a flat piece's or a marker's thickness
MARKER = 1.5              # an objective marker's side (a 40 mm marker is 1.57")
EDGE = 0.25               # the width of a strip drawing a zone's edge
MAX_OBJECTS = MAX_PIECES + 5_000
MAX_IN = 100_000.0 / 25.4
TAG = "skirmish"
COLOURS = {"sight": (0.45, 0.42, 0.40), "obscuring": (0.25, 0.55, 0.25), "open": (0.75, 0.65, 0.45),
           1: (0.20, 0.40, 0.90), 2: (0.90, 0.25, 0.20), "objective": (0.95, 0.80, 0.15), "evac": (0.95, 0.95, 0.95),
           "table": (0.35, 0.45, 0.30)}


def _r(v: float) -> float:
    return round(v, 6) + 0.0


def _object(n: int, nick: str, desc: str, tag: dict, x: float, y: float, z: float, turn: float,
            size: tuple[float, float, float], colour) -> dict:
    sx, sy, sz = size
    r, g, b = colour
    return {"GUID": f"{0x5c0000 + n:06x}", "Name": "BlockSquare",
            "Transform": {"posX": _r(x), "posY": _r(y), "posZ": _r(z), "rotX": 0.0, "rotY": _r(turn % 360.0),
                          "rotZ": 0.0, "scaleX": _r(sx), "scaleY": _r(sy), "scaleZ": _r(sz)},
            "Nickname": nick, "Description": desc, "GMNotes": json.dumps(tag, separators=(",", ":")),
            "ColorDiffuse": {"r": r, "g": g, "b": b}, "Locked": True, "Grid": False, "Snap": False,
            "Autoraise": True, "Sticky": False, "Tooltip": True, "GridProjection": False, "Hands": False,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}


def _fractions(pts, block) -> list[list[float]]:
    # nine places: a fraction of a 100" block to a micro-inch
    return [[round(u, 9) + 0.0, round(v, 9) + 0.0] for u, v in to_local(pts, block)]


def _piece_block(p, k: float):
    """(block, the outline's tag) of a piece: a circle and a wall keep their own shape."""
    sh = p.shape
    if sh.type == "circle":
        r = sh.radius * k
        return (sh.center[0] * k, sh.center[1] * k, 2 * r, 2 * r, 0.0), {"type": "circle"}
    if sh.type == "wall":
        (ax, ay), (bx, by) = sh.a, sh.b
        deg = math.degrees(math.atan2(by - ay, bx - ax))
        return ((ax + bx) / 2 * k, (ay + by) / 2 * k, math.dist(sh.a, sh.b) * k, sh.thickness * k, deg), {"type": "wall"}
    pts = outline_in(p, k)
    block = block_of(pts)
    return block, {"type": "polygon", "points": _fractions(pts, block)}


def to_tts(mapfile) -> tuple[dict, list[str]]:
    """The save (a JSON-ready dict) and notes on it."""
    k = inches_per_unit(mapfile)
    W, H = mapfile.width * k, mapfile.height * k
    head = mapfile.model_dump(mode="json", include={"id", "name", "description", "unit", "width", "height", "suits"})
    objs = [_object(0, mapfile.name, f"{W:g} x {H:g} in table (skirmish export)", {TAG: "table", "format": 1, "map": head},
                    0.0, TOP - SLAB / 2, 0.0, 0.0, (W, SLAB, H), COLOURS["table"])]

    def place(tag, nick, desc, block, thick, y, colour):
        cx, cy, w, d, deg = block
        objs.append(_object(len(objs), nick, desc, tag, cx - W / 2, y, cy - H / 2, -deg, (w, thick, d), colour))

    for z in mapfile.deployment:
        pts = [(x * k, y * k) for x, y in z.points]
        nick = f"Deployment zone, side {z.side}"
        block = rectangle(pts)
        if block is None:
            # a block cannot take another shape: its edges drawn as flat strips, its tag on a
            # marker at its centre (moving the marker moves the zone read back)
            n = len(pts)
            for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
                place({TAG: "zone-edge", "side": z.side}, nick, "an edge", ((ax + bx) / 2, (ay + by) / 2,
                      math.hypot(bx - ax, by - ay), EDGE, math.degrees(math.atan2(by - ay, bx - ax))),
                      FLAT, TOP + FLAT / 2, COLOURS[z.side])
            block = (sum(x for x, _ in pts) / n, sum(y for _, y in pts) / n, MARKER, MARKER, 0.0)
        place({TAG: "zone", "side": z.side, "points": _fractions(pts, block)}, nick, "", block, FLAT, TOP + FLAT / 2,
              COLOURS[z.side])
    for p in mapfile.pieces:
        block, shape = _piece_block(p, k)
        h = p.height_mm(mapfile.unit) / 25.4
        fields = p.model_dump(mode="json", exclude={"shape"}, exclude_none=True)
        look = "sight" if p.prop("blocks_sight") else "obscuring" if p.prop("obscuring") else "open"
        place({TAG: "piece", "piece": fields, "shape": shape}, p.name or p.label(), f"{p.kind}, {h:.2f}\" tall",
              block, max(h, FLAT), TOP + max(h, FLAT) / 2, COLOURS[look])
    for group, what in (("objectives", "objective"), ("evac_points", "evac")):
        for m in getattr(mapfile, group):
            place({TAG: what, "id": m.id, "name": m.name}, m.name or m.id, what,
                  (m.at[0] * k, m.at[1] * k, MARKER, MARKER, 0.0), FLAT, TOP + 1.5 * FLAT, COLOURS[what])
    save = {"SaveName": mapfile.name, "GameMode": "Skirmish", "Date": "", "VersionNumber": "", "Gravity": 0.5,
            "PlayArea": 0.5, "Table": "Table_Glass", "Sky": "", "Note": f"{mapfile.name}: a Skirmish map, one unit an "
            "inch (skirmish export). skirmish import reads this save back.", "Rules": "", "XmlUI": "", "LuaScript": "",
            "LuaScriptState": "", "ObjectStates": objs}
    notes = [f"{len(objs)} locked BlockSquare objects: the table, {len(mapfile.deployment)} zones, "
             f"{len(mapfile.pieces)} pieces, {len(mapfile.objectives)} objectives, {len(mapfile.evac_points)} "
             "evacuation points; one unit is one inch, the table's centre the origin"]
    odd = sum(p.shape.type == "polygon" and len(p.shape.points) != 4 for p in mapfile.pieces)
    if odd:
        notes.append(f"{odd} pieces that are not rectangles shown as the block around them (their outline is in "
                     "the tag, and comes back on import)")
    return save, notes


# --- reading it back -----------------------------------------------------------------------

class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False, strict=True)


Num = Annotated[float, Field(ge=-MAX_IN, le=MAX_IN)]
Size = Annotated[float, Field(gt=0, le=MAX_IN)]
Local = Annotated[list[Annotated[float, Field(ge=-1e6, le=1e6)]], Field(min_length=2, max_length=2)]


class _Transform(_Loose):
    posX: Num = 0.0
    posZ: Num = 0.0
    rotY: float = Field(0.0, ge=-36_000, le=36_000)
    scaleX: Size = 1.0
    scaleZ: Size = 1.0


class _Obj(_Loose):
    Transform: _Transform = Field(default_factory=_Transform)
    GMNotes: str = Field("", max_length=1_000_000)


class _TableTag(_Loose):
    format: Literal[1]
    map: dict


class _Shape(_Loose):
    type: Literal["polygon", "circle", "wall"]
    points: list[Local] | None = Field(None, min_length=3, max_length=1000)


class _PieceTag(_Loose):
    piece: dict
    shape: _Shape


class _ZoneTag(_Loose):
    side: int
    points: list[Local] = Field(min_length=3, max_length=1000)


class _MarkerTag(_Loose):
    id: str = Field(max_length=200)
    name: str = Field("", max_length=200)


NOT_OURS = ("a Tabletop Simulator save, but not one skirmish export wrote (no object's GMNotes holds its table "
            "tag); only our own exports are read back")


def _tag(o, path, where: str) -> dict | None:
    """An object's tag, None when it carries none (an object added in TTS, its own notes). Notes
    that name our tag but are not JSON are refused: reading on would silently drop a piece."""
    notes = o.get("GMNotes") if isinstance(o, dict) else None
    if not isinstance(notes, str) or f'"{TAG}"' not in notes[:100]:
        return None
    try:
        tag = json.loads(notes)
    except ValueError as err:
        raise DataError(path, [(f"{where}.GMNotes", f"holds a skirmish tag that is not JSON ({err})")]) from None
    return tag if isinstance(tag, dict) and isinstance(tag.get(TAG), str) else None


def from_tts(data: dict, path) -> tuple[MapFile, list[str]]:
    """The map a save from ``to_tts`` holds, with each block where the save has it now."""
    objs = data.get("ObjectStates")
    if not isinstance(objs, list):
        raise DataError(path, [("ObjectStates", "not a list of objects")])
    if len(objs) > MAX_OBJECTS:
        raise DataError(path, [("ObjectStates", f"{len(objs):,} objects, more than a map's export holds ({MAX_OBJECTS:,})")])
    tagged = [(i, o, t) for i, o in enumerate(objs) if (t := _tag(o, path, f"ObjectStates[{i}]")) is not None]
    tables = [(i, t) for i, _, t in tagged if t[TAG] == "table"]
    if not tables:
        raise DataError(path, [("ObjectStates", NOT_OURS)])

    def model(cls, value, where):
        try:
            return cls.model_validate(value)
        except ValidationError as err:
            raise DataError(path, [(f"{where}.{f}".rstrip("."), r) for f, r in problems_of(err)][:5]) from None

    ti, tt = tables[0]
    head = model(_TableTag, tt, f"ObjectStates[{ti}].GMNotes").map
    unit = head.get("unit")
    try:
        k = MM_PER[unit] / 25.4
        W, H = float(head["width"]) * k, float(head["height"]) * k
        if not (0 < W <= MAX_IN and 0 < H <= MAX_IN):
            raise ValueError
    except (KeyError, TypeError, ValueError):
        raise DataError(path, [(f"ObjectStates[{ti}].GMNotes.map", "no unit (in, cm or mm), or no width and height within 100 m")]) from None

    def ours(pts):            # inches on the table -> the map's unit
        return [(round(x / k, 6) + 0.0, round(y / k, 6) + 0.0) for x, y in pts]

    pieces: list[Piece] = []
    zones: list[Zone] = []
    markers: dict[str, list[Marker]] = {"objective": [], "evac": []}
    for i, o, tag in tagged:
        where = f"ObjectStates[{i}]"
        kind = tag[TAG]
        if kind in ("table", "zone-edge"):         # the edges only draw a zone: its marker holds it
            continue
        t = model(_Obj, o, where).Transform
        block = (t.posX + W / 2, t.posZ + H / 2, t.scaleX, t.scaleZ, -t.rotY)
        if kind == "piece":
            pt = model(_PieceTag, tag, f"{where}.GMNotes")
            pieces.append(_piece(pt, block, ours, k, path, where))
        elif kind == "zone":
            zt = model(_ZoneTag, tag, f"{where}.GMNotes")
            zones.append(_checked(Zone, path, where, {"side": zt.side, "points": ours(from_local(zt.points, block))}))
        elif kind in markers:
            mt = model(_MarkerTag, tag, f"{where}.GMNotes")
            markers[kind].append(_checked(Marker, path, where, {"id": mt.id, "name": mt.name, "at": ours([block[:2]])[0]}))
        else:
            raise DataError(path, [(f"{where}.GMNotes.{TAG}", f"{kind[:40]!r} is not a table, piece, zone, objective "
                                                              "or evac tag")])
    fields = {k_: v for k_, v in head.items() if k_ in ("id", "name", "description", "unit", "width", "height", "suits")}
    try:
        mapfile = MapFile.model_validate({**fields, "schema_version": 1, "pieces": pieces, "deployment": zones,
                                          "objectives": markers["objective"], "evac_points": markers["evac"]})
    except ValidationError as err:
        raise DataError(path, [(f"(the map read back) {f}".strip(), r) for f, r in problems_of(err)][:5]) from None
    extra = len(objs) - len(tagged)
    notes = [f"a Tabletop Simulator save written by skirmish export: {len(pieces)} pieces, {len(zones)} zones, "
             f"{len(markers['objective'])} objectives read where their blocks stand"]
    if extra:
        notes.append(f"{extra} objects without a skirmish tag (added in TTS) left out")
    if len(tables) > 1:
        notes.append(f"{len(tables)} table tags: the first one read")
    return mapfile, notes


def _checked(cls, path, where: str, fields: dict):
    try:
        return cls.model_validate(fields)
    except ValidationError as err:
        raise DataError(path, [(f"{where} ({f})" if f else where, r) for f, r in problems_of(err)][:5]) from None


def _piece(pt: _PieceTag, block, ours, k: float, path, where: str) -> Piece:
    cx, cy, w, d, deg = block
    fields = {f: v for f, v in pt.piece.items() if f != "shape"}
    if pt.shape.type == "circle":
        shape = {"type": "circle", "center": ours([(cx, cy)])[0], "radius": round((w + d) / 4 / k, 6)}
    elif pt.shape.type == "wall":
        a, b = ours(from_local([(-0.5, 0.0), (0.5, 0.0)], block))
        shape = {"type": "wall", "a": a, "b": b, "thickness": round(d / k, 6)}
    else:
        if not pt.shape.points:
            raise DataError(path, [(f"{where}.GMNotes.shape.points", "a polygon's tag needs its points")])
        shape = {"type": "polygon", "points": ours(from_local(pt.shape.points, block))}
    return _checked(Piece, path, f"{where} (piece {str(fields.get('id', '?'))[:40]})", {**fields, "shape": shape})
