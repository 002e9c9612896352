"""Where what the editor's panels and tools return is applied, in one place: ``perform`` takes a
panel's answer (None, ``TAKEN``, a ``Command``, or a list of edits and intents) and
``apply_all`` does a list in order: edits through the document's stack (``ed.apply``; a refused
one drops the edits and the selection after it), ``Choose`` (the selection), ``Lift`` (the
table image without the dragged items), ``Say`` (the status line) and ``Command``\\ s. Also the
tools' keys, the drag's ends (the commands at the foot of this module) and snapping a point.

A part ``EditorScene`` owns (``TableInput(editor)``): it writes ``lifted_from``, ``coarse_sent``
and ``quiet`` of the editor's state (``state.py``).
"""
from __future__ import annotations

import pygame

from engine.workshop import edits as E
from engine.workshop import snapping as SN
from game.editor import selection
from game.editor.drag_tools import MoveTool, with_groups
from game.editor.place_tools import RunTool
from game.editor.pointer import without
from game.kit.edit_tool import Choose, Lift
from game.kit.intents import Command, Say
from game.kit.panel import TAKEN

COARSE_EVERY_S = 0.3          # a coarse analysis of the dragged layout at most this often


class TableInput:
    def __init__(self, editor):
        self.ed = editor
        self.state = editor.state

    # --- applying what comes back --------------------------------------------------------
    def perform(self, got) -> None:
        if got is None or got is TAKEN:
            return
        if isinstance(got, Command):
            self.ed.command(got.name, got.arg)
        elif isinstance(got, list):
            self.apply_all(got)
        else:
            self.ed.apply(got)

    def apply_all(self, items) -> bool:
        """Apply a list in order; False if an edit in it was refused."""
        ed, st = self.ed, self.state
        ok, st.quiet = True, False
        for x in items or ():
            if isinstance(x, Command):
                ed.command(x.name, x.arg)
            elif isinstance(x, Say):
                ed.say(x.text, error=x.warn)
            elif not ok:
                continue                       # a refused edit: what it would have chosen is moot
            elif isinstance(x, Choose):
                keys = [("zone", len(ed.map.deployment) - 1) if k == ("zone", -1) else k for k in x.keys]
                selection.choose(ed, with_groups(ed.map, keys) if x.grouped else keys)
            elif isinstance(x, Lift):
                st.renderer.set_map(without(ed.map, x.keys))
                st.lifted_from = ed.map
            else:
                ok = ed.apply(x, quiet=st.quiet)
        return ok

    # --- the tools ------------------------------------------------------------------------
    def tool_key(self, tool, key, mods) -> bool:
        """Give a key to ``tool``; True if it took it."""
        out = self.ed.table.given(tool).key(key, mods)
        if out is None:
            return False
        self.apply_all(out)
        if tool is self.ed.table.tool and tool.done:
            self.end_tool()
        return True

    def end_tool(self) -> None:
        self.ed.table.tool = None
        self.ed.catalog_panel.palette.clear()

    def escape_tool(self) -> bool:
        """Esc for the placing tool: a run's points go first, then the tool; False if none."""
        tool = self.ed.table.tool
        if isinstance(tool, RunTool) and tool.points:
            tool.cancel()
            return True
        if tool is not None:
            self.end_tool()
            return True
        return False

    def handles(self):
        return self.ed.table.given(self.ed.table.select).handles()

    def vertex_target(self):
        return self.ed.table.given(self.ed.table.select).vertex_target()

    def selection_box(self):
        if not self.state.selection:
            return None
        try:
            return E.selection_bounds(self.ed.map, self.state.selection)
        except E.EditRefused:
            return None

    def snap_point(self, w, mods):
        if mods & pygame.KMOD_ALT or not self.state.snap_on:
            return w
        return (SN.snap(w[0], self.state.grid), SN.snap(w[1], self.state.grid))


# --- the drag's commands (``commands.COMMANDS``) ---------------------------------------------------
def quiet(ed, on) -> None:
    ed.state.quiet = bool(on)


def enter(ed, _=None) -> None:
    if ed.table.tool is not None:
        ed.input.tool_key(ed.table.tool, pygame.K_RETURN, 0)


def drag_moved(ed, _=None) -> None:
    """A coarse analysis of the layout being dragged, at most every ``COARSE_EVERY_S``."""
    st = ed.state
    d = ed.table.select.sub
    if d is None or not d.active or st.clock - st.coarse_at < COARSE_EVERY_S or ed.analysis.runner.busy:
        return
    if isinstance(d, MoveTool):
        try:
            m = ed.stack.preview(d.current_edit())
        except E.EditRefused:
            return
    elif d.preview is not None and d.preview is not st.coarse_sent:
        m = st.coarse_sent = d.preview
    else:
        return
    ed.analysis.request(coarse=True, mapfile=m)


def drag_over(ed, _=None) -> None:
    """The drag is over: if nothing changed the map, the table image gets its items back."""
    st = ed.state
    if st.lifted_from is not None:
        if ed.map is st.lifted_from:
            st.renderer.set_map(ed.map)
        st.lifted_from = None


def cancel_drag(ed, _=None) -> None:
    """Esc while dragging: nothing changes."""
    ed.table.select.cancel()
    ed.state.lifted_from = None
    ed.state.renderer.set_map(ed.map)
    ed.say("drag cancelled")
