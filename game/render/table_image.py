"""The table image ``TableRenderer`` (``table_view``) keeps: the table's layers (cloth, grid,
zones, shadows, pieces, markers) rendered once per scale into an off-screen image, the whole
table or a region around the view; where that image goes on a frame (exact only at the same
scale and a whole-pixel offset); the scaled stand-in while a zoom is still changing; each
piece's sprite per zoom; and the per-frame layers drawn over it (labels, zone labels, scale bar).

A part of ``TableRenderer``: ``_main`` and ``_overview`` are the renderer's images.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from .camera import Camera, _SpriteCamera, _rnd
from .geoms import PieceGeom


@dataclass
class _TableImage:
    """The table layers rendered at one scale: ``surf`` is what ``cam`` sees (its viewport is the
    view's, moved by whole pixels);
    ``whole``: it holds the whole table; ``extent``: the table's extent in its pixels."""
    surf: pygame.Surface
    cam: Camera
    whole: bool
    extent: pygame.Rect


def _image_origin(img: _TableImage, cam: Camera) -> tuple[float, float, float]:
    """Where pixel (0, 0) of ``img`` lands on a surface seen through ``cam``, and the factor
    from its pixels to the surface's."""
    s, ic = cam.scale, img.cam
    f = s / ic.scale
    return (cam.viewport.x + (ic.ox - cam.ox) * s - ic.viewport.x * f,
            cam.viewport.y + (cam.oy - ic.oy) * s - ic.viewport.y * f, f)


def _blit_scaled(frame: pygame.Surface, img: _TableImage, cam: Camera) -> None:
    """Blit ``img`` onto ``frame`` as ``cam`` would see it, scaling only its visible part
    (nearest neighbour: a stand-in for the frames of a zoom)."""
    ax, ay, f = _image_origin(img, cam)
    W, H = frame.get_size()
    iw, ih = img.surf.get_size()
    u0, u1 = max(0, math.floor(-ax / f)), min(iw, math.ceil((W - ax) / f))
    v0, v1 = max(0, math.floor(-ay / f)), min(ih, math.ceil((H - ay) / f))
    if u1 <= u0 or v1 <= v0:
        return
    x0, x1 = _rnd(ax + u0 * f), _rnd(ax + u1 * f)
    y0, y1 = _rnd(ay + v0 * f), _rnd(ay + v1 * f)
    if x1 <= x0 or y1 <= y0:
        return
    part = img.surf.subsurface(pygame.Rect(u0, v0, u1 - u0, v1 - v0))
    frame.blit(pygame.transform.scale(part, (x1 - x0, y1 - y0)), (x0, y0))


class TableImageMixin:
    """The cached table image and the layers of ``TableRenderer``."""

    SPRITE_MAX_PX = 1600

    def _table_extent(self, cam: Camera) -> pygame.Rect:
        """Screen rect (for ``cam``) outside which the table layers leave the background as is:
        the table, its shadow on the background, and markers that overhang the edge."""
        ext = self._table_rect(cam).inflate(2 * 24, 2 * 24)
        r = max(7.0, 20.0 / cam.mm_per_unit * cam.scale)
        pad = int(2 * r) + 4
        for m in list(self.map.objectives) + list(self.map.evac_points):
            cx, cy = cam.to_screen(*m.at)
            ext.union_ip(pygame.Rect(math.floor(cx) - pad, math.floor(cy) - pad, 2 * pad + 1, 2 * pad + 1))
        return ext

    def _placement(self, img: "_TableImage | None", cam: Camera, size) -> tuple[int, int] | None:
        """Where ``img`` goes on the surface for ``cam`` if it gives the exact frame, else None:
        same scale, whole-pixel offset, and the region covers the visible part of the table."""
        if img is None or img.cam.scale != cam.scale or img.cam.mm_per_unit != cam.mm_per_unit:
            return None
        px, py, _ = _image_origin(img, cam)
        ix, iy = round(px), round(py)
        if abs(px - ix) > 1e-4 or abs(py - iy) > 1e-4:
            return None
        if not img.whole:
            visible = pygame.Rect((0, 0), size).clip(img.extent.move(ix, iy))
            if visible.w > 0 and visible.h > 0 and not img.surf.get_rect(topleft=(ix, iy)).contains(visible):
                return None
        return ix, iy

    def _rebuild(self, cam: Camera, size, view_only: bool = False) -> None:
        """Render the table at ``cam``'s scale: the whole of it if small enough, else the view
        and a margin around it; ``view_only``: just what the view shows (cheaper, for a frame
        that may be the only one at this scale; the next pan renders the rest)."""
        ext = self._table_extent(cam)
        view = pygame.Rect((0, 0), size)
        if view_only:
            region = view.clip(ext)
        elif ext.w * ext.h <= self.CACHE_MAX_PX:
            region = ext
        else:
            region = view.inflate(2 * int(view.w * self.REGION_PAD), 2 * int(view.h * self.REGION_PAD)).clip(ext)
        if region.w <= 0 or region.h <= 0:
            region = pygame.Rect(ext.x, ext.y, 1, 1)
        whole = region == ext
        # the same camera, only its viewport moved by whole pixels: the same arithmetic as a
        # direct render, so the image is that render's pixels, shifted
        icam = Camera(cam.mm_per_unit, pygame.Rect(cam.viewport.x - region.x, cam.viewport.y - region.y,
                                                   region.w, region.h), cam.scale, cam.ox, cam.oy)
        surf = pygame.Surface(region.size)
        surf.fill(self.theme["bg"])
        self._render_table(surf, icam)
        old = self._main
        self._main = _TableImage(surf, icam, whole, ext.move(-region.x, -region.y))
        if whole:
            self._overview = None
        elif old is not None and old.whole:
            self._overview = old
        self._force_settle = False
        self.rebuilds += 1

    def _compose_scaled(self, frame: pygame.Surface, cam: Camera) -> None:
        """The frame from the cached image(s) at another scale: a stand-in while zooming."""
        frame.fill(self.theme["bg"])
        main = self._main
        if not main.whole and self._overview is not None:
            # a region image may not cover the view once zoomed out: the whole table under it
            x0, y0, f = _image_origin(main, cam)
            shown = pygame.Rect(math.ceil(x0), math.ceil(y0), math.floor(x0 + main.surf.get_width() * f) - math.ceil(x0),
                                math.floor(y0 + main.surf.get_height() * f) - math.ceil(y0))
            if not shown.contains(frame.get_rect()):
                _blit_scaled(frame, self._overview, cam)
        _blit_scaled(frame, main, cam)

    def _render_table(self, surf: pygame.Surface, cam: Camera) -> None:
        """Everything that belongs to the table (and scales with it)."""
        self._cloth(surf, cam)
        self._grid(surf, cam)
        self._zones(surf, cam)
        clip = surf.get_clip()
        surf.set_clip(self._table_rect(cam).clip(clip))
        self._shadows(surf, cam)
        view = surf.get_clip()
        for g in self.order:
            x0, y0 = cam.to_screen(g.bounds[0], g.bounds[3])
            x1, y1 = cam.to_screen(g.bounds[2], g.bounds[1])
            if x1 < view.left - 8 or y1 < view.top - 8 or x0 > view.right + 8 or y0 > view.bottom + 8:
                continue
            spr = self._sprite(g, cam)
            if spr is None:
                self._piece(surf, cam, g)
            else:
                img, wx, wy = spr
                sx, sy = cam.to_screen(wx, wy)
                surf.blit(img, (_rnd(sx), _rnd(sy)))
        surf.set_clip(clip)
        self._markers(surf, cam)

    def _render_overlays(self, surf: pygame.Surface, cam: Camera, labels: bool, scale_bar: bool) -> None:
        """What is drawn per frame on top: placed for the view, and never scaled."""
        self.scale_bar_rect = None
        self.label_rects = {}
        if labels:
            self._labels(surf, cam)
        self._zone_labels(surf, cam)
        if scale_bar:
            self._scale_bar(surf, cam)

    def _sprite(self, g: PieceGeom, cam: Camera):
        """The piece drawn once per zoom level on its own small surface (panning only blits).

        Returns (surface, world x, world y of its top-left corner), or None when the piece
        would be too large at this zoom (then it is drawn straight onto the screen)."""
        if self._sprite_scale != cam.scale:
            self._sprites.clear()
            self._sprite_scale = cam.scale
        key = g.piece.id
        if key not in self._sprites:
            self._sprites[key] = self._make_sprite(g, cam)
        return self._sprites[key]

    def _make_sprite(self, g: PieceGeom, cam: Camera):
        pad = 6
        x0, y0, x1, y1 = g.bounds
        w = int((x1 - x0) * cam.scale) + 2 * pad + 2
        h = int((y1 - y0) * cam.scale) + 2 * pad + 2
        if w > self.SPRITE_MAX_PX or h > self.SPRITE_MAX_PX:
            return None
        wx, wy = x0 - pad / cam.scale, y1 + pad / cam.scale
        local = _SpriteCamera(cam.mm_per_unit, pygame.Rect(0, 0, w, h), cam.scale, wx, wy)
        img = pygame.Surface((w, h), pygame.SRCALPHA)
        self._piece(img, local, g)
        return (img, wx, wy)
