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

``TableRenderer`` (here) holds the map, the camera-facing calls and the cached table image (the
layers rendered once per scale, in order; ``table_image``: the image, its placement, its scaled
stand-in); the layers are objects it owns (issue 63): ``ground`` (``table_ground``: cloth, grid,
zones), ``pieces`` (``table_pieces``: shadows, each piece's body and sprite, the editor's dragged
pieces) and ``marks`` (``table_marks``: markers, labels, scale bar). Beside them:
``camera`` (world to screen), ``geoms`` (piece outlines), ``look`` (floored drawing, colours,
themes), ``painters`` (each kind's body) and ``text`` (fonts and labels).
"""
from __future__ import annotations

import math

import pygame

from engine.data.maps import MapFile

from .camera import Camera, _rnd
from .geoms import PieceGeom, _draw_order, build_geoms, piece_at
from .look import THEMES, _draw, choose_theme
from .table_ground import Ground
from .table_image import _blit_scaled, _image_origin, _TableImage
from .table_marks import Marks
from .table_pieces import Pieces


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
        self.ground = Ground(self)                  # the layers, each reading the map here
        self.pieces = Pieces(self)
        self.marks = Marks(self)
        self._main: _TableImage | None = None       # the crisp image at the last settled scale
        self._overview: _TableImage | None = None   # the last whole-table image (for zooming out)
        self._frame: pygame.Surface | None = None   # the last composed frame
        self._frame_key: tuple | None = None
        self._frame_crisp = False
        self._drawn_key: tuple | None = None        # the key of the last frame drawn (kept or not)
        self._last_scale: float | None = None
        self._scale_changed_at = -math.inf
        self._force_settle = False
        self.rebuilds = 0                           # how many times the table was rendered

    # where the last frame drew the scale bar, each piece's name (by id), each zone's banner
    scale_bar_rect = property(lambda self: self.marks.scale_bar_rect)
    label_rects = property(lambda self: self.marks.label_rects)
    zone_label_rects = property(lambda self: self.ground.zone_label_rects)

    def _table_rect(self, cam: Camera) -> pygame.Rect:
        """The table's rect on the screen for ``cam`` (whole pixels)."""
        x0, y1 = cam.to_screen(0, 0)
        x1, y0 = cam.to_screen(self.map.width, self.map.height)
        return pygame.Rect(_rnd(x0), _rnd(y0), _rnd(x1) - _rnd(x0), _rnd(y1) - _rnd(y0))

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
        self.pieces.keep_sprites(keep)
        self._main = self._overview = self._frame = None
        self._frame_key = self._drawn_key = None
        self._frame_crisp = False
        self.marks.forget()

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
            assert self._main is not None and at is not None     # rebuilt above to hold the view
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

    def draw_floating(self, surface: pygame.Surface, cam: Camera, pieces, dx: float = 0.0, dy: float = 0.0) -> None:
        """The layout editor's dragged pieces, moved by (dx, dy) (``Pieces.draw_floating``)."""
        self.pieces.draw_floating(surface, cam, pieces, dx, dy)

    def piece_at(self, x: float, y: float):
        return piece_at(self.geoms, x, y)

    def outline(self, surface, cam: Camera, g: PieceGeom, colour=(255, 240, 160), width=2) -> None:
        """Highlight one piece (hover)."""
        if g.shape == "circle":
            c = cam.to_screen(*g.center)
            _draw.circle(surface, colour, c, max(2, g.radius * cam.scale) + 1, width)
        else:
            _draw.polygon(surface, colour, [cam.to_screen(*p) for p in g.points], width)

    # --- the cached table image ------------------------------------------------------------
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

    def _placement(self, img: _TableImage | None, cam: Camera, size) -> tuple[int, int] | None:
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
        assert main is not None           # asked only with a cached image (draw)
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
        self.ground.cloth(surf, cam)
        self.ground.grid(surf, cam)
        self.ground.zones(surf, cam)
        clip = surf.get_clip()
        surf.set_clip(self._table_rect(cam).clip(clip))
        self.pieces.shadows(surf, cam)
        view = surf.get_clip()
        for g in self.order:
            x0, y0 = cam.to_screen(g.bounds[0], g.bounds[3])
            x1, y1 = cam.to_screen(g.bounds[2], g.bounds[1])
            if x1 < view.left - 8 or y1 < view.top - 8 or x0 > view.right + 8 or y0 > view.bottom + 8:
                continue
            spr = self.pieces.sprite(g, cam)
            if spr is None:
                self.pieces.piece(surf, cam, g)
            else:
                img, wx, wy = spr
                sx, sy = cam.to_screen(wx, wy)
                surf.blit(img, (_rnd(sx), _rnd(sy)))
        surf.set_clip(clip)
        self.marks.markers(surf, cam)

    def _render_overlays(self, surf: pygame.Surface, cam: Camera, labels: bool, scale_bar: bool) -> None:
        """What is drawn per frame on top: placed for the view, and never scaled."""
        self.marks.scale_bar_rect = None
        self.marks.label_rects = {}
        if labels:
            self.marks.labels(surf, cam)
        self.ground.zone_labels(surf, cam)
        if scale_bar:
            self.marks.scale_bar(surf, cam)
