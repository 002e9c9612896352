"""Fonts and ready-made text surfaces (haloed labels, plates), cached per pygame session."""
from __future__ import annotations

import functools

import pygame

from .look import _draw

# ----------------------------------------------------------------------------- fonts

_FONTS: dict[tuple, pygame.font.Font] = {}


def font(size: int, bold: bool = False) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
        _FONTS.clear()           # fonts from an earlier pygame session are dead
        for f in (plate, text_halo):
            f.cache_clear()
    key = (size, bold)
    if key in _FONTS:
        try:
            _FONTS[key].get_height()
        except pygame.error:     # pygame.font was quit and started again by someone else
            _FONTS.clear()
    if key not in _FONTS:
        _FONTS[key] = _load(size, bold)
    return _FONTS[key]


def font_file(bold: bool = False):
    """The bundled DejaVu Sans (assets/fonts): pygame's own font draws arrows, dashes, suits
    and dice faces as empty boxes. None when the file is missing (a broken install)."""
    from game.assets import assets_dir
    path = assets_dir() / "fonts" / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return path if path.is_file() else None


def _load(size: int, bold: bool) -> pygame.font.Font:
    # DejaVu is drawn larger than pygame's font at the same size: 0.8 keeps the old line heights
    path = font_file(bold)
    if path is not None:
        try:
            return pygame.font.Font(str(path), max(6, round(size * 0.72)))
        except (pygame.error, OSError):
            pass
    f = pygame.font.Font(None, size)   # the font shipped inside pygame: the fallback
    f.set_bold(bold)
    return f


def reset_fonts() -> None:
    """Forget every font and text made so far (pygame was shut down and started again)."""
    _FONTS.clear()
    plate.cache_clear()
    text_halo.cache_clear()
    for clear in _RESETS:
        clear()


_RESETS: list = []     # other modules' caches of text surfaces (``on_reset``)


def on_reset(clear) -> None:
    """Have ``reset_fonts`` call ``clear`` too (a module's own cache of rendered text), so this
    module never imports the modules that draw with it."""
    _RESETS.append(clear)


@functools.lru_cache(maxsize=1024)
def text_halo(text: str, size: int, colour=(250, 246, 236), halo=(20, 16, 12), bold=False) -> pygame.Surface:
    """Text with a 1px dark halo: readable on any ground."""
    f = font(size, bold)
    fg = f.render(text, True, colour)
    bg = f.render(text, True, halo)
    out = pygame.Surface((fg.get_width() + 2, fg.get_height() + 2), pygame.SRCALPHA)
    for dx, dy in ((0, 1), (2, 1), (1, 0), (1, 2), (0, 0), (2, 2), (0, 2), (2, 0)):
        out.blit(bg, (dx, dy))
    out.blit(fg, (1, 1))
    return out


@functools.lru_cache(maxsize=1024)
def plate(text: str, size: int, fg=(248, 242, 228), bg=(24, 20, 16, 190), pad=(5, 2), bold=False) -> pygame.Surface:
    """Text on a rounded translucent plate (labels, tooltips, the scale bar)."""
    t = font(size, bold).render(text, True, fg)
    w, h = t.get_width() + 2 * pad[0], t.get_height() + 2 * pad[1]
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    _draw.rect(s, bg, s.get_rect(), border_radius=min(6, h // 2))
    s.blit(t, pad)
    return s


# ----------------------------------------------------------------------------- fitting text

def elide(text: str, f: pygame.font.Font, width: int) -> str:
    """``text``, cut with "…" at the end so it is at most ``width`` pixels wide."""
    if f.size(text)[0] <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:                                   # the longest head that fits with the mark
        mid = (lo + hi + 1) // 2
        if f.size(text[:mid].rstrip() + "…")[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def break_word(word: str, f: pygame.font.Font, width: int) -> list[str]:
    """A word wider than ``width`` pixels (a file's path) in pieces that fit, each broken after
    its last "/" that fits, else where it fits."""
    pieces = []
    while f.size(word)[0] > width and len(word) > 1:
        n = len(word)
        while n > 1 and f.size(word[:n])[0] > width:
            n -= 1
        cut = word.rfind("/", 0, n)
        n = cut + 1 if cut > 0 else n
        pieces.append(word[:n])
        word = word[n:]
    return pieces + [word]


def wrap(text: str, f: pygame.font.Font, width: int) -> list[str]:
    """``text`` in lines of ``width`` pixels, the later ones indented; a word wider than a line
    (a file's path) is broken (``break_word``) rather than cut off at the panel's edge."""
    words, lines, cur = [], [], ""
    for w in text.split():
        words += break_word(w, f, width - f.size("  ")[0]) if f.size(w)[0] > width else [w]
    for w in words:
        t = f"{cur} {w}".strip()
        if f.size(t)[0] <= width or not cur:
            cur = t
        else:
            lines.append(cur)
            cur = "  " + w
    if cur:
        lines.append(cur)
    return lines or [""]


def fit_lines(text: str, f: pygame.font.Font, width: int, max_lines: int = 3) -> list[str]:
    """``text`` in lines of at most ``width`` pixels: broken at spaces, a word wider than the
    line broken by ``break_word``; past ``max_lines`` the last line is elided."""
    lines: list[str] = []
    cur = ""
    for word in text.split():
        t = f"{cur} {word}" if cur else word
        if f.size(t)[0] <= width:
            cur = t
            continue
        if cur:
            lines.append(cur)
        *whole, cur = break_word(word, f, width)
        lines += whole
    if cur:
        lines.append(cur)
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [elide(" ".join(lines[max_lines - 1:]), f, width)]
    return lines or [""]
