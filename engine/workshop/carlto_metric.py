"""Carltographer's sight figures, by its definitions, for any map (``analyze-map --metric
carltographer``). Written here from what its engine (khaaarl/carltographer, ``v2/engine/
visibility.py``) computes; ``docs/workshop.md`` says where its definitions and ours differ.

Its frame: inches from the table's centre, x right, z toward the bottom of its picture; a map
point (X, Y) in inches is (X - W/2, H/2 - Y) there. Working in that frame keeps its sample grid
(integer offsets from the centre) and its edge conventions.

- Blockers at a blocking height h: every piece that blocks sight and stands at least h tall
  blocks with all its edges, from every side. A footprint (``analysis.footprint_pieces``: the
  obscuring pieces, as an import marks Carltographer's obscuring footprints) blocks only with
  its far edges: a point inside it sees out, a point outside sees into it but not through it.
- Observers: the integer points of the table (edges left out) with both offsets even, and every
  integer point within an objective's reach (control range + its 0.75" marker radius), less the
  points inside a piece 1" tall or more.
- Overall: the mean, over the observers, of the area each one sees (its visibility polygon) as a
  share of the whole table.
- Deployment-zone hideability, per side: the share of the side's observers inside its zone whose
  visibility polygon does not reach the enemy's threat zone (its zone grown by 6").
- Objective hidability, per side: the share of objectives where the side has a 1x1" square of
  integer points, one corner within reach, clear of every piece 1" tall or more, whose four
  corners all see nothing of the enemy's threat zone.
- A second pass: when a piece blocks sight between the infantry height (2.2") and the standard
  one (4"), every figure is computed at both and averaged, as Carltographer does.
"""
from __future__ import annotations

import math

import numpy as np

from engine.data.maps import MM_PER, CircleShape, PolygonShape

THREAT_IN = 6.0          # the enemy's threat zone: its deployment zone grown by this
MARKER_IN = 0.75         # an objective marker's radius, added to the control range
TALL_IN = 1.0            # observers never stand inside a piece this tall; hiding squares avoid it
STANDARD_IN = 4.0
INFANTRY_IN = 2.2
_CIRCLE_SIDES = 32


# --- geometry in Carltographer's frame --------------------------------------------------

def _pip(px: float, pz: float, poly) -> bool:
    """Even-odd crossing test (a point on a left or bottom edge counts inside, on a right or
    top edge outside), the convention its grid is filtered with."""
    inside = False
    n = len(poly)
    for k in range(n):
        x0, z0 = poly[k - 1]
        x1, z1 = poly[k]
        if (z1 > pz) != (z0 > pz) and px < (x0 - x1) * (pz - z1) / (z0 - z1) + x1:
            inside = not inside
    return inside


def _pip_many(px: np.ndarray, pz: np.ndarray, poly) -> np.ndarray:
    inside = np.zeros(px.shape, dtype=bool)
    n = len(poly)
    for k in range(n):
        x0, z0 = poly[k - 1]
        x1, z1 = poly[k]
        cross = (z1 > pz) != (z0 > pz)
        if cross.any():
            with np.errstate(divide="ignore", invalid="ignore"):
                xi = (x0 - x1) * (pz - z1) / np.where(cross, z0 - z1, 1.0) + x1
            inside ^= cross & (px < xi)
    return inside


def _seg_hits(a, b) -> bool:
    """Some edge of polygon ``a`` meets some edge of ``b`` (ends included; parallel edges do not
    count, their contact shows as a contained vertex)."""
    A = np.asarray(a, float)
    B = np.asarray(b, float)
    p, r = A, np.roll(A, -1, axis=0) - A
    q, s = B, np.roll(B, -1, axis=0) - B
    den = r[:, None, 0] * s[None, :, 1] - r[:, None, 1] * s[None, :, 0]
    qp = q[None, :, :] - p[:, None, :]
    ok = den != 0
    d = np.where(ok, den, 1.0)
    t = (qp[..., 0] * s[None, :, 1] - qp[..., 1] * s[None, :, 0]) / d
    u = (qp[..., 0] * r[:, None, 1] - qp[..., 1] * r[:, None, 0]) / d
    return bool(np.any(ok & (t >= 0) & (t <= 1) & (u >= 0) & (u <= 1)))


