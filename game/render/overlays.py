"""What the game draws over the table: pieces, the tape, paths, reach, sight rays, tooltips.

Positions come in table millimetres (the engine's frame); ``Camera`` works in map units, so
every call converts through ``cam.mm_per_unit``. Only drawing here: what is legal, reachable
or visible is the engine's answer, passed in.
"""
from __future__ import annotations

import functools
import math
from typing import NamedTuple

import pygame

from engine.table.measure import length_words

from .look import SIDE_COLOURS
from .text import font, on_reset, plate, text_halo, wrap

TAPE = (250, 214, 60)
INK = (30, 24, 10)


def mm_to_screen(cam, x: float, y: float) -> tuple[float, float]:
    return cam.to_screen(x / cam.mm_per_unit, y / cam.mm_per_unit)


def screen_to_mm(cam, sx: float, sy: float) -> tuple[float, float]:
    wx, wy = cam.to_world(sx, sy)
    return wx * cam.mm_per_unit, wy * cam.mm_per_unit


def unit_suffix(unit: str) -> str:
    return '"' if unit == "in" else f" {unit}"


MM_PER = {"in": 25.4, "cm": 10.0, "mm": 1.0}


def length_text(mm: float, unit: str) -> str:
    """5.2" or 12.0 cm: one decimal, in the ruleset's (or map's) unit (the engine's wording)."""
    return length_words(mm, unit)


