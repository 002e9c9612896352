"""Reach preview: every point a base can move to with a given allowance, as a raster.

The raster answers the same question as ``MoveSpace.check`` for each cell's centre, with the same
machinery, vectorised:

- the base may stand there: ``position_problem`` over the whole grid at once (terrain parts and
  other bases, each on the sub-grid its bounding box touches);
- the straight route: clear when the segment misses every hard piece grown by the base's radius
  (the swept space ``segment_clear`` queries) and every other base; its cost counts the climbing
  (total variation of the surface height along the centre line) and difficult ground;
- otherwise the path finder's answer: the costs of the nodes of ``find_path``'s visibility graph
  (terrain rings, the other bases' rings, the start) by one Dijkstra from the start, then for each
  cell the cheapest last leg from a node that sees it (same tangent rule and clearance tests as
  ``find_path``'s goal edges). The path chosen is the shortest by length (horizontal + climbing),
  as ``find_path`` chooses it; its cost then counts difficult ground ``difficult_factor`` times.

So a cell is in reach exactly when ``check`` would accept a move to its centre, up to floating
point at the boundaries and the rounded corners of the grown pieces (tested exactly here, as
pymunk does). The sampled point of a cell is its centre: a raster can be wrong by up to half a
cell diagonal at the edge of the reach.
"""
from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .bases import Base
from .geometry import CirclePart, ConvexPart, PartArrays, clip_polys, edge_groups, segment_intervals
from .movement import EDGE_TOL, NODE_MARGIN, POS_TOL, _ring, _seg_circle_clear, _tangent_ok

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table

EPS = 1e-6          # the tolerance MoveSpace.check allows on costs and lengths
_BITS = 62          # other bases told apart in a route's bits; past that every turn is unsure


def _bit(k: int) -> int:
    return 1 << min(k, _BITS)
SOURCE_CHUNK = 48   # graph nodes handled together when looking for the last leg (see _last_leg)


@dataclass(frozen=True, eq=False)
class Reach:
    """Where a base can end its move, on a grid of square cells aligned to the table's origin.

    ``mask[j, i]`` (rows are y, columns are x; row 0 is the lowest y, as the table's y is up) is
    the answer for the cell whose centre is ``(x0 + (i + 0.5) * cell, y0 + (j + 0.5) * cell)``.
    ``cost`` (float32, same shape, ``inf`` where unreachable) is the cost in mm of the route
    ``MoveSpace.check`` would accept: the straight route when it is clear and within the
    allowance, else the path finder's shortest path (difficult ground counted as asked).
    ``unsure`` (bool, same shape) marks the cells in reach only by a route that turns round a base
    the straight line to the cell does not meet: ``find_path`` starts with the bases on that line
    and brings others in only when its path meets them, so it can miss a route that uses another
    base's ring as a stepping stone (out of base contact, say) and answer with a longer one or
    none. ``MoveSpace.reach`` asks ``check`` itself about these cells."""
    x0: float
    y0: float
    cell: float
    mask: np.ndarray
    cost: np.ndarray | None = None
    unsure: np.ndarray | None = None

    @property
    def shape(self) -> tuple[int, int]:
        return self.mask.shape

    def index(self, x: float, y: float) -> tuple[int, int] | None:
        """(row, column) of the cell holding (x, y), or None outside the grid."""
        i = math.floor((x - self.x0) / self.cell)
        j = math.floor((y - self.y0) / self.cell)
        if 0 <= j < self.mask.shape[0] and 0 <= i < self.mask.shape[1]:
            return j, i
        return None

    def contains(self, x: float, y: float) -> bool:
        ij = self.index(x, y)
        return ij is not None and bool(self.mask[ij])

    def centres(self) -> tuple[np.ndarray, np.ndarray]:
        """Cell centre coordinates: xs (columns,) and ys (rows,)."""
        rows, cols = self.mask.shape
        return self.x0 + (np.arange(cols) + 0.5) * self.cell, self.y0 + (np.arange(rows) + 0.5) * self.cell

    @property
    def area(self) -> float:
        return float(self.mask.sum()) * self.cell * self.cell


# --------------------------------------------------------------------------- per-table data

