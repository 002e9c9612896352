"""Line of sight and cover by sampling the target's silhouette, and vision arcs.

The eye is at ``viewer.z + 0.9 * viewer.height`` above the viewer's centre. The target's
silhouette is the vertical rectangle through its centre, perpendicular to the (horizontal) line
of sight, ``2 * radius`` wide and from ``target.z`` to ``target.z + height``; it is sampled at
``h_samples`` points across at ``(j + 0.5) / h`` and ``v_samples`` points up at ``(k + 0.5) / v``.

A ray meets a piece when its horizontal projection crosses one of the piece's convex parts; it is
below the piece's top there when the lower of its heights at the entry and the exit of that part
(clipped to the ray) is below the top (heights are linear along the ray). Sight-blocking pieces
then block the ray; obscuring pieces (woods, smoke) mark it obscured but let it through. Other
models are cylinders from ``z`` to ``z + height`` and block rays whose height range inside the
cylinder's footprint overlaps theirs.

Implementations: ``SightKernel`` (numpy: bounding-circle culling of whole (viewer, target)
ray bundles, then Cyrus–Beck clipping of every (ray, part) pair) for batches; its plain-Python
twin ``sight_pair.PairSight`` (the same arithmetic, pair by pair, so the same answers exactly)
for single pairs and small batches; and ``sight_reference`` (pymunk all-hits ``segment_query``
forward plus a backward per-shape query for the exit), which the tests use to check the kernel.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pymunk

from .bases import Base
from .geometry import edge_groups
from .terrain import CAT_SIGHT, COVER_CODE, COVER_NAME, piece_arrays, piece_part_arrays

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table

EYE_FRACTION = 0.9
# sight_matrix batches of at most this many (viewer, target) pairs go through the plain pair path
# (sight_pair.py, same answers): a kernel call has a large fixed cost (~1.7M instructions, most of
# it numpy's per-operation overhead) and the plain path costs ~0.25M per pair, so the plain path
# is cheaper up to ~12 pairs (callgrind, 1 viewer x n targets, 16 blocking models, home maps)
PLAIN_PAIRS = 8


@dataclass(frozen=True, slots=True)
class Sight:
    visible_fraction: float          # unblocked rays / all rays (obscured rays count as visible)
    blocking: tuple[str, ...]        # labels of pieces / ids of models that block some ray
    covering: tuple[str, ...]        # labels/ids that block some ray or obscure some visible ray
    cover: str                       # 'none' | 'light' | 'heavy': best class among ``covering``
    obscured_fraction: float         # rays that are visible but pass through obscuring terrain / all rays
    rays: int = 0

    @property
    def visible(self) -> bool:
        return self.visible_fraction > 0


def _models_arrays(models: Sequence[Base]):
    return (np.array([m.x for m in models], dtype=float), np.array([m.y for m in models], dtype=float),
            np.array([m.radius for m in models], dtype=float), np.array([m.z for m in models], dtype=float),
            np.array([m.z + m.height for m in models], dtype=float))


class SightKernel:
    """Vectorised silhouette sampling over a table's sight-relevant convex parts."""

    def __init__(self, table: Table):
        pieces = table.pieces
        self.pieces = pieces
        self.pa = pa = piece_part_arrays(pieces, lambda p: (p.blocks_sight or p.obscuring) and p.height > 0)
        props = piece_arrays(pieces) if pieces else dict(height=np.zeros(0), blocks=np.zeros(0, bool),
                                                         obscures=np.zeros(0, bool), cover=np.zeros(0, np.int8))
        self.n_poly = P = pa.n_poly
        self.n_tc = pa.n_circ
        po, co = pa.poly_owner, pa.circ_owner
        # polygons: per-part attributes
        self.p_top = props["height"][po]
        # every culled object (polygons, then terrain discs; models appended per call):
        # bounding circle, top, bottom, blocks, obscures, cover code, owner
        self.b_cx = np.concatenate([pa.poly_cx, pa.ccx])
        self.b_cy = np.concatenate([pa.poly_cy, pa.ccy])
        self.b_rho = np.concatenate([pa.poly_rho, pa.cr])
        self.b_top = np.concatenate([self.p_top, props["height"][co]])
        self.b_bot = np.full(P + pa.n_circ, -np.inf)
        # (one spare entry at the end so lookups masked for models never index an empty array)
        self.b_blocks = np.concatenate([props["blocks"][po], props["blocks"][co], [False]])
        self.b_obsc = np.concatenate([props["obscures"][po], props["obscures"][co], [False]])
        self.b_cover = np.concatenate([props["cover"][po], props["cover"][co], [0]]).astype(np.int8)
        self.b_owner = np.concatenate([po, co, [-1]]).astype(np.int64)

    def run(self, E: np.ndarray, T: np.ndarray, vi: np.ndarray, ti: np.ndarray, models, h: int, v: int,
            want_labels: bool = False):
        """Evaluate Q (eye, target) pairs.

        E: (Q,3) eye x, y, z. T: (Q,5) target x, y, radius, z, height. vi/ti: index of the viewer
        and the target in ``models`` (-1 when not a blocker). models: tuple of arrays from
        ``_models_arrays`` or None. Returns visible counts (Q,), obscured-visible counts (Q,),
        cover codes (Q,), and when ``want_labels`` the sets (blocking pieces, covering pieces,
        blocking models) for Q == 1.
        """
        pa = self.pa
        P, NT = self.n_poly, self.n_poly + self.n_tc
        Q = E.shape[0]
        S = h * v
        ex, ey, ez = E[:, 0], E[:, 1], E[:, 2]
        tx, ty, tr, tz, th = T[:, 0], T[:, 1], T[:, 2], T[:, 3], T[:, 4]
        ux, uy = tx - ex, ty - ey
        L = np.hypot(ux, uy)
        zero = L <= 1e-12
        if zero.any():
            ux = np.where(zero, 1.0, ux / np.where(zero, 1.0, L))
            uy = np.where(zero, 0.0, uy / np.where(zero, 1.0, L))
        else:
            ux, uy = ux / L, uy / L
        offs = (np.arange(h) + 0.5) / h * 2.0 - 1.0           # across, in radii
        ups = (np.arange(v) + 0.5) / v                         # up, in heights
        lat = (tr[:, None] * offs[None, :])                    # (Q,h)
        # rays, index q*S + j*v + k
        rbx = np.repeat(tx[:, None] - uy[:, None] * lat, v, axis=1).ravel()
        rby = np.repeat(ty[:, None] + ux[:, None] * lat, v, axis=1).ravel()
        rbz = np.tile(tz[:, None] + th[:, None] * ups[None, :], (1, h)).ravel()
        rax = np.repeat(ex, S)
        ray_ = np.repeat(ey, S)
        raz = np.repeat(ez, S)
        rdx, rdy, rdz = rbx - rax, rby - ray_, rbz - raz
        zlow = np.minimum(ez, tz + th * ups[0])                # lowest point of any ray of the pair
        # objects: terrain polygons, terrain discs, then models
        if models is not None and len(models[0]):
            mx, my, mr, mz0, mz1 = models
            M = len(mx)
            bcx = np.concatenate([self.b_cx, mx])
            bcy = np.concatenate([self.b_cy, my])
            brho = np.concatenate([self.b_rho, mr])
            btop = np.concatenate([self.b_top, mz1])
            bbot = np.concatenate([self.b_bot, mz0])
        else:
            M = 0
            bcx, bcy, brho, btop, bbot = self.b_cx, self.b_cy, self.b_rho, self.b_top, self.b_bot
        # cull whole ray bundles: the bundle lies within tr of the centre line, from eye to target
        rx = bcx[None, :] - ex[:, None]
        ry = bcy[None, :] - ey[:, None]
        along = rx * ux[:, None] + ry * uy[:, None]
        m = np.abs(ry * ux[:, None] - rx * uy[:, None]) <= tr[:, None] + brho[None]
        m &= along >= -brho[None]
        m &= along <= L[:, None] + brho[None]
        m &= btop[None, :] > zlow[:, None]
        q, o = np.nonzero(m)
        if M:
            keep = o < NT
            om = o - NT
            keep |= (om != vi[q]) & (om != ti[q])
            q, o = q[keep], o[keep]
        blocked = np.zeros((Q, S), dtype=bool)
        obscured = np.zeros((Q, S), dtype=bool)
        cover = np.zeros(Q, dtype=np.int8)
        labels = None
        RDX, RDY, RDZ = rdx.reshape(Q, S), rdy.reshape(Q, S), rdz.reshape(Q, S)
        if len(q):
            # per candidate (pair, object), all S rays of the pair at once: (C, S)
            C = len(q)
            T0 = np.empty((C, S))
            T1 = np.empty((C, S))
            isp = o < P
            if isp.any():
                ip = np.flatnonzero(isp)
                for idx, mm in edge_groups(pa, ip, o[ip]):
                    if len(idx) == 0:
                        continue
                    pp, qq = o[idx], q[idx]
                    nx, ny = pa.nx[pp, :mm], pa.ny[pp, :mm]
                    num = pa.c[pp, :mm] - (nx * ex[qq][:, None] + ny * ey[qq][:, None])      # (c, m)
                    rdx, rdy = RDX[qq], RDY[qq]                                              # (c, S)
                    # one edge at a time over (c, S) arrays: the same numbers as a (c, S, m)
                    # block reduced over its last axis, at half the cost (contiguous operands,
                    # no strided reduction over 4 or 5 edges)
                    a0 = np.zeros(rdx.shape)
                    a1 = np.ones(rdx.shape)
                    out = np.zeros(rdx.shape, dtype=bool)
                    # (over: a ray nearly parallel to an edge, e.g. from subnormal coordinates,
                    # gives +-inf in the ratio, which the max/min handle like any large ratio)
                    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                        for k in range(mm):
                            den = nx[:, k:k + 1] * rdx + ny[:, k:k + 1] * rdy
                            nk = num[:, k:k + 1]
                            ratio = nk / den
                            np.maximum(a0, np.where(den < 0, ratio, 0.0), out=a0)
                            np.minimum(a1, np.where(den > 0, ratio, 1.0), out=a1)
                            out |= (den == 0) & (nk < 0)
                    a1[out] = -1.0
                    T0[idx], T1[idx] = a0, a1
            isc = ~isp
            if isc.any():
                ic = np.flatnonzero(isc)
                qq = q[ic]
                fx = (ex[qq] - bcx[o[ic]])[:, None]
                fy = (ey[qq] - bcy[o[ic]])[:, None]
                dx, dy = RDX[qq], RDY[qq]
                aa = dx * dx + dy * dy
                bb = fx * dx + fy * dy
                cc = fx * fx + fy * fy - (brho[o[ic]] ** 2)[:, None]
                disc = bb * bb - aa * cc
                ok = (disc > 0) & (aa > 0)
                sq = np.sqrt(np.where(ok, disc, 0.0))
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    c0 = np.where(ok, (-bb - sq) / aa, 2.0)
                    c1 = np.where(ok, (-bb + sq) / aa, -1.0)
                np.maximum(c0, 0.0, out=c0)
                np.minimum(c1, 1.0, out=c1)
                T0[ic], T1[ic] = c0, c1
            ezq = ez[q][:, None]
            dz = RDZ[q]
            z0 = ezq + T0 * dz
            z1 = ezq + T1 * dz
            inter = (T0 < T1) & (np.minimum(z0, z1) < btop[o][:, None]) & (np.maximum(z0, z1) > bbot[o][:, None])
            hit = inter.any(axis=1)
            q, o, inter = q[hit], o[hit], inter[hit]
            if M:
                ism = o >= NT
                ot = np.where(ism, 0, o)
                blk = ism | self.b_blocks[ot]
                obs = ~ism & self.b_obsc[ot]
                code = np.where(ism, 1, self.b_cover[ot]).astype(np.int8)
            else:
                ism = np.zeros(len(o), dtype=bool)
                blk, obs, code = self.b_blocks[o], self.b_obsc[o], self.b_cover[o]
            ar = np.arange(S)
            bq = np.repeat(q[blk], S).reshape(-1, S)
            blocked[bq[inter[blk]], np.broadcast_to(ar, bq.shape)[inter[blk]]] = True
            oq = np.repeat(q[obs], S).reshape(-1, S)
            obscured[oq[inter[obs]], np.broadcast_to(ar, oq.shape)[inter[obs]]] = True
            # an object counts for cover if it blocks a ray, or obscures a ray that stays visible
            counts = blk | (inter & ~blocked[q]).any(axis=1)
            if counts.any():
                np.maximum.at(cover, q[counts], code[counts])
            if want_labels:
                terr = ~ism
                own = self.b_owner[o[terr]]
                labels = (set(own[blk[terr]].tolist()), set(own[counts[terr]].tolist()),
                          set((o[ism] - NT).tolist()))
        vis = S - blocked.sum(axis=1)
        obsv = (obscured & ~blocked).sum(axis=1)
        if not want_labels:
            return vis, obsv, cover
        return vis, obsv, cover, labels or (set(), set(), set())


