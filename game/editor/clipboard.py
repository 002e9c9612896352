"""The editor's clipboard: copy, paste (at the pointer, snapped, or beside the originals) and
duplicate. The one writer of ``clipboard`` in the editor's state (``state.py``).

Plain functions of the editor (``ed``) named in ``commands.COMMANDS``: each returns the edits and
intents for ``ed.apply_all`` (the pasted pieces added, then chosen), or None.
"""
from __future__ import annotations

import pygame

from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop import snapping as SN
from game.kit.edit_tool import Choose
from game.kit.intents import Say


def _selected_pieces(ed) -> list:
    return [E.get_piece(ed.map, k[1]) for k in ed.state.selection if k[0] == "piece"]


def copy(ed, _=None):
    st = ed.state
    st.clipboard = _selected_pieces(ed)
    return [Say(f"copied {len(st.clipboard)} piece(s)" if st.clipboard else "select pieces to copy",
                not st.clipboard)]


def paste(ed, _=None):
    inside = ed.table_rect.collidepoint(ed.table.mouse)
    return paste_pieces(ed, ed.state.clipboard, at=ed.world(ed.table.mouse) if inside else None)


def duplicate(ed, _=None):
    pieces = _selected_pieces(ed)
    if not pieces:
        return None
    g = ed.state.grid
    return paste_pieces(ed, pieces, offset=(2 * g, -2 * g))


def paste_pieces(ed, pieces, at=None, offset=None):
    """``pieces`` added with new ids (and new groups): moved by ``offset``, or centred on ``at``
    (snapped: the lower left corner on the grid), or two grid steps up and right; then chosen."""
    st = ed.state
    if not pieces:
        return [Say("nothing to paste", True)]
    b = S.bounds_of(S.bounds(p.shape) for p in pieces)
    if offset is not None:
        dx, dy = offset
    elif at is not None:
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        tx, ty = ed.input.snap_point(at, pygame.key.get_mods())
        dx, dy = tx - cx, ty - cy
        if st.snap_on:                 # the lower left corner on the grid
            dx = SN.snap(b[0] + dx, st.grid) - b[0]
            dy = SN.snap(b[1] + dy, st.grid) - b[1]
    else:
        dx = dy = 2 * st.grid
    taken = {p.id for p in ed.map.pieces}
    groups = {}
    gtaken = {p.group for p in ed.map.pieces if p.group}
    new = []
    for p in pieces:
        pid = E.new_id(taken, p.id)
        taken.add(pid)
        upd = {"id": pid, "shape": S.translate(p.shape, dx, dy), "locked": None}
        if p.group:
            if p.group not in groups:
                groups[p.group] = E.new_id(gtaken, p.group)
                gtaken.add(groups[p.group])
            upd["group"] = groups[p.group]
        new.append(p.model_copy(update=upd))
    return [E.AddPieces(tuple(new)), Choose(tuple(("piece", p.id) for p in new))]
