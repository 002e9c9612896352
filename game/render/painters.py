"""The body of each kind of piece (roofs, planks, corrugation, rock, bones), painted into the
piece's bounding box and clipped to its outline."""
from __future__ import annotations

import math

import pygame

from engine.data.maps import polygon_area

from .look import LIGHT, _draw, _frect, _shade

# ----------------------------------------------------------------------------- painters
# A painter fills the bounding-box surface ``s`` (screen offset ``off``); the result is then
# clipped to the piece's outline by ``_clip_paint``.

class _Rand:
    """A tiny deterministic generator (so a piece looks the same every frame)."""

    def __init__(self, seed: int):
        self.s = (seed or 1) & 0x7FFFFFFF

    def f(self) -> float:
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return self.s / 0x7FFFFFFF


def _clip_paint(surf, pts, painter, pad: int = 0):
    """``pad``: paint that far past the surface's edges too (for strokes pygame would draw
    differently when the surface's edge cuts them: arcs)."""
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    r = pygame.Rect(math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)) - math.floor(min(xs)) + 1,
                    math.ceil(max(ys)) - math.floor(min(ys)) + 1)
    rc = r.clip(surf.get_rect().inflate(2 * pad, 2 * pad))
    if rc.w <= 0 or rc.h <= 0:
        return
    tmp = pygame.Surface(rc.size, pygame.SRCALPHA)
    painter(tmp, rc.topleft)
    mask = pygame.Surface(rc.size, pygame.SRCALPHA)
    _draw.polygon(mask, (255, 255, 255, 255), [(x - rc.x, y - rc.y) for x, y in pts])
    tmp.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    surf.blit(tmp, rc.topleft)


def _long_axis(pts):
    """(unit vector along the longest edge, its length, the perpendicular extent)."""
    best = None
    for i in range(len(pts)):
        a, b = pts[i], pts[(i + 1) % len(pts)]
        L = math.dist(a, b)
        if best is None or L > best[1]:
            best = (((b[0] - a[0]) / (L or 1), (b[1] - a[1]) / (L or 1)), L)
    return best


def _local(pts, u):
    """Coordinates of pts along u and its perpendicular."""
    v = (-u[1], u[0])
    return [(p[0] * u[0] + p[1] * u[1], p[0] * v[0] + p[1] * v[1]) for p in pts], v


def _local_box(pts, u, off):
    """The piece's box in its own axes (along u, across it) as (x0, x1, y0, y1), the across axis
    v, and ``back(a, b)``: a point of that frame on the painter's surface (offset ``off``)."""
    loc, v = _local(pts, u)
    xs = [q[0] for q in loc]
    ys = [q[1] for q in loc]

    def back(a, b):
        return (a * u[0] + b * v[0] - off[0], a * u[1] + b * v[1] - off[1])
    return (min(xs), max(xs), min(ys), max(ys)), v, back


def _stripes(s, off, pts, u, spacing, colour, width=1, perpendicular=False):
    """Parallel lines across the whole bounding box (clipped later), along u or across it."""
    d = (-u[1], u[0]) if not perpendicular else u
    along = u if not perpendicular else (-u[1], u[0])
    W, H = s.get_size()
    R = math.hypot(W, H)
    cx, cy = W / 2, H / 2
    # anchor the stripes to the piece, not the screen, so they do not swim while panning
    p0 = (pts[0][0] - off[0], pts[0][1] - off[1])
    base = (p0[0] - cx) * d[0] + (p0[1] - cy) * d[1]
    start = base % spacing - R
    t = start
    while t < R:
        mx, my = cx + d[0] * t, cy + d[1] * t
        # plain pygame.draw (truncation): these lines run far past the surface on both sides, and
        # the surface is the piece's own (its sprite), so the result does not depend on the view
        pygame.draw.line(s, colour, (mx - along[0] * R, my - along[1] * R), (mx + along[0] * R, my + along[1] * R), width)
        t += spacing


def _paint_plain(r, s, off, g, pts, cam):
    s.fill((*g.colour, 255))


