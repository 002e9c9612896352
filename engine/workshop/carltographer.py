"""Import a layout written by Carltographer (its published schema:
``v2/schemas/carltographer.schema.json`` in khaaarl/carltographer) as a Skirmish map.

What is read, and how it maps (``docs/workshop.md`` says the same in words, with what is lost):

- The file is a ``terrain_layout`` (``table_width_inches``, ``table_depth_inches``,
  ``placed_features``, optional ``mission``, ``rotationally_symmetric``), or an engine result
  holding one under ``layout``. Placed features name terrain objects by ``object_id``; the
  objects come from the layout's ``terrain_objects`` (what Carltographer's app writes beside the
  schema's fields) or from a ``catalog`` in the same file.
- Carltographer's coordinates are inches from the table's centre, x to the right and z toward
  the bottom of its picture; ours start at the lower left corner with y up. So a point (x, z)
  becomes (x + width / 2, depth / 2 - z), and the layout looks the same in both programs.
- Every shape of an object of a component of a placed feature (each with its own offset and
  turn) becomes one piece: a ``rectangular_prism`` its four corners, a ``polygon`` its own
  vertices (a round tank stays round, a kidney-shaped wood keeps its outline), after composing
  the three transforms. The pieces of one placed feature form one group, so the editor moves
  them together. A ``rotationally_symmetric`` layout lists one of each pair: the other (at -x,
  -z, turned 180 degrees) is added, as Carltographer draws it.
- Sight, as Carltographer's engine reads it: a feature tagged ``obscuring`` makes the shapes of
  its ``is_footprint`` objects footprints that block every line crossing them (a point inside
  sees out): they become obscuring pieces (``ruin``, or ``woods`` for a wood), which is what
  ``analyze-map --footprints-block`` and ``--metric carltographer`` read. Every other shape
  blocks sight up to ``opacity_height_inches`` (its whole height when the field is absent or
  null, as its engine does; not at all when 0) and movement. A flat shape that is not such a
  footprint blocks nothing there, and is imported so that no reading makes it block. Kinds
  come from the feature: ruins ``ruin``, woods ``woods``, hills ``hill``, craters ``scrub``,
  obstacles ``container`` when the object is a container or crate, else ``barricade``;
  anything else ``building``.
- An object tagged ``skirmish:kind=...``, ``skirmish:cover=...`` and so on (what ``skirmish export
  --to carltographer`` writes, ``export_carltographer``) gets that kind and those flags instead.
  A Tabletop Simulator save that ``skirmish export --to tts`` wrote is read by ``tts.from_tts``.
- The mission's deployment zones (each polygon of a zone) become zones, the first zone named
  side 1 and the second side 2; its objectives become objectives. Without a mission the map gets
  a zone along each short edge (12" deep) so it can be analysed and played, and says so.
"""
from __future__ import annotations

import math
import re
from itertools import chain
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engine.data.errors import DataError, load_json_file, problems_of
from engine.data.maps import MAX_MM, MAX_PIECES, MapFile, Marker, Piece, PolygonShape, Zone
from engine.data.text import ID_CHARS, NAME_CHARS

from .export_carltographer import TAG_PREFIX, skirmish_fields

# Bounds (issue 47): no number past the largest table (100 m, in inches), no text longer than our
# own fields take, and at most MAX_PLACEMENTS features: a tournament layout places a few dozen,
# and the map, the editor and the analysis must stay quick on whatever a file holds.
MAX_IN = MAX_MM / 25.4            # 3,937 inches
MAX_TURN = 36_000.0               # degrees: a hundred turns either way
MAX_PLACEMENTS = 1_000
MAX_LIST = 1_000                  # objects, objectives, a zone's corners, a polygon's vertices
MAX_PARTS = 100                   # components of a feature, shapes of an object, zones, polygons, tags
SHAPE_TYPES = ("rectangular_prism", "polygon")   # what this import reads

Inches = Annotated[float, Field(ge=-MAX_IN, le=MAX_IN, description="inches from the table's centre; at most 100 m")]
Size = Annotated[float, Field(ge=0, le=MAX_IN, description="inches; at most 100 m")]
Tag = Annotated[str, Field(max_length=NAME_CHARS)]
Id = Annotated[str, Field(max_length=ID_CHARS, description=f"at most {ID_CHARS} characters")]


