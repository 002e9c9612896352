"""Does a polygon's outline cross itself? The map's check (``PolygonShape``), fast.

The rule is the one maps have always been checked by: two edges that are not neighbours cross
when each one's ends lie strictly on either side of the other's line, each side read as the sign
of ``orient`` below, in floating point, a value under ``EPS`` counting as on the line. Touching,
running along each other and repeated corners are not crossings. Testing every pair of edges
took 0.4 s for a 1,000-corner piece (issue 59); this module reaches the same answer by testing
only the pairs that could cross, with numpy: those whose boxes overlap (a sweep along x or y),
whose arcs overlap as seen from the middle (a star), or that share a box of a quadtree, whichever
pairs fewest, and those on nearly one line (a table of lines).

Which pairs could cross, as computed (why skipping the others changes no answer): a sign read
wrongly by rounding needs the value within 3.34e-16 (|t1| + |t2|) of zero (the terms of
``orient``; three roundings, one per product and the subtraction, each relative), so a point
within ``D`` = 4.8e-16 L of the other edge's line, L the polygon's larger side. If every sign is
right, the edges truly cross, so they meet. If one is wrong, its point lies within ``D`` of the
other line while also (by the other signs) near where the lines meet, so the edges come within
2 D / sin(angle between them) of each other. So a pair that can cross either comes within
``MARGIN`` (angle's sine at least ``SINE``) of each other, which the sweeps find, or lies on
nearly one line (angle under ``SINE``, offsets within ``LINE_TOL``), which the table of lines
finds. Far-apart edges on one line are the case that matters: their signs are rounding noise,
and the old check sometimes called such a pair a crossing; so does this one.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

EPS = 1e-12            # |orient| under this is "on the line" (the map format's rule since it began)
SMALL = 8              # up to this many corners the plain pairwise loop is quickest
SINE = 1e-6            # edges whose lines meet at a smaller angle go to the table of lines
MARGIN = 4e-9          # × L: 2 D / SINE is 9.6e-10 L; the rest covers the box tests' rounding
LINE_TOL = 2e-6        # × L: offsets of nearly parallel lines through a shared near point: D + 0.71 L SINE
LEAF = 16              # a quadtree box with more edges than this is split (when splitting pays)
MAX_DEPTH = 24
SWEEP_PAIRS = 32       # a sweep (or the arcs) serves while it pairs each edge with this many, on average


def orient(a, b, c) -> int:
    v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return 0 if abs(v) < EPS else (1 if v > 0 else -1)


def _pairwise(pts) -> bool:
    """The rule itself, every pair: quickest for a handful of corners."""
    n = len(pts)
    for i in range(n):
        p1, p2 = pts[i], pts[(i + 1) % n]
        for j in range(i + 2, n - (i == 0)):
            q1, q2 = pts[j], pts[(j + 1) % n]
            if orient(p1, p2, q1) * orient(p1, p2, q2) < 0 and orient(q1, q2, p1) * orient(q1, q2, p2) < 0:
                return True
    return False


def polygon_crosses_itself(pts) -> bool:
    """Whether two edges of the closed outline ``pts`` cross (the rule above). A shape met
    before (the same corners, to the bit) is answered from a cache."""
    if len(pts) <= SMALL:
        return _pairwise(pts)
    return _cached(np.asarray(pts, dtype=np.float64).tobytes())


@lru_cache(maxsize=256)   # keys are the corners' bytes: 16 KB for the largest piece, 4 MB in all
def _cached(key: bytes) -> bool:
    return _crosses(np.frombuffer(key, dtype=np.float64).reshape(-1, 2))


def _signs(ax, ay, bx, by, cx, cy):
    """``orient`` on arrays, the same operations in the same order (so the same roundings)."""
    v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return np.where(np.abs(v) < EPS, 0, np.sign(v))


def _cross_any(P: np.ndarray, i: np.ndarray, j: np.ndarray) -> bool:
    """Whether edge i[k] crosses edge j[k] for some k."""
    n = len(P)
    a, b, c, d = P[i], P[(i + 1) % n], P[j], P[(j + 1) % n]
    o1 = _signs(a[:, 0], a[:, 1], b[:, 0], b[:, 1], c[:, 0], c[:, 1])
    o2 = _signs(a[:, 0], a[:, 1], b[:, 0], b[:, 1], d[:, 0], d[:, 1])
    o3 = _signs(c[:, 0], c[:, 1], d[:, 0], d[:, 1], a[:, 0], a[:, 1])
    o4 = _signs(c[:, 0], c[:, 1], d[:, 0], d[:, 1], b[:, 0], b[:, 1])
    return bool(np.any((o1 * o2 < 0) & (o3 * o4 < 0)))


def _cross_all_pairs(P: np.ndarray) -> bool:
    """Every pair at once, from the n x n table of signs (edge i, corner k): for the few shapes
    whose edges crowd so that the quadtree saves nothing (a fan of spikes meeting at a point)."""
    n = len(P)
    A, B = P, np.roll(P, -1, axis=0)
    # orient's operations, in its order, on whole rows (in place: the table is n x n)
    v = P[None, :, 1] - A[:, None, 1]
    v *= (B[:, 0] - A[:, 0])[:, None]
    w = P[None, :, 0] - A[:, None, 0]
    w *= (B[:, 1] - A[:, 1])[:, None]
    v -= w
    S = np.sign(v).astype(np.int8)
    S[np.abs(v) < EPS] = 0
    sides = S * np.roll(S, -1, axis=1)          # [i, j]: edge j's two ends as edge i's line sees them
    cross = (sides < 0) & (sides.T < 0)
    cross = np.triu(cross, 2)                   # each pair once, neighbours left out
    cross[0, n - 1] = False                     # neighbours through the closing edge
    return bool(cross.any())


NEAR_WAYS = ("sweep", "turn", "tree")   # tried in this order; the first within its budget serves


def _crosses(P: np.ndarray, ways=NEAR_WAYS) -> bool:
    n = len(P)
    i, j = _candidates(P, ways)
    if i is None:
        return _cross_all_pairs(P)
    keep = (j >= i + 2) & ~((i == 0) & (j == n - 1))
    return bool(len(i)) and _cross_any(P, i[keep], j[keep])


def _candidates(P: np.ndarray, ways=NEAR_WAYS):
    """The pairs of edges (i < j) that could cross (module doc): those that come within the
    margin of each other, found by the first of ``ways`` that finds them within its budget,
    and those on nearly one line; or (None, None) when they are so many that testing every pair
    is quicker."""
    n = len(P)
    lo, hi = P.min(axis=0), P.max(axis=0)
    size = float(max(hi - lo))
    if size == 0:               # every corner the same point: every sign is an exact zero
        return np.empty(0, np.int64), np.empty(0, np.int64)
    reach = float(np.abs(P).max()) + size
    margin = MARGIN * size + 64 * 2.0 ** -52 * reach
    budget = n * n // 8
    Q = np.roll(P, -1, axis=0)
    near = None
    for way in ways:
        if way == "sweep":
            near = _sweep_pairs(np.minimum(P, Q) - margin, np.maximum(P, Q) + margin, SWEEP_PAIRS * n)
        elif way == "turn":
            near = _turn_pairs(P, Q, margin, size, SWEEP_PAIRS * n)
        else:
            near = _quadtree_pairs(P, Q, lo, size, margin, budget)
        if near is not None:
            break
    if near is None:
        return None, None
    lined = _line_pairs(P, Q, lo + (hi - lo) / 2, size, budget)
    if lined is None:
        return None, None
    keys = np.unique(np.concatenate([near, lined]))
    if len(keys) > budget:
        return None, None
    return keys // n, keys % n


def _sweep_pairs(low: np.ndarray, high: np.ndarray, budget: int):
    """Keys (i * n + j) of the pairs of edges whose boxes (``low``, ``high``: corners, each
    edge's box grown by the margin) overlap: swept along x or y, whichever pairs fewer edges;
    None past ``budget`` pairs on both."""
    n = len(low)
    best = None
    for axis in (0, 1):
        order, cnt = _overlaps(low[:, axis], high[:, axis])
        total = int(cnt.sum())
        if total <= budget and (best is None or total < best[0]):
            best = (total, axis, order, cnt)
    if best is None:
        return None
    _, axis, order, cnt = best
    a, b = _expand(order, cnt)
    other = 1 - axis
    keep = (low[a, other] <= high[b, other]) & (low[b, other] <= high[a, other])
    return _pair_keys(a[keep], b[keep], n)


def _overlaps(start: np.ndarray, end: np.ndarray):
    """(order, counts): intervals sorted by start, and how many later ones each overlaps."""
    order = np.argsort(start, kind="stable")
    stop = np.searchsorted(start[order], end[order], "right")
    return order, stop - np.arange(len(start)) - 1


def _expand(order: np.ndarray, cnt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (sorted positions k, k + 1 .. k + cnt[k]) as the items ``order`` names."""
    total = int(cnt.sum())
    first = np.repeat(np.arange(len(cnt)), cnt)
    second = first + 1 + (np.arange(total) - np.repeat(np.cumsum(cnt) - cnt, cnt))
    return order[first], order[second]


def _turn_pairs(P: np.ndarray, Q: np.ndarray, margin: float, size: float, budget: int):
    """Keys of the pairs of edges whose arcs overlap as seen from the corners' mean point (a star,
    a round tank: the shapes whose long edges defeat a sweep along x or y): each edge's arc grown
    by the angle ``margin`` makes at its distance, so edges within ``margin`` of each other
    overlap. An edge that passes (nearly) through the point pairs with every other. None past
    ``budget`` pairs."""
    n = len(P)
    O = P.mean(axis=0)
    d = Q - P
    den = (d * d).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.clip(((O - P) * d).sum(axis=1) / den, 0.0, 1.0)
    t[den == 0] = 0.0
    far = np.hypot(*(P + t[:, None] * d - O).T) - 1e-9 * size
    wide = far <= 4 * margin
    if int(wide.sum()) * n > budget:
        return None
    ta = np.arctan2(P[:, 1] - O[1], P[:, 0] - O[0])
    tb = np.arctan2(Q[:, 1] - O[1], Q[:, 0] - O[0])
    turn = np.mod(tb - ta + math.pi, 2 * math.pi) - math.pi     # the shorter way round
    with np.errstate(divide="ignore", invalid="ignore"):
        grow = np.arcsin(np.minimum(1.0, 2 * margin / far)) + 1e-12
    start = ta + np.minimum(turn, 0) - grow
    end = ta + np.maximum(turn, 0) + grow
    narrow = np.flatnonzero(~wide)
    start, end = start[narrow], end[narrow]
    # each arc twice, a turn apart, so arcs that overlap across the cut at -pi overlap once
    order, cnt = _overlaps(np.r_[start, start + 2 * math.pi], np.r_[end, end + 2 * math.pi])
    if int(cnt.sum()) > budget:
        return None
    a, b = _expand(order, cnt)
    items = np.r_[narrow, narrow]
    a, b = items[a], items[b]
    keep = a != b
    keys = [_pair_keys(a[keep], b[keep], n)]
    for w in np.flatnonzero(wide):
        others = np.delete(np.arange(n), w)
        keys.append(_pair_keys(np.full(n - 1, w), others, n))
    return np.concatenate(keys)


def _group_pairs(edges: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All pairs within each group of ``edges`` (sorted by group; groups at ``starts``)."""
    pos = np.arange(len(edges))
    end = np.repeat(starts + counts, counts)
    reps = end - pos - 1                       # partners after each member in its group
    total = int(reps.sum())
    if total == 0:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    first = np.repeat(pos, reps)
    run_start = np.repeat(np.cumsum(reps) - reps, reps)
    second = first + 1 + (np.arange(total) - run_start)
    return edges[first], edges[second]


def _pair_keys(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    return np.minimum(a, b).astype(np.int64) * n + np.maximum(a, b)


_CHILD_X = np.array([0, 0, 1, 1])
_CHILD_Y = np.array([0, 1, 0, 1])


def _quadtree_pairs(P: np.ndarray, Q: np.ndarray, lo: np.ndarray, size: float, margin: float, budget: int):
    """Keys (i * n + j) of the pairs of edges that share a leaf of a quadtree over the polygon,
    for shapes whose edges' boxes overlap too much for a sweep (a star's long spikes): an edge
    goes into every box it comes within ``margin`` of, so any two edges that come within
    ``margin`` of each other share a leaf. None past ``budget`` pairs."""
    n = len(P)
    e = np.arange(n)
    bx = np.zeros(n, np.int64)
    by = np.zeros(n, np.int64)
    out, found = [], 0
    for level in range(MAX_DEPTH + 1):
        if not len(e):
            break
        key = (bx << 32) | by
        order = np.argsort(key, kind="stable")
        e, bx, by, key = e[order], bx[order], by[order], key[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        counts = np.diff(np.r_[starts, len(key)])
        crowded = counts > LEAF if level < MAX_DEPTH else np.zeros(len(counts), bool)
        # each crowded box's edges tried against its four children at once
        per = np.repeat(crowded, counts)
        group = np.repeat(np.repeat(np.arange(len(counts)), counts)[per], 4)
        se = np.repeat(e[per], 4)
        kx = 2 * np.repeat(bx[per], 4) + np.tile(_CHILD_X, int(per.sum()))
        ky = 2 * np.repeat(by[per], 4) + np.tile(_CHILD_Y, int(per.sum()))
        side = size / 2.0 ** (level + 1)
        hit = _touches(P[se], Q[se], lo[0] + kx * side - margin, lo[1] + ky * side - margin,
                       lo[0] + (kx + 1) * side + margin, lo[1] + (ky + 1) * side + margin)
        se, kx, ky, group = se[hit], kx[hit], ky[hit], group[hit]
        # a box each of whose children would hold all its edges (they meet at its middle) stays a leaf
        child = np.bincount((group << 2) | ((kx & 1) << 1) | (ky & 1), minlength=4 * len(counts))
        split = crowded & (child.reshape(-1, 4).min(axis=1) < counts)
        leaf = np.repeat(~split, counts)
        le, lkey = e[leaf], key[leaf]
        lstarts = np.flatnonzero(np.r_[True, lkey[1:] != lkey[:-1]]) if len(le) else np.empty(0, np.int64)
        lcounts = np.diff(np.r_[lstarts, len(le)])
        found += int((lcounts * (lcounts - 1) // 2).sum())
        if found > budget:
            return None
        a_, b_ = _group_pairs(le, lstarts, lcounts)
        out.append(_pair_keys(a_, b_, n))
        go = split[group]
        e, bx, by = se[go], kx[go], ky[go]
        if len(e) > 64 * n:     # edges in many boxes each: the tree costs more than it saves
            return None
    return np.concatenate(out) if out else np.empty(0, np.int64)


def _touches(a: np.ndarray, b: np.ndarray, left, bottom, right, top) -> np.ndarray:
    """Whether each segment a-b meets its box (Liang-Barsky clipping)."""
    t0 = np.zeros(len(a))
    t1 = np.ones(len(a))
    ok = np.ones(len(a), bool)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for s, d, low, high in ((a[:, 0], b[:, 0] - a[:, 0], left, right), (a[:, 1], b[:, 1] - a[:, 1], bottom, top)):
            flat = d == 0
            ok &= ~flat | ((s >= low) & (s <= high))
            ta, tb = (low - s) / d, (high - s) / d
            t0 = np.where(flat, t0, np.maximum(t0, np.minimum(ta, tb)))
            t1 = np.where(flat, t1, np.minimum(t1, np.maximum(ta, tb)))
    return ok & (t0 <= t1)


def _line_pairs(P: np.ndarray, Q: np.ndarray, centre: np.ndarray, size: float, budget: int):
    """Keys of the pairs of edges on nearly one line (angle under ``SINE``, offsets from
    ``centre`` within ``LINE_TOL``): binned by angle and offset, each bin read with its eight
    neighbours. An edge of no length is left out (its signs are exact zeros). None past
    ``budget`` pairs."""
    n = len(P)
    d = Q - P
    real = np.flatnonzero((d[:, 0] != 0) | (d[:, 1] != 0))
    phi = np.mod(np.arctan2(d[real, 1], d[real, 0]), math.pi)
    rel = P[real] - centre
    r = -np.sin(phi) * rel[:, 0] + np.cos(phi) * rel[:, 1]
    wrap = phi < 2.5 * SINE                 # near 0 is near pi, the normal turned round
    edges = np.r_[real, real[wrap]]
    # two edges both exactly level (or both exactly upright) never cross: each one's ends give
    # the other's line the very same product, so such pairs are not asked for
    slanted = (d[real, 0] != 0) & (d[real, 1] != 0)
    asks = np.r_[slanted, slanted[wrap]]
    phi = np.r_[phi, phi[wrap] + math.pi]
    r = np.r_[r, -r[wrap]]
    wr = LINE_TOL * size
    bp = np.floor(phi / (1.01 * SINE)).astype(np.int64)
    br = np.floor(r / wr).astype(np.int64)
    br -= br.min() - 1                      # rows of offsets 1 .. rows - 2: a neighbour stays in its row
    rows = int(br.max()) + 2
    key = bp * rows + br
    order = np.argsort(key, kind="stable")
    key, edges, asks = key[order], edges[order], asks[order]
    mine, theirs = np.flatnonzero(asks), key[asks]
    firsts, seconds, found = [], [], 0
    for dp in (-1, 0, 1):                   # a row of angles and its neighbours, three offsets each
        start = np.searchsorted(key, theirs + dp * rows - 1, "left")
        cnt = np.searchsorted(key, theirs + dp * rows + 1, "right") - start
        tot = int(cnt.sum())
        found += tot
        if found > 2 * budget:
            return None
        if tot:
            offs = np.arange(tot) - np.repeat(np.cumsum(cnt) - cnt, cnt)
            firsts.append(edges[np.repeat(mine, cnt)]); seconds.append(edges[np.repeat(start, cnt) + offs])
    if not firsts:
        return np.empty(0, np.int64)
    a, b = np.concatenate(firsts), np.concatenate(seconds)
    keep = a != b
    return _pair_keys(a[keep], b[keep], n)
