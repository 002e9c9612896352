"""Drawing the editor: the dragged items on top of the table image, the selection with its
handles, the tool's ghost, the status line, the analysis panel and the help.

A part of ``EditorScene`` (``game/scenes/editor.py``): the scene's ``draw`` calls these; they
only read the scene's state (and keep a small cache of rendered text in ``_memo``).
"""
from __future__ import annotations

import math

import pygame

from engine.workshop import edits as E
from engine.workshop import shapes as S
from game.editor.figures import diff_text, rows as figure_rows, symmetry_line
from game.editor.layout import HANDLE_PX, PANEL_W
from game.render.text import font, plate
from game.ui.toasts import clear_of, scale_bar_on_screen, toast

MIRROR_DELTA = {"mirror_x": (-1, 1), "mirror_y": (1, -1), "point": (-1, -1)}
HELP = [
    "Layout editor",
    "Click a palette item, then the table to place it (Shift: keep placing); R turns the item to place",
    "Click a piece to select it (its group with it); Shift+click adds or removes; drag on the table to box-select",
    "Drag a selection to move it (grid and alignment snapping; hold Alt to place freely); arrows nudge",
    "Drag the round handle to turn (15-degree steps), the square one to scale; R / Shift+R turn by 15 degrees",
    "V: edit the corners of the selected piece (Insert adds one under the pointer, Backspace removes it)",
    "Del: delete   Ctrl+C / Ctrl+V / Ctrl+D: copy, paste at the pointer, duplicate   Ctrl+G: group   L: lock",
    "Ctrl+Z / Ctrl+Y: undo, redo   Ctrl+S: save   Ctrl+Shift+S: save as   Ctrl+O: open   Ctrl+N: new",
    "M: symmetry mode   G: snapping   O: overlay (openness, hidden ground, lanes)   F: fit   F1: this help",
    "Right drag: pan   Wheel: zoom   Esc: cancel, deselect",
]


