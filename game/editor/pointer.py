"""The table as a panel (``game.kit.Panel``): the pointer's events on the table turned into table
points and given to the active tool (a placing tool chosen in the catalog, else the select tool
with its drags); it returns what the tool returned (edits, ``Choose``, ``Lift``, ``Say``) and a
few ``Command`` intents (``drag_moved``, ``drag_over``, ``end_tool``, ``cancel_drag``) for the
scene to apply in one place. Panning and zooming are the view's: this panel owns the camera.

While a drag or a pan is under way the panel keeps the pointer (a release off the table still
ends it) and takes every key (Esc cancels the drag; nothing else acts until the drop).
"""
from __future__ import annotations

import math

import pygame

from engine.workshop import snapping as SN
from game.editor.layout import PICK_PX
from game.editor.select_tool import SelectTool
from game.kit.intents import Command
from game.kit.panel import TAKEN, Panel


def item_at(m, renderer, world, scale: float):
    """The item under the table point ``world`` (markers first, then pieces, then a zone's
    border), as a key, or None. ``scale``: pixels per map unit (the pick tolerance is 7 px)."""
    x, y = world
    tol = PICK_PX / scale
    r = max(20.0 / m.mm_per_unit, tol)
    for grp, lst in (("objective", m.objectives), ("evac", m.evac_points)):
        for mk in lst:
            if math.dist(mk.at, (x, y)) <= r:
                return (grp, mk.id)
    g = renderer.piece_at(x, y)
    if g is not None:
        return ("piece", g.piece.id)
    for i, z in enumerate(m.deployment):
        pts = z.points
        for j in range(len(pts)):
            d, _ = SN.seg_point((x, y), pts[j], pts[(j + 1) % len(pts)])
            if d <= tol:
                return ("zone", i)
    return None


class TablePanel(Panel):
    """The table: its camera, the active tool and the pan. ``context()`` (given by the scene)
    makes the ``EditContext`` a tool reads."""

    wants_keys = True

    def __init__(self, rect, context, cam=None):
        super().__init__(rect)
        self.context = context
        self.cam = cam
        self.select = SelectTool()          # the default tool; its drag is ``select.sub``
        self.tool = None                    # a placing tool (game/editor/place_tools.py)
        self.pan = None                     # the pointer's last point while the right button pans
        self.mouse = (-1, -1)

    # --- coordinates --------------------------------------------------------------------
    def local(self, pos):
        return pos[0] - self.rect.x, pos[1] - self.rect.y

    def world(self, pos):
        return self.cam.to_world(*self.local(pos))

    def screen(self, x, y):
        """A table point's window pixel (not rounded)."""
        sx, sy = self.cam.to_screen(x, y)
        return sx + self.rect.x, sy + self.rect.y

    def given(self, tool):
        """``tool`` with the newest context."""
        tool.ctx = self.context()
        return tool

    @property
    def dragging(self) -> bool:
        d = self.select.sub
        return d is not None and d.active

    # --- input ----------------------------------------------------------------------------
    def contains(self, pos) -> bool:
        return self.visible and (self.rect.collidepoint(pos) or self.pan is not None or self.select.sub is not None)

    def handle(self, ev):
        if ev.type == pygame.KEYDOWN:
            if not self.dragging:
                return None
            return Command("cancel_drag") if ev.key == pygame.K_ESCAPE else TAKEN
        if ev.type == pygame.MOUSEWHEEL:
            if self.rect.collidepoint(self.mouse):
                self.cam.zoom_at(1.15 ** ev.y, *self.local(self.mouse))
            return TAKEN
        if not hasattr(ev, "pos"):
            return None
        pos = self.mouse = ev.pos
        mods = pygame.key.get_mods()
        if ev.type == pygame.MOUSEMOTION:
            if self.pan is not None:
                self.cam.pan(pos[0] - self.pan[0], pos[1] - self.pan[1])
                self.pan = pos
                return TAKEN
            if self.select.sub is not None:
                return list(self.given(self.select).drag(self.world(pos), pos, mods) or []) + [Command("drag_moved")]
            return None
        if ev.type == pygame.MOUSEBUTTONDOWN:
            return self.press(pos, ev.button, mods)
        if ev.type == pygame.MOUSEBUTTONUP:
            if self.pan is not None:
                self.pan = None
                return TAKEN
            if self.select.sub is None:
                return None
            quiet = self.select.sub.kind == "move"
            out = self.given(self.select).release(self.world(pos), pos, ev.button, mods) or []
            return [Command("quiet", quiet)] + list(out) + [Command("drag_over")]
        return None

    def press(self, pos, button, mods):
        if not self.rect.collidepoint(pos):
            return None
        w = self.world(pos)
        if self.tool is not None and button in (1, 3):
            out = self.given(self.tool).press(w, pos, button, mods)
            if out is not None:
                return list(out) + ([Command("end_tool")] if self.tool.done else [])
        if button in (2, 3):
            self.pan = pos
            return TAKEN
        if button == 1 and self.tool is None:
            return self.given(self.select).press(w, pos, button, mods) or TAKEN
        return TAKEN

    def draw_ghost(self, surf, view) -> None:
        """The placing tool's ghost under the pointer (the tool draws its own)."""
        if self.tool is not None and self.rect.collidepoint(self.mouse):
            self.given(self.tool).hover(self.world(self.mouse), self.mouse)
            self.tool.draw(surf, view)


def without(m, keys):
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
