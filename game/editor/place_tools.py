"""The editor's placing tools, chosen in the palette: place a catalog template, a marker
(objective or evacuation point), a deployment zone, or draw a run of walls point by point. Each
is a ``game.kit.edit_tool.EditTool``: a click at a table point in, the ``Add...`` edit and the
new selection (``Choose``) out; ``done`` after one click unless Shift is held (a run: after its
last point). They draw their own ghost under the pointer.
"""
from __future__ import annotations

import math

import pygame

from engine.data.maps import Marker, Piece, WallShape, Zone
from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop import snapping as SN
from engine.workshop.catalog import place_template
from game.editor.drag_tools import is_free
from game.kit.edit_tool import Choose, EditTool

RUN_THICKNESS_IN = {"wall": 0.5, "fence": 0.2, "hedge": 0.8, "barricade": 0.6}


class PlacingTool(EditTool):
    """A click places one thing (Shift: the tool stays for the next one)."""

    hint = ""

    def __init__(self, ctx=None, what=None):
        super().__init__(ctx)
        self.what = what
        self.at = None                      # the snapped pointer point (for the ghost)

    def point(self, xy, mods):
        g = self.ctx.grid
        return tuple(xy) if is_free(self.ctx, mods) else (SN.snap(xy[0], g), SN.snap(xy[1], g))

    def hover(self, xy, pos):
        self.at = self.point(xy, pygame.key.get_mods())
        return None

    def press(self, xy, pos, button, mods):
        if button != 1:
            return None
        out = self.place(self.point(xy, mods))
        if not (mods & pygame.KMOD_SHIFT):
            self.done = True
        return out

    def place(self, at) -> list:
        raise NotImplementedError

    def draw(self, surface, view) -> None:
        if self.at is None:
            return
        self.ghost(surface, view, self.at)
        c = view.cam.to_screen(*self.at)
        pygame.draw.line(surface, (255, 255, 255), (c[0] - 6, c[1]), (c[0] + 6, c[1]))
        pygame.draw.line(surface, (255, 255, 255), (c[0], c[1] - 6), (c[0], c[1] + 6))

    def ghost(self, surface, view, at) -> None:
        pass


class PlaceTool(PlacingTool):
    """A catalog template at the click, turned by ``angle`` (R / Shift+R: 15 degrees more or
    less): ``AddPieces`` of its pieces, which become the selection with their group."""

    name = "place"
    hint = "click the table to place it (R turns it; Shift keeps placing; Esc stops)"

    def __init__(self, ctx=None, what=None, template=None):
        super().__init__(ctx, what)
        self.template = template            # (template, its unit) from the catalog
        self.angle = 0.0
        self._ghost = None

    def pieces_at(self, at):
        t, unit = self.template
        return place_template(t, unit, self.ctx.map, at, self.angle)

    def place(self, at):
        pieces = self.pieces_at(at)
        return [E.AddPieces(pieces), Choose((("piece", pieces[0].id),), grouped=True)]

    def key(self, key, mods):
        if key == pygame.K_r:
            self.angle = (self.angle + (-SN.ANGLE_STEP if mods & pygame.KMOD_SHIFT else SN.ANGLE_STEP)) % 360
            return []
        return None

    def ghost(self, surface, view, at):
        key = (self.what, self.angle, id(self.ctx.map.unit))
        if self._ghost is None or self._ghost[0] != key:
            self._ghost = (key, self.pieces_at((0.0, 0.0)))
        view.renderer.draw_floating(surface, view.cam, self._ghost[1], at[0], at[1])


class MarkerTool(PlacingTool):
    """An objective or an evacuation point (``what``: "objective" | "evac") at the click, with a
    new id: ``AddMarkers`` and the marker selected."""

    name = "marker"
    hint = "click the table to place it"

    def place(self, at):
        grp, m = self.what, self.ctx.map
        lst = m.objectives if grp == "objective" else m.evac_points
        mid = E.new_id({mk.id for mk in lst}, "objective" if grp == "objective" else "evac")
        return [E.AddMarkers(grp, (Marker(id=mid, at=at),)), Choose(((grp, mid),))]

    def ghost(self, surface, view, at):
        view.draw_marker(surface, at, self.what)


class ZoneTool(PlacingTool):
    """A deployment zone of side ``what`` with its lower left corner at the click (kept on the
    table), a fifth of the table wide and deep: ``AddZones`` and the new zone selected."""

    name = "zone"
    hint = "click the table: a zone as wide as one grid square and a fifth of the table (drag its corners to shape it)"

    def place(self, at):
        m = self.ctx.map
        wdt, hgt = m.width / 5, m.height / 5
        x0, y0 = min(max(0.0, at[0]), m.width - wdt), min(max(0.0, at[1]), m.height - hgt)
        z = Zone(side=self.what, points=S.rect(x0, y0, x0 + wdt, y0 + hgt))
        return [E.AddZones((z,)), Choose((("zone", -1),))]


class RunTool(PlacingTool):
    """A run of ``what`` (wall, fence, hedge, barricade) drawn point by point: each click adds a
    point, a click on the last point, Enter or a right click ends it: one ``AddPieces`` of a
    segment per pair of points (grouped when there are several), all selected."""

    name = "run"
    hint = "click point by point; Enter or a right click ends the run; Esc stops"

    def __init__(self, ctx=None, what=None):
        super().__init__(ctx, what)
        self.points: list = []

    def press(self, xy, pos, button, mods):
        if button == 3 and self.points:
            return self.finish()
        if button != 1:
            return None
        at = self.point(xy, mods)
        if self.points and math.dist(self.points[-1], at) < 1e-9:
            return self.finish()
        self.points.append(at)
        return []

    def key(self, key, mods):
        if key == pygame.K_RETURN:
            return self.finish()
        return None

    def finish(self) -> list:
        pts, self.points = self.points, []
        self.done = True
        if len(pts) < 2:
            return []
        m, kind = self.ctx.map, self.what
        thick = RUN_THICKNESS_IN[kind] * 25.4 / m.mm_per_unit
        taken = {p.id for p in m.pieces}
        grp = E.new_id({p.group for p in m.pieces if p.group}, f"{kind}-run")
        pieces = []
        for a, b in zip(pts, pts[1:]):
            if math.dist(a, b) <= 0:
                continue
            pid = E.new_id(taken, kind)
            taken.add(pid)
            pieces.append(Piece(id=pid, kind=kind, name=f"{kind.title()} run", group=grp if len(pts) > 2 else None,
                                shape=WallShape(a=a, b=b, thickness=round(thick, 4))))
        if not pieces:
            return []
        return [E.AddPieces(tuple(pieces)), Choose(tuple(("piece", p.id) for p in pieces))]

    def cancel(self) -> None:
        self.points = []

    def ghost(self, surface, view, at):
        cam = view.cam
        pts = self.points + [at]
        if len(pts) >= 2:
            pygame.draw.lines(surface, (255, 230, 160), False, [cam.to_screen(*p) for p in pts], 3)
        for p in self.points:
            pygame.draw.circle(surface, (255, 230, 160), cam.to_screen(*p), 4)


def tool_for(action, catalog, ctx):
    """The placing tool a palette entry's action names: ("template", id), ("marker", group),
    ("zone", side) or ("run", kind)."""
    kind, what = action
    if kind == "template":
        return PlaceTool(ctx, what, catalog.template(what))
    return {"marker": MarkerTool, "zone": ZoneTool, "run": RunTool}[kind](ctx, what)
