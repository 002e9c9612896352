"""Draw a map (``engine.data.maps.MapFile``) onto a pygame Surface, to scale.

World coordinates are the map's own unit (in or cm or mm), in the engine's frame: x to the
right, y up (origin at the table's bottom-left corner as drawn), so angles counted
counter-clockwise by the engine look counter-clockwise on screen. ``Camera`` turns them into
screen pixels. Heights are converted to millimetres through ``mapfile.mm_per_unit`` so the 2.5D
look (shadow length, roof shading) is the same whatever unit the map uses.

The look: a cloth with a soft mottled texture and a faint measuring grid; deployment zones
tinted per side; every piece with a soft drop shadow whose length follows its height, a body
drawn per kind (gabled roofs, planks, corrugated containers, metal tanks, foliage), a light
edge toward the light (top-left) and a dark edge away from it; names of landmarks when the zoom
leaves room; objective and evac markers; a scale bar.

``TableRenderer`` (here) composes and caches the layers; the parts live beside it: ``camera``
(world to screen), ``geoms`` (piece outlines), ``look`` (floored drawing, colours, themes),
``painters`` (each kind's body) and ``text`` (fonts and labels).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from engine.data.maps import MapFile

from .camera import Camera, _SpriteCamera
from .geoms import PieceGeom, build_geoms, piece_at, _draw_order
from .look import (EVAC_COLOUR, LIGHT, OBJECTIVE_COLOUR, SHADOW_PER_MM, SIDE_COLOURS, THEMES, TRANSLUCENT, _draw,
                   _mix, _shade, choose_theme)
from .painters import _PAINTERS, _Rand, _aa_poly, _bevel, _clip_paint, _dashed_poly, _paint_plain
from .text import font, plate, text_halo

# ----------------------------------------------------------------------------- renderer

@dataclass
class _TableImage:
    """The table layers rendered at one scale: ``surf`` is what ``cam`` sees (its viewport is the
    view's, moved by whole pixels);
    ``whole``: it holds the whole table; ``extent``: the table's extent in its pixels."""
    surf: pygame.Surface
    cam: Camera
    whole: bool
    extent: pygame.Rect


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


def _rnd(v: float) -> int:
    """Round half up: unlike round(), the same for v and v + any whole number (panning)."""
    return math.floor(v + 0.5)


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


class TableRenderer:
    """Draws one map. Reuse it across frames.

    The table itself (cloth, grid, zones, shadows, pieces, markers) is rendered once per scale
    into an off-screen image: the whole table plus a margin when that is at most
    ``CACHE_MAX_PX`` pixels, else a region around the view (the view plus ``REGION_PAD`` of
    its size on each side), rendered again when panning leaves it. A pan frame is then one
    blit of that image; labels, zone labels and the scale bar are drawn on top per frame at
    the camera (crisp, placed for the view). While the scale changes from frame to frame
    (wheel zoom) and the caller passes the frame time (``draw(..., now=t)``), the last image is
    shown scaled (``pygame.transform.scale`` of the visible part only) and the table is rendered
    crisply once the scale has not changed for ``SETTLE_S`` seconds, or at the next draw after
    ``settle()``. Without ``now`` every frame is exact (the PNG export, thumbnails): a new
    scale renders just the view, and the first pan at that scale renders the rest.
    """

    CACHE_MAX_PX = 4_000_000      # the whole table is cached up to this many pixels
    REGION_PAD = 0.5              # else: the view plus this share of its size on each side
    SETTLE_S = 0.15               # a zoom is re-rendered crisply after this long unchanged

    def __init__(self, mapfile: MapFile, theme: str | None = None):
        self.map = mapfile
        self.theme_name = theme or choose_theme(mapfile)
        self.theme = THEMES[self.theme_name]
        self._set_geoms(mapfile)
        self._noise: pygame.Surface | None = None
        self._sprites: dict = {}
        self._sprite_scale = None
        self._main: _TableImage | None = None       # the crisp image at the last settled scale
        self._overview: _TableImage | None = None   # the last whole-table image (for zooming out)
        self._frame: pygame.Surface | None = None   # the last composed frame
        self._frame_key = None
        self._frame_crisp = False
        self._drawn_key = None                      # the key of the last frame drawn (kept or not)
        self._last_scale = None
        self._scale_changed_at = -math.inf
        self._force_settle = False
        self.rebuilds = 0                           # how many times the table was rendered

    def _set_geoms(self, mapfile: MapFile) -> None:
        self.geoms = build_geoms(mapfile)
        self.order = sorted(self.geoms, key=_draw_order)
        names: dict[str, int] = {}
        for g in self.geoms:
            if g.piece.name:
                names[g.piece.name] = names.get(g.piece.name, 0) + 1
        self.name_count = names

    # -- public -------------------------------------------------------------------------
    def set_map(self, mapfile: MapFile) -> None:
        """Show ``mapfile`` from now on (the layout editor's changes): the outlines are built
        again, a piece that is the very same object as before keeps its sprite, the cloth
        texture is kept, and the table image is rendered again at the next draw."""
        old = {g.piece.id: g.piece for g in self.geoms}
        self.map = mapfile
        self._set_geoms(mapfile)
        keep = {p.id for p in mapfile.pieces if old.get(p.id) is p}
        self._sprites = {k: v for k, v in self._sprites.items() if k in keep}
        self._main = self._overview = self._frame = None
        self._frame_key = self._drawn_key = None
        self._frame_crisp = False
        self.__dict__.pop("_label_key", None)

    def draw_floating(self, surface: pygame.Surface, cam: Camera, pieces, dx: float = 0.0, dy: float = 0.0) -> None:
        """Draw ``pieces`` that are not part of the table image (a layout editor's dragged
        pieces), moved by (dx, dy) map units, each with a soft shadow. Their sprites are kept per
        piece object and zoom, so a frame of a drag only blits them."""
        cache = self.__dict__.setdefault("_floating", {})
        if cache.get("scale") != cam.scale:
            cache.clear()
            cache["scale"] = cam.scale
        moved = Camera(cam.mm_per_unit, cam.viewport, cam.scale, cam.ox - dx, cam.oy - dy)
        for p in pieces:
            ent = cache.get(id(p))
            if ent is None or ent[0] is not p:
                g = build_geoms(self.map.model_copy(update={"pieces": [p]}))[0]
                ent = (p, g, self._make_sprite(g, cam))
                cache[id(p)] = ent
            _, g, spr = ent
            self._floating_shadow(surface, moved, g)
            if spr is None:
                self._piece(surface, moved, g)
            else:
                img, wx, wy = spr
                sx, sy = cam.to_screen(wx + dx, wy + dy)
                surface.blit(img, (_rnd(sx), _rnd(sy)))
        if len(cache) > 512:
            cache.clear()

    def _floating_shadow(self, surface, cam: Camera, g: PieceGeom) -> None:
        L = self._shadow_len_px(g, cam)
        if L < 0.5 or g.kind == "water":
            return
        ox, oy = -LIGHT[0] * L, -LIGHT[1] * L
        if g.shape == "circle":
            pts = [(g.center[0] + g.radius * math.cos(t * math.pi / 8), g.center[1] + g.radius * math.sin(t * math.pi / 8))
                   for t in range(16)]
        else:
            pts = g.points
        spts = [cam.to_screen(*q) for q in pts]
        xs, ys = [q[0] for q in spts], [q[1] for q in spts]
        box = pygame.Rect(math.floor(min(xs) + min(0, ox)) - 2, math.floor(min(ys) + min(0, oy)) - 2,
                          math.ceil(max(xs) - min(xs) + abs(ox)) + 5, math.ceil(max(ys) - min(ys) + abs(oy)) + 5)
        box = box.clip(surface.get_rect())
        if box.w <= 0 or box.h <= 0:
            return
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        local = [(x - box.x, y - box.y) for x, y in spts]
        ink = (30, 22, 14, 90)
        _draw.polygon(layer, ink, [(x + ox, y + oy) for x, y in local])
        for i in range(len(local)):
            j = (i + 1) % len(local)
            a, b = local[i], local[j]
            _draw.polygon(layer, ink, [a, b, (b[0] + ox, b[1] + oy), (a[0] + ox, a[1] + oy)])
        surface.blit(layer, box.topleft)

    def fit_camera(self, size, margin_px: int = 40) -> Camera:
        cam = Camera(self.map.mm_per_unit, pygame.Rect((0, 0), size))
        return cam.fit(self.map.width, self.map.height, margin_px)

    def draw(self, surface: pygame.Surface, cam: Camera, labels: bool = True, scale_bar: bool = True,
             now: float | None = None) -> None:
        """Draw the table seen through ``cam``.

        ``now`` (seconds, any clock) lets a frame whose scale differs from the cached image be
        shown as that image scaled while the scale keeps changing; without it the frame is
        always exact (what a fresh render at ``cam`` gives)."""
        size = surface.get_size()
        if now is not None and cam.scale != self._last_scale:
            self._last_scale = cam.scale
            self._scale_changed_at = now
        key = (cam.key(), size, labels, scale_bar, self._avoid)
        if not (key == self._frame_key and self._frame_crisp and self._frame is not None):
            if self._frame is None or self._frame.get_size() != size:
                self._frame = pygame.Surface(size)
            at = self._placement(self._main, cam, size)
            if at is None:
                if (now is not None and self._main is not None and self._main.cam.scale != cam.scale
                        and not self._force_settle and now - self._scale_changed_at < self.SETTLE_S):
                    self._compose_scaled(self._frame, cam)
                    self._render_overlays(self._frame, cam, labels, scale_bar)
                    self._frame_key, self._frame_crisp = key, False
                    surface.blit(self._frame, (0, 0))
                    return
                # without ``now`` a new scale may be one frame of a zoom: render only the view
                # (about what a frame cost before the cache); the first pan renders the rest
                self._rebuild(cam, size, view_only=now is None and (
                    self._main is None or self._main.cam.scale != cam.scale))
                at = self._placement(self._main, cam, size)
            if key != self._drawn_key:
                # the camera moved since the last frame (a pan): compose straight onto the
                # surface, one copy of the table instead of two; the frame is kept only once
                # the camera stops (the next frame with the same key)
                self._drawn_key = key
                self._frame_key, self._frame_crisp = None, True    # this frame was exact
                surface.fill(self.theme["bg"])
                surface.blit(self._main.surf, at)
                self._render_overlays(surface, cam, labels, scale_bar)
                return
            self._frame.fill(self.theme["bg"])
            self._frame.blit(self._main.surf, at)
            self._render_overlays(self._frame, cam, labels, scale_bar)
            self._frame_key, self._frame_crisp = key, True
        self._drawn_key = key
        surface.blit(self._frame, (0, 0))

    _avoid: tuple = ()

    def set_avoid(self, discs) -> None:
        """Discs (x, y, radius in mm) where labels must not go: the models' tokens, so a token
        never hides a label (a label with no free place is left out, not covered)."""
        self._avoid = tuple((round(x, 1), round(y, 1), round(r, 1)) for x, y, r in discs)

    def settle(self) -> None:
        """Render the table crisply at the next draw even if the scale has just changed."""
        self._force_settle = True

    @property
    def settling(self) -> bool:
        """The last frame drawn was a scaled approximation: keep drawing frames until False."""
        return self._frame is not None and not self._frame_crisp

    def render_direct(self, surface: pygame.Surface, cam: Camera, labels: bool = True,
                      scale_bar: bool = True) -> None:
        """Render every layer straight onto ``surface`` (no image cache): the reference look."""
        surface.fill(self.theme["bg"])
        self._render_table(surface, cam)
        self._render_overlays(surface, cam, labels, scale_bar)

    def piece_at(self, x: float, y: float):
        return piece_at(self.geoms, x, y)

    def outline(self, surface, cam: Camera, g: PieceGeom, colour=(255, 240, 160), width=2) -> None:
        """Highlight one piece (hover)."""
        if g.shape == "circle":
            c = cam.to_screen(*g.center)
            _draw.circle(surface, colour, c, max(2, g.radius * cam.scale) + 1, width)
        else:
            _draw.polygon(surface, colour, [cam.to_screen(*p) for p in g.points], width)

    # -- the table image ----------------------------------------------------------------
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

    # -- layers -------------------------------------------------------------------------
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
        if labels:
            self._labels(surf, cam)
        self._zone_labels(surf, cam)
        if scale_bar:
            self._scale_bar(surf, cam)

    SPRITE_MAX_PX = 1600

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

    def _table_rect(self, cam: Camera) -> pygame.Rect:
        x0, y1 = cam.to_screen(0, 0)
        x1, y0 = cam.to_screen(self.map.width, self.map.height)
        return pygame.Rect(_rnd(x0), _rnd(y0), _rnd(x1) - _rnd(x0), _rnd(y1) - _rnd(y0))

    def _noise_tile(self) -> pygame.Surface:
        """A seamless tile of the cloth colour with a soft deterministic mottle."""
        if self._noise is None:
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
            cloth = np.array(self.theme["cloth"], dtype=float)
            img = cloth[None, None, :] * (1 + 0.04 * acc[:, :, None])
            img = np.clip(img, 0, 255).astype(np.uint8)
            self._noise = pygame.surfarray.make_surface(img.transpose(1, 0, 2))
        return self._noise

    def _cloth(self, surf: pygame.Surface, cam: Camera) -> None:
        bg = self.theme["bg"]
        surf.fill(bg)
        tr = self._table_rect(cam)
        # the table's own shadow on the background (only the band around the table is seen: the
        # cloth covers the rest)
        def shadow(layer, dx, dy):
            for i in range(10):
                _draw.rect(layer, (0, 0, 0, 14), pygame.Rect(tr.x - i * 2 + 6 - dx, tr.y - i * 2 + 8 - dy, tr.w + i * 4 - 12,
                                                             tr.h + i * 4 - 12), border_radius=6 + i)
        _paint_bands(surf, _ring(tr.inflate(48, 48), tr), shadow)
        cloth = self.theme["cloth"]
        _draw.rect(surf, cloth, tr)
        clip = surf.get_clip()
        surf.set_clip(tr.clip(surf.get_rect()))
        tile = self._noise_tile()
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

    def _grid(self, surf: pygame.Surface, cam: Camera) -> None:
        m = self.map
        step_mm = 25.4 if m.unit == "in" else 100.0      # 1" or 10 cm
        major_every = 12 if m.unit == "in" else 3        # every foot, or every 30 cm
        mult = 1
        if step_mm * cam.px_per_mm < 7:
            mult = 6 if m.unit == "in" else 3
            if step_mm * mult * cam.px_per_mm < 7:
                return
        step = step_mm * mult / m.mm_per_unit
        tr = self._table_rect(cam)
        cloth, gc = self.theme["cloth"], self.theme["grid"]
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

    def _zones(self, surf: pygame.Surface, cam: Camera) -> None:
        zones = [(z, [cam.to_screen(*p) for p in z.points]) for z in self.map.deployment]
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

    def _zone_labels(self, surf, cam):
        for z in self.map.deployment:
            col = SIDE_COLOURS.get(z.side, (200, 200, 200))
            xs = [p[0] for p in z.points]
            ys = [p[1] for p in z.points]
            w_px = (max(xs) - min(xs)) * cam.scale
            h_px = (max(ys) - min(ys)) * cam.scale
            text = f"SIDE {z.side} DEPLOYMENT"
            lab = plate(text, 17 if cam.scale * self.map.mm_per_unit > 0.6 else 14, fg=(255, 255, 255),
                        bg=(*_shade(col, -0.25), 210), bold=True)
            if h_px > w_px:
                lab = pygame.transform.rotate(lab, 90 if z.side == 1 else -90)
            cx, cy = cam.to_screen((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
            rect = lab.get_rect(center=(cx, cy))
            if h_px <= w_px:
                # along the zone's table edge, toward its own corner
                tr = self._table_rect(cam)
                sy0 = cam.to_screen(0, max(ys))[1]
                sy1 = cam.to_screen(0, min(ys))[1]
                at_top = abs(sy0 - tr.top) < abs(sy1 - tr.bottom)
                rect.centery = sy0 + rect.h * 0.9 if at_top else sy1 - rect.h * 0.9
                rect.centerx = cam.to_screen(self.map.width * (0.12 if z.side == 1 else 0.88), 0)[0]
            if rect.w < max(w_px, h_px) * 0.9:
                surf.blit(lab, rect)

    # -- pieces -------------------------------------------------------------------------
    def _shadow_len_px(self, g: PieceGeom, cam: Camera) -> float:
        return g.height_mm * SHADOW_PER_MM * cam.px_per_mm

    def _shadows(self, surf: pygame.Surface, cam: Camera) -> None:
        W, H = surf.get_size()
        k = 4   # draw at quarter resolution, scale up smoothly: soft edges for free
        # The quarter-resolution grid is fixed to the table's corner (not to the surface), and the
        # upscale maps small pixel i exactly onto pixel k*i, so that a shadow looks the same
        # wherever the table is on the surface (panning, or the table drawn into a cached image).
        tr = self._table_rect(cam)
        ax, ay = tr.x % k - 2 * k, tr.y % k - 2 * k  # the surface position of small pixel (0, 0)
        small = pygame.Surface(((W - ax) // k + 3, (H - ay) // k + 3), pygame.SRCALPHA)
        ink = (0, 0, 0, 255)
        for g in self.order:
            L = self._shadow_len_px(g, cam)
            if L < 0.5 or (g.kind == "water"):
                continue
            dx, dy = -LIGHT[0] * L / k, -LIGHT[1] * L / k
            if g.shape == "circle":
                cx, cy = cam.to_screen(*g.center)
                cx, cy = (cx - ax) / k, (cy - ay) / k
                r = max(0.6, g.radius * cam.scale / k)
                _draw.circle(small, ink, (cx, cy), r)
                _draw.circle(small, ink, (cx + dx, cy + dy), r)
                nx, ny = -dy, dx
                nl = math.hypot(nx, ny) or 1
                nx, ny = nx / nl * r, ny / nl * r
                _draw.polygon(small, ink, [(cx + nx, cy + ny), (cx + nx + dx, cy + ny + dy),
                                                 (cx - nx + dx, cy - ny + dy), (cx - nx, cy - ny)])
            else:
                pts = [cam.to_screen(*p) for p in g.points]
                pts = [((x - ax) / k, (y - ay) / k) for x, y in pts]
                moved = [(x + dx, y + dy) for x, y in pts]
                _draw.polygon(small, ink, pts)
                _draw.polygon(small, ink, moved)
                for i in range(len(pts)):
                    j = (i + 1) % len(pts)
                    _draw.polygon(small, ink, [pts[i], pts[j], moved[j], moved[i]])
        # smoothscale samples destination x at source x * (w - 1) / dest_w: exactly x / k here
        big = pygame.transform.smoothscale(small, ((small.get_width() - 1) * k, (small.get_height() - 1) * k))
        # Translucent pieces (woods, smoke) throw a lighter shadow: one layer keeps it simple.
        big.fill((255, 255, 255, 105), special_flags=pygame.BLEND_RGBA_MULT)
        big.fill((30, 22, 14, 255), special_flags=pygame.BLEND_RGB_MAX)  # warm-dark ink
        surf.blit(big, (ax + k // 2, ay + k // 2))   # k/2: small pixels' centres on theirs

    def _piece(self, surf: pygame.Surface, cam: Camera, g: PieceGeom) -> None:
        k = g.kind
        base = g.colour
        if g.shape == "circle":
            c = cam.to_screen(*g.center)
            r = g.radius * cam.scale
            if r < 0.8:
                return
            self._circle_piece(surf, cam, g, c, r)
            return
        pts = [cam.to_screen(*p) for p in g.points]
        x0, y0, x1, y1 = g.bounds
        if (x1 - x0) * cam.scale < 0.8 and (y1 - y0) * cam.scale < 0.8:
            return
        if k in TRANSLUCENT:
            self._translucent(surf, g, pts, cam)
            return
        if g.seg is not None:
            self._wall_piece(surf, cam, g, pts)
            return
        painter = _PAINTERS.get(k, _paint_plain)
        _clip_paint(surf, pts, lambda s, off: painter(self, s, off, g, pts, cam))
        _bevel(surf, pts, base, width=max(1, min(4, int(cam.scale * 0.05 * (25.4 / cam.mm_per_unit) + 0.5))))
        _draw.polygon(surf, _shade(base, -0.6), pts, 1)

    def _translucent(self, surf, g, pts, cam):
        alpha = TRANSLUCENT[g.kind]
        base = g.colour
        step = max(6, 0.9 * cam.scale * (25.4 / cam.mm_per_unit) ** 0 * (1 if cam.mm_per_unit > 20 else 2.54))

        def paint(s, off):
            ox, oy = off
            s.fill((*base, alpha))
            if g.kind == "water":
                # ripples: short light strokes on a loose lattice, world anchored
                rnd = _Rand(g.seed)
                wx0, wy0, wx1, wy1 = g.bounds
                n = int(((wx1 - wx0) * (wy1 - wy0)) * (cam.scale ** 2) / (step * step * 3)) + 3
                for _ in range(min(n, 900)):
                    x = (wx0 + rnd.f() * (wx1 - wx0))
                    y = (wy0 + rnd.f() * (wy1 - wy0))
                    sx, sy = cam.to_screen(x, y)
                    L = step * (0.6 + rnd.f() * 0.8)
                    _draw.arc(s, (*_shade(base, 0.45), 150), (sx - ox - L / 2, sy - oy, L, L * 0.35), 0.3, 2.8, 1)
                # deeper channel
            else:
                dark = _shade(base, -0.35)
                light = _shade(base, 0.25)
                rnd = _Rand(g.seed)
                wx0, wy0, wx1, wy1 = g.bounds
                blob_r = max(2.0, (0.32 if g.kind != "scrub" else 0.22) * cam.scale * (25.4 / cam.mm_per_unit))
                n = int((wx1 - wx0) * (wy1 - wy0) * cam.scale ** 2 / (blob_r * blob_r * 2.2)) + 4
                for _ in range(min(n, 1500)):
                    x = wx0 + rnd.f() * (wx1 - wx0)
                    y = wy0 + rnd.f() * (wy1 - wy0)
                    sx, sy = cam.to_screen(x, y)
                    rr = blob_r * (0.6 + rnd.f() * 0.7)
                    if g.kind == "smoke":
                        _draw.circle(s, (255, 255, 255, 40), (sx - ox, sy - oy), rr * 2)
                    else:
                        _draw.circle(s, (*dark, 150), (sx - ox + rr * 0.25, sy - oy + rr * 0.25), rr)
                        _draw.circle(s, (*base, 220), (sx - ox, sy - oy), rr * 0.85)
                        _draw.circle(s, (*light, 170), (sx - ox - rr * 0.3, sy - oy - rr * 0.3), rr * 0.4)
        _clip_paint(surf, pts, paint, pad=int(step * 1.4) + 4 if g.kind == "water" else 0)
        edge = _shade(base, -0.45) if g.kind != "water" else _shade(base, -0.35)
        if g.kind == "water":
            _aa_poly(surf, (*_shade((150, 120, 80), -0.2),), pts, 2)
        else:
            _dashed_poly(surf, edge, pts, 1, 5, 3)

    def _wall_piece(self, surf, cam, g, pts):
        a, b, t = g.seg
        A, B = cam.to_screen(*a), cam.to_screen(*b)
        wpx = max(1.5, t * cam.scale)
        base = g.colour
        k = g.kind
        length = math.dist(A, B)
        ux, uy = (B[0] - A[0]) / (length or 1), (B[1] - A[1]) / (length or 1)
        if k == "hedge":
            _draw.polygon(surf, _shade(base, -0.2), pts)
            rnd = _Rand(g.seed)
            n = max(2, int(length / max(3, wpx * 0.6)))
            for i in range(n + 1):
                f = i / n
                x, y = A[0] + (B[0] - A[0]) * f, A[1] + (B[1] - A[1]) * f
                rr = wpx * (0.5 + rnd.f() * 0.25)
                _draw.circle(surf, base, (x, y), rr)
                _draw.circle(surf, _shade(base, 0.25), (x - rr * 0.3, y - rr * 0.3), rr * 0.45)
            return
        if k == "pipe":
            _draw.polygon(surf, _shade(base, -0.35), pts)
            inner = max(1, int(wpx * 0.45))
            sh = (LIGHT[0] * wpx * 0.15, LIGHT[1] * wpx * 0.15)
            _draw.line(surf, _shade(base, 0.1), A, B, max(1, int(wpx * 0.7)))
            _draw.line(surf, _shade(base, 0.55), (A[0] + sh[0], A[1] + sh[1]), (B[0] + sh[0], B[1] + sh[1]), max(1, inner // 2))
            step = max(12.0, 2.5 * cam.scale * (25.4 / cam.mm_per_unit) / (25.4 / cam.mm_per_unit) * (1 if cam.mm_per_unit > 20 else 1))
            nx, ny = -uy * wpx * 0.62, ux * wpx * 0.62
            d = step / 2
            while d < length:
                x, y = A[0] + ux * d, A[1] + uy * d
                _draw.line(surf, _shade(base, -0.45), (x + nx, y + ny), (x - nx, y - ny), max(2, int(wpx * 0.25)))
                d += step
            return
        if k == "door":
            # a steel gate: two leaves meeting in the middle, a red lock light on the seam
            _draw.polygon(surf, base, pts)
            _bevel(surf, pts, base, 1)
            mx, my = (A[0] + B[0]) / 2, (A[1] + B[1]) / 2
            nx, ny = -uy * wpx * 0.5, ux * wpx * 0.5
            _draw.line(surf, _shade(base, -0.6), (mx + nx, my + ny), (mx - nx, my - ny), max(1, int(wpx * 0.2)))
            for f in (0.25, 0.75):
                x, y = A[0] + (B[0] - A[0]) * f, A[1] + (B[1] - A[1]) * f
                _draw.line(surf, _shade(base, 0.3), (x + nx * 0.7, y + ny * 0.7), (x - nx * 0.7, y - ny * 0.7), 1)
            _draw.circle(surf, (220, 52, 40), (mx, my), max(1.5, wpx * 0.3))
            _draw.polygon(surf, _shade(base, -0.6), pts, 1)
            return
        if k == "barricade":
            _draw.polygon(surf, base, pts)
            # hazard stripes along the top
            seg = max(4.0, wpx * 1.1)
            d = 0.0
            i = 0
            while d < length:
                e = min(length, d + seg)
                col = (226, 182, 40) if i % 2 == 0 else (40, 38, 34)
                _draw.line(surf, col, (A[0] + ux * d, A[1] + uy * d), (A[0] + ux * e, A[1] + uy * e), max(1, int(wpx * 0.35)))
                d, i = e, i + 1
            _bevel(surf, pts, base, 1)
            _draw.polygon(surf, _shade(base, -0.6), pts, 1)
            return
        # fences and walls: planks/stones along the run, posts at intervals
        _draw.polygon(surf, base, pts)
        if k == "wall":
            _draw.line(surf, _shade(base, 0.25), A, B, max(1, int(wpx * 0.3)))
        else:
            _draw.line(surf, _shade(base, -0.3), A, B, 1)
        _bevel(surf, pts, base, 1)
        _draw.polygon(surf, _shade(base, -0.6), pts, 1)
        if k == "fence" and length > 6:
            post = max(1.5, wpx * 0.75)
            step = max(10.0, 1.0 * cam.scale * (25.4 / cam.mm_per_unit))
            d = 0.0
            while d <= length + 0.1:
                x, y = A[0] + ux * d, A[1] + uy * d
                _draw.circle(surf, _shade(base, -0.45), (x, y), post)
                _draw.circle(surf, _shade(base, 0.15), (x - post * 0.3, y - post * 0.3), post * 0.45)
                d += step if length - d > step * 0.5 or d >= length else (length - d)

    def _circle_piece(self, surf, cam, g, c, r):
        base = g.colour
        k = g.kind
        cx, cy = c
        if k in TRANSLUCENT:
            pts = [(cx + r * math.cos(t * math.pi / 16), cy + r * math.sin(t * math.pi / 16)) for t in range(32)]
            self._translucent(surf, g, pts, cam)
            return
        lx, ly = LIGHT
        if k == "tree":
            dark = _shade(base, -0.35)
            _draw.circle(surf, dark, c, r)
            rnd = _Rand(g.seed)
            n = 7 if r > 6 else 3
            for i in range(n):
                a = 2 * math.pi * i / n + rnd.f()
                d = r * 0.45
                rr = r * (0.42 + rnd.f() * 0.12)
                _draw.circle(surf, base, (cx + math.cos(a) * d, cy + math.sin(a) * d), rr)
            _draw.circle(surf, base, c, r * 0.55)
            for i in range(n):
                a = 2 * math.pi * i / n + rnd.f()
                d = r * 0.4
                rr = r * 0.22
                _draw.circle(surf, _shade(base, 0.22), (cx + math.cos(a) * d + lx * r * 0.12, cy + math.sin(a) * d + ly * r * 0.12), rr)
            _draw.circle(surf, _shade(base, 0.35), (cx + lx * r * 0.3, cy + ly * r * 0.3), r * 0.18)
            return
        if k == "barrel":
            _draw.circle(surf, _shade(base, -0.45), c, r)
            _draw.circle(surf, base, c, r * 0.82)
            _draw.circle(surf, _shade(base, -0.3), c, r * 0.62, max(1, int(r * 0.1)))
            _draw.circle(surf, _shade(base, 0.3), (cx + lx * r * 0.3, cy + ly * r * 0.3), r * 0.22)
            return
        if k == "tank" or (k == "tower"):
            # metal drum seen from above: rim, domed top with a highlight, a hatch
            body = base if k == "tank" else (150, 118, 82)
            _draw.circle(surf, _shade(body, -0.5), c, r)
            steps = 6
            for i in range(steps):
                f = 1 - i / steps
                off = (1 - f) * r * 0.35
                _draw.circle(surf, _shade(body, -0.25 + 0.5 * (i / steps)), (cx + lx * off, cy + ly * off), r * 0.92 * f)
            if r > 5:
                _draw.circle(surf, _shade(body, -0.5), c, r * 0.92, 1)
                if k == "tank":
                    _draw.circle(surf, _shade(body, -0.4), (cx - lx * r * 0.4, cy - ly * r * 0.4), r * 0.16, 1)
                else:
                    # wooden staves of the water tank
                    for i in range(12):
                        a = i * math.pi / 6
                        _draw.line(surf, _shade(body, -0.35), (cx + math.cos(a) * r * 0.5, cy + math.sin(a) * r * 0.5),
                                         (cx + math.cos(a) * r * 0.9, cy + math.sin(a) * r * 0.9), 1)
            return
        if k == "hut":
            # thatch cone: concentric rings, radial straws, light side
            _draw.circle(surf, _shade(base, -0.45), c, r)
            for i in range(5):
                f = 1 - i / 5
                _draw.circle(surf, _shade(base, -0.2 + 0.1 * i), (cx + lx * r * 0.08 * i, cy + ly * r * 0.08 * i), r * 0.95 * f)
            for i in range(24):
                a = i * math.pi / 12
                _draw.line(surf, _shade(base, -0.3), (cx + math.cos(a) * r * 0.2, cy + math.sin(a) * r * 0.2),
                                 (cx + math.cos(a) * r * 0.93, cy + math.sin(a) * r * 0.93), 1)
            _draw.circle(surf, _shade(base, -0.55), c, max(1.5, r * 0.12))
            return
        # generic: a disc with a light side
        _draw.circle(surf, _shade(base, -0.4), c, r)
        _draw.circle(surf, base, (cx + lx * r * 0.08, cy + ly * r * 0.08), r * 0.88)
        _draw.circle(surf, _shade(base, 0.25), (cx + lx * r * 0.35, cy + ly * r * 0.35), r * 0.3)
        if k == "rock":  # fire pit and such: an inner ring
            _draw.circle(surf, (70, 50, 40), c, r * 0.5)
            _draw.circle(surf, (210, 110, 40), c, r * 0.25)

    # -- markers & labels ---------------------------------------------------------------
    def _markers(self, surf, cam):
        r_world = 20.0 / cam.mm_per_unit               # a 40 mm marker
        r = max(7.0, r_world * cam.scale)
        for i, m in enumerate(self.map.objectives):
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
        for m in self.map.evac_points:
            cx, cy = cam.to_screen(*m.at)
            _draw.circle(surf, (10, 40, 20), (cx + 2, cy + 2), r)
            _draw.circle(surf, (236, 250, 240), (cx, cy), r)
            _draw.circle(surf, EVAC_COLOUR, (cx, cy), r * 0.82)
            _draw.circle(surf, (20, 70, 40), (cx, cy), r, 2)
            # an up chevron pair: "leave the table here"
            for k, dy in enumerate((-0.22, 0.18)):
                _draw.lines(surf, (245, 255, 245), False, [(cx - r * 0.45, cy + r * (dy + 0.22)), (cx, cy + r * (dy - 0.18)), (cx + r * 0.45, cy + r * (dy + 0.22))], max(2, int(r * 0.16)))

    def _labels(self, surf, cam):
        px_per_in = cam.px_per_mm * 25.4
        if px_per_in < 12:
            return
        size = 15 if px_per_in < 26 else (17 if px_per_in < 45 else 19)
        screen = surf.get_rect()
        # what a label must leave uncovered: objectives and evac points, small pieces (a crate,
        # a barrel: covered, they could not be seen), and the models' tokens (``set_avoid``)
        placed: list[pygame.Rect] = []
        r_marker = max(7.0, 20.0 / cam.mm_per_unit * cam.scale) * 1.3
        for m in list(self.map.objectives) + list(self.map.evac_points):
            cx, cy = cam.to_screen(*m.at)
            placed.append(pygame.Rect(round(cx - r_marker), round(cy - r_marker), round(2 * r_marker), round(2 * r_marker)))
        for x, y, r in self._avoid:
            cx, cy = cam.to_screen(x / cam.mm_per_unit, y / cam.mm_per_unit)
            rp = r * cam.px_per_mm + 3
            placed.append(pygame.Rect(round(cx - rp), round(cy - rp), round(2 * rp), round(2 * rp)))
        small = {}
        for g in self.geoms:
            x0, y0, x1, y1 = g.bounds
            (sx0, sy1), (sx1, sy0) = cam.to_screen(x0, y0), cam.to_screen(x1, y1)
            w, h = abs(sx1 - sx0), abs(sy1 - sy0)
            if 2 <= w <= 40 and 2 <= h <= 40:
                small[id(g)] = pygame.Rect(round(min(sx0, sx1)), round(min(sy0, sy1)), round(w), round(h))
        cands = self._label_candidates(cam.scale, px_per_in)
        shown_names: dict[str, int] = {}
        for g in cands:
            name = g.piece.name
            if shown_names.get(name, 0) and self.name_count[name] >= 2 and px_per_in < 60:
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
                    shown_names[name] = shown_names.get(name, 0) + 1
                    break

    def _label_candidates(self, scale: float, px_per_in: float) -> list:
        """The pieces that may be labelled at this scale, landmarks (big, tall) first: the same
        for every frame of a pan, so kept for the last scale."""
        key = (scale, px_per_in)
        if self.__dict__.get("_label_key") == key:
            return self._label_cands
        cands = []
        for g in self.geoms:
            name = g.piece.name
            if not name:
                continue
            if g.seg is not None and self.name_count.get(name, 0) >= 2 and px_per_in < 40:
                continue      # fences, hedges, pipes: named in the tooltip, labelled when zoomed
            repeated = self.name_count.get(name, 0)
            if repeated >= 3 and px_per_in < 60:
                continue      # fence runs, barrels, headstones: only when zoomed well in
            cands.append(g)
        cands.sort(key=lambda g: -(g.area * (scale ** 2) + g.height_mm * 3))
        self._label_key, self._label_cands = key, cands
        return cands

    def _scale_bar(self, surf, cam):
        m = self.map
        if m.unit == "in":
            choices, unit, per = (1, 2, 3, 6, 12, 24), '"', 1.0
        else:
            choices, unit, per = (5, 10, 20, 30, 50, 100), " cm", 10.0 / m.mm_per_unit
        length = choices[0]
        for c in choices:
            if c * per * cam.scale <= 260:
                length = c
        px = length * per * cam.scale
        tr = self._table_rect(cam)
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
        for i in range(n):
            col = (240, 236, 226) if i % 2 == 0 else (30, 26, 22)
            _draw.rect(surf, col, pygame.Rect(round(x + i * seg), y - 4, math.ceil(seg), 8))
        _draw.rect(surf, (240, 236, 226), pygame.Rect(x, y - 4, round(px), 8), 1)
        lab = font(17, True).render(f"{length}{unit}", True, (240, 236, 226))
        surf.blit(lab, (x + px + 8, y - lab.get_height() // 2))
