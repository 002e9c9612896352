"""The table's ground, drawn by ``TableRenderer`` (``table_view``): the cloth (its mottled
texture fixed to the table, a darker rim, the table's shadow on the background), the measuring
grid (1" or 10 cm, a major line every foot or 30 cm), and the deployment zones (tinted and
hatched per side; their labels are drawn per frame, placed for the view).

A layer of ``TableRenderer`` (an object it owns, ``renderer.ground``): it reads the renderer's
``map`` and ``theme`` and keeps the cloth tile in ``noise``.
"""
from __future__ import annotations

import math

import pygame

from .camera import Camera, _rnd
from .look import SIDE_COLOURS, _draw, _mix, _shade
from .painters import _dashed_poly
from .text import plate


def _ring(outer: pygame.Rect, inner: pygame.Rect) -> list[pygame.Rect]:
    """Four rects that tile ``outer`` minus ``inner`` (inner inside outer), or [outer] when
    ``inner`` is empty."""
    if inner.w <= 0 or inner.h <= 0:
        return [outer]
    return [pygame.Rect(outer.x, outer.y, outer.w, inner.y - outer.y),
            pygame.Rect(outer.x, inner.bottom, outer.w, outer.bottom - inner.bottom),
            pygame.Rect(outer.x, inner.y, inner.x - outer.x, inner.h),
            pygame.Rect(inner.right, inner.y, outer.right - inner.right, inner.h)]


def _paint_bands(surf: pygame.Surface, bands: list[pygame.Rect], paint) -> None:
    """A transparent layer painted by ``paint(layer, dx, dy)`` (surface coordinates minus
    (dx, dy)) and blitted, made only over ``bands`` (the layer stays transparent elsewhere):
    the same pixels as a surface-sized layer at the cost of the bands."""
    for band in bands:
        band = band.clip(surf.get_clip())
        if band.w <= 0 or band.h <= 0:
            continue
        layer = pygame.Surface(band.size, pygame.SRCALPHA)
        paint(layer, band.x, band.y)
        surf.blit(layer, band.topleft)


