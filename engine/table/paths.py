"""Shortest legal paths for a base: the visibility graph round the hard pieces (``NavGraph``), the
lazy A* that brings other models in only when a path meets them (``find_path``), the swept-circle
clearance tests, and a Path from its points (``make_path``). Design: ``movement``."""
from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .bases import Base
from .climbing import _difficult_plain, difficult_length, surface_profile_one, surface_profiles
from .geometry import PLAIN_MAX, CirclePart
from .move_common import CLIMBABLE, CORNER_TURN, EDGE_TOL, HARD, MAX_TURN, NEAR_MODELS, NODE_MARGIN, POS_TOL, Path

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table


# --------------------------------------------------------------------------- graph

def _ring(part, d: float, max_turn: float = MAX_TURN):
    """Nodes around a convex part offset by d (circumscribed), in ring order: one per at most
    ``max_turn`` of turn at each corner (circles: 12)."""
    if isinstance(part, CirclePart):
        n = 12
        R = (part.r + d) / math.cos(math.pi / n)
        return [(part.cx + R * math.cos(2 * math.pi * (i + 0.5) / n),
                 part.cy + R * math.sin(2 * math.pi * (i + 0.5) / n)) for i in range(n)]
    pts = part.points
    n = len(pts)
    normals = []
    for k in range(n):
        x0, y0 = pts[k]
        x1, y1 = pts[(k + 1) % n]
        normals.append(math.atan2(-(x1 - x0), (y1 - y0)))   # angle of the outward normal (ey, -ex)
    out = []
    for k in range(n):
        a_in = normals[k - 1]
        turn = (normals[k] - a_in) % (2 * math.pi)
        if turn < 1e-9:
            continue
        m = max(1, math.ceil(turn / max_turn - 1e-9))
        step = turn / m
        R = d / math.cos(step / 2)
        vx, vy = pts[k]
        for i in range(m):
            a = a_in + (i + 0.5) * step
            out.append((vx + R * math.cos(a), vy + R * math.sin(a)))
    return out


def _node_free(table: Table, x: float, y: float, r: float) -> bool:
    """May a path turn at (x, y): the centre on the table and the base overlapping no hard piece.
    (Mid-move a base may overlap climbable pieces: only its centre line pays their height.)"""
    if x - r < -POS_TOL or y - r < -POS_TOL or x + r > table.width + POS_TOL or y + r > table.height + POS_TOL:
        return False
    for h in table.space.point_query((x, y), r, HARD):
        if h.distance < r - POS_TOL:
            return False
    return True


def _tangent_ok(xy, prv, nxt, other):
    """At node(s) xy with ring neighbours prv/nxt: is the line to ``other`` tangent to the ring?

    Both neighbours must lie on the same side of the line, or the one on the wrong side must be
    within ``2 * NODE_MARGIN`` of it per unit of its distance along (the line may end at a legal
    point slightly inside the nodes' offset, e.g. a base in contact with the piece)."""
    wx = other[..., 0] - xy[..., 0]
    wy = other[..., 1] - xy[..., 1]
    px, py = prv[..., 0] - xy[..., 0], prv[..., 1] - xy[..., 1]
    qx, qy = nxt[..., 0] - xy[..., 0], nxt[..., 1] - xy[..., 1]
    c1 = wx * py - wy * px
    c2 = wx * qy - wy * qx
    k = 2 * NODE_MARGIN
    slack = np.minimum(np.abs(c1) / (np.hypot(px, py) + 1e-12), np.abs(c2) / (np.hypot(qx, qy) + 1e-12))
    return (c1 * c2 >= 0) | (slack <= k)


def seg_circle_ok(ax: float, ay: float, bx: float, by: float, cx: float, cy: float, rad: float) -> bool:
    """Segment a-b keeps at least ``rad`` from centre c (plain Python; ``_seg_circle_clear`` is
    the same test for many pairs at once)."""
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    fx, fy = cx - ax, cy - ay
    t = (fx * dx + fy * dy) / L2 if L2 > 0 else 0.0
    t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
    ddx, ddy = fx - t * dx, fy - t * dy
    return ddx * ddx + ddy * ddy >= rad * rad


