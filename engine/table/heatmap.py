"""Openness heatmap: how much of the open table each open point can see at eye height."""
from __future__ import annotations

import functools
import multiprocessing as mp
import operator
import os
from typing import TYPE_CHECKING

import numpy as np
import pymunk

from .geometry import CirclePart, ConvexPart
from .terrain import build_space

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table

DEFAULT_EYE_MM = 27.0    # 0.9 x a 30 mm model
EDGE_MM = 1e-6           # as the workshop's analysis: a grid point this close to a piece is on it

_STATE: dict = {}        # inherited by forked workers


def _rows_pymunk(indices) -> np.ndarray:
    """Reference: visible-pair counts from sources ``indices`` (each tests only j > i) with
    pymunk ``segment_query_first`` on the space of tall blockers."""
    pts = _STATE["pts"]
    space = _STATE["space"]
    q = space.segment_query_first
    f = pymunk.ShapeFilter()
    n = len(pts)
    counts = np.zeros(n, dtype=np.int64)
    for i in indices:
        a = pts[i]
        row = [j for j in range(i + 1, n) if q(a, pts[j], 0.0, f) is None]
        counts[i] += len(row)
        if row:
            counts[row] += 1
    return counts


def _rows(indices) -> np.ndarray:
    """Visible-pair counts from sources ``indices`` (each tests only j > i), numpy shadow test.

    From an open source point s, a convex part hides exactly the points that lie inside the wedge
    of directions it subtends and beyond the chord joining its two silhouette vertices (points on
    s's side of the chord but inside the wedge would be inside the part, and open points never
    are). Discs: the segment passes closer to the centre than the radius."""
    P = _STATE["pts_arr"]
    vx0, vy0, gx0, gy0 = _STATE["poly"]
    cx0, cy0, cr2 = _STATE["circ"]
    n = len(P)
    counts = np.zeros(n, dtype=np.int64)
    npoly = vx0.shape[0]
    ar = np.arange(npoly)
    for i in indices:
        if i >= n - 1:
            continue
        sx, sy = P[i]
        wx = P[i + 1:, 0] - sx
        wy = P[i + 1:, 1] - sy
        blocked = np.zeros(len(wx), dtype=bool)
        if npoly:
            vx, vy = vx0 - sx, vy0 - sy
            gx, gy = (gx0 - sx)[:, None], (gy0 - sy)[:, None]
            ang = np.arctan2(gx * vy - gy * vx, gx * vx + gy * vy)
            kl, kr = ang.argmin(axis=1), ang.argmax(axis=1)
            Lx, Ly, Rx, Ry = vx[ar, kl], vy[ar, kl], vx[ar, kr], vy[ar, kr]
            ex, ey = Rx - Lx, Ry - Ly
            side_s = ey * Lx - ex * Ly                       # cross(R - L, s - L) with s at the origin
            WX, WY = wx[:, None], wy[:, None]
            hid = (Lx * WY - Ly * WX > 0) & (WX * Ry - WY * Rx > 0)
            hid &= (ex * (WY - Ly) - ey * (WX - Lx)) * side_s < 0
            blocked |= hid.any(axis=1)
        if len(cx0):
            fx, fy = (cx0 - sx)[None, :], (cy0 - sy)[None, :]
            WX, WY = wx[:, None], wy[:, None]
            L2 = WX * WX + WY * WY
            t = np.clip((fx * WX + fy * WY) / np.where(L2 > 0, L2, 1.0), 0.0, 1.0)
            dx, dy = fx - t * WX, fy - t * WY
            blocked |= (dx * dx + dy * dy < cr2[None, :]).any(axis=1)
        seen = ~blocked
        counts[i] += int(seen.sum())
        counts[i + 1:] += seen
    return counts


