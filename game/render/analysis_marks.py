"""Marks the analysis pictures draw over their colour layers (``analysis_png``): the outlines of
the pieces that block sight (a 0.1" wall is one pixel at the pictures' scale and vanished under
the heatmap), the zones' labels (they sat under the fills), how much of an objective's ground
hides each side (arcs, so 1 point in 26 no longer looks like 26), and the pieces that moved
between two layouts (their old outline and an arrow)."""
from __future__ import annotations

import math

THIN_PX = 4.0              # a piece narrower than this on the picture is drawn as a solid line
LINE = (12, 12, 12)
MOVED = (150, 200, 255)


def _pygame():
    from .png import headless_pygame

    return headless_pygame()


def _width_of(points) -> float:
    """The smallest width of a convex outline (the least, over its edges, of the farthest
    vertex from the edge's line)."""
    n = len(points)
    best = math.inf
    for k in range(n):
        (x0, y0), (x1, y1) = points[k - 1], points[k]
        L = math.hypot(x1 - x0, y1 - y0)
        if L == 0:
            continue
        best = min(best, max(abs((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)) / L for x, y in points))
    return best


def terrain_lines(fr, mapfile) -> list[str]:
    """Every piece that blocks sight outlined over the overlays; a piece thinner than
    ``THIN_PX`` on the picture (a wall) is filled and outlined 3 px wide so it shows. Returns
    the ids drawn as solid lines (for tests)."""
    pygame = _pygame()
    from engine.table.terrain import build_piece

    k = mapfile.mm_per_unit
    thin = []
    for i, p in enumerate(mapfile.pieces):
        if not p.prop("blocks_sight"):
            continue
        tp = build_piece(i, p, mapfile.unit)
        for part in tp.parts:
            if hasattr(part, "points"):
                pts = [fr.cam.to_screen(x / k, y / k) for x, y in part.points]
                if _width_of(pts) < THIN_PX:
                    pygame.draw.polygon(fr.sub, LINE, pts, 0)
                    pygame.draw.lines(fr.sub, LINE, True, pts, 3)
                    thin.append(p.id)
                else:
                    pygame.draw.lines(fr.sub, LINE, True, pts, 2)
            else:
                c = fr.cam.to_screen(part.cx / k, part.cy / k)
                pygame.draw.circle(fr.sub, LINE, c, max(2.0, part.r / k * fr.scale), 2)
    return sorted(set(thin))


def zone_labels(fr) -> None:
    """The zones' labels again, over the colour layers."""
    fr.renderer.ground.zone_labels(fr.sub, fr.cam)


def share_arcs(surf, centre, radius: float, shares: dict, colours: dict) -> None:
    """Inside an objective's ring, one arc per side whose length is the share of the objective's
    points in range where that side is unseen (side 1 outer, side 2 inner), from the top,
    counter-clockwise; no arc for a share of 0."""
    pygame = _pygame()
    for k, side in enumerate((1, 2)):
        share = shares.get(side, 0.0)
        r = radius - 5 - 6 * k
        if share <= 0 or r < 4:
            continue
        rect = pygame.Rect(centre[0] - r, centre[1] - r, 2 * r, 2 * r)
        start = math.pi / 2
        stop = start + 2 * math.pi * min(share, 0.9999)
        pygame.draw.arc(surf, (10, 10, 10), rect.inflate(2, 2), start, stop, 7)
        pygame.draw.arc(surf, colours[side], rect, start, stop, 5)


def moved_marks(fr, moved: list[dict], unit_mm: float) -> None:
    """For each moved piece: its outline where it stood in A (dashed, light blue) and an arrow
    from there to where it stands in B."""
    pygame = _pygame()
    for mv in moved:
        ring = [fr.cam.to_screen(x / unit_mm, y / unit_mm) for x, y in mv["outline_a"]]
        if ring:
            for a, b in zip(ring, ring[1:] + ring[:1]):
                _dashed(pygame, fr.sub, MOVED, a, b)
        elif mv.get("radius"):
            c = fr.cam.to_screen(mv["from"][0] / unit_mm, mv["from"][1] / unit_mm)
            pygame.draw.circle(fr.sub, MOVED, c, mv["radius"] / unit_mm * fr.scale, 2)
        a = fr.cam.to_screen(mv["from"][0] / unit_mm, mv["from"][1] / unit_mm)
        b = fr.cam.to_screen(mv["to"][0] / unit_mm, mv["to"][1] / unit_mm)
        _arrow(pygame, fr.sub, a, b)


def _dashed(pygame, surf, colour, a, b, dash: float = 8.0) -> None:
    L = math.dist(a, b)
    n = max(1, int(L // dash))
    for i in range(0, n, 2):
        t0, t1 = i / n, min(1.0, (i + 1) / n)
        pygame.draw.line(surf, colour, (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                         (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1), 2)


def _arrow(pygame, surf, a, b) -> None:
    if math.dist(a, b) < 3:
        return
    pygame.draw.line(surf, (10, 10, 10), a, b, 6)
    pygame.draw.line(surf, MOVED, a, b, 3)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    head = [b, (b[0] - 14 * math.cos(ang - 0.45), b[1] - 14 * math.sin(ang - 0.45)),
            (b[0] - 14 * math.cos(ang + 0.45), b[1] - 14 * math.sin(ang + 0.45))]
    pygame.draw.polygon(surf, MOVED, head)
    pygame.draw.polygon(surf, (10, 10, 10), head, 1)