def _seg_circle_clear(A, B, C, rad):
    """(E, M) boolean: segment A[e]-B[e] keeps at least rad[m] from centre C[m]. One or two
    segments go through ``seg_circle_ok`` (plain Python), more through numpy."""
    if len(A) <= PLAIN_MAX:
        cs = np.asarray(C, float).reshape(-1, 2).tolist()
        rs = np.asarray(rad, float).tolist()
        return np.array([[seg_circle_ok(a[0], a[1], b[0], b[1], c[0], c[1], q) for c, q in zip(cs, rs)]
                         for a, b in zip(np.asarray(A, float).tolist(), np.asarray(B, float).tolist())],
                        dtype=bool).reshape(len(A), len(rs))
    return _seg_circle_clear_np(A, B, C, rad)


def _seg_circle_clear_np(A, B, C, rad):
    ax, ay = A[:, 0:1], A[:, 1:2]
    dx, dy = B[:, 0:1] - ax, B[:, 1:2] - ay
    L2 = dx * dx + dy * dy
    fx = C[None, :, 0] - ax
    fy = C[None, :, 1] - ay
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(L2 > 0, (fx * dx + fy * dy) / L2, 0.0)
    t = np.clip(t, 0.0, 1.0)
    ddx = fx - t * dx
    ddy = fy - t * dy
    return ddx * ddx + ddy * ddy >= (rad[None, :]) ** 2


def _clear_of(a, b, circles) -> bool:
    """Segment a-b clear of every (cx, cy, rad) in ``circles``: ``seg_circle_ok`` for each, written
    out here (this loop is hot in the path search)."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L2 = dx * dx + dy * dy
    for cx, cy, rad in circles:
        fx, fy = cx - ax, cy - ay
        t = (fx * dx + fy * dy) / L2 if L2 > 0 else 0.0
        t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        ddx, ddy = fx - t * dx, fy - t * dy
        if not ddx * ddx + ddy * ddy >= rad * rad:
            return False
    return True


def _model_circles(models, r: float):
    return [(m.x, m.y, m.radius + r - EDGE_TOL) for m in models]


class NavGraph:
    """Terrain-only visibility graph for one base radius (cached by the table).

    Nodes ring the convex parts of the hard pieces at ``r + NODE_MARGIN`` and sit just off
    (``NODE_MARGIN``) each corner of the climbable pieces: a base may overlap a climbable piece
    while it moves, only its centre line pays the piece's height, so the shortest way round
    one grazes its corner with the centre. A node is kept where a base may be mid-move (on the
    table, overlapping no hard piece)."""

    def __init__(self, table: Table, radius: float):
        self.radius = r = radius
        xy, prv, nxt = [], [], []
        for p in table.pieces:
            if p.hard:
                rings = [_ring(part, r + NODE_MARGIN) for part in p.parts]
            elif p.climbable and p.height > 0:
                rings = [_ring(part, NODE_MARGIN, CORNER_TURN) for part in p.parts]
            else:
                continue
            for ring in rings:
                n = len(ring)
                for i in range(n):
                    xy.append(ring[i])
                    prv.append(ring[i - 1])
                    nxt.append(ring[(i + 1) % n])
        keep = [i for i, (x, y) in enumerate(xy) if _node_free(table, x, y, r)]
        self.xy = np.array([xy[i] for i in keep], dtype=float).reshape(-1, 2)
        self.prv = np.array([prv[i] for i in keep], dtype=float).reshape(-1, 2)
        self.nxt = np.array([nxt[i] for i in keep], dtype=float).reshape(-1, 2)
        self.pts = [(float(x), float(y)) for x, y in self.xy.tolist()]
        N = self.n = len(self.xy)
        Is, Js = [], []
        block = 256
        for s in range(0, N, block):
            rows = np.arange(s, min(N, s + block))
            a = self.xy[rows][:, None, :]
            b = self.xy[None, :, :]
            ok = _tangent_ok(a, self.prv[rows][:, None, :], self.nxt[rows][:, None, :], b)
            ok &= _tangent_ok(b, self.prv[None, :, :], self.nxt[None, :, :], a)
            ok &= np.arange(N)[None, :] > rows[:, None]
            ii, jj = np.nonzero(ok)
            Is.append(rows[ii])
            Js.append(jj)
        I = np.concatenate(Is) if Is else np.zeros(0, dtype=np.int64)
        J = np.concatenate(Js) if Js else np.zeros(0, dtype=np.int64)
        sp = table._swept_space(max(r - EDGE_TOL, 0.0))
        pts = self.pts
        valid = np.array([sp.segment_query_first(pts[i], pts[j], 0.0, HARD) is None
                          for i, j in zip(I.tolist(), J.tolist())], dtype=np.bool_)
        self.I, self.J = I[valid], J[valid]
        A, B = self.xy[self.I], self.xy[self.J]
        self.horiz = np.hypot(*(B - A).T) if len(A) else np.zeros(0)
        self.vert, _ = surface_profiles(table, A, B)
        self.cost = self.horiz + self.vert
        # edge bounding boxes: a query finds the edges a model may block without testing them all
        self.bx0, self.bx1 = np.minimum(A[:, 0], B[:, 0]), np.maximum(A[:, 0], B[:, 0])
        self.by0, self.by1 = np.minimum(A[:, 1], B[:, 1]), np.maximum(A[:, 1], B[:, 1])
        adj: list[list[tuple[int, float, int]]] = [[] for _ in range(N)]
        for e, (i, j, c) in enumerate(zip(self.I.tolist(), self.J.tolist(), self.cost.tolist())):
            adj[i].append((j, c, e))
            adj[j].append((i, c, e))
        self.adj = adj
        self._blocked: dict[tuple[float, float, float], frozenset] = {}

    def blocked_by(self, circles) -> set[int]:
        """Ids of the terrain edges that come closer than rad to any (cx, cy, rad) of ``circles``.
        Kept per circle (models stand still while many moves are measured among them)."""
        out: set[int] = set()
        cache = self._blocked
        for key in circles:
            ids = cache.get(key)
            if ids is None:
                if len(cache) >= 4096:
                    cache.clear()
                ids = cache[key] = self._blocked_one(*key)
            out |= ids
        return out

    def _blocked_one(self, cx: float, cy: float, rad: float) -> frozenset:
        k = np.flatnonzero((self.bx0 <= cx + rad) & (self.bx1 >= cx - rad)
                           & (self.by0 <= cy + rad) & (self.by1 >= cy - rad))
        if not len(k):
            return frozenset()
        ok = _seg_circle_clear_np(self.xy[self.I[k]], self.xy[self.J[k]], np.array([[cx, cy]]), np.array([rad]))[:, 0]
        return frozenset(k[~ok].tolist())


def _clear(table: Table, a, b, r) -> bool:
    a = (float(a[0]), float(a[1]))
    b = (float(b[0]), float(b[1]))
    return table._swept_space(max(r - EDGE_TOL, 0.0)).segment_query_first(a, b, 0.0, HARD) is None


def segment_clear(table: Table, a, b, radius: float, others: Sequence[Base] = (), ignore=()) -> bool:
    """Can a base of ``radius`` slide straight from a to b: no hard piece and no other base in the
    way (base contact allowed)? Climbable pieces are not in the way: they cost their height."""
    a = (float(a[0]), float(a[1]))
    b = (float(b[0]), float(b[1]))
    return bases_clear(a, b, radius, others, ignore) and _clear(table, a, b, radius)


def bases_clear(a, b, radius: float, others: Sequence[Base] = (), ignore=()) -> bool:
    """The other bases' half of ``segment_clear`` (a and b as float pairs)."""
    ign = set(ignore)
    return _clear_of(a, b, _model_circles([o for o in others if o.id not in ign], radius))


