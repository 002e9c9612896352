"""Positions, paths, walking along a path, straight moves.

Paths: a visibility graph for a base of radius r. Its nodes sit outside the convex parts of every
impassable piece: around each corner, on the polygon circumscribing the arc of radius
``d = r + NODE_MARGIN`` (one node per <= 30 degrees of turn, at distance ``d / cos(step / 2)``
from the corner; circles get a ring of 12). Adjacent ring nodes therefore lie on the piece's edges
offset by exactly d, so the graph's paths are legal and at most ``2 tan(15°) / (π/6) - 1 ≈ 2.3%``
longer than the exact shortest path on the rounded-corner arcs (plus ``NODE_MARGIN`` of clearance):
about 0.4 mm for a 25 mm base turning 90° round a corner. Only edges tangent to the rings at both
ends can lie on a shortest path, so only those are tested (pymunk ``segment_query_first`` with
radius r - EDGE_TOL on the hard pieces: a swept circle). Nodes and terrain edges are built once
per radius per table and cached; other models (few) add their own rings and are checked per query.

Climbable impassable pieces (walls, crates...) and climbable open pieces (hills) are not obstacles
for paths: an edge crossing them pays the change of surface height |dz| at each boundary, up and
down, judged along the base's centre line (the surface under the centre is the top of the highest
climbable piece there). Impassable non-climbable pieces and the table edge are never crossed.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np
import pymunk

from .bases import Base
from .geometry import CirclePart, segment_intervals, union_length
from .terrain import CAT_CLIMB_BLOCK, CAT_CLIMBABLE, CAT_HARD

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table

NODE_MARGIN = 0.1    # mm of clearance kept by graph nodes
EDGE_TOL = 0.01      # mm: a base may touch (base contact) but not overlap
POS_TOL = 1e-6
MAX_TURN = math.radians(30.0)

HARD = pymunk.ShapeFilter(mask=CAT_HARD)
IMPASSABLE = pymunk.ShapeFilter(mask=CAT_HARD | CAT_CLIMB_BLOCK)
CLIMBABLE = pymunk.ShapeFilter(mask=CAT_CLIMBABLE)


@dataclass(frozen=True, slots=True)
class Path:
    points: tuple[tuple[float, float, float], ...]   # (x, y, z) turning points, z = surface height
    length: float        # horizontal + vertical, mm
    horizontal: float
    vertical: float      # climbing, up and down
    difficult: float     # mm of the horizontal run inside difficult terrain


@dataclass(frozen=True, slots=True)
class StraightMove:
    x: float
    y: float
    z: float
    travelled: float
    stopped_by: str | None   # label of what stopped it ("the table edge", a piece's label, a model id)


# --------------------------------------------------------------------------- positions

def terrain_problem(table: "Table", x: float, y: float, radius: float) -> str | None:
    if (x - radius < -POS_TOL or y - radius < -POS_TOL or x + radius > table.width + POS_TOL
            or y + radius > table.height + POS_TOL):
        return "off the table"
    hits = table.space.point_query((x, y), radius, IMPASSABLE)
    bad = []
    for h in hits:
        if h.distance >= radius - POS_TOL:
            continue   # touching is fine (base contact)
        p = table.pieces[h.shape.piece_index]
        if p.hard or not p.contains(x, y):
            bad.append(p)
    if bad:
        p = min(bad, key=lambda q: q.index)
        return f"overlaps the {p.label}"
    return None


def position_problem(table: "Table", x, y, radius, others: Sequence[Base] = (), ignore=()) -> str | None:
    prob = terrain_problem(table, x, y, radius)
    if prob:
        return prob
    ign = set(ignore)
    for o in others:
        if o.id in ign:
            continue
        if math.hypot(x - o.x, y - o.y) < radius + o.radius - POS_TOL:
            return f"overlaps {o.id}"
    return None


def clearance_candidates(table: "Table", x, y, radius, others: Sequence[Base] = (), reach=math.inf,
                         rounds: int = 3) -> list[tuple[float, float]]:
    """Points near (x, y) where a base of ``radius`` stops overlapping what it overlaps there.

    For every terrain part (grown by ``radius``), other base or table edge the point is inside,
    the nearest point just outside it; then the same from each of those points, ``rounds`` deep,
    keeping points within ``reach`` of (x, y). With one thing in the way the first round holds
    the exact nearest clear point; with several, later rounds slide along their boundaries. The
    caller checks each candidate (``position_problem``) and picks by distance."""
    sp = table._swept_space(radius)
    eps = 1e-3                                    # mm beyond the boundary
    lo_x, hi_x, lo_y, hi_y = radius, table.width - radius, radius, table.height - radius
    out: list[tuple[float, float]] = []
    seen: set = set()
    frontier = [(float(x), float(y))]
    # two bases in the way: where the circles the centre must stay outside of cross (exact)
    near = [o for o in others if math.hypot(x - o.x, y - o.y) < radius + o.radius + reach]
    for i, a in enumerate(near):
        for b in near[i + 1:]:
            for q in _circle_crossings((a.x, a.y), radius + a.radius + eps, (b.x, b.y), radius + b.radius + eps):
                if math.hypot(q[0] - x, q[1] - y) <= reach:
                    out.append(q)
    for _ in range(rounds):
        nxt = []
        for px, py in frontier:
            pushes = []
            for h in sp.point_query((px, py), 0.0, IMPASSABLE):
                if h.distance >= 0:
                    continue
                qx, qy = h.point.x, h.point.y
                d = math.hypot(qx - px, qy - py) or 1.0
                pushes.append((qx + (qx - px) / d * eps, qy + (qy - py) / d * eps))
            for o in others:
                d = math.hypot(px - o.x, py - o.y)
                need = radius + o.radius
                if d < need:
                    ux, uy = ((px - o.x) / d, (py - o.y) / d) if d > 1e-9 else (1.0, 0.0)
                    pushes.append((o.x + ux * (need + eps), o.y + uy * (need + eps)))
            if not (lo_x <= px <= hi_x and lo_y <= py <= hi_y):
                pushes.append((min(max(px, lo_x), hi_x), min(max(py, lo_y), hi_y)))
            for q in pushes:
                key = (round(q[0], 3), round(q[1], 3))
                if key in seen or math.hypot(q[0] - x, q[1] - y) > reach:
                    continue
                seen.add(key)
                out.append(q)
                nxt.append(q)
        frontier = nxt
    return out


def _circle_crossings(c0, r0, c1, r1) -> list[tuple[float, float]]:
    d = math.dist(c0, c1)
    if d <= 1e-12 or d > r0 + r1 or d < abs(r0 - r1):
        return []
    a = (r0 * r0 - r1 * r1 + d * d) / (2 * d)
    h = math.sqrt(max(0.0, r0 * r0 - a * a))
    ux, uy = (c1[0] - c0[0]) / d, (c1[1] - c0[1]) / d
    mx, my = c0[0] + ux * a, c0[1] + uy * a
    return [(mx - uy * h, my + ux * h), (mx + uy * h, my - ux * h)]


# --------------------------------------------------------------------------- climbing profile

def surface_profiles(table: "Table", A: np.ndarray, B: np.ndarray):
    """Vertical climbing and breakpoints along segments A[i] -> B[i].

    Returns (vertical (S,), profiles) where profiles[i] is None when the segment touches no
    climbable piece, else a list of (t_start, t_end, z) pieces covering [0, 1]."""
    A = np.asarray(A, float).reshape(-1, 2)
    B = np.asarray(B, float).reshape(-1, 2)
    vert = np.zeros(len(A))
    profiles: list = [None] * len(A)
    seg, owner, t0, t1 = segment_intervals(table._climb_arrays, A, B)
    if len(seg) == 0:
        return vert, profiles
    heights = table._props["height"]
    order = np.argsort(seg, kind="stable")
    seg, owner, t0, t1 = seg[order], owner[order], t0[order], t1[order]
    bounds = np.flatnonzero(np.diff(seg)) + 1
    for grp in np.split(np.arange(len(seg)), bounds):
        s = int(seg[grp[0]])
        iv = [(float(t0[g]), float(t1[g]), float(heights[owner[g]])) for g in grp]
        prof = _profile(iv)
        profiles[s] = prof
        vert[s] = sum(abs(prof[i][2] - prof[i - 1][2]) for i in range(1, len(prof)))
    return vert, profiles


def _profile(iv):
    ts = sorted({0.0, 1.0, *[a for a, _, _ in iv], *[b for _, b, _ in iv]})
    out = []
    for a, b in zip(ts, ts[1:]):
        if b - a <= 1e-12:
            continue
        m = (a + b) / 2
        z = max([h for s, e, h in iv if s <= m <= e] + [0.0])
        if out and out[-1][2] == z:
            out[-1] = (out[-1][0], b, z)
        else:
            out.append((a, b, z))
    return out


def difficult_length(table: "Table", A, B) -> np.ndarray:
    A = np.asarray(A, float).reshape(-1, 2)
    B = np.asarray(B, float).reshape(-1, 2)
    L = np.hypot(*(B - A).T)
    out = np.zeros(len(A))
    seg, _, t0, t1 = segment_intervals(table._difficult_arrays, A, B)
    for s in set(seg.tolist()):
        k = seg == s
        out[s] = union_length(list(zip(t0[k].tolist(), t1[k].tolist()))) * L[s]
    return out


# --------------------------------------------------------------------------- graph

def _ring(part, d: float):
    """Nodes around a convex part offset by d (circumscribed), in ring order."""
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
        m = max(1, math.ceil(turn / MAX_TURN - 1e-9))
        step = turn / m
        R = d / math.cos(step / 2)
        vx, vy = pts[k]
        for i in range(m):
            a = a_in + (i + 0.5) * step
            out.append((vx + R * math.cos(a), vy + R * math.sin(a)))
    return out


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


def _seg_circle_clear(A, B, C, rad):
    """(E, M) boolean: segment A[e]-B[e] keeps at least rad[m] from centre C[m]."""
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


class NavGraph:
    """Terrain-only visibility graph for one base radius (cached by the table)."""

    def __init__(self, table: "Table", radius: float):
        self.radius = r = radius
        d = r + NODE_MARGIN
        xy, prv, nxt = [], [], []
        for p in table.pieces:
            if not p.impassable:
                continue
            for part in p.parts:
                ring = _ring(part, d)
                n = len(ring)
                for i in range(n):
                    xy.append(ring[i])
                    prv.append(ring[i - 1])
                    nxt.append(ring[(i + 1) % n])
        keep = [i for i, (x, y) in enumerate(xy) if terrain_problem(table, x, y, r) is None]
        self.xy = np.array([xy[i] for i in keep], dtype=float).reshape(-1, 2)
        self.prv = np.array([prv[i] for i in keep], dtype=float).reshape(-1, 2)
        self.nxt = np.array([nxt[i] for i in keep], dtype=float).reshape(-1, 2)
        N = len(self.xy)
        I, J = [], []
        block = 256
        for s in range(0, N, block):
            rows = np.arange(s, min(N, s + block))
            a = self.xy[rows][:, None, :]
            b = self.xy[None, :, :]
            ok = _tangent_ok(a, self.prv[rows][:, None, :], self.nxt[rows][:, None, :], b)
            ok &= _tangent_ok(b, self.prv[None, :, :], self.nxt[None, :, :], a)
            ok &= np.arange(N)[None, :] > rows[:, None]
            ii, jj = np.nonzero(ok)
            I.append(rows[ii])
            J.append(jj)
        I = np.concatenate(I) if I else np.zeros(0, dtype=np.int64)
        J = np.concatenate(J) if J else np.zeros(0, dtype=np.int64)
        valid = np.array([_clear(table, self.xy[i], self.xy[j], r) for i, j in zip(I.tolist(), J.tolist())],
                         dtype=bool)
        self.I, self.J = I[valid], J[valid]
        A, B = self.xy[self.I], self.xy[self.J]
        self.horiz = np.hypot(*(B - A).T) if len(A) else np.zeros(0)
        self.vert, _ = surface_profiles(table, A, B)
        self.cost = self.horiz + self.vert
        adj: list[list[tuple[int, float, int]]] = [[] for _ in range(N)]
        for e, (i, j, c) in enumerate(zip(self.I.tolist(), self.J.tolist(), self.cost.tolist())):
            adj[i].append((j, c, e))
            adj[j].append((i, c, e))
        self.adj = adj


def _clear(table: "Table", a, b, r) -> bool:
    a = (float(a[0]), float(a[1]))
    b = (float(b[0]), float(b[1]))
    return table._swept_space(max(r - EDGE_TOL, 0.0)).segment_query_first(a, b, 0.0, HARD) is None


def segment_clear(table: "Table", a, b, radius: float, others: Sequence[Base] = (), ignore=()) -> bool:
    """Can a base of ``radius`` slide straight from a to b: no hard piece and no other base in the
    way (base contact allowed)? Climbable pieces are not in the way: they cost their height."""
    if not _clear(table, a, b, radius):
        return False
    ign = set(ignore)
    models = [o for o in others if o.id not in ign]
    if not models:
        return True
    MC = np.array([(m.x, m.y) for m in models], dtype=float)
    MR = np.array([m.radius + radius - EDGE_TOL for m in models], dtype=float)
    return bool(_seg_circle_clear(np.array([a], float), np.array([b], float), MC, MR).all())


def _straight_is_shortest(table: "Table", a, b, r: float, models) -> bool:
    """The straight line is the shortest path when the swept base touches no hard piece and no
    model and its centre line crosses no climbable piece (so no climb could be saved by a detour).
    Most moves in the open end here, without building the graph's extra edges."""
    if not _clear(table, a, b, r):
        return False
    if table.space.segment_query_first(a, b, 0.0, CLIMBABLE) is not None:
        return False
    if models:
        MC = np.array([(m.x, m.y) for m in models], dtype=float)
        MR = np.array([m.radius + r - EDGE_TOL for m in models], dtype=float)
        return bool(_seg_circle_clear(np.array([a], float), np.array([b], float), MC, MR).all())
    return True