def _prepare(table: Table, eye_height_mm: float) -> None:
    tall = [p for p in table.pieces if p.blocks_sight and p.height > eye_height_mm]
    polys = [part for p in tall for part in p.parts if isinstance(part, ConvexPart)]
    circs = [part for p in tall for part in p.parts if isinstance(part, CirclePart)]
    m = max((len(q.points) for q in polys), default=3)
    vx = np.array([[q.points[min(k, len(q.points) - 1)][0] for k in range(m)] for q in polys]).reshape(-1, m)
    vy = np.array([[q.points[min(k, len(q.points) - 1)][1] for k in range(m)] for q in polys]).reshape(-1, m)
    gx = np.array([sum(x for x, _ in q.points) / len(q.points) for q in polys])
    gy = np.array([sum(y for _, y in q.points) / len(q.points) for q in polys])
    _STATE["poly"] = (vx, vy, gx, gy)
    _STATE["circ"] = (np.array([c.cx for c in circs]), np.array([c.cy for c in circs]),
                      np.array([c.r for c in circs]) ** 2)
    _STATE["space"] = build_space(table.pieces, lambda p: p.blocks_sight and p.height > eye_height_mm)


def openness_heatmap(table: Table, step_mm: float = 25.4, eye_height_mm: float = DEFAULT_EYE_MM,
                     processes: int = 2, method: str = "numpy") -> np.ndarray:
    """Grid of shape (rows, cols) over the table at ``step_mm`` (cell centres): for each point not
    inside terrain, the share of the other open points it can see with both eyes at
    ``eye_height_mm`` above the ground; NaN for points inside terrain.

    "Inside terrain" means inside a piece that blocks sight or is impassable. Only pieces that
    block sight and are taller than the eye height can block these level rays, so the query space
    holds only those. Sight is symmetric, so each pair is tested once; sources are dealt round-robin
    to ``processes`` forked workers (small grids stay in this process).

    ``method="numpy"`` (default) uses a vectorised shadow test per source (see ``_rows``);
    ``method="pymunk"`` the plain ``segment_query_first`` loop (reference, ~5x slower). They can
    differ only for rays that exactly graze a corner."""
    cols = max(1, int(round(table.width / step_mm)))
    rows = max(1, int(round(table.height / step_mm)))
    xs = (np.arange(cols) + 0.5) * (table.width / cols)
    ys = (np.arange(rows) + 0.5) * (table.height / rows)
    gx, gy = np.meshgrid(xs, ys)
    open_mask = np.ones(gx.shape, dtype=bool)
    solid = [p for p in table.pieces if p.blocks_sight or p.impassable]
    e = EDGE_MM       # a point on a piece's edge is inside it, whatever the rounding of its coordinates
    for p in solid:
        x0, y0, x1, y1 = p.bbox
        sel = np.argwhere((gx >= x0 - e) & (gx <= x1 + e) & (gy >= y0 - e) & (gy <= y1 + e) & open_mask)
        for r, c in sel:
            if p.contains(gx[r, c], gy[r, c], e):
                open_mask[r, c] = False
    idx = np.argwhere(open_mask)
    pts = [(float(gx[r, c]), float(gy[r, c])) for r, c in idx]
    n = len(pts)
    out = np.full(gx.shape, np.nan)
    if n == 0:
        return out
    if n == 1:
        out[tuple(idx[0])] = 0.0
        return out
    _STATE["pts"] = pts
    _STATE["pts_arr"] = np.array(pts)
    _prepare(table, eye_height_mm)
    work = _rows if method == "numpy" else _rows_pymunk
    procs = max(1, min(int(processes), os.cpu_count() or 1))
    try:
        if procs == 1 or n < 200 or "fork" not in mp.get_all_start_methods():
            counts = work(range(n))
        else:
            # interleave sources so every worker gets short and long rows alike
            chunks = [list(range(k, n, procs)) for k in range(procs)]
            with mp.get_context("fork").Pool(procs) as pool:
                counts = functools.reduce(operator.add, pool.map(work, chunks))
    finally:
        _STATE.clear()
    for (r, c), k in zip(idx, counts):
        out[r, c] = k / (n - 1)
    return out