def find_path(table: Table, start, goal, radius, others: Sequence[Base] = (), ignore=(),
              max_length: float | None = None) -> Path | None:
    """Shortest path for a base of ``radius`` from start to goal, or None. With ``max_length``
    only nodes inside the ellipse |n - start| + |n - goal| <= max_length are considered (no
    path that long can leave it), and None is returned when no path is that short.

    Other models are brought in as obstacles only when they are in the way: the search runs
    with the models met so far (at first those on the straight line), and when its path
    touches another model, that model and every model within ``NEAR_MODELS`` radii of the path
    join and the search runs again. A path found with only
    some of the obstacles is at least as short as any with all of them, so the first one
    clear of every model is the shortest (up to the graph's documented approximation)."""
    r = float(radius)
    s = (float(start[0]), float(start[1]))
    t = (float(goal[0]), float(goal[1]))
    if table.position_problem(t[0], t[1], r, others, ignore) is not None:   # (its terrain half kept)
        return None
    ign = set(ignore)
    models = [o for o in others if o.id not in ign]
    if max_length is not None and math.hypot(t[0] - s[0], t[1] - s[1]) > max_length:
        return None
    circles = _model_circles(models, r)
    active = [k for k, c in enumerate(circles) if not _clear_of(s, t, (c,))]
    if not active and _clear(table, s, t, r) and table.space.segment_query_first(s, t, 0.0, CLIMBABLE) is None:
        # the straight line touches no hard piece and no model and crosses no climbable piece:
        # nothing can be shorter
        return make_path(table, [s, t])
    g = table._nav_graph(r)
    # terrain cost (or None) of each candidate edge tested: a pure function of its end points and
    # the radius, kept by the table across searches and queries (the same start's edges serve
    # every point asked round it; a search asks from the same positions in every world)
    seen = table._edge_costs(r)
    while True:
        pts = _search(table, g, s, t, r, [models[k] for k in active], max_length, seen)
        if pts is None:
            return None
        segs = list(zip(pts, pts[1:]))
        rest = [k for k in range(len(circles)) if k not in active]
        if all(_clear_of(a, b, [circles[k] for k in rest]) for a, b in segs):
            return make_path(table, pts)
        # the path met a model: bring in every model near the path (the way round one model
        # often meets the next), then search again
        near = [(cx, cy, rad + NEAR_MODELS * r) for cx, cy, rad in circles]
        active.extend(k for k in rest if not all(_clear_of(a, b, (near[k],)) for a, b in segs))


