"""The objectives and firing lanes the analysis pictures mark, and where their labels go.

Labels are placed by ``place_labels`` (pure geometry, tested): a lane's label sits on its lane
where it covers no other label and no objective marker, or is left to the panel's list.
"""
from __future__ import annotations

import math

from . import analysis_marks as AM
from .analysis_frame import HIDE_COLOURS, SIDE_HIDE, Frame, Rect, _pygame, _ring


# --- label placement (pure geometry) --------------------------------------------------
def overlaps(a: Rect, b: Rect, pad: float = 0.0) -> bool:
    return (a[0] < b[0] + b[2] + pad and b[0] < a[0] + a[2] + pad
            and a[1] < b[1] + b[3] + pad and b[1] < a[1] + a[3] + pad)


ALONG = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.12, 0.88)


def place_labels(segments, sizes, avoid=(), bounds: Rect | None = None, pad: float = 2.0) -> list[Rect | None]:
    """A rectangle for each label, or None where none fits: label ``i`` (``sizes[i]`` = (w, h))
    is centred on segment ``i`` ((ax, ay), (bx, by)) at the first of ``ALONG`` fractions of its
    length, or nudged across it by up to one label height, where it overlaps no rectangle in
    ``avoid``, no label already placed (``pad`` px apart) and stays inside ``bounds``."""
    placed: list[Rect] = []
    out: list[Rect | None] = []
    for ((ax, ay), (bx, by)), (w, h) in zip(segments, sizes):
        L = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / L, (bx - ax) / L          # unit normal
        got = None
        for t in ALONG:
            cx, cy = ax + t * (bx - ax), ay + t * (by - ay)
            for s in (0.0, 0.5, -0.5, 1.0, -1.0):
                r = (cx + s * h * nx - w / 2, cy + s * h * ny - h / 2, w, h)
                if bounds is not None and not (bounds[0] <= r[0] and r[0] + w <= bounds[0] + bounds[2]
                                               and bounds[1] <= r[1] and r[1] + h <= bounds[1] + bounds[3]):
                    continue
                if any(overlaps(r, o, pad) for o in avoid) or any(overlaps(r, o, pad) for o in placed):
                    continue
                got = r
                break
            if got:
                break
        out.append(got)
        if got:
            placed.append(got)
    return out


def _marker_radius(fr: Frame) -> float:
    return max(7.0, 20.0 / fr.cam.mm_per_unit * fr.cam.scale)     # the renderer's 40 mm marker


def _marker_rects(fr: Frame, mapfile) -> list[Rect]:
    """What the renderer draws at each objective (the marker and its number)."""
    r = _marker_radius(fr)
    out = []
    for o in mapfile.objectives:
        cx, cy = fr.cam.to_screen(*o.at)
        out.append((cx - 1.2 * r, cy - 1.8 * r, 3.0 * r, 3.0 * r))
    return out


def _objectives(fr: Frame, mapfile, met: dict, info: dict | None) -> list[Rect]:
    """Control circles coloured by which side can hold the objective unseen from the enemy's
    zone, and under each marker a badge per side with the number of observer points in range
    where it can. Returns the rectangles labels must avoid (markers and badges)."""
    from .look import SIDE_COLOURS
    from .text import plate

    fr.renderer.marks.markers(fr.sub, fr.cam)         # again, over the overlay that tinted them

    ctrl = met["control_range_mm"] / mapfile.mm_per_unit
    avoid = _marker_rects(fr, mapfile)
    r = _marker_radius(fr)
    for o in met["objectives"]:
        by = o.get("hidable_by", [s for s in (1, 2) if o[f"hidable_side{s}"]])
        col = HIDE_COLOURS["both"] if len(by) == 2 else HIDE_COLOURS[by[0]] if by else HIDE_COLOURS["none"]
        cx, cy = fr.cam.to_screen(o["x"], o["y"])
        _ring(fr.sub, col, (cx, cy), max(3, ctrl * fr.scale), dashed=not by)
        n_in = max(1, o.get("points", 0))
        AM.share_arcs(fr.sub, (cx, cy), max(3, ctrl * fr.scale),
                      {s: o[f"hidden_points_side{s}"] / n_in for s in (1, 2)}, SIDE_HIDE)
        badges = []
        for s in (1, 2):
            n = o[f"hidden_points_side{s}"]
            bg = (*SIDE_COLOURS[s], 230) if n else (50, 46, 42, 220)
            badges.append(plate(f"{s}: {n}" if n else f"{s}: 0", 13, bg=bg))
        w = sum(b.get_width() for b in badges) + 3
        x = cx - w / 2
        y = cy + 1.3 * r
        for b in badges:
            fr.sub.blit(b, (x, y))
            avoid.append((x, y, b.get_width(), b.get_height()))
            x += b.get_width() + 3
    if info is not None:
        info["avoid_rects"] = list(avoid)
    return avoid


def _lanes(fr: Frame, lanes: list[dict], avoid: list[Rect], info: dict | None, prefix: str = "",
           colours=None, dashed_for=None) -> None:
    pygame = _pygame()
    from .text import plate

    segs, labels = [], []
    for i, lane in enumerate(lanes, 1):
        a = fr.cam.to_screen(*lane["from"])
        b = fr.cam.to_screen(*lane["to"])
        col = colours(lane) if colours else ((255, 60, 200) if lane["zone_to_zone"] else (250, 250, 250))
        dashed = dashed_for(lane) if dashed_for else False
        if dashed:
            n = max(2, int(math.dist(a, b) // 14))
            for k in range(0, n, 2):
                p = (a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n)
                q = (a[0] + (b[0] - a[0]) * (k + 1) / n, a[1] + (b[1] - a[1]) * (k + 1) / n)
                pygame.draw.line(fr.sub, (10, 10, 10), p, q, 6)
                pygame.draw.line(fr.sub, col, p, q, 3)
        else:
            pygame.draw.line(fr.sub, (10, 10, 10), a, b, 6)
            pygame.draw.line(fr.sub, col, a, b, 3)
        for e in (a, b):
            pygame.draw.circle(fr.sub, col, e, 5)
        segs.append((a, b))
        labels.append(plate(f"{prefix}{lane.get('index', i)}: {lane['length']:.0f}", 14))
    # ends of every lane are markers too: a label must not hide where a lane starts
    ends = [(e[0] - 6, e[1] - 6, 12, 12) for s in segs for e in s]
    bounds = (0, 0, fr.map_w, fr.sub.get_height())
    rects = place_labels(segs, [(lb.get_width(), lb.get_height()) for lb in labels], list(avoid) + ends, bounds)
    for lb, r in zip(labels, rects):
        if r is not None:
            fr.sub.blit(lb, (round(r[0]), round(r[1])))
    if info is not None:
        info["label_rects"] = [r for r in rects if r is not None]
        info["unplaced_labels"] = sum(r is None for r in rects)
