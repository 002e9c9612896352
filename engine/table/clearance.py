"""Clearance rasters: where the terrain certainly does not matter to a base, for many points at once.

Three fields over the table, each a lower bound of the signed distance from a cell's centre to
the nearest part of a kind of terrain (capped at ``CAP``): impassable pieces (where a base may
stand), hard pieces (what a straight move must slide past) and climbable or difficult ground
(what a straight run pays for). A distance field changes by at most the distance moved, so a
point ``p`` is at least ``D[cell] - |p - centre|`` from that terrain, and a segment sampled every
``step`` mm at least the smallest of its samples' bounds less ``step / 2``.

They answer only where that bound clears the limit by ``MARGIN`` (a point well inside open
ground, a route well away from every piece): there the exact tests (pymunk, the clipping of
``segment_intervals``) cannot answer otherwise. Everywhere else the caller runs the exact test.
"""
from __future__ import annotations

import math

import numpy as np

from .geometry import CirclePart
from .movement import EDGE_TOL

CELL = 5.0          # mm
CAP = 64.0          # mm: distances beyond this are not needed (a base's radius, a little more)
MARGIN = 1e-4       # mm: far above the rounding of either side's arithmetic


def distance_field(parts, width: float, height: float, cell: float = CELL, cap: float = CAP) -> np.ndarray:
    """(nx, ny): min(cap, signed distance from each cell centre to the nearest of ``parts``),
    negative inside a part. Only the cells within ``cap`` of a part's box are worked out for it
    (the others are at least ``cap`` from it)."""
    nx, ny = max(1, math.ceil(width / cell)), max(1, math.ceil(height / cell))
    xs = (np.arange(nx) + 0.5) * cell
    ys = (np.arange(ny) + 0.5) * cell
    D = np.full((nx, ny), cap)
    for part in parts:
        x0, y0, x1, y1 = part.bbox
        i0, i1 = max(0, math.floor((x0 - cap) / cell)), min(nx, math.ceil((x1 + cap) / cell) + 1)
        j0, j1 = max(0, math.floor((y0 - cap) / cell)), min(ny, math.ceil((y1 + cap) / cell) + 1)
        if i0 >= i1 or j0 >= j1:
            continue
        X = xs[i0:i1, None]
        Y = ys[None, j0:j1]
        if isinstance(part, CirclePart):
            d = np.hypot(X - part.cx, Y - part.cy) - part.r
        else:
            pts = part.points
            best = np.full((i1 - i0, j1 - j0), np.inf)
            inside = np.ones((i1 - i0, j1 - j0), bool)
            for k in range(len(pts)):
                (ax, ay), (bx, by) = pts[k], pts[(k + 1) % len(pts)]
                ex, ey = bx - ax, by - ay
                L2 = ex * ex + ey * ey
                t = np.clip(((X - ax) * ex + (Y - ay) * ey) / L2, 0.0, 1.0) if L2 > 0 else 0.0
                best = np.minimum(best, np.hypot(X - ax - t * ex, Y - ay - t * ey))
                inside &= ex * (Y - ay) - ey * (X - ax) >= 0      # left of every edge (counter-clockwise)
            d = np.where(inside, -best, best)
        np.minimum(D[i0:i1, j0:j1], d, out=D[i0:i1, j0:j1])
    return D


class Clearance:
    """The three fields of one table (built once, on first use)."""

    def __init__(self, table):
        from .terrain import CAT_CLIMB_BLOCK, CAT_HARD

        self.width, self.height, self.cell = table.width, table.height, CELL
        impassable, hard = [], []
        for sh in table.space.shapes:
            cat = sh.filter.categories
            if cat & (CAT_HARD | CAT_CLIMB_BLOCK):
                impassable.append(sh.part)
            if cat & CAT_HARD:
                hard.append(sh.part)
        # the same pieces as the table's _climb_arrays and _difficult_arrays
        costly = [part for p in table.pieces if (p.climbable and p.height > 0) or p.difficult for part in p.parts]
        self.impassable = distance_field(impassable, self.width, self.height)
        self.hard = distance_field(hard, self.width, self.height)
        self.costly = distance_field(costly, self.width, self.height)
        self.nx, self.ny = self.hard.shape
        self._steps: dict = {}

    def _bound(self, field: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Lower bound of the field's distance at the points (x, y) (any shape)."""
        c = self.cell
        i = np.clip((x // c).astype(np.int64), 0, self.nx - 1)
        j = np.clip((y // c).astype(np.int64), 0, self.ny - 1)
        return field[i, j] - np.hypot(x - (i + 0.5) * c, y - (j + 0.5) * c)

    def free_at(self, xs: np.ndarray, ys: np.ndarray, radius: float) -> np.ndarray:
        """(P,) bool, True only where a base of ``radius`` at (xs, ys) certainly overlaps no
        impassable piece (the caller still tests the table's edge)."""
        return self._bound(self.impassable, xs, ys) >= radius + MARGIN

    def routes(self, ax: float, ay: float, xs: np.ndarray, ys: np.ndarray, radius: float):
        """Two (P,) bools for the segments (ax, ay) -> (xs, ys): True only where a base of
        ``radius`` certainly slides along it clear of every hard piece (``movement._clear``
        would say True), and only where it certainly meets no climbable piece with height and
        no difficult ground (its straight run is its length, none of it difficult)."""
        L = np.hypot(xs - ax, ys - ay)
        k = max(2, int(math.ceil(float(L.max(initial=0.0)) / self.cell)) + 1)
        t = self._steps.get(k)
        if t is None:
            t = self._steps[k] = np.linspace(0.0, 1.0, k)[None, :]
        qx = ax + (xs - ax)[:, None] * t
        qy = ay + (ys - ay)[:, None] * t
        c = self.cell
        i = np.clip((qx // c).astype(np.int64), 0, self.nx - 1)
        j = np.clip((qy // c).astype(np.int64), 0, self.ny - 1)
        off = np.hypot(qx - (i + 0.5) * c, qy - (j + 0.5) * c)
        half = L / (2 * (k - 1))
        clear = (self.hard[i, j] - off).min(axis=1) - half >= max(radius - EDGE_TOL, 0.0) + MARGIN
        plain = (self.costly[i, j] - off).min(axis=1) - half >= MARGIN
        return clear, plain
