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

The commands live in modules by family, all re-exported here (``from engine.workshop import edits
as E`` then ``E.Move``, ``E.EditStack``...): ``items`` (keys, item access, ids), ``command``
(``Edit``, ``Compound``), ``transforms`` (move, turn, scale, set shapes), ``vertices`` (corners), ``pieces``
(add, delete, fields, group, lock), ``markers``, ``zones``, ``whole_map`` (map fields, unit),
``symmetry`` (twins), ``validity`` and ``stack`` (``EditStack``).
"""
from __future__ import annotations

from .. import shapes as S  # noqa: F401 - E.S: the generator mirrors shapes through it
from .command import Compound, Edit
from .items import (
                    MAP_FIELDS,
                    MARKER_GROUPS,
                    PIECE_FIELDS,
                    PROPS,
                    TOLERANCE,
                    EditRefused,
                    Key,
                    geometry,
                    geometry_bounds,
                    get_piece,
                    keys_of,
                    map_geometry,
                    new_id,
                    piece_index,
                    selection_bounds,
                    selection_centre,
                    with_geometry,
)
from .markers import AddMarkers, DeleteMarkers, SetMarkerFields
from .pieces import AddPieces, DeletePieces, SetFields, group, lock, set_field, ungroup
from .stack import EditStack, Step, default_props
from .symmetry import counterpart, project_move, twins_of, unmatched, with_twins
from .transforms import Move, Rotate, Scale, SetGeometry
from .validity import draft_problems, save_problems
from .vertices import DeleteVertex, InsertVertex, MoveVertex
from .whole_map import ConvertUnit, ReplaceMap, SetMap
from .zones import AddZones, DeleteZones, SetZoneSide

__all__ = [
    "AddMarkers", "AddPieces", "AddZones", "Compound", "ConvertUnit", "DeleteMarkers", "DeletePieces",
    "DeleteVertex", "DeleteZones", "Edit", "EditRefused", "EditStack", "InsertVertex", "Key",
    "MAP_FIELDS", "MARKER_GROUPS", "Move", "MoveVertex", "PIECE_FIELDS", "PROPS", "ReplaceMap", "Rotate",
    "Scale", "SetFields", "SetGeometry", "SetMap", "SetMarkerFields", "SetZoneSide", "Step", "TOLERANCE",
    "counterpart", "default_props", "draft_problems", "geometry", "geometry_bounds", "get_piece", "group",
    "keys_of", "lock", "map_geometry", "new_id", "piece_index", "project_move", "save_problems",
    "selection_bounds", "selection_centre", "set_field", "twins_of", "ungroup", "unmatched",
    "with_geometry", "with_twins", "S"
]