def find_path(table: "Table", start, goal, radius, others: Sequence[Base] = (), ignore=(),
              max_length: float | None = None) -> Path | None:
    """Shortest path for a base of ``radius`` from start to goal, or None. With ``max_length``
    only nodes inside the ellipse |n - start| + |n - goal| <= max_length are considered (no
    path that long can leave it), and None is returned when no path is that short."""
    r = float(radius)
    sx, sy = float(start[0]), float(start[1])
    gx, gy = float(goal[0]), float(goal[1])
    if position_problem(table, gx, gy, r, others, ignore) is not None:
        return None
    ign = set(ignore)
    models = [o for o in others if o.id not in ign]
    if max_length is not None and math.hypot(gx - sx, gy - sy) > max_length:
        return None
    if _straight_is_shortest(table, (sx, sy), (gx, gy), r, models):
        return make_path(table, [(sx, sy), (gx, gy)])

    def in_reach(xy: np.ndarray) -> np.ndarray:
        if max_length is None:
            return np.ones(len(xy), bool)
        return (np.hypot(xy[:, 0] - sx, xy[:, 1] - sy) + np.hypot(xy[:, 0] - gx, xy[:, 1] - gy)
                <= max_length + 1e-6)

    g = table._nav_graph(r)
    N = len(g.xy)
    M = len(models)
    MC = np.array([(m.x, m.y) for m in models], dtype=float).reshape(-1, 2)
    MR = np.array([m.radius + r - EDGE_TOL for m in models], dtype=float)
    # extra nodes: start, goal, rings around models
    ex_xy, ex_prv, ex_nxt, ex_ring = [(sx, sy), (gx, gy)], [(sx, sy), (gx, gy)], [(sx, sy), (gx, gy)], [False, False]
    d = r + NODE_MARGIN
    for m in models:
        ring = _ring(CirclePart(m.x, m.y, m.radius), d)
        n = len(ring)
        reach = in_reach(np.asarray(ring, float).reshape(-1, 2))
        for i in range(n):
            x, y = ring[i]
            if reach[i] and position_problem(table, x, y, r, models) is None:
                ex_xy.append(ring[i])
                ex_prv.append(ring[i - 1])
                ex_nxt.append(ring[(i + 1) % n])
                ex_ring.append(True)
    X = len(ex_xy)
    exy = np.array(ex_xy, float)
    eprv = np.array(ex_prv, float)
    enxt = np.array(ex_nxt, float)
    ering = np.array(ex_ring)
    allxy = np.vstack([g.xy, exy]) if N else exy
    allprv = np.vstack([g.prv, eprv]) if N else eprv
    allnxt = np.vstack([g.nxt, enxt]) if N else enxt
    allring = np.concatenate([np.ones(N, bool), ering])
    reachable = in_reach(allxy)
    # terrain edges blocked by models
    blocked_e = None
    if M and len(g.I):
        clear = _seg_circle_clear(g.xy[g.I], g.xy[g.J], MC, MR).all(axis=1)
        blocked_e = ~clear
    # candidate extra edges: extra node k (index N+k) to every node with a smaller index-in-all
    ei, ej = [], []
    tot = N + X
    for k in range(X):
        a = N + k
        others_idx = np.arange(tot)
        others_idx = others_idx[others_idx != a]
        if k >= 2:
            # ring nodes: only after the start/goal and their own predecessors to avoid duplicates
            pass
        ok = reachable[others_idx].copy()
        A = allxy[a][None, :]
        Bx = allxy[others_idx]
        if ering[k]:
            ok &= _tangent_ok(np.broadcast_to(A, Bx.shape), np.broadcast_to(eprv[k], Bx.shape),
                              np.broadcast_to(enxt[k], Bx.shape), Bx)
        rb = allring[others_idx]
        ok &= ~rb | _tangent_ok(Bx, allprv[others_idx], allnxt[others_idx], np.broadcast_to(A, Bx.shape))
        # each unordered pair once: extra-extra pairs only when the other index is larger
        ok &= (others_idx < N) | (others_idx > a)
        sel = others_idx[ok]
        ei.extend([a] * len(sel))
        ej.extend(sel.tolist())
    ei = np.array(ei, dtype=np.int64)
    ej = np.array(ej, dtype=np.int64)
    if len(ei):
        A, B = allxy[ei], allxy[ej]
        ok = np.ones(len(ei), bool)
        if M:
            ok &= _seg_circle_clear(A, B, MC, MR).all(axis=1)
        idx = np.flatnonzero(ok)
        ok2 = np.array([_clear(table, A[i], B[i], r) for i in idx.tolist()], dtype=bool)
        idx = idx[ok2] if len(idx) else idx
        ei, ej = ei[idx], ej[idx]
        A, B = allxy[ei], allxy[ej]
        vert, _ = surface_profiles(table, A, B)
        ecost = np.hypot(*(B - A).T) + vert
    else:
        ecost = np.zeros(0)
    extra_adj: dict[int, list[tuple[int, float]]] = {}
    for i, j, c in zip(ei.tolist(), ej.tolist(), ecost.tolist()):
        extra_adj.setdefault(i, []).append((j, c))
        extra_adj.setdefault(j, []).append((i, c))
    # A* from start (N) to goal (N+1)
    src, dst = N, N + 1
    gxy = allxy
    dist = {src: 0.0}
    prev: dict[int, int] = {}
    heap = [(math.hypot(gx - sx, gy - sy), 0.0, src)]
    done = set()
    bl = blocked_e
    while heap:
        f, gc, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        if u == dst:
            break
        nbrs = []
        if u < N:
            if bl is None:
                nbrs.extend((v, c) for v, c, _ in g.adj[u])
            else:
                nbrs.extend((v, c) for v, c, e in g.adj[u] if not bl[e])
        nbrs.extend(extra_adj.get(u, ()))
        for v, c in nbrs:
            if not reachable[v]:
                continue
            nd = gc + c
            if nd < dist.get(v, math.inf) - 1e-12:
                dist[v] = nd
                prev[v] = u
                hx = gxy[v, 0] - gx
                hy = gxy[v, 1] - gy
                heapq.heappush(heap, (nd + math.sqrt(hx * hx + hy * hy), nd, v))
    if dst not in done:
        return None
    if max_length is not None and dist[dst] > max_length + 1e-6:
        return None
    seq = [dst]
    while seq[-1] != src:
        seq.append(prev[seq[-1]])
    seq.reverse()
    pts2 = [(float(allxy[i, 0]), float(allxy[i, 1])) for i in seq]
    return make_path(table, pts2)


