"""Openness heatmap: how much of the open table each open point can see at eye height."""
from __future__ import annotations

import multiprocessing as mp
import os
from typing import TYPE_CHECKING

import numpy as np
import pymunk

from .terrain import build_space

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table

DEFAULT_EYE_MM = 27.0    # 0.9 x a 30 mm model

_STATE: dict = {}        # inherited by forked workers


def _rows(indices) -> np.ndarray:
    """Visible-pair counts contributed by sources ``indices`` (each tests only j > i)."""
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


def openness_heatmap(table: "Table", step_mm: float = 25.4, eye_height_mm: float = DEFAULT_EYE_MM,
                     processes: int = 2) -> np.ndarray:
    """Grid of shape (rows, cols) over the table at ``step_mm`` (cell centres): for each point not
    inside terrain, the share of the other open points it can see with both eyes at
    ``eye_height_mm`` above the ground; NaN for points inside terrain.

    "Inside terrain" means inside a piece that blocks sight or is impassable. Only pieces that
    block sight and are taller than the eye height can block these level rays, so the query space
    holds only those. Sight is symmetric, so each pair is tested once; sources are dealt round-robin
    to ``processes`` forked workers."""
    cols = max(1, int(round(table.width / step_mm)))
    rows = max(1, int(round(table.height / step_mm)))
    xs = (np.arange(cols) + 0.5) * (table.width / cols)
    ys = (np.arange(rows) + 0.5) * (table.height / rows)
    gx, gy = np.meshgrid(xs, ys)
    open_mask = np.ones(gx.shape, dtype=bool)
    solid = [p for p in table.pieces if p.blocks_sight or p.impassable]
    for p in solid:
        x0, y0, x1, y1 = p.bbox
        sel = np.argwhere((gx >= x0) & (gx <= x1) & (gy >= y0) & (gy <= y1) & open_mask)
        for r, c in sel:
            if p.contains(gx[r, c], gy[r, c]):
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
    _STATE["space"] = build_space(table.pieces, lambda p: p.blocks_sight and p.height > eye_height_mm)
    procs = max(1, min(int(processes), os.cpu_count() or 1))
    try:
        if procs == 1 or "fork" not in mp.get_all_start_methods():
            counts = _rows(range(n))
        else:
            # interleave sources so every worker gets short and long rows alike
            chunks = [list(range(k, n, procs * 4)) for k in range(procs * 4)]
            with mp.get_context("fork").Pool(procs) as pool:
                counts = sum(pool.map(_rows, chunks))
    finally:
        _STATE.clear()
    for (r, c), k in zip(idx, counts):
        out[r, c] = k / (n - 1)
    return out
