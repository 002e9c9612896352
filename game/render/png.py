"""Render a map to a PNG without a screen."""
from __future__ import annotations

import os
from pathlib import Path


def _headless_env() -> None:
    """Use SDL's dummy drivers unless a display is really there."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def headless_pygame():
    """pygame with SDL's dummy drivers (unless a display is there) and its fonts ready."""
    _headless_env()
    import pygame

    from .text import reset_fonts

    if not pygame.font.get_init():
        pygame.font.init()
        reset_fonts()
    return pygame


def save_map_png(mapfile, path, width_px: int = 1600) -> Path:
    """Draw ``mapfile`` (a ``MapFile`` or a path to one) to a PNG ``width_px`` wide.

    The height follows the table's proportions plus a margin for the title and scale bar.
    Only pygame's font module is initialised: no window is opened.
    """
    _headless_env()
    import pygame

    from engine.data.maps import MapFile, load_map

    from .table_view import TableRenderer
    from .text import plate, reset_fonts, text_halo

    m = mapfile if isinstance(mapfile, MapFile) else load_map(mapfile)
    if not pygame.font.get_init():
        pygame.font.init()
        reset_fonts()          # fonts made before pygame last shut down are dead
    margin = max(24, width_px // 40)
    top = margin + 30
    bottom = margin + 34
    scale = (width_px - 2 * margin) / m.width
    height_px = int(round(m.height * scale)) + top + bottom
    surf = pygame.Surface((width_px, height_px))
    r = TableRenderer(m)
    cam = r.fit_camera((width_px, height_px))
    cam.scale = scale
    cam.ox = -margin / scale
    cam.oy = m.height + top / scale
    r.draw(surf, cam)
    title = text_halo(f"{m.name}", 26, bold=True)
    surf.blit(title, (margin, (top - title.get_height()) // 2 + 2))
    unit = '"' if m.unit == "in" else f" {m.unit}"
    info = plate(f"{m.width:g}{unit} x {m.height:g}{unit}   {len(m.pieces)} pieces   "
                 f"{', '.join(m.suits) or 'any ruleset'}", 16)
    surf.blit(info, (width_px - margin - info.get_width(), (top - info.get_height()) // 2 + 2))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(path))
    return path