def make_path(table: "Table", pts2) -> Path:
    pts2 = [(float(p[0]), float(p[1])) for p in pts2]
    if len(pts2) == 1:
        pts2 = pts2 * 2
    A = np.array(pts2[:-1])
    B = np.array(pts2[1:])
    horiz = float(np.hypot(*(B - A).T).sum())
    vert, _ = surface_profiles(table, A, B)
    diff = float(difficult_length(table, A, B).sum())
    pts = tuple((x, y, table.surface_height(x, y)) for x, y in pts2)
    v = float(vert.sum())
    return Path(points=pts, length=horiz + v, horizontal=horiz, vertical=v, difficult=diff)


# --------------------------------------------------------------------------- walking

def walk(table: "Table", path: Path, allowance: float, radius: float, others=(), ignore=()):
    """Furthest legal point along ``path`` whose cost (horizontal + climbing) is <= allowance.

    Climbing happens at a boundary all at once: a base that cannot pay the whole climb stops
    before it. Where the allowance runs out at an illegal spot (overlapping a model, half over a
    wall), the base backs off along the path to the nearest legal position."""
    pts = [(p[0], p[1]) for p in path.points]
    if len(pts) == 1:
        pts = pts * 2
    A = np.array(pts[:-1], float)
    B = np.array(pts[1:], float)
    vert, profiles = surface_profiles(table, A, B)
    left = float(allowance)
    # walk forward; remember a parameter s = (segment index, t) where we stop
    stop = (len(A) - 1, 1.0)
    z_prev = None
    for i in range(len(A)):
        L = float(math.hypot(*(B[i] - A[i])))
        prof = profiles[i] or [(0.0, 1.0, table.surface_height(*A[i]))]
        if z_prev is None:
            z_prev = prof[0][2]
        done = False
        for (ta, tb, z) in prof:
            climb = abs(z - z_prev)
            if climb > left + 1e-9:
                stop = (i, max(ta - 1e-6, 0.0))
                done = True
                break
            left -= climb
            z_prev = z
            run = (tb - ta) * L
            if run > left + 1e-9:
                stop = (i, ta + (left / L if L > 0 else 0.0))
                done = True
                break
            left -= run
        if done:
            break

    def at(s):
        i, t = s
        return (A[i, 0] + t * (B[i, 0] - A[i, 0]), A[i, 1] + t * (B[i, 1] - A[i, 1]))

    def legal(s):
        x, y = at(s)
        return position_problem(table, x, y, radius, others, ignore) is None

    def back(s, step):
        i, t = s
        L = float(math.hypot(*(B[i] - A[i]))) or 1.0
        t -= step / L
        while t < 0 and i > 0:
            over = -t * L
            i -= 1
            L = float(math.hypot(*(B[i] - A[i]))) or 1.0
            t = 1.0 - over / L
        return (i, max(t, 0.0))

    s = stop
    if not legal(s):
        step = max(radius / 8.0, 0.5)
        bad = s
        while True:
            nxt = back(bad, step)
            if nxt == bad or (nxt[0] == 0 and nxt[1] == 0.0):
                s = (0, 0.0)
                if not legal(s):
                    s = nxt
                break
            if legal(nxt):
                # bisect between the legal nxt and the illegal bad (same or neighbouring segment)
                good = nxt
                lo = 0.0
                hi = step
                for _ in range(20):
                    mid = (lo + hi) / 2
                    cand = back(bad, mid)
                    if legal(cand):
                        hi = mid
                        good = cand
                    else:
                        lo = mid
                s = good
                break
            bad = nxt
    x, y = at(s)
    return (float(x), float(y), table.surface_height(x, y))