class _Lenient(BaseModel):
    # the published schema forbids other fields; files from newer versions may have more, and
    # what we do not read should not stop an import. Types are strict: "44" is not a number nor
    # "yes" a boolean (a file that says so is refused with its field, not guessed at).
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False, strict=True)


class Transform(_Lenient):
    x_inches: Inches = 0.0
    y_inches: Inches = 0.0
    z_inches: Inches = 0.0
    rotation_deg: float = Field(0.0, ge=-MAX_TURN, le=MAX_TURN, description="degrees about the vertical")


class Prism(_Lenient):
    """A shape: a ``rectangular_prism`` (width along x, depth along z) or a ``polygon`` (its
    ``vertices``, (x, z) pairs around the object's origin)."""
    shape_type: str = Field("rectangular_prism", max_length=ID_CHARS, description=f"one of {', '.join(SHAPE_TYPES)}")
    width_inches: Size = 0.0
    depth_inches: Size = 0.0
    height_inches: Size
    # [x, z] pairs (a list, not a tuple: strict types read JSON arrays as lists only)
    vertices: list[Annotated[list[Inches], Field(min_length=2, max_length=2)]] | None = Field(
        default=None, min_length=3, max_length=MAX_LIST, description="the polygon's corners, (x, z) in inches")
    offset: Transform | None = None
    opacity_height_inches: float | None = Field(default=None, ge=0, le=MAX_IN,
                                                description="inches of its height that block sight")

    @field_validator("shape_type")
    @classmethod
    def _known(cls, v: str) -> str:
        # a sphere or a cylinder is refused, not imported as the box around it
        if v not in SHAPE_TYPES:
            raise ValueError(f"{v[:40]!r} is not a shape this import reads ({', '.join(SHAPE_TYPES)}); "
                             "it is refused rather than imported as a box")
        return v

    @model_validator(mode="after")
    def _outline(self) -> Prism:
        if self.shape_type == "polygon" and not self.vertices:
            raise ValueError("a polygon shape needs its vertices")
        return self


class TerrainObject(_Lenient):
    id: Id
    name: str | None = Field(None, max_length=NAME_CHARS)
    shapes: list[Prism] = Field(min_length=1, max_length=MAX_PARTS)
    tags: list[Tag] = Field(default_factory=list, max_length=MAX_PARTS)
    is_footprint: bool = False


class Component(_Lenient):
    object_id: Id
    transform: Transform | None = None


class Feature(_Lenient):
    id: Id
    feature_type: str = Field(max_length=NAME_CHARS)
    components: list[Component] = Field(min_length=1, max_length=MAX_PARTS)
    tags: list[Tag] = Field(default_factory=list, max_length=MAX_PARTS)


class Placed(_Lenient):
    feature: Feature
    transform: Transform = Field(default_factory=Transform)
    locked: bool = False


class Point2D(_Lenient):
    x_inches: Inches
    z_inches: Inches


class Objective(_Lenient):
    id: Id
    position: Point2D
    range_inches: Size = 3.0


class DeploymentZone(_Lenient):
    id: Id
    polygons: list[Annotated[list[Point2D], Field(max_length=MAX_LIST)]] = Field(max_length=MAX_PARTS)


class Mission(_Lenient):
    name: str = Field("", max_length=NAME_CHARS)
    objectives: list[Objective] = Field(default_factory=list, max_length=MAX_LIST)
    deployment_zones: list[DeploymentZone] = Field(default_factory=list, max_length=MAX_PARTS)


class Layout(_Lenient):
    table_width_inches: float = Field(gt=0, le=MAX_IN, description="inches; at most 100 m")
    table_depth_inches: float = Field(gt=0, le=MAX_IN, description="inches; at most 100 m")
    placed_features: list[Placed] = Field(
        default_factory=list, max_length=MAX_PLACEMENTS,
        description=f"at most {MAX_PLACEMENTS:,}: a table holds a few dozen, and the editor must stay quick")
    rotationally_symmetric: bool = False
    mission: Mission | None = None
    terrain_objects: list[TerrainObject] = Field(default_factory=list, max_length=MAX_LIST)
    visibility: dict | None = None


class CatalogObject(_Lenient):
    item: TerrainObject


class Catalog(_Lenient):
    objects: list[CatalogObject] = Field(default_factory=list, max_length=MAX_LIST)


# --- geometry ---------------------------------------------------------------------------

