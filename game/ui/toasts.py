"""Short messages over the table (saved, refused, the setup sheet written): fitted to the room
there is, wrapped over a few lines (a long file path broken after a "/"), and kept clear of the
table's scale bar, which the renderer records where it drew (``TableRenderer.scale_bar_rect``).
"""
from __future__ import annotations

import pygame

from game.render.text import fit_lines, font


def toast(text: str, size: int, width: int, fg=(248, 242, 228), bg=(40, 20, 14, 230),
          max_lines: int = 3) -> pygame.Surface:
    """``text`` on a rounded plate at most ``width`` pixels wide, over up to ``max_lines``."""
    f = font(size)
    lines = [f.render(line, True, fg) for line in fit_lines(text, f, max(40, width - 12), max_lines)]
    w = max(s.get_width() for s in lines) + 12
    h = sum(s.get_height() for s in lines) + 6
    out = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(out, bg, out.get_rect(), border_radius=6)
    y = 3
    for s in lines:
        out.blit(s, (6, y))
        y += s.get_height()
    return out


def clear_of(rect: pygame.Rect, avoid: pygame.Rect | None, gap: int = 6) -> pygame.Rect:
    """``rect``, moved up above ``avoid`` (the scale bar) if the two overlap."""
    if avoid is None or not rect.colliderect(avoid.inflate(gap, gap)):
        return rect
    return rect.move(0, avoid.top - gap - rect.bottom)


def scale_bar_on_screen(renderer, table_rect: pygame.Rect) -> pygame.Rect | None:
    """Where the table's last frame drew its scale bar, in the screen's pixels."""
    bar = getattr(renderer, "scale_bar_rect", None)
    return bar.move(table_rect.topleft) if bar is not None else None