# --------------------------------------------------------------------------- straight moves

def straight_move(table: "Table", base: Base, heading_deg: float, distance: float, others=(),
                  max_climb: float = 0.0) -> StraightMove:
    """Move a base's centre in a straight line (jumps, knock-backs), stopping at the table edge,
    at impassable terrain taller than ``base.z + max_climb`` and at other models; it then backs
    off to a legal spot if it would end overlapping something (e.g. a barrel it jumped over)."""
    r = base.radius
    h = math.radians(heading_deg)
    ux, uy = math.cos(h), math.sin(h)
    sx, sy = base.x, base.y
    dist = max(0.0, float(distance))
    best, by = dist, None
    # table edge
    for c, u, lo, hi in ((sx, ux, r, table.width - r), (sy, uy, r, table.height - r)):
        if u > 1e-12:
            t = (hi - c) / u
        elif u < -1e-12:
            t = (lo - c) / u
        else:
            continue
        t = max(t, 0.0)
        if t < best:
            best, by = t, "the table edge"
    limit = base.z + max_climb + 1e-9
    end = (sx + ux * dist, sy + uy * dist)
    if dist > 0:
        for hit in table._swept_space(r).segment_query((sx, sy), end, 0.0, IMPASSABLE):
            sh = hit.shape.orig
            p = table.pieces[sh.piece_index]
            if p.height <= limit:
                continue
            pq = sh.point_query((sx, sy))
            if pq.distance < r + EDGE_TOL:
                # already touching: blocked only if moving into it
                if pq.gradient.x * ux + pq.gradient.y * uy < 0:
                    t = 0.0
                else:
                    continue
            else:
                t = hit.alpha * dist
            if t < best:
                best, by = t, p.label
        for o in others:
            if o.id == base.id:
                continue
            fx, fy = sx - o.x, sy - o.y
            R = r + o.radius
            b = fx * ux + fy * uy
            c = fx * fx + fy * fy - R * R
            if c < 0:
                if b < 0:
                    t = 0.0
                else:
                    continue
            else:
                disc = b * b - c
                if disc <= 0 or b >= 0:
                    continue
                t = -b - math.sqrt(disc)
            if t < best:
                best, by = t, o.id
    t = best if by in (None, "the table edge") else max(0.0, best - EDGE_TOL)
    # back off to a legal spot (something passed over that cannot be stood on)
    while t > 0 and position_problem(table, sx + ux * t, sy + uy * t, r, others, (base.id,)) is not None:
        t = max(0.0, t - 0.5)
    x, y = sx + ux * t, sy + uy * t
    z = table.surface_height(x, y)
    return StraightMove(x=x, y=y, z=z, travelled=t, stopped_by=by)