def touches(a, b) -> bool:
    """The polygons share a point: an edge crossing, or a vertex of one inside the other."""
    ax = [p[0] for p in a]
    az = [p[1] for p in a]
    bx = [p[0] for p in b]
    bz = [p[1] for p in b]
    if max(ax) < min(bx) or max(bx) < min(ax) or max(az) < min(bz) or max(bz) < min(az):
        return False
    if _seg_hits(a, b):
        return True
    A, B = np.asarray(a, float), np.asarray(b, float)
    return bool(_pip_many(A[:, 0], A[:, 1], b).any() or _pip_many(B[:, 0], B[:, 1], a).any())


def _seg_dist(p0, p1, q0, q1) -> np.ndarray:
    """Distances between the segments p0-p1 (n, 2 each) and the segment q0-q1 (ends only: the
    caller has ruled out crossings)."""
    def pt_seg(pt, a, b):
        ab = b - a
        L = (ab ** 2).sum(axis=-1)
        t = np.clip(((pt - a) * ab).sum(axis=-1) / np.where(L > 0, L, 1.0), 0.0, 1.0)
        return np.hypot(*(a + t[..., None] * ab - pt).T)
    q0b, q1b = np.broadcast_to(q0, p0.shape), np.broadcast_to(q1, p0.shape)
    return np.minimum.reduce([pt_seg(p0, q0b, q1b), pt_seg(p1, q0b, q1b), pt_seg(q0b, p0, p1), pt_seg(q1b, p0, p1)])


def within(poly, zone, dist: float) -> bool:
    """Some point of ``poly`` lies within ``dist`` of the polygon ``zone`` (touching counts)."""
    if touches(poly, zone):
        return True
    P = np.asarray(poly, float)
    P1 = np.roll(P, -1, axis=0)
    best = math.inf
    for k in range(len(zone)):
        best = min(best, float(_seg_dist(P, P1, np.asarray(zone[k - 1], float), np.asarray(zone[k], float)).min()))
        if best <= dist:
            return True
    return False


def _crossings(segs: np.ndarray) -> np.ndarray:
    """The points where two of the segments cross (n, 2)."""
    p, r = segs[:, 0:2], segs[:, 2:4] - segs[:, 0:2]
    den = r[:, None, 0] * r[None, :, 1] - r[:, None, 1] * r[None, :, 0]
    qp = p[None, :, :] - p[:, None, :]
    ok = np.abs(den) > 1e-12
    d = np.where(ok, den, 1.0)
    t = (qp[..., 0] * r[None, :, 1] - qp[..., 1] * r[None, :, 0]) / d
    u = (qp[..., 0] * r[:, None, 1] - qp[..., 1] * r[:, None, 0]) / d
    hit = np.triu(ok & (t > 0) & (t < 1) & (u > 0) & (u < 1), 1)
    i, _ = np.nonzero(hit)
    return p[i] + t[hit][:, None] * r[i]