class _ReachData:
    """What the raster needs from a table, built once per table (and per base radius)."""

    def __init__(self, table: Table):
        self.hard = PartArrays(*_parts_of(table, lambda p: p.hard))
        self.impassable = [p for p in table.pieces if p.impassable]
        self.edge_diff: dict[float, np.ndarray] = {}

    def edge_difficult(self, table: Table, g) -> np.ndarray:
        """Difficult run of every terrain edge of the graph ``g`` (for difficult_factor != 1)."""
        d = self.edge_diff.get(g.radius)
        if d is None:
            A, B = g.xy[g.I], g.xy[g.J]
            d = self.edge_diff[g.radius] = _profiles(table, A, B, want_diff=True)[1]
        return d


def _parts_of(table, select):
    parts, owners = [], []
    for p in table.pieces:
        if select(p):
            parts.extend(p.parts)
            owners.extend([p.index] * len(p.parts))
    return parts, owners


def _data(table: Table) -> _ReachData:
    d = table.__dict__.get("_reach_data")
    if d is None:
        with table._lock:
            d = table.__dict__.get("_reach_data")
            if d is None:
                d = _ReachData(table)
                table.__dict__["_reach_data"] = d
    return d


# --------------------------------------------------------------------------- kernels

def _pt_seg_d2(px, py, ax, ay, dx, dy):
    """Squared distance from points (px, py) to segments a + t d, t in [0, 1] (broadcasting)."""
    L2 = dx * dx + dy * dy
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / np.where(L2 > 0, L2, 1.0), 0.0, 1.0)
    ex, ey = px - ax - t * dx, py - ay - t * dy
    return ex * ex + ey * ey


def _swept_blocked(pa: PartArrays, A: np.ndarray, B: np.ndarray, rr: float) -> np.ndarray:
    """(S,) bool: the segment A[s]->B[s] comes closer than ``rr`` to a part of ``pa``, i.e. it meets
    the part grown by rr with rounded corners, as pymunk's query of the swept space decides."""
    S = len(A)
    out = np.zeros(S, bool)
    if S == 0:
        return out
    ax, ay, bx, by = A[:, 0], A[:, 1], B[:, 0], B[:, 1]
    dx, dy = bx - ax, by - ay
    sx0, sx1 = np.minimum(ax, bx) - rr, np.maximum(ax, bx) + rr
    sy0, sy1 = np.minimum(ay, by) - rr, np.maximum(ay, by) + rr
    if pa.n_poly:
        bb = pa.poly_bbox
        s, p = np.nonzero((sx1[:, None] >= bb[None, :, 0]) & (sx0[:, None] <= bb[None, :, 2]) &
                          (sy1[:, None] >= bb[None, :, 1]) & (sy0[:, None] <= bb[None, :, 3]))
        if len(s):
            # bounding circles first, then the exact distance between segment and polygon
            g2 = _pt_seg_d2(pa.poly_cx[p], pa.poly_cy[p], ax[s], ay[s], dx[s], dy[s])
            k = g2 <= (pa.poly_rho[p] + rr) ** 2
            s, p = s[k], p[k]
            hit = np.zeros(len(s), bool)
            t0, t1 = clip_polys(pa, s, p, ax, ay, dx, dy)
            hit |= t0 < t1                                     # crosses (or lies inside) the part
            for idx, m in edge_groups(pa, np.arange(len(s)), p):
                if len(idx) == 0:
                    continue
                ss, pp = s[idx], p[idx]
                vx, vy = pa.poly_vx[pp, :m], pa.poly_vy[pp, :m]
                # corners to the segment, and the segment's ends to the edges (padded vertices
                # repeat the last one, so padded edges are points and the last edge closes)
                d2 = _pt_seg_d2(vx, vy, ax[ss][:, None], ay[ss][:, None], dx[ss][:, None], dy[ss][:, None])
                ex, ey = np.roll(vx, -1, axis=1) - vx, np.roll(vy, -1, axis=1) - vy
                d2 = np.minimum(d2, _pt_seg_d2(ax[ss][:, None], ay[ss][:, None], vx, vy, ex, ey))
                d2 = np.minimum(d2, _pt_seg_d2(bx[ss][:, None], by[ss][:, None], vx, vy, ex, ey))
                hit[idx] |= d2.min(axis=1) < rr * rr
            out[s[hit]] = True
    if pa.n_circ:
        R = pa.cr + rr
        s, p = np.nonzero((sx1[:, None] >= (pa.ccx - pa.cr)[None]) & (sx0[:, None] <= (pa.ccx + pa.cr)[None]) &
                          (sy1[:, None] >= (pa.ccy - pa.cr)[None]) & (sy0[:, None] <= (pa.ccy + pa.cr)[None]))
        if len(s):
            d2 = _pt_seg_d2(pa.ccx[p], pa.ccy[p], ax[s], ay[s], dx[s], dy[s])
            out[s[d2 < R[p] ** 2]] = True
    return out


