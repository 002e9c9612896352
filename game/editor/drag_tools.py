"""The editor's drag tools: select (a click picks, Shift+click adds or removes), box select, move,
rotate, scale and vertex. Each is a ``game.kit.edit_tool.EditTool``: pointer input in (table
points in the map's unit), a list of ``Edit`` commands out (with ``Choose`` / ``Lift`` / ``Say``
values), its own drag state, and its own preview (``draw``). None of them changes the document;
``EditorScene.apply_all`` does, through the stack, in one place.

``SelectTool`` is the editor's default tool: a press on the turn or scale handle of the selection
hands the drag to ``RotateTool`` / ``ScaleTool``, on a corner to ``VertexTool``, on an item to
``MoveTool`` (after selecting it), on the empty table to ``BoxSelectTool``.
"""
from __future__ import annotations

import math

import pygame

from engine.data.maps import PolygonShape
from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop import snapping as SN
from game.editor.layout import HANDLE_PX
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