def sight_polygon(ox: float, oz: float, segs: np.ndarray) -> list[tuple[float, float]]:
    """The region seen from (ox, oz) among the blocking segments ``segs`` (n, 4: x0, z0, x1, z1,
    the table's edges among them), as a polygon. Between two consecutive directions toward a
    segment end the nearest segment does not change, so each such wedge is cut by the segment
    met in its middle direction: the polygon joins those cuts. Where two segments cross
    (overlapping pieces), the crossing is a direction too."""
    ends = np.concatenate([segs[:, 0:2], segs[:, 2:4], _crossings(segs)])
    ang = np.unique(np.arctan2(ends[:, 1] - oz, ends[:, 0] - ox))
    if len(ang) < 2:
        return []
    lo = ang
    hi = np.append(ang[1:], ang[0] + 2 * math.pi)
    mid = (lo + hi) / 2
    x0, z0 = segs[:, 0] - ox, segs[:, 1] - oz
    ex, ez = segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1]

    def dist_along(theta, seg_idx=None):
        dx, dz = np.cos(theta), np.sin(theta)
        if seg_idx is None:
            den = dx[:, None] * ez[None, :] - dz[:, None] * ex[None, :]
            ok = np.abs(den) > 1e-12
            d = np.where(ok, den, 1.0)
            t = (x0[None, :] * ez[None, :] - z0[None, :] * ex[None, :]) / d
            u = (x0[None, :] * dz[:, None] - z0[None, :] * dx[:, None]) / d
            t = np.where(ok & (t >= 0) & (u >= -1e-9) & (u <= 1 + 1e-9), t, np.inf)
            return t.min(axis=1), t.argmin(axis=1)
        den = dx * ez[seg_idx] - dz * ex[seg_idx]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (x0[seg_idx] * ez[seg_idx] - z0[seg_idx] * ex[seg_idx]) / den
        return t

    tm, which = dist_along(mid)
    ok = np.isfinite(tm)
    t0, t1 = dist_along(lo[ok], which[ok]), dist_along(hi[ok], which[ok])
    pts = []
    for a, b, ta, tb in zip(lo[ok], hi[ok], t0, t1):
        if not (np.isfinite(ta) and np.isfinite(tb)):
            continue
        pts.append((ox + ta * math.cos(a), oz + ta * math.sin(a)))
        pts.append((ox + tb * math.cos(b), oz + tb * math.sin(b)))
    return pts


def polygon_area(pts) -> float:
    if len(pts) < 3:
        return 0.0
    P = np.asarray(pts, float)
    return abs(float((P[:, 0] * np.roll(P[:, 1], -1) - np.roll(P[:, 0], -1) * P[:, 1]).sum())) / 2


# --- the map in its frame -----------------------------------------------------------------

def _outline(piece, k: float, W: float, H: float) -> list[tuple[float, float]]:
    """The piece's outline in Carltographer's frame (inches from the centre, z down)."""
    sh = piece.shape
    if isinstance(sh, PolygonShape):
        pts = [(x * k, y * k) for x, y in sh.points]
    elif isinstance(sh, CircleShape):
        cx, cy, r = sh.center[0] * k, sh.center[1] * k, sh.radius * k
        pts = [(cx + r * math.cos(2 * math.pi * i / _CIRCLE_SIDES), cy + r * math.sin(2 * math.pi * i / _CIRCLE_SIDES))
               for i in range(_CIRCLE_SIDES)]
    else:
        (ax, ay), (bx, by), t = sh.a, sh.b, sh.thickness
        L = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / L * t / 2, (bx - ax) / L * t / 2
        pts = [(ax - nx, ay - ny), (bx - nx, by - ny), (bx + nx, by + ny), (ax + nx, ay + ny)]
        pts = [(x * k, y * k) for x, y in pts]
    return [(x - W / 2, H / 2 - y) for x, y in pts]


