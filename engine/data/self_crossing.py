"""Does a polygon's outline cross itself? The map's check (``PolygonShape``), fast.

The rule is the one maps have always been checked by: two edges that are not neighbours cross
when each one's ends lie strictly on either side of the other's line, each side read as the sign
of ``orient`` below, in floating point, a value under ``EPS`` counting as on the line. Touching,
running along each other and repeated corners are not crossings. Testing every pair of edges
took 0.4 s for a 1,000-corner piece (issue 59); this module reaches the same answer by testing
only the pairs that could cross, with numpy: those whose boxes overlap (a sweep along x or y),
or along the outline's main direction), or whose arcs overlap as seen from one point (a star, a
fan of spikes), and those on nearly one line (a table of lines). Where they are too many (a
sliver: every edge on nearly the line of every other) the whole n x n table of signs serves.

Which pairs could cross, as computed (why skipping the others changes no answer): a sign read
wrongly by rounding needs the value within 3.34e-16 (|t1| + |t2|) of zero (the terms of
``orient``; three roundings, one per product and the subtraction, each relative), so a point
within ``D`` = 4.8e-16 L of the other edge's line, L the polygon's larger side. If every sign is
right, the edges truly cross, so they meet. If one is wrong, its point lies within ``D`` of the
other line while also (by the other signs) near where the lines meet, so the edges come within
2 D / sin(angle between them) of each other. So a pair that can cross either comes within
``MARGIN`` (angle's sine at least ``SINE``) of each other, which the sweeps find, or lies on
nearly one line (angle under ``SINE``, offsets within ``LINE_TOL``), which the table of lines
finds (less the edges so short, and so nearly on their neighbours' lines, that no rounding lifts
their signs past ``EPS``: every such sign is zero, so no such pair crosses). Far-apart edges on one line are the case that matters: their signs are rounding noise,
and the old check sometimes called such a pair a crossing; so does this one.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

EPS = 1e-12            # |orient| under this is "on the line" (the map format's rule since it began)
SMALL = 12             # up to this many corners the plain pairwise loop is quickest,
TABLE = 300            # then up to this many the whole table of signs (0.03 ms at 32, 0.5 ms at 300)
SINE = 1e-9            # edges whose lines meet at a smaller angle go to the table of lines
MARGIN = 2e-6          # × L: 2 D / SINE is 9.6e-7 L; the rest covers the box tests' rounding
LINE_TOL = 2e-9        # × L: offsets of nearly parallel lines through a shared near point: D + 0.71 L SINE
CLEAR = 1e-2           # × L: seen from a hub, edges passing this near it are near every edge
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


def _check(P: np.ndarray) -> bool:
    return _cross_all_pairs(P) if len(P) <= TABLE else _crosses(P)


@lru_cache(maxsize=256)   # keys are the corners' bytes: 16 KB for the largest piece, 4 MB in all
def _cached(key: bytes) -> bool:
    return _check(np.frombuffer(key, dtype=np.float64).reshape(-1, 2))


def _signs(ax, ay, bx, by, cx, cy) -> np.ndarray:
    """``orient`` on arrays, the same operations in the same order (so the same roundings)."""
    v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (v >= EPS).view(np.int8) - (v <= -EPS).view(np.int8)


def _cross_any(P: np.ndarray, i: np.ndarray, j: np.ndarray) -> bool:
    """Whether edge i[k] crosses edge j[k] for some k."""
    n = len(P)
    x, y = P[:, 0], P[:, 1]
    i2, j2 = i + 1, j + 1
    i2[i2 == n] = 0
    j2[j2 == n] = 0
    ax, ay, bx, by, cx, cy, dx, dy = x[i], y[i], x[i2], y[i2], x[j], y[j], x[j2], y[j2]
    apart = _signs(ax, ay, bx, by, cx, cy) * _signs(ax, ay, bx, by, dx, dy) < 0
    if not apart.any():
        return False
    ax, ay, bx, by, cx, cy, dx, dy = (v[apart] for v in (ax, ay, bx, by, cx, cy, dx, dy))
    return bool(np.any(_signs(cx, cy, dx, dy, ax, ay) * _signs(cx, cy, dx, dy, bx, by) < 0))


def _cross_all_pairs(P: np.ndarray, block: int = 64) -> bool:
    """Every pair at once, from the n x n table of signs S[i, k] (edge i's line, corner k): for
    outlines of a few hundred corners, where it is quickest, and for the few whose edges crowd so
    that no way of finding near pairs saves anything (a sliver: all its edges on nearly one line).
    Neighbours need no leaving out: a corner an edge ends at is an exact zero on its line."""
    n = len(P)
    A, B = P, np.roll(P, -1, axis=0)
    dx, dy = (B[:, 0] - A[:, 0])[:, None], (B[:, 1] - A[:, 1])[:, None]
    S = np.empty((n, n), np.int8)
    for s in range(0, n, block):             # orient's operations, in its order, a block of rows at a time
        e = min(n, s + block)
        v = P[None, :, 1] - A[s:e, 1, None]
        v *= dx[s:e]
        w = P[None, :, 0] - A[s:e, 0, None]
        w *= dy[s:e]
        v -= w
        S[s:e] = (v >= EPS).view(np.int8)
        S[s:e] -= (v <= -EPS).view(np.int8)
    sides = np.empty((n, n), np.int8)        # [i, j]: edge j's two ends as edge i's line sees them
    np.multiply(S[:, :-1], S[:, 1:], out=sides[:, :-1])
    np.multiply(S[:, -1], S[:, 0], out=sides[:, -1])
    apart = sides < 0
    return bool((apart & apart.T).any())


NEAR_WAYS = ("sweep", "turn")   # tried in this order; the first within its budget serves


def _crosses(P: np.ndarray, ways=NEAR_WAYS, budget: int | None = None) -> bool:
    n = len(P)
    i, j = _candidates(P, ways, n * n // 32 if budget is None else budget)
    if i is None:
        return _cross_all_pairs(P)
    keep = (j >= i + 2) & ~((i == 0) & (j == n - 1))
    return bool(len(i)) and _cross_any(P, i[keep], j[keep])


def _candidates(P: np.ndarray, ways, budget: int):
    """The pairs of edges (i < j) that could cross (module doc): those that come within the
    margin of each other, found by the first of ``ways`` that finds them within its budget,
    and those on nearly one line; or (None, None) past ``budget`` pairs (by default n^2 / 32,
    past which the whole table of signs is quicker)."""
    n = len(P)
    lo, hi = P.min(axis=0), P.max(axis=0)
    size = float(max(hi - lo))
    if size == 0:               # every corner the same point: every sign is an exact zero
        return np.empty(0, np.int64), np.empty(0, np.int64)
    reach = float(np.abs(P).max()) + size
    margin = MARGIN * size + 64 * 2.0 ** -52 * reach
    Q = np.roll(P, -1, axis=0)
    near = None
    for way in ways:
        if way == "sweep":
            near = _sweep_pairs(P, Q, margin, reach, SWEEP_PAIRS * n)
        else:
            near = _turn_pairs(P, Q, margin, size, SWEEP_PAIRS * n)
        if near is not None:
            break
    if near is None:
        return None, None
    lined = _line_pairs(P, Q, lo + (hi - lo) / 2, size, reach, budget)
    if lined is None:
        return None, None
    keys = np.sort(np.concatenate([near, lined]))
    keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])] if len(keys) else keys
    if len(keys) > budget:
        return None, None
    return keys // n, keys % n


def _turned(P: np.ndarray, Q: np.ndarray, margin: float, reach: float):
    """The edges' boxes along the outline's main direction, when it is turned (a turned building,
    a comb: their boxes along x and y overlap a lot), else None. Two points within ``margin``
    stay within it in any frame; the turn's rounding (a few units in the last place of
    ``reach``) is added."""
    d = Q - P
    length = np.hypot(d[:, 0], d[:, 1])
    folded = np.mod(np.arctan2(d[:, 1], d[:, 0]), math.pi / 2)     # a direction and its square
    main = (np.argmax(np.bincount((folded / (math.pi / 180)).astype(np.int64), length, 91)) + 0.5) * math.pi / 180
    if not 2 < main / (math.pi / 180) < 88:
        return None
    c, s = math.cos(main), math.sin(main)
    turn = np.array([[c, -s], [s, c]])
    A, B = P @ turn, Q @ turn
    grown = margin + 16 * 2.0 ** -52 * reach
    return np.minimum(A, B) - grown, np.maximum(A, B) + grown


def _sweep_pairs(P: np.ndarray, Q: np.ndarray, margin: float, reach: float, budget: int):
    """Keys (i * n + j) of the pairs of edges whose boxes (grown by ``margin``) overlap: swept
    along x or y, or along the outline's main direction when x and y pair many; whichever pairs
    fewest. None past ``budget`` pairs on every one."""
    n = len(P)
    best = None
    frames = [(np.minimum(P, Q) - margin, np.maximum(P, Q) + margin)]
    for low, high in frames:
        for axis in (0, 1):
            order, cnt = _overlaps(low[:, axis], high[:, axis])
            total = int(cnt.sum())
            if total <= budget and (best is None or total < best[0]):
                best = (total, low, high, axis, order, cnt)
        if len(frames) == 1 and (best is None or best[0] > 4 * n):
            turned = _turned(P, Q, margin, reach)
            if turned is not None:
                frames.append(turned)       # read next, by this same loop
    if best is None:
        return None
    _, low, high, axis, order, cnt = best
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
    """Keys of the pairs of edges whose arcs overlap as seen from one point (a star, a round tank,
    a fan of spikes: the shapes whose long edges defeat a sweep along x or y): each edge's arc is
    grown by the angle ``margin`` makes at its distance, so edges within ``margin`` of each other
    overlap. The point is the corner the outline comes back to most (three times or more: a hub
    where spikes meet), else the corners' mean. An edge from the hub (a spoke) is its ray, grown
    by the angle ``margin`` makes at ``CLEAR``: two spokes share the hub, so never cross; an edge
    passing within ``CLEAR`` of the point pairs with every other. None past ``budget`` pairs."""
    n = len(P)
    d = Q - P
    real = (d[:, 0] != 0) | (d[:, 1] != 0)     # an edge of no length never crosses (exact zeros)
    corners, times = np.unique(P, axis=0, return_counts=True)
    O = corners[times.argmax()] if times.max() >= 3 else P.mean(axis=0)
    clear = CLEAR * size
    from_o, to_o = (P == O).all(axis=1), (Q == O).all(axis=1)
    spoke = (from_o | to_o) & real
    den = (d * d).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.clip(((O - P) * d).sum(axis=1) / den, 0.0, 1.0)
    t[~real] = 0.0
    far = np.hypot(*(P + t[:, None] * d - O).T) - 1e-9 * size
    wide = real & ~spoke & (far <= clear + 4 * margin)
    if int(wide.sum()) * n > budget:
        return None
    ta = np.arctan2(P[:, 1] - O[1], P[:, 0] - O[0])
    tb = np.arctan2(Q[:, 1] - O[1], Q[:, 0] - O[0])
    turn = np.mod(tb - ta + math.pi, 2 * math.pi) - math.pi     # the shorter way round
    with np.errstate(divide="ignore", invalid="ignore"):
        grow = np.arcsin(np.minimum(1.0, 2 * margin / np.where(spoke, clear, far))) + 1e-12
    ray = np.where(from_o, tb, ta)
    start = np.where(spoke, ray, ta + np.minimum(turn, 0)) - grow
    end = np.where(spoke, ray, ta + np.maximum(turn, 0)) + grow
    narrow = np.flatnonzero(real & ~wide)
    start, end = start[narrow], end[narrow]
    # each arc twice, a turn apart, so arcs that overlap across the cut at -pi overlap once
    order, cnt = _overlaps(np.concatenate([start, start + 2 * math.pi]), np.concatenate([end, end + 2 * math.pi]))
    if int(cnt.sum()) > budget:
        return None
    a, b = _expand(order, cnt)
    items = np.concatenate([narrow, narrow])
    a, b = items[a], items[b]
    keep = a != b
    keys = [_pair_keys(a[keep], b[keep], n)]
    for w in np.flatnonzero(wide):
        others = np.delete(np.arange(n), w)
        keys.append(_pair_keys(np.full(n - 1, w), others, n))
    return np.concatenate(keys)


def _pair_keys(a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    return np.minimum(a, b).astype(np.int64) * n + np.maximum(a, b)


def _line_pairs(P: np.ndarray, Q: np.ndarray, centre: np.ndarray, size: float, reach: float, budget: int):
    """Keys of the pairs of edges on nearly one line (angle under ``SINE``, offsets from
    ``centre`` within ``LINE_TOL``): binned by angle and offset, each bin read with its eight
    neighbours. An edge of no length is left out (its signs are exact zeros), and so is an edge
    too short for rounding to lift its signs against its neighbours' corners off zero (``EPS``),
    as most edges along one side of a turned building or a comb are. None past ``budget`` pairs."""
    n = len(P)
    d = Q - P
    real = np.flatnonzero((d[:, 0] != 0) | (d[:, 1] != 0))
    phi = np.mod(np.arctan2(d[real, 1], d[real, 0]), math.pi)
    ordered = np.sort(phi)
    if len(ordered) < 2 or min(np.diff(ordered).min(), ordered[0] + math.pi - ordered[-1]) >= 2.02 * SINE:
        return np.empty(0, np.int64)        # no two edges in neighbouring rows of angles (a round tank)
    rel = P[real] - centre
    r = -np.sin(phi) * rel[:, 0] + np.cos(phi) * rel[:, 1]
    wrap = phi < 2.5 * SINE                 # near 0 is near pi, the normal turned round
    edges = np.concatenate([real, real[wrap]])
    # two edges both exactly level (or both exactly upright) never cross: each one's ends give
    # the other's line the very same product, so such pairs are not asked for
    slanted = (d[real, 0] != 0) & (d[real, 1] != 0)
    asks = np.concatenate([slanted, slanted[wrap]])
    phi = np.concatenate([phi, phi[wrap] + math.pi])
    r = np.concatenate([r, -r[wrap]])
    wr = LINE_TOL * size
    bp = np.floor(phi / (1.01 * SINE)).astype(np.int64)
    br = np.floor(r / wr).astype(np.int64)
    br -= br.min() - 1                      # rows of offsets 1 .. rows - 2: a neighbour stays in its row
    rows = int(br.max()) + 2                # (keys stay under 2^62: 3.2e9 angles x 7.2e8 offsets)
    key = bp * rows + br
    order = np.argsort(key, kind="stable")
    key, edges, asks, phi, r = key[order], edges[order], asks[order], phi[order], r[order]
    mine = np.flatnonzero(asks)
    # each asking edge's neighbourhood: a row of angles and its neighbours, three offsets each
    ranges = []
    for dp in (-1, 0, 1):
        start = np.searchsorted(key, key[mine] + dp * rows - 1, "left")
        ranges.append((start, np.searchsorted(key, key[mine] + dp * rows + 1, "right")))
    if sum(int((stop - start).sum()) for start, stop in ranges) == len(mine):
        return np.empty(0, np.int64)        # each asking edge found only itself (a round tank's opposite sides)
    # how far its neighbours' corners can lie from its line (their angles and offsets apart, plus
    # rounding), times its length, plus orient's own rounding: under EPS, every sign is zero
    turn = np.zeros(len(mine))
    shift = np.zeros(len(mine))
    for start, stop in ranges:
        for values, out in ((phi, turn), (r, shift)):
            hi_, lo_ = _range_max(values, start, stop), -_range_max(-values, start, stop)
            np.maximum(out, np.maximum(hi_ - values[mine], values[mine] - lo_), out=out)
    u = 2.0 ** -52
    length = np.hypot(*d[edges[mine]].T)
    lift = length * ((turn + 8 * u) * 0.71 * size + shift + 16 * u * reach + 4.8e-16 * size) * (1 + 1e-6)
    keep = lift >= EPS * (1 - 1e-6)
    mine = mine[keep]
    firsts, seconds, found = [], [], 0
    for start, stop in ranges:
        start, cnt = start[keep], stop[keep] - start[keep]
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


def _range_max(values: np.ndarray, start: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """The largest of ``values[start[k]:stop[k]]`` for each k (-inf where the range is empty)."""
    if not len(start):
        return np.empty(0)
    ext = np.append(values, -np.inf)            # so a range may end at the last value
    idx = np.empty(2 * len(start), np.int64)
    idx[0::2], idx[1::2] = start, stop
    out = np.maximum.reduceat(ext, idx)[0::2]
    return np.where(stop > start, out, -np.inf)
