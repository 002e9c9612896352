"""The editor's mouse on the table: picking what is under the pointer, and the drags (move, turn,
scale, drag a corner, box-select, pan), each previewed through the edit stack and done as one edit
when the button comes up.

A part of ``EditorScene`` (``game/scenes/editor.py``): it reads and sets the scene's state
(``map``, ``stack``, ``selection``, ``drag``, ``cam``, ``renderer``) and calls its ``apply``,
``say`` and ``_refresh_form``.
"""
from __future__ import annotations

import math

import pygame

from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop import snapping as SN
from game.editor.layout import HANDLE_PX, PICK_PX

COARSE_EVERY_S = 0.3          # a coarse analysis of the dragged layout at most this often


class Drag:
    """A drag in progress: what it does, where it started, and what it needs each frame."""

    def __init__(self, kind: str, start_world, start_pos, **kw):
        self.kind = kind                    # move, box, rotate, scale, vertex, pan
        self.start_world = start_world
        self.start_pos = start_pos
        self.active = kind in ("rotate", "scale", "vertex", "pan")
        self.dx = self.dy = 0.0
        self.guides: list = []
        self.measures: list = []
        self.preview = None                 # the map a rotate, scale or vertex drag would give
        self.value = None
        self.__dict__.update(kw)


class PointerMixin:
    """Coordinates, picking and the drags of ``EditorScene``."""

    # --- coordinates and picking -----------------------------------------------------------
    def _local(self, pos):
        return pos[0] - self.table_rect.x, pos[1] - self.table_rect.y

    def _world(self, pos):
        return self.cam.to_world(*self._local(pos))

    def to_screen(self, x, y):
        """Map units to window pixels (for tests: where to click)."""
        sx, sy = self.cam.to_screen(x, y)
        return round(sx) + self.table_rect.x, round(sy) + self.table_rect.y

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
        out = list(dict.fromkeys(keys))
        groups = {E.get_piece(self.map, k[1]).group for k in out if k[0] == "piece"} - {None}
        if groups:
            for p in self.map.pieces:
                if p.group in groups and ("piece", p.id) not in out:
                    out.append(("piece", p.id))
        return out

    def _handles(self):
        """Screen positions of the turn and scale handles of the selection, or None."""
        b = self._selection_box()
        if b is None:
            return None
        x0, y0 = self.cam.to_screen(b[0], b[3])
        x1, y1 = self.cam.to_screen(b[2], b[1])
        turn = ((x0 + x1) / 2 + self.table_rect.x, y0 - 22 + self.table_rect.y)
        scale = (x1 + 8 + self.table_rect.x, y1 + 8 + self.table_rect.y)
        return turn, scale

    def _selection_box(self):
        if not self.selection:
            return None
        try:
            return E.selection_bounds(self.map, self.selection)
        except E.EditRefused:
            return None

    def _vertex_target(self):
        """(key, vertices) whose corners can be dragged: one selected piece in corner mode, or a
        selected zone."""
        if len(self.selection) != 1:
            return None
        k = self.selection[0]
        if k[0] == "zone":
            return k, list(E.geometry(self.map, k))
        if k[0] == "piece" and self.vertex_mode:
            return k, S.vertices(E.geometry(self.map, k))
        return None

    def _vertex_at(self, pos):
        vt = self._vertex_target()
        if vt is None:
            return None
        k, pts = vt
        for i, p in enumerate(pts):
            sx, sy = self.to_screen(*p)
            if math.dist((sx, sy), pos) <= HANDLE_PX + 2:
                return k, i
        return None

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
            if self.drag is not None:
                self._drag_to(pos, mods)
            return
        inside = self.table_rect.collidepoint(pos)
        if ev.type == pygame.MOUSEBUTTONDOWN:
            if not inside:
                return
            w = self._world(pos)
            if ev.button in (2, 3):
                if ev.button == 3 and self.tool and self.tool[0] == "run" and self.run_points:
                    self._finish_run()
                    return
                self.drag = Drag("pan", w, pos)
                return
            if ev.button != 1:
                return
            if self.tool:
                self._tool_click(w, mods)
                return
            v = self._vertex_at(pos)
            if v is not None:
                self._start_drag(Drag("vertex", w, pos, key=v[0], index=v[1]))
                return
            hd = self._handles()
            if hd is not None:
                if math.dist(hd[0], pos) <= HANDLE_PX + 3:
                    self._start_drag(Drag("rotate", w, pos, centre=E.selection_centre(self.map, self.selection)))
                    return
                if math.dist(hd[1], pos) <= HANDLE_PX + 3:
                    self._start_drag(Drag("scale", w, pos, centre=E.selection_centre(self.map, self.selection)))
                    return
            hit = self.item_at(w)
            if hit is None:
                self.drag = Drag("box", w, pos, add=bool(mods & pygame.KMOD_SHIFT))
                return
            if mods & pygame.KMOD_SHIFT:
                grp = self.with_groups([hit])
                if hit in self.selection:
                    self.selection = [k for k in self.selection if k not in grp]
                else:
                    self.selection += [k for k in grp if k not in self.selection]
                self._refresh_form()
                return
            if hit not in self.selection:
                self.selection = self.with_groups([hit])
                self._refresh_form()
            self.drag = Drag("move", w, pos)
            return
        if ev.type == pygame.MOUSEBUTTONUP and self.drag is not None:
            d, self.drag = self.drag, None
            self._end_drag(d, pos, mods)

    def _start_drag(self, d: Drag) -> None:
        self.drag = d
        self._begin(d)

    def _begin(self, d: Drag) -> None:
        """The drag starts moving: what moves (with its symmetry twins) is left out of the table
        image and drawn on top; a lock (or a twin's) refuses the drag before anything moves."""
        d.active = True
        keys = (d.key,) if d.kind == "vertex" else tuple(self.selection)
        # a move along both axes: a piece on a mirror line may still slide along it
        probe = {"move": lambda: E.Move(keys, 1e-3, 1e-3), "rotate": lambda: E.Rotate(keys, 180.0),
                 "scale": lambda: E.Scale(keys, 1.001),
                 "vertex": lambda: E.MoveVertex(d.key, d.index, self._vertex_pos(d.key, d.index))}[d.kind]()
        try:
            moving = self.stack.expand(probe).geometry_keys(self.map)
            locked = sorted(k[1] for k in moving if k[0] == "piece" and E.get_piece(self.map, k[1]).locked)
            if locked:
                raise E.EditRefused(f"{', '.join(locked)} {'is' if len(locked) == 1 else 'are'} locked (unlock first)")
        except E.EditRefused as err:
            self.say(f"refused: {err}", error=True)
            self.drag = None
            return
        d.keys, d.moving = keys, moving
        mode = self.stack.symmetry
        d.prim, d.twin, d.selfs = E.twins_of(self.map, keys, mode) if mode else (list(keys), {}, set())
        d.box = E.selection_bounds(self.map, keys)
        others = [p for p in self.map.pieces if ("piece", p.id) not in moving]
        d.other_boxes = [S.bounds(p.shape) for p in others]
        d.neighbours = [(p.label(), p.shape) for p in others]
        d.floating = [E.get_piece(self.map, k[1]) for k in moving if k[0] == "piece"]
        self.renderer.set_map(_without(self.map, moving))

    def _vertex_pos(self, key, index):
        g = E.geometry(self.map, key)
        pts = list(g) if key[0] == "zone" else S.vertices(g)
        return pts[index]

    def _drag_to(self, pos, mods) -> None:
        d = self.drag
        w = self._world(pos)
        if d.kind == "pan":
            self.cam.pan(pos[0] - d.start_pos[0], pos[1] - d.start_pos[1])
            d.start_pos = pos
            return
        if not d.active:
            if math.dist(pos, d.start_pos) < 4:
                return
            if d.kind == "box":
                d.active = True
            else:
                self._begin(d)
                if self.drag is None:
                    return
        free = bool(mods & pygame.KMOD_ALT) or not self.snap_on
        if d.kind == "box":
            d.end_world = w
            return
        if d.kind == "move":
            rdx, rdy = w[0] - d.start_world[0], w[1] - d.start_world[1]
            sn = SN.snap_move(d.box, rdx, rdy, None if free else self.grid, self.map.width, self.map.height,
                              () if free else d.other_boxes, 0.0 if free else self._px(6))
            d.dx, d.dy, d.guides = sn.dx, sn.dy, sn.guides
            moved = [S.translate(E.geometry(self.map, k), d.dx, d.dy) for k in d.prim if k[0] == "piece"]
            d.measures = SN.ruler(moved, self.map.width, self.map.height, d.neighbours) if moved else []
            if self.t - self._coarse_at >= COARSE_EVERY_S and not self.analysis.busy:
                self._coarse_preview(E.Move(d.keys, d.dx, d.dy))
            return
        if d.kind == "rotate":
            c = d.centre
            a0 = math.degrees(math.atan2(d.start_world[1] - c[1], d.start_world[0] - c[0]))
            a1 = math.degrees(math.atan2(w[1] - c[1], w[0] - c[0]))
            ang = ((a1 - a0 + 180) % 360) - 180
            if not free:
                ang = SN.snap_angle(ang)
            self._preview(d, E.Rotate(d.keys, ang, c), ang)
        elif d.kind == "scale":
            c = d.centre
            r0 = max(1e-9, math.dist(d.start_world, c))
            f = max(0.05, math.dist(w, c) / r0)
            if not free and d.box is not None:
                width = d.box[2] - d.box[0]
                if width > 0:
                    f = max(self.grid, SN.snap(width * f, self.grid)) / width
            self._preview(d, E.Scale(d.keys, f, None, c), f)
        elif d.kind == "vertex":
            to = w if free else (SN.snap(w[0], self.grid), SN.snap(w[1], self.grid))
            self._preview(d, E.MoveVertex(d.key, d.index, to), to)

    def _preview(self, d: Drag, edit, value) -> None:
        if value == d.value:
            return
        try:
            d.preview = self.stack.preview(edit)
            d.value = value
            d.edit = edit
            d.problem = ""
        except E.EditRefused as err:
            d.problem = str(err)
            return
        d.floating = [p for p in d.preview.pieces if ("piece", p.id) in d.moving]
        if self.t - self._coarse_at >= COARSE_EVERY_S and not self.analysis.busy:
            self._request_analysis(coarse=True, mapfile=d.preview)

    def _coarse_preview(self, edit) -> None:
        try:
            m = self.stack.preview(edit)
        except E.EditRefused:
            return
        self._request_analysis(coarse=True, mapfile=m)

    def _end_drag(self, d: Drag, pos, mods) -> None:
        if d.kind == "pan":
            return
        if d.kind == "box":
            if d.active:
                self._box_select(d, getattr(d, "end_world", d.start_world))
            else:
                if not d.add:
                    self.selection = []
                    self._refresh_form()
            return
        if not d.active:
            return                           # a click on an item: it is selected
        edit = None
        if d.kind == "move":
            if d.dx or d.dy:
                edit = E.Move(d.keys, d.dx, d.dy)
        elif getattr(d, "edit", None) is not None:
            edit = d.edit
        if edit is None or not self.apply(edit, quiet=d.kind == "move"):
            self.renderer.set_map(self.map)  # refused or nothing: the table as it was

    def _box_select(self, d: Drag, end) -> None:
        x0, x1 = sorted((d.start_world[0], end[0]))
        y0, y1 = sorted((d.start_world[1], end[1]))
        hits = []
        for k in E.keys_of(self.map):
            if k[0] == "zone":
                continue
            b = E.geometry_bounds(k, E.geometry(self.map, k))
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                hits.append(k)
        hits = self.with_groups(hits)
        self.selection = (self.selection + [k for k in hits if k not in self.selection]) if d.add else hits
        self._refresh_form()


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
