"""What the game draws over the table: the tape, paths, flights, rings, sight rays, tooltips, the
table's state. The models' tokens are in ``piece_tokens``, reach and sight shading in ``grid_shading``.

Positions come in table millimetres (the engine's frame); ``Camera`` works in map units, so
every call converts through ``cam.mm_per_unit``. Only drawing here: what is legal, reachable
or visible is the engine's answer, passed in.
"""
from __future__ import annotations

import functools
import math

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
    """A five-pointed star (the hint's mark), outlined in ink."""
    cx, cy = centre
    pts = [(cx + (r if k % 2 == 0 else r * 0.45) * math.sin(math.pi * k / 5),
            cy - (r if k % 2 == 0 else r * 0.45) * math.cos(math.pi * k / 5)) for k in range(10)]
    pygame.draw.polygon(screen, colour, pts)
    pygame.draw.polygon(screen, INK, pts, 2)


# --- moves, reach, sight ------------------------------------------------------------------
def draw_path(screen, cam, points, legal: bool, colour=None) -> None:
    """A route (mm points): green where the engine allows it, red where not (or ``colour``)."""
    if len(points) < 2:
        return
    pts = [mm_to_screen(cam, x, y) for x, y in points]
    colour = colour or ((120, 240, 140) if legal else (240, 90, 80))
    pygame.draw.lines(screen, (15, 12, 10), False, [(x + 1, y + 2) for x, y in pts], 5)
    pygame.draw.lines(screen, colour, False, pts, 3)
    for p in pts[1:-1]:
        pygame.draw.circle(screen, colour, p, 4)


def draw_cross(screen, centre, colour=(240, 80, 70), k=9) -> None:
    cx, cy = centre
    pygame.draw.line(screen, colour, (cx - k, cy - k), (cx + k, cy + k), 4)
    pygame.draw.line(screen, colour, (cx - k, cy + k), (cx + k, cy - k), 4)


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


def note_box(lines, max_w: int = 330) -> pygame.Surface:
    """The tooltip's box for ``lines`` (the first in bold), to place where the caller wants."""
    return _tooltip_box(tuple(lines), max_w)


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
