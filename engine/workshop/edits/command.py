"""The edit command's interface, and ``Compound``: several edits as one undo step."""
from __future__ import annotations

from dataclasses import dataclass

from engine.data.maps import MapFile


class Edit:
    """A change to a map. Subclasses are frozen dataclasses."""

    def apply(self, m: MapFile) -> MapFile:
        raise NotImplementedError

    def inverse(self, m: MapFile) -> Edit:
        """The edit that turns ``self.apply(m)`` back into ``m`` exactly."""
        raise NotImplementedError

    def geometry_keys(self, m: MapFile) -> set:
        """Items whose place or shape this edit changes, or which it deletes (locks refuse it)."""
        return set()

    def describe(self) -> str:
        return type(self).__name__


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
