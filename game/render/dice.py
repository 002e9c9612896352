"""Dice drawn as dice: a d6 with pips, a d10 as its kite-shaped face, a d5 as a small triangle,
coloured by the player who rolled and marked as the roll's record says (``engine.core.rolls``):
a success glows, an explosion carries a burst, a penalty die is dark, a die set aside is struck
through and faded, kept dice are ringed, a double shines gold, a reroll carries an arrow."""
from __future__ import annotations

import functools
import math

import pygame

from .text import font

SIDE = {1: ((58, 108, 196), (214, 226, 250)), 2: ((184, 58, 50), (250, 222, 216)), None: ((120, 104, 84), (240, 230, 210))}
PENALTY = ((44, 40, 36), (200, 190, 176))
GOLD = (250, 204, 80)
GREEN = (120, 230, 140)
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _shape(sides: int, size: int) -> list[tuple[float, float]]:
    c = size / 2
    if sides == 10:        # the kite a d10 shows from above
        return [(c, 1), (size - 2, c * 0.82), (c, size - 1), (2, c * 0.82)]
    if sides == 5:
        return [(c, 2), (size - 2, size - 3), (2, size - 3)]
    return [(2, 2), (size - 2, 2), (size - 2, size - 2), (2, size - 2)]


@functools.lru_cache(maxsize=512)
def die_image(sides: int, value: int, player: int | None, marks: tuple = (), size: int = 26) -> pygame.Surface:
    """One die, ready to blit (``size`` px square, with room for its marks)."""
    pad = 4
    img = pygame.Surface((size + 2 * pad, size + 2 * pad), pygame.SRCALPHA)
    body, ink = PENALTY if "penalty" in marks else SIDE.get(player, SIDE[None])
    if "set_aside" in marks:
        body, ink = (body[0] // 2 + 40, body[1] // 2 + 40, body[2] // 2 + 40), (150, 145, 138)
    pts = [(x + pad, y + pad) for x, y in _shape(sides, size)]
    if "double" in marks:
        pygame.draw.polygon(img, (*GOLD, 120), [(x + (x - size / 2 - pad) * 0.18, y + (y - size / 2 - pad) * 0.18)
                                                for x, y in pts])
    if sides == 6:
        pygame.draw.rect(img, body, (pad + 1, pad + 1, size - 2, size - 2), border_radius=5)
        edge = GOLD if "double" in marks else (ink if "success" in marks else (20, 16, 12))
        pygame.draw.rect(img, edge, (pad + 1, pad + 1, size - 2, size - 2), 2 if "double" in marks else 1,
                         border_radius=5)
        r = max(2, size // 11)
        step = size * 0.26
        for dx, dy in PIPS.get(value, []):
            pygame.draw.circle(img, ink, (pad + size / 2 + dx * step, pad + size / 2 + dy * step), r)
        if value not in PIPS:
            t = font(max(10, size // 2), True).render(str(value), True, ink)
            img.blit(t, t.get_rect(center=(pad + size / 2, pad + size / 2)))
    else:
        pygame.draw.polygon(img, body, pts)
        edge = GOLD if ("success" in marks or "double" in marks) else (20, 16, 12)
        pygame.draw.polygon(img, edge, pts, 2 if "success" in marks else 1)
        t = font(max(10, int(size * (0.5 if sides == 10 else 0.46))), True).render(str(value), True, ink)
        img.blit(t, t.get_rect(center=(pad + size / 2, pad + size * (0.48 if sides == 10 else 0.62))))
    if "kept" in marks:
        pygame.draw.rect(img, GREEN, (1, 1, size + 2 * pad - 2, size + 2 * pad - 2), 2, border_radius=7)
    if "explode" in marks:              # a burst at the corner: this die rolled another
        cx, cy = size + pad - 2, pad + 1
        for k in range(8):
            a = k * math.pi / 4
            rr = 5 if k % 2 == 0 else 2.5
            pygame.draw.line(img, GOLD, (cx, cy), (cx + rr * math.cos(a), cy + rr * math.sin(a)), 2)
    if "set_aside" in marks:
        pygame.draw.line(img, (230, 80, 70), (pad, size + pad), (size + pad, pad), 2)
    if "reroll" in marks:
        pygame.draw.arc(img, GOLD, (pad - 3, pad - 3, 12, 12), 0.3, 4.8, 2)
    return img


def dice_row(record: dict, size: int = 24, tumbling: float = 0.0, seed: int = 0) -> list[pygame.Surface]:
    """The dice of one roll record, as images in order; while ``tumbling`` (0-1 of the roll
    animation left), faces still turning are shown with passing values (cosmetic only)."""
    out = []
    n = len(record["values"])
    for i, (v, m) in enumerate(zip(record["values"], record["marks"])):
        shown, marks = v, tuple(m)
        if tumbling > 0 and i >= n * (1 - tumbling):       # dice settle left to right
            shown = 1 + (seed * 7919 + i * 104729 + int(tumbling * 40)) % record["sides"]
            marks = ()
        out.append(die_image(record["sides"], shown, record.get("player"), marks, size))
    return out
