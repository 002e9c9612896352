"""The editor's palette tools: placing a template, a marker or a zone where the table is clicked,
drawing a wall run point by point; and adding or removing a corner under the pointer.

A part of ``EditorScene`` (``game/scenes/editor.py``): it reads the scene's ``tool``,
``catalog``, ``palette`` and ``selection`` and makes its changes through the scene's ``apply``.
"""
from __future__ import annotations

import math

import pygame

from engine.data.maps import Marker, Piece, PolygonShape, WallShape, Zone
from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop import snapping as SN
from engine.workshop.catalog import place_template


class ToolsMixin:
    """Placing, runs and corner edits of ``EditorScene``."""

    def _pick_palette(self, text: str) -> None:
        action = self.palette.action_of(text)
        if action is None:
            self.palette.clear()
            return
        if action[0] == "mission":
            self.apply(("mission", action[1]))
            self.palette.clear()
            return
        self.tool = action
        self.tool_angle = 0.0
        self.run_points = []
        self._ghost_cache = None
        words = {"template": "click the table to place it (R turns it; Shift keeps placing; Esc stops)",
                 "marker": "click the table to place it", "zone": "click the table: a zone as wide as one grid "
                 "square and a fifth of the table (drag its corners to shape it)",
                 "run": "click point by point; Enter or a right click ends the run; Esc stops"}
        self.say(f"{text}: {words[action[0]]}")

    def _end_tool(self) -> None:
        self.tool = None
        self.run_points = []
        self._ghost_cache = None
        self.palette.clear()

    def _snap_point(self, w, mods):
        if mods & pygame.KMOD_ALT or not self.snap_on:
            return w
        return (SN.snap(w[0], self.grid), SN.snap(w[1], self.grid))

    def place_template(self, tid: str, at, degrees: float = 0.0) -> bool:
        t, unit = self.catalog.template(tid)
        pieces = place_template(t, unit, self.map, at, degrees)
        if self.apply(E.AddPieces(pieces)):
            self.selection = self.with_groups([("piece", pieces[0].id)])
            self._refresh_form()
            return True
        return False

    def _tool_click(self, w, mods) -> None:
        kind = self.tool[0]
        at = self._snap_point(w, mods)
        keep = bool(mods & pygame.KMOD_SHIFT)
        if kind == "template":
            self.place_template(self.tool[1], at, self.tool_angle)
        elif kind == "marker":
            grp = self.tool[1]
            lst = self.map.objectives if grp == "objective" else self.map.evac_points
            mid = E.new_id({m.id for m in lst}, "objective" if grp == "objective" else "evac")
            if self.apply(E.AddMarkers(grp, (Marker(id=mid, at=at),))):
                self.selection = [(grp, mid)]
                self._refresh_form()
        elif kind == "zone":
            side = self.tool[1]
            wdt, hgt = self.map.width / 5, self.map.height / 5
            x0, y0 = min(max(0.0, at[0]), self.map.width - wdt), min(max(0.0, at[1]), self.map.height - hgt)
            z = Zone(side=side, points=S.rect(x0, y0, x0 + wdt, y0 + hgt))
            if self.apply(E.AddZones((z,))):
                self.selection = [("zone", len(self.map.deployment) - 1)]
                self._refresh_form()
        elif kind == "run":
            if self.run_points and math.dist(self.run_points[-1], at) < 1e-9:
                self._finish_run()
                return
            self.run_points.append(at)
            return
        if not keep:
            self._end_tool()

    def _finish_run(self) -> None:
        pts = self.run_points
        self.run_points = []
        if len(pts) < 2:
            self._end_tool()
            return
        kind = self.tool[1]
        thick = {"wall": 0.5, "fence": 0.2, "hedge": 0.8, "barricade": 0.6}[kind] * 25.4 / self.map.mm_per_unit
        taken = {p.id for p in self.map.pieces}
        grp = E.new_id({p.group for p in self.map.pieces if p.group}, f"{kind}-run")
        pieces = []
        for a, b in zip(pts, pts[1:]):
            if math.dist(a, b) <= 0:
                continue
            pid = E.new_id(taken, kind)
            taken.add(pid)
            pieces.append(Piece(id=pid, kind=kind, name=f"{kind.title()} run", group=grp if len(pts) > 2 else None,
                                shape=WallShape(a=a, b=b, thickness=round(thick, 4))))
        if pieces and self.apply(E.AddPieces(tuple(pieces))):
            self.selection = [("piece", p.id) for p in pieces]
            self._refresh_form()
        self._end_tool()

    # --- corners under the pointer ------------------------------------------------------------
    def _insert_vertex_at(self, pos) -> None:
        if len(self.selection) != 1 or not self.table_rect.collidepoint(pos):
            return
        k = self.selection[0]
        g = E.geometry(self.map, k)
        if not (k[0] == "zone" or isinstance(g, PolygonShape)):
            self.say("only polygons and zones take new corners", error=True)
            return
        pts = list(g) if k[0] == "zone" else [tuple(p) for p in g.points]
        w = self._world(pos)
        best = min(range(len(pts)), key=lambda i: SN.seg_point(w, pts[i], pts[(i + 1) % len(pts)])[0])
        self.apply(E.InsertVertex(k, best + 1, self._snap_point(w, pygame.key.get_mods())))

    def _delete_vertex_at(self, pos) -> None:
        v = self._vertex_at(pos)
        if v is not None:
            self.apply(E.DeleteVertex(*v))