class _Layout:
    """The map's pieces, zones and objectives in inches, in Carltographer's frame."""

    def __init__(self, mapfile, footprint_ids: set[str]):
        k = MM_PER[mapfile.unit] / 25.4
        self.W, self.H = mapfile.width * k, mapfile.height * k
        self.pieces = []          # (outline, height in, blocks sight, footprint)
        for p in mapfile.pieces:
            h = p.height_mm(mapfile.unit) / 25.4
            self.pieces.append((_outline(p, k, self.W, self.H), h, bool(p.prop("blocks_sight")), p.id in footprint_ids))
        self.zones = {s: [[(x * k - self.W / 2, self.H / 2 - y * k) for x, y in z.points]
                          for z in mapfile.deployment if z.side == s] for s in (1, 2)}
        self.objectives = [(o.at[0] * k - self.W / 2, self.H / 2 - o.at[1] * k) for o in mapfile.objectives]
        self.tall = [o for o, h, _, _ in self.pieces if h >= TALL_IN]

    def segments(self, blocking_in: float, ox: float, oz: float) -> np.ndarray:
        segs = []
        for outline, h, sight, fp in self.pieces:
            n = len(outline)
            if fp:
                if _pip(ox, oz, outline):
                    continue              # inside a footprint: it sees out
                cx = sum(p[0] for p in outline) / n
                cz = sum(p[1] for p in outline) / n
                for k in range(n):
                    (x0, z0), (x1, z1) = outline[k - 1], outline[k]
                    nx, nz = z1 - z0, x0 - x1
                    mx, mz = (x0 + x1) / 2, (z0 + z1) / 2
                    if (cx - mx) * nx + (cz - mz) * nz > 0:
                        nx, nz = -nx, -nz      # outward
                    if (ox - mx) * nx + (oz - mz) * nz < 0:
                        segs.append((x0, z0, x1, z1))     # a far edge blocks
            elif sight and h >= blocking_in:
                segs += [(*outline[k - 1], *outline[k]) for k in range(n)]
        w, d = self.W / 2, self.H / 2
        segs += [(-w, -d, w, -d), (w, -d, w, d), (w, d, -w, d), (-w, d, -w, -d)]
        return np.asarray(segs, float)


def _observers(lay: _Layout, reach: float) -> list[tuple[float, float]]:
    nx, nz = int(lay.W / 2) - 1, int(lay.H / 2) - 1
    pts = []
    for ix in range(-nx, nx + 1):
        for iz in range(-nz, nz + 1):
            if (ix % 2 == 0 and iz % 2 == 0) or any((ix - x) ** 2 + (iz - z) ** 2 <= reach ** 2 for x, z in lay.objectives):
                pts.append((float(ix), float(iz)))
    if not pts or not lay.tall:
        return pts
    P = np.asarray(pts)
    blocked = np.zeros(len(pts), dtype=bool)
    for outline in lay.tall:
        blocked |= _pip_many(P[:, 0], P[:, 1], outline)
    return [p for p, b in zip(pts, blocked) if not b]


def _one_pass(lay: _Layout, blocking_in: float, reach: float) -> dict:
    area = lay.W * lay.H
    obs = _observers(lay, reach)
    if not obs:
        return {"overall": 100.0, "observers": 0, "dz_hideability": {}, "objective_hidability": {}, "objectives": []}
    polys: dict = {}

    def seen_from(x, z):
        if (x, z) not in polys:
            polys[(x, z)] = sight_polygon(x, z, lay.segments(blocking_in, x, z))
        return polys[(x, z)]

    def hidden_from(x, z, side) -> bool:
        vp = seen_from(x, z)
        return len(vp) >= 3 and not any(within(vp, zone, THREAT_IN) for zone in lay.zones[side])

    total = 0.0
    zone_counts = {1: [0, 0], 2: [0, 0]}
    for x, z in obs:
        vp = seen_from(x, z)
        total += min(polygon_area(vp) / area, 1.0) if len(vp) >= 3 else 1.0
        for side in (1, 2):
            if any(_pip(x, z, zone) for zone in lay.zones[side]):
                zone_counts[side][1] += 1
                zone_counts[side][0] += hidden_from(x, z, 3 - side)
    grid = set(obs)
    objectives = []
    for ox, oz in lay.objectives:
        row = {}
        for side in (1, 2):
            row[str(side)] = _hiding_square(lay, ox, oz, reach, grid, lambda x, z, s=side: hidden_from(x, z, 3 - s))
        objectives.append(row)
    n = len(lay.objectives)
    return {
        "overall": round(100.0 * total / len(obs), 2),
        "observers": len(obs),
        "dz_hideability": {str(s): round(100.0 * c[0] / c[1], 2) if c[1] else 0.0 for s, c in zone_counts.items()},
        "objective_hidability": {str(s): round(100.0 * sum(o[str(s)] for o in objectives) / n, 2) if n else 0.0
                                 for s in (1, 2)},
        "objectives": objectives,
    }


