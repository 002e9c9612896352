"""Where what the editor's panels and tools return is applied, in one place: ``perform`` takes a
panel's answer (None, ``TAKEN``, a ``Command``, or a list of edits and intents) and
``apply_all`` does a list in order: edits through the document's stack (``apply``; a refused
one drops the edits and the selection after it), ``Choose`` (the selection), ``Lift`` (the
table image without the dragged items), ``Say`` (the status line) and ``Command``\\ s. Also the
table's coordinates for the rest of the scene, and the drag's ends.

A part of ``EditorScene`` (``game/scenes/editor.py``).
"""
from __future__ import annotations

import pygame

from engine.workshop import edits as E
from engine.workshop import snapping as SN
from game.editor.drag_tools import MoveTool, with_groups
from game.editor.place_tools import RunTool
from game.editor.pointer import item_at, without
from game.kit.edit_tool import Choose, EditContext, Lift
from game.kit.intents import Command, Say
from game.kit.panel import TAKEN

COARSE_EVERY_S = 0.3          # a coarse analysis of the dragged layout at most this often


class TableInputMixin:
    """``perform`` / ``apply_all`` and the table's coordinates of ``EditorScene``."""

    # --- applying what comes back --------------------------------------------------------
    def perform(self, got) -> None:
        if got is None or got is TAKEN:
            return
        if isinstance(got, Command):
            self.command(got.name, got.arg)
        elif isinstance(got, list):
            self.apply_all(got)
        else:
            self.apply(got)

    def apply_all(self, items) -> bool:
        """Apply a list in order; False if an edit in it was refused."""
        ok, self._quiet = True, False
        for x in items or ():
            if isinstance(x, Command):
                self.command(x.name, x.arg)
            elif isinstance(x, Say):
                self.say(x.text, error=x.warn)
            elif not ok:
                continue                       # a refused edit: what it would have chosen is moot
            elif isinstance(x, Choose):
                keys = [("zone", len(self.map.deployment) - 1) if k == ("zone", -1) else k for k in x.keys]
                self.selection = with_groups(self.map, keys) if x.grouped else keys
                self._refresh_form()
            elif isinstance(x, Lift):
                self.renderer.set_map(without(self.map, x.keys))
                self._lifted_from = self.map
            else:
                ok = self.apply(x, quiet=self._quiet)
        return ok

    def cmd_quiet(self, on):
        self._quiet = bool(on)

    def cmd_drag_moved(self, _):
        """A coarse analysis of the layout being dragged, at most every ``COARSE_EVERY_S``."""
        d = self.drag
        if d is None or not d.active or self.t - self._coarse_at < COARSE_EVERY_S or self.analysis.busy:
            return
        if isinstance(d, MoveTool):
            try:
                m = self.stack.preview(d.current_edit())
            except E.EditRefused:
                return
        elif d.preview is not None and d.preview is not self._coarse_sent:
            m = self._coarse_sent = d.preview
        else:
            return
        self._request_analysis(coarse=True, mapfile=m)

    def cmd_drag_over(self, _):
        """The drag is over: if nothing changed the map, the table image gets its items back."""
        if self._lifted_from is not None:
            if self.map is self._lifted_from:
                self.renderer.set_map(self.map)
            self._lifted_from = None

    def cmd_cancel_drag(self, _):
        """Esc while dragging: nothing changes."""
        self.table.select.cancel()
        self._lifted_from = None
        self.renderer.set_map(self.map)
        self.say("drag cancelled")

    # --- the tools ------------------------------------------------------------------------
    def context(self) -> EditContext:
        """What a tool may read, now."""
        return EditContext(map=self.map, stack=self.stack, selection=tuple(self.selection), grid=self.grid,
                           snap_on=self.snap_on, scale=self.cam.scale, to_screen=self.table.screen,
                           pick=self.item_at, vertex_mode=self.vertex_mode, t=self.t)

    def tool_key(self, tool, key, mods) -> bool:
        """Give a key to ``tool``; True if it took it."""
        out = self.table.given(tool).key(key, mods)
        if out is None:
            return False
        self.apply_all(out)
        if tool is self.tool and tool.done:
            self._end_tool()
        return True

    def _end_tool(self) -> None:
        self.tool = None
        self.palette.clear()

    def escape_tool(self) -> bool:
        """Esc for the placing tool: a run's points go first, then the tool; False if none."""
        if isinstance(self.tool, RunTool) and self.tool.points:
            self.tool.cancel()
            return True
        if self.tool is not None:
            self._end_tool()
            return True
        return False

    def _handles(self):
        return self.table.given(self.select).handles()

    def _vertex_target(self):
        return self.table.given(self.select).vertex_target()

    def _selection_box(self):
        if not self.selection:
            return None
        try:
            return E.selection_bounds(self.map, self.selection)
        except E.EditRefused:
            return None

    # --- coordinates and picking -----------------------------------------------------------
    def _local(self, pos):
        return self.table.local(pos)

    def _world(self, pos):
        return self.table.world(pos)

    def to_screen(self, x, y):
        """Map units to window pixels (for tests: where to click)."""
        sx, sy = self.cam.to_screen(x, y)
        return round(sx) + self.table_rect.x, round(sy) + self.table_rect.y

    def _px(self, n: float) -> float:
        """``n`` screen pixels in map units."""
        return n / self.cam.scale

    def item_at(self, world):
        return item_at(self.map, self.renderer, world, self.cam.scale)

    def with_groups(self, keys) -> list:
        return with_groups(self.map, keys)

    def _snap_point(self, w, mods):
        if mods & pygame.KMOD_ALT or not self.snap_on:
            return w
        return (SN.snap(w[0], self.grid), SN.snap(w[1], self.grid))
