"""The figures the editor's analysis panel lists, with their change since the last save.

The rows are ``engine.workshop.compare.figure_rows`` (the same figures ``analyze-map A B``
compares), shortened to panel words; a difference is the current layout's figure minus the
saved layout's, shown as + or -. No direction is "better": more sight is not worse, only
different, so the panel colours the sign, not a verdict.
"""
from __future__ import annotations

from engine.workshop.compare import figure_rows

SHORT = {
    "coverage_pct": "terrain cover %",
    "open_share_pct": "open table %",
    "overall_los_pct": "line of sight %",
    "zone_to_zone_sight_pct": "zone sees zone %",
    "dz_hideability_pct": "zone hideable %",
    "dz_exposure_pct": "zone exposure %",
    "objective_hidability_pct": "objectives hidable %",
    "hiding.open_pct": "hidden on table %",
    "longest_lane": "longest lane",
    "zone_to_zone_lanes": "zone-to-zone lanes",
}
SHOWN = ("coverage_pct", "overall_los_pct", "dz_hideability_pct", "dz_exposure_pct", "hiding.open_pct",
         "objective_hidability_pct", "longest_lane", "zone_to_zone_lanes")


def rows(metrics: dict, baseline: dict | None) -> list[tuple[str, str, str, float | None]]:
    """(label, side 1 or whole value, side 2 value or "", difference) per shown figure; per-side
    figures are one row with both sides, the difference being the larger change of the two."""
    cur = dict(figure_rows(metrics))
    base = dict(figure_rows(baseline)) if baseline else {}
    out = []
    for key in SHOWN:
        label = SHORT.get(key, key)
        if f"{key}[1]" in cur:
            a, b = cur[f"{key}[1]"], cur[f"{key}[2]"]
            da = _diff(a, base.get(f"{key}[1]"))
            db = _diff(b, base.get(f"{key}[2]"))
            d = max((x for x in (da, db) if x is not None), key=abs, default=None)
            out.append((label, _fmt(a), _fmt(b), d))
        else:
            v = cur.get(key)
            out.append((label, _fmt(v), "", _diff(v, base.get(key))))
    return out


def symmetry_line(metrics: dict, mode: str | None) -> str:
    """The symmetry score: the share of terrain with no counterpart under the editor's mode, or
    under the symmetry that swaps the sides when no mode is on."""
    sym = metrics.get("symmetry") or {}
    tr = sym.get("transforms") or {}
    if mode and mode in tr:
        return f"{tr[mode]['unmatched_pct']:.1f}% unmatched ({mode.replace('_', ' ')})"
    best = sym.get("fair_symmetry")
    if best:
        return f"{sym['unmatched_pct']:.1f}% unmatched ({best.replace('_', ' ')})"
    if tr:
        v = min(t["unmatched_pct"] for t in tr.values())
        return f"{v:.1f}% unmatched (no symmetry swaps the zones)"
    return "-"


def _diff(a, b):
    if a is None or b is None:
        return None
    d = round(a - b, 2)
    return d


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.1f}"
    return str(v)


def diff_text(d) -> str:
    if d is None or abs(d) < 0.05:
        return ""
    return f"+{d:.1f}" if d > 0 else f"\u2212{abs(d):.1f}"