def _models_blocked(A, B, models: Sequence[Base], r: float) -> np.ndarray:
    if not models or len(A) == 0:
        return np.zeros(len(A), bool)
    MC = np.array([(m.x, m.y) for m in models], dtype=float)
    MR = np.array([m.radius + r - EDGE_TOL for m in models], dtype=float)
    return ~_seg_circle_clear(A, B, MC, MR).all(axis=1)


def _profiles(table: Table, A, B, want_diff: bool):
    """(vertical (S,), difficult run (S,) or None) along segments A->B: the climbing that
    ``surface_profiles`` counts (the total variation of the height of the highest climbable piece
    under the centre line) and the union length inside difficult pieces, without a Python loop
    per segment."""
    A = np.asarray(A, float).reshape(-1, 2)
    B = np.asarray(B, float).reshape(-1, 2)
    seg, owner, t0, t1 = segment_intervals(table._climb_arrays, A, B)
    vert = _variation(seg, owner, t0, t1, table._props["height"], len(A), total=True)
    diff = None
    if want_diff:
        L = np.hypot(*(B - A).T)
        diff = _variation(*segment_intervals(table._difficult_arrays, A, B), None, len(A), total=False) * L
    return vert, diff


def _variation(seg, owner, t0, t1, heights, S: int, total: bool) -> np.ndarray:
    """Per segment: with ``total``, the total variation over [0, 1] of the highest interval's
    height (0 where none); else the covered share of [0, 1]. Intervals padded per segment so that
    one sort does every segment."""
    out = np.zeros(S)
    if len(seg) == 0:
        return out
    order = np.argsort(seg, kind="stable")
    seg, owner, t0, t1 = seg[order], owner[order], t0[order], t1[order]
    segs, start, counts = np.unique(seg, return_index=True, return_counts=True)
    G, k = len(segs), int(counts.max())
    col = np.arange(len(seg)) - np.repeat(start, counts)
    row = np.repeat(np.arange(G), counts)
    T0 = np.full((G, k), 2.0)
    T1 = np.full((G, k), 2.0)
    H = np.zeros((G, k))
    T0[row, col], T1[row, col] = t0, t1
    H[row, col] = heights[owner] if heights is not None else 1.0
    ev = np.sort(np.concatenate([np.zeros((G, 1)), np.ones((G, 1)), np.minimum(T0, 1.0), np.minimum(T1, 1.0)],
                                axis=1), axis=1)
    mid = (ev[:, 1:] + ev[:, :-1]) / 2                                  # (G, 2k + 1)
    cover = (T0[:, None, :] <= mid[:, :, None]) & (mid[:, :, None] <= T1[:, None, :])
    z = np.where(cover, H[:, None, :], 0.0).max(axis=2)
    # spans of (nearly) zero width take the height before them, as surface_profiles skips them:
    # two parts of one concave piece meet at t values a rounding error apart
    w = ev[:, 1:] - ev[:, :-1]
    keep = np.where(w > 1e-12, np.arange(w.shape[1])[None, :], 0)
    z = np.take_along_axis(z, np.maximum.accumulate(keep, axis=1), axis=1)
    if total:
        out[segs] = np.abs(np.diff(z, axis=1)).sum(axis=1)
    else:
        out[segs] = ((ev[:, 1:] - ev[:, :-1]) * (z > 0)).sum(axis=1)
    return out


