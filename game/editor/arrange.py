"""The editor's commands that arrange the selected items: group, lock, turn, nudge.

Plain functions of the editor (``ed``) named in ``commands.COMMANDS``: each returns the edits for
``ed.apply_all``, or None (nothing selected).
"""
from __future__ import annotations

import pygame

from engine.workshop import edits as E
from engine.workshop import snapping as SN
from game.kit.intents import Command


def _piece_ids(ed) -> list:
    return [i for kind, i in ed.state.selection if kind == "piece"]


def group(ed, ungroup):
    ids = _piece_ids(ed)
    if not ids:
        return None
    if ungroup:
        return [E.ungroup(ids)]
    name = E.new_id({p.group for p in ed.map.pieces if p.group}, "group")
    return [E.group(ids, name)]


def lock(ed, _=None):
    ids = _piece_ids(ed)
    if not ids:
        return None
    on = not all(E.get_piece(ed.map, i).locked for i in ids)
    return [E.lock(ids, on)]


def turn(ed, back):
    tool = ed.table.tool
    if tool is not None:
        ed.input.tool_key(tool, pygame.K_r, pygame.KMOD_SHIFT if back else 0)
        return None
    if ed.state.selection:
        return [E.Rotate(tuple(ed.state.selection), -SN.ANGLE_STEP if back else SN.ANGLE_STEP)]
    return None


def nudge(ed, arg):
    sx, sy, n = arg
    if not ed.state.selection:
        return None
    step = ed.state.grid * n
    return [Command("quiet", True), E.Move(tuple(ed.state.selection), sx * step, sy * step)]