def sight_one(table: Table, viewer: Base, target: Base, others=(), h_samples=5, v_samples=3,
              models_block=True) -> Sight:
    if viewer.id == target.id:
        return Sight(1.0, (), (), "none", 0.0, h_samples * v_samples)
    blockers = [m for m in others if m.id not in (viewer.id, target.id)] if models_block else []
    # one pair: the plain path (the kernel's arithmetic without numpy's fixed cost per call)
    vis, obs, _, (lb, lc, lm) = table._pair_sight().run(
        viewer.x, viewer.y, viewer.z + EYE_FRACTION * viewer.height,
        target.x, target.y, target.radius, target.z, target.height, blockers, h_samples, v_samples,
        want_labels=True)
    return _make_sight(table, h_samples * v_samples, vis, obs, lb, lc, lm, blockers)


def _make_sight(table, S, vis, obs, lb, lc, lm, blockers) -> Sight:
    pieces = table.pieces
    order = sorted(lb)
    blocking = tuple(pieces[i].label for i in order) + tuple(blockers[i].id for i in sorted(lm))
    covering_p = sorted(lc)
    covering = tuple(pieces[i].label for i in covering_p) + tuple(blockers[i].id for i in sorted(lm))
    best = max([COVER_CODE[pieces[i].cover] for i in covering_p] + ([1] if lm else []) + [0])
    return Sight(visible_fraction=vis / S, blocking=blocking, covering=covering, cover=COVER_NAME[best],
                 obscured_fraction=obs / S, rays=S)