def _piece_bad(piece, X, Y, lim: float):
    """Where a base of radius ``lim`` (+ ``POS_TOL``) centred at (X, Y) may not stand for
    ``piece`` (broadcast arrays): ``position_problem``'s test of one impassable piece."""
    hit = np.zeros(np.broadcast(X, Y).shape, bool)
    inside = np.zeros_like(hit)
    for part in piece.parts:
        if isinstance(part, CirclePart):
            d = np.hypot(X - part.cx, Y - part.cy)
            hit |= d - part.r < lim
            inside |= d <= part.r
            continue
        assert isinstance(part, ConvexPart)
        pts = part.points
        n = len(pts)
        proj_max = np.full(hit.shape, -np.inf)
        d2 = np.full(hit.shape, np.inf)
        for q in range(n):
            (vx, vy), (wx, wy) = pts[q], pts[(q + 1) % n]
            ex, ey = wx - vx, wy - vy
            proj_max = np.maximum(proj_max, (ey * (X - vx) - ex * (Y - vy)) / math.hypot(ex, ey))
            d2 = np.minimum(d2, _pt_seg_d2(X, Y, vx, vy, ex, ey))
        inner = proj_max <= 0
        inside |= inner
        hit |= inner | (d2 < lim * lim)
    return hit if piece.hard else hit & ~inside


def position_mask(table: Table, xs: np.ndarray, ys: np.ndarray, radius: float,
                  others: Sequence[Base] = ()) -> np.ndarray:
    """(len(ys), len(xs)) bool: ``position_problem(x, y, radius, others) is None`` at every grid
    point, by the same tests (on the table; no overlap with a hard piece, nor with a climbable
    impassable piece unless the centre is over it; no overlap with another base)."""
    r = float(radius)
    xs = np.asarray(xs, float)
    ys = np.asarray(ys, float)
    ok = np.ones((len(ys), len(xs)), bool)
    ok &= ((xs - r >= -POS_TOL) & (xs + r <= table.width + POS_TOL))[None, :]
    ok &= ((ys - r >= -POS_TOL) & (ys + r <= table.height + POS_TOL))[:, None]
    lim = r - POS_TOL

    def window(x0, y0, x1, y1):
        i0, i1 = np.searchsorted(xs, x0, "left"), np.searchsorted(xs, x1, "right")
        j0, j1 = np.searchsorted(ys, y0, "left"), np.searchsorted(ys, y1, "right")
        return slice(j0, j1), slice(i0, i1)

    for piece in _data(table).impassable:
        bx0, by0, bx1, by1 = piece.bbox
        sj, si = window(bx0 - r, by0 - r, bx1 + r, by1 + r)
        if sj.start >= sj.stop or si.start >= si.stop:
            continue
        ok[sj, si] &= ~_piece_bad(piece, xs[None, si], ys[sj, None], lim)
    for o in others:
        R = r + o.radius - POS_TOL
        sj, si = window(o.x - R, o.y - R, o.x + R, o.y + R)
        if sj.start < sj.stop and si.start < si.stop:
            ok[sj, si] &= np.hypot(xs[None, si] - o.x, ys[sj, None] - o.y) >= R
    return ok


def position_ok(table: Table, px: np.ndarray, py: np.ndarray, radius: float,
                others: Sequence[Base] = ()) -> np.ndarray:
    """(N,) bool: ``position_problem(px[k], py[k], radius, others) is None`` for scattered points,
    by ``position_mask``'s tests."""
    r = float(radius)
    px = np.asarray(px, float)
    py = np.asarray(py, float)
    ok = (px - r >= -POS_TOL) & (px + r <= table.width + POS_TOL)
    ok &= (py - r >= -POS_TOL) & (py + r <= table.height + POS_TOL)
    lim = r - POS_TOL
    for piece in _data(table).impassable:
        bx0, by0, bx1, by1 = piece.bbox
        k = np.flatnonzero((px >= bx0 - r) & (px <= bx1 + r) & (py >= by0 - r) & (py <= by1 + r))
        if len(k):
            ok[k] &= ~_piece_bad(piece, px[k], py[k], lim)
    for o in others:
        ok &= np.hypot(px - o.x, py - o.y) >= r + o.radius - POS_TOL
    return ok


# --------------------------------------------------------------------------- the graph

