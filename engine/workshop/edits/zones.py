"""Deployment zone commands: add, delete, give a zone to the other side."""
from __future__ import annotations

from dataclasses import dataclass

from .command import Edit
from .items import EditRefused, _names, inserted


@dataclass(frozen=True)
class AddZones(Edit):
    zones: tuple
    at: tuple | None = None

    def apply(self, m):
        return m.model_copy(update={"deployment": inserted(m.deployment, self.zones, self.at)})

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
