"""The other bases' half of the legality tests for many candidate points at once (numpy).

An agent weighing a move asks the same two questions of dozens of points among the same bases:
does a base of radius r at (x, y) overlap another base (``movement.bases_problem``), and does the
straight route from the mover to (x, y) pass through one (``movement.bases_clear``)? Here all
points against all bases in a few array operations. The answers must be exactly the scalar
tests' answers, so numpy only decides pairs that are clear by a margin far above its rounding
(``MARGIN``): a pair that close to the limit is tested again by the scalar code, with its own
arithmetic. (The segment test is the scalar expression step for step, so even its numbers agree;
the margin keeps that from being a promise this module has to keep.)
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .bases import Base
from .movement import EDGE_TOL, POS_TOL, seg_circle_ok

MARGIN = 1e-7     # mm (and mm² for squared lengths, relative): far above float64 rounding here


def overlapping(xs: np.ndarray, ys: np.ndarray, radius: float, others: Sequence[Base]) -> np.ndarray:
    """(P,) bool: a base of ``radius`` at (xs[p], ys[p]) overlaps one of ``others``, exactly as
    ``bases_problem(x, y, radius, others) is not None``."""
    if not others:
        return np.zeros(len(xs), bool)
    ox = np.array([o.x for o in others], float)
    oy = np.array([o.y for o in others], float)
    orad = np.array([o.radius for o in others], float)
    d = np.hypot(xs[:, None] - ox[None, :], ys[:, None] - oy[None, :])
    lim = (radius + orad - POS_TOL)[None, :]
    hit = d < lim - MARGIN
    unsure = np.abs(d - lim) <= MARGIN
    if unsure.any():
        for p, m in zip(*np.nonzero(unsure)):
            o = others[m]
            hit[p, m] = math.hypot(float(xs[p]) - o.x, float(ys[p]) - o.y) < radius + o.radius - POS_TOL
    return hit.any(axis=1)


def blocking(ax: float, ay: float, xs: np.ndarray, ys: np.ndarray, radius: float,
             others: Sequence[Base]) -> np.ndarray:
    """(P,) bool: one of ``others`` stands in the way of a base of ``radius`` sliding straight
    from (ax, ay) to (xs[p], ys[p]), exactly as ``not bases_clear((ax, ay), (x, y), radius,
    others)``."""
    if not others:
        return np.zeros(len(xs), bool)
    cx = np.array([o.x for o in others], float)[None, :]
    cy = np.array([o.y for o in others], float)[None, :]
    rad = np.array([o.radius + radius - EDGE_TOL for o in others], float)[None, :]
    # _clear_of, operation for operation
    dx = (xs - ax)[:, None]
    dy = (ys - ay)[:, None]
    L2 = dx * dx + dy * dy
    fx = cx - ax
    fy = cy - ay
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(L2 > 0, (fx * dx + fy * dy) / L2, 0.0)
    t = np.minimum(np.maximum(t, 0.0), 1.0)
    ddx = fx - t * dx
    ddy = fy - t * dy
    dd = ddx * ddx + ddy * ddy
    r2 = rad * rad
    slack = MARGIN * (1.0 + r2)
    hit = dd < r2 - slack
    unsure = np.abs(dd - r2) <= slack
    if unsure.any():
        for p, m in zip(*np.nonzero(unsure)):
            o = others[m]
            hit[p, m] = not seg_circle_ok(ax, ay, float(xs[p]), float(ys[p]), o.x, o.y, o.radius + radius - EDGE_TOL)
    return hit.any(axis=1)