def _node_costs(table: Table, sx, sy, r: float, allowance: float, models: Sequence[Base], want_diff: bool):
    """The nodes ``find_path`` would use within the allowance (terrain rings, other bases' rings)
    with their shortest cost from the start (by length, horizontal + climbing) and the difficult
    run of that path, and which other bases' rings that path turns at (bits, ``_bit``). Returns
    (xy, prv, nxt, dist, diff, bits); only nodes with dist <= allowance."""
    rr = max(r - EDGE_TOL, 0.0)
    # build the swept space before the graph: the graph's build asks for it while holding the
    # table's (non-reentrant) lock, and would deadlock if it had to build it then
    table._swept_space(rr)
    g = table._nav_graph(r)
    data = _data(table)
    lim = allowance + EPS
    inn = np.hypot(g.xy[:, 0] - sx, g.xy[:, 1] - sy) <= lim if len(g.xy) else np.zeros(0, bool)
    tidx = np.flatnonzero(inn)
    local = np.full(len(g.xy), -1)
    local[tidx] = np.arange(len(tidx))
    # other bases' rings (as find_path: kept where a base may stand), within the allowance
    d = r + NODE_MARGIN
    rxy, rprv, rnxt, rbit = [], [], [], []
    for k, m in enumerate(models):
        if math.hypot(m.x - sx, m.y - sy) > lim + m.radius + d * 1.1:
            continue
        rg = _ring(CirclePart(m.x, m.y, m.radius), d)
        n = len(rg)
        for i, (x, y) in enumerate(rg):
            # find_path's test for a turning point (``_search``): the base may overlap a
            # climbable piece mid-move, so not ``position_problem``, which is for where it stands
            if math.hypot(x - sx, y - sy) <= lim and table.node_free(x, y, r) and \
                    not any(math.hypot(x - o.x, y - o.y) < r + o.radius - POS_TOL for o in models):
                rxy.append(rg[i])
                rprv.append(rg[i - 1])
                rnxt.append(rg[(i + 1) % n])
                rbit.append(_bit(k))
    s_i = len(tidx)                                # the start's index; ring nodes follow it
    xy = np.vstack([g.xy[tidx].reshape(-1, 2), [(sx, sy)], np.array(rxy, float).reshape(-1, 2)])
    prv = np.vstack([g.prv[tidx].reshape(-1, 2), [(sx, sy)], np.array(rprv, float).reshape(-1, 2)])
    nxt = np.vstack([g.nxt[tidx].reshape(-1, 2), [(sx, sy)], np.array(rnxt, float).reshape(-1, 2)])
    ring = np.ones(len(xy), bool)
    ring[s_i] = False
    # terrain edges inside the disc, minus those another base blocks
    ek = np.flatnonzero(inn[g.I] & inn[g.J]) if len(g.I) else np.zeros(0, np.int64)
    if len(ek) and models:
        ek = ek[~_models_blocked(g.xy[g.I[ek]], g.xy[g.J[ek]], models, r)]
    ei, ej, ec = local[g.I[ek]], local[g.J[ek]], g.cost[ek]
    ed = data.edge_difficult(table, g)[ek] if want_diff else np.zeros(len(ek))
    # the start's and the rings' edges: tangent at ring ends, each pair once, clear of bases and terrain
    N = len(xy)
    xa, xb = np.nonzero((np.arange(N)[None, :] < s_i) | (np.arange(N)[None, :] > np.arange(s_i, N)[:, None]))
    xa = xa + s_i
    ok = ~ring[xb] | _tangent_ok(xy[xb], prv[xb], nxt[xb], xy[xa])
    ok &= ~ring[xa] | _tangent_ok(xy[xa], prv[xa], nxt[xa], xy[xb])
    xa, xb = xa[ok], xb[ok]
    if len(xa):
        A, B = xy[xa], xy[xb]
        ok = ~_models_blocked(A, B, models, r)
        ok[ok] = ~_swept_blocked(data.hard, A[ok], B[ok], rr)
        xa, xb = xa[ok], xb[ok]
        A, B = xy[xa], xy[xb]
        v, dd = _profiles(table, A, B, want_diff)
        xc = np.hypot(*(B - A).T) + v
        xd = dd if want_diff else np.zeros(len(xa))
    else:
        xc = xd = np.zeros(0)
    I = np.concatenate([ei, xa]).tolist()
    J = np.concatenate([ej, xb]).tolist()
    C = np.concatenate([ec, xc]).tolist()
    D = np.concatenate([ed, xd]).tolist()
    adj: list[list] = [[] for _ in range(N)]
    for i, j, c, dd in zip(I, J, C, D):
        adj[i].append((j, c, dd))
        adj[j].append((i, c, dd))
    dist = [math.inf] * N
    diff = [0.0] * N
    # the other bases whose rings the path turns at, one bit each (see ``Reach.unsure``)
    own = [0] * (s_i + 1) + rbit
    via = list(own)
    dist[s_i] = 0.0
    heap = [(0.0, s_i)]
    while heap:
        du, u = heapq.heappop(heap)
        if du > dist[u]:
            continue
        for v, c, dd in adj[u]:
            nd = du + c
            if nd < dist[v] - 1e-12 and nd <= lim:
                dist[v] = nd
                diff[v] = diff[u] + dd
                via[v] = via[u] | own[v]
                heapq.heappush(heap, (nd, v))
    dist_a = np.array(dist)
    diff_a = np.array(diff)
    via_a = np.array(via, np.int64)
    keep = np.flatnonzero(np.isfinite(dist_a) & ring)   # the start's own edges are the straight routes
    return xy[keep], prv[keep], nxt[keep], dist_a[keep], diff_a[keep], via_a[keep]


