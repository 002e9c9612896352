"""The editor's default tool: a click selects (with its group; Shift adds or removes), a press
on the turn or scale handle of the selection hands the drag to ``RotateTool`` / ``ScaleTool``, on
a corner to ``VertexTool``, on an item to ``MoveTool`` (after selecting it), on the empty table
to ``BoxSelectTool`` (``drag_tools``); Insert and Backspace add and remove corners."""
from __future__ import annotations

import math

import pygame

from engine.data.maps import PolygonShape
from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop import snapping as SN
from game.editor.drag_tools import (
    BoxSelectTool,
    DragTool,
    MoveTool,
    RotateTool,
    ScaleTool,
    VertexTool,
    is_free,
    with_groups,
)
from game.editor.layout import HANDLE_PX
from game.kit.edit_tool import Choose, EditTool
from game.kit.intents import Say


class SelectTool(EditTool):
    """The default tool: a click selects (with its group; Shift adds or removes), and a press
    hands the drag to the tool the pointer is on (see the module's doc). ``sub`` is that drag."""

    name = "select"
    cursor_hint = "click to select, drag to move; drag the handles to turn or scale"

    def __init__(self, ctx=None):
        super().__init__(ctx)
        self.sub: DragTool | None = None
        self.xy, self.pos = (0.0, 0.0), (-1, -1)

    # --- the selection's handles and corners (screen pixels) -------------------------------
    def handles(self):
        """Screen positions of the turn and scale handles of the selection, or None."""
        ctx = self.ctx
        if not ctx.selection:
            return None
        try:
            b = E.selection_bounds(ctx.map, list(ctx.selection))
        except E.EditRefused:
            return None
        x0, y0 = ctx.to_screen(b[0], b[3])
        x1, y1 = ctx.to_screen(b[2], b[1])
        return ((x0 + x1) / 2, y0 - 22), (x1 + 8, y1 + 8)

    def vertex_target(self):
        """(key, vertices) whose corners can be dragged: one selected piece in corner mode, or a
        selected zone."""
        ctx = self.ctx
        if len(ctx.selection) != 1:
            return None
        k = ctx.selection[0]
        if k[0] == "zone":
            return k, list(E.geometry(ctx.map, k))
        if k[0] == "piece" and ctx.vertex_mode:
            return k, S.vertices(E.geometry(ctx.map, k))
        return None

    def vertex_at(self, pos):
        vt = self.vertex_target()
        if vt is None:
            return None
        k, pts = vt
        for i, p in enumerate(pts):
            sx, sy = self.ctx.to_screen(*p)
            if math.dist((round(sx), round(sy)), pos) <= HANDLE_PX + 2:
                return k, i
        return None

    # --- input --------------------------------------------------------------------------------
    def press(self, xy, pos, button, mods):
        if button != 1:
            return None
        ctx, xy = self.ctx, tuple(xy)
        v = self.vertex_at(pos)
        if v is not None:
            return self._start(VertexTool(ctx, xy, pos, key=v[0], index=v[1]))
        hd = self.handles()
        if hd is not None:
            for at, cls in zip(hd, (RotateTool, ScaleTool)):
                if math.dist(at, pos) <= HANDLE_PX + 3:
                    return self._start(cls(ctx, xy, pos, centre=E.selection_centre(ctx.map, list(ctx.selection))))
        hit = ctx.pick(xy)
        if hit is None:
            self.sub = BoxSelectTool(ctx, xy, pos, add=bool(mods & pygame.KMOD_SHIFT))
            return []
        if mods & pygame.KMOD_SHIFT:
            grp = with_groups(ctx.map, [hit])
            sel = list(ctx.selection)
            sel = [k for k in sel if k not in grp] if hit in sel else sel + [k for k in grp if k not in sel]
            return [Choose(tuple(sel))]
        out = []
        if hit not in ctx.selection:
            ctx.selection = tuple(with_groups(ctx.map, [hit]))
            out.append(Choose(ctx.selection))
        self.sub = MoveTool(ctx, xy, pos)
        return out

    def _start(self, sub: DragTool) -> list:
        self.sub = sub
        out = sub.begin()
        if not sub.active:
            self.sub = None
        return out

    def drag(self, xy, pos, mods):
        if self.sub is None:
            return None
        self.sub.ctx = self.ctx
        out = self.sub.drag(xy, pos, mods)
        if self.sub.done:                     # refused as it started
            self.sub = None
        return out

    def release(self, xy, pos, button, mods):
        if self.sub is None:
            return None
        sub, self.sub = self.sub, None
        sub.ctx = self.ctx
        return sub.release(xy, pos, button, mods)

    # --- corners under the pointer (keys) ------------------------------------------------------
    def hover(self, xy, pos):
        self.xy, self.pos = tuple(xy), tuple(pos)
        return None

    def key(self, key, mods):
        """Insert: a corner on the selected polygon's or zone's side nearest the pointer
        (``InsertVertex``); Backspace in corner mode: the corner under the pointer goes
        (``DeleteVertex``)."""
        if key == pygame.K_INSERT:
            return self.insert_vertex(self.xy, mods)
        if key == pygame.K_BACKSPACE and self.ctx.vertex_mode:
            v = self.vertex_at(self.pos)
            return [E.DeleteVertex(*v)] if v is not None else []
        return None

    def insert_vertex(self, xy, mods) -> list:
        ctx = self.ctx
        if len(ctx.selection) != 1:
            return []
        k = ctx.selection[0]
        g = E.geometry(ctx.map, k)
        if not (k[0] == "zone" or isinstance(g, PolygonShape)):
            return [Say("only polygons and zones take new corners", True)]
        pts = list(g) if k[0] == "zone" else [tuple(p) for p in g.points]
        best = min(range(len(pts)), key=lambda i: SN.seg_point(xy, pts[i], pts[(i + 1) % len(pts)])[0])
        to = xy if is_free(ctx, mods) else (SN.snap(xy[0], ctx.grid), SN.snap(xy[1], ctx.grid))
        return [E.InsertVertex(k, best + 1, to)]

    def cancel(self) -> None:
        self.sub = None

    def draw(self, surface, view) -> None:
        if self.sub is not None:
            self.sub.draw(surface, view)
