"""What a centre line pays for terrain: the surface heights along a segment (``surface_profiles``,
the top of the highest climbable piece under it), the length run through difficult ground
(``difficult_length``) and both for one straight run (``straight_run``). Design: ``movement``."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .geometry import PLAIN_MAX, segment_intervals_np, segment_intervals_plain, union_length

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table


# --------------------------------------------------------------------------- climbing profile

def surface_profiles(table: Table, A: np.ndarray, B: np.ndarray):
    """Vertical climbing and breakpoints along segments A[i] -> B[i].

    Returns (vertical (S,), profiles) where profiles[i] is None when the segment touches no
    climbable piece, else a list of (t_start, t_end, z) pieces covering [0, 1]. One or two
    segments are answered by ``surface_profile_one`` (plain Python), more by the numpy kernel:
    the same clipping either way (``segment_intervals``)."""
    A = np.asarray(A, float).reshape(-1, 2)
    B = np.asarray(B, float).reshape(-1, 2)
    if len(A) <= PLAIN_MAX:
        verts, profs = [], []
        for a, b in zip(A.tolist(), B.tolist()):
            v, prof = surface_profile_one(table, a, b)
            verts.append(v)
            profs.append(prof)
        return np.array(verts, dtype=float), profs
    vert = np.zeros(len(A))
    profiles: list = [None] * len(A)
    seg, owner, t0, t1 = segment_intervals_np(table._climb_arrays, A, B)
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


def surface_profile_one(table: Table, a, b):
    """(vertical, profile) of one segment a -> b, in plain Python (see ``surface_profiles``)."""
    rows = segment_intervals_plain(table._climb_arrays, [a], [b])
    if not rows:
        return 0.0, None
    heights = table._props["height"]
    prof = _profile([(t0, t1, float(heights[o])) for _, o, t0, t1 in rows])
    return sum(abs(prof[i][2] - prof[i - 1][2]) for i in range(1, len(prof))), prof


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


def difficult_length(table: Table, A, B, rows=None) -> np.ndarray:
    """The run of each segment A[i] -> B[i] inside difficult ground (mm). ``rows``: the segments'
    ``segment_intervals_plain`` rows when the caller has them already (a few segments)."""
    A = np.asarray(A, float).reshape(-1, 2)
    B = np.asarray(B, float).reshape(-1, 2)
    L = np.hypot(*(B - A).T)
    out = np.zeros(len(A))
    if len(A) <= PLAIN_MAX:
        if rows is None:
            rows = segment_intervals_plain(table._difficult_arrays, A.tolist(), B.tolist())
        for s in set(r[0] for r in rows):
            out[s] = union_length([(t0, t1) for q, _, t0, t1 in rows if q == s]) * L[s]
        return out
    seg, _, t0, t1 = segment_intervals_np(table._difficult_arrays, A, B)
    for s in set(seg.tolist()):
        k = seg == s
        out[s] = union_length(list(zip(t0[k].tolist(), t1[k].tolist()))) * L[s]
    return out


def _difficult_plain(table: Table, A, B) -> float:
    """``float(difficult_length(table, A, B).sum())`` for a few segments (lists of (x, y)):
    when no segment meets difficult ground (the common case) the answer is 0.0 without the
    numpy round trip; otherwise the same call as before with the rows already found (the same
    floats: the points go through float arrays and back), so the same number."""
    rows = segment_intervals_plain(table._difficult_arrays, A, B)
    if not rows:
        return 0.0
    return float(difficult_length(table, A, B, rows).sum())


def straight_run(table: Table, a, b) -> tuple[float, float]:
    """(length, difficult) of the one-segment path a -> b: exactly ``make_path(table, [a, b])``'s
    ``length`` and ``difficult`` (the same operations in the same order), without the end
    points' surface heights, which a move's cost does not need."""
    a = (float(a[0]), float(a[1]))
    b = (float(b[0]), float(b[1]))
    horiz = 0.0
    horiz += math.hypot(b[0] - a[0], b[1] - a[1])
    v = 0.0
    v += surface_profile_one(table, a, b)[0]
    return horiz + v, _difficult_plain(table, [a], [b])
