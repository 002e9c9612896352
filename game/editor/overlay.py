"""The editor's analysis overlay: the openness heatmap (the scale of ``analyze-map --png``: 0 to
100% of the open table, dark is hidden), each side's hidden ground, and the longest lanes.

The layers are made once per analysis result and table size (a small image of the grid, scaled
smoothly to the table's rectangle) and blitted; lanes are a few lines drawn per frame.
"""
from __future__ import annotations

import numpy as np
import pygame

MODES = ("off", "openness", "hidden 1", "hidden 2", "lanes")
# viridis at five stops: the analysis PNG's colours, without needing matplotlib
_STOPS = np.array([(68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37)], float)
SIDE_RGB = {1: (70, 130, 235), 2: (225, 70, 60)}


def viridis(v: np.ndarray) -> np.ndarray:
    """(..., 3) uint8 colours for values in [0, 1]."""
    t = np.clip(np.nan_to_num(v, nan=0.0), 0, 1) * (len(_STOPS) - 1)
    i = np.minimum(t.astype(int), len(_STOPS) - 2)
    f = (t - i)[..., None]
    return (_STOPS[i] * (1 - f) + _STOPS[i + 1] * f).astype(np.uint8)


def grid_image(rgba: np.ndarray) -> pygame.Surface:
    """A (rows, cols, 4) array whose row 0 is the table's lowest row, as a surface (top row first)."""
    flipped = np.ascontiguousarray(rgba[::-1])
    rows, cols = flipped.shape[:2]
    return pygame.image.frombuffer(flipped.tobytes(), (cols, rows), "RGBA").copy()


def layer_rgba(result, mode: str) -> np.ndarray | None:
    if mode == "openness":
        heat = result.heat
        rgba = np.zeros(heat.shape + (4,), np.uint8)
        rgba[..., :3] = viridis(heat)
        rgba[..., 3] = np.where(np.isnan(heat), 0, 150)
        return rgba
    if mode in ("hidden 1", "hidden 2"):
        side = int(mode[-1])
        mask = result.hidden.get(side)
        if mask is None:
            return None
        rgba = np.zeros(mask.shape + (4,), np.uint8)
        rgba[..., :3] = SIDE_RGB[side]
        rgba[..., 3] = np.where(mask, 140, 0)
        return rgba
    return None


class Overlay:
    def __init__(self):
        self.mode = "off"
        self._key = None
        self._surf: pygame.Surface | None = None

    def cycle(self) -> str:
        self.mode = MODES[(MODES.index(self.mode) + 1) % len(MODES)]
        return self.mode

    def draw(self, surf: pygame.Surface, table_rect: pygame.Rect, result, to_screen) -> None:
        """Over the table's screen rectangle ``table_rect``; ``to_screen(x, y)`` maps map units."""
        if self.mode == "off" or result is None or result.error or not result.metrics:
            return
        if self.mode == "lanes":
            self._lanes(surf, result, to_screen)
            return
        key = (id(result), self.mode, table_rect.size)
        if key != self._key:
            rgba = layer_rgba(result, self.mode)
            self._surf = None if rgba is None else pygame.transform.smoothscale(grid_image(rgba), table_rect.size)
            self._key = key
        if self._surf is not None:
            surf.blit(self._surf, table_rect.topleft)
        if self.mode == "openness":
            self._lanes(surf, result, to_screen)

    @staticmethod
    def _lanes(surf, result, to_screen) -> None:
        for ln in result.metrics.get("lanes", []):
            a, b = to_screen(*ln["from"]), to_screen(*ln["to"])
            col = (230, 60, 200) if ln.get("zone_to_zone") else (255, 255, 255)
            pygame.draw.line(surf, (0, 0, 0), a, b, 4)
            pygame.draw.line(surf, col, a, b, 2)
