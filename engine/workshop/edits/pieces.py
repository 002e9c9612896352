"""Piece commands: add, delete, set fields (rename, retype, properties), and the field edits
that group, ungroup, lock and unlock pieces."""
from __future__ import annotations

from dataclasses import dataclass

from .command import Edit
from .items import PIECE_FIELDS, EditRefused, _names, inserted, piece_index, refuse_missing, refuse_taken


@dataclass(frozen=True)
class AddPieces(Edit):
    """Insert pieces (at the given list positions, ascending; else at the end)."""
    pieces: tuple
    at: tuple | None = None

    def apply(self, m):
        refuse_taken((p.id for p in m.pieces), (p.id for p in self.pieces), "a piece")
        return m.model_copy(update={"pieces": inserted(m.pieces, self.pieces, self.at)})

    def inverse(self, m):
        return DeletePieces(tuple(p.id for p in self.pieces))

    def describe(self):
        return f"add {_names(('piece', p.id) for p in self.pieces)}"


@dataclass(frozen=True)
class DeletePieces(Edit):
    ids: tuple

    def apply(self, m):
        gone = set(self.ids)
        refuse_missing(gone, (p.id for p in m.pieces), "piece")
        return m.model_copy(update={"pieces": [p for p in m.pieces if p.id not in gone]})

    def inverse(self, m):
        gone = set(self.ids)
        at = tuple(i for i, p in enumerate(m.pieces) if p.id in gone)
        return AddPieces(tuple(m.pieces[i] for i in at), at)

    def geometry_keys(self, m):
        return {("piece", i) for i in self.ids}

    def describe(self):
        return f"delete {_names(('piece', i) for i in self.ids)}"


@dataclass(frozen=True)
class SetFields(Edit):
    """Set fields of pieces: ``((id, field, value), ...)`` (a field set to None takes the kind's
    default again). Renaming a piece (``id``) is allowed when the new id is free."""
    changes: tuple

    def apply(self, m):
        idx = piece_index(m)
        new = list(m.pieces)
        for pid, name, value in self.changes:
            if name not in PIECE_FIELDS:
                raise EditRefused(f"a piece has no field {name!r}")
            if pid not in idx:
                raise EditRefused(f"no piece {pid!r}")
            i = idx[pid]
            if name == "id":
                if value in idx and idx[value] != i:
                    raise EditRefused(f"a piece {value!r} is already on the map")
                del idx[pid]
                idx[value] = i
            new[i] = new[i].model_copy(update={name: value})
        return m.model_copy(update={"pieces": new})

    def inverse(self, m):
        # undo in reverse order, from the values each change found (a piece renamed and then
        # changed is found under its new id)
        state = {p.id: p for p in m.pieces}
        back = []
        for pid, name, value in self.changes:
            p = state.get(pid)
            if p is None:
                raise EditRefused(f"no piece {pid!r}")
            back.append((value if name == "id" else pid, name, getattr(p, name)))
            state.pop(pid)
            p = p.model_copy(update={name: value})
            state[p.id] = p
        return SetFields(tuple(reversed(back)))

    def geometry_keys(self, m):
        # renaming or retyping a locked piece is still a change the lock refuses; locking and
        # unlocking are not (or a locked piece could never be unlocked)
        return {("piece", pid) for pid, name, _ in self.changes if name != "locked"}

    def describe(self):
        return "; ".join(f"set {name} of {pid} to {value!r}" for pid, name, value in self.changes)


def set_field(ids, name: str, value) -> SetFields:
    return SetFields(tuple((pid, name, value) for pid in ids))


def group(ids, name: str) -> SetFields:
    return set_field(ids, "group", name)


def ungroup(ids) -> SetFields:
    return set_field(ids, "group", None)


def lock(ids, on: bool = True) -> SetFields:
    return set_field(ids, "locked", True if on else None)
