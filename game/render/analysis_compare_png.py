"""The picture of B against A (sight opened or closed, terrain added, removed or moved) and the figures' names."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from . import analysis_marks as AM
from .analysis_frame import (
    DIFF_SCALE,
    PANEL_W,
    TERRAIN_ADDED,
    TERRAIN_REMOVED,
    _blit_cells,
    _frame,
    _Panel,
    _pygame,
    _save,
    diff_rgb,
)
from .analysis_lanes import _lanes, _marker_rects
from .analysis_symmetry_png import SYM_TITLES


# --- B against A ----------------------------------------------------------------------
def save_compare_png(map_a, map_b, a, b, comparison: dict, path, width_px: int = 1600,
                     info: dict | None = None) -> Path:
    """B's table with the change of openness from A (fixed +-50 point scale), the outlines of
    A's pieces that B does not have, and the lanes gained or lost."""
    pygame = _pygame()
    from .text import text_halo

    fr = _frame(map_b, f"{map_a.name}  ->  {map_b.name}: what changed", width_px, labels=False)
    from engine.workshop.compare import openness_change

    name = comparison.get("aligned_by")
    d = openness_change(a, b, name)
    rgb = diff_rgb(d)
    # the stronger the change the more opaque: unchanged ground shows the map beneath
    alpha = np.where(np.isfinite(d), np.clip(np.abs(np.nan_to_num(d)) / 0.1, 0, 1) * 210, 0).astype(np.uint8)
    rgba = np.dstack([rgb.astype(np.uint8), alpha])
    # terrain added (open in A, terrain in B) and removed (terrain in A, open in B)
    from engine.workshop.compare import image_point
    from engine.workshop.symmetry import _flip

    ta = _flip(np.isnan(a.heat), name) if name else np.isnan(a.heat)
    moved = comparison.get("moved_pieces", [])
    still = _moved_cells(map_b, a.grid, moved)
    added = np.isnan(b.heat) & ~ta & ~still
    removed = ta & ~np.isnan(b.heat) & ~still
    rgba[added] = (*TERRAIN_ADDED, 220)
    rgba[removed] = (*TERRAIN_REMOVED, 200)
    _blit_cells(fr, rgba)
    AM.terrain_lines(fr, map_b)
    AM.zone_labels(fr)
    k = map_a.mm_per_unit
    w, h = map_a.width, map_a.height
    sig_b = {(p.id, p.shape.model_dump_json()) for p in map_b.pieces}
    moved_ids = {mv["id"] for mv in moved}
    from engine.table.terrain import build_piece

    kb = map_b.mm_per_unit
    b_keys = {_piece_key(build_piece(0, p, map_b.unit), kb) for p in map_b.pieces}
    for p in map_a.pieces:
        if (p.id, p.shape.model_dump_json()) in sig_b or p.id in moved_ids:
            continue
        tp = build_piece(0, p, map_a.unit)
        if _piece_key(tp, k, name, w, h) in b_keys:
            continue                     # B has it at its image: nothing changed here
        for part in tp.parts:
            if hasattr(part, "points"):
                img = [image_point(x / k, y / k, name, w, h) for x, y in part.points]
                pygame.draw.polygon(fr.sub, TERRAIN_REMOVED, [fr.cam.to_screen(*q) for q in img], 2)
            else:
                c = image_point(part.cx / k, part.cy / k, name, w, h)
                pygame.draw.circle(fr.sub, TERRAIN_REMOVED, fr.cam.to_screen(*c), part.r / k * fr.scale, 2)
    AM.moved_marks(fr, moved, 1.0)
    avoid = _marker_rects(fr, map_b)
    closed = comparison.get("closed_in_b", [])
    opened = comparison.get("opened_in_b", [])
    lanes = ([dict(ln, _kind="closed") for ln in closed] + [dict(ln, _kind="opened") for ln in opened])
    _lanes(fr, [dict(ln, index=f"{'A' if ln['_kind'] == 'closed' else 'B'}{ln['index']}") for ln in lanes], avoid, info,
           colours=lambda ln: (120, 170, 255) if ln["_kind"] == "closed" else (255, 60, 200),
           dashed_for=lambda ln: ln["_kind"] == "closed")
    p = _Panel(fr)
    p.line("B - A", 20, True)
    p.line(f"A: {map_a.name}", 14)
    p.line(f"B: {map_b.name}", 14)
    if name:
        p.line(f"A read through its {SYM_TITLES[name]}: B matches it best", 13, colour=(255, 220, 150))
    if moved:
        p.swatch(AM.MOVED, f"moved pieces: A's place dashed, arrow to B's ({len(moved)})")
    p.head("Sight change: share of the table each point sees")
    p.bar(diff_rgb(np.linspace(-DIFF_SCALE, DIFF_SCALE, PANEL_W - 40)), f"-{DIFF_SCALE * 100:.0f}", f"+{DIFF_SCALE * 100:.0f} points", "0")
    p.line("fixed scale; blue: sees less in B, orange: sees more; clear: no change", 13, colour=(200, 195, 185))
    p.swatch(TERRAIN_ADDED, "terrain in B, open in A")
    p.swatch(TERRAIN_REMOVED, "terrain in A, open in B (with A's outline)")
    p.head("Lanes")
    p.swatch((120, 170, 255), f"A's lane closed in B ({len(closed)})")
    p.swatch((255, 60, 200), f"B's lane that A had closed ({len(opened)})")
    p.head("Figures")
    p.row("", ("A", "B", "B - A"), colour=(200, 195, 185))
    for row in comparison["figures"]:
        if row["diff"] is None and row["a"] is None:
            continue
        dv = row["diff"]
        col = (255, 200, 120) if dv else (200, 195, 185)
        fa = "-" if row["a"] is None else f"{row['a']:.1f}"
        fb = "-" if row["b"] is None else f"{row['b']:.1f}"
        fd = "-" if dv is None else f"{dv:+.1f}"
        p.row(FIGURE_LABELS.get(row["figure"], row["figure"]), (fa, fb, fd), colour=col)
    surf_h = fr.surf.get_height()
    if p.y > surf_h - 10:
        fr.surf.blit(text_halo("(more figures in the text output)", 12), (fr.px, surf_h - 18))
    return _save(fr.surf, path)


