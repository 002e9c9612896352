"""The edit stack: the map being edited, undo and redo, and the one place the editor's rules are
applied to every edit (symmetry twins, locks, validity)."""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.data.maps import KIND_DEFAULTS, MapFile

from .command import Edit
from .items import EditRefused, _names
from .symmetry import with_twins
from .validity import draft_problems


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
        return self._shift(self.done, self.undone, undo=True)

    def redo(self) -> Edit | None:
        return self._shift(self.undone, self.done, undo=False)

    def _shift(self, take: list, give: list, undo: bool) -> Edit | None:
        """Undo (a step from ``done`` to ``undone``, applying its inverse) or redo (back, applying
        its edit); either way the map's version is then the last done step's."""
        if not take:
            return None
        step = take.pop()
        self.map = (step.inverse if undo else step.edit).apply(self.map)
        give.append(step)
        self.version = self.done[-1].version if self.done else self.base_version
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
