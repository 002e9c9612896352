"""Sight for a few (viewer, target) pairs in plain Python, with the numpy kernel's exact arithmetic.

Same rules and the same floating-point operations as ``SightKernel.run`` in ``sight.py`` (which
serves large ``sight_matrix`` batches): the same parts (the kernel's own packed arrays, read back
as Python floats), the same corridor cull on their bounding circles, the same Cyrus–Beck clip and
disc quadratic per ray, the same height test. So the visible / obscured counts, cover codes and
label sets are identical to the kernel's, not merely close. For one pair numpy's fixed cost per
operation (~400 µs a call) dwarfs the work; here a pair costs a few tens of µs.

Only the candidates differ in how they are found: a bucket grid over the parts' bounding circles
(registered with a margin) returns a superset of the parts the kernel's cull can accept, and the
cull itself is then applied to each, as the kernel does.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .bases import Base

if TYPE_CHECKING:  # pragma: no cover
    from .sight import SightKernel

GRID_MM = 200.0   # cell of the candidate grid (coarser cells: fewer to visit, a few more candidates)
MARGIN = 1.0      # mm of slack on both the grid's boxes and its queries (far above rounding error)
REACH = 1.415     # a culled-in centre is within tr + sqrt(2) rho of the segment (see PairSight)

_hypot = np.hypot  # the kernel's hypot: math.hypot differs from it in the last bit now and then


class PairSight:
    """Per-table part data for plain single-pair sight, read from the table's ``SightKernel``."""

    def __init__(self, kernel: SightKernel):
        pa = kernel.pa
        P = kernel.n_poly
        # per part, in run's object layout: (cx, cy, rho, top, bottom, blocks, obscures, cover
        # code, owner piece, model index (-1), edges or None for a disc)
        objs = []
        for i in range(P + kernel.n_tc):
            if i < P:
                n = int(pa.poly_nedge[i])
                # the kernel's unit normals and offsets; its padding columns (n = 0, c = 1) never
                # narrow an interval, so they are left out
                edges = tuple((float(pa.nx[i, k]), float(pa.ny[i, k]), float(pa.c[i, k])) for k in range(n))
            else:
                edges = None
            objs.append((float(kernel.b_cx[i]), float(kernel.b_cy[i]), float(kernel.b_rho[i]),
                         float(kernel.b_top[i]), -math.inf, bool(kernel.b_blocks[i]), bool(kernel.b_obsc[i]),
                         int(kernel.b_cover[i]), int(kernel.b_owner[i]), -1, edges))
        self.objs = objs
        self.max_code = max([o[7] for o in objs] + [1])   # models give light cover (1)
        # A part the kernel's cull accepts has its centre within sqrt(rho^2 + (tr + rho)^2) <=
        # tr + sqrt(2) rho of the eye-target segment (|across| <= tr + rho, along within rho of
        # the segment), so some point of the box centre +- (REACH rho + MARGIN) lies within
        # tr + MARGIN of the segment: register each part in the cells that box touches, and
        # visit every cell within tr + MARGIN.
        cells: dict = {}
        for i, (cx, cy, rho, *_rest) in enumerate(objs):
            g = REACH * rho + MARGIN
            for gx in range(math.floor((cx - g) / GRID_MM), math.floor((cx + g) / GRID_MM) + 1):
                for gy in range(math.floor((cy - g) / GRID_MM), math.floor((cy + g) / GRID_MM) + 1):
                    cells.setdefault((gx, gy), []).append(i)
        self.cells = cells

    def _candidates(self, ex, ey, tx, ty, D):
        """Indices of the parts registered in any cell within ``D`` of the segment e-t (a superset
        of those within D): row by row, the segment's x extent over the row's band grown by D."""
        try:
            return self._cells_near(ex, ey, tx, ty, D)
        except (ValueError, OverflowError):   # a coordinate is not finite: every part
            return range(len(self.objs))

    def _cells_near(self, ex, ey, tx, ty, D):
        cells = self.cells
        found: set = set()
        dy = ty - ey
        gy0 = math.floor((min(ey, ty) - D) / GRID_MM)
        gy1 = math.floor((max(ey, ty) + D) / GRID_MM)
        if gy1 - gy0 > 64:
            return range(len(self.objs))
        for gy in range(gy0, gy1 + 1):
            lo, hi = gy * GRID_MM - D, (gy + 1) * GRID_MM + D
            if dy == 0.0:
                xa, xb = ex, tx
            else:
                # the segment's parameters where its y is in [lo, hi], clipped to [0, 1]
                ta, tb = (lo - ey) / dy, (hi - ey) / dy
                if ta > tb:
                    ta, tb = tb, ta
                ta, tb = max(ta, 0.0), min(tb, 1.0)
                if ta > tb:
                    continue
                xa, xb = ex + ta * (tx - ex), ex + tb * (tx - ex)
            if xa > xb:
                xa, xb = xb, xa
            gx0 = math.floor((xa - D) / GRID_MM)
            gx1 = math.floor((xb + D) / GRID_MM)
            if gx1 - gx0 > 64:
                return range(len(self.objs))
            for gx in range(gx0, gx1 + 1):
                hit = cells.get((gx, gy))
                if hit:
                    found.update(hit)
        return found

    def run(self, ex, ey, ez, tx, ty, tr, tz, th, blockers: Sequence[Base], h: int, v: int,
            want_labels: bool = False):
        """One pair, as ``SightKernel.run`` with Q = 1: the eye (ex, ey, ez), the target (tx, ty,
        radius tr, bottom tz, height th), ``blockers`` the models that may block (the viewer and
        the target left out). Returns (visible count, obscured-visible count, cover code, labels)
        with labels (blocking pieces, covering pieces, blocking model indices) or None."""
        dx, dy = tx - ex, ty - ey
        L = float(_hypot(dx, dy))
        if L <= 1e-12:
            ux, uy = 1.0, 0.0
        else:
            ux, uy = dx / L, dy / L
        # rays: j across (lateral offset lat), k up; horizontal run (rdx, rdy), rise rdz
        rays = []
        for j in range(h):
            lat = tr * ((j + 0.5) / h * 2.0 - 1.0)
            rays.append(((tx - uy * lat) - ex, (ty + ux * lat) - ey))
        dzs = [(tz + th * ((k + 0.5) / v)) - ez for k in range(v)]
        zl = tz + th * (0.5 / v)
        zlow = ez if ez < zl else zl
        objects = []   # (cx, cy, rho, top, bottom, blocks, obscures, cover, owner, model, edges)
        objs = self.objs
        for i in self._candidates(ex, ey, tx, ty, tr + MARGIN):
            o = objs[i]
            rx, ry = o[0] - ex, o[1] - ey
            rho = o[2]
            along = rx * ux + ry * uy
            if abs(ry * ux - rx * uy) <= tr + rho and along >= -rho and along <= L + rho and o[3] > zlow:
                objects.append(o)
        for mi, m in enumerate(blockers):
            cx, cy, rho, top = m.x, m.y, m.radius, m.z + m.height
            rx, ry = cx - ex, cy - ey
            along = rx * ux + ry * uy
            if abs(ry * ux - rx * uy) <= tr + rho and along >= -rho and along <= L + rho and top > zlow:
                objects.append((cx, cy, rho, top, m.z, True, False, 1, -1, mi, None))
        S = h * v
        blocked = [False] * S
        nblocked = 0
        obscured = [False] * S
        hits = []   # (object, ray indices it meets)
        cover = 0
        # z along a ray stays within [min, max] of the eye and its sample (to rounding): an object
        # whose top is clearly above all of them is below-the-top for every sample it spans
        zmax = max(ez, ez + max(dzs))
        above = zmax + 1e-9 * (1.0 + abs(ez) + abs(zmax))
        ks = range(v)
        for obj in objects:
            cx, cy, rho, top, bot, blocks, edges = obj[0], obj[1], obj[2], obj[3], obj[4], obj[5], obj[10]
            if edges is not None:
                # Cyrus–Beck; the numerators depend on the eye only
                planes = [(nx, ny, c - (nx * ex + ny * ey)) for nx, ny, c in edges]
            else:
                fx, fy = ex - cx, ey - cy
                ff = fx * fx + fy * fy - rho * rho
            all_k = bot == -math.inf and top > above
            met: list[int] = []
            base = -v
            for rdx, rdy in rays:
                base += v
                if edges is not None:
                    t0, t1 = 0.0, 1.0
                    for nx, ny, num in planes:
                        den = nx * rdx + ny * rdy
                        if den < 0.0:
                            r = num / den
                            if r > t0:
                                t0 = r
                        elif den > 0.0:
                            r = num / den
                            if r < t1:
                                t1 = r
                        elif num < 0.0:
                            t1 = -1.0
                        if t0 >= t1:
                            break
                else:
                    a = rdx * rdx + rdy * rdy
                    b = fx * rdx + fy * rdy
                    disc = b * b - a * ff
                    if not (disc > 0.0 and a > 0.0):
                        continue
                    sq = math.sqrt(disc)
                    t0 = (-b - sq) / a
                    t1 = (-b + sq) / a
                    if t0 < 0.0:
                        t0 = 0.0
                    if t1 > 1.0:
                        t1 = 1.0
                if not t0 < t1:
                    continue
                if all_k:
                    met.extend(range(base, base + v))
                    continue
                for k in ks:
                    dz = dzs[k]
                    z0, z1 = ez + t0 * dz, ez + t1 * dz
                    lo, hi = (z0, z1) if z0 < z1 else (z1, z0)
                    if lo < top and hi > bot:
                        met.append(base + k)
            if met:
                hits.append((obj, met))
                if blocks:
                    for s in met:
                        if not blocked[s]:
                            blocked[s] = True
                            nblocked += 1
                    if obj[7] > cover:
                        cover = obj[7]
                    # counts alone: once every ray is blocked and the cover is the best there is,
                    # no further object can change them
                    if nblocked == S and cover >= self.max_code and not want_labels:
                        return 0, 0, cover, None
        lb, lc, lm = set(), set(), set()
        for obj, met in hits:
            blocks, obsc, code, owner, mi = obj[5], obj[6], obj[7], obj[8], obj[9]
            if obsc:
                for s in met:
                    obscured[s] = True
            # an object gives cover if it blocks a ray, or meets a ray that stays visible
            if blocks or any(not blocked[s] for s in met):
                if code > cover:
                    cover = code
                if owner >= 0:
                    lc.add(owner)
            if mi >= 0:
                lm.add(mi)
            elif blocks:
                lb.add(owner)
        vis = S - nblocked
        obs = sum(1 for s in range(S) if obscured[s] and not blocked[s])
        return vis, obs, cover, ((lb, lc, lm) if want_labels else None)