def _paint_building(r, s, off, g, pts, cam):
    base = g.colour
    s.fill((*base, 255))
    u, L = _long_axis(pts)
    spacing = max(3.0, cam.px_per_mm * 6)   # shingle rows every 6 mm
    _stripes(s, off, pts, u, spacing, (*_shade(base, -0.16), 255), 1)
    if len(pts) == 4:
        # gable roof: the ridge along the long axis; the half away from the light is darker
        (x0, x1, y0, y1), v, back = _local_box(pts, u, off)
        mid = (y0 + y1) / 2
        # the half whose normal points away from the light
        away = 1 if (v[0] * LIGHT[0] + v[1] * LIGHT[1]) < 0 else -1
        # the darker half as a polygon in screen coords
        y_far = y1 if away == 1 else y0
        shade_poly = [back(x0, mid), back(x1, mid), back(x1, y_far), back(x0, y_far)]
        dark = pygame.Surface(s.get_size(), pygame.SRCALPHA)
        _draw.polygon(dark, (0, 0, 0, 60), shade_poly)
        s.blit(dark, (0, 0))
        rw = max(1, int(cam.px_per_mm * 1.5))
        _draw.line(s, _shade(base, 0.3), back(x0, mid), back(x1, mid), rw)
        _draw.line(s, _shade(base, -0.45), back(x0, mid + 0.8 * away), back(x1, mid + 0.8 * away), 1)
        # a chimney or two on large roofs
        if (x1 - x0) > 60 and g.kind == "building":
            rnd = _Rand(g.seed)
            cwx = x0 + (x1 - x0) * (0.2 + rnd.f() * 0.6)
            cs = max(4.0, cam.px_per_mm * 9)
            c = back(cwx, mid - away * cs * 1.2)
            _draw.rect(s, _shade(base, -0.5), _frect(c[0] - cs / 2 + 2, c[1] - cs / 2 + 2, cs, cs))
            _draw.rect(s, (120, 100, 90), _frect(c[0] - cs / 2, c[1] - cs / 2, cs, cs))
            _draw.rect(s, (40, 30, 28), _frect(c[0] - cs / 4, c[1] - cs / 4, cs / 2, cs / 2))


def _paint_tower(r, s, off, g, pts, cam):
    # pyramid roof: triangles from the edges to the centre, shaded by facing
    base = g.colour
    s.fill((*base, 255))
    cx = sum(p[0] for p in pts) / len(pts) - off[0]
    cy = sum(p[1] for p in pts) / len(pts) - off[1]
    for i in range(len(pts)):
        a = (pts[i][0] - off[0], pts[i][1] - off[1])
        b = (pts[(i + 1) % len(pts)][0] - off[0], pts[(i + 1) % len(pts)][1] - off[1])
        mx, my = (a[0] + b[0]) / 2 - cx, (a[1] + b[1]) / 2 - cy
        L = math.hypot(mx, my) or 1
        f = (mx * LIGHT[0] + my * LIGHT[1]) / L
        _draw.polygon(s, _shade(base, 0.25 * f), [a, b, (cx, cy)])
        _draw.line(s, _shade(base, -0.4), a, (cx, cy), 1)
    _draw.circle(s, _shade(base, -0.5), (cx, cy), max(1.5, cam.px_per_mm * 1.5))


def _paint_crate(r, s, off, g, pts, cam):
    base = g.colour
    s.fill((*base, 255))
    u, L = _long_axis(pts)
    _stripes(s, off, pts, u, max(3.0, cam.px_per_mm * 5), (*_shade(base, -0.25), 255), 1)
    if len(pts) == 4:
        q = [(p[0] - off[0], p[1] - off[1]) for p in pts]
        w = max(1, int(cam.px_per_mm * 1.6))
        _draw.line(s, _shade(base, 0.2), q[0], q[2], w)
        _draw.line(s, _shade(base, 0.2), q[1], q[3], w)
        _draw.polygon(s, _shade(base, -0.3), q, max(1, int(cam.px_per_mm * 2.5)))