# --- the tape measure ---------------------------------------------------------------------
def draw_tape(screen, cam, a_mm, b_mm, label: str, unit: str) -> None:
    """A yellow tape from a to b (mm) with ticks every inch (or 10 cm) and its length."""
    a, b = mm_to_screen(cam, *a_mm), mm_to_screen(cam, *b_mm)
    d_mm = math.dist(a_mm, b_mm)
    pygame.draw.line(screen, (20, 16, 10), (a[0] + 1, a[1] + 2), (b[0] + 1, b[1] + 2), 4)
    pygame.draw.line(screen, TAPE, a, b, 3)
    step = MM_PER["in"] if unit == "in" else 100.0
    L = math.dist(a, b)
    if d_mm > 0 and L / (d_mm / step) >= 6:
        ux, uy = (b[0] - a[0]) / L, (b[1] - a[1]) / L
        for i in range(1, int(d_mm / step) + 1):
            t = i * step / d_mm * L
            cx, cy = a[0] + ux * t, a[1] + uy * t
            k = 6 if i % (6 if unit == "in" else 5) == 0 else 3.5
            pygame.draw.line(screen, INK, (cx - uy * k, cy + ux * k), (cx + uy * k, cy - ux * k), 2)
    for p in (a, b):
        pygame.draw.circle(screen, INK, p, 5)
        pygame.draw.circle(screen, TAPE, p, 3)
    lab = plate(label, 22, fg=INK, bg=(*TAPE, 235), bold=True)
    r = lab.get_rect(center=((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - 20))
    r.clamp_ip(screen.get_rect())
    screen.blit(lab, r)


def draw_flight(screen, cam, flight, legal: bool, unit: str) -> None:
    """A heading's straight flight (``engine.core.protocol.Flight``): a dashed line from the
    model's centre to where the shortest roll lands, a band over the landing range with a tick
    at every inch (or 10 cm) of it, and an arrowhead at the longest roll."""
    ux, uy = math.cos(math.radians(flight.heading)), math.sin(math.radians(flight.heading))
    ox, oy = flight.origin

    def at(d):
        return mm_to_screen(cam, ox + ux * d, oy + uy * d)

    colour = (255, 214, 110) if legal else (240, 90, 80)
    a, n, f = at(0.0), at(flight.near), at(flight.far)
    draw_dashed(screen, colour, a, n)
    pygame.draw.line(screen, INK, (n[0] + 1, n[1] + 2), (f[0] + 1, f[1] + 2), 9)
    pygame.draw.line(screen, colour, n, f, 7 if flight.far > flight.near else 3)
    step = MM_PER["in"] if unit == "in" else 100.0
    sx, sy = f[0] - a[0], f[1] - a[1]
    L = math.hypot(sx, sy) or 1.0
    px, py = -sy / L, sx / L                       # square to the flight, on the screen
    k = flight.near
    while k <= flight.far + 1e-6:
        c = at(k)
        pygame.draw.line(screen, INK, (c[0] - px * 7, c[1] - py * 7), (c[0] + px * 7, c[1] + py * 7), 2)
        k += step
    tip = (f[0] + sx / L * 12, f[1] + sy / L * 12)
    pygame.draw.polygon(screen, INK, [tip, (f[0] + px * 8, f[1] + py * 8), (f[0] - px * 8, f[1] - py * 8)])
    pygame.draw.polygon(screen, colour, [(f[0] + sx / L * 9, f[1] + sy / L * 9), (f[0] + px * 5, f[1] + py * 5),
                                         (f[0] - px * 5, f[1] - py * 5)])


def draw_star(screen, centre, r: float = 11.0, colour=(255, 214, 90)) -> None:
    """A five-pointed star (the G suggestion's mark), outlined in ink."""
    cx, cy = centre
    pts = [(cx + (r if k % 2 == 0 else r * 0.45) * math.sin(math.pi * k / 5),
            cy - (r if k % 2 == 0 else r * 0.45) * math.cos(math.pi * k / 5)) for k in range(10)]
    pygame.draw.polygon(screen, colour, pts)
    pygame.draw.polygon(screen, INK, pts, 2)


# --- pieces -------------------------------------------------------------------------------
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


# --- moves, reach, sight ------------------------------------------------------------------
def draw_path(screen, cam, points, legal: bool) -> None:
    if len(points) < 2:
        return
    pts = [mm_to_screen(cam, x, y) for x, y in points]
    colour = (120, 240, 140) if legal else (240, 90, 80)
    pygame.draw.lines(screen, (15, 12, 10), False, [(x + 1, y + 2) for x, y in pts], 5)
    pygame.draw.lines(screen, colour, False, pts, 3)
    for p in pts[1:-1]:
        pygame.draw.circle(screen, colour, p, 4)


def draw_cross(screen, centre, colour=(240, 80, 70), k=9) -> None:
    cx, cy = centre
    pygame.draw.line(screen, colour, (cx - k, cy - k), (cx + k, cy + k), 4)
    pygame.draw.line(screen, colour, (cx - k, cy + k), (cx + k, cy - k), 4)


def mask_surface(mask, colour, edge=None) -> pygame.Surface:
    """A numpy bool mask (rows = y upward, cols = x) as a translucent surface, one pixel a cell;
    with ``edge``, the cells on the mask's boundary get that colour (a crisp outline)."""
    import numpy as np

    h, w = mask.shape
    rgba = np.zeros((w, h, 4), dtype=np.uint8)
    m = mask.T[:, ::-1]            # to pygame's (x, y-down) order
    rgba[m] = colour
    if edge is not None:
        inner = m.copy()
        inner[1:, :] &= m[:-1, :]
        inner[:-1, :] &= m[1:, :]
        inner[:, 1:] &= m[:, :-1]
        inner[:, :-1] &= m[:, 1:]
        rgba[m & ~inner] = edge
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    pixels = pygame.surfarray.pixels3d(surf)
    pixels[...] = rgba[..., :3]
    del pixels
    alpha = pygame.surfarray.pixels_alpha(surf)
    alpha[...] = rgba[..., 3]
    del alpha
    return surf


_SCALED: dict = {}


def draw_grid_overlay(screen, cam, surf, origin_mm, cell_mm, rows: int) -> None:
    """Blit a per-cell surface (from ``mask_surface``) scaled onto the table; the scaled image
    is kept while the zoom stays (a pan only moves it). Zoomed in, where the whole table's image
    would be bigger than the view, only a block of cells round the view is scaled, so a frame
    costs at most a few views' worth of pixels, not the table's (at 3x, 30 ms a wheel notch)."""
    w, h = surf.get_size()
    x0, y0 = origin_mm
    left, top = mm_to_screen(cam, x0, y0 + rows * cell_mm)
    s = cell_mm * cam.px_per_mm                      # pixels a cell
    size = (max(1, round(w * s)), max(1, round(h * s)))
    view = screen.get_clip()
    if size[0] * size[1] <= 1.5 * view.w * view.h:
        key = (id(surf), size)
        img = _SCALED.get(key)
        if img is None or img[0] is not surf:
            if len(_SCALED) > 16:
                _SCALED.clear()
            img = _SCALED[key] = (surf, pygame.transform.scale(surf, size))
        screen.blit(img[1], (round(left), round(top)))
        return
    # the cells in view; the block kept must hold them at this size
    c0, c1 = max(0, math.floor((view.left - left) / s)), min(w, math.ceil((view.right - left) / s))
    r0, r1 = max(0, math.floor((view.top - top) / s)), min(h, math.ceil((view.bottom - top) / s))
    if c0 >= c1 or r0 >= r1:
        return
    key = (id(surf), "block")
    got = _SCALED.get(key)
    if (got is None or got.surf is not surf or got.size != size
            or not (got.c0 <= c0 and got.r0 <= r0 and c1 <= got.c1 and r1 <= got.r1)):
        # a new block: while the zoom changes, just the view (the next notch needs another);
        # at a steady zoom, a quarter view more on each side, so pans reuse it
        zooming = got is not None and got.surf is surf and got.size != size
        mx, my = (0, 0) if zooming else (math.ceil(view.w / 4 / s), math.ceil(view.h / 4 / s))
        b0, b1 = max(0, c0 - mx), min(w, c1 + mx)
        q0, q1 = max(0, r0 - my), min(h, r1 + my)
        px = (round(b0 * s), round(q0 * s))          # the block's corner in the whole image
        bsize = (max(1, round(b1 * s) - px[0]), max(1, round(q1 * s) - px[1]))
        if len(_SCALED) > 16:
            _SCALED.clear()
        got = _SCALED[key] = _Block(surf, size, b0, q0, b1, q1, px,
                                    pygame.transform.scale(surf.subsurface((b0, q0, b1 - b0, q1 - q0)), bsize))
    screen.blit(got.image, (round(left) + got.corner[0], round(top) + got.corner[1]))


class _Block(NamedTuple):
    """A scaled block of a grid overlay: its source, the whole image's size at this zoom, the
    cells it holds (columns c0..c1, rows r0..r1), its corner in the whole image and the image."""
    surf: pygame.Surface
    size: tuple
    c0: int
    r0: int
    c1: int
    r1: int
    corner: tuple
    image: pygame.Surface


def draw_ring(screen, cam, centre_mm, radius_mm: float, label: str, colour=(250, 236, 190)) -> None:
    """A range ring round a model (radius from its centre), labelled at the top."""
    c = mm_to_screen(cam, *centre_mm)
    r = radius_mm * cam.px_per_mm
    if r < 4 or r > 6000:
        return
    pygame.draw.circle(screen, (20, 16, 10), (c[0] + 1, c[1] + 1), r, 2)
    pygame.draw.circle(screen, colour, c, r, 1)
    lab = plate(label, 14, fg=(30, 24, 10), bg=(*colour, 210))
    screen.blit(lab, lab.get_rect(center=ring_label_at(c, r, lab.get_size(), screen.get_size())))


def ring_label_at(c, r: float, size, screen_size) -> tuple[float, float]:
    """Where a ring's label goes: the top of the ring, or the first of its bottom, left and
    right points (then eight more round it) whose label lies wholly on screen, so a ring that
    runs off the top of the view still says what it is."""
    w, h = size
    sw, sh = screen_size
    for k in (90, 270, 180, 0, 45, 135, 225, 315):
        a = math.radians(k)
        x, y = c[0] + r * math.cos(a), c[1] - r * math.sin(a)
        if w / 2 + 2 <= x <= sw - w / 2 - 2 and h / 2 + 2 <= y <= sh - h / 2 - 2:
            return x, y
    return c[0], c[1] - r


def draw_rays(screen, cam, a_mm, b_mm, fraction: float) -> None:
    """The sight line from one model to another, coloured by how much of the target shows."""
    a, b = mm_to_screen(cam, *a_mm), mm_to_screen(cam, *b_mm)
    col = (110, 230, 255) if fraction >= 0.999 else ((250, 210, 90) if fraction > 0 else (240, 80, 70))
    pygame.draw.line(screen, (15, 12, 10), (a[0] + 1, a[1] + 1), (b[0] + 1, b[1] + 1), 4)
    pygame.draw.line(screen, col, a, b, 2)


# --- tooltips -----------------------------------------------------------------------------
def draw_tooltip(screen, mouse, lines, max_w: int = 330) -> None:
    if not lines:
        return
    box = _tooltip_box(tuple(lines), max_w)
    w, h = box.get_size()
    sw, sh = screen.get_size()
    x, y = mouse[0] + 22, mouse[1] + 22     # clear of the model under the pointer
    if x + w > sw - 6:
        x = mouse[0] - w - 12
    if y + h > sh - 6:
        y = mouse[1] - h - 12
    screen.blit(box, (max(0, x), max(0, y)))


@functools.lru_cache(maxsize=64)
def _tooltip_box(lines: tuple, max_w: int) -> pygame.Surface:
    f1, f2 = font(17, True), font(15)
    surfs = [f1.render(lines[0], True, (255, 246, 220))] + [f2.render(w, True, (224, 216, 200))
                                                             for t in lines[1:] for w in wrap(t, f2, max_w)]
    w = min(max_w, max(s.get_width() for s in surfs)) + 20
    h = sum(s.get_height() + 3 for s in surfs) + 14
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(box, (22, 18, 14, 230), box.get_rect(), border_radius=7)
    pygame.draw.rect(box, (200, 170, 110, 200), box.get_rect(), 1, border_radius=7)
    yy = 7
    for s in surfs:
        box.blit(s, (10, yy))
        yy += s.get_height() + 3
    return box


on_reset(_tooltip_box.cache_clear)


# --- the state of the table: objectives held, doors opened, weapons on the ground ---------------
def draw_table_state(screen, cam, view: dict, geoms=()) -> None:
    """What the view says changed on the table: who holds each objective (a ring in the side's
    colour and a flag), doors opened (their footprint drawn open), thrown weapons where they lie."""
    for o in view.get("objectives") or []:
        c = mm_to_screen(cam, o["x"], o["y"])
        held = o.get("held_by")
        if held:
            col = SIDE_COLOURS.get(held, (200, 200, 200))
            pygame.draw.circle(screen, col, c, max(10, 14 * cam.px_per_mm), 3)
            lab = plate(f"held by P{held}", 12, fg=(250, 246, 236), bg=(*col, 220))
            screen.blit(lab, lab.get_rect(midtop=(c[0], c[1] + max(10, 14 * cam.px_per_mm) + 2)))
        for k, q in enumerate(o.get("hacked_by") or []):
            col = SIDE_COLOURS.get(q, (200, 200, 200))
            lab = plate(f"hacked by P{q}", 12, fg=(250, 246, 236), bg=(*col, 200))
            screen.blit(lab, lab.get_rect(midbottom=(c[0], c[1] - 14 - k * 16)))
    opened = set(view.get("opened_doors") or ())
    for g in geoms:
        if getattr(g.piece, "id", None) in opened and g.shape == "poly" and len(g.points) >= 3:
            pts = [mm_to_screen(cam, x * cam.mm_per_unit, y * cam.mm_per_unit) for x, y in g.points]
            pygame.draw.polygon(screen, (70, 74, 78), pts)
            for a, b in zip(pts, pts[1:] + pts[:1]):
                draw_dashed(screen, (200, 230, 160), a, b)
            lab = plate("open", 12)
            cx = sum(p[0] for p in pts) / len(pts)
            cy = sum(p[1] for p in pts) / len(pts)
            screen.blit(lab, lab.get_rect(center=(cx, cy)))
    for d in view.get("dropped") or []:
        c = mm_to_screen(cam, d["x"], d["y"])
        col = SIDE_COLOURS.get(d.get("side"), (200, 200, 200))
        pygame.draw.line(screen, INK, (c[0] - 5, c[1] - 5), (c[0] + 5, c[1] + 5), 4)
        pygame.draw.line(screen, col, (c[0] - 5, c[1] - 5), (c[0] + 5, c[1] + 5), 2)
        lab = text_halo(str(d.get("weapon", "")).replace("_", " "), 11)
        screen.blit(lab, lab.get_rect(midleft=(c[0] + 7, c[1])))


def draw_dashed(screen, colour, a, b, dash: float = 6.0) -> None:
    n = max(1, int(math.dist(a, b) / dash))
    for k in range(0, n, 2):
        p = (a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n)
        q = (a[0] + (b[0] - a[0]) * min(n, k + 1) / n, a[1] + (b[1] - a[1]) * min(n, k + 1) / n)
        pygame.draw.line(screen, colour, p, q, 2)