def sight_matrix(table: Table, viewers, targets, others=(), h_samples=5, v_samples=3, models_block=True,
                 chunk: int = 2048, pairs=None):
    """Visible fractions and cover codes (0 none, 1 light, 2 heavy), both shaped (V, T).

    Blockers are every model in ``viewers``, ``targets`` and ``others`` (one per id) except the
    viewer and the target of each pair. A viewer looking at itself (same id) sees 1.0, cover 0.
    ``pairs`` (a (V, T) bool array) measures only the pairs it marks: the others are not looked
    at and read NaN visible, cover 0 (NaN fails every comparison, so an unmeasured pair never
    passes for a visible one). Each pair's answer is independent of the others in the batch."""
    viewers, targets = list(viewers), list(targets)
    V, Tn = len(viewers), len(targets)
    vis_out = np.ones((V, Tn))
    cov_out = np.zeros((V, Tn), dtype=np.int8)
    if V == 0 or Tn == 0:
        return vis_out, cov_out
    if pairs is not None:
        pairs = np.asarray(pairs, dtype=bool).reshape(V, Tn)
        vis_out[~pairs] = np.nan
    kernel = table._sight_kernel()
    models: list = []
    idx: dict = {}
    if models_block:
        for m in list(viewers) + list(targets) + list(others):
            if m.id not in idx:
                idx[m.id] = len(models)
                models.append(m)
    S = h_samples * v_samples
    n_pairs = V * Tn if pairs is None else int(pairs.sum())
    if n_pairs == 0:
        return vis_out, cov_out
    if n_pairs <= PLAIN_PAIRS:
        # a few pairs: the plain path, one pair at a time (same answers as the kernel, exactly)
        pair = table._pair_sight()
        for a, vw in enumerate(viewers):
            ez = vw.z + EYE_FRACTION * vw.height
            for b, tg in enumerate(targets):
                if vw.id == tg.id or (pairs is not None and not pairs[a, b]):
                    continue
                # the kernel's blockers: every model but this pair's viewer and target (by id)
                bl = [m for m in models if m.id != vw.id and m.id != tg.id]
                vis, _, cov, _ = pair.run(vw.x, vw.y, ez, tg.x, tg.y, tg.radius, tg.z, tg.height, bl,
                                          h_samples, v_samples)
                vis_out[a, b] = vis / S
                cov_out[a, b] = cov
        return vis_out, cov_out
    marr = _models_arrays(models) if models else None
    vv_grid, tt_grid = np.meshgrid(np.arange(V), np.arange(Tn), indexing="ij")
    vv, tt = vv_grid.ravel(), tt_grid.ravel()
    vid = np.array([v.id for v in viewers], dtype=object)
    tid = np.array([t.id for t in targets], dtype=object)
    diff = vid[vv] != tid[tt]
    if pairs is not None:
        diff &= pairs[vv, tt]
    vv, tt = vv[diff], tt[diff]
    Ev = np.array([[v.x, v.y, v.z + EYE_FRACTION * v.height] for v in viewers])
    Tt = np.array([[t.x, t.y, t.radius, t.z, t.height] for t in targets])
    vi_all = np.array([idx.get(v.id, -1) for v in viewers])
    ti_all = np.array([idx.get(t.id, -1) for t in targets])
    for s in range(0, len(vv), chunk):
        a, b = vv[s:s + chunk], tt[s:s + chunk]
        vis, _, cov = kernel.run(Ev[a], Tt[b], vi_all[a], ti_all[b], marr, h_samples, v_samples)
        vis_out[a, b] = vis / S
        cov_out[a, b] = cov
    return vis_out, cov_out


