"""The editor's drag tools: select (a click picks, Shift+click adds or removes), box select, move,
rotate, scale and vertex. Each is a ``game.kit.edit_tool.EditTool``: pointer input in (table
points in the map's unit), a list of ``Edit`` commands out (with ``Choose`` / ``Lift`` / ``Say``
values), its own drag state, and its own preview (``draw``). None of them changes the document;
``TableInput.apply_all`` does, through the stack, in one place.

``select_tool.SelectTool``, the editor's default tool, hands a press to one of these.
"""
from __future__ import annotations

import math

import pygame

from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop import snapping as SN
from game.kit.edit_tool import Choose, EditTool, Lift
from game.kit.intents import Say

DRAG_PX = 4                   # a press becomes a drag once the pointer has gone this far


def with_groups(m, keys) -> list:
    """``keys`` and every piece that shares a group with one of them."""
    out = list(dict.fromkeys(keys))
    groups = {E.get_piece(m, k[1]).group for k in out if k[0] == "piece"} - {None}
    if groups:
        for p in m.pieces:
            if p.group in groups and ("piece", p.id) not in out:
                out.append(("piece", p.id))
    return out


def is_free(ctx, mods) -> bool:
    """Alt held, or snapping off: the pointer's point as it is."""
    return bool(mods & pygame.KMOD_ALT) or not ctx.snap_on


class DragTool(EditTool):
    """What the drags share: the press point, the 4-pixel start, the lock check, and the preview
    state the drawing reads (``guides``, ``measures``, ``floating``, ``preview``, ``value``)."""

    starts_active = True

    def __init__(self, ctx, xy, pos, **kw):
        super().__init__(ctx)
        self.start_world, self.start_pos = tuple(xy), tuple(pos)
        self.dx = self.dy = 0.0
        self.guides: list = []
        self.measures: list = []
        self.preview = None                 # the map a rotate, scale or vertex drag would give
        self.value = None
        self.edit = None
        self.problem = ""
        self.moving: set = set()
        self.floating: list = []
        self.__dict__.update(kw)

    def keys_of_drag(self):
        return tuple(self.ctx.selection)

    def probe(self, keys):
        raise NotImplementedError

    def begin(self) -> list:
        """The drag starts moving: what moves (with its symmetry twins) is lifted off the table
        image; a lock (or a twin's) refuses the drag before anything moves."""
        m, stack = self.ctx.map, self.ctx.stack
        keys = self.keys_of_drag()
        try:
            moving = stack.expand(self.probe(keys)).geometry_keys(m)
            locked = sorted(k[1] for k in moving if k[0] == "piece" and E.get_piece(m, k[1]).locked)
            if locked:
                raise E.EditRefused(f"{', '.join(locked)} {'is' if len(locked) == 1 else 'are'} locked (unlock first)")
        except E.EditRefused as err:
            self.done = True
            return [Say(f"refused: {err}", True)]
        self.active = True
        self.keys, self.moving = keys, moving
        mode = stack.symmetry
        self.prim, self.twin, self.selfs = E.twins_of(m, keys, mode) if mode else (list(keys), {}, set())
        self.box = E.selection_bounds(m, keys)
        others = [p for p in m.pieces if ("piece", p.id) not in moving]
        self.other_boxes = [S.bounds(p.shape) for p in others]
        self.neighbours = [(p.label(), p.shape) for p in others]
        self.floating = [E.get_piece(m, k[1]) for k in moving if k[0] == "piece"]
        return [Lift(frozenset(moving))]

    def drag(self, xy, pos, mods):
        out = []
        if not self.active:
            if math.dist(pos, self.start_pos) < DRAG_PX:
                return []
            out = self.begin()
            if not self.active:
                return out
        return out + self.follow(tuple(xy), is_free(self.ctx, mods))

    def follow(self, xy, free: bool) -> list:
        return []

    def release(self, xy, pos, button, mods):
        self.done = True
        if not self.active or self.edit is None:
            return []
        return [self.edit]

    def current_edit(self):
        return self.edit

    def _preview(self, edit, value) -> None:
        """The map ``edit`` would give (the stack's preview: twins, locks, validity), kept while
        ``value`` (the angle, factor or point) stays the same; a refusal is kept as ``problem``."""
        if value == self.value:
            return
        try:
            self.preview = self.ctx.stack.preview(edit)
            self.value, self.edit, self.problem = value, edit, ""
        except E.EditRefused as err:
            self.problem = str(err)
            return
        self.floating = [p for p in self.preview.pieces if ("piece", p.id) in self.moving]

    def draw(self, surface, view) -> None:
        if self.active:
            view.draw_drag(surface, self)


