"""The editor's keys as a panel (``game.kit.Panel`` with ``wants_keys``): a key press in, a
``Command`` intent out (``command_for_key``, a pure table); the scene's ``command`` does it.
The keys of a focused form field, a dialog or a drag under way never come here: those panels
are asked first and take them."""
from __future__ import annotations

import pygame

from game.kit.intents import Command
from game.kit.panel import Panel

CTRL_KEYS = {pygame.K_y: "redo", pygame.K_o: "open", pygame.K_n: "new", pygame.K_c: "copy",
             pygame.K_v: "paste", pygame.K_d: "duplicate", pygame.K_a: "select_all"}
PLAIN_KEYS = {pygame.K_DELETE: "delete", pygame.K_BACKSPACE: "backspace", pygame.K_INSERT: "insert_vertex",
              pygame.K_ESCAPE: "escape", pygame.K_RETURN: "enter", pygame.K_l: "lock", pygame.K_v: "vertex_mode",
              pygame.K_m: "cycle_symmetry", pygame.K_g: "snap", pygame.K_o: "cycle_overlay", pygame.K_f: "fit",
              pygame.K_HOME: "fit", pygame.K_F1: "help"}
ARROWS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_DOWN: (0, -1), pygame.K_UP: (0, 1)}


def command_for_key(key: int, mod: int) -> Command | None:
    """The command a key press asks for (Ctrl and Shift as ``mod`` says), or None."""
    ctrl, shift = bool(mod & pygame.KMOD_CTRL), bool(mod & pygame.KMOD_SHIFT)
    if ctrl:
        if key == pygame.K_z:
            return Command("redo" if shift else "undo")
        if key == pygame.K_s:
            return Command("saveas" if shift else "save")
        if key == pygame.K_g:
            return Command("group", shift)            # Shift: ungroup
        if key in CTRL_KEYS:
            return Command(CTRL_KEYS[key])
    if key == pygame.K_r:
        return Command("turn", shift)                 # Shift: the other way
    if key in ARROWS:
        return Command("nudge", (*ARROWS[key], 5 if shift else 1))
    if key in PLAIN_KEYS:
        return Command(PLAIN_KEYS[key])
    return None


class KeysPanel(Panel):
    """The screen's keyboard shortcuts (no rect: it takes no pointer event)."""

    wants_keys = True

    def contains(self, pos) -> bool:
        return False

    def handle(self, ev):
        if ev.type != pygame.KEYDOWN:
            return None
        return command_for_key(ev.key, ev.mod)