# --------------------------------------------------------------------------- reference (pymunk)

def sight_reference(table: Table, viewer: Base, target: Base, others=(), h_samples=5, v_samples=3,
                    models_block=True) -> Sight:
    """Plain pymunk implementation of ``Table.sight`` (slow; for tests)."""
    S = h_samples * v_samples
    if viewer.id == target.id:
        return Sight(1.0, (), (), "none", 0.0, S)
    blockers = [m for m in others if m.id not in (viewer.id, target.id)] if models_block else []
    mspace = pymunk.Space()
    for i, m in enumerate(blockers):
        c = pymunk.Circle(mspace.static_body, m.radius, (m.x, m.y))
        c.model_index = i
        mspace.add(c)
    filt = pymunk.ShapeFilter(mask=CAT_SIGHT)
    ex, ey, ez = viewer.x, viewer.y, viewer.z + EYE_FRACTION * viewer.height
    dx, dy = target.x - ex, target.y - ey
    L = math.hypot(dx, dy)
    ux, uy = (dx / L, dy / L) if L > 1e-12 else (1.0, 0.0)
    px, py = -uy, ux
    pieces = table.pieces
    vis = obs = 0
    lb, lc, lm = set(), set(), set()
    for j in range(h_samples):
        off = ((j + 0.5) / h_samples * 2 - 1) * target.radius
        bx, by = target.x + px * off, target.y + py * off
        for k in range(v_samples):
            bz = target.z + target.height * (k + 0.5) / v_samples
            a, b = (ex, ey), (bx, by)

            def spans(space, f):
                seen = set()
                for hit in space.segment_query(a, b, 0, f):
                    sh = hit.shape
                    if sh is None or id(sh) in seen:
                        continue
                    seen.add(id(sh))
                    t_in = 0.0 if sh.point_query(a).distance < 0 else hit.alpha
                    if sh.point_query(b).distance < 0:
                        t_out = 1.0
                    else:
                        back = sh.segment_query(b, a, 0)
                        t_out = 1.0 - back.alpha if back.shape is not None else t_in
                    if t_out > t_in:
                        z0, z1 = ez + t_in * (bz - ez), ez + t_out * (bz - ez)
                        yield sh, min(z0, z1), max(z0, z1)

            ray_blocked = ray_obsc = False
            ray_obscurers, ray_blockers = set(), set()
            for sh, zmin, _ in spans(table.space, filt):
                p = pieces[sh.piece_index]
                if zmin < p.height:
                    if p.blocks_sight:
                        ray_blocked = True
                        ray_blockers.add(p.index)
                    if p.obscuring:
                        ray_obsc = True
                        ray_obscurers.add(p.index)
            for sh, zmin, zmax in spans(mspace, pymunk.ShapeFilter()):
                m = blockers[sh.model_index]
                if zmin < m.z + m.height and zmax > m.z:
                    ray_blocked = True
                    lm.add(sh.model_index)
            lb |= ray_blockers
            lc |= ray_blockers
            if not ray_blocked:
                vis += 1
                lc |= ray_obscurers
                if ray_obsc:
                    obs += 1
    return _make_sight(table, S, vis, obs, lb, lc, lm, blockers)


