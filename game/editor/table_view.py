"""Drawing on the editor's table: what the tools draw their previews with (``draw_drag``,
``draw_marker``, the measures; a tool's ``draw(surface, view)`` gets this view), and the
selection with its handles, corners and lock tags. It draws from values the scene gives it each
frame (``show``), never from the scene or the document. The side panels (status, analysis,
help) draw themselves (``side_panels``).
"""
from __future__ import annotations

import math

import pygame

from engine.workshop import edits as E
from engine.workshop import shapes as S
from game.editor.layout import HANDLE_PX
from game.render.text import font, plate

MIRROR_DELTA = {"mirror_x": (-1, 1), "mirror_y": (1, -1), "point": (-1, -1)}


class TableView:
    """The table's drawing state for one frame: the camera, the map, the symmetry mode, the
    renderer, the selection and its box, the drag under way (a ``DragTool``), the corners that
    take a drag, the pointer in the table's pixels. ``lock_tags``: where the last frame drew each
    "locked" tag (piece id, rect)."""

    def __init__(self, texts):
        self.texts = texts
        self.lock_tags: list = []
        self.cam = self.map = self.symmetry = self.renderer = self.drag = None
        self.selection, self.selection_box, self.vertex_target, self.mouse_local = [], None, None, (0, 0)

    def show(self, cam, m, symmetry, renderer, selection, selection_box, drag, vertex_target, mouse_local) -> None:
        self.cam, self.map, self.symmetry, self.renderer = cam, m, symmetry, renderer
        self.selection, self.selection_box, self.drag = selection, selection_box, drag
        self.vertex_target, self.mouse_local = vertex_target, mouse_local

    def table_screen_rect(self) -> pygame.Rect:
        x0, y0 = self.cam.to_screen(0, self.map.height)
        x1, y1 = self.cam.to_screen(self.map.width, 0)
        return pygame.Rect(round(x0), round(y0), max(1, round(x1 - x0)), max(1, round(y1 - y0)))

    def draw_drag(self, surf, d) -> None:
        """A drag tool's preview (``drag_tools``: the tool calls this from its ``draw``)."""
        cam = self.cam
        if d.kind == "box":
            end = getattr(d, "end_world", d.start_world)
            a, b = cam.to_screen(*d.start_world), cam.to_screen(*end)
            r = pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(a[0] - b[0]), abs(a[1] - b[1]))
            pygame.draw.rect(surf, (255, 230, 150), r, 1)
            return
        if d.kind == "move":
            mode = self.symmetry
            fx, fy = MIRROR_DELTA.get(mode, (1, 1))
            twins = set(d.twin.values())
            pdx, pdy = E.project_move(mode, d.dx, d.dy) if mode else (d.dx, d.dy)
            groups: dict = {}
            for p in d.floating:
                k = ("piece", p.id)
                off = (d.dx * fx, d.dy * fy) if k in twins else (pdx, pdy) if k in d.selfs else (d.dx, d.dy)
                groups.setdefault(off, []).append(p)
            for (ox, oy), ps in groups.items():
                self.renderer.draw_floating(surf, cam, ps, ox, oy)
            for k in d.moving:
                if k[0] == "piece":
                    continue
                off = (d.dx * fx, d.dy * fy) if k in twins else (d.dx, d.dy)
                self.draw_item_ghost(surf, k, off)
            for axis, v in d.guides:
                if axis == "x":
                    x = cam.to_screen(v, 0)[0]
                    pygame.draw.line(surf, (80, 220, 255), (x, 0), (x, surf.get_height()), 1)
                else:
                    y = cam.to_screen(0, v)[1]
                    pygame.draw.line(surf, (80, 220, 255), (0, y), (surf.get_width(), y), 1)
            self.draw_measures(surf, d.measures)
        else:
            if d.floating:
                self.renderer.draw_floating(surf, cam, d.floating)
            if d.preview is not None:
                for k in d.moving:
                    if k[0] != "piece":
                        self.draw_item_ghost(surf, k, (0, 0), d.preview)
            if getattr(d, "problem", ""):
                lab = font(15).render(d.problem[:90], True, (255, 150, 130))
                surf.blit(lab, (10, 10))
            if d.kind == "rotate" and d.value is not None:
                lab = font(17, True).render(f"{d.value:+.1f}\u00b0", True, (255, 240, 190))
                surf.blit(lab, (self.mouse_local[0] + 14, self.mouse_local[1] - 10))
            elif d.kind == "scale" and d.value is not None:
                lab = font(17, True).render(f"x{d.value:.2f}", True, (255, 240, 190))
                surf.blit(lab, (self.mouse_local[0] + 14, self.mouse_local[1] - 10))

    def draw_item_ghost(self, surf, k, off, m=None) -> None:
        g = E.geometry(m or self.map, k)
        if k[0] == "zone":
            pts = [self.cam.to_screen(x + off[0], y + off[1]) for x, y in g]
            pygame.draw.polygon(surf, (255, 240, 180), pts, 2)
        else:
            self.draw_marker(surf, (g[0] + off[0], g[1] + off[1]), k[0])

    def draw_marker(self, surf, at, group: str) -> None:
        c = self.cam.to_screen(*at)
        r = max(7.0, 20.0 / self.map.mm_per_unit * self.cam.scale)
        pygame.draw.circle(surf, (236, 190, 60) if group == "objective" else (70, 190, 110), c, r)
        pygame.draw.circle(surf, (40, 30, 10), c, r, 2)

    def draw_measures(self, surf, measures) -> None:
        unit = '"' if self.map.unit == "in" else f" {self.map.unit}"
        for ms in measures:
            a, b = self.cam.to_screen(*ms.a), self.cam.to_screen(*ms.b)
            col = (255, 255, 255) if ms.what == "edge" else (255, 210, 120)
            pygame.draw.line(surf, (0, 0, 0), a, b, 3)
            pygame.draw.line(surf, col, a, b, 1)
            txt = f"{ms.length:.1f}{unit}"
            lab = self.texts.text(txt, 14, True, col)
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            back = pygame.Rect(0, 0, lab.get_width() + 6, lab.get_height() + 2)
            back.center = mid
            pygame.draw.rect(surf, (20, 16, 12), back, border_radius=3)
            surf.blit(lab, lab.get_rect(center=mid))

    def draw_selection(self, surf) -> None:
        cam = self.cam
        moving = self.drag.moving if (self.drag is not None and self.drag.active and hasattr(self.drag, "moving")) else set()
        self.lock_tags = []
        names = self.renderer.label_rects
        taken = list(names.values())
        tag = self.texts.memo.get("locked-tag")
        if tag is None:
            tag = self.texts.memo["locked-tag"] = plate("\u25a0 locked", 12, (255, 200, 120), bold=True)
        for p in self.map.pieces:
            if p.locked and ("piece", p.id) not in moving:
                # at a corner of the piece, off its name label (drawn at its centre, above or below
                # it) and off the other tags: over the label it garbled the name
                x0, y0, x1, y1 = S.bounds(p.shape)
                spots = [tag.get_rect(bottomleft=cam.to_screen(x0, y1)), tag.get_rect(topleft=cam.to_screen(x0, y0)),
                         tag.get_rect(bottomright=cam.to_screen(x1, y1)), tag.get_rect(topright=cam.to_screen(x1, y0))]
                own = names.get(p.id)
                # the corner clear of every name and tag, else the one over the fewest (never its own name)
                r = min(spots, key=lambda r: (own is not None and r.colliderect(own),
                                              len(r.collidelistall(taken))))
                surf.blit(tag, r)
                taken.append(r)
                self.lock_tags.append((p.id, r))
        if not self.selection or (moving and self.drag.kind == "move"):
            return
        geoms = {q.piece.id: q for q in self.renderer.geoms}
        for k in self.selection:
            if k in moving:
                continue
            g = E.geometry(self.map, k)
            if k[0] == "piece":
                if k[1] in geoms:
                    self.renderer.outline(surf, cam, geoms[k[1]], (255, 225, 120), 2)
            elif k[0] == "zone":
                pygame.draw.polygon(surf, (255, 240, 180), [cam.to_screen(*p) for p in g], 3)
            else:
                r = max(7.0, 20.0 / self.map.mm_per_unit * cam.scale) + 4
                pygame.draw.circle(surf, (255, 225, 120), cam.to_screen(*g), r, 2)
        b = self.selection_box
        if b is None or (self.drag is not None and self.drag.active and self.drag.kind in ("rotate", "scale", "vertex")):
            return
        x0, y0 = cam.to_screen(b[0], b[3])
        x1, y1 = cam.to_screen(b[2], b[1])
        r = pygame.Rect(round(x0) - 3, round(y0) - 3, round(x1 - x0) + 6, round(y1 - y0) + 6)
        _dashed_rect(surf, (255, 240, 190), r)
        turn = ((x0 + x1) / 2, y0 - 22)
        pygame.draw.line(surf, (255, 240, 190), turn, ((x0 + x1) / 2, y0 - 3), 1)
        pygame.draw.circle(surf, (40, 30, 20), turn, HANDLE_PX)
        pygame.draw.circle(surf, (255, 220, 120), turn, HANDLE_PX - 2)
        sq = pygame.Rect(0, 0, 2 * HANDLE_PX, 2 * HANDLE_PX)
        sq.center = (x1 + 8, y1 + 8)
        pygame.draw.rect(surf, (40, 30, 20), sq)
        pygame.draw.rect(surf, (255, 220, 120), sq.inflate(-4, -4))
        vt = self.vertex_target
        if vt is not None:
            for p in vt[1]:
                c = cam.to_screen(*p)
                pygame.draw.circle(surf, (20, 20, 20), c, HANDLE_PX - 1)
                pygame.draw.circle(surf, (120, 230, 255), c, HANDLE_PX - 3)


def _dashed_rect(surf, colour, r: pygame.Rect, dash: int = 6) -> None:
    for (ax, ay), (bx, by) in (((r.left, r.top), (r.right, r.top)), ((r.right, r.top), (r.right, r.bottom)),
                               ((r.right, r.bottom), (r.left, r.bottom)), ((r.left, r.bottom), (r.left, r.top))):
        L = max(1, int(math.hypot(bx - ax, by - ay)))
        for s in range(0, L, 2 * dash):
            e = min(L, s + dash)
            pygame.draw.line(surf, colour, (ax + (bx - ax) * s / L, ay + (by - ay) * s / L),
                             (ax + (bx - ax) * e / L, ay + (by - ay) * e / L), 1)
