"""The table's pieces, drawn by ``TableRenderer`` (``table_view``): the soft drop shadows (their
length follows each piece's height, drawn at quarter resolution and smoothed), and each piece's
body: polygons through the kind's painter (``painters``) with a bevel toward the light, the
translucent kinds (woods, scrub, smoke, water), the runs (hedges, pipes, gates, barricades,
fences, walls) and the round kinds (trees, barrels, tanks, towers, huts, rocks).

A layer of ``TableRenderer`` (an object it owns, ``renderer.pieces``): the same drawing serves
the cached table image, the per-piece sprites (kept here) and the editor's dragged pieces.
"""
from __future__ import annotations

import math

import pygame

from .camera import Camera, _rnd, _SpriteCamera
from .geoms import PieceGeom, build_geoms
from .look import LIGHT, SHADOW_PER_MM, TRANSLUCENT, _draw, _shade
from .painters import _PAINTERS, _aa_poly, _bevel, _clip_paint, _dashed_poly, _paint_plain, _Rand


class Pieces:
    """Shadows, piece bodies and their sprites for a ``TableRenderer`` (``look``: the map, its
    theme, its outlines in drawing order, the table's rect). Keeps each piece's sprite per zoom,
    and the floating (dragged) pieces' per piece object."""

    SPRITE_MAX_PX = 1600

    def __init__(self, look):
        self.look = look
        self.sprites: dict = {}
        self.sprite_scale = None
        self.floating: dict = {}

    def keep_sprites(self, keep: set) -> None:
        """The map changed: only the pieces in ``keep`` (the very same objects) keep their sprite."""
        self.sprites = {k: v for k, v in self.sprites.items() if k in keep}

    def sprite(self, g: PieceGeom, cam: Camera):
        """The piece drawn once per zoom level on its own small surface (panning only blits).

        Returns (surface, world x, world y of its top-left corner), or None when the piece
        would be too large at this zoom (then it is drawn straight onto the screen)."""
        if self.sprite_scale != cam.scale:
            self.sprites.clear()
            self.sprite_scale = cam.scale
        key = g.piece.id
        if key not in self.sprites:
            self.sprites[key] = self.make_sprite(g, cam)
        return self.sprites[key]

    def make_sprite(self, g: PieceGeom, cam: Camera):
        pad = 6
        x0, y0, x1, y1 = g.bounds
        w = int((x1 - x0) * cam.scale) + 2 * pad + 2
        h = int((y1 - y0) * cam.scale) + 2 * pad + 2
        if w > self.SPRITE_MAX_PX or h > self.SPRITE_MAX_PX:
            return None
        wx, wy = x0 - pad / cam.scale, y1 + pad / cam.scale
        local = _SpriteCamera(cam.mm_per_unit, pygame.Rect(0, 0, w, h), cam.scale, wx, wy)
        img = pygame.Surface((w, h), pygame.SRCALPHA)
        self.piece(img, local, g)
        return (img, wx, wy)

    def _shadow_len_px(self, g: PieceGeom, cam: Camera) -> float:
        return g.height_mm * SHADOW_PER_MM * cam.px_per_mm

    def shadows(self, surf: pygame.Surface, cam: Camera) -> None:
        W, H = surf.get_size()
        k = 4   # draw at quarter resolution, scale up smoothly: soft edges for free
        # The quarter-resolution grid is fixed to the table's corner (not to the surface), and the
        # upscale maps small pixel i exactly onto pixel k*i, so that a shadow looks the same
        # wherever the table is on the surface (panning, or the table drawn into a cached image).
        tr = self.look._table_rect(cam)
        ax, ay = tr.x % k - 2 * k, tr.y % k - 2 * k  # the surface position of small pixel (0, 0)
        small = pygame.Surface(((W - ax) // k + 3, (H - ay) // k + 3), pygame.SRCALPHA)
        ink = (0, 0, 0, 255)
        for g in self.look.order:
            L = self._shadow_len_px(g, cam)
            if L < 0.5 or (g.kind == "water"):
                continue
            dx, dy = -LIGHT[0] * L / k, -LIGHT[1] * L / k
            if g.shape == "circle":
                cx, cy = cam.to_screen(*g.center)
                cx, cy = (cx - ax) / k, (cy - ay) / k
                r = max(0.6, g.radius * cam.scale / k)
                _draw.circle(small, ink, (cx, cy), r)
                _draw.circle(small, ink, (cx + dx, cy + dy), r)
                nx, ny = -dy, dx
                nl = math.hypot(nx, ny) or 1
                nx, ny = nx / nl * r, ny / nl * r
                _draw.polygon(small, ink, [(cx + nx, cy + ny), (cx + nx + dx, cy + ny + dy),
                                                 (cx - nx + dx, cy - ny + dy), (cx - nx, cy - ny)])
            else:
                pts = [cam.to_screen(*p) for p in g.points]
                pts = [((x - ax) / k, (y - ay) / k) for x, y in pts]
                moved = [(x + dx, y + dy) for x, y in pts]
                _draw.polygon(small, ink, pts)
                _draw.polygon(small, ink, moved)
                for i in range(len(pts)):
                    j = (i + 1) % len(pts)
                    _draw.polygon(small, ink, [pts[i], pts[j], moved[j], moved[i]])
        # smoothscale samples destination x at source x * (w - 1) / dest_w: exactly x / k here
        big = pygame.transform.smoothscale(small, ((small.get_width() - 1) * k, (small.get_height() - 1) * k))
        # Translucent pieces (woods, smoke) throw a lighter shadow: one layer keeps it simple.
        big.fill((255, 255, 255, 105), special_flags=pygame.BLEND_RGBA_MULT)
        big.fill((30, 22, 14, 255), special_flags=pygame.BLEND_RGB_MAX)  # warm-dark ink
        surf.blit(big, (ax + k // 2, ay + k // 2))   # k/2: small pixels' centres on theirs

    def piece(self, surf: pygame.Surface, cam: Camera, g: PieceGeom) -> None:
        k = g.kind
        base = g.colour
        if g.shape == "circle":
            c = cam.to_screen(*g.center)
            r = g.radius * cam.scale
            if r < 0.8:
                return
            self._circle_piece(surf, cam, g, c, r)
            return
        pts = [cam.to_screen(*p) for p in g.points]
        x0, y0, x1, y1 = g.bounds
        if (x1 - x0) * cam.scale < 0.8 and (y1 - y0) * cam.scale < 0.8:
            return
        if k in TRANSLUCENT:
            self._translucent(surf, g, pts, cam)
            return
        if g.seg is not None:
            self._wall_piece(surf, cam, g, pts)
            return
        painter = _PAINTERS.get(k, _paint_plain)
        _clip_paint(surf, pts, lambda s, off: painter(self.look, s, off, g, pts, cam))
        _bevel(surf, pts, base, width=max(1, min(4, int(cam.scale * 0.05 * (25.4 / cam.mm_per_unit) + 0.5))))
        _draw.polygon(surf, _shade(base, -0.6), pts, 1)

    def _translucent(self, surf, g, pts, cam):
        alpha = TRANSLUCENT[g.kind]
        base = g.colour
        step = max(6, 0.9 * cam.scale * (25.4 / cam.mm_per_unit) ** 0 * (1 if cam.mm_per_unit > 20 else 2.54))

        def paint(s, off):
            ox, oy = off
            s.fill((*base, alpha))
            if g.kind == "water":
                # ripples: short light strokes on a loose lattice, world anchored
                rnd = _Rand(g.seed)
                wx0, wy0, wx1, wy1 = g.bounds
                n = int(((wx1 - wx0) * (wy1 - wy0)) * (cam.scale ** 2) / (step * step * 3)) + 3
                for _ in range(min(n, 900)):
                    x = (wx0 + rnd.f() * (wx1 - wx0))
                    y = (wy0 + rnd.f() * (wy1 - wy0))
                    sx, sy = cam.to_screen(x, y)
                    L = step * (0.6 + rnd.f() * 0.8)
                    _draw.arc(s, (*_shade(base, 0.45), 150), (sx - ox - L / 2, sy - oy, L, L * 0.35), 0.3, 2.8, 1)
                # deeper channel
            else:
                dark = _shade(base, -0.35)
                light = _shade(base, 0.25)
                rnd = _Rand(g.seed)
                wx0, wy0, wx1, wy1 = g.bounds
                blob_r = max(2.0, (0.32 if g.kind != "scrub" else 0.22) * cam.scale * (25.4 / cam.mm_per_unit))
                n = int((wx1 - wx0) * (wy1 - wy0) * cam.scale ** 2 / (blob_r * blob_r * 2.2)) + 4
                for _ in range(min(n, 1500)):
                    x = wx0 + rnd.f() * (wx1 - wx0)
                    y = wy0 + rnd.f() * (wy1 - wy0)
                    sx, sy = cam.to_screen(x, y)
                    rr = blob_r * (0.6 + rnd.f() * 0.7)
                    if g.kind == "smoke":
                        _draw.circle(s, (255, 255, 255, 40), (sx - ox, sy - oy), rr * 2)
                    else:
                        _draw.circle(s, (*dark, 150), (sx - ox + rr * 0.25, sy - oy + rr * 0.25), rr)
                        _draw.circle(s, (*base, 220), (sx - ox, sy - oy), rr * 0.85)
                        _draw.circle(s, (*light, 170), (sx - ox - rr * 0.3, sy - oy - rr * 0.3), rr * 0.4)
        _clip_paint(surf, pts, paint, pad=int(step * 1.4) + 4 if g.kind == "water" else 0)
        edge = _shade(base, -0.45) if g.kind != "water" else _shade(base, -0.35)
        if g.kind == "water":
            _aa_poly(surf, (*_shade((150, 120, 80), -0.2),), pts, 2)
        else:
            _dashed_poly(surf, edge, pts, 1, 5, 3)

    def _wall_piece(self, surf, cam, g, pts):
        a, b, t = g.seg
        A, B = cam.to_screen(*a), cam.to_screen(*b)
        wpx = max(1.5, t * cam.scale)
        base = g.colour
        k = g.kind
        length = math.dist(A, B)
        ux, uy = (B[0] - A[0]) / (length or 1), (B[1] - A[1]) / (length or 1)
        if k == "hedge":
            _draw.polygon(surf, _shade(base, -0.2), pts)
            rnd = _Rand(g.seed)
            n = max(2, int(length / max(3, wpx * 0.6)))
            for i in range(n + 1):
                f = i / n
                x, y = A[0] + (B[0] - A[0]) * f, A[1] + (B[1] - A[1]) * f
                rr = wpx * (0.5 + rnd.f() * 0.25)
                _draw.circle(surf, base, (x, y), rr)
                _draw.circle(surf, _shade(base, 0.25), (x - rr * 0.3, y - rr * 0.3), rr * 0.45)
            return
        if k == "pipe":
            _draw.polygon(surf, _shade(base, -0.35), pts)
            inner = max(1, int(wpx * 0.45))
            sh = (LIGHT[0] * wpx * 0.15, LIGHT[1] * wpx * 0.15)
            _draw.line(surf, _shade(base, 0.1), A, B, max(1, int(wpx * 0.7)))
            _draw.line(surf, _shade(base, 0.55), (A[0] + sh[0], A[1] + sh[1]), (B[0] + sh[0], B[1] + sh[1]), max(1, inner // 2))
            step = max(12.0, 2.5 * cam.scale * (25.4 / cam.mm_per_unit) / (25.4 / cam.mm_per_unit) * (1 if cam.mm_per_unit > 20 else 1))
            nx, ny = -uy * wpx * 0.62, ux * wpx * 0.62
            d = step / 2
            while d < length:
                x, y = A[0] + ux * d, A[1] + uy * d
                _draw.line(surf, _shade(base, -0.45), (x + nx, y + ny), (x - nx, y - ny), max(2, int(wpx * 0.25)))
                d += step
            return
        if k == "door":
            # a steel gate: two leaves meeting in the middle, a red lock light on the seam
            _draw.polygon(surf, base, pts)
            _bevel(surf, pts, base, 1)
            mx, my = (A[0] + B[0]) / 2, (A[1] + B[1]) / 2
            nx, ny = -uy * wpx * 0.5, ux * wpx * 0.5
            _draw.line(surf, _shade(base, -0.6), (mx + nx, my + ny), (mx - nx, my - ny), max(1, int(wpx * 0.2)))
            for f in (0.25, 0.75):
                x, y = A[0] + (B[0] - A[0]) * f, A[1] + (B[1] - A[1]) * f
                _draw.line(surf, _shade(base, 0.3), (x + nx * 0.7, y + ny * 0.7), (x - nx * 0.7, y - ny * 0.7), 1)
            _draw.circle(surf, (220, 52, 40), (mx, my), max(1.5, wpx * 0.3))
            _draw.polygon(surf, _shade(base, -0.6), pts, 1)
            return
        if k == "barricade":
            _draw.polygon(surf, base, pts)
            # hazard stripes along the top
            seg = max(4.0, wpx * 1.1)
            d = 0.0
            i = 0
            while d < length:
                e = min(length, d + seg)
                col = (226, 182, 40) if i % 2 == 0 else (40, 38, 34)
                _draw.line(surf, col, (A[0] + ux * d, A[1] + uy * d), (A[0] + ux * e, A[1] + uy * e), max(1, int(wpx * 0.35)))
                d, i = e, i + 1
            _bevel(surf, pts, base, 1)
            _draw.polygon(surf, _shade(base, -0.6), pts, 1)
            return
        # fences and walls: planks/stones along the run, posts at intervals
        _draw.polygon(surf, base, pts)
        if k == "wall":
            _draw.line(surf, _shade(base, 0.25), A, B, max(1, int(wpx * 0.3)))
        else:
            _draw.line(surf, _shade(base, -0.3), A, B, 1)
        _bevel(surf, pts, base, 1)
        _draw.polygon(surf, _shade(base, -0.6), pts, 1)
        if k == "fence" and length > 6:
            post = max(1.5, wpx * 0.75)
            step = max(10.0, 1.0 * cam.scale * (25.4 / cam.mm_per_unit))
            d = 0.0
            while d <= length + 0.1:
                x, y = A[0] + ux * d, A[1] + uy * d
                _draw.circle(surf, _shade(base, -0.45), (x, y), post)
                _draw.circle(surf, _shade(base, 0.15), (x - post * 0.3, y - post * 0.3), post * 0.45)
                d += step if length - d > step * 0.5 or d >= length else (length - d)

    def _circle_piece(self, surf, cam, g, c, r):
        base = g.colour
        k = g.kind
        cx, cy = c
        if k in TRANSLUCENT:
            pts = [(cx + r * math.cos(t * math.pi / 16), cy + r * math.sin(t * math.pi / 16)) for t in range(32)]
            self._translucent(surf, g, pts, cam)
            return
        lx, ly = LIGHT
        if k == "tree":
            dark = _shade(base, -0.35)
            _draw.circle(surf, dark, c, r)
            rnd = _Rand(g.seed)
            n = 7 if r > 6 else 3
            for i in range(n):
                a = 2 * math.pi * i / n + rnd.f()
                d = r * 0.45
                rr = r * (0.42 + rnd.f() * 0.12)
                _draw.circle(surf, base, (cx + math.cos(a) * d, cy + math.sin(a) * d), rr)
            _draw.circle(surf, base, c, r * 0.55)
            for i in range(n):
                a = 2 * math.pi * i / n + rnd.f()
                d = r * 0.4
                rr = r * 0.22
                _draw.circle(surf, _shade(base, 0.22), (cx + math.cos(a) * d + lx * r * 0.12, cy + math.sin(a) * d + ly * r * 0.12), rr)
            _draw.circle(surf, _shade(base, 0.35), (cx + lx * r * 0.3, cy + ly * r * 0.3), r * 0.18)
            return
        if k == "barrel":
            _draw.circle(surf, _shade(base, -0.45), c, r)
            _draw.circle(surf, base, c, r * 0.82)
            _draw.circle(surf, _shade(base, -0.3), c, r * 0.62, max(1, int(r * 0.1)))
            _draw.circle(surf, _shade(base, 0.3), (cx + lx * r * 0.3, cy + ly * r * 0.3), r * 0.22)
            return
        if k == "tank" or (k == "tower"):
            # metal drum seen from above: rim, domed top with a highlight, a hatch
            body = base if k == "tank" else (150, 118, 82)
            _draw.circle(surf, _shade(body, -0.5), c, r)
            steps = 6
            for i in range(steps):
                f = 1 - i / steps
                off = (1 - f) * r * 0.35
                _draw.circle(surf, _shade(body, -0.25 + 0.5 * (i / steps)), (cx + lx * off, cy + ly * off), r * 0.92 * f)
            if r > 5:
                _draw.circle(surf, _shade(body, -0.5), c, r * 0.92, 1)
                if k == "tank":
                    _draw.circle(surf, _shade(body, -0.4), (cx - lx * r * 0.4, cy - ly * r * 0.4), r * 0.16, 1)
                else:
                    # wooden staves of the water tank
                    for i in range(12):
                        a = i * math.pi / 6
                        _draw.line(surf, _shade(body, -0.35), (cx + math.cos(a) * r * 0.5, cy + math.sin(a) * r * 0.5),
                                         (cx + math.cos(a) * r * 0.9, cy + math.sin(a) * r * 0.9), 1)
            return
        if k == "hut":
            # thatch cone: concentric rings, radial straws, light side
            _draw.circle(surf, _shade(base, -0.45), c, r)
            for i in range(5):
                f = 1 - i / 5
                _draw.circle(surf, _shade(base, -0.2 + 0.1 * i), (cx + lx * r * 0.08 * i, cy + ly * r * 0.08 * i), r * 0.95 * f)
            for i in range(24):
                a = i * math.pi / 12
                _draw.line(surf, _shade(base, -0.3), (cx + math.cos(a) * r * 0.2, cy + math.sin(a) * r * 0.2),
                                 (cx + math.cos(a) * r * 0.93, cy + math.sin(a) * r * 0.93), 1)
            _draw.circle(surf, _shade(base, -0.55), c, max(1.5, r * 0.12))
            return
        # generic: a disc with a light side
        _draw.circle(surf, _shade(base, -0.4), c, r)
        _draw.circle(surf, base, (cx + lx * r * 0.08, cy + ly * r * 0.08), r * 0.88)
        _draw.circle(surf, _shade(base, 0.25), (cx + lx * r * 0.35, cy + ly * r * 0.35), r * 0.3)
        if k == "rock":  # fire pit and such: an inner ring
            _draw.circle(surf, (70, 50, 40), c, r * 0.5)
            _draw.circle(surf, (210, 110, 40), c, r * 0.25)

    def draw_floating(self, surface: pygame.Surface, cam: Camera, pieces, dx: float = 0.0, dy: float = 0.0) -> None:
        """Draw ``pieces`` that are not part of the table image (a layout editor's dragged
        pieces), moved by (dx, dy) map units, each with a soft shadow. Their sprites are kept per
        piece object and zoom, so a frame of a drag only blits them."""
        cache = self.floating
        if cache.get("scale") != cam.scale:
            cache.clear()
            cache["scale"] = cam.scale
        moved = Camera(cam.mm_per_unit, cam.viewport, cam.scale, cam.ox - dx, cam.oy - dy)
        for p in pieces:
            ent = cache.get(id(p))
            if ent is None or ent[0] is not p:
                g = build_geoms(self.look.map.model_copy(update={"pieces": [p]}))[0]
                ent = (p, g, self.make_sprite(g, cam))
                cache[id(p)] = ent
            _, g, spr = ent
            self._floating_shadow(surface, moved, g)
            if spr is None:
                self.piece(surface, moved, g)
            else:
                img, wx, wy = spr
                sx, sy = cam.to_screen(wx + dx, wy + dy)
                surface.blit(img, (_rnd(sx), _rnd(sy)))
        if len(cache) > 512:
            cache.clear()

    def _floating_shadow(self, surface, cam: Camera, g: PieceGeom) -> None:
        L = self._shadow_len_px(g, cam)
        if L < 0.5 or g.kind == "water":
            return
        ox, oy = -LIGHT[0] * L, -LIGHT[1] * L
        if g.shape == "circle":
            pts = [(g.center[0] + g.radius * math.cos(t * math.pi / 8), g.center[1] + g.radius * math.sin(t * math.pi / 8))
                   for t in range(16)]
        else:
            pts = g.points
        spts = [cam.to_screen(*q) for q in pts]
        xs, ys = [q[0] for q in spts], [q[1] for q in spts]
        box = pygame.Rect(math.floor(min(xs) + min(0, ox)) - 2, math.floor(min(ys) + min(0, oy)) - 2,
                          math.ceil(max(xs) - min(xs) + abs(ox)) + 5, math.ceil(max(ys) - min(ys) + abs(oy)) + 5)
        box = box.clip(surface.get_rect())
        if box.w <= 0 or box.h <= 0:
            return
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        local = [(x - box.x, y - box.y) for x, y in spts]
        ink = (30, 22, 14, 90)
        _draw.polygon(layer, ink, [(x + ox, y + oy) for x, y in local])
        for i in range(len(local)):
            j = (i + 1) % len(local)
            a, b = local[i], local[j]
            _draw.polygon(layer, ink, [a, b, (b[0] + ox, b[1] + oy), (a[0] + ox, a[1] + oy)])
        surface.blit(layer, box.topleft)