def _compose(inner: Transform | None, outer: Transform | None) -> tuple[float, float, float]:
    """(x, z, degrees) of ``inner`` placed by ``outer`` (Carltographer's frame)."""
    ix, iz, ir = (inner.x_inches, inner.z_inches, inner.rotation_deg) if inner else (0.0, 0.0, 0.0)
    ox, oz, orot = (outer.x_inches, outer.z_inches, outer.rotation_deg) if outer else (0.0, 0.0, 0.0)
    c, s = math.cos(math.radians(orot)), math.sin(math.radians(orot))
    return ox + ix * c - iz * s, oz + ix * s + iz * c, ir + orot


def _outline(sh: Prism, cx: float, cz: float, degrees: float) -> list[tuple[float, float]]:
    """The shape's outline in Carltographer's frame: a prism's four corners, a polygon's vertices."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    if sh.shape_type == "polygon":
        assert sh.vertices is not None    # the model's validator requires them for a polygon
        local = [(float(x), float(z)) for x, z in sh.vertices]
    else:
        w, d = sh.width_inches / 2, sh.depth_inches / 2
        local = [(-w, -d), (w, -d), (w, d), (-w, d)]
    return [(cx + lx * c - lz * s, cz + lx * s + lz * c) for lx, lz in local]


def is_obscuring(feature: Feature) -> bool:
    """Carltographer's engine makes a feature Obscuring by its ``obscuring`` tag."""
    return "obscuring" in {t.lower() for t in feature.tags}


def _kind(feature: Feature, obj: TerrainObject, footprint: bool) -> str:
    ft = feature.feature_type.lower()
    tags = {t.lower() for t in feature.tags + obj.tags}
    words = f"{obj.id} {obj.name or ''}".lower()
    if footprint:
        return "woods" if ft == "woods" or "woods" in tags else "ruin"
    if ft in ("ruin", "ruins", "obscuring") or tags & {"ruin", "ruins", "ruin_wall", "ruin_floor"}:
        return "ruin"
    if ft == "woods":
        return "woods"
    if ft == "hill":
        return "hill"
    if ft == "crater":
        return "scrub"
    if "container" in tags or "container" in words or "crate" in words:
        return "container"
    if ft == "obstacle":
        return "barricade"
    return "building"


def _piece_fields(feat: Feature, obj: TerrainObject, sh: Prism, counts: dict) -> dict:
    """Kind and properties of one shape, as Carltographer's engine reads its sight."""
    footprint = is_obscuring(feat) and obj.is_footprint
    kind = _kind(feat, obj, footprint)
    h = sh.height_inches
    if footprint:
        # blocks every line through it under the 40k reading, whatever its height
        return dict(kind=kind, height=h, blocks_sight=False, obscuring=True, cover="light", impassable=False,
                    difficult=kind == "woods", climbable=False)
    # absent or null: opaque to its height (its engine reads both so); 0: see-through
    opacity = h if sh.opacity_height_inches is None else sh.opacity_height_inches
    if h <= 0 or opacity <= 0:
        # blocks nothing in Carltographer: a kind and flags that no reading makes block
        if kind == "ruin":
            kind = "scrub" if h <= 0 else "fence"
        return dict(kind=kind, height=h, blocks_sight=False, obscuring=False,
                    cover="light" if kind in ("woods", "scrub") or h > 0 else "none",
                    impassable=h > 0 and kind not in ("woods", "scrub", "hill"),
                    difficult=kind in ("woods", "scrub"), climbable=False)
    if opacity < h:
        counts["partial"] += 1
        h = opacity                      # sight is what the analysis and the games need
    return dict(kind=kind, height=h, blocks_sight=True, obscuring=False, cover="heavy",
                impassable=kind not in ("woods", "hill", "scrub"), difficult=kind in ("woods", "scrub"))


USED_TAGS = {"obscuring", "container", "ruin", "ruins", "ruin_wall", "ruin_floor", "woods"}


