"""Sight analysis of a layout: one pass of point-to-point visibility between the open points of a
grid serves every metric (overall line of sight, deployment-zone exposure and hideability,
objective hidability, firing lanes, the openness heatmap). Definitions: ``docs/workshop.md``.

Observers and targets are the centres of a square grid (``step_mm``, 1" by default) that are
not inside terrain (a piece that blocks sight or is impassable, as ``engine.table.heatmap``).
Both ends of every ray are at ``eye_mm`` above the ground, so the rays are level and, in our
2.5D model, a ray passes over every piece lower than the eye and is stopped by a sight-blocking
piece taller than it (obscuring pieces such as woods let it through, as in the game). With
``footprints_block`` (the Warhammer 40,000 reading of the shared tournament layouts) the
footprint of an obscuring piece or a walk-through ruin also blocks sight *through* it, whatever
its height: a point inside the footprint sees out and is seen, a line that crosses it does not.

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
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.data.maps import MM_PER
from engine.table.geometry import CirclePart, ConvexPart
from engine.table.heatmap import DEFAULT_EYE_MM

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from engine.table import Table

TWO_PI = 2.0 * math.pi
DEFAULT_CONTROL_MM = 3 * 25.4     # objective control range (a 40k objective: 3")
LANE_SEPARATION_MM = 6 * 25.4     # two lanes are distinct when an end differs by at least this
LANES = 5
# a grid point this close to a piece's edge is on it (inside), whatever the rounding of its
# coordinates: a layout and its mirror image then get mirror-image grids
EDGE_MM = 1e-6
# the visibility matrix holds (points)^2 booleans: 16,000 points is 256 MB, a 72x48" table at 0.5"
MAX_GRID_POINTS = 16_000


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


def _inside_convex(px, py, pts, tol_mm: float = 0.0) -> np.ndarray:
    """Inside the counter-clockwise convex polygon ``pts`` or within ``tol_mm`` of it."""
    inside = np.ones(px.shape, dtype=bool)
    n = len(pts)
    for k in range(n):
        (x0, y0), (x1, y1) = pts[k], pts[(k + 1) % n]
        inside &= (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0) >= -tol_mm * math.hypot(x1 - x0, y1 - y0) - 1e-9
    return inside


def _inside_part(part, px, py, tol_mm: float = 0.0) -> np.ndarray:
    if isinstance(part, CirclePart):
        return (px - part.cx) ** 2 + (py - part.cy) ** 2 <= (part.r + tol_mm) ** 2
    return _inside_convex(px, py, part.points, tol_mm)


def grid_shape(width_mm: float, height_mm: float, step_mm: float) -> tuple[int, int]:
    """(cols, rows) of the observer grid; a step that is not a positive number, or so fine that
    the grid would pass ``MAX_GRID_POINTS``, is refused (ValueError) before anything is allocated."""
    if not (isinstance(step_mm, (int, float)) and math.isfinite(step_mm) and step_mm > 0):
        raise ValueError(f"grid step must be a positive length, not {step_mm!r}")
    cols_f, rows_f = width_mm / step_mm, height_mm / step_mm
    if cols_f * rows_f > 4 * MAX_GRID_POINTS:      # before rounding: no huge int or float overflow
        raise ValueError(f"a {step_mm:g} mm grid is too fine for this table (at most {MAX_GRID_POINTS:,} points)")
    cols, rows = max(1, int(round(cols_f))), max(1, int(round(rows_f)))
    if cols * rows > MAX_GRID_POINTS:
        raise ValueError(f"a {step_mm:g} mm grid gives {cols * rows:,} points on this table, more than "
                         f"{MAX_GRID_POINTS:,}: choose a coarser grid")
    return cols, rows


def open_grid(table: Table, step_mm: float = 25.4) -> Grid:
    """Cell centres of a ``step_mm`` grid not inside a piece that blocks sight or is impassable."""
    cols, rows = grid_shape(table.width, table.height, step_mm)
    xs = (np.arange(cols) + 0.5) * (table.width / cols)
    ys = (np.arange(rows) + 0.5) * (table.height / rows)
    gx, gy = np.meshgrid(xs, ys)
    blocked = np.zeros(gx.shape, dtype=bool)
    e = EDGE_MM
    for p in table.pieces:
        if not (p.blocks_sight or p.impassable):
            continue
        for part in p.parts:
            x0, y0, x1, y1 = part.bbox
            c0, c1 = np.searchsorted(xs, x0 - e, "left"), np.searchsorted(xs, x1 + e, "right")
            r0, r1 = np.searchsorted(ys, y0 - e, "left"), np.searchsorted(ys, y1 + e, "right")
            if c0 >= c1 or r0 >= r1:
                continue
            blocked[r0:r1, c0:c1] |= _inside_part(part, gx[r0:r1, c0:c1], gy[r0:r1, c0:c1], e)
    ok = ~blocked
    idx = np.argwhere(ok)
    pts = np.column_stack([gx[ok], gy[ok]]) if len(idx) else np.zeros((0, 2))
    return Grid(step_mm, cols, rows, xs, ys, ok, idx, pts)


def footprint_pieces(table: Table) -> list:
    """The pieces whose footprint blocks sight under the 40k reading: obscuring pieces (woods,
    scrub, smoke) and ruins that do not block sight by their height (the converted layouts'
    flat terrain areas)."""
    return [p for p in table.pieces if p.obscuring or (p.kind == "ruin" and not p.blocks_sight)]


def tall_parts(pieces, eye_mm: float) -> list:
    """The parts of the pieces that block sight and stand taller than the eye."""
    return [part for p in pieces if p.blocks_sight and p.height > eye_mm for part in p.parts]


def _blockers(table: Table, eye_mm: float, footprints: Sequence = ()):
    """Packed blocker parts: pieces that block sight and stand taller than the eye, then the
    ``footprints`` pieces. ``fp_of`` gives each part (polygons first, then discs, the order of
    ``_silhouettes``) the index of its footprint piece, -1 for an ordinary blocker."""
    tall = [(part, -1) for part in tall_parts(table.pieces, eye_mm)]
    tall += [(part, k) for k, p in enumerate(footprints) for part in p.parts]
    return _pack(tall)


def _pack(tall: list):
    """(part, footprint index) pairs packed as ``_silhouettes`` reads them."""
    polys = [(part, k) for part, k in tall if isinstance(part, ConvexPart)]
    circs = [(part, k) for part, k in tall if isinstance(part, CirclePart)]
    m = max((len(q.points) for q, _ in polys), default=3)
    vx = np.array([[q.points[min(k, len(q.points) - 1)][0] for k in range(m)] for q, _ in polys], float).reshape(-1, m)
    vy = np.array([[q.points[min(k, len(q.points) - 1)][1] for k in range(m)] for q, _ in polys], float).reshape(-1, m)
    # the centroid of each part's own vertices (not of the padded row): a part's wedges are then
    # the same whatever other parts are packed with it (``update_counts`` relies on that)
    gx = np.array([sum(x for x, _ in q.points) / len(q.points) for q, _ in polys], float)
    gy = np.array([sum(y for _, y in q.points) / len(q.points) for q, _ in polys], float)
    circ = (np.array([c.cx for c, _ in circs], float), np.array([c.cy for c, _ in circs], float),
            np.array([c.r for c, _ in circs], float))
    fp_of = np.array([k for _, k in polys] + [k for _, k in circs], dtype=np.int64)
    return (vx, vy, gx, gy), circ, fp_of


def _inside_pieces(pieces, pts: np.ndarray) -> np.ndarray:
    """(len(pieces), n) bool: point j lies inside piece k (any of its parts)."""
    out = np.zeros((len(pieces), len(pts)), dtype=bool)
    if not len(pts):
        return out
    px, py = pts[:, 0], pts[:, 1]
    e = EDGE_MM
    for k, p in enumerate(pieces):
        for part in p.parts:
            x0, y0, x1, y1 = part.bbox
            sel = np.nonzero((px >= x0 - e) & (px <= x1 + e) & (py >= y0 - e) & (py <= y1 + e))[0]
            if len(sel):
                out[k, sel[_inside_part(part, px[sel], py[sel], e)]] = True
    return out


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
GRAZE_MM = 1e-6        # a target this close to a blocker's far chord counts as behind it
GRAZE_RAD = 1e-9       # and a ray this close to a silhouette vertex as inside the wedge

_STATE: dict = {}        # inherited by forked workers


def _hidden_rows(b0: int, b1: int, batch: int) -> Any:
    """Hidden (source, target) pairs for the sources ``b0:b1``, as flat indices src * n + tgt
    (an array; with ``tags`` set in ``_STATE``, the pair (flat, tags): hence ``Any``)."""
    pts, poly, circ = _STATE["pts"], _STATE["poly"], _STATE["circ"]
    fp_of, inside = _STATE["fp_of"], _STATE["inside"]
    n = len(pts)
    tags = _STATE.get("tags", False)      # also return the ``fp_of`` of each pair's hiding part
    first = _STATE.get("first_target", 0)   # no target below this index (``cross_visibility``)
    found, tagged = [], []
    for s0 in range(b0, b1, batch):
        # sight is symmetric: sources s0.. test only targets s0.. (the rest come from V & V.T)
        t0 = max(s0, first)
        tx, ty = pts[t0:, 0], pts[t0:, 1]
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
        tol = GRAZE_MM * np.hypot(A, Bc)          # per wedge, not per candidate pair: same values
        theta = np.arctan2(ty[None, :] - S[:, 1:2], tx[None, :] - S[:, 0:1])      # (B, n) in [-pi, pi]
        q = np.minimum((theta + math.pi) * QSCALE, QLEVELS - 1).astype(np.uint16)
        order = np.argsort(q, axis=1, kind="stable")                                # radix sort
        qs = np.take_along_axis(q, order, 1).astype(np.int64)
        rowoff = (np.arange(B, dtype=np.int64) << (QBITS + 2))[:, None]
        keys = (np.concatenate([qs, qs + QLEVELS], axis=1) + rowoff).ravel()       # globally sorted
        ordx = np.concatenate([order, order], axis=1).ravel()
        qlo = np.floor((aL + math.pi) * QSCALE).astype(np.int64) - 1      # one quantum of slack: grazing rays
        qhi = np.ceil((aL + math.pi + width) * QSCALE).astype(np.int64) + 1
        lo = np.searchsorted(keys, (qlo + rowoff).ravel(), "left")
        hi = np.searchsorted(keys, (qhi + rowoff).ravel(), "right")
        good = (sg.ravel() != 0) & (hi > lo)
        if inside.shape[0]:
            # a source inside a footprint sees out of it: its wedge from there means nothing
            fpk = np.broadcast_to(fp_of[None, :], (B, K))
            src_in = np.where(fpk >= 0, inside[np.maximum(fpk, 0), (s0 + np.arange(B))[:, None]], False)
            good &= ~src_in.ravel()
        pid = np.nonzero(good)[0]
        lo, hi = lo[good], hi[good]
        lens = hi - lo
        tot = int(lens.sum())
        if tot == 0:
            continue
        rep = np.repeat(pid, lens)
        pos = np.arange(tot) + np.repeat(lo - (np.cumsum(lens) - lens), lens)
        tgt = ordx[pos]
        # each pair is tested once, from its lower index (tgt counts from t0, rep // K from s0): the
        # answer for a pair is then the same whatever batch, chunk or point set it is computed in,
        # which lets the editor update a matrix piece by piece (``hidden_counts``, ``update_counts``)
        fwd = t0 + tgt > s0 + rep // K
        rep, tgt = rep[fwd], tgt[fwd]
        # a ray that grazes a corner or runs along an edge counts as blocked (a tolerance, not
        # one rounding's coin toss): a mirrored layout, whose pairs are cast the other way, then
        # gives the mirrored matrix
        hid = A[rep] * tx[tgt] + Bc[rep] * ty[tgt] + C[rep] < tol[rep]
        rep, tgt = rep[hid], tgt[hid]
        row = rep // K
        if inside.shape[0]:
            # nor does it hide a point inside it: only the lines that cross it from outside to outside
            f = fp_of[rep % K]
            fp = f >= 0
            fk = np.where(fp, f, 0)
            keep = ~(fp & inside[fk, tgt + t0])
            rep, tgt, row = rep[keep], tgt[keep], row[keep]
        # exact wedge (the quantised range above is a superset)
        rel = np.mod(theta[row, tgt] - aL.ravel()[rep], TWO_PI)
        ok = (rel < width.ravel()[rep] + GRAZE_RAD) | (rel > TWO_PI - GRAZE_RAD)
        found.append((s0 + row[ok]) * n + t0 + tgt[ok])
        if tags:
            tagged.append(fp_of[rep[ok] % K])
    flat = np.concatenate(found) if found else np.zeros(0, dtype=np.int64)
    if tags:
        return flat, (np.concatenate(tagged) if tagged else np.zeros(0, dtype=np.int64))
    return flat


def _hidden_chunk(args) -> tuple[int, int, np.ndarray]:
    b0, b1, batch = args
    n = len(_STATE["pts"])
    block = np.zeros((b1 - b0) * n, dtype=bool)
    block[_hidden_rows(b0, b1, batch) - b0 * n] = True
    return b0, b1, np.packbits(block)


def visibility_matrix(table: Table, pts: np.ndarray, eye_mm: float = DEFAULT_EYE_MM, batch: int = 64,
                      processes: int = 1, footprints_block: bool = False) -> np.ndarray:
    """(n, n) bool: open point i sees open point j at eye height (symmetric, diagonal True).
    ``processes`` > 1 deals the sources to that many forked workers. ``footprints_block``: the
    footprints of ``footprint_pieces`` block the lines that cross them (the 40k reading)."""
    import multiprocessing as mp
    import os

    n = len(pts)
    V = np.ones((n, n), dtype=bool)
    if n == 0:
        return V
    fps = footprint_pieces(table) if footprints_block else []
    poly, circ, fp_of = _blockers(table, eye_mm, fps)
    if len(poly[2]) + len(circ[0]) == 0:
        return V
    pts = np.asarray(pts, float)
    _STATE.update(pts=pts, poly=poly, circ=circ, fp_of=fp_of, inside=_inside_pieces(fps, pts))
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
    V &= V.T           # each pair was tested from its lower index: the matrix is symmetric
    return V


def cross_visibility(table: Table, a_pts: np.ndarray, b_pts: np.ndarray, eye_mm: float = DEFAULT_EYE_MM,
                     batch: int = 64) -> np.ndarray:
    """(len(a), len(b)) bool: point a_i sees point b_j, by the test of ``visibility_matrix``
    (sight only), with a's points as the only sources: the pairs within b are never cast (the
    generator asks this of one zone's points against the other's, ``targets.long_lane``)."""
    na, nb = len(a_pts), len(b_pts)
    V = np.ones((na, nb), dtype=bool)
    if na == 0 or nb == 0:
        return V
    poly, circ, fp_of = _blockers(table, eye_mm, [])
    if len(poly[2]) + len(circ[0]) == 0:
        return V
    pts = np.concatenate([np.asarray(a_pts, float), np.asarray(b_pts, float)])
    _STATE.update(pts=pts, poly=poly, circ=circ, fp_of=fp_of, inside=_inside_pieces([], pts), first_target=na)
    try:
        flat = _hidden_rows(0, na, batch)
    finally:
        _STATE.clear()
    n = na + nb
    src, tgt = flat // n, flat % n
    keep = tgt >= na
    V[src[keep], tgt[keep] - na] = False
    return V


# -- counts of hiding parts, for a matrix changed piece by piece (the editor) ---------------------
# ``counts[i, j]`` (i < j; the lower triangle is 0) is how many blocker parts hide the pair. Each
# pair's answer does not depend on the other parts or points, so moving a piece is: subtract the
# counts of its old parts, add those of its new ones, over the same points. Sight only (not the
# footprint reading, whose parts also depend on which points lie inside them).

def _part_pairs(tagged: list, pts: np.ndarray, batch: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """The pairs that the parts of ``tagged`` ((part, tag) pairs) hide, once per hiding part: flat
    indices ``i * n + j`` and the tag of the part that hides each."""
    if not tagged or len(pts) < 2:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    _set_parts(tagged, pts, tags=True)
    try:
        with np.errstate(all="ignore"):      # a grid point at a disc's centre (not an open point)
            return _hidden_rows(0, len(pts), batch)
    finally:
        _STATE.clear()


def _set_parts(tagged: list, pts: np.ndarray, tags: bool = False) -> None:
    # the tags travel in ``fp_of``, which ``_hidden_rows`` reads only for footprints (none here)
    poly, circ, fp_of = _pack(tagged)
    _STATE.update(pts=np.asarray(pts, float), poly=poly, circ=circ, fp_of=fp_of,
                  inside=np.zeros((0, len(pts)), bool), tags=tags)


def _count_chunk(args) -> tuple[int, int, np.ndarray]:
    b0, b1, batch = args
    n = len(_STATE["pts"])
    with np.errstate(all="ignore"):
        flat = _hidden_rows(b0, b1, batch) - b0 * n
    return b0, b1, np.bincount(flat, minlength=(b1 - b0) * n).astype(np.uint16)


def hidden_counts(parts: list, pts: np.ndarray, processes: int = 1, batch: int = 64) -> np.ndarray:
    """(n, n) uint16: for i < j, how many of ``parts`` hide the pair of points i, j."""
    import multiprocessing as mp
    import os

    n = len(pts)
    procs = max(1, min(int(processes), os.cpu_count() or 1))
    if procs == 1 or n < 400 or not parts or "fork" not in mp.get_all_start_methods():
        flat, _ = _part_pairs([(part, 0) for part in parts], pts, batch)
        return np.bincount(flat, minlength=n * n).astype(np.uint16).reshape(n, n)
    counts = np.zeros((n, n), dtype=np.uint16)
    _set_parts([(part, 0) for part in parts], pts)
    try:
        edges = (n * (1 - np.sqrt(1 - np.linspace(0, 1, 4 * procs + 1)))).astype(int)
        chunks = [(int(a), int(b), batch) for a, b in zip(edges[:-1], edges[1:]) if b > a]
        with mp.get_context("fork").Pool(procs) as pool:
            for b0, b1, block in pool.imap_unordered(_count_chunk, chunks):
                counts[b0:b1] = block.reshape(b1 - b0, n)
    finally:
        _STATE.clear()
    return counts


def update_counts(counts: np.ndarray, pts: np.ndarray, removed: list, added: list, batch: int = 64) -> None:
    """``counts`` (from ``hidden_counts`` over ``pts``) after the parts ``removed`` left the
    table and ``added`` came onto it (one pass over the points for both). Raises ValueError,
    leaving ``counts`` as it was, if a removed part was never counted in it."""
    flat, tag = _part_pairs([(p, 0) for p in removed] + [(p, 1) for p in added], pts, batch)
    view = counts.reshape(-1)
    gone, gk = np.unique(flat[tag == 0], return_counts=True)
    if (view[gone] < gk).any():
        raise ValueError("these parts were not counted in this matrix")
    view[gone] -= gk.astype(counts.dtype)
    new, nk = np.unique(flat[tag == 1], return_counts=True)
    view[new] += nk.astype(counts.dtype)


def matrix_from_counts(counts: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """The visibility matrix of the points ``keep`` (indices; all by default) from their counts."""
    c = counts if keep is None else counts[np.ix_(keep, keep)]
    hidden = c > 0
    return ~(hidden | hidden.T)


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


def _distance_to_polygon(px: np.ndarray, py: np.ndarray, poly) -> np.ndarray:
    """Distance from each point to the polygon ``poly`` (0 inside)."""
    d = distance_to_boundary(px, py, poly)
    d[_point_in_poly(px, py, poly)] = 0.0
    return d


def distance_to_boundary(px: np.ndarray, py: np.ndarray, poly) -> np.ndarray:
    """Distance from each point to the nearest edge of the polygon ``poly``, inside or out."""
    d2 = np.full(px.shape, np.inf)
    n = len(poly)
    for k in range(n):
        (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % n]
        ex, ey = x1 - x0, y1 - y0
        L2 = ex * ex + ey * ey
        t = np.clip(((px - x0) * ex + (py - y0) * ey) / L2, 0.0, 1.0) if L2 > 0 else np.zeros(px.shape)
        d2 = np.minimum(d2, (px - x0 - t * ex) ** 2 + (py - y0 - t * ey) ** 2)
    return np.sqrt(d2)


def _pct(num, den) -> float | None:
    return round(100 * float(num) / den, 2) if den else None


@dataclass
class SightAnalysis:
    grid: Grid
    eye_mm: float
    heat: np.ndarray                       # (rows, cols): share of other open points seen; NaN in terrain
    zones: dict[int, np.ndarray]           # side -> indices of open points in that side's zones
    lanes: list[dict]
    metrics: dict = field(default_factory=dict)
    visible: np.ndarray | None = None      # the (n, n) visibility matrix every figure comes from
    halves: dict[int, np.ndarray] = field(default_factory=dict)   # side -> (n,) bool: nearer its own zone
    hidden: dict[int, np.ndarray] = field(default_factory=dict)   # side -> (n,) bool: no enemy-zone point sees it
    footprints_block: bool = False
    _index: np.ndarray | None = field(default=None, repr=False)
    unit_mm: float = 1.0                   # mm per map unit (lanes and objectives are in map units)

    def point_index(self, x_mm: float, y_mm: float) -> int:
        """Index of the open point whose grid cell holds (x_mm, y_mm); -1 when the cell is terrain
        or off the table."""
        g = self.grid
        c = math.floor(x_mm / (2 * g.xs[0]))       # cells are 2 * (first centre) wide and tall
        r = math.floor(y_mm / (2 * g.ys[0]))
        if not (0 <= r < g.rows and 0 <= c < g.cols) or not g.open[r, c]:
            return -1
        if self._index is None:
            self._index = np.full(g.open.shape, -1, dtype=np.int64)
            self._index[g.open] = np.arange(len(g.pts))
        return int(self._index[r, c])

    def sees(self, a_mm, b_mm) -> bool:
        """Whether the open points at ``a_mm`` and ``b_mm`` see each other (False when either
        lies in terrain)."""
        i, j = self.point_index(*a_mm), self.point_index(*b_mm)
        assert self.visible is not None     # ``analyse`` always keeps the matrix
        return i >= 0 and j >= 0 and bool(self.visible[i, j])

    def seen_share_of_table(self) -> np.ndarray:
        """(rows, cols): the share of the whole grid (open or not) each open point sees, NaN in
        terrain. Unlike ``heat`` (a share of the open table) it does not shrink when terrain is
        taken away elsewhere: the measure for comparing two layouts point by point."""
        g = self.grid
        assert self.visible is not None     # ``analyse`` always keeps the matrix
        seen = self.visible.sum(axis=1) - 1 if len(g.pts) else np.zeros(0)
        return self.layer(seen / (g.rows * g.cols))

    def layer(self, values: np.ndarray, fill=np.nan) -> np.ndarray:
        """Per-open-point ``values`` laid out on the (rows, cols) grid, ``fill`` in terrain."""
        out = np.full(self.grid.open.shape, fill, dtype=float)
        out[self.grid.open] = values
        return out


def analyse(table: Table, step_mm: float = 25.4, eye_mm: float = DEFAULT_EYE_MM,
            control_mm: float = DEFAULT_CONTROL_MM, lanes: int = LANES, processes: int = 1,
            footprints_block: bool = False, matrix=None) -> SightAnalysis:
    """Every sight metric of ``table`` from one visibility matrix (see ``docs/workshop.md``).
    ``footprints_block``: the 40k reading, where obscuring and ruin footprints block sight
    through them whatever their height. ``matrix(grid)``, if given, supplies the visibility
    matrix of the grid's open points (the editor's, kept up to date piece by piece)."""
    for name, v in (("eye height", eye_mm), ("control range", control_mm)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a positive length, not {v!r}")
    mf = table.mapfile
    k = MM_PER[mf.unit]
    g = open_grid(table, step_mm)
    n = len(g.pts)
    if matrix is not None:
        V = matrix(g)
    else:
        V = visibility_matrix(table, g.pts, eye_mm, processes=processes, footprints_block=footprints_block)
    seen = V.sum(axis=1) - 1 if n else np.zeros(0)
    heat = np.full(g.open.shape, np.nan)
    if n > 1:
        heat[g.open] = seen / (n - 1)
    total_cells = g.rows * g.cols
    px, py = (g.pts[:, 0], g.pts[:, 1]) if n else (np.zeros(0), np.zeros(0))
    zones: dict[int, np.ndarray] = {}
    dist: dict[int, np.ndarray] = {}
    for side in (1, 2):
        m = np.zeros(n, dtype=bool)
        d = np.full(n, np.inf)
        for z in mf.deployment:
            if z.side == side:
                poly = [(x * k, y * k) for x, y in z.points]
                m |= _point_in_poly(px, py, poly)
                d = np.minimum(d, _distance_to_polygon(px, py, poly))
        zones[side] = np.nonzero(m)[0]
        dist[side] = d
    # a side's half: the open points nearer its own deployment zone than the enemy's (ties: neither)
    halves = {1: dist[1] < dist[2], 2: dist[2] < dist[1]}
    metrics: dict = {
        "grid_step_mm": round(step_mm, 3),
        "eye_mm": round(eye_mm, 2),
        "footprints_block": bool(footprints_block),
        "observer_points": int(n),
        "open_share_pct": round(100 * n / total_cells, 2) if total_cells else 0.0,
        "overall_los_pct": round(100 * float(seen.mean()) / (n - 1), 2) if n > 1 else 0.0,
    }
    z1, z2 = zones[1], zones[2]
    metrics["zone_to_zone_sight_pct"] = (round(100 * float(V[np.ix_(z1, z2)].mean()), 2)
                                         if len(z1) and len(z2) else None)
    hidden: dict[int, np.ndarray] = {}
    hide, expo, hiding = {}, {}, {}
    for side, other in ((1, 2), (2, 1)):
        a, b = zones[side], zones[other]
        enemy_half = np.nonzero(halves[other])[0]
        if len(b):
            hidden[side] = ~V[:, b].any(axis=1)
        else:
            hidden[side] = np.zeros(n, dtype=bool)
        h = hidden[side]
        hide[str(side)] = _pct(h[a].sum(), len(a)) if len(b) else None
        # exposure: of the ground the enemy holds (its half), how much sees a typical spot of our zone
        expo[str(side)] = (round(100 * float(V[np.ix_(a, enemy_half)].mean()), 2)
                           if len(a) and len(enemy_half) else None)
        own = halves[side]
        hiding[str(side)] = {
            "points": int(h.sum()) if len(b) else None,
            "open_pct": _pct(h.sum(), n) if len(b) else None,
            "own_half_pct": _pct(h[own].sum(), int(own.sum())) if len(b) else None,
            "enemy_half_pct": _pct(h[halves[other]].sum(), int(halves[other].sum())) if len(b) else None,
        }
    metrics["dz_hideability_pct"] = hide
    metrics["dz_exposure_pct"] = expo
    metrics["hiding"] = hiding
    metrics["half_points"] = {str(s): int(halves[s].sum()) for s in (1, 2)}
    # objectives: for each side, the open points within control range that no point of the
    # enemy's zone sees (where a model of that side holds it unseen)
    objs = []
    hid_count = {1: 0, 2: 0}
    for o in mf.objectives:
        ox, oy = o.at[0] * k, o.at[1] * k
        near = np.nonzero((px - ox) ** 2 + (py - oy) ** 2 <= control_mm ** 2)[0]
        row = {"id": o.id, "name": o.name, "x": round(ox / k, 2), "y": round(oy / k, 2), "points": int(len(near))}
        by = []
        for side in (1, 2):
            cnt = int(hidden[side][near].sum()) if len(near) else 0
            row[f"hidden_points_side{side}"] = cnt
            row[f"hidable_side{side}"] = cnt > 0
            hid_count[side] += cnt > 0
            if cnt:
                by.append(side)
        row["hidable_by"] = by
        objs.append(row)
    no = len(mf.objectives)
    metrics["objective_hidability_pct"] = {str(s): (round(100 * hid_count[s] / no, 2) if no else None) for s in (1, 2)}
    metrics["control_range_mm"] = round(control_mm, 2)
    metrics["objectives"] = objs
    lane_list = firing_lanes(g.pts, V, lanes, zones, k)
    metrics["lanes"] = lane_list
    metrics["longest_lane_in"] = lane_list[0]["length"] if lane_list else 0.0
    metrics["coverage_pct"] = round(100 * table.coverage(), 2)
    from .symmetry import side_differences, symmetry_report

    metrics["side_difference"] = side_differences(metrics)
    metrics["symmetry"] = symmetry_report(table)
    return SightAnalysis(g, eye_mm, heat, zones, lane_list, metrics, V, halves, hidden, footprints_block, unit_mm=k)


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
    out: list[dict] = []
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