def _last_leg(table, P, best, nodes, r, allowance, models, want_diff):
    """For cells P (G, 2) whose route must come from the graph: the length (horizontal + climbing)
    of the shortest path through a node that sees the cell, and that path's difficult run.
    ``best`` holds the lengths already known (the straight route when it is clear but climbs).
    Also returns, per cell, the bases whose rings that path turns at (bits).

    Nodes are taken cheapest first, ``SOURCE_CHUNK`` at a time; a (node, cell) pair is tested only
    when dist(node) + |node - cell| could still beat the cell's best, which drops most pairs."""
    xy, prv, nxt, dist, ndiff, nvia = nodes
    data = _data(table)
    rr = max(r - EDGE_TOL, 0.0)
    G = len(P)
    best = best.copy()
    bdiff = np.zeros(G)
    bvia = np.zeros(G, np.int64)
    order = np.argsort(dist, kind="stable")
    # the prefilter runs in float32 with a small margin; exact tests follow in float64
    best32, dist32 = best.astype(np.float32), dist.astype(np.float32)
    P32, xy32 = P.astype(np.float32), xy.astype(np.float32)
    for c0 in range(0, len(order), SOURCE_CHUNK):
        ch = order[c0:c0 + SOURCE_CHUNK]
        # lower bound dist(node) + |node - cell| below min(allowance, best): (chunk, G), float32
        room = np.minimum(best32, allowance + EPS)[None, :] - dist32[ch][:, None]
        dx = P32[None, :, 0] - xy32[ch, 0][:, None]
        dy = P32[None, :, 1] - xy32[ch, 1][:, None]
        n_i, c_i = np.nonzero((room > 0) & (dx * dx + dy * dy < room * room * 1.0001 + 1e-3))
        if len(n_i) == 0:
            continue
        src = ch[n_i]
        lb = dist[src] + np.hypot(P[c_i, 0] - xy[src, 0], P[c_i, 1] - xy[src, 1])
        ok = (lb <= allowance + EPS) & (lb < best[c_i])
        src, c_i = src[ok], c_i[ok]
        ok = _tangent_ok(xy[src], prv[src], nxt[src], P[c_i])
        src, c_i = src[ok], c_i[ok]
        A, B = xy[src], P[c_i]
        ok = ~_models_blocked(A, B, models, r)
        ok[ok] = ~_swept_blocked(data.hard, A[ok], B[ok], rr)
        src, c_i, A, B = src[ok], c_i[ok], A[ok], B[ok]
        if len(src) == 0:
            continue
        v, dd = _profiles(table, A, B, want_diff)
        L = dist[src] + np.hypot(*(B - A).T) + v
        # the shortest per cell: sort by (cell, length) and keep each cell's first
        o = np.lexsort((L, c_i))
        c_s = c_i[o]
        first = np.ones(len(o), bool)
        first[1:] = c_s[1:] != c_s[:-1]
        sel = o[first]
        better = L[sel] < best[c_i[sel]]
        sel = sel[better]
        best[c_i[sel]] = L[sel]
        best32[c_i[sel]] = L[sel]
        bvia[c_i[sel]] = nvia[src[sel]]
        if want_diff:
            bdiff[c_i[sel]] = ndiff[src[sel]] + dd[sel]
    return best, bdiff, bvia