def _report(layout: Layout, objects: dict, counts: dict) -> list[str]:
    """What the import changed or left out, one line each."""
    notes = []
    if counts["polygons"]:
        notes.append(f"{counts['polygons']} polygon shapes kept as polygons")
    if counts["partial"]:
        notes.append(f"{counts['partial']} shapes see-through above part of their height: imported at the height they "
                     "block sight to (their full height is lost)")
    if counts["raised"]:
        notes.append(f"{counts['raised']} shapes raised above the table (y_inches): imported standing on the table")
    if counts["locked"]:
        notes.append(f"{counts['locked']} features locked in Carltographer: not locked here")
    feats = [pf.feature for pf in layout.placed_features]
    legacy = sorted({f.id for f in feats if f.feature_type.lower() == "obscuring" and not is_obscuring(f)})
    if legacy:
        notes.append(f"features of type obscuring without the obscuring tag ({', '.join(legacy[:5])}): not obscuring, "
                     "as Carltographer's engine reads them")
    bare = sorted({f.id for f in feats if is_obscuring(f)
                   and not any(objects[c.object_id].is_footprint for c in f.components)})
    if bare:
        notes.append(f"obscuring features with no footprint object (is_footprint) ({', '.join(bare[:5])}): nothing "
                     "blocks through them, as in Carltographer")
    tags = sorted({t for f in feats for t in f.tags} | {t for o in objects.values() for t in o.tags})
    other = [t for t in tags if t.lower() not in USED_TAGS and not t.startswith(TAG_PREFIX)]
    if other:
        notes.append(f"tags not carried over (they change nothing in Carltographer's sight): {', '.join(other)}")
    if counts["ours"]:
        notes.append(f"{counts['ours']} shapes carry Skirmish's own kind and flags (skirmish: tags, as skirmish "
                     "export writes them): restored")
    notes.append("not kept: colours, catalog quantities and engine parameters")
    fig = source_figures(layout)
    if fig:
        notes.append("the file's own figures (Carltographer): " + ", ".join(f"{k} {v}" for k, v in fig.items())
                     + "; compare with analyze-map --metric carltographer")
        notes.append("those figures were stored by the Carltographer that saved the file, "
                     + (f"engine version {fig_version(layout)}" if fig_version(layout) else "which records no engine version")
                     + f"; ours follows its engine at commit {ENGINE_COMMIT}: from another (older) engine they may differ")
    return notes


ENGINE_COMMIT = "d4eb250a"      # the Carltographer engine carlto_metric.py follows (docs/workshop.md)


def fig_version(layout: Layout) -> str | None:
    """The engine version a layout's stored figures name, if it names one."""
    for d in (layout.visibility or {}, getattr(layout, "model_extra", None) or {}):
        for k, v in d.items():
            if "version" in str(k).lower() and isinstance(v, (str, int, float)):
                return str(v)
    return None


def source_figures(layout: Layout) -> dict:
    """Carltographer's own figures stored in the file (its ``visibility``), flattened to
    ``overall``, ``dz_hideability[zone]`` and ``objective_hidability[zone]`` values."""
    vis = layout.visibility or {}
    out = {}
    try:
        if isinstance(vis.get("overall"), dict):
            out["overall"] = float(vis["overall"]["value"])
        for key in ("dz_hideability", "objective_hidability"):
            for zone, entry in (vis.get(key) or {}).items():
                out[f"{key}[{zone}]"] = float(entry["value"])
    except (KeyError, TypeError, ValueError):
        return {}
    return out


def _slug(text: str) -> str:
    # at most 40 characters, so a piece's id made of two slugs stays within the map's bound
    return re.sub(r"[^a-z0-9_\-]+", "-", text.lower()).strip("-")[:40].strip("-") or "imported"


class _Ids:
    """Fresh ids as ``edits.new_id`` gives them (base, base-2, base-3...), each in constant time:
    ``new_id`` copies and scans the ids taken, and 10,000 placements took 21 s (issue 47)."""

    def __init__(self):
        self.taken: set[str] = set()
        self.next: dict[str, int] = {}

    def new(self, base: str) -> str:
        base = re.sub(r"[^a-z0-9_\-]+", "-", base.lower()).strip("-") or "piece"
        base = re.sub(r"-\d+$", "", base) or base
        if base in self.taken:
            n = self.next.get(base, 2)
            while f"{base}-{n}" in self.taken:
                n += 1
            self.next[base] = n + 1
            base = f"{base}-{n}"
        self.taken.add(base)
        return base


def _checked(model, path, where: str, **fields):
    """``model(**fields)``, or ``DataError`` naming the feature whose piece it would be: a shape
    the map refuses (a corner past 100 m, no area) is the file's fault, said with its field."""
    try:
        return model(**fields)
    except ValidationError as err:
        raise DataError(path, [(f"{where} ({model.__name__.lower()} {f})" if f else where, r)
                               for f, r in problems_of(err)][:5]) from None


# --- the import -------------------------------------------------------------------------

