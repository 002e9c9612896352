"""A map as a Carltographer layout (``skirmish export MAP --to carltographer OUT.json``, issue 62):
the ``terrain_layout`` of its published schema (``v2/schemas/carltographer.schema.json`` in
khaaarl/carltographer) with the ``terrain_objects`` its app writes beside it, which is what
``skirmish import`` (``engine.workshop.carltographer``) reads back.

- Each group of pieces is one placed feature (a piece in no group is a feature of its own), at
  the centre of its pieces' bounds; each piece is one terrain object with one shape, placed in
  the feature by its component's transform. A rectangle (and a wall) is a ``rectangular_prism``
  turned to its angle; any other outline a ``polygon`` shape (a circle a regular polygon whose rim
  stays within 0.005" of the circle's, ``export_geometry.circle_sides``).
- The frame is Carltographer's: inches from the table's centre, z toward the bottom of its
  picture, so our (x, y) is (x - width / 2, height / 2 - y) and our counter-clockwise angle a
  rotation of minus that angle.
- Height is ``height_inches``; a piece that blocks sight is opaque to its whole height
  (``opacity_height_inches`` equal to it), any other see-through (0). A footprint under the 40k
  reading (an obscuring piece, or a ruin that does not block sight: a converted layout's terrain
  area) is an ``is_footprint`` object in a feature tagged ``obscuring``, as Carltographer reads it.
- Kinds and the rules' flags have no field in Carltographer: ``feature_type`` is the nearest 40k
  keyword, and each object carries ours as free-form tags (``skirmish:kind=fence``,
  ``skirmish:cover=light``...), which Carltographer keeps and ignores and our import restores.
- The deployment zones are the mission's two zones (side 1 first), its objectives the map's, its
  name the map's. Lost on the way (docs/workshop.md lists them): the map's id, description,
  suits and unit (written in inches), piece and marker names, locks, evacuation points, and that
  a circle or a wall was one.
"""
from __future__ import annotations

from engine.data.errors import DataError
from engine.data.maps import KIND_DEFAULTS

from .export_geometry import inches_per_unit, outline_in, rectangle

# Kinds Carltographer's own vocabulary names (its feature types are 40k keywords).
FEATURE_TYPE = {"ruin": "ruin", "building": "ruin", "hut": "ruin", "tower": "ruin", "platform": "ruin",
                "woods": "woods", "scrub": "woods", "smoke": "woods", "tree": "woods",
                "hill": "hill", "water": "crater", "bones": "crater"}
TAG_PREFIX = "skirmish:"
FLAGS = ("blocks_sight", "obscuring", "cover", "impassable", "difficult", "climbable")


def is_footprint(piece) -> bool:
    """Footprints under the 40k reading, as ``analysis.footprint_pieces`` picks them."""
    return bool(piece.prop("obscuring")) or (piece.kind == "ruin" and not piece.prop("blocks_sight"))


def skirmish_tags(piece) -> list[str]:
    """The piece's kind and effective flags as tags (``skirmish:cover=light``)."""
    tags = [f"{TAG_PREFIX}kind={piece.kind}"]
    for f in FLAGS:
        v = piece.prop(f)
        tags.append(f"{TAG_PREFIX}{f}={str(v).lower() if isinstance(v, bool) else v}")
    if piece.kind == "container":
        tags.append("container")       # Carltographer's own tag for one
    return tags


_BOOLS = {"true": True, "false": False}


def skirmish_fields(obj_id: str, tags, path, where: str) -> dict:
    """The kind and flags an object's ``skirmish:`` tags give, for the import (``carltographer``):
    they replace what its reading of Carltographer's fields guessed. A tag in our namespace that is
    not one of these is refused with its field."""
    out: dict = {}
    for t in tags:
        if not t.startswith(TAG_PREFIX):
            continue
        key, _, val = t[len(TAG_PREFIX):].partition("=")
        if key == "kind" and val in KIND_DEFAULTS:
            out[key] = val
        elif key == "cover" and val in ("none", "light", "heavy"):
            out[key] = val
        elif key in FLAGS and val in _BOOLS:
            out[key] = _BOOLS[val]
        else:
            raise DataError(path, [(f"{where} (terrain object {obj_id[:40]!r}, tag {t[:60]!r})",
                                    "not a kind or flag skirmish export writes (skirmish:kind=K with K a kind, "
                                    "skirmish:cover=none|light|heavy, skirmish:FLAG=true|false)")])
    return out


def _r(v: float) -> float:
    return round(v, 6) + 0.0            # no -0.0 in the file


