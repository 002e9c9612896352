"""What ``TableRenderer`` (``table_view``) draws on the table besides its pieces: the objective
and evac markers (part of the cached table image), and per frame on top, placed for the view
and never scaled: the landmarks' names (kept clear of markers, small pieces and the models'
tokens given by ``set_avoid``) and the scale bar.
"""
from __future__ import annotations

import math

import pygame

from .look import EVAC_COLOUR, OBJECTIVE_COLOUR, _draw
from .text import font, plate, text_halo


class Marks:
    """Markers, labels and the scale bar of a ``TableRenderer`` (``look``: the map, its pieces'
    outlines and names, the discs labels keep off). Keeps where it drew the labels and the bar."""

    def __init__(self, look):
        self.look = look
        self.label_rects: dict[str, pygame.Rect] = {}    # where it drew each piece's name (by id)
        self.scale_bar_rect: pygame.Rect | None = None   # where the last frame drew the scale bar
        self.label_key = None                            # the labels' candidates, kept per scale
        self.label_cands: list = []

    def forget(self) -> None:
        """The map changed: the labels' candidates are found again."""
        self.label_key = None

    def markers(self, surf, cam):
        r_world = 20.0 / cam.mm_per_unit               # a 40 mm marker
        r = max(7.0, r_world * cam.scale)
        for i, m in enumerate(self.look.map.objectives):
            cx, cy = cam.to_screen(*m.at)
            glow = pygame.Surface((int(r * 4), int(r * 4)), pygame.SRCALPHA)
            _draw.circle(glow, (*OBJECTIVE_COLOUR, 60), (r * 2, r * 2), r * 1.9)
            surf.blit(glow, (math.floor(cx - r * 2), math.floor(cy - r * 2)))
            _draw.circle(surf, (40, 30, 10), (cx + 2, cy + 2), r)
            _draw.circle(surf, (250, 244, 220), (cx, cy), r)
            _draw.circle(surf, OBJECTIVE_COLOUR, (cx, cy), r * 0.82)
            _draw.circle(surf, (70, 50, 10), (cx, cy), r, 2)
            star = [(cx + math.cos(-math.pi / 2 + k * math.pi / 5) * (r * 0.62 if k % 2 == 0 else r * 0.26),
                     cy + math.sin(-math.pi / 2 + k * math.pi / 5) * (r * 0.62 if k % 2 == 0 else r * 0.26)) for k in range(10)]
            _draw.polygon(surf, (90, 60, 10), star)
            if r >= 9:
                num = text_halo(str(i + 1), max(13, int(r * 0.9)), bold=True)
                surf.blit(num, num.get_rect(center=(math.floor(cx + r * 0.95), math.floor(cy - r * 0.95))))
        for m in self.look.map.evac_points:
            cx, cy = cam.to_screen(*m.at)
            _draw.circle(surf, (10, 40, 20), (cx + 2, cy + 2), r)
            _draw.circle(surf, (236, 250, 240), (cx, cy), r)
            _draw.circle(surf, EVAC_COLOUR, (cx, cy), r * 0.82)
            _draw.circle(surf, (20, 70, 40), (cx, cy), r, 2)
            # an up chevron pair: "leave the table here"
            for dy in (-0.22, 0.18):
                _draw.lines(surf, (245, 255, 245), False, [(cx - r * 0.45, cy + r * (dy + 0.22)), (cx, cy + r * (dy - 0.18)), (cx + r * 0.45, cy + r * (dy + 0.22))], max(2, int(r * 0.16)))

    def labels(self, surf, cam):
        px_per_in = cam.px_per_mm * 25.4
        if px_per_in < 12:
            return
        size = 15 if px_per_in < 26 else (17 if px_per_in < 45 else 19)
        screen = surf.get_rect()
        # what a label must leave uncovered: objectives and evac points, small pieces (a crate,
        # a barrel: covered, they could not be seen), and the models' tokens (``set_avoid``)
        placed: list[pygame.Rect] = []
        r_marker = max(7.0, 20.0 / cam.mm_per_unit * cam.scale) * 1.3
        for m in list(self.look.map.objectives) + list(self.look.map.evac_points):
            cx, cy = cam.to_screen(*m.at)
            placed.append(pygame.Rect(round(cx - r_marker), round(cy - r_marker), round(2 * r_marker), round(2 * r_marker)))
        for x, y, r in self.look._avoid:
            cx, cy = cam.to_screen(x / cam.mm_per_unit, y / cam.mm_per_unit)
            rp = r * cam.px_per_mm + 3
            placed.append(pygame.Rect(round(cx - rp), round(cy - rp), round(2 * rp), round(2 * rp)))
        small = {}
        for g in self.look.geoms:
            x0, y0, x1, y1 = g.bounds
            (sx0, sy1), (sx1, sy0) = cam.to_screen(x0, y0), cam.to_screen(x1, y1)
            w, h = abs(sx1 - sx0), abs(sy1 - sy0)
            if 2 <= w <= 40 and 2 <= h <= 40:
                small[id(g)] = pygame.Rect(round(min(sx0, sx1)), round(min(sy0, sy1)), round(w), round(h))
        cands = self.label_candidates(cam.scale, px_per_in)
        shown_names: dict[str, int] = {}
        for g in cands:
            name = g.piece.name
            if shown_names.get(name, 0) and self.look.name_count[name] >= 2 and px_per_in < 60:
                continue
            x0, y0, x1, y1 = g.bounds
            lab = plate(name, size)
            ax, ay = cam.to_screen(*g.anchor())
            top, bottom = cam.to_screen(0, y1)[1], cam.to_screen(0, y0)[1]
            options = [(ax, ay), (ax, top - lab.get_height() * 0.6), (ax, bottom + lab.get_height() * 0.6)]
            others = [r for k, r in small.items() if k != id(g)]
            for (lx, ly) in options:
                rect = lab.get_rect(center=(round(lx), round(ly)))
                if not screen.contains(rect):
                    continue
                if rect.inflate(4, 2).collidelist(placed) == -1 and rect.collidelist(others) == -1:
                    surf.blit(lab, rect)
                    placed.append(rect)
                    self.label_rects[g.piece.id] = rect   # the editor's lock tags keep off them
                    shown_names[name] = shown_names.get(name, 0) + 1
                    break

    def label_candidates(self, scale: float, px_per_in: float) -> list:
        """The pieces that may be labelled at this scale, landmarks (big, tall) first: the same
        for every frame of a pan, so kept for the last scale."""
        key = (scale, px_per_in)
        if self.label_key == key:
            return self.label_cands
        cands = []
        for g in self.look.geoms:
            name = g.piece.name
            if not name:
                continue
            if g.seg is not None and self.look.name_count.get(name, 0) >= 2 and px_per_in < 40:
                continue      # fences, hedges, pipes: named in the tooltip, labelled when zoomed
            repeated = self.look.name_count.get(name, 0)
            if repeated >= 3 and px_per_in < 60:
                continue      # fence runs, barrels, headstones: only when zoomed well in
            cands.append(g)
        cands.sort(key=lambda g: -(g.area * (scale ** 2) + g.height_mm * 3))
        self.label_key, self.label_cands = key, cands
        return cands

    def scale_bar(self, surf, cam):
        m = self.look.map
        if m.unit == "in":
            choices, unit, per = (1, 2, 3, 6, 12, 24), '"', 1.0
        else:
            choices, unit, per = (5, 10, 20, 30, 50, 100), " cm", 10.0 / m.mm_per_unit
        length = choices[0]
        for c in choices:
            if c * per * cam.scale <= 260:
                length = c
        px = length * per * cam.scale
        tr = self.look._table_rect(cam)
        W, H = surf.get_size()
        x = max(12, tr.left)
        y = min(H - 16, tr.bottom + 22)
        if y > H - 16 or tr.bottom + 22 > H - 10:
            y = H - 20
        n = length if length <= 12 else length // 2 if length <= 24 else 10
        n = min(n, 12)
        seg = px / n
        back = pygame.Surface((px + 90, 28), pygame.SRCALPHA)
        _draw.rect(back, (20, 16, 12, 170), back.get_rect(), border_radius=6)
        surf.blit(back, (x - 8, y - 14))
        # where it went, in the surface's pixels: what the scene draws over the table (a hand of
        # cards) keeps clear of it
        self.scale_bar_rect = pygame.Rect(x - 8, y - 14, back.get_width(), back.get_height())
        for i in range(n):
            col = (240, 236, 226) if i % 2 == 0 else (30, 26, 22)
            _draw.rect(surf, col, pygame.Rect(round(x + i * seg), y - 4, math.ceil(seg), 8))
        _draw.rect(surf, (240, 236, 226), pygame.Rect(x, y - 4, round(px), 8), 1)
        lab = font(17, True).render(f"{length}{unit}", True, (240, 236, 226))
        surf.blit(lab, (x + px + 8, y - lab.get_height() // 2))