class Ground:
    """The cloth, grid and zones of a ``TableRenderer`` (``look``: the map, its theme, the
    table's rect on the screen). Keeps the cloth's texture and where the zones' banners went."""

    def __init__(self, look):
        self.look = look
        self.noise: pygame.Surface | None = None
        self.zone_label_rects: list[pygame.Rect] = []   # where each zone's banner was drawn (tests, tours)

    def noise_tile(self) -> pygame.Surface:
        """A seamless tile of the cloth colour with a soft deterministic mottle."""
        if self.noise is None:
            import numpy as np
            T = 256
            rng = np.random.default_rng(20240611)
            acc = np.zeros((T, T))
            for cells, amp in ((4, 1.0), (8, 0.55), (32, 0.25), (128, 0.12)):
                g = rng.random((cells, cells))
                # bilinear upsampling with wrap-around: the tile repeats without seams
                t = np.arange(T) * cells / T
                i0 = np.floor(t).astype(int)
                f = t - i0
                f = f * f * (3 - 2 * f)
                i1 = (i0 + 1) % cells
                rows = g[i0][:, i0] * (1 - f)[None, :] + g[i0][:, i1] * f[None, :]
                rows1 = g[i1][:, i0] * (1 - f)[None, :] + g[i1][:, i1] * f[None, :]
                acc += amp * (rows * (1 - f)[:, None] + rows1 * f[:, None])
            acc = (acc - acc.mean()) / (acc.std() + 1e-9)
            cloth = np.array(self.look.theme["cloth"], dtype=float)
            img = cloth[None, None, :] * (1 + 0.04 * acc[:, :, None])
            img = np.clip(img, 0, 255).astype(np.uint8)
            self.noise = pygame.surfarray.make_surface(img.transpose(1, 0, 2))
        return self.noise

    def cloth(self, surf: pygame.Surface, cam: Camera) -> None:
        bg = self.look.theme["bg"]
        surf.fill(bg)
        tr = self.look._table_rect(cam)
        # the table's own shadow on the background (only the band around the table is seen: the
        # cloth covers the rest)
        def shadow(layer, dx, dy):
            for i in range(10):
                _draw.rect(layer, (0, 0, 0, 14), pygame.Rect(tr.x - i * 2 + 6 - dx, tr.y - i * 2 + 8 - dy, tr.w + i * 4 - 12,
                                                             tr.h + i * 4 - 12), border_radius=6 + i)
        _paint_bands(surf, _ring(tr.inflate(48, 48), tr), shadow)
        cloth = self.look.theme["cloth"]
        _draw.rect(surf, cloth, tr)
        clip = surf.get_clip()
        surf.set_clip(tr.clip(surf.get_rect()))
        tile = self.noise_tile()
        T = tile.get_width()
        # the mottle is fixed to the table (its top-left corner), so it moves with it when panning
        ox = tr.x % T
        oy = tr.y % T
        for yy in range(oy - T, surf.get_height() + T, T):
            for xx in range(ox - T, surf.get_width() + T, T):
                surf.blit(tile, (xx, yy))
        # darker rim (felt folded over the table edge): 16 px inside the edge

        def rim(layer, dx, dy):
            for i in range(8):
                _draw.frame(layer, (0, 0, 0, 10), tr.inflate(-i * 2, -i * 2).move(-dx, -dy), 2)
        _paint_bands(surf, _ring(tr, tr.inflate(-32, -32)), rim)
        surf.set_clip(clip)
        _draw.frame(surf, _shade(cloth, -0.55), tr, 2)

    def grid(self, surf: pygame.Surface, cam: Camera) -> None:
        m = self.look.map
        step_mm = 25.4 if m.unit == "in" else 100.0      # 1" or 10 cm
        major_every = 12 if m.unit == "in" else 3        # every foot, or every 30 cm
        mult = 1
        if step_mm * cam.px_per_mm < 7:
            mult = 6 if m.unit == "in" else 3
            if step_mm * mult * cam.px_per_mm < 7:
                return
        step = step_mm * mult / m.mm_per_unit
        tr = self.look._table_rect(cam)
        cloth, gc = self.look.theme["cloth"], self.look.theme["grid"]
        minor, major = _mix(cloth, gc, 0.16), _mix(cloth, gc, 0.34)
        for W, horizontal in ((m.width, False), (m.height, True)):
            i = 1
            while i * step < W - 1e-6:
                col = major if (i * mult) % major_every == 0 else minor
                if horizontal:
                    y = _rnd(cam.to_screen(0, i * step)[1])
                    if tr.top < y < tr.bottom:
                        _draw.line(surf, col, (tr.left, y), (tr.right - 1, y))
                else:
                    x = _rnd(cam.to_screen(i * step, 0)[0])
                    if tr.left < x < tr.right:
                        _draw.line(surf, col, (x, tr.top), (x, tr.bottom - 1))
                i += 1

    def zones(self, surf: pygame.Surface, cam: Camera) -> None:
        zones = [(z, [cam.to_screen(*p) for p in z.points]) for z in self.look.map.deployment]
        if not zones:
            return
        # one layer over the zones only (what lies outside them would stay transparent)
        xs = [p[0] for _, pts in zones for p in pts]
        ys = [p[1] for _, pts in zones for p in pts]
        lx, ly = max(0, math.floor(min(xs)) - 4), max(0, math.floor(min(ys)) - 4)
        box = pygame.Rect(lx, ly, math.ceil(max(xs)) + 5 - lx, math.ceil(max(ys)) + 5 - ly).clip(surf.get_rect())
        if box.w <= 0 or box.h <= 0:
            return
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        for z, spts in zones:
            col = SIDE_COLOURS.get(z.side, (200, 200, 200))
            pts = [(x - box.x, y - box.y) for x, y in spts]
            _draw.polygon(layer, (*col, 62), pts)
            # diagonal hatching, clipped to the zone
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            r = pygame.Rect(math.floor(min(xs)), math.floor(min(ys)), int(max(xs) - min(xs)),
                            int(max(ys) - min(ys))).clip(layer.get_rect())
            if r.w > 0 and r.h > 0:
                hatch = pygame.Surface(r.size, pygame.SRCALPHA)
                gap = 14
                # the lines x + y = const are fixed to the zone's corner, even when it is cut
                c0 = (math.floor(min(xs)) + math.floor(min(ys)) - r.x - r.y) % gap
                for c in range(c0 - gap, r.w + r.h, gap):
                    _draw.line(hatch, (*col, 34), (c - r.h, r.h), (c, 0), 2)
                mask = pygame.Surface(r.size, pygame.SRCALPHA)
                _draw.polygon(mask, (255, 255, 255, 255), [(x - r.x, y - r.y) for x, y in pts])
                hatch.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
                layer.blit(hatch, r.topleft)
            _dashed_poly(layer, (*_shade(col, -0.2), 200), pts, 2, 10, 6)
        surf.blit(layer, box.topleft)

    def zone_labels(self, surf, cam):
        self.zone_label_rects = []
        for z in self.look.map.deployment:
            col = SIDE_COLOURS.get(z.side, (200, 200, 200))
            xs = [p[0] for p in z.points]
            ys = [p[1] for p in z.points]
            w_px = (max(xs) - min(xs)) * cam.scale
            h_px = (max(ys) - min(ys)) * cam.scale
            text = f"SIDE {z.side} DEPLOYMENT"
            lab = plate(text, 17 if cam.scale * self.look.map.mm_per_unit > 0.6 else 14, fg=(255, 255, 255),
                        bg=(*_shade(col, -0.25), 210), bold=True)
            if h_px > w_px:
                lab = pygame.transform.rotate(lab, 90 if z.side == 1 else -90)
            cx, cy = cam.to_screen((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
            rect = lab.get_rect(center=(cx, cy))
            tr = self.look._table_rect(cam)
            if h_px <= w_px:
                # along the zone's table edge, toward its own corner
                sy0 = cam.to_screen(0, max(ys))[1]
                sy1 = cam.to_screen(0, min(ys))[1]
                at_top = abs(sy0 - tr.top) < abs(sy1 - tr.bottom)
                rect.centery = sy0 + rect.h * 0.9 if at_top else sy1 - rect.h * 0.9
                rect.centerx = cam.to_screen(self.look.map.width * (0.12 if z.side == 1 else 0.88), 0)[0]
                # on a small table (the launcher's preview at 1024x600) the banner is wider than
                # 12% of it: kept on the table rather than cut at its edge (issue 58)
                rect.clamp_ip(tr.inflate(-4, -4) if rect.w <= tr.w - 4 else tr)
            if rect.w < max(w_px, h_px) * 0.9:
                surf.blit(lab, rect)
                self.zone_label_rects.append(rect)
