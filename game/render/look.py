"""The table's look: pygame drawing with coordinates floored (so a shape's pixels do not depend
on where it is drawn), the light, the colours of sides, objectives and each kind of piece, and
the cloth themes."""
from __future__ import annotations

import math
from typing import TypedDict

import pygame

from engine.data.maps import MapFile

# ----------------------------------------------------------------------------- drawing

class _draw:
    """pygame.draw with coordinates floored first. pygame truncates float coordinates toward
    zero, which is floor for the positive ones (same pixels) but not for the negative ones: a
    shape cut by the surface's left or top edge came out a pixel different from the same shape
    drawn further right. With floor, a shape's pixels do not depend on where it is drawn, so a
    table rendered into a cached image and shifted is the table rendered in place."""

    @staticmethod
    def polygon(surf, colour, pts, width=0):
        return pygame.draw.polygon(surf, colour, [(math.floor(x), math.floor(y)) for x, y in pts], width)

    @staticmethod
    def lines(surf, colour, closed, pts, width=1):
        return pygame.draw.lines(surf, colour, closed, [(math.floor(x), math.floor(y)) for x, y in pts], width)

    @staticmethod
    def line(surf, colour, a, b, width=1):
        return pygame.draw.line(surf, colour, (math.floor(a[0]), math.floor(a[1])), (math.floor(b[0]), math.floor(b[1])), width)

    @staticmethod
    def circle(surf, colour, c, radius, width=0):
        return pygame.draw.circle(surf, colour, (math.floor(c[0]), math.floor(c[1])), radius, width)

    @staticmethod
    def arc(surf, colour, rect, start, stop, width=1):
        x, y, w, h = rect
        return pygame.draw.arc(surf, colour, pygame.Rect(math.floor(x), math.floor(y), int(w), int(h)), start, stop, width)

    rect = staticmethod(pygame.draw.rect)

    @staticmethod
    def frame(surf, colour, rect, width):
        """An unfilled rect as four filled strips: the pixels of pygame.draw.rect(..., width)
        (square corners), but those of a rect far off the surface are not drawn along the
        surface's edge."""
        r = pygame.Rect(rect)
        for q in (pygame.Rect(r.x, r.y, r.w, width), pygame.Rect(r.x, r.bottom - width, r.w, width),
                  pygame.Rect(r.x, r.y, width, r.h), pygame.Rect(r.right - width, r.y, width, r.h)):
            surf.fill(colour, q)


def _frect(x, y, w, h) -> pygame.Rect:
    """pygame.Rect(x, y, w, h) with the corner floored (Rect truncates toward zero)."""
    return pygame.Rect(math.floor(x), math.floor(y), int(w), int(h))


# ----------------------------------------------------------------------------- colours

LIGHT = (-0.7071, -0.7071)            # unit vector toward the light (top-left)
SHADOW_PER_MM = 0.30                  # shadow length on the table per mm of height, in mm
SIDE_COLOURS = {1: (40, 100, 235), 2: (225, 50, 40)}
OBJECTIVE_COLOUR = (242, 190, 40)
EVAC_COLOUR = (60, 200, 120)

class Theme(TypedDict):
    cloth: tuple[int, int, int]
    grid: tuple[int, int, int]
    bg: tuple[int, int, int]
    platform: str                     # how platforms are drawn: "wood" or "steel"


THEMES: dict[str, Theme] = {
    # cloth, grid line, background around the table
    "frontier":   dict(cloth=(201, 170, 122), grid=(120, 92, 60), bg=(46, 36, 30), platform="wood"),
    "industrial": dict(cloth=(112, 116, 110), grid=(60, 66, 64), bg=(28, 31, 34), platform="steel"),
    "wild":       dict(cloth=(128, 130, 86), grid=(70, 72, 44), bg=(36, 34, 26), platform="wood"),
    "meadow":     dict(cloth=(112, 146, 78), grid=(62, 90, 44), bg=(34, 40, 30), platform="wood"),
}

# Per kind: a few body colours (one is picked per piece by its id, for variety).
PALETTE = {
    "building": [(152, 92, 68), (128, 84, 62), (110, 96, 86), (160, 112, 72), (118, 72, 58)],
    "hut": [(168, 138, 84), (156, 126, 76)],
    "tower": [(120, 112, 104)],
    "wall": [(150, 146, 136)],
    "fence": [(136, 98, 60), (146, 106, 64)],
    "hedge": [(58, 104, 48)],
    "barricade": [(132, 132, 124)],
    "rock": [(138, 132, 124), (128, 124, 118)],
    "boulder": [(116, 112, 108), (126, 118, 110)],
    "woods": [(44, 100, 44)],
    "scrub": [(112, 126, 60), (100, 118, 56)],
    "smoke": [(210, 210, 210)],
    "tree": [(54, 112, 48), (62, 120, 52)],
    "crate": [(176, 132, 76), (164, 122, 70)],
    "barrel": [(122, 80, 46), (110, 74, 44)],
    "wagon": [(148, 108, 68)],
    "trough": [(120, 88, 58)],
    "water": [(66, 124, 182)],
    "hill": [(150, 156, 96)],
    "ruin": [(140, 132, 122)],
    "container": [(176, 78, 52), (56, 102, 146), (194, 150, 52), (78, 122, 84), (150, 150, 146)],
    "tank": [(178, 182, 186), (164, 170, 172)],
    "pipe": [(150, 152, 156)],
    "console": [(58, 66, 78)],
    "door": [(92, 104, 118)],
    "platform": [(112, 118, 124)],
    "bones": [(228, 218, 192)],
}
TRANSLUCENT = {"woods": 150, "scrub": 135, "smoke": 110, "water": 215}


def _mix(c, d, t):
    return tuple(int(round(a + (b - a) * t)) for a, b in zip(c[:3], d[:3]))


def _shade(c, f):
    """f > 0 lightens toward white, f < 0 darkens toward black."""
    return _mix(c, (255, 255, 255), f) if f >= 0 else _mix(c, (0, 0, 0), -f)


def choose_theme(m: MapFile) -> str:
    kinds = {p.kind for p in m.pieces}
    if kinds & {"container", "console", "tank", "pipe"}:
        return "industrial"
    if kinds & {"hut", "bones"}:
        return "wild"
    if "building" in kinds and kinds & {"wagon", "trough", "barrel"}:
        return "frontier"
    return "meadow"