class MoveTool(DragTool):
    """Drag the selection: snapped to the grid and to the other pieces' edges and the table's
    centre lines (``snapping.snap_move``; Alt or snapping off: as the pointer goes); one
    ``Move(keys, dx, dy)`` on release. 2" to the right on an inch table is ``Move(keys, 2.0, 0)``:
    50.8 mm."""

    kind = "move"
    starts_active = False

    def probe(self, keys):
        return E.Move(keys, 1e-3, 1e-3)     # both axes: a piece on a mirror line may still slide along it

    def follow(self, xy, free):
        ctx = self.ctx
        rdx, rdy = xy[0] - self.start_world[0], xy[1] - self.start_world[1]
        sn = SN.snap_move(self.box, rdx, rdy, None if free else ctx.grid, ctx.map.width, ctx.map.height,
                          () if free else self.other_boxes, 0.0 if free else ctx.px(6))
        self.dx, self.dy, self.guides = sn.dx, sn.dy, sn.guides
        moved = [S.translate(E.geometry(ctx.map, k), self.dx, self.dy) for k in self.prim if k[0] == "piece"]
        self.measures = SN.ruler(moved, ctx.map.width, ctx.map.height, self.neighbours) if moved else []
        return []

    def current_edit(self):
        return E.Move(self.keys, self.dx, self.dy) if self.active else None

    def release(self, xy, pos, button, mods):
        self.done = True
        if not self.active or not (self.dx or self.dy):
            return []
        return [E.Move(self.keys, self.dx, self.dy)]


class RotateTool(DragTool):
    """Drag the turn handle round the selection's centre: the angle between the press and the
    pointer vectors from the centre (snapped to 15 degrees unless free); one ``Rotate`` on release."""

    kind = "rotate"

    def probe(self, keys):
        return E.Rotate(keys, 180.0)

    def follow(self, xy, free):
        c = self.centre
        a0 = math.degrees(math.atan2(self.start_world[1] - c[1], self.start_world[0] - c[0]))
        a1 = math.degrees(math.atan2(xy[1] - c[1], xy[0] - c[0]))
        ang = ((a1 - a0 + 180) % 360) - 180
        if not free:
            ang = SN.snap_angle(ang)
        self._preview(E.Rotate(self.keys, ang, c), ang)
        return []


class ScaleTool(DragTool):
    """Drag the scale handle: the factor is the pointer's distance from the centre over the
    press's (the scaled width snapped to the grid unless free); one ``Scale`` on release."""

    kind = "scale"

    def probe(self, keys):
        return E.Scale(keys, 1.001)

    def follow(self, xy, free):
        c = self.centre
        r0 = max(1e-9, math.dist(self.start_world, c))
        f = max(0.05, math.dist(xy, c) / r0)
        if not free and self.box is not None:
            width = self.box[2] - self.box[0]
            if width > 0:
                f = max(self.ctx.grid, SN.snap(width * f, self.ctx.grid)) / width
        self._preview(E.Scale(self.keys, f, None, c), f)
        return []


def vertex_pos(m, key, index):
    g = E.geometry(m, key)
    pts = list(g) if key[0] == "zone" else S.vertices(g)
    return pts[index]


class VertexTool(DragTool):
    """Drag one corner of a piece (corner mode) or a zone to the pointer (on the grid unless
    free); one ``MoveVertex(key, index, to)`` on release."""

    kind = "vertex"

    def keys_of_drag(self):
        return (self.key,)

    def probe(self, keys):
        return E.MoveVertex(self.key, self.index, vertex_pos(self.ctx.map, self.key, self.index))

    def follow(self, xy, free):
        g = self.ctx.grid
        to = xy if free else (SN.snap(xy[0], g), SN.snap(xy[1], g))
        self._preview(E.MoveVertex(self.key, self.index, to), to)
        return []


class BoxSelectTool(DragTool):
    """Drag a box on the empty table: the items whose footprint's centre lies in it (with their
    groups; zones are never box-picked) become the selection (Shift: added to it). A click
    without a drag selects nothing (Shift: keeps the selection)."""

    kind = "box"
    starts_active = False
    add: bool           # Shift: add to the selection (given by the select tool)

    def drag(self, xy, pos, mods):
        if not self.active:
            if math.dist(pos, self.start_pos) < DRAG_PX:
                return []
            self.active = True
        self.end_world = tuple(xy)
        return []

    def release(self, xy, pos, button, mods):
        self.done = True
        if not self.active:
            return [] if self.add else [Choose(())]
        return [Choose(tuple(self.picked(getattr(self, "end_world", self.start_world))))]

    def picked(self, end) -> list:
        m = self.ctx.map
        x0, x1 = sorted((self.start_world[0], end[0]))
        y0, y1 = sorted((self.start_world[1], end[1]))
        hits = []
        for k in E.keys_of(m):
            if k[0] == "zone":
                continue
            b = E.geometry_bounds(k, E.geometry(m, k))
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                hits.append(k)
        hits = with_groups(m, hits)
        sel = list(self.ctx.selection)
        return (sel + [k for k in hits if k not in sel]) if self.add else hits