def _hiding_square(lay: _Layout, ox: float, oz: float, reach: float, grid: set, hidden) -> bool:
    """A 1x1" square of integer points, one corner within ``reach`` of the objective, on the
    table, clear of every piece 1" tall or more, whose corners are all hidden. A corner within
    reach that is not an observer (inside a tall piece, or on the table's edge) counts as seen."""
    w, d = lay.W / 2, lay.H / 2
    lo_x, hi_x = math.floor(ox - reach) - 1, math.ceil(ox + reach)
    lo_z, hi_z = math.floor(oz - reach) - 1, math.ceil(oz + reach)
    r2 = reach * reach
    known: dict = {}

    def ok(x, z) -> bool:
        if (x, z) not in known:
            inner = (x - ox) ** 2 + (z - oz) ** 2 <= r2
            known[(x, z)] = hidden(x, z) if (not inner or (x, z) in grid) else False
        return known[(x, z)]

    for sx in range(lo_x, hi_x + 1):
        for sz in range(lo_z, hi_z + 1):
            corners = [(float(sx), float(sz)), (sx + 1.0, float(sz)), (sx + 1.0, sz + 1.0), (float(sx), sz + 1.0)]
            if any(abs(x) > w or abs(z) > d for x, z in corners):
                continue
            if not any((x - ox) ** 2 + (z - oz) ** 2 <= r2 for x, z in corners):
                continue
            if any(touches(corners, t) for t in lay.tall):
                continue
            if all(ok(x, z) for x, z in corners):
                return True
    return False


def carltographer_metrics(mapfile, control_mm: float = 3 * 25.4, standard_in: float = STANDARD_IN,
                          infantry_in: float | None = INFANTRY_IN) -> dict:
    """Carltographer's overall visibility, deployment-zone hideability and objective hidability
    (per side, in %), with each pass's figures when two were needed."""
    from engine.core.tables import table_for
    from engine.workshop.analysis import footprint_pieces

    fps = {p.id for p in footprint_pieces(table_for(mapfile))}
    lay = _Layout(mapfile, fps)
    reach = control_mm / 25.4 + MARKER_IN
    std = _one_pass(lay, standard_in, reach)
    out = {"definition": "carltographer", "threat_zone_in": THREAT_IN, "reach_in": round(reach, 4),
           "standard_in": standard_in, "observers": std["observers"]}
    effective = [h for _, h, sight, fp in lay.pieces if sight or fp]
    second = infantry_in is not None and any(infantry_in <= h < standard_in for h in effective)
    if infantry_in is None or not second:     # (second is False without infantry_in)
        out.update({k: std[k] for k in ("overall", "dz_hideability", "objective_hidability", "objectives")})
        out["passes"] = {"standard": std}
        return out
    inf = _one_pass(lay, infantry_in, reach)

    def mean(a, b):
        return round((a + b) / 2, 2)
    out["overall"] = mean(std["overall"], inf["overall"])
    for key in ("dz_hideability", "objective_hidability"):
        out[key] = {s: mean(std[key][s], inf[key][s]) for s in std[key]}
    out["objectives"] = [{s: [o1[s], o2[s]] for s in o1} for o1, o2 in zip(std["objectives"], inf["objectives"])]
    out["infantry_in"] = infantry_in
    out["passes"] = {"standard": std, "infantry": inf}
    return out