def _moved_cells(map_b, grid, moved: list[dict]) -> np.ndarray:
    """Grid cells inside a moved piece, where it stood (A, through the alignment) or stands (B):
    they are shown by the arrow, not as terrain added or removed."""
    out = np.zeros(grid.open.shape, dtype=bool)
    if not moved:
        return out
    from engine.data.maps import point_in_polygon

    k = map_b.mm_per_unit
    gx, gy = np.meshgrid(grid.xs / k, grid.ys / k)
    by_id = {p.id: p for p in map_b.pieces}
    from engine.table.terrain import build_piece

    for mv in moved:
        rings = [mv["outline_a"]] if mv["outline_a"] else []
        tp = build_piece(0, by_id[mv["id"]], map_b.unit)
        for part in tp.parts:
            if hasattr(part, "points"):
                rings.append([(x / k, y / k) for x, y in part.points])
            else:
                out |= (gx - part.cx / k) ** 2 + (gy - part.cy / k) ** 2 <= (part.r / k) ** 2
        if not mv["outline_a"] and mv.get("radius"):
            out |= (gx - mv["from"][0]) ** 2 + (gy - mv["from"][1]) ** 2 <= mv["radius"] ** 2
        for ring in rings:
            x0, y0 = min(x for x, _ in ring), min(y for _, y in ring)
            x1, y1 = max(x for x, _ in ring), max(y for _, y in ring)
            sel = (gx >= x0) & (gx <= x1) & (gy >= y0) & (gy <= y1)
            for r, c in np.argwhere(sel):
                out[r, c] |= point_in_polygon(gx[r, c], gy[r, c], ring)
    return out


def _piece_key(tp, k: float, name=None, w: float = 0.0, h: float = 0.0):
    """A piece's outline as a set of rounded corners (map units), read through ``name``; a disc
    as its centre and radius: what finds A's pieces that B has at their image."""
    from engine.workshop.compare import image_point

    if tp.outline:
        return frozenset((round(x, 3), round(y, 3)) for x, y in
                         (image_point(px / k, py / k, name, w, h) for px, py in tp.outline))
    c = image_point(tp.center[0] / k, tp.center[1] / k, name, w, h)
    return (round(c[0], 3), round(c[1], 3), round(tp.radius / k, 3))


FIGURE_LABELS = {
    "coverage_pct": "coverage %", "open_share_pct": "open table %", "overall_los_pct": "line of sight %",
    "zone_to_zone_sight_pct": "zone-to-zone sight %", "longest_lane": "longest lane",
    "zone_to_zone_lanes": "zone-to-zone lanes",
}
for _s in (1, 2):
    FIGURE_LABELS.update({
        f"dz_hideability_pct[{_s}]": f"DZ hideable {_s} %", f"dz_exposure_pct[{_s}]": f"DZ exposure {_s} %",
        f"objective_hidability_pct[{_s}]": f"objectives hidable {_s} %",
        f"hiding.open_pct[{_s}]": f"hidden, table {_s} %", f"hiding.own_half_pct[{_s}]": f"hidden, own half {_s} %",
        f"hiding.enemy_half_pct[{_s}]": f"hidden, enemy half {_s} %",
    })
for _n, _t in SYM_TITLES.items():
    FIGURE_LABELS[f"symmetry.{_n}.unmatched_pct"] = f"{_t}: unmatched %"