def _paint_wagon(r, s, off, g, pts, cam):
    base = g.colour
    s.fill((*_shade(base, -0.1), 255))
    u, L = _long_axis(pts)
    _stripes(s, off, pts, u, max(3.0, cam.px_per_mm * 4), (*_shade(base, -0.35), 255), 1)
    if len(pts) == 4:
        (x0, x1, y0, y1), v, back = _local_box(pts, u, off)
        # canvas or a bench toward one end; wheel hubs at the corners
        inset = (y1 - y0) * 0.18
        cover = [back(x0 + (x1 - x0) * 0.25, y0 + inset), back(x1 - inset, y0 + inset),
                 back(x1 - inset, y1 - inset), back(x0 + (x1 - x0) * 0.25, y1 - inset)]
        _draw.polygon(s, (224, 214, 186), cover)
        _stripes_poly(s, cover, u, max(3.0, cam.px_per_mm * 6), (196, 184, 152))
        wl = (x1 - x0) * 0.16
        ww = max(2, int((y1 - y0) * 0.14))
        for xa in (x0 + (x1 - x0) * 0.18, x1 - (x1 - x0) * 0.18):
            for yb in (y0 + ww / 2, y1 - ww / 2):
                _draw.line(s, (40, 30, 24), back(xa - wl / 2, yb), back(xa + wl / 2, yb), ww)
        # the shaft
        _draw.line(s, _shade(base, -0.4), back(x0, (y0 + y1) / 2), back(x0 + (x1 - x0) * 0.25, (y0 + y1) / 2), max(1, ww // 2))


def _stripes_poly(s, poly_pts, u, spacing, colour):
    tmp = pygame.Surface(s.get_size(), pygame.SRCALPHA)
    _stripes(tmp, (0, 0), poly_pts, (-u[1], u[0]), spacing, (*colour, 255), 1)
    mask = pygame.Surface(s.get_size(), pygame.SRCALPHA)
    _draw.polygon(mask, (255, 255, 255, 255), poly_pts)
    tmp.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    s.blit(tmp, (0, 0))


def _inset(pts, off, fx, fy):
    """The outline, shifted by ``off`` and shrunk toward its vertex mean by fx across, fy up."""
    q = [(p[0] - off[0], p[1] - off[1]) for p in pts]
    cx = sum(p[0] for p in q) / len(q)
    cy = sum(p[1] for p in q) / len(q)
    return [(cx + (x - cx) * fx, cy + (y - cy) * fy) for x, y in q]


def _paint_trough(r, s, off, g, pts, cam):
    base = g.colour
    s.fill((*base, 255))
    inner = _inset(pts, off, 0.72, 0.6)
    _draw.polygon(s, (70, 120, 160), inner)
    _draw.polygon(s, _shade(base, -0.4), inner, 1)


def _paint_container(r, s, off, g, pts, cam):
    base = g.colour
    s.fill((*base, 255))
    u, L = _long_axis(pts)
    _stripes(s, off, pts, u, max(2.5, cam.px_per_mm * 3.5), (*_shade(base, -0.22), 255), 1, perpendicular=True)
    if len(pts) == 4:
        q = [(p[0] - off[0], p[1] - off[1]) for p in pts]
        w = max(1, int(cam.px_per_mm * 2))
        _draw.polygon(s, _shade(base, -0.45 if g.height_mm > 80 else -0.35), q, w)   # stacks: darker rim


def _paint_platform(r, s, off, g, pts, cam):
    base = g.colour
    if r.theme["platform"] == "wood":
        base = (150, 112, 72)
        s.fill((*base, 255))
        u, L = _long_axis(pts)
        _stripes(s, off, pts, u, max(2.5, cam.px_per_mm * 3.2), (*_shade(base, -0.3), 255), 1, perpendicular=True)
        return
    s.fill((*base, 255))
    u, L = _long_axis(pts)
    sp = max(3.0, cam.px_per_mm * 4)
    _stripes(s, off, pts, u, sp, (*_shade(base, -0.2), 255), 1)
    _stripes(s, off, pts, u, sp, (*_shade(base, -0.2), 255), 1, perpendicular=True)
    q = [(p[0] - off[0], p[1] - off[1]) for p in pts]
    _draw.polygon(s, (206, 170, 50), q, max(1, int(cam.px_per_mm * 1.5)))


def _paint_console(r, s, off, g, pts, cam):
    base = g.colour
    s.fill((*base, 255))
    _draw.polygon(s, (60, 210, 230), _inset(pts, off, 0.7, 0.55))
    _draw.polygon(s, (170, 250, 255), _inset(pts, off, 0.45, 0.25))


def _paint_rock(r, s, off, g, pts, cam):
    base = g.colour
    s.fill((*base, 255))
    q = [(p[0] - off[0], p[1] - off[1]) for p in pts]
    cx = sum(p[0] for p in q) / len(q)
    cy = sum(p[1] for p in q) / len(q)
    # facets: a triangle fan from a point nudged toward the light, each lit by its facing
    tx, ty = cx + LIGHT[0] * 2, cy + LIGHT[1] * 2
    for i in range(len(q)):
        a, b = q[i], q[(i + 1) % len(q)]
        mx, my = (a[0] + b[0]) / 2 - tx, (a[1] + b[1]) / 2 - ty
        L = math.hypot(mx, my) or 1
        f = (mx * LIGHT[0] + my * LIGHT[1]) / L
        _draw.polygon(s, _shade(base, 0.22 * f - 0.02), [a, b, (tx, ty)])
    for i in range(0, len(q), 2):
        _draw.line(s, _shade(base, -0.3), q[i], (tx, ty), 1)


def _paint_bones(r, s, off, g, pts, cam):
    base = g.colour
    s.fill((70, 56, 40, 70))
    u, L = _long_axis(pts)
    (x0, x1, y0, y1), v, back = _local_box(pts, u, off)
    w = max(2, int(cam.px_per_mm * 6))
    ym = (y0 + y1) / 2
    _draw.line(s, base, back(x0, ym), back(x1, ym), w)     # the spine
    n = max(2, int((x1 - x0) / max(6, w * 2.2)))
    for i in range(1, n):
        xx = x0 + (x1 - x0) * i / n
        _draw.line(s, base, back(xx, ym), back(xx - (x1 - x0) * 0.04, y0 + 1), max(1, w // 2))
        _draw.line(s, base, back(xx, ym), back(xx - (x1 - x0) * 0.04, y1 - 1), max(1, w // 2))


_PAINTERS = {
    "building": _paint_building, "hut": _paint_building, "ruin": _paint_rock, "tower": _paint_tower,
    "crate": _paint_crate, "wagon": _paint_wagon, "trough": _paint_trough, "container": _paint_container,
    "platform": _paint_platform, "console": _paint_console, "rock": _paint_rock, "boulder": _paint_rock,
    "bones": _paint_bones,
}


def _bevel(surf, pts, base, width=2):
    """Light the edges facing the light, darken the others (inside the outline)."""
    n = len(pts)
    a2 = polygon_area(pts)
    sgn = 1 if a2 > 0 else -1
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        L = math.hypot(ex, ey)
        if L < 1:
            continue
        # outward normal in screen coords (y down): for positive signed area it is (ey, -ex)
        nx, ny = (ey / L, -ex / L) if sgn > 0 else (-ey / L, ex / L)
        f = nx * LIGHT[0] + ny * LIGHT[1]
        col = _shade(base, 0.35 * f) if f > 0 else _shade(base, 0.45 * f)
        ix, iy = -nx * width / 2, -ny * width / 2
        _draw.line(surf, col, (a[0] + ix, a[1] + iy), (b[0] + ix, b[1] + iy), width)


def _dashed_poly(surf, colour, pts, width, dash, gap):
    n = len(pts)
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        L = math.dist(a, b)
        if L < 1:
            continue
        ux, uy = (b[0] - a[0]) / L, (b[1] - a[1]) / L
        d = 0.0
        while d < L:
            e = min(L, d + dash)
            _draw.line(surf, colour, (a[0] + ux * d, a[1] + uy * d), (a[0] + ux * e, a[1] + uy * e), width)
            d = e + gap


def _aa_poly(surf, colour, pts, width):
    _draw.polygon(surf, colour, pts, width)