NOT_A_LAYOUT = ("not a Carltographer layout (a JSON object with table_width_inches, table_depth_inches "
                "and placed_features)")


def parse_layout(data, path: str | Path = "<layout>") -> tuple[Layout, dict[str, TerrainObject]]:
    """The layout and its objects by id, or ``DataError`` naming the file, field and reason."""
    if isinstance(data, dict) and "layout" in data and "table_width_inches" not in data:
        data = data["layout"]           # an engine result
        prefix = "layout."
    else:
        prefix = ""
    if not isinstance(data, dict) or not ({"table_width_inches", "table_depth_inches", "placed_features"} & set(data)):
        # say what the file is not, rather than list every field a layout would need
        raise DataError(path, [("", NOT_A_LAYOUT)])
    n = len(data.get("placed_features") or ()) if isinstance(data.get("placed_features"), list) else 0
    if n > MAX_PLACEMENTS:      # said before the features are read one by one
        raise DataError(path, [(prefix + "placed_features", f"{n:,} features placed, more than this import takes "
                                                           f"({MAX_PLACEMENTS:,}; a table holds a few dozen)")])
    try:
        layout = Layout.model_validate(data)
    except ValidationError as err:
        raise DataError(path, [(prefix + f, r) for f, r in problems_of(err)]) from None
    objects = {o.id: o for o in layout.terrain_objects}
    cat = data.get("catalog")
    if isinstance(cat, dict):
        try:
            for entry in Catalog.model_validate(cat).objects:
                objects.setdefault(entry.item.id, entry.item)
        except ValidationError as err:
            raise DataError(path, [(prefix + "catalog." + f, r) for f, r in problems_of(err)]) from None
    missing = []
    for i, pf in enumerate(layout.placed_features):
        for j, comp in enumerate(pf.feature.components):
            if comp.object_id not in objects:
                missing.append((f"{prefix}placed_features[{i}].feature.components[{j}].object_id",
                                f"no terrain object {comp.object_id!r} in the file (terrain_objects)"))
    if missing:
        raise DataError(path, missing[:10])
    return layout, objects


def import_layout(path: str | Path) -> tuple[MapFile, list[str]]:
    """The map of a Carltographer layout file and notes on what did not carry over."""
    path = Path(path)
    from .png_layout import is_png, layout_text

    if is_png(path):      # its GUI's save: the picture with the layout's JSON in a text chunk
        from engine.data.errors import parse_json_text

        data = parse_json_text(layout_text(path), path, "carltographer_layout")
    else:
        data = load_json_file(path)
    if isinstance(data, dict) and "ObjectStates" in data:      # a Tabletop Simulator save
        from .tts import from_tts

        return from_tts(data, path)
    layout, objects = parse_layout(data, path)
    return convert(layout, objects, map_id=_slug(path.stem), source=path.name, path=path)


