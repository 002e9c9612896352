"""The camera: world coordinates (the map's unit, y up) to screen pixels and back, snapped so a
panned table keeps its pixels."""
from __future__ import annotations

import math

import pygame

# ----------------------------------------------------------------------------- camera

class Camera:
    """Map units (y up) <-> screen pixels (y down). ``scale`` is pixels per map unit; (ox, oy)
    is the world point drawn at the viewport's top-left corner; ``viewport`` is the screen rect."""

    MIN_PX_PER_MM = 0.08
    MAX_PX_PER_MM = 16.0

    def __init__(self, mm_per_unit: float, viewport: pygame.Rect | tuple, scale: float = 1.0,
                 ox: float = 0.0, oy: float = 0.0):
        self.mm_per_unit = mm_per_unit
        self.viewport = pygame.Rect(viewport)
        self.scale = scale
        self.ox, self.oy = ox, oy

    @property
    def px_per_mm(self) -> float:
        return self.scale / self.mm_per_unit

    def fit(self, width: float, height: float, margin_px: int = 40) -> Camera:
        """Show the whole table (width x height map units), centred, with a margin."""
        vw, vh = self.viewport.w - 2 * margin_px, self.viewport.h - 2 * margin_px
        self.scale = max(1e-6, min(vw / width, vh / height))
        self.ox = width / 2 - self.viewport.w / 2 / self.scale
        self.oy = height / 2 + self.viewport.h / 2 / self.scale
        return self

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        # snapped to 1/256 px: a point that lands on a whole pixel still does after a pan (whose
        # float arithmetic leaves 612.9999999), so drawing does not depend on where the view is
        return (round((self.viewport.x + (x - self.ox) * self.scale) * 256) / 256,
                round((self.viewport.y + (self.oy - y) * self.scale) * 256) / 256)

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        return (self.ox + (sx - self.viewport.x) / self.scale, self.oy - (sy - self.viewport.y) / self.scale)

    def zoom_at(self, factor: float, sx: float, sy: float) -> None:
        """Zoom by ``factor`` keeping the world point under (sx, sy) still."""
        wx, wy = self.to_world(sx, sy)
        lo, hi = self.MIN_PX_PER_MM * self.mm_per_unit, self.MAX_PX_PER_MM * self.mm_per_unit
        self.scale = min(hi, max(lo, self.scale * factor))
        self.ox = wx - (sx - self.viewport.x) / self.scale
        self.oy = wy + (sy - self.viewport.y) / self.scale

    def pan(self, dx_px: float, dy_px: float) -> None:
        self.ox -= dx_px / self.scale
        self.oy += dy_px / self.scale

    def key(self) -> tuple:
        return (round(self.scale, 6), round(self.ox, 6), round(self.oy, 6), tuple(self.viewport))


class _SpriteCamera(Camera):
    """A piece's own small surface: not snapped, so pieces keep their pixels (they do not
    depend on the view: the sprite is blitted at a whole pixel)."""

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        return (self.viewport.x + (x - self.ox) * self.scale, self.viewport.y + (self.oy - y) * self.scale)


def _rnd(v: float) -> int:
    """Round half up: unlike round(), the same for v and v + any whole number (panning)."""
    return math.floor(v + 0.5)