# --------------------------------------------------------------------------- the query

class Query:
    """One reach question (a base, its allowance, the other bases, the route rules), answered at
    any points: the grid of ``reach`` and the scattered points of ``reach_at`` ask the same."""

    def __init__(self, table: Table, base: Base, allowance_mm: float, others: Sequence[Base],
                 difficult_factor: float, path_others: Sequence[Base] | None, detour_when_straight_clear: bool):
        self.table = table
        self.A = float(allowance_mm)
        self.r = float(base.radius)
        self.sx, self.sy = float(base.x), float(base.y)
        self.others = tuple(o for o in others if o.id != base.id)
        models = self.others if path_others is None else tuple(o for o in path_others if o.id != base.id)
        # every route tested stays in the allowance's disc: bases beyond it cannot block one
        def near(bases):
            return tuple(o for o in bases
                         if math.hypot(o.x - self.sx, o.y - self.sy) <= self.A + self.r + o.radius + 1.0)

        self.models, self.blockers = near(models), near(self.others)
        self.difficult_factor = difficult_factor
        self.want_diff = difficult_factor != 1.0
        self.detour = detour_when_straight_clear
        self._nodes = None

    def nodes(self):
        if self._nodes is None:
            self._nodes = _node_costs(self.table, self.sx, self.sy, self.r, self.A, self.models, self.want_diff)
        return self._nodes

    def routes(self, P: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For points P (N, 2) where the base may stand: the cost of the route ``check`` accepts
        (inf where none is within the allowance), and which route bases' rings it turns at
        (bits) and ``unsure`` (see ``Reach.unsure``)."""
        table, A, r, sx, sy = self.table, self.A, self.r, self.sx, self.sy
        S = np.broadcast_to(np.array([sx, sy]), P.shape)
        # the straight route (MoveSpace.straight_cost): clear of hard pieces and of every other base
        clear = ~_models_blocked(S, P, self.blockers, r)
        clear[clear] = ~_swept_blocked(_data(table).hard, S[clear], P[clear], max(r - EDGE_TOL, 0.0))
        horiz = np.hypot(P[:, 0] - sx, P[:, 1] - sy)
        vert, diff = _profiles(table, S, P, self.want_diff)
        s_len = horiz + vert
        s_cost = s_len + ((self.difficult_factor - 1.0) * diff if self.want_diff else 0.0)
        ok = clear & (s_cost <= A + EPS)
        final = np.where(ok, s_cost, np.inf)
        turns = np.zeros(len(P), np.int64)       # the bases whose rings the route found turns at
        # the path finder is asked only where going straight is refused; when the straight route is
        # clear and climbs nothing, it is provably the shortest and its answer is the same
        need = ~ok & ~(clear & (vert == 0))
        if not self.detour:
            need &= ~clear
        if need.any():
            # find_path's goal also links to the start directly (the straight route, climbing and all)
            known = np.where(clear[need], s_len[need], np.inf)
            L, D, V = _last_leg(table, P[need], known, self.nodes(), r, A, self.models, self.want_diff)
            via_straight = clear[need] & (L >= known)     # the straight route stayed the shortest
            gcost = L + (self.difficult_factor - 1.0) * np.where(via_straight, diff[need] if self.want_diff else 0.0, D)
            gcost = np.where(L <= A + EPS, gcost, np.inf)
            final[need] = np.where(gcost <= A + EPS, gcost, np.inf)
            turns[need] = np.where(via_straight, 0, V)
        good = np.isfinite(final)
        # find_path starts with the bases its straight line meets: a route that turns only at their
        # rings is one it finds; a route round any other base's ring it may miss (``Reach.unsure``)
        unsure = np.zeros(len(P), bool)
        k = np.flatnonzero(good & (turns != 0))
        if len(k):
            if len(self.models) > _BITS:
                late = np.ones(len(k), bool)
            else:
                MC = np.array([(m.x, m.y) for m in self.models], float)
                MR = np.array([m.radius + r - EDGE_TOL for m in self.models], float)
                met = ~_seg_circle_clear(S[k], P[k], MC, MR)
                met_bits = (met.astype(np.int64) << np.arange(len(self.models), dtype=np.int64)[None, :]).sum(axis=1)
                late = (turns[k] & ~met_bits) != 0
            unsure[k[late]] = True
        return final, turns, unsure


def reach(table: Table, base: Base, allowance_mm: float, others: Sequence[Base] = (), cell_mm: float = 6.35,
          difficult_factor: float = 1.0, path_others: Sequence[Base] | None = None,
          detour_when_straight_clear: bool = True, query: Query | None = None) -> Reach:
    """Every cell (of ``cell_mm``, aligned to the table's origin) whose centre ``base`` may move
    to with ``allowance_mm``, as ``MoveSpace(table, base, allowance_mm, others,
    difficult_factor).check`` decides (see the module's docstring).

    ``path_others`` are the bases the path finder steers round (default ``others``; Counterblast
    passes only the near ones, which gives the same paths). With ``detour_when_straight_clear``
    False a clear straight route is the only one considered, however much it climbs (Doubles'
    path cache does that). ``query`` (the same question, ``Query``) reuses its path graph."""
    q = query or Query(table, base, allowance_mm, others, difficult_factor, path_others, detour_when_straight_clear)
    c, A, sx, sy = float(cell_mm), q.A, q.sx, q.sy
    # the grid: the allowance's bounding box, clipped to the table
    i0 = max(0, math.floor((sx - A) / c))
    i1 = min(math.ceil(table.width / c), math.floor((sx + A) / c) + 1)
    j0 = max(0, math.floor((sy - A) / c))
    j1 = min(math.ceil(table.height / c), math.floor((sy + A) / c) + 1)
    x0, y0 = i0 * c, j0 * c
    xs = x0 + (np.arange(max(i1 - i0, 0)) + 0.5) * c
    ys = y0 + (np.arange(max(j1 - j0, 0)) + 0.5) * c
    mask = np.hypot(xs[None, :] - sx, ys[:, None] - sy) <= A + EPS      # no route beats the straight line
    mask &= position_mask(table, xs, ys, q.r, q.others)
    cost = np.full(mask.shape, np.inf, dtype=np.float32)
    unsure = np.zeros(mask.shape, bool)
    jj, ii = np.nonzero(mask)
    if len(jj) == 0:
        return Reach(x0, y0, c, mask, cost)
    final, _, late = q.routes(np.column_stack([xs[ii], ys[jj]]))
    good = np.isfinite(final)
    mask[jj[~good], ii[~good]] = False
    cost[jj[good], ii[good]] = final[good]
    unsure[jj[late], ii[late]] = True
    return Reach(x0, y0, c, mask, cost, unsure)


def reach_at(table: Table, base: Base, allowance_mm: float, others: Sequence[Base], P,
             difficult_factor: float = 1.0, path_others: Sequence[Base] | None = None,
             detour_when_straight_clear: bool = True, query: Query | None = None):
    """``reach``'s answer at scattered points P (N, 2) instead of cell centres: (in reach (N,),
    cost (N,), unsure (N,)). ``query`` reuses one question's graph for several calls."""
    q = query or Query(table, base, allowance_mm, others, difficult_factor, path_others, detour_when_straight_clear)
    P = np.asarray(P, float).reshape(-1, 2)
    ok = np.hypot(P[:, 0] - q.sx, P[:, 1] - q.sy) <= q.A + EPS
    k = np.flatnonzero(ok)
    ok[k] = position_ok(table, P[k, 0], P[k, 1], q.r, q.others)
    cost = np.full(len(P), np.inf)
    unsure = np.zeros(len(P), bool)
    k = np.flatnonzero(ok)
    if len(k):
        final, _, late = q.routes(P[k])
        good = np.isfinite(final)
        ok[k[~good]] = False
        cost[k] = final
        unsure[k] = late
    return ok, cost, unsure
