"""Sight analysis of a layout: one pass of point-to-point visibility between the open points of a
grid serves every metric (overall line of sight, deployment-zone exposure and hideability,
objective hidability, firing lanes, the openness heatmap). Definitions: ``docs/workshop.md``.

Observers and targets are the centres of a square grid (``step_mm``, 1" by default) that are
not inside terrain (a piece that blocks sight or is impassable, as ``engine.table.heatmap``).
Both ends of every ray are at ``eye_mm`` above the ground, so the rays are level and, in our
2.5D model, a ray passes over every piece lower than the eye and is stopped by a sight-blocking
piece taller than it (obscuring pieces such as woods let it through, as in the game).

The visibility matrix comes from the heatmap's shadow test (a convex part hides from a source the
points inside the wedge it subtends and beyond the chord joining its silhouette vertices), but
instead of testing every (target, part) pair the targets of each source are sorted by angle and
each part's wedge is cut out of that order with ``searchsorted``: only the targets inside a wedge
are tested against its chord. Sources are processed in batches (one flat sorted key array per
batch) so the Python overhead is a few dozen numpy calls per batch.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from engine.data.maps import MM_PER
from engine.table.geometry import CirclePart, ConvexPart
from engine.table.heatmap import DEFAULT_EYE_MM

if TYPE_CHECKING:  # pragma: no cover
    from engine.table import Table

TWO_PI = 2.0 * math.pi
DEFAULT_CONTROL_MM = 3 * 25.4     # objective control range (a 40k objective: 3")
LANE_SEPARATION_MM = 6 * 25.4     # two lanes are distinct when an end differs by at least this
LANES = 5


@dataclass
class Grid:
    step: float
    cols: int
    rows: int
    xs: np.ndarray          # (cols,)
    ys: np.ndarray          # (rows,)
    open: np.ndarray        # (rows, cols) bool
    idx: np.ndarray         # (n, 2) row, col of each open point
    pts: np.ndarray         # (n, 2) x, y in mm


def _inside_convex(px, py, pts) -> np.ndarray:
    inside = np.ones(px.shape, dtype=bool)
    n = len(pts)
    for k in range(n):
        (x0, y0), (x1, y1) = pts[k], pts[(k + 1) % n]
        inside &= (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0) >= -1e-9
    return inside


def open_grid(table: "Table", step_mm: float = 25.4) -> Grid:
    """Cell centres of a ``step_mm`` grid not inside a piece that blocks sight or is impassable."""
    cols = max(1, int(round(table.width / step_mm)))
    rows = max(1, int(round(table.height / step_mm)))
    xs = (np.arange(cols) + 0.5) * (table.width / cols)
    ys = (np.arange(rows) + 0.5) * (table.height / rows)
    gx, gy = np.meshgrid(xs, ys)
    blocked = np.zeros(gx.shape, dtype=bool)
    for p in table.pieces:
        if not (p.blocks_sight or p.impassable):
            continue
        for part in p.parts:
            x0, y0, x1, y1 = part.bbox
            c0, c1 = np.searchsorted(xs, x0, "left"), np.searchsorted(xs, x1, "right")
            r0, r1 = np.searchsorted(ys, y0, "left"), np.searchsorted(ys, y1, "right")
            if c0 >= c1 or r0 >= r1:
                continue
            sx, sy = gx[r0:r1, c0:c1], gy[r0:r1, c0:c1]
            if isinstance(part, CirclePart):
                inside = (sx - part.cx) ** 2 + (sy - part.cy) ** 2 <= part.r ** 2
            else:
                inside = _inside_convex(sx, sy, part.points)
            blocked[r0:r1, c0:c1] |= inside
    ok = ~blocked
    idx = np.argwhere(ok)
    pts = np.column_stack([gx[ok], gy[ok]]) if len(idx) else np.zeros((0, 2))
    return Grid(step_mm, cols, rows, xs, ys, ok, idx, pts)


def _blockers(table: "Table", eye_mm: float):
    tall = [p for p in table.pieces if p.blocks_sight and p.height > eye_mm]
    polys = [part for p in tall for part in p.parts if isinstance(part, ConvexPart)]
    circs = [part for p in tall for part in p.parts if isinstance(part, CirclePart)]
    m = max((len(q.points) for q in polys), default=3)
    vx = np.array([[q.points[min(k, len(q.points) - 1)][0] for k in range(m)] for q in polys], float).reshape(-1, m)
    vy = np.array([[q.points[min(k, len(q.points) - 1)][1] for k in range(m)] for q in polys], float).reshape(-1, m)
    gx = vx.mean(axis=1) if len(polys) else np.zeros(0)
    gy = vy.mean(axis=1) if len(polys) else np.zeros(0)
    circ = (np.array([c.cx for c in circs], float), np.array([c.cy for c in circs], float),
            np.array([c.r for c in circs], float))
    return (vx, vy, gx, gy), circ


def _silhouettes(S: np.ndarray, poly, circ):
    """Silhouette vertices L, R (relative to each source) of every blocker: (B, K) arrays, the
    wedge running counter-clockwise from L to R."""
    vx0, vy0, gx0, gy0 = poly
    cx0, cy0, r0 = circ
    sx, sy = S[:, 0:1], S[:, 1:2]
    parts = []
    if len(gx0):
        vx = vx0[None] - sx[:, :, None]
        vy = vy0[None] - sy[:, :, None]
        gx = (gx0[None] - sx)[:, :, None]
        gy = (gy0[None] - sy)[:, :, None]
        ang = np.arctan2(gx * vy - gy * vx, gx * vx + gy * vy)
        kl = ang.argmin(axis=2)[..., None]
        kr = ang.argmax(axis=2)[..., None]
        parts.append((np.take_along_axis(vx, kl, 2)[..., 0], np.take_along_axis(vy, kl, 2)[..., 0],
                      np.take_along_axis(vx, kr, 2)[..., 0], np.take_along_axis(vy, kr, 2)[..., 0]))
    if len(cx0):
        dx, dy = cx0[None] - sx, cy0[None] - sy
        d = np.hypot(dx, dy)
        r = np.minimum(r0[None], d * (1 - 1e-9))
        phi = np.arctan2(dy, dx)
        beta = np.arcsin(r / d)
        t = np.sqrt(np.maximum(d * d - r * r, 0.0))
        parts.append((t * np.cos(phi - beta), t * np.sin(phi - beta), t * np.cos(phi + beta), t * np.sin(phi + beta)))
    if not parts:
        z = np.zeros((len(S), 0))
        return z, z, z, z
    return tuple(np.concatenate([p[k] for p in parts], axis=1) for k in range(4))


QBITS = 16
QLEVELS = 1 << QBITS
QSCALE = QLEVELS / TWO_PI

_STATE: dict = {}        # inherited by forked workers


def _hidden_rows(b0: int, b1: int, batch: int) -> np.ndarray:
    """Hidden (source, target) pairs for the sources ``b0:b1``, as flat indices src * n + tgt."""
    pts, poly, circ = _STATE["pts"], _STATE["poly"], _STATE["circ"]
    n = len(pts)
    found = []
    for s0 in range(b0, b1, batch):
        # sight is symmetric: sources s0.. test only targets s0.. (the rest come from V & V.T)
        tx, ty = pts[s0:, 0], pts[s0:, 1]
        S = pts[s0:min(b1, s0 + batch)]
        B = len(S)
        Lx, Ly, Rx, Ry = _silhouettes(S, poly, circ)
        K = Lx.shape[1]
        aL = np.arctan2(Ly, Lx)
        width = np.mod(np.arctan2(Ry, Rx) - aL, TWO_PI)
        ex, ey = Rx - Lx, Ry - Ly
        side = ey * Lx - ex * Ly                  # cross(R - L, s - L), s at the origin
        sg = np.sign(side)
        # beyond the chord  <=>  sg * (ex * wy - ey * wx) + |side| < 0, w = target - source
        A = (-ey * sg).ravel()
        Bc = (ex * sg).ravel()
        C = (np.abs(side) - (-ey * sg) * S[:, 0:1] - (ex * sg) * S[:, 1:2]).ravel()
        theta = np.arctan2(ty[None, :] - S[:, 1:2], tx[None, :] - S[:, 0:1])      # (B, n) in [-pi, pi]
        q = np.minimum((theta + math.pi) * QSCALE, QLEVELS - 1).astype(np.uint16)
        order = np.argsort(q, axis=1, kind="stable")                                # radix sort
        qs = np.take_along_axis(q, order, 1).astype(np.int64)
        rowoff = (np.arange(B, dtype=np.int64) << (QBITS + 2))[:, None]
        keys = (np.concatenate([qs, qs + QLEVELS], axis=1) + rowoff).ravel()       # globally sorted
        ordx = np.concatenate([order, order], axis=1).ravel()
        qlo = np.floor((aL + math.pi) * QSCALE).astype(np.int64)
        qhi = np.ceil((aL + math.pi + width) * QSCALE).astype(np.int64)
        lo = np.searchsorted(keys, (qlo + rowoff).ravel(), "left")
        hi = np.searchsorted(keys, (qhi + rowoff).ravel(), "right")
        good = (sg.ravel() != 0) & (hi > lo)
        pid = np.nonzero(good)[0]
        lo, hi = lo[good], hi[good]
        lens = hi - lo
        tot = int(lens.sum())
        if tot == 0:
            continue
        rep = np.repeat(pid, lens)
        pos = np.arange(tot) - np.repeat(np.cumsum(lens) - lens, lens) + np.repeat(lo, lens)
        tgt = ordx[pos]
        hid = A[rep] * tx[tgt] + Bc[rep] * ty[tgt] + C[rep] < 0
        rep, tgt = rep[hid], tgt[hid]
        row = rep // K
        # exact wedge (the quantised range above is a superset)
        rel = np.mod(theta[row, tgt] - aL.ravel()[rep], TWO_PI)
        ok = (rel > 0) & (rel < width.ravel()[rep])
        found.append((s0 + row[ok]) * n + s0 + tgt[ok])
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def _hidden_chunk(args) -> tuple[int, int, np.ndarray]:
    b0, b1, batch = args
    n = len(_STATE["pts"])
    block = np.zeros((b1 - b0) * n, dtype=bool)
    block[_hidden_rows(b0, b1, batch) - b0 * n] = True
    return b0, b1, np.packbits(block)


def visibility_matrix(table: "Table", pts: np.ndarray, eye_mm: float = DEFAULT_EYE_MM, batch: int = 64,
                      processes: int = 1) -> np.ndarray:
    """(n, n) bool: open point i sees open point j at eye height (symmetric, diagonal True).
    ``processes`` > 1 deals the sources to that many forked workers."""
    import multiprocessing as mp
    import os

    n = len(pts)
    V = np.ones((n, n), dtype=bool)
    if n == 0:
        return V
    poly, circ = _blockers(table, eye_mm)
    if len(poly[2]) + len(circ[0]) == 0:
        return V
    _STATE.update(pts=np.asarray(pts, float), poly=poly, circ=circ)
    procs = max(1, min(int(processes), os.cpu_count() or 1))
    try:
        if procs == 1 or n < 400 or "fork" not in mp.get_all_start_methods():
            flat = _hidden_rows(0, n, batch)
        else:
            # more chunks than workers: sources near a big blocker cost more than open ones
            # (source i costs about n - i: equal-work chunks)
            edges = (n * (1 - np.sqrt(1 - np.linspace(0, 1, 4 * procs + 1)))).astype(int)
            chunks = [(int(a), int(b), batch) for a, b in zip(edges[:-1], edges[1:]) if b > a]
            with mp.get_context("fork").Pool(procs) as pool:
                for b0, b1, packed in pool.imap_unordered(_hidden_chunk, chunks):
                    V[b0:b1] &= ~np.unpackbits(packed, count=(b1 - b0) * n).astype(bool).reshape(b1 - b0, n)
            flat = None
    finally:
        _STATE.clear()
    if flat is not None:
        V.ravel()[flat] = False
    V &= V.T           # a ray grazing a corner may differ by direction: hidden either way is hidden
    return V


def _point_in_poly(px: np.ndarray, py: np.ndarray, poly) -> np.ndarray:
    inside = np.zeros(px.shape, dtype=bool)
    n = len(poly)
    for k in range(n):
        (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % n]
        cond = (y0 > py) != (y1 > py)
        with np.errstate(divide="ignore", invalid="ignore"):
            xint = x0 + (py - y0) * (x1 - x0) / (y1 - y0)
        inside ^= cond & (px < xint)
    return inside


@dataclass
class SightAnalysis:
    grid: Grid
    eye_mm: float
    heat: np.ndarray                       # (rows, cols): share of other open points seen; NaN in terrain
    zones: dict[int, np.ndarray]           # side -> indices of open points in that side's zones
    lanes: list[dict]
    metrics: dict = field(default_factory=dict)


def analyse(table: "Table", step_mm: float = 25.4, eye_mm: float = DEFAULT_EYE_MM,
            control_mm: float = DEFAULT_CONTROL_MM, lanes: int = LANES, processes: int = 1) -> SightAnalysis:
    """Every sight metric of ``table`` from one visibility matrix (see ``docs/workshop.md``)."""
    mf = table.mapfile
    k = MM_PER[mf.unit]
    g = open_grid(table, step_mm)
    n = len(g.pts)
    V = visibility_matrix(table, g.pts, eye_mm, processes=processes)
    seen = V.sum(axis=1) - 1 if n else np.zeros(0)
    heat = np.full(g.open.shape, np.nan)
    if n > 1:
        heat[g.open] = seen / (n - 1)
    total_cells = g.rows * g.cols
    px, py = (g.pts[:, 0], g.pts[:, 1]) if n else (np.zeros(0), np.zeros(0))
    zones: dict[int, np.ndarray] = {}
    for side in (1, 2):
        m = np.zeros(n, dtype=bool)
        for z in mf.deployment:
            if z.side == side:
                m |= _point_in_poly(px, py, [(x * k, y * k) for x, y in z.points])
        zones[side] = np.nonzero(m)[0]
    metrics: dict = {
        "grid_step_mm": round(step_mm, 3),
        "eye_mm": round(eye_mm, 2),
        "observer_points": int(n),
        "open_share_pct": round(100 * n / total_cells, 2) if total_cells else 0.0,
        "overall_los_pct": round(100 * float(seen.mean()) / (n - 1), 2) if n > 1 else 0.0,
    }
    hide, expo, seen_by = {}, {}, {}
    for side, other in ((1, 2), (2, 1)):
        a, b = zones[side], zones[other]
        if len(a) and len(b):
            sub = V[np.ix_(a, b)]
            seen_by[side] = sub.any(axis=1)
            hide[str(side)] = round(100 * float((~seen_by[side]).mean()), 2)
            expo[str(side)] = round(100 * float(sub.mean()), 2)
        else:
            hide[str(side)] = expo[str(side)] = None
    metrics["dz_hideability_pct"] = hide
    metrics["dz_exposure_pct"] = expo
    # objectives: is there an open point within control range that no point of the enemy zone sees?
    enemy_sees = {}
    for side, other in ((1, 2), (2, 1)):
        b = zones[other]
        enemy_sees[side] = V[:, b].any(axis=1) if len(b) else np.zeros(n, dtype=bool)
    objs = []
    hid_count = {1: 0, 2: 0}
    for o in mf.objectives:
        ox, oy = o.at[0] * k, o.at[1] * k
        near = np.nonzero((px - ox) ** 2 + (py - oy) ** 2 <= control_mm ** 2)[0]
        row = {"id": o.id, "x": round(ox / k, 2), "y": round(oy / k, 2), "points": int(len(near))}
        for side in (1, 2):
            hidden = int((~enemy_sees[side][near]).sum()) if len(near) else 0
            row[f"hidden_points_side{side}"] = hidden
            row[f"hidable_side{side}"] = hidden > 0
            hid_count[side] += hidden > 0
        objs.append(row)
    no = len(mf.objectives)
    metrics["objective_hidability_pct"] = {str(s): (round(100 * hid_count[s] / no, 2) if no else None) for s in (1, 2)}
    metrics["control_range_mm"] = round(control_mm, 2)
    metrics["objectives"] = objs
    lane_list = firing_lanes(g.pts, V, lanes, zones, k)
    metrics["lanes"] = lane_list
    metrics["longest_lane_in"] = lane_list[0]["length"] if lane_list else 0.0
    metrics["coverage_pct"] = round(100 * table.coverage(), 2)
    return SightAnalysis(g, eye_mm, heat, zones, lane_list, metrics)


def firing_lanes(pts: np.ndarray, V: np.ndarray, count: int, zones: dict, unit_mm: float,
                 separation: float = LANE_SEPARATION_MM) -> list[dict]:
    """The ``count`` longest unobstructed segments between open points, greedily: a lane is kept
    only when, for both ends, it differs from every kept lane by ``separation`` at either end
    (either orientation). Lengths and ends in the map's unit."""
    n = len(pts)
    if n < 2 or count <= 0:
        return []
    # candidates: each point's farthest visible point (|p|^2 + |q|^2 - 2 p.q, a matrix product)
    P = pts.astype(np.float64)
    sq = (P * P).sum(axis=1)
    far = np.zeros(n, dtype=np.int64)
    far_d2 = np.zeros(n)
    for r0 in range(0, n, 1024):
        d2 = sq[r0:r0 + 1024, None] + sq[None, :] - 2.0 * (P[r0:r0 + 1024] @ P.T)
        d2[~V[r0:r0 + 1024]] = -1.0
        far[r0:r0 + 1024] = d2.argmax(axis=1)
    far_d2 = ((P - P[far]) ** 2).sum(axis=1)
    i = np.arange(n)
    j = far
    d2 = far_d2
    top = np.argsort(-d2, kind="stable")
    zone_of = np.zeros(n, dtype=np.int8)
    for side, zi in zones.items():
        zone_of[zi] = side
    out = []
    s2 = separation ** 2
    alive = np.ones(len(top), dtype=bool)
    A, Bp = P[i[top]], P[j[top]]
    while alive.any() and len(out) < count:
        k = int(np.argmax(alive))           # the longest lane still alive
        t = top[k]
        a, b = A[k], Bp[k]
        da, db = ((A - a) ** 2).sum(1), ((Bp - b) ** 2).sum(1)
        xa, xb = ((A - b) ** 2).sum(1), ((Bp - a) ** 2).sum(1)
        alive &= ~(((da < s2) & (db < s2)) | ((xa < s2) & (xb < s2)))
        alive[k] = False
        za, zb = int(zone_of[i[t]]), int(zone_of[j[t]])
        out.append({"from": [round(float(a[0]) / unit_mm, 2), round(float(a[1]) / unit_mm, 2)],
                    "to": [round(float(b[0]) / unit_mm, 2), round(float(b[1]) / unit_mm, 2)],
                    "length": round(float(math.sqrt(d2[t])) / unit_mm, 2),
                    "zone_to_zone": {za, zb} == {1, 2}})
    return out
