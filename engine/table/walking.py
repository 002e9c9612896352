"""Moving along what was found: a base walking a path as far as its allowance and the rules let it
(``walk``), and a straight move on a heading (``straight_move``). Design: ``movement``."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .bases import Base
from .climbing import surface_profiles
from .move_common import EDGE_TOL, IMPASSABLE, Path, StraightMove
from .placement import position_problem

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table


# --------------------------------------------------------------------------- walking

def walk(table: Table, path: Path, allowance: float, radius: float, others=(), ignore=()):
    """Furthest legal point along ``path`` whose cost (horizontal + climbing) is <= allowance.

    Climbing happens at a boundary all at once: a base that cannot pay the whole climb stops
    before it. Where the allowance runs out at an illegal spot (overlapping a model, half over a
    wall), the base backs off along the path to the nearest legal position."""
    pts = [(p[0], p[1]) for p in path.points]
    if len(pts) == 1:
        pts = pts * 2
    A = np.array(pts[:-1], float)
    B = np.array(pts[1:], float)
    vert, profiles = surface_profiles(table, A, B)
    left = float(allowance)
    # walk forward; remember a parameter s = (segment index, t) where we stop
    stop = (len(A) - 1, 1.0)
    z_prev = None
    for i in range(len(A)):
        L = float(math.hypot(*(B[i] - A[i])))
        prof = profiles[i] or [(0.0, 1.0, table.surface_height(*A[i]))]
        if z_prev is None:
            z_prev = prof[0][2]
        done = False
        for (ta, tb, z) in prof:
            climb = abs(z - z_prev)
            if climb > left + 1e-9:
                stop = (i, max(ta - 1e-6, 0.0))
                done = True
                break
            left -= climb
            z_prev = z
            run = (tb - ta) * L
            if run > left + 1e-9:
                stop = (i, ta + (left / L if L > 0 else 0.0))
                done = True
                break
            left -= run
        if done:
            break

    def at(s):
        i, t = s
        return (A[i, 0] + t * (B[i, 0] - A[i, 0]), A[i, 1] + t * (B[i, 1] - A[i, 1]))

    def legal(s):
        x, y = at(s)
        return position_problem(table, x, y, radius, others, ignore) is None

    def back(s, step):
        i, t = s
        L = float(math.hypot(*(B[i] - A[i]))) or 1.0
        t -= step / L
        while t < 0 and i > 0:
            over = -t * L
            i -= 1
            L = float(math.hypot(*(B[i] - A[i]))) or 1.0
            t = 1.0 - over / L
        return (i, max(t, 0.0))

    s = stop
    if not legal(s):
        step = max(radius / 8.0, 0.5)
        bad = s
        while True:
            nxt = back(bad, step)
            if nxt == bad or (nxt[0] == 0 and nxt[1] == 0.0):
                s = (0, 0.0)
                if not legal(s):
                    s = nxt
                break
            if legal(nxt):
                # bisect between the legal nxt and the illegal bad (same or neighbouring segment)
                good = nxt
                lo = 0.0
                hi = step
                for _ in range(20):
                    mid = (lo + hi) / 2
                    cand = back(bad, mid)
                    if legal(cand):
                        hi = mid
                        good = cand
                    else:
                        lo = mid
                s = good
                break
            bad = nxt
    x, y = at(s)
    return (float(x), float(y), table.surface_height(x, y))


# --------------------------------------------------------------------------- straight moves

def straight_move(table: Table, base: Base, heading_deg: float, distance: float, others=(),
                  max_climb: float = 0.0) -> StraightMove:
    """Move a base's centre in a straight line (jumps, knock-backs), stopping at the table edge,
    at impassable terrain taller than ``base.z + max_climb`` and at other models; it then backs
    off to a legal spot if it would end overlapping something (e.g. a barrel it jumped over)."""
    r = base.radius
    h = math.radians(heading_deg)
    ux, uy = math.cos(h), math.sin(h)
    sx, sy = base.x, base.y
    dist = max(0.0, float(distance))
    best, by = dist, None
    # table edge
    for c, u, lo, hi in ((sx, ux, r, table.width - r), (sy, uy, r, table.height - r)):
        if u > 1e-12:
            t = (hi - c) / u
        elif u < -1e-12:
            t = (lo - c) / u
        else:
            continue
        t = max(t, 0.0)
        if t < best:
            best, by = t, "the table edge"
    limit = base.z + max_climb + 1e-9
    end = (sx + ux * dist, sy + uy * dist)
    if dist > 0:
        for hit in table._swept_space(r).segment_query((sx, sy), end, 0.0, IMPASSABLE):
            sh = hit.shape.orig
            p = table.pieces[sh.piece_index]
            if p.height <= limit:
                continue
            pq = sh.point_query((sx, sy))
            if pq.distance < r + EDGE_TOL:
                # already touching: blocked only if moving into it
                if pq.gradient.x * ux + pq.gradient.y * uy < 0:
                    t = 0.0
                else:
                    continue
            else:
                t = hit.alpha * dist
            if t < best:
                best, by = t, p.label
        for o in others:
            if o.id == base.id:
                continue
            fx, fy = sx - o.x, sy - o.y
            R = r + o.radius
            b = fx * ux + fy * uy
            c = fx * fx + fy * fy - R * R
            if c < 0:
                if b < 0:
                    t = 0.0
                else:
                    continue
            else:
                disc = b * b - c
                if disc <= 0 or b >= 0:
                    continue
                t = -b - math.sqrt(disc)
            if t < best:
                best, by = t, o.id
    t = best if by in (None, "the table edge") else max(0.0, best - EDGE_TOL)
    # back off to a legal spot (something passed over that cannot be stood on)
    while t > 0 and position_problem(table, sx + ux * t, sy + uy * t, r, others, (base.id,)) is not None:
        t = max(0.0, t - 0.5)
    x, y = sx + ux * t, sy + uy * t
    z = table.surface_height(x, y)
    return StraightMove(x=x, y=y, z=z, travelled=t, stopped_by=by)