# --------------------------------------------------------------------------- arcs

def _angle_diff(a: float, b: float) -> float:
    """Smallest absolute difference between two angles in degrees."""
    d = (a - b) % 360.0
    return min(d, 360.0 - d)


def in_arc(watcher: Base, x: float, y: float, arc_deg: float) -> bool:
    """Is the point within +-arc/2 of the watcher's facing (measured from its centre)?"""
    if arc_deg >= 360:
        return True
    dx, dy = x - watcher.x, y - watcher.y
    if dx == 0 and dy == 0:
        return True
    return _angle_diff(math.degrees(math.atan2(dy, dx)), watcher.facing) <= arc_deg / 2 + 1e-9


def _seg_seg_dist(p0, p1, q0, q1) -> float:
    def pt_seg(p, a, b):
        abx, aby = b[0] - a[0], b[1] - a[1]
        L2 = abx * abx + aby * aby
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * abx + (p[1] - a[1]) * aby) / L2))
        return math.hypot(p[0] - a[0] - t * abx, p[1] - a[1] - t * aby)

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    d1, d2 = cross(q0, q1, p0), cross(q0, q1, p1)
    d3, d4 = cross(p0, p1, q0), cross(p0, p1, q1)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return 0.0
    return min(pt_seg(p0, q0, q1), pt_seg(p1, q0, q1), pt_seg(q0, p0, p1), pt_seg(q1, p0, p1))