def _search(table: Table, g: NavGraph, s, t, r: float, models, max_length, seen=None):
    """Lazy A* over the terrain graph plus the start, the goal and rings round ``models``.

    Terrain edges are known; an edge to or from an extra node is a candidate when it is tangent
    at its ring ends, pushed with its straight length (a lower bound of its cost) and tested
    (swept base clear of hard pieces and models, climbing paid) only when it comes off the
    heap. ``seen`` keeps the terrain half of those tests (clear of hard pieces, and the cost)
    by end points, for the next search of the same query. Returns the turning points, or None."""
    N = g.n
    sx, sy = s
    gx, gy = t
    lim = math.inf if max_length is None else max_length + 1e-6
    circles = _model_circles(models, r)
    d = r + NODE_MARGIN
    ex, eprv, enxt, ering = [s, t], [s, t], [s, t], [False, False]
    for m in models:
        ring = _ring(CirclePart(m.x, m.y, m.radius), d)
        n = len(ring)
        for i, (x, y) in enumerate(ring):
            if math.hypot(x - sx, y - sy) + math.hypot(x - gx, y - gy) > lim:
                continue
            if not table.node_free(x, y, r):      # (kept per point: models stand still a while)
                continue
            if any(math.hypot(x - o.x, y - o.y) < r + o.radius - POS_TOL for o in models):
                continue
            ex.append((x, y))
            eprv.append(ring[i - 1])
            enxt.append(ring[(i + 1) % n])
            ering.append(True)
    X = len(ex)
    T = N + X
    exy = np.array(ex, float)
    allxy = np.vstack([g.xy, exy])
    pts = g.pts + ex
    hx = allxy[:, 0] - gx
    hy = allxy[:, 1] - gy
    h = np.sqrt(hx * hx + hy * hy)          # the heuristic: straight distance to the goal
    if max_length is None:
        reach = None
        cols = np.arange(T)
    else:
        rt = np.hypot(g.xy[:, 0] - sx, g.xy[:, 1] - sy) + h[:N] <= lim
        reach = rt.tolist()
        # only the nodes inside the ellipse can be an extra node's neighbour: the tangent tests
        # below run on those columns alone (the same elementwise answers; the rest stay False)
        cols = np.concatenate([np.flatnonzero(rt), N + np.arange(X)])
    h = h.tolist()
    # candidate edges from each extra node: tangent at the other end (terrain and model rings) ...
    eprv_a, enxt_a = np.array(eprv, float), np.array(enxt, float)
    tn = cols[cols < N]
    cxy = allxy[cols]
    cprv = np.vstack([g.prv[tn], eprv_a])
    cnxt = np.vstack([g.nxt[tn], enxt_a])
    cring = np.concatenate([np.ones(len(tn), bool), np.array(ering)])
    sub = ~cring[None, :] | _tangent_ok(cxy[None], cprv[None], cnxt[None], exy[:, None])
    # ... and at its own end when it is a ring node
    er = np.flatnonzero(ering)
    if len(er):
        sub[er] &= _tangent_ok(exy[er][:, None], eprv_a[er][:, None], enxt_a[er][:, None], cxy[None])
    cand = np.zeros((X, T), bool)
    cand[:, cols] = sub
    cand[np.arange(X), N + np.arange(X)] = False
    blocked = g.blocked_by(circles) if circles else ()
    sp = table._swept_space(max(r - EDGE_TOL, 0.0))
    # the extra nodes each terrain node may reach: a bit mask per terrain node
    if X <= 63:
        masks = (cand[:, :N].astype(np.int64) << np.arange(X, dtype=np.int64)[:, None]).sum(axis=0).tolist()
    else:
        masks = None
    extra_rows: dict[int, list[int]] = {}

    def neighbours_extra(u: int) -> list[int]:
        if u < N:
            if masks is None:
                return (np.flatnonzero(cand[:, u]) + N).tolist()
            m = masks[u]
            out = []
            while m:
                low = m & -m
                out.append(N + low.bit_length() - 1)
                m ^= low
            return out
        lst = extra_rows.get(u)
        if lst is None:
            lst = extra_rows[u] = np.flatnonzero(cand[u - N]).tolist()
        return lst

    if seen is None:
        seen = {}

    def edge_cost(a, b):
        key = (a, b)
        c = seen.get(key, False)
        if c is None:
            return None
        if circles and not _clear_of(a, b, circles):
            return None
        if c is False:
            if sp.segment_query_first(a, b, 0.0, HARD) is not None:
                c = None
            else:
                c = math.hypot(b[0] - a[0], b[1] - a[1]) + surface_profile_one(table, a, b)[0]
            seen[key] = c
        return c

    src, dst = N, N + 1
    inf = math.inf
    dist = [inf] * T
    prev = [-1] * T
    done = [False] * T
    dist[src] = 0.0
    adj = g.adj
    hyp = math.hypot
    push, pop = heapq.heappush, heapq.heappop
    heap = [(h[src], 0.0, src, -1)]
    while heap:
        f, gc, v, u = pop(heap)
        if done[v]:
            continue
        if f > lim:
            return None
        if u >= 0:            # a candidate edge u -> v, costed with its straight length: test it now
            c = edge_cost(pts[u], pts[v])
            if c is None:
                continue
            nd = dist[u] + c
            if nd < dist[v]:
                dist[v] = nd
                prev[v] = u
                push(heap, (nd + h[v], nd, v, -1))
            continue
        if gc > dist[v]:
            continue
        done[v] = True
        if v == dst:
            break
        best = dist[dst]     # no entry costing this much or more can lead to a shorter path
        if v < N:
            for w, c, e in adj[v]:
                nd = gc + c
                if nd < dist[w] and not done[w] and (reach is None or reach[w]) and e not in blocked:
                    fw = nd + h[w]
                    if fw < best:
                        dist[w] = nd
                        prev[w] = v
                        push(heap, (fw, nd, w, -1))
        vx, vy = pts[v]
        for w in neighbours_extra(v):
            if done[w]:
                continue
            wx, wy = pts[w]
            nd = gc + hyp(wx - vx, wy - vy)
            if nd < dist[w]:
                fw = nd + h[w]
                if fw < best:
                    push(heap, (fw, nd, w, v))
    if not done[dst] or dist[dst] > lim:
        return None
    seq = [dst]
    while seq[-1] != src:
        seq.append(prev[seq[-1]])
    seq.reverse()
    return [pts[i] for i in seq]


def make_path(table: Table, pts2) -> Path:
    pts2 = [(float(p[0]), float(p[1])) for p in pts2]
    if len(pts2) == 1:
        pts2 = pts2 * 2
    if len(pts2) - 1 <= PLAIN_MAX:
        horiz = 0.0
        v = 0.0
        for a, b in zip(pts2, pts2[1:]):
            horiz += math.hypot(b[0] - a[0], b[1] - a[1])
            v += surface_profile_one(table, a, b)[0]
        diff = _difficult_plain(table, pts2[:-1], pts2[1:])
    else:
        A = np.array(pts2[:-1])
        B = np.array(pts2[1:])
        horiz = float(np.hypot(*(B - A).T).sum())
        vert, _ = surface_profiles(table, A, B)
        diff = float(difficult_length(table, A, B).sum())
        v = float(vert.sum())
    pts = tuple((x, y, table.surface_height(x, y)) for x, y in pts2)
    return Path(points=pts, length=horiz + v, horizontal=horiz, vertical=v, difficult=diff)
