"""The models' tokens on the table: bases in side colours, initials, facing, marker badges and health bars."""
from __future__ import annotations

import functools
import math

import pygame

from .look import SIDE_COLOURS
from .overlays import INK, mm_to_screen
from .text import font, text_halo


def _initials(name: str) -> str:
    words = [w for w in name.replace("-", " ").split() if w[:1].isalnum()]
    if not words:
        return "?"
    if words[-1].isdigit() and len(words) >= 2:
        return words[0][0].upper() + words[-1]
    return "".join(w[0] for w in words[:2]).upper()


def draw_pieces(screen, cam, pieces, positions, *, selected=None, actors=(), hover=None, t: float = 0.0) -> None:
    """Bases to scale in side colours, initials, facing ticks, markers; the active model and
    the models that may act now ringed; ``positions`` overrides x, y while animating."""
    for p in pieces:
        x, y = positions.get(p["id"], (p["x"], p["y"]))
        cx, cy = mm_to_screen(cam, x, y)
        r = max(4.0, p["radius"] * cam.px_per_mm)
        col = SIDE_COLOURS.get(p["player"], (160, 160, 160))
        if p["out"]:
            k = r * 0.6
            pygame.draw.line(screen, (60, 20, 20), (cx - k, cy - k), (cx + k, cy + k), 3)
            pygame.draw.line(screen, (60, 20, 20), (cx - k, cy + k), (cx + k, cy - k), 3)
            pygame.draw.circle(screen, (*col, ), (cx, cy), r, 1)
            continue
        pygame.draw.circle(screen, (15, 12, 10), (cx + 2, cy + 3), r)
        pygame.draw.circle(screen, tuple(max(0, c - 70) for c in col), (cx, cy), r)
        pygame.draw.circle(screen, col, (cx, cy), r - max(1.5, r * 0.14))
        pygame.draw.circle(screen, tuple(min(255, c + 60) for c in col), (cx - r * 0.25, cy - r * 0.3), r * 0.35)
        if p["facing"] is not None:
            a = math.radians(p["facing"])
            ex, ey = cx + math.cos(a) * r * 1.35, cy - math.sin(a) * r * 1.35
            pygame.draw.line(screen, (250, 250, 240), (cx + math.cos(a) * r * 0.6, cy - math.sin(a) * r * 0.6), (ex, ey), 3)
        if r >= 7:
            lab = text_halo(_initials(p["name"]), max(12, min(22, int(r * 0.95))), bold=True)
            screen.blit(lab, lab.get_rect(center=(cx, cy)))
        if r >= 6:
            _draw_health(screen, cx, cy, r, p.get("health") or "")
        if p["markers"] and r >= 6:      # a lettered badge per lasting marker, round the rim
            badges = [b for b in (marker_badge(m) for m in p["markers"]) if b is not None]
            for i, (text, colour) in enumerate(badges[:6]):
                a = math.radians(40 - i * 32)
                img = _badge(text, colour)
                screen.blit(img, img.get_rect(center=(cx + math.cos(a) * (r + 3), cy - math.sin(a) * (r + 3))))
        if p["id"] in actors:
            pygame.draw.circle(screen, (255, 236, 140), (cx, cy), r + 3, 2)
        if p["active"]:
            pulse = 4 + 2 * math.sin(t * 5)
            pygame.draw.circle(screen, (255, 210, 60), (cx, cy), r + pulse, 3)
        if p["id"] == selected:
            pygame.draw.circle(screen, (255, 255, 255), (cx, cy), r + 5, 3)
        if p["id"] == hover:
            pygame.draw.circle(screen, (200, 240, 255), (cx, cy), r + 2, 2)


# Lasting markers as badges: (what the marker's words start with, the badge's text, its colour).
# "N AP" becomes its number; an activation spent or a move made is not a badge (the token's ring
# and the list say it).
BADGES = [("leader", "★", (236, 190, 60)), ("down", "↓", (220, 60, 50)), ("on the ground", "↓", (220, 60, 50)),
          ("prone", "Pr", (150, 150, 150)), ("stunned", "St", (170, 110, 220)), ("burning", "Bu", (240, 130, 40)),
          ("half-blind", "½B", (90, 160, 230)), ("blind", "Bl", (90, 160, 230)), ("pinned", "Pi", (200, 170, 90)),
          ("panic", "!", (235, 70, 60)), ("marked", "Mk", (230, 90, 200)), ("engaged", "En", (240, 200, 80)),
          ("low ammunition", "LA", (200, 200, 110)), ("aggressiveness", "Ag", (240, 110, 90)),
          ("stable", "Sb", (120, 200, 140)), ("off balance", "OB", (200, 160, 90))]
QUIET = ("spent", "activated", "moved", "second move used")


def marker_badge(marker: str):
    """(text, colour) of a marker's badge, or None for one shown otherwise."""
    m = marker.lower()
    if m.startswith(QUIET):
        return None
    words = m.split()
    if len(words) == 2 and words[0].isdigit() and words[1] == "ap":
        return (words[0], (120, 200, 240))
    if len(words) == 2 and words[0].isdigit() and words[1] == "damage":
        return (words[0], (220, 70, 60))
    for key, text, colour in BADGES:
        if m.startswith(key):
            return (text, colour)
    return (marker[:2], (200, 190, 170))


@functools.lru_cache(maxsize=128)
def _badge(text: str, colour) -> pygame.Surface:
    t = font(11, True).render(text, True, (20, 16, 12))
    w = max(t.get_width() + 6, 14)
    img = pygame.Surface((w, 14), pygame.SRCALPHA)
    pygame.draw.rect(img, colour, img.get_rect(), border_radius=7)
    pygame.draw.rect(img, INK, img.get_rect(), 1, border_radius=7)
    img.blit(t, t.get_rect(center=(w / 2, 7)))
    return img


def health_fraction(health: str) -> tuple[float, bool] | None:
    """'3/5 wounds' -> (0.6, False); '2 tokens / Mettle 4' -> (0.5, True: damage taken)."""
    import re
    m = re.match(r"\s*(\d+)\s*/\s*(\d+)", health)
    if m and int(m.group(2)) > 0:
        return int(m.group(1)) / int(m.group(2)), False
    m = re.match(r"\s*(\d+) tokens? / Mettle (\d+)", health)
    if m and int(m.group(2)) > 0:
        return min(1.0, int(m.group(1)) / int(m.group(2))), True
    return None


def _draw_health(screen, cx, cy, r, health: str) -> None:
    got = health_fraction(health)
    if got is None:
        return
    f, damage = got
    if (damage and f <= 0) or (not damage and f >= 1):
        return                              # unhurt: no bar
    w = max(14, r * 1.6)
    x, y = cx - w / 2, cy + r + 2
    pygame.draw.rect(screen, INK, (x - 1, y - 1, w + 2, 6))
    left = (1 - f) if damage else f
    colour = (90, 210, 100) if left > 0.5 else ((240, 190, 60) if left > 0.25 else (230, 70, 60))
    pygame.draw.rect(screen, colour, (x, y, max(1, w * left), 4))


def piece_at(pieces, positions, x_mm: float, y_mm: float, slack_mm: float = 2.0):
    best, best_d = None, math.inf
    for p in pieces:
        if p["out"]:
            continue
        x, y = positions.get(p["id"], (p["x"], p["y"]))
        d = math.hypot(x - x_mm, y - y_mm)
        if d <= p["radius"] + slack_mm and d < best_d:
            best, best_d = p, d
    return best
