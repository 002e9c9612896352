"""Two layouts' sight analyses side by side: every figure with its difference, and what changed
where (openness per point, long lanes one layout has and the other closes).

A figure's difference is B minus A. Lanes: a lane of A is *closed* in B when B's matrix says its
two ends no longer see each other (or an end now lies in terrain); a lane of B is *opened* when
A's matrix said they did not. The picture needs both tables of one size and one grid.

Point by point, B is compared with A *up to the table's symmetry*: when A turned 180 degrees or
mirrored matches B's terrain better than A as it stands (B is A's mirror image, or nearly), A is
read through that transform first, so a mirrored copy shows no change at all. Pieces of one id
whose outline moved (same kind and area) are *moved*, not removed and added.
"""
from __future__ import annotations

import numpy as np

from .symmetry import PER_SIDE, TRANSFORMS, _flip, side_name, side_value


def figure_rows(m: dict) -> list[tuple[str, float | None]]:
    """The comparable figures of one analysis, in the order a report lists them."""
    rows = [("coverage_pct", m["coverage_pct"]), ("open_share_pct", m["open_share_pct"]),
            ("overall_los_pct", m["overall_los_pct"]), ("zone_to_zone_sight_pct", m["zone_to_zone_sight_pct"])]
    for key, sub in PER_SIDE:
        for side in (1, 2):
            rows.append((f"{side_name(key, sub)}[{side}]", side_value(m, key, sub, side)))
    rows.append(("longest_lane", m["longest_lane_in"]))
    rows.append(("zone_to_zone_lanes", sum(1 for ln in m["lanes"] if ln["zone_to_zone"])))
    sym = m.get("symmetry")
    if sym:
        for name, r in sym["transforms"].items():
            rows.append((f"symmetry.{name}.unmatched_pct", r["unmatched_pct"]))
    return rows


def same_grid(a, b) -> bool:
    ga, gb = a.grid, b.grid
    return (ga.rows, ga.cols) == (gb.rows, gb.cols) and np.allclose(ga.xs, gb.xs) and np.allclose(ga.ys, gb.ys)


def image_point(x: float, y: float, name: str | None, w: float, h: float) -> tuple[float, float]:
    """(x, y) through the transform (None: unchanged) on a w x h table."""
    if name == "point":
        return w - x, h - y
    if name == "mirror_x":
        return w - x, y
    if name == "mirror_y":
        return x, h - y
    return x, y


def alignment(a, b) -> str | None:
    """The transform of A whose terrain matches B's best, when it matches better than A as it
    stands (None otherwise, or when the grids differ)."""
    if not same_grid(a, b):
        return None
    ta, tb = np.isnan(a.heat), np.isnan(b.heat)
    best, best_miss = None, int((ta != tb).sum())
    for name in TRANSFORMS:
        miss = int((_flip(ta, name) != tb).sum())
        if miss < best_miss:
            best, best_miss = name, miss
    return best


def _table_mm(an) -> tuple[float, float]:
    g = an.grid
    return 2 * g.xs[0] * g.cols, 2 * g.ys[0] * g.rows


def lane_changes(a, b, name: str | None = None) -> dict:
    """Lanes of A closed in B and lanes of B that A did not have open (ends in mm), A read
    through the transform ``name``."""
    w, h = _table_mm(a)

    def ends(an, lane, tf=None):
        k = an.unit_mm
        return (image_point(lane["from"][0] * k, lane["from"][1] * k, tf, w, h),
                image_point(lane["to"][0] * k, lane["to"][1] * k, tf, w, h))

    closed = [dict(ln, index=i) for i, ln in enumerate(a.lanes, 1) if not b.sees(*ends(a, ln, name))]
    opened = [dict(ln, index=i) for i, ln in enumerate(b.lanes, 1) if not a.sees(*ends(b, ln, name))]
    if name:          # A's closed lanes drawn where they lie on B's table
        for ln in closed:
            k = a.unit_mm
            f, t = ends(a, ln, name)
            ln["from"], ln["to"] = [f[0] / k, f[1] / k], [t[0] / k, t[1] / k]
    return {"closed_in_b": closed, "opened_in_b": opened}


def openness_change(a, b, name: str | None = None) -> np.ndarray:
    """(rows, cols): how much more of the table each point sees in B than in A (a share of the
    whole grid, so taking terrain away elsewhere does not read as a loss); NaN where either
    layout has terrain. A is read through the transform ``name``."""
    sa = a.seen_share_of_table()
    return b.seen_share_of_table() - (_flip(sa, name) if name else sa)


def _geom(piece):
    """The piece's outline, parts and area in map units (built as if the unit were mm)."""
    from engine.table.terrain import build_piece

    return build_piece(0, piece, "mm")


def moved_pieces(map_a, map_b, name: str | None = None) -> list[dict]:
    """Pieces of one id in A (read through ``name``) and B whose outline moved but kept its kind
    and area: each with its centre in A and in B (map units) and its outline in A."""
    w, h = map_a.width, map_a.height
    by_id = {p.id: p for p in map_b.pieces}
    out = []
    for pa in map_a.pieces:
        pb = by_id.get(pa.id)
        if pb is None or pb.kind != pa.kind:
            continue
        ta, tb = _geom(pa), _geom(pb)
        if abs(ta.area - tb.area) > 1e-3 * max(ta.area, 1e-9):
            continue
        ca = _centre(ta)
        ca = image_point(*ca, name, w, h)
        cb = _centre(tb)
        if abs(ca[0] - cb[0]) < 1e-6 and abs(ca[1] - cb[1]) < 1e-6:
            continue
        ring = [image_point(x, y, name, w, h) for x, y in ta.outline] if ta.outline else []
        out.append({"id": pa.id, "from": [round(ca[0], 4), round(ca[1], 4)], "to": [round(cb[0], 4), round(cb[1], 4)],
                    "outline_a": [[round(x, 4), round(y, 4)] for x, y in ring],
                    "radius": ta.radius})
    return out


def _centre(tp) -> tuple[float, float]:
    if tp.center is not None:
        return tp.center
    xs = [x for x, _ in tp.outline]
    ys = [y for _, y in tp.outline]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def compare(a, b, map_a=None, map_b=None) -> dict:
    """Figures of A and B with B - A, and (on one grid) the lane changes and openness change, A
    read through the symmetry that matches B best; with the maps, the pieces that moved."""
    ra, rb = dict(figure_rows(a.metrics)), dict(figure_rows(b.metrics))
    rows = []
    for name in ra:
        va, vb = ra[name], rb.get(name)
        d = None if va is None or vb is None else round(vb - va, 2)
        rows.append({"figure": name, "a": va, "b": vb, "diff": d})
    out: dict = {"figures": rows, "same_grid": same_grid(a, b)}
    if out["same_grid"]:
        by = alignment(a, b)
        out["aligned_by"] = by
        out.update(lane_changes(a, b, by))
        change = openness_change(a, b, by)
        both = np.isfinite(change)
        ta = _flip(np.isnan(a.heat), by) if by else np.isnan(a.heat)
        out["openness_change"] = {
            "opened_points": int((change[both] > 0.05).sum()),      # sees at least 5% more of the table
            "closed_points": int((change[both] < -0.05).sum()),
            "terrain_added_cells": int((np.isnan(b.heat) & ~ta).sum()),
            "terrain_removed_cells": int((ta & ~np.isnan(b.heat)).sum()),
        }
        if map_a is not None and map_b is not None:
            out["moved_pieces"] = moved_pieces(map_a, map_b, by)
    return out