def _segment_in_wedge(c, f, half, a, b) -> bool:
    """Does segment a-b meet the wedge at c, direction f (unit), half-angle ``half`` (rad)?"""
    if half >= math.pi:
        return True
    # half-planes bounding the wedge: left of the right edge ray and right of the left edge ray
    fa = math.atan2(f[1], f[0])
    r = (math.cos(fa - half), math.sin(fa - half))
    left = (math.cos(fa + half), math.sin(fa + half))

    def s1(p):  # >= 0: left of the right edge
        return r[0] * (p[1] - c[1]) - r[1] * (p[0] - c[0])

    def s2(p):  # >= 0: right of the left edge
        return -(left[0] * (p[1] - c[1]) - left[1] * (p[0] - c[0]))
    if half <= math.pi / 2:
        # convex wedge: clip the segment by both half-planes
        t0, t1 = 0.0, 1.0
        for s in (s1, s2):
            va, vb = s(a), s(b)
            if va < 0 and vb < 0:
                return False
            if va < 0 or vb < 0:
                t = va / (va - vb)
                if va < 0:
                    t0 = max(t0, t)
                else:
                    t1 = min(t1, t)
        return t0 <= t1
    # reflex wedge: union of the two half-planes
    return s1(a) >= 0 or s1(b) >= 0 or s2(a) >= 0 or s2(b) >= 0


def path_in_arc(watcher: Base, arc_deg: float, points, mover_radius: float = 0.0,
                table: Table | None = None, require_sight: bool = False, mover_height: float = 30.0) -> bool:
    """Was any part of a base of ``mover_radius`` inside the watcher's arc at any point while its
    centre moved along the polyline ``points`` ((x, y) or (x, y, z))? The arc is the infinite
    wedge from the watcher's centre. With ``require_sight`` (needs ``table``) the crossing only
    counts where the watcher could also see some of a mover ``mover_height`` tall standing on the
    ground there (sampled every ~10 mm; 3x1 silhouette samples; terrain only)."""
    pts = [(float(p[0]), float(p[1])) for p in points]
    if not pts:
        return False
    if len(pts) == 1:
        pts = pts * 2
    if arc_deg >= 360:
        return True
    c = (watcher.x, watcher.y)
    fr = math.radians(watcher.facing)
    f = (math.cos(fr), math.sin(fr))
    half = math.radians(arc_deg) / 2
    far = 1e7
    edges = [(c, (c[0] + far * math.cos(fr + s * half), c[1] + far * math.sin(fr + s * half))) for s in (-1, 1)]
    for a, b in zip(pts, pts[1:]):
        if require_sight:
            assert table is not None, "require_sight needs the table"
            n = max(1, int(math.dist(a, b) / 10.0))
            for i in range(n + 1):
                t = i / n
                x, y = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
                probe = Base("_probe", x, y, max(mover_radius, 1e-3), mover_height)
                if _base_in_arc(c, f, half, edges, probe, mover_radius) and \
                        table.sight(watcher, probe, h_samples=3, v_samples=1, models_block=False).visible_fraction > 0:
                    return True
            continue
        if _segment_in_wedge(c, f, half, a, b):
            return True
        if mover_radius > 0 and any(_seg_seg_dist(a, b, e0, e1) <= mover_radius for e0, e1 in edges):
            return True
    return False


def _base_in_arc(c, f, half, edges, probe, r):
    p = (probe.x, probe.y)
    if _segment_in_wedge(c, f, half, p, p):
        return True
    return r > 0 and any(_seg_seg_dist(p, p, e0, e1) <= r for e0, e1 in edges)