class DrawingMixin:
    """The drawing of ``EditorScene``."""

    def _table_screen_rect(self) -> pygame.Rect:
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
            mode = self.stack.symmetry
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
                self._draw_item_ghost(surf, k, off)
            for axis, v in d.guides:
                if axis == "x":
                    x = cam.to_screen(v, 0)[0]
                    pygame.draw.line(surf, (80, 220, 255), (x, 0), (x, surf.get_height()), 1)
                else:
                    y = cam.to_screen(0, v)[1]
                    pygame.draw.line(surf, (80, 220, 255), (0, y), (surf.get_width(), y), 1)
            self._draw_measures(surf, d.measures)
        else:
            if d.floating:
                self.renderer.draw_floating(surf, cam, d.floating)
            if d.preview is not None:
                for k in d.moving:
                    if k[0] != "piece":
                        self._draw_item_ghost(surf, k, (0, 0), d.preview)
            if getattr(d, "problem", ""):
                lab = font(15).render(d.problem[:90], True, (255, 150, 130))
                surf.blit(lab, (10, 10))
            if d.kind == "rotate" and d.value is not None:
                lab = font(17, True).render(f"{d.value:+.1f}\u00b0", True, (255, 240, 190))
                surf.blit(lab, (self.mouse[0] - self.table_rect.x + 14, self.mouse[1] - self.table_rect.y - 10))
            elif d.kind == "scale" and d.value is not None:
                lab = font(17, True).render(f"x{d.value:.2f}", True, (255, 240, 190))
                surf.blit(lab, (self.mouse[0] - self.table_rect.x + 14, self.mouse[1] - self.table_rect.y - 10))

    def _draw_item_ghost(self, surf, k, off, m=None) -> None:
        g = E.geometry(m or self.map, k)
        if k[0] == "zone":
            pts = [self.cam.to_screen(x + off[0], y + off[1]) for x, y in g]
            pygame.draw.polygon(surf, (255, 240, 180), pts, 2)
        else:
            self._draw_marker(surf, (g[0] + off[0], g[1] + off[1]), k[0])

    def _draw_marker(self, surf, at, group: str) -> None:
        c = self.cam.to_screen(*at)
        r = max(7.0, 20.0 / self.map.mm_per_unit * self.cam.scale)
        pygame.draw.circle(surf, (236, 190, 60) if group == "objective" else (70, 190, 110), c, r)
        pygame.draw.circle(surf, (40, 30, 10), c, r, 2)

    def _draw_measures(self, surf, measures) -> None:
        unit = '"' if self.map.unit == "in" else f" {self.map.unit}"
        for ms in measures:
            a, b = self.cam.to_screen(*ms.a), self.cam.to_screen(*ms.b)
            col = (255, 255, 255) if ms.what == "edge" else (255, 210, 120)
            pygame.draw.line(surf, (0, 0, 0), a, b, 3)
            pygame.draw.line(surf, col, a, b, 1)
            txt = f"{ms.length:.1f}{unit}"
            lab = self._text(txt, 14, True, col)
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            back = pygame.Rect(0, 0, lab.get_width() + 6, lab.get_height() + 2)
            back.center = mid
            pygame.draw.rect(surf, (20, 16, 12), back, border_radius=3)
            surf.blit(lab, lab.get_rect(center=mid))

    def _draw_selection(self, surf) -> None:
        cam = self.cam
        moving = self.drag.moving if (self.drag is not None and self.drag.active and hasattr(self.drag, "moving")) else set()
        self.lock_tags = []
        names = self.renderer.label_rects
        taken = list(names.values())
        tag = self._memo.get("locked-tag")
        if tag is None:
            tag = self._memo["locked-tag"] = plate("\u25a0 locked", 12, (255, 200, 120), bold=True)
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
        b = self._selection_box()
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
        vt = self._vertex_target()
        if vt is not None:
            for p in vt[1]:
                c = cam.to_screen(*p)
                pygame.draw.circle(surf, (20, 20, 20), c, HANDLE_PX - 1)
                pygame.draw.circle(surf, (120, 230, 255), c, HANDLE_PX - 3)

    def _draw_tool(self, surf) -> None:
        """The placing tool's ghost under the pointer (the tool draws it)."""
        if self.tool is None or not self.table_rect.collidepoint(self.mouse):
            return
        self._tool(self.tool).hover(self._world(self.mouse), self.mouse)
        self.tool.draw(surf, self)

    def _text(self, text, size=15, bold=False, colour=(236, 228, 210)):
        key = ("t", text, size, bold, colour)
        s = self._memo.get(key)
        if s is None:
            if len(self._memo) > 400:
                self._memo.clear()
            s = self._memo[key] = font(size, bold).render(text, True, colour)
        return s

    def _wrap(self, lines, size, width) -> list[str]:
        """``lines`` broken at spaces to fit ``width`` pixels (kept per text: drawn every frame)."""
        key = ("wrap", tuple(lines), size, width)
        got = self._memo.get(key)
        if got is None:
            f = font(size)
            got = []
            for line in lines:
                cur = ""
                words = []
                for word in line.split(" "):
                    while f.size(word)[0] > width and len(word) > 8:    # a path longer than the panel
                        k = max(8, int(len(word) * width / f.size(word)[0]) - 1)
                        words.append(word[:k])
                        word = word[k:]
                    words.append(word)
                for word in words:
                    cand = f"{cur} {word}".strip()
                    if cur and f.size(cand)[0] > width:
                        got.append(cur)
                        cur = word
                    else:
                        cur = cand
                got.append(cur)
            self._memo[key] = got
        return got

    def _draw_status(self, screen) -> None:
        r = self.status_rect
        pygame.draw.rect(screen, (22, 18, 15), r)
        m = self.map
        sym = self.stack.symmetry
        score = symmetry_line(self.live.metrics, sym) if (self.live and self.live.metrics) else "..."
        parts = [self.doc.title(), f"{m.width:g}x{m.height:g} {m.unit}, {len(m.pieces)} pieces",
                 f"symmetry: {score}"]
        if self.table_rect.collidepoint(self.mouse):
            x, y = self._world(self.mouse)
            parts.append(f"({x:.1f}, {y:.1f})")
        screen.blit(self._text("   |   ".join(parts), 14), (r.x + 8, r.y + 4))
        # the messages, newest lowest, right-aligned, each fitted to the table's width (a long
        # path wraps) and the stack kept clear of the scale bar
        bar = scale_bar_on_screen(self.renderer, self.table_rect)
        y = self.table_rect.bottom - 8
        self.toast_rects = []
        for text, until, err in reversed(self.messages):
            key = ("toast", text, err, self.table_rect.w)
            lab = self._memo.get(key)
            if lab is None:
                lab = self._memo[key] = toast(text, 15, self.table_rect.w - 28,
                                              (255, 160, 140) if err else (240, 232, 214), (30, 22, 16, 235))
            r = clear_of(lab.get_rect(bottomright=(self.table_rect.right - 8, y)), bar)
            screen.blit(lab, r)
            self.toast_rects.append(r)
            y = r.top - 3

    def _draw_analysis(self, screen) -> None:
        r = self.analysis_rect
        pygame.draw.rect(screen, (36, 30, 25), r)
        x, y = r.x + 10, r.y + 6
        if self.form.problem:
            screen.blit(self._text(self.form.problem[:52], 14, True, (255, 150, 130)), (x, y))
            y += 20
        for line in self._wrap(self.save_lines[:3], 13, PANEL_W - 20)[:6]:
            screen.blit(self._text(line, 13, False, (255, 150, 130)), (x, y))
            y += 17
        lv = self.live
        busy = " (updating...)" if self.analysis.busy else ""
        if lv is None:
            screen.blit(self._text("Sight analysis" + (busy or ": waiting"), 15, True), (x, y))
            return
        head = f"Sight, {'2' if lv.coarse else '1'}\" grid{busy}"
        screen.blit(self._text(head, 15, True), (x, y))
        y += 20
        if lv.error:
            screen.blit(self._text(lv.error[:56], 13, False, (255, 150, 130)), (x, y))
            return
        if lv.metrics.get("missing_sides"):
            screen.blit(self._text(f"no zone for side {lv.metrics['missing_sides'][0]} yet", 13, False,
                                   (255, 190, 120)), (x, y))
            y += 17
        base = self.baseline.metrics if self.baseline is not None else None
        screen.blit(self._text("side 1 / side 2, and since the last save", 12, False, (180, 170, 150)), (x, y))
        y += 17
        for label, a, b, d in figure_rows(lv.metrics, base):
            screen.blit(self._text(label, 14), (x, y))
            val = a if not b else f"{a} / {b}"
            screen.blit(self._text(val, 14, True), (x + 160, y))
            dt = diff_text(d)
            if dt:
                col = (255, 170, 80) if d > 0 else (120, 180, 255)
                screen.blit(self._text(dt, 14, True, col), (x + 270, y))
            y += 18
        y += 4
        # the generator's lines, then the balance test's, above whichever progress bars show
        floor = min((b.rect.top for b in (self.progress, self.gen_progress) if b is not None), default=r.bottom) - 4
        for lines, col in ((self.generate_lines[:5], (200, 225, 250)), (self.balance_lines[:4], (220, 235, 200))):
            for line in self._wrap(lines, 13, PANEL_W - 20)[:8]:
                if y + 17 > floor:
                    return
                screen.blit(self._text(line, 13, False, col), (x, y))
                y += 17

    def _draw_help(self, screen) -> None:
        w = 760
        h = 26 * len(HELP) + 20
        box = pygame.Surface((w, h), pygame.SRCALPHA)
        box.fill((20, 16, 12, 235))
        for i, line in enumerate(HELP):
            box.blit(font(17 if i == 0 else 14, i == 0).render(line, True, (240, 232, 214)), (14, 10 + 26 * i))
        screen.blit(box, box.get_rect(center=self.table_rect.center))


def _dashed_rect(surf, colour, r: pygame.Rect, dash: int = 6) -> None:
    for (ax, ay), (bx, by) in (((r.left, r.top), (r.right, r.top)), ((r.right, r.top), (r.right, r.bottom)),
                               ((r.right, r.bottom), (r.left, r.bottom)), ((r.left, r.bottom), (r.left, r.top))):
        L = max(1, int(math.hypot(bx - ax, by - ay)))
        for s in range(0, L, 2 * dash):
            e = min(L, s + dash)
            pygame.draw.line(surf, colour, (ax + (bx - ax) * s / L, ay + (by - ay) * s / L),
                             (ax + (bx - ax) * e / L, ay + (by - ay) * e / L), 1)
