"""Measuring: edge-to-edge distances and terrain coverage."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .bases import Base
from .geometry import CirclePart

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table


def distance(a: Base, b: Base) -> float:
    """Horizontal distance between the edges of two bases (0 when touching or overlapping)."""
    return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius)


def distance_to_point(a: Base, x: float, y: float) -> float:
    return max(0.0, math.hypot(a.x - x, a.y - y) - a.radius)


def coverage(table: Table, rows: int = 4000) -> float:
    """Share of the table's area under terrain footprints, overlaps counted once.

    Scanline integration: for each of ``rows`` horizontal lines (midpoint rule) every convex part
    gives one x-interval; the union length of the intervals, clipped to the table, is integrated
    over y. The union length is piecewise linear in y for polygons, so the error is confined to
    rows that straddle a vertex: well under 0.01% of the table for ordinary maps."""
    W, H = table.width, table.height
    parts = [part for p in table.pieces for part in p.parts]
    if not parts:
        return 0.0
    ys = (np.arange(rows) + 0.5) * (H / rows)
    lo_cols, hi_cols = [], []
    for part in parts:
        # only the rows within the part's height can meet it (the others keep an empty interval):
        # the same result, without working every part over all the rows
        lo, hi = np.full(rows, np.inf), np.full(rows, -np.inf)
        if isinstance(part, CirclePart):
            sel = np.nonzero((ys > part.cy - part.r) & (ys < part.cy + part.r))[0]
            dy = ys[sel] - part.cy
            w2 = part.r ** 2 - dy * dy
            ok = w2 > 0
            w = np.sqrt(np.where(ok, w2, 0.0))
            lo[sel] = np.where(ok, part.cx - w, np.inf)
            hi[sel] = np.where(ok, part.cx + w, -np.inf)
        else:
            pts = np.array(part.points)
            sel = np.nonzero((ys >= pts[:, 1].min()) & (ys < pts[:, 1].max()))[0]
            p0 = pts
            p1 = np.roll(pts, -1, axis=0)
            y0, y1 = p0[:, 1][None, :], p1[:, 1][None, :]
            yy = ys[sel][:, None]
            crosses = ((y0 <= yy) & (yy < y1)) | ((y1 <= yy) & (yy < y0))
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (yy - y0) / (y1 - y0)
            xx = p0[:, 0][None, :] + t * (p1[:, 0] - p0[:, 0])[None, :]
            lo[sel] = np.where(crosses, xx, np.inf).min(axis=1) if len(sel) else lo[sel]
            hi[sel] = np.where(crosses, xx, -np.inf).max(axis=1) if len(sel) else hi[sel]
        lo_cols.append(np.clip(lo, 0, W))
        hi_cols.append(np.clip(hi, 0, W))
    lo = np.stack(lo_cols, axis=1)
    hi = np.stack(hi_cols, axis=1)
    empty = ~(hi > lo)
    lo = np.where(empty, np.inf, lo)
    hi = np.where(empty, -np.inf, hi)
    order = np.argsort(lo, axis=1)
    lo = np.take_along_axis(lo, order, axis=1)
    hi = np.take_along_axis(hi, order, axis=1)
    empty = np.take_along_axis(empty, order, axis=1)
    run_end = np.maximum.accumulate(hi, axis=1)
    prev_end = np.concatenate([np.full((rows, 1), -np.inf), run_end[:, :-1]], axis=1)
    with np.errstate(invalid="ignore"):
        gain = np.where(empty, 0.0, np.clip(hi - np.maximum(lo, prev_end), 0.0, None))
    covered = gain.sum(axis=1)
    return float(covered.sum() * (H / rows) / (W * H))


def length_words(mm: float, unit: str) -> str:
    """A length as a player reads it, in the ruleset's unit: 5.2" or 12.0 cm (one decimal)."""
    from engine.data.maps import MM_PER
    return f"{mm / MM_PER.get(unit, 1.0):.1f}" + ('"' if unit == "in" else f" {unit}")