def convert(layout: Layout, objects: dict, map_id: str = "imported", source: str = "",
            path: str | Path = "<layout>") -> tuple[MapFile, list[str]]:
    W, D = layout.table_width_inches, layout.table_depth_inches
    notes: list[str] = []

    half_w, half_d = W / 2, D / 2

    def ours(x, z):
        return (round(x + half_w, 6), round(half_d - z, 6))

    placed = list(layout.placed_features)
    if layout.rotationally_symmetric:
        twins = []
        for pf in placed:
            t = pf.transform
            if t.x_inches == 0.0 and t.z_inches == 0.0:
                continue
            twins.append(Placed(feature=pf.feature, transform=Transform.model_construct(
                x_inches=-t.x_inches, z_inches=-t.z_inches, rotation_deg=t.rotation_deg + 180.0)))
        placed += twins
        if twins:
            notes.append(f"rotationally symmetric: added the {len(twins)} mirrored features Carltographer draws")
    n_pieces = sum(len(objects[c.object_id].shapes) for pf in placed for c in pf.feature.components)
    if n_pieces > MAX_PIECES:     # counted before any is made: the limit is what keeps the import quick
        raise DataError(path, [("placed_features", f"would make {n_pieces:,} pieces, more than a map holds "
                                                   f"({MAX_PIECES:,})")])
    taken, groups = _Ids(), _Ids()
    pieces: list[Piece] = []
    counts = {"partial": 0, "raised": 0, "locked": 0, "polygons": 0, "ours": 0}
    n0 = len(layout.placed_features)
    for i, pf in enumerate(placed):
        feat = pf.feature
        grp = groups.new(_slug(feat.id))
        where = f"placed_features[{i}]" if i < n0 else f"placed_features[{i - n0}] (its rotational twin)"
        counts["locked"] += pf.locked
        mine = []
        for comp in feat.components:
            obj = objects[comp.object_id]
            for sh in obj.shapes:
                if sh.shape_type == "rectangular_prism" and (sh.width_inches <= 0 or sh.depth_inches <= 0):
                    continue
                counts["raised"] += bool((sh.offset and sh.offset.y_inches) or (comp.transform and comp.transform.y_inches)
                                         or pf.transform.y_inches)
                counts["polygons"] += sh.shape_type == "polygon"
                sx, sz, sr = _compose(sh.offset, comp.transform)
                cx, cz, rot = _compose(Transform.model_construct(x_inches=sx, z_inches=sz, rotation_deg=sr),
                                       pf.transform)
                # ours() inlined: a layout may hold 2,000,000 corners (issue 59)
                pts = [(round(x + half_w, 6), round(half_d - z, 6)) for x, z in _outline(sh, cx, cz, rot)]
                if max(map(abs, chain.from_iterable(pts))) > MAX_IN:     # each number in bounds, their sum not
                    raise DataError(path, [(where, f"a corner of {obj.id[:40]!r} lies beyond 100 m from the table")])
                pid = taken.new(f"{_slug(feat.id)}-{_slug(obj.id)}")
                fields = _piece_fields(feat, obj, sh, counts)
                own = skirmish_fields(obj.id, obj.tags, path, where)
                counts["ours"] += bool(own)
                fields.update(own)
                tag = "obscuring footprint" if fields["obscuring"] else feat.feature_type
                fields.update(id=pid, name=f"{obj.name or obj.id} ({tag})"[:NAME_CHARS],
                              shape=_checked(PolygonShape, path, where, points=pts))
                mine.append(fields)
        for f in mine:
            if len(mine) > 1:
                f["group"] = grp
            pieces.append(_checked(Piece, path, f"{where} (piece {f['id']})", **f))
    notes += _report(layout, objects, counts)
    zones: list[Zone] = []
    objectives: list[Marker] = []
    m = layout.mission
    if m is not None and m.deployment_zones:
        for side, dz in enumerate(m.deployment_zones[:2], start=1):
            for poly in dz.polygons:
                if len(poly) >= 3:
                    zones.append(Zone(side=side, points=[ours(p.x_inches, p.z_inches) for p in poly]))
        if len(m.deployment_zones) > 2:
            notes.append(f"{len(m.deployment_zones) - 2} deployment zones beyond two left out")
        if len(m.deployment_zones) >= 2:
            notes.append(f"zone {m.deployment_zones[0].id!r} is side 1, zone {m.deployment_zones[1].id!r} side 2")
    if {z.side for z in zones} != {1, 2}:
        d = min(12.0, W / 4)
        zones = [Zone(side=1, points=[(0, 0), (d, 0), (d, D), (0, D)]),
                 Zone(side=2, points=[(W - d, 0), (W, 0), (W, D), (W - d, D)])]
        notes.append("the layout has no mission with two deployment zones: gave it one along each short edge")
    if m is not None:
        ranges, marker_ids = set(), _Ids()
        for o in m.objectives:
            # the file's own id when it is one of ours and still free ("obj-1" stays "obj-1"), else a fresh one
            mid = _slug(o.id) if _slug(o.id) == o.id and o.id not in marker_ids.taken else marker_ids.new(_slug(o.id))
            marker_ids.taken.add(mid)
            objectives.append(Marker(id=mid, name=o.id, at=ours(o.position.x_inches, o.position.z_inches)))
            ranges.add(o.range_inches)
        if ranges and ranges != {3.0}:
            notes.append(f"objective ranges {sorted(ranges)}\" are not kept (analyze-map --control sets one range)")
    name = (m.name if m is not None and m.name else map_id.replace("-", " ").title())
    desc = f"Imported from the Carltographer layout {source}." if source else "Imported from Carltographer."
    try:
        mapfile = MapFile(schema_version=1, id=map_id, name=name, description=desc, unit="in", width=W, height=D,
                          pieces=pieces, deployment=zones, objectives=objectives)
    except ValidationError as err:
        raise DataError(path, [(f"(converted map) {f}".strip(), r) for f, r in problems_of(err)]) from None
    return mapfile, notes
