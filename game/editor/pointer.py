"""The editor's table input: the pointer's events turned into table points and given to the
active tool (a placing tool chosen in the palette, else the select tool with its drags); what a
tool returns (edits, ``Choose``, ``Lift``, ``Say``) is applied here, in one place
(``apply_all``), edits through the document's stack. Panning and zooming are the view's, not a
tool's.

A part of ``EditorScene`` (``game/scenes/editor.py``): it reads the scene's ``cam``,
``table_rect``, ``renderer`` and state and applies through its ``apply``.
"""
from __future__ import annotations

import math

import pygame

from engine.workshop import edits as E
from engine.workshop import snapping as SN
from game.editor.drag_tools import MoveTool, SelectTool, with_groups
from game.editor.layout import PICK_PX
from game.editor.place_tools import RunTool, tool_for
from game.kit.edit_tool import Choose, EditContext, Lift
from game.kit.intents import Say

COARSE_EVERY_S = 0.3          # a coarse analysis of the dragged layout at most this often


class PointerMixin:
    """Coordinates, picking, the active tool and the application of what it returns."""

    # --- coordinates and picking -----------------------------------------------------------
    def _local(self, pos):
        return pos[0] - self.table_rect.x, pos[1] - self.table_rect.y

    def _world(self, pos):
        return self.cam.to_world(*self._local(pos))

    def to_screen(self, x, y):
        """Map units to window pixels (for tests: where to click)."""
        sx, sy = self.cam.to_screen(x, y)
        return round(sx) + self.table_rect.x, round(sy) + self.table_rect.y

    def _screen_f(self, x, y):
        sx, sy = self.cam.to_screen(x, y)
        return sx + self.table_rect.x, sy + self.table_rect.y

    def _px(self, n: float) -> float:
        """``n`` screen pixels in map units."""
        return n / self.cam.scale

    def item_at(self, world):
        x, y = world
        r = max(20.0 / self.map.mm_per_unit, self._px(PICK_PX))
        for grp, lst in (("objective", self.map.objectives), ("evac", self.map.evac_points)):
            for mk in lst:
                if math.dist(mk.at, (x, y)) <= r:
                    return (grp, mk.id)
        g = self.renderer.piece_at(x, y)
        if g is not None:
            return ("piece", g.piece.id)
        tol = self._px(PICK_PX)
        for i, z in enumerate(self.map.deployment):
            pts = z.points
            for j in range(len(pts)):
                d, _ = SN.seg_point((x, y), pts[j], pts[(j + 1) % len(pts)])
                if d <= tol:
                    return ("zone", i)
        return None

    def with_groups(self, keys) -> list:
        return with_groups(self.map, keys)

    def _snap_point(self, w, mods):
        if mods & pygame.KMOD_ALT or not self.snap_on:
            return w
        return (SN.snap(w[0], self.grid), SN.snap(w[1], self.grid))

    # --- the tools ------------------------------------------------------------------------
    def context(self) -> EditContext:
        """What a tool may read, now."""
        return EditContext(map=self.map, stack=self.stack, selection=tuple(self.selection), grid=self.grid,
                           snap_on=self.snap_on, scale=self.cam.scale, to_screen=self._screen_f,
                           pick=self.item_at, vertex_mode=self.vertex_mode, t=self.t)

    def _tool(self, tool):
        tool.ctx = self.context()
        return tool

    @property
    def drag(self):
        """The drag under way (a ``DragTool``), or None; setting None drops it."""
        return self.select.sub

    @drag.setter
    def drag(self, value) -> None:
        self.select.sub = value

    def _handles(self):
        return self._tool(self.select).handles()

    def _selection_box(self):
        if not self.selection:
            return None
        try:
            return E.selection_bounds(self.map, self.selection)
        except E.EditRefused:
            return None

    def _vertex_target(self):
        return self._tool(self.select).vertex_target()

    def _pick_palette(self, text: str) -> None:
        action = self.palette.action_of(text)
        if action is None:
            self.palette.clear()
            return
        if action[0] == "mission":
            self.apply(("mission", action[1]))
            self.palette.clear()
            return
        self.tool = tool_for(action, self.catalog, self.context())
        self.say(f"{text}: {self.tool.hint}")

    def _end_tool(self) -> None:
        self.tool = None
        self.palette.clear()

    def tool_key(self, tool, key, mods) -> bool:
        """Give a key to ``tool``; True if it took it."""
        out = self._tool(tool).key(key, mods)
        if out is None:
            return False
        self.apply_all(out)
        if tool is self.tool and tool.done:
            self._end_tool()
        return True

    def apply_all(self, items, quiet: bool = False) -> bool:
        """Apply what a tool returned, in order: edits through the stack (a refused one drops
        what follows), then the selection it chose, the items it lifted, the words it said."""
        for x in items or ():
            if isinstance(x, Choose):
                keys = [("zone", len(self.map.deployment) - 1) if k == ("zone", -1) else k for k in x.keys]
                self.selection = with_groups(self.map, keys) if x.grouped else keys
                self._refresh_form()
            elif isinstance(x, Lift):
                self.renderer.set_map(_without(self.map, x.keys))
                self._lifted = True
            elif isinstance(x, Say):
                self.say(x.text, error=x.warn)
            elif not self.apply(x, quiet=quiet):
                return False
        return True

    # --- the mouse --------------------------------------------------------------------------
    def _mouse(self, ev) -> None:
        if ev.type == pygame.MOUSEWHEEL:
            if self.table_rect.collidepoint(self.mouse):
                self.cam.zoom_at(1.15 ** ev.y, *self._local(self.mouse))
            return
        pos = ev.pos
        self.mouse = pos
        mods = pygame.key.get_mods()
        if ev.type == pygame.MOUSEMOTION:
            if self.pan is not None:
                self.cam.pan(pos[0] - self.pan[0], pos[1] - self.pan[1])
                self.pan = pos
            elif self.select.sub is not None:
                self.apply_all(self._tool(self.select).drag(self._world(pos), pos, mods))
                self._coarse_drag()
            return
        inside = self.table_rect.collidepoint(pos)
        if ev.type == pygame.MOUSEBUTTONDOWN:
            if not inside:
                return
            w = self._world(pos)
            if self.tool is not None and ev.button in (1, 3):
                out = self._tool(self.tool).press(w, pos, ev.button, mods)
                if out is not None:
                    self.apply_all(out)
                    if self.tool is not None and self.tool.done:
                        self._end_tool()
                    return
            if ev.button in (2, 3):
                self.pan = pos
                return
            if ev.button == 1 and self.tool is None:
                self.apply_all(self._tool(self.select).press(w, pos, ev.button, mods))
            return
        if ev.type == pygame.MOUSEBUTTONUP:
            if self.pan is not None:
                self.pan = None
                return
            if self.select.sub is None:
                return
            kind = self.select.sub.kind
            before = self.map
            self.apply_all(self._tool(self.select).release(self._world(pos), pos, ev.button, mods),
                           quiet=kind == "move")
            self._drop_lift(before)

    def _drop_lift(self, before) -> None:
        """The drag is over: if nothing changed the map, the table image gets its items back."""
        if getattr(self, "_lifted", False):
            self._lifted = False
            if self.map is before:
                self.renderer.set_map(self.map)

    def _coarse_drag(self) -> None:
        """A coarse analysis of the layout being dragged, at most every ``COARSE_EVERY_S``."""
        d = self.select.sub
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

    def cancel_drag(self) -> None:
        """Esc while dragging: nothing changes, the table image gets its items back."""
        self.select.cancel()
        self._lifted = False
        self.renderer.set_map(self.map)

    def escape_tool(self) -> bool:
        """Esc for the placing tool: a run's points go first, then the tool; False if none."""
        if isinstance(self.tool, RunTool) and self.tool.points:
            self.tool.cancel()
            return True
        if self.tool is not None:
            self._end_tool()
            return True
        return False


def _without(m, keys):
    """``m`` without the items ``keys`` (what the table image shows while they are dragged)."""
    gone = {k[1] for k in keys if k[0] == "piece"}
    objs = {k[1] for k in keys if k[0] == "objective"}
    evac = {k[1] for k in keys if k[0] == "evac"}
    zones = {k[1] for k in keys if k[0] == "zone"}
    return m.model_copy(update={
        "pieces": [p for p in m.pieces if p.id not in gone],
        "objectives": [o for o in m.objectives if o.id not in objs],
        "evac_points": [o for o in m.evac_points if o.id not in evac],
        "deployment": [z for i, z in enumerate(m.deployment) if i not in zones]})
