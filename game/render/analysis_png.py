"""Draw a map's sight analysis to PNGs a designer can lay side by side:

- ``save_analysis_png``: the openness heatmap on one fixed 0-100% scale, the longest firing lanes,
  each objective's control circle coloured by which side can hold it unseen, with the point counts;
- ``save_hiding_png``: where each side can stand hidden from the enemy's deployment zone;
- ``analysis_symmetry_png.save_symmetry_png``: the terrain that has no counterpart under each
  symmetry of the table;
- ``analysis_compare_png.save_compare_png``: B against A: where sight opened or closed, terrain
  added or removed, and the lanes one layout has that the other closes.

The frame, panel and colour scales they share are in ``analysis_frame``; the objectives, lanes and
their labels in ``analysis_lanes``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from . import analysis_marks as AM
from .analysis_frame import (
    BOTH_HIDE,
    HIDE_COLOURS,
    PANEL_W,
    SIDE_HIDE,
    _blit_cells,
    _f,
    _frame,
    _Panel,
    _pygame,
    _reading,
    _save,
    _unit,
    heat_rgb,
)
from .analysis_lanes import _lanes, _objectives


# --- the openness picture -------------------------------------------------------------
def save_analysis_png(mapfile, analysis, path, width_px: int = 1600, info: dict | None = None) -> Path:
    """``analysis``: an ``engine.workshop.analysis.SightAnalysis`` of ``mapfile``. ``info``, when
    given, receives the label and marker rectangles (for tests)."""
    m = mapfile
    fr = _frame(m, f"{m.name}: sight analysis", width_px)
    heat = analysis.heat
    rgb = heat_rgb(heat)
    alpha = np.where(np.isnan(heat), 0, 160).astype(np.uint8)
    _blit_cells(fr, np.dstack([rgb.astype(np.uint8), alpha]))
    thin = AM.terrain_lines(fr, m)
    AM.zone_labels(fr)
    if info is not None:
        info["thin_pieces"] = thin
    met = analysis.metrics
    avoid = _objectives(fr, m, met, info)
    _lanes(fr, analysis.lanes, avoid, info)
    u = _unit(m)
    p = _Panel(fr)
    p.line("Figures", 20, True)
    hz, ex, oh = met["dz_hideability_pct"], met["dz_exposure_pct"], met["objective_hidability_pct"]
    p.line(f"overall line of sight   {met['overall_los_pct']:.1f}%")
    p.line(f"DZ hideable   side 1 {_f(hz['1'])}   side 2 {_f(hz['2'])}")
    p.line(f"DZ exposure   side 1 {_f(ex['1'])}   side 2 {_f(ex['2'])}")
    p.line(f"objectives hidable   side 1 {_f(oh['1'])}   side 2 {_f(oh['2'])}")
    p.line(f"longest lane   {met['longest_lane_in']:.1f}{u}")
    p.line(f"terrain coverage   {met['coverage_pct']:.1f}%")
    p.line(_reading(met, m), 13, colour=(200, 195, 185))
    p.head("Openness: share of the open table seen")
    p.bar(heat_rgb(np.linspace(0, 1, PANEL_W - 40)), "0%", "100%", "50%")
    p.line("fixed scale: the same colour means the same share on every map", 13, colour=(200, 195, 185))
    p.head("Lanes (longest open sight lines)")
    p.swatch((255, 60, 200), "deployment zone to zone")
    p.swatch((250, 250, 250), "other")
    p.head("Objectives: who can hold it unseen")
    p.line("(in control range, hidden from the enemy's zone)", 13, colour=(200, 195, 185))
    for key, text in (("both", "both sides"), (1, "side 1 only"), (2, "side 2 only"), ("none", "neither side")):
        p.swatch(HIDE_COLOURS[key], text, ring=True, dashed=key == "none")
    p.line("badges: observer points in range where side 1 / 2 is unseen", 13, colour=(200, 195, 185))
    p.line("arcs: their share of the points in range (side 1 outer)", 13, colour=(200, 195, 185))
    p.y += 6
    for i, lane in enumerate(analysis.lanes, 1):
        p.line(f"{i}: {lane['length']:.1f}{u}  ({lane['from'][0]:g}, {lane['from'][1]:g}) - "
               f"({lane['to'][0]:g}, {lane['to'][1]:g})", 13)
    return _save(fr.surf, path)


# --- where each side can hide ---------------------------------------------------------
def hiding_classes(analysis) -> np.ndarray:
    """Per open point: 0 seen from both zones, 1 hidden from zone 2 only (side 1's refuge),
    2 hidden from zone 1 only (side 2's), 3 hidden from both."""
    h1, h2 = analysis.hidden[1], analysis.hidden[2]
    return h1.astype(int) + 2 * h2.astype(int)


def save_hiding_png(mapfile, analysis, path, width_px: int = 1600, info: dict | None = None) -> Path:
    """Where each side can stand out of sight of every point of the enemy's deployment zone."""
    m = mapfile
    fr = _frame(m, f"{m.name}: where each side can hide from the enemy's zone", width_px)
    cls = analysis.layer(hiding_classes(analysis), fill=-1).astype(int)
    rgba = np.zeros(cls.shape + (4,), dtype=np.uint8)
    colours = {0: (20, 18, 16, 120), 1: (*SIDE_HIDE[1], 190), 2: (*SIDE_HIDE[2], 190), 3: (*BOTH_HIDE, 190)}
    for c, col in colours.items():
        rgba[cls == c] = col
    # where the halves meet: a dotted line, so "own half" and "enemy half" can be read off
    half = analysis.layer(analysis.halves[1].astype(float) - analysis.halves[2].astype(float), fill=np.nan)
    edge = np.zeros(cls.shape, dtype=bool)
    edge[:, 1:] |= (half[:, 1:] != half[:, :-1]) & np.isfinite(half[:, 1:]) & np.isfinite(half[:, :-1])
    edge[1:, :] |= (half[1:, :] != half[:-1, :]) & np.isfinite(half[1:, :]) & np.isfinite(half[:-1, :])
    _blit_cells(fr, rgba)
    pygame = _pygame()
    g = analysis.grid
    for r, c in np.argwhere(edge):
        pygame.draw.circle(fr.sub, (250, 250, 250), fr.cam.to_screen(g.xs[c] / m.mm_per_unit, g.ys[r] / m.mm_per_unit), 2)
    AM.terrain_lines(fr, m)
    AM.zone_labels(fr)
    met = analysis.metrics
    _objectives(fr, m, met, info)
    hid = met["hiding"]
    counts = np.bincount(hiding_classes(analysis), minlength=4) if len(analysis.grid.pts) else np.zeros(4, int)
    n = max(1, int(counts.sum()))
    p = _Panel(fr)
    p.line("Hidden from the enemy's deployment zone", 20, True)
    p.line("no point of the enemy's zone sees it (level sight at the eye)", 13, colour=(200, 195, 185))
    p.swatch(SIDE_HIDE[1], f"side 1 can hide here   {counts[1]} points ({100 * counts[1] / n:.1f}%)")
    p.swatch(SIDE_HIDE[2], f"side 2 can hide here   {counts[2]} points ({100 * counts[2] / n:.1f}%)")
    p.swatch(BOTH_HIDE, f"either side can          {counts[3]} points ({100 * counts[3] / n:.1f}%)")
    p.swatch((60, 56, 52), f"seen from both zones   {counts[0]} points ({100 * counts[0] / n:.1f}%)")
    p.swatch((250, 250, 250), "dots: where the halves meet (each half is nearer its own zone)")
    for s in (1, 2):
        h = hid[str(s)]
        p.head(f"Side {s}")
        p.line(f"hidden on {_f(h['open_pct'])} of the open table ({h['points']} points)")
        p.line(f"   in its own half {_f(h['own_half_pct'])}, in the enemy's half {_f(h['enemy_half_pct'])}")
        p.line(f"deployment zone hideable {_f(met['dz_hideability_pct'][str(s)])}")
        p.line(f"exposure of its zone to the enemy's half {_f(met['dz_exposure_pct'][str(s)])}")
    p.head("Objectives (points in range where unseen)")
    for o in met["objectives"]:
        who = {2: "both sides", 1: f"side {o['hidable_by'][0]} only" if o.get("hidable_by") else ""}.get(
            len(o.get("hidable_by", [])), "neither side")
        p.line(f"{o['id']}{(' ' + o['name']) if o.get('name') else ''}: {who}  "
               f"(1: {o['hidden_points_side1']}, 2: {o['hidden_points_side2']} of {o['points']})", 14)
    p.y += 6
    p.line(_reading(met, m), 13, colour=(200, 195, 185))
    return _save(fr.surf, path)
