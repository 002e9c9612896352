"""Marker commands: objectives and evacuation points added, deleted, renamed."""
from __future__ import annotations

from dataclasses import dataclass

from .command import Compound, Edit
from .items import MARKER_GROUPS, EditRefused, _marker_list, _name, _names, inserted, refuse_missing, refuse_taken


@dataclass(frozen=True)
class AddMarkers(Edit):
    """Objectives (``group="objective"``) or evacuation points (``"evac"``)."""
    group: str
    markers: tuple
    at: tuple | None = None

    def apply(self, m):
        lst = _marker_list(m, self.group)
        refuse_taken((mk.id for mk in lst), (mk.id for mk in self.markers), f"an {self.group}")
        return m.model_copy(update={MARKER_GROUPS[self.group]: inserted(lst, self.markers, self.at)})

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
            refuse_missing(gone, (mk.id for mk in lst), group)
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
