"""Where a base may stand: off the hard pieces and the table edge (``terrain_problem``), clear of
other bases (``bases_problem``), both (``position_problem``), and the nearest free spots round a
point (``clearance_candidates``). Design: ``movement``."""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .bases import Base
from .move_common import IMPASSABLE, POS_TOL

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table


# --------------------------------------------------------------------------- positions

def terrain_problem(table: Table, x: float, y: float, radius: float) -> str | None:
    if (x - radius < -POS_TOL or y - radius < -POS_TOL or x + radius > table.width + POS_TOL
            or y + radius > table.height + POS_TOL):
        return "off the table"
    hits = table.space.point_query((x, y), radius, IMPASSABLE)
    bad = []
    for h in hits:
        if h.distance >= radius - POS_TOL:
            continue   # touching is fine (base contact)
        p = table.pieces[h.shape.piece_index]
        if p.hard or not p.contains(x, y):
            bad.append(p)
    if bad:
        p = min(bad, key=lambda q: q.index)
        return f"overlaps the {p.label}"
    return None


def position_problem(table: Table, x, y, radius, others: Sequence[Base] = (), ignore=()) -> str | None:
    return terrain_problem(table, x, y, radius) or bases_problem(x, y, radius, others, ignore)


def bases_problem(x, y, radius, others: Sequence[Base] = (), ignore=()) -> str | None:
    """The other bases' half of ``position_problem``: the first of ``others`` the base overlaps."""
    ign = set(ignore)
    for o in others:
        if o.id in ign:
            continue
        if math.hypot(x - o.x, y - o.y) < radius + o.radius - POS_TOL:
            return f"overlaps {o.id}"
    return None


def clearance_candidates(table: Table, x, y, radius, others: Sequence[Base] = (), reach=math.inf,
                         rounds: int = 3) -> list[tuple[float, float]]:
    """Points near (x, y) where a base of ``radius`` stops overlapping what it overlaps there.

    For every terrain part (grown by ``radius``), other base or table edge the point is inside,
    the nearest point just outside it; then the same from each of those points, ``rounds`` deep,
    keeping points within ``reach`` of (x, y). With one thing in the way the first round holds
    the exact nearest clear point; with several, later rounds slide along their boundaries. The
    caller checks each candidate (``position_problem``) and picks by distance."""
    sp = table._swept_space(radius)
    eps = 1e-3                                    # mm beyond the boundary
    lo_x, hi_x, lo_y, hi_y = radius, table.width - radius, radius, table.height - radius
    out: list[tuple[float, float]] = []
    seen: set = set()
    frontier = [(float(x), float(y))]
    # two bases in the way: where the circles the centre must stay outside of cross (exact)
    near = [o for o in others if math.hypot(x - o.x, y - o.y) < radius + o.radius + reach]
    for i, a in enumerate(near):
        for b in near[i + 1:]:
            for q in _circle_crossings((a.x, a.y), radius + a.radius + eps, (b.x, b.y), radius + b.radius + eps):
                if math.hypot(q[0] - x, q[1] - y) <= reach:
                    out.append(q)
    for _ in range(rounds):
        nxt = []
        for px, py in frontier:
            pushes = []
            for h in sp.point_query((px, py), 0.0, IMPASSABLE):
                if h.distance >= 0:
                    continue
                qx, qy = h.point.x, h.point.y
                d = math.hypot(qx - px, qy - py) or 1.0
                pushes.append((qx + (qx - px) / d * eps, qy + (qy - py) / d * eps))
            for o in others:
                d = math.hypot(px - o.x, py - o.y)
                need = radius + o.radius
                if d < need:
                    ux, uy = ((px - o.x) / d, (py - o.y) / d) if d > 1e-9 else (1.0, 0.0)
                    pushes.append((o.x + ux * (need + eps), o.y + uy * (need + eps)))
            if not (lo_x <= px <= hi_x and lo_y <= py <= hi_y):
                pushes.append((min(max(px, lo_x), hi_x), min(max(py, lo_y), hi_y)))
            for q in pushes:
                key = (round(q[0], 3), round(q[1], 3))
                if key in seen or math.hypot(q[0] - x, q[1] - y) > reach:
                    continue
                seen.add(key)
                out.append(q)
                nxt.append(q)
        frontier = nxt
    return out


def _circle_crossings(c0, r0, c1, r1) -> list[tuple[float, float]]:
    d = math.dist(c0, c1)
    if d <= 1e-12 or d > r0 + r1 or d < abs(r0 - r1):
        return []
    a = (r0 * r0 - r1 * r1 + d * d) / (2 * d)
    h = math.sqrt(max(0.0, r0 * r0 - a * a))
    ux, uy = (c1[0] - c0[0]) / d, (c1[1] - c0[1]) / d
    mx, my = c0[0] + ux * a, c0[1] + uy * a
    return [(mx - uy * h, my + ux * h), (mx + uy * h, my - ux * h)]
