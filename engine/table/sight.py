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

Two implementations: ``SightKernel`` (numpy: bounding-circle culling of whole (viewer, target)
ray bundles, then Cyrus–Beck clipping of every (ray, part) pair) and ``sight_reference``
(pymunk all-hits ``segment_query`` forward plus a backward per-shape query for the exit), which
the tests use to check the kernel.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np
import pymunk

from .bases import Base
from .geometry import clip_circles, clip_polys
from .terrain import CAT_SIGHT, COVER_CODE, COVER_NAME, piece_arrays, piece_part_arrays

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table

EYE_FRACTION = 0.9


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

    def __init__(self, table: "Table"):
        pieces = table.pieces
        self.pieces = pieces
        self.pa = pa = piece_part_arrays(pieces, lambda p: (p.blocks_sight or p.obscuring) and p.height > 0)
        props = piece_arrays(pieces) if pieces else None
        if pa.n_poly:
            o = pa.poly_owner
            self.p_top, self.p_blocks = props["height"][o], props["blocks"][o]
            self.p_obsc, self.p_cover = props["obscures"][o], props["cover"][o]
        if pa.n_circ:
            o = pa.circ_owner
            self.c_top, self.c_blocks = props["height"][o], props["blocks"][o]
            self.c_obsc, self.c_cover = props["obscures"][o], props["cover"][o]

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
        Q = E.shape[0]
        S = h * v
        ex, ey, ez = E[:, 0], E[:, 1], E[:, 2]
        tx, ty, tr, tz, th = T[:, 0], T[:, 1], T[:, 2], T[:, 3], T[:, 4]
        ux, uy = tx - ex, ty - ey
        L = np.hypot(ux, uy)
        zero = L <= 1e-12
        Ls = np.where(zero, 1.0, L)
        ux = np.where(zero, 1.0, ux / Ls)
        uy = np.where(zero, 0.0, uy / Ls)
        px, py = -uy, ux
        offs = (np.arange(h) + 0.5) / h * 2.0 - 1.0           # across, in radii
        ups = (np.arange(v) + 0.5) / v                         # up, in heights
        bx = (tx[:, None] + px[:, None] * tr[:, None] * offs[None, :])         # (Q,h)
        by = (ty[:, None] + py[:, None] * tr[:, None] * offs[None, :])
        bz = tz[:, None] + th[:, None] * ups[None, :]                           # (Q,v)
        # rays, index q*S + j*v + k
        rbx = np.repeat(bx, v, axis=1).ravel()
        rby = np.repeat(by, v, axis=1).ravel()
        rbz = np.tile(bz, (1, h)).ravel()
        rax = np.repeat(ex, S)
        ray_ = np.repeat(ey, S)
        raz = np.repeat(ez, S)
        rdx, rdy, rdz = rbx - rax, rby - ray_, rbz - raz
        zlow = np.minimum(ez, tz + th * ups[0])                # lowest point of any ray of the pair
        R = Q * S
        blocked = np.zeros(R, dtype=bool)
        obscured = np.zeros(R, dtype=bool)
        hit_q, hit_code, hit_ray, hit_blocks = [], [], [], []
        labels_b, labels_c, labels_m = set(), set(), set()
        ar = np.arange(S)

        def cull(cx, cy, rho, top):
            rx = cx[None, :] - ex[:, None]
            ry = cy[None, :] - ey[:, None]
            along = rx * ux[:, None] + ry * uy[:, None]
            lat = rx * px[:, None] + ry * py[:, None]
            m = (along >= -rho[None]) & (along <= L[:, None] + rho[None]) & \
                (np.abs(lat) <= tr[:, None] + rho[None]) & (top[None, :] > zlow[:, None])
            return np.nonzero(m)

        def expand(q, p):
            seg = (q[:, None] * S + ar[None, :]).ravel()
            return seg, np.repeat(p, S)

        def zrange(seg, t0, t1):
            z0 = raz[seg] + t0 * rdz[seg]
            z1 = raz[seg] + t1 * rdz[seg]
            return np.minimum(z0, z1), np.maximum(z0, z1)

        def record(seg, part, inter, blocks, obsc, cover, owner):
            if not inter.any():
                return
            seg, part = seg[inter], part[inter]
            b = blocks[part]
            o = obsc[part]
            blocked[seg[b]] = True
            obscured[seg[o]] = True
            hit_q.append(seg // S)
            hit_code.append(cover[part])
            hit_ray.append(seg)
            hit_blocks.append(b)
            if want_labels:
                labels_b.update(owner[part[b]].tolist())
                labels_c.update(zip(owner[part].tolist(), seg.tolist(), b.tolist()))

        if pa.n_poly:
            q, p = cull(pa.poly_cx, pa.poly_cy, pa.poly_rho, self.p_top)
            if len(q):
                seg, part = expand(q, p)
                t0, t1 = clip_polys(pa, seg, part, rax, ray_, rdx, rdy)
                zmin, _ = zrange(seg, t0, t1)
                inter = (t0 < t1) & (zmin < self.p_top[part])
                record(seg, part, inter, self.p_blocks, self.p_obsc, self.p_cover, pa.poly_owner)
        if pa.n_circ:
            q, p = cull(pa.ccx, pa.ccy, pa.cr, self.c_top)
            if len(q):
                seg, part = expand(q, p)
                t0, t1 = clip_circles(pa.ccx, pa.ccy, pa.cr, seg, part, rax, ray_, rdx, rdy)
                zmin, _ = zrange(seg, t0, t1)
                inter = (t0 < t1) & (zmin < self.c_top[part])
                record(seg, part, inter, self.c_blocks, self.c_obsc, self.c_cover, pa.circ_owner)
        if models is not None and len(models[0]):
            mx, my, mr, mz0, mz1 = models
            q, p = cull(mx, my, mr, mz1)
            if len(q):
                keep = (p != vi[q]) & (p != ti[q])
                q, p = q[keep], p[keep]
            if len(q):
                seg, part = expand(q, p)
                t0, t1 = clip_circles(mx, my, mr, seg, part, rax, ray_, rdx, rdy)
                zmin, zmax = zrange(seg, t0, t1)
                inter = (t0 < t1) & (zmin < mz1[part]) & (zmax > mz0[part])
                if inter.any():
                    seg, part = seg[inter], part[inter]
                    blocked[seg] = True
                    hit_q.append(seg // S)
                    hit_code.append(np.full(len(seg), 1, dtype=np.int8))
                    hit_ray.append(seg)
                    hit_blocks.append(np.ones(len(seg), dtype=bool))
                    if want_labels:
                        labels_m.update(part.tolist())
        bq = blocked.reshape(Q, S)
        vis = S - bq.sum(axis=1)
        obs = (obscured & ~blocked).reshape(Q, S).sum(axis=1)
        cover = np.zeros(Q, dtype=np.int8)
        if hit_q:
            hq = np.concatenate(hit_q)
            hc = np.concatenate(hit_code)
            hr = np.concatenate(hit_ray)
            hb = np.concatenate(hit_blocks)
            counts = hb | ~blocked[hr]      # blocks a ray, or obscures a ray that stays visible
            np.maximum.at(cover, hq[counts], hc[counts])
        if not want_labels:
            return vis, obs, cover
        covering = set(labels_b)
        covering.update(pi for pi, r, b in labels_c if b or not blocked[r])
        return vis, obs, cover, (labels_b, covering, labels_m)


def sight_one(table: "Table", viewer: Base, target: Base, others=(), h_samples=5, v_samples=3,
              models_block=True) -> Sight:
    if viewer.id == target.id:
        return Sight(1.0, (), (), "none", 0.0, h_samples * v_samples)
    kernel = table._sight_kernel()
    blockers = [m for m in others if m.id not in (viewer.id, target.id)] if models_block else []
    models = _models_arrays(blockers) if blockers else None
    E = np.array([[viewer.x, viewer.y, viewer.z + EYE_FRACTION * viewer.height]])
    T = np.array([[target.x, target.y, target.radius, target.z, target.height]])
    neg = np.array([-1])
    vis, obs, cov, (lb, lc, lm) = kernel.run(E, T, neg, neg, models, h_samples, v_samples, want_labels=True)
    S = h_samples * v_samples
    return _make_sight(table, S, int(vis[0]), int(obs[0]), lb, lc, lm, blockers)


def _make_sight(table, S, vis, obs, lb, lc, lm, blockers) -> Sight:
    pieces = table.pieces
    order = sorted(lb)
    blocking = tuple(pieces[i].label for i in order) + tuple(blockers[i].id for i in sorted(lm))
    covering_p = sorted(lc)
    covering = tuple(pieces[i].label for i in covering_p) + tuple(blockers[i].id for i in sorted(lm))
    best = max([COVER_CODE[pieces[i].cover] for i in covering_p] + ([1] if lm else []) + [0])
    return Sight(visible_fraction=vis / S, blocking=blocking, covering=covering, cover=COVER_NAME[best],
                 obscured_fraction=obs / S, rays=S)


def sight_matrix(table: "Table", viewers, targets, others=(), h_samples=5, v_samples=3, models_block=True,
                 chunk: int = 2048):
    """Visible fractions and cover codes (0 none, 1 light, 2 heavy), both shaped (V, T).

    Blockers are every model in ``viewers``, ``targets`` and ``others`` (one per id) except the
    viewer and the target of each pair. A viewer looking at itself (same id) sees 1.0, cover 0."""
    viewers, targets = list(viewers), list(targets)
    V, Tn = len(viewers), len(targets)
    vis_out = np.ones((V, Tn))
    cov_out = np.zeros((V, Tn), dtype=np.int8)
    if V == 0 or Tn == 0:
        return vis_out, cov_out
    kernel = table._sight_kernel()
    models, idx = [], {}
    if models_block:
        for m in list(viewers) + list(targets) + list(others):
            if m.id not in idx:
                idx[m.id] = len(models)
                models.append(m)
    marr = _models_arrays(models) if models else None
    vv, tt = np.meshgrid(np.arange(V), np.arange(Tn), indexing="ij")
    vv, tt = vv.ravel(), tt.ravel()
    vid = np.array([v.id for v in viewers], dtype=object)
    tid = np.array([t.id for t in targets], dtype=object)
    diff = vid[vv] != tid[tt]
    vv, tt = vv[diff], tt[diff]
    Ev = np.array([[v.x, v.y, v.z + EYE_FRACTION * v.height] for v in viewers])
    Tt = np.array([[t.x, t.y, t.radius, t.z, t.height] for t in targets])
    vi_all = np.array([idx.get(v.id, -1) for v in viewers])
    ti_all = np.array([idx.get(t.id, -1) for t in targets])
    S = h_samples * v_samples
    for s in range(0, len(vv), chunk):
        a, b = vv[s:s + chunk], tt[s:s + chunk]
        vis, _, cov = kernel.run(Ev[a], Tt[b], vi_all[a], ti_all[b], marr, h_samples, v_samples)
        vis_out[a, b] = vis / S
        cov_out[a, b] = cov
    return vis_out, cov_out


# --------------------------------------------------------------------------- reference (pymunk)

def sight_reference(table: "Table", viewer: Base, target: Base, others=(), h_samples=5, v_samples=3,
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
                table: "Table | None" = None, require_sight: bool = False) -> bool:
    """Was any part of a base of ``mover_radius`` inside the watcher's arc at any point while its
    centre moved along the polyline ``points`` ((x, y) or (x, y, z))? The arc is the infinite
    wedge from the watcher's centre. With ``require_sight`` (needs ``table``) the crossing only
    counts where the watcher could also see the mover's centre line at ground level (sampled every
    ~10 mm; terrain only)."""
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
            n = max(1, int(math.dist(a, b) / 10.0))
            for i in range(n + 1):
                t = i / n
                x, y = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
                probe = Base("_probe", x, y, max(mover_radius, 1e-3), 1.0)
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
