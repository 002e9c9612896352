"""Two layouts' sight analyses side by side: every figure with its difference, and what changed
where (openness per point, long lanes one layout has and the other closes).

A figure's difference is B minus A. Lanes: a lane of A is *closed* in B when B's matrix says its
two ends no longer see each other (or an end now lies in terrain); a lane of B is *opened* when
A's matrix said they did not. The picture needs both tables of one size and one grid.
"""
from __future__ import annotations

import numpy as np

from .symmetry import PER_SIDE, side_name, side_value


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


def lane_changes(a, b) -> dict:
    """Lanes of A closed in B and lanes of B that A did not have open (ends in mm)."""
    def ends(an, lane):
        k = an.unit_mm
        return (lane["from"][0] * k, lane["from"][1] * k), (lane["to"][0] * k, lane["to"][1] * k)

    closed = [dict(ln, index=i) for i, ln in enumerate(a.lanes, 1) if not b.sees(*ends(a, ln))]
    opened = [dict(ln, index=i) for i, ln in enumerate(b.lanes, 1) if not a.sees(*ends(b, ln))]
    return {"closed_in_b": closed, "opened_in_b": opened}


def openness_change(a, b) -> np.ndarray:
    """(rows, cols): how much more of the table each point sees in B than in A (a share of the
    whole grid, so taking terrain away elsewhere does not read as a loss); NaN where either
    layout has terrain."""
    return b.seen_share_of_table() - a.seen_share_of_table()


def compare(a, b) -> dict:
    """Figures of A and B with B - A, and (on one grid) the lane changes and openness change."""
    ra, rb = dict(figure_rows(a.metrics)), dict(figure_rows(b.metrics))
    rows = []
    for name in ra:
        va, vb = ra[name], rb.get(name)
        d = None if va is None or vb is None else round(vb - va, 2)
        rows.append({"figure": name, "a": va, "b": vb, "diff": d})
    out: dict = {"figures": rows, "same_grid": same_grid(a, b)}
    if out["same_grid"]:
        out.update(lane_changes(a, b))
        d = openness_change(a, b)
        both = np.isfinite(d)
        out["openness_change"] = {
            "opened_points": int((d[both] > 0.05).sum()),      # sees at least 5% more of the table
            "closed_points": int((d[both] < -0.05).sum()),
            "terrain_added_cells": int((np.isnan(b.heat) & ~np.isnan(a.heat)).sum()),
            "terrain_removed_cells": int((np.isnan(a.heat) & ~np.isnan(b.heat)).sum()),
        }
    return out