def to_carltographer(mapfile) -> tuple[dict, list[str]]:
    """The layout (a JSON-ready dict) and notes on what it cannot carry."""
    k = inches_per_unit(mapfile)
    W, H = mapfile.width * k, mapfile.height * k

    def frame(x: float, y: float) -> tuple[float, float]:
        return _r(x - W / 2), _r(H / 2 - y)

    groups: dict[str, list] = {}
    for p in mapfile.pieces:
        groups.setdefault(p.group or f"\0{p.id}", []).append(p)
    objects, features = [], []
    fids: set[str] = set()
    counts = {"circles": 0, "walls": 0, "locked": 0, "polygons": 0}
    for key, members in groups.items():
        outlines = [outline_in(p, k) for p in members]
        xs = [x for o in outlines for x, _ in o]
        ys = [y for o in outlines for _, y in o]
        fx, fy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        comps = []
        for p, pts in zip(members, outlines):
            counts["circles"] += p.shape.type == "circle"
            counts["walls"] += p.shape.type == "wall"
            counts["locked"] += bool(p.locked)
            h = p.height_mm(mapfile.unit) / 25.4
            shape: dict = {"height_inches": _r(h), "opacity_height_inches": _r(h) if p.prop("blocks_sight") else 0.0}
            rect = rectangle(pts)
            if rect:
                cx, cy, w, d, deg = rect
                shape.update(shape_type="rectangular_prism", width_inches=_r(w), depth_inches=_r(d))
                turn = _r(-deg)
            else:
                counts["polygons"] += 1
                cx = (min(x for x, _ in pts) + max(x for x, _ in pts)) / 2
                cy = (min(y for _, y in pts) + max(y for _, y in pts)) / 2
                shape.update(shape_type="polygon", vertices=[[_r(x - cx), _r(cy - y)] for x, y in pts],
                             width_inches=_r(max(x for x, _ in pts) - min(x for x, _ in pts)),
                             depth_inches=_r(max(y for _, y in pts) - min(y for _, y in pts)))
                turn = 0.0
            objects.append({"id": p.id, "name": p.name or p.label(), "shapes": [shape], "tags": skirmish_tags(p),
                            "is_footprint": is_footprint(p)})
            comps.append({"object_id": p.id, "transform": {"x_inches": _r(cx - fx), "y_inches": 0.0,
                                                           "z_inches": _r(fy - cy), "rotation_deg": turn}})
        fid = base = key if not key.startswith("\0") else members[0].id
        n = 2
        while fid in fids:             # a group may share its id with a piece of no group
            fid, n = f"{base}-{n}", n + 1
        fids.add(fid)
        footprint = any(is_footprint(p) for p in members)
        x, z = frame(fx, fy)
        features.append({"feature": {"id": fid, "feature_type": FEATURE_TYPE.get(members[0].kind, "obstacle"),
                                     "components": comps, "tags": ["obscuring"] if footprint else []},
                         "transform": {"x_inches": x, "y_inches": 0.0, "z_inches": z, "rotation_deg": 0.0}})
    zones = []
    for side in (1, 2):
        polys = [[dict(zip(("x_inches", "z_inches"), frame(x * k, y * k))) for x, y in z.points]
                 for z in mapfile.deployment if z.side == side]
        zones.append({"id": f"side-{side}", "polygons": polys})
    objectives = [{"id": m.id, "position": dict(zip(("x_inches", "z_inches"), frame(m.at[0] * k, m.at[1] * k))),
                   "range_inches": 3.0} for m in mapfile.objectives]
    layout = {"table_width_inches": _r(W), "table_depth_inches": _r(H), "placed_features": features,
              "rotationally_symmetric": False,
              "mission": {"name": mapfile.name, "rotationally_symmetric": False, "objectives": objectives,
                          "deployment_zones": zones},
              "terrain_objects": objects, "visibility": None}
    return layout, _notes(mapfile, counts)


def _notes(mapfile, counts: dict) -> list[str]:
    notes = [f"{len(mapfile.pieces)} pieces as terrain objects ({counts['polygons']} polygon shapes, the rest "
             "rectangular prisms); kinds and flags as skirmish: tags"]
    if counts["circles"]:
        notes.append(f"{counts['circles']} circles written as regular polygons (rim within 0.005\")")
    if counts["walls"]:
        notes.append(f"{counts['walls']} walls written as rectangles")
    if mapfile.unit != "in":
        notes.append(f"lengths converted from {mapfile.unit} to inches")
    if counts["locked"]:
        notes.append(f"{counts['locked']} locked pieces: Carltographer's layout has no lock")
    if mapfile.evac_points:
        notes.append(f"{len(mapfile.evac_points)} evacuation points left out: Carltographer has none")
    notes.append("not carried: the map's id, description and suits, piece and objective names")
    return notes
