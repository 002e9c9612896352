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

``TableRenderer`` (here) holds the map and the camera-facing calls; what it draws is in parts
mixed into it: ``table_image`` (the cached table image, its placement, sprites, the layers in
order), ``table_ground`` (cloth, grid, zones), ``table_pieces`` (shadows, each piece's body, the
editor's dragged pieces) and ``table_marks`` (markers, labels, scale bar). Beside them:
``camera`` (world to screen), ``geoms`` (piece outlines), ``look`` (floored drawing, colours,
themes), ``painters`` (each kind's body) and ``text`` (fonts and labels).
"""
from __future__ import annotations

import math

import pygame

from engine.data.maps import MapFile

from .camera import Camera
from .geoms import PieceGeom, build_geoms, piece_at, _draw_order
from .look import THEMES, _draw, choose_theme
from .table_ground import GroundMixin
from .table_image import TableImageMixin, _TableImage
from .table_marks import MarksMixin
from .table_pieces import PiecesMixin


class TableRenderer(TableImageMixin, GroundMixin, PiecesMixin, MarksMixin):
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
        self.scale_bar_rect: pygame.Rect | None = None   # where the last frame drew the scale bar
        self.label_rects: dict[str, pygame.Rect] = {}    # where it drew each piece's name (by id)

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
