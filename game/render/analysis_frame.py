"""What the analysis pictures share: the frame (map left, figures right), the colour scales, the wording."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .png import headless_pygame

if TYPE_CHECKING:      # pygame is imported when a frame is drawn (headless_pygame)
    import pygame

    from .camera import Camera
    from .table_view import TableRenderer

PANEL_W = 420
MIN_H = 800

# viridis (matplotlib's perceptually uniform map), five stops: dark = hidden, yellow = open
_VIRIDIS = np.array([[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]], float)
# closed (sees less) blue - white - orange (sees more)
_DIVERGING = np.array([[40, 90, 200], [120, 160, 230], [245, 245, 245], [250, 170, 90], [215, 80, 20]], float)
DIFF_SCALE = 0.5          # the difference picture's colour scale ends at +-50 points of the table
SIDE_HIDE = {1: (70, 130, 255), 2: (240, 70, 55)}
BOTH_HIDE = (180, 90, 220)
TERRAIN_ADDED = (15, 15, 15)
TERRAIN_REMOVED = (60, 230, 140)
HIDE_COLOURS = {"both": (60, 200, 80), 1: (110, 160, 255), 2: (255, 110, 90), "none": (235, 235, 235)}


def _ramp(v: np.ndarray, stops: np.ndarray = _VIRIDIS) -> np.ndarray:
    """0..1 -> RGB along ``stops`` (values outside are clipped)."""
    t = np.clip(v, 0, 1) * (len(stops) - 1)
    k = np.minimum(t.astype(int), len(stops) - 2)
    f = (t - k)[..., None]
    return stops[k] * (1 - f) + stops[k + 1] * f


def heat_rgb(heat: np.ndarray) -> np.ndarray:
    """Openness (share of the open table seen, 0..1) -> RGB on the fixed scale: the same share is
    the same colour on every map."""
    return _ramp(np.nan_to_num(heat, nan=0.0))


def diff_rgb(d: np.ndarray) -> np.ndarray:
    """Openness change (B - A, share of the table) -> RGB on the fixed +-DIFF_SCALE scale."""
    return _ramp(np.nan_to_num(d, nan=0.0) / (2 * DIFF_SCALE) + 0.5, _DIVERGING)


Rect = tuple[float, float, float, float]      # x, y, w, h in pixels


# --- the frame: the map on the left, a panel of figures on the right ------------------
@dataclass
class Frame:
    surf: pygame.Surface
    sub: pygame.Surface                # the map's part of ``surf``
    cam: Camera
    renderer: TableRenderer
    map_w: int
    margin: int
    top: int
    scale: float
    px: int
    py: int

    def table_rect(self) -> Rect:
        m = self.renderer.map
        x0, y1 = self.cam.to_screen(0, m.height)
        x1, y0 = self.cam.to_screen(m.width, 0)
        return (x0, y1, x1 - x0, y0 - y1)


_pygame = headless_pygame          # pygame, headless, fonts ready (``png.headless_pygame``)


def _frame(m, title: str, width_px: int = 1600, panel_w: int = PANEL_W, labels: bool = True) -> Frame:
    pygame = _pygame()
    from .table_view import TableRenderer
    from .text import text_halo

    margin = max(24, width_px // 40)
    top, bottom = margin + 30, margin + 34
    map_w = width_px - panel_w
    scale = (map_w - 2 * margin) / m.width
    height_px = max(int(round(m.height * scale)) + top + bottom, MIN_H)
    surf = pygame.Surface((width_px, height_px))
    surf.fill((28, 24, 20))
    r = TableRenderer(m)
    cam = r.fit_camera((map_w, height_px))
    cam.scale = scale
    cam.ox = -margin / scale
    cam.oy = m.height + top / scale
    sub = surf.subsurface(pygame.Rect(0, 0, map_w, height_px))
    r.draw(sub, cam, labels=labels)
    t = text_halo(title, 26, bold=True)
    surf.blit(t, (margin, (top - t.get_height()) // 2 + 2))
    return Frame(surf, sub, cam, r, map_w, margin, top, scale, map_w + 8, top)


def _blit_cells(fr: Frame, rgba: np.ndarray) -> None:
    """Lay a (rows, cols, 4) uint8 image (row 0 at the table's bottom) over the table."""
    pygame = _pygame()
    rows, cols = rgba.shape[:2]
    img = pygame.image.frombuffer(np.ascontiguousarray(rgba[::-1]).tobytes(), (cols, rows), "RGBA")
    x, y, w, h = fr.table_rect()
    img = pygame.transform.scale(img, (int(round(w)), int(round(h))))
    fr.sub.blit(img, (int(round(x)), int(round(y))))


class _Panel:
    """Lines of text down the right-hand panel."""

    def __init__(self, fr: Frame):
        self.fr, self.x, self.y = fr, fr.px, fr.py

    def line(self, text, size=16, bold=False, colour=(248, 242, 228), dx=0):
        from .text import text_halo

        t = text_halo(text, size, colour=colour, bold=bold)
        self.fr.surf.blit(t, (self.x + dx, self.y))
        self.y += t.get_height() + 4

    def row(self, label, cells, size=13, colour=(248, 242, 228), right=(255, 320, 390)):
        """A label and its cells on one line, each cell right-aligned at ``right`` px."""
        from .text import text_halo

        a = text_halo(label, size, colour=colour)
        self.fr.surf.blit(a, (self.x, self.y))
        for text, x in zip(cells, right):
            t = text_halo(text, size, colour=colour)
            self.fr.surf.blit(t, (self.x + x - t.get_width(), self.y))
        self.y += a.get_height() + 2

    def head(self, text):
        self.y += 8
        self.line(text, 18, True)

    def swatch(self, colour, text, size=14, ring=False, dashed=False):
        pygame = _pygame()
        from .text import text_halo

        if ring:
            _ring(self.fr.surf, colour, (self.x + 12, self.y + 9), 8, dashed)
        else:
            pygame.draw.rect(self.fr.surf, colour, (self.x + 2, self.y + 2, 20, 14))
        self.fr.surf.blit(text_halo(text, size), (self.x + 32, self.y))
        self.y += 22

    def bar(self, rgb: np.ndarray, lo: str, hi: str, mid: str | None = None):
        pygame = _pygame()
        from .text import text_halo

        w, h = PANEL_W - 40, 18
        for xk in range(w):
            pygame.draw.line(self.fr.surf, rgb[xk].astype(int).tolist(), (self.x + xk, self.y), (self.x + xk, self.y + h))
        self.y += h + 2
        for text, at in ((lo, 0.0), (mid, 0.5), (hi, 1.0)):
            if text is None:
                continue
            t = text_halo(text, 13)
            x = self.x + at * w - at * t.get_width()
            self.fr.surf.blit(t, (x, self.y))
        self.y += 20


def _ring(surf, colour, c, r, dashed=False, width=3):
    pygame = _pygame()
    if not dashed:
        pygame.draw.circle(surf, (10, 10, 10), c, r + 1, width + 2)
        pygame.draw.circle(surf, colour, c, r, width)
        return
    rect = pygame.Rect(c[0] - r, c[1] - r, 2 * r, 2 * r)
    for k in range(12):
        a0 = k * math.pi / 6
        pygame.draw.arc(surf, colour, rect, a0, a0 + math.pi / 10, width)


def _save(surf, path) -> Path:
    pygame = _pygame()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(path))
    return path


def _unit(m) -> str:
    return '"' if m.unit == "in" else f" {m.unit}"


def _f(v, unit="%") -> str:
    return "-" if v is None else f"{v:.1f}{unit}"


def _reading(met: dict, m) -> str:
    k = m.mm_per_unit
    u = _unit(m)
    fp = ", footprints block (40k)" if met.get("footprints_block") else ""
    return (f"eye {met['eye_mm']:.0f} mm, grid {met['grid_step_mm'] / k:g}{u}, "
            f"control {met['control_range_mm'] / k:g}{u}{fp}")
