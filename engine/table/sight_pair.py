"""Sight for one (viewer, target) pair, in plain Python over the few parts in the corridor.

Same rules as the numpy kernel in ``sight.py`` (which serves the batched ``sight_matrix``): rays
from the eye to ``h x v`` points of the target's silhouette; a ray meets an object where its
horizontal projection crosses the object's footprint (Cyrus–Beck for convex parts, the quadratic
for discs and models) and its height range there overlaps the object's; blocking objects block
the ray, obscuring ones mark it. For a single pair numpy's per-call overhead dominates, so this
path culls the parts with one pymunk box query and their bounding circles, and clips only those.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

import pymunk

from engine.data.maps import polygon_area

from .bases import Base
from .geometry import CirclePart
from .terrain import CAT_SIGHT

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table

EYE_FRACTION = 0.9
SIGHT_FILTER = pymunk.ShapeFilter(mask=CAT_SIGHT)


class PairSight:
    """Per-table data for single-pair sight: each sight shape's clipping data and properties."""

    def __init__(self, table: "Table"):
        self.table = table
        self.info: dict[pymunk.Shape, tuple] = {}
        for shape in table.space.shapes:
            p = table.pieces[shape.piece_index]
            if not ((p.blocks_sight or p.obscuring) and p.height > 0):
                continue
            part = shape.part
            if isinstance(part, CirclePart):
                geo = ("c", part.cx, part.cy, part.r)
                cx, cy, rho = part.cx, part.cy, part.r
            else:
                pts = tuple(part.points)
                sign = 1.0 if polygon_area(pts) > 0 else -1.0  # outward normals whichever way the part winds
                planes = []
                for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
                    nx, ny = sign * (y1 - y0), sign * (x0 - x1)
                    planes.append((nx, ny, nx * x0 + ny * y0))
                geo = ("p", tuple(planes))
                cx = sum(x for x, _ in pts) / len(pts)
                cy = sum(y for _, y in pts) / len(pts)
                rho = max(math.hypot(x - cx, y - cy) for x, y in pts) + 1e-6
            self.info[shape] = (geo, p.height, p.blocks_sight, p.obscuring, p.index, cx, cy, rho)

    def run(self, viewer: Base, target: Base, blockers: Sequence[Base], h: int, v: int):
        """Visible count, obscured-visible count, and label sets (blocking pieces, covering
        pieces, blocking model indices), or None when the corridor is degenerate."""
        ex, ey = viewer.x, viewer.y
        ez = viewer.z + EYE_FRACTION * viewer.height
        tx, ty, tr = target.x, target.y, target.radius
        dx, dy = tx - ex, ty - ey
        L = math.hypot(dx, dy)
        if L <= 1e-9:
            return None
        ux, uy = dx / L, dy / L
        zs = [target.z + target.height * (k + 0.5) / v for k in range(v)]
        zlow = min(ez, zs[0])
        # horizontal rays: eye -> (bx, by) across the silhouette
        rays = []
        for j in range(h):
            off = ((j + 0.5) / h * 2.0 - 1.0) * tr
            rays.append((tx - uy * off - ex, ty + ux * off - ey))
        dzs = [z - ez for z in zs]
        objects = []  # (geo, top, bottom, blocks, obscures, piece index or -1, model index or -1)
        # Candidates: pymunk's box query over the bundle, then each part's bounding circle against
        # the bundle's corridor. (Not a swept segment query: Chipmunk's tree walk tests only the
        # centre line against bounding boxes and would miss a part the centre line passes beside.)
        box = pymunk.BB(min(ex, tx) - tr, min(ey, ty) - tr, max(ex, tx) + tr, max(ey, ty) + tr)
        info = self.info
        for shape in self.table.space.bb_query(box, SIGHT_FILTER):
            geo, top, blocks, obsc, owner, cx, cy, rho = info[shape]
            if top <= zlow:
                continue
            rx, ry = cx - ex, cy - ey
            along = rx * ux + ry * uy
            if -rho <= along <= L + rho and abs(ry * ux - rx * uy) <= tr + rho:
                objects.append((geo, top, -math.inf, blocks, obsc, owner, -1))
        for i, m in enumerate(blockers):
            rx, ry = m.x - ex, m.y - ey
            along = rx * ux + ry * uy
            if (abs(ry * ux - rx * uy) <= tr + m.radius and -m.radius <= along <= L + m.radius
                    and m.z + m.height > zlow):
                objects.append((("c", m.x, m.y, m.radius), m.z + m.height, m.z, True, False, -1, i))
        S = h * v
        blocked = [False] * S
        obscured = [False] * S
        hits = []  # (object, list of ray indices it meets)
        for obj in objects:
            geo, top, bot = obj[0], obj[1], obj[2]
            if geo[0] == "p":
                # plane offsets seen from the eye: the same for every ray of the pair
                planes = [(nx, ny, c - (nx * ex + ny * ey)) for nx, ny, c in geo[1]]
            met = []
            for j, (rdx, rdy) in enumerate(rays):
                if geo[0] == "p":
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
                    _, cx, cy, rho = geo
                    fx, fy = ex - cx, ey - cy
                    a = rdx * rdx + rdy * rdy
                    b = fx * rdx + fy * rdy
                    disc = b * b - a * (fx * fx + fy * fy - rho * rho)
                    if disc <= 0.0 or a <= 0.0:
                        continue
                    sq = math.sqrt(disc)
                    t0 = (-b - sq) / a
                    t1 = (-b + sq) / a
                    if t0 < 0.0:
                        t0 = 0.0
                    if t1 > 1.0:
                        t1 = 1.0
                if t0 >= t1:
                    continue
                base = j * v
                for k, dz in enumerate(dzs):
                    z0, z1 = ez + t0 * dz, ez + t1 * dz
                    lo, hi = (z0, z1) if z0 < z1 else (z1, z0)
                    if lo < top and hi > bot:
                        met.append(base + k)
            if met:
                hits.append((obj, met))
                if obj[3]:
                    for s in met:
                        blocked[s] = True
        lb, lc, lm = set(), set(), set()
        for obj, met in hits:
            blocks, obsc, owner, mi = obj[3], obj[4], obj[5], obj[6]
            if obsc:
                for s in met:
                    obscured[s] = True
            # an object gives cover if it blocks a ray, or obscures a ray that stays visible
            counts = blocks or any(not blocked[s] for s in met)
            if mi >= 0:
                lm.add(mi)
            else:
                if blocks:
                    lb.add(owner)
                if counts:
                    lc.add(owner)
        vis = S - sum(blocked)
        obs = sum(1 for s in range(S) if obscured[s] and not blocked[s])
        return vis, obs, lb, lc, lm
