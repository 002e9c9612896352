"""Draw a map's sight analysis to a PNG: the openness heatmap and the longest firing lanes over
the map, objective control circles coloured by hidability, a legend and the figures."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .png import _headless_env

PANEL_W = 400


def _ramp(v: np.ndarray) -> np.ndarray:
    """Openness 0..1 (share of the max) -> RGB: deep blue (hidden) - teal - yellow - red (open)."""
    stops = np.array([[30, 40, 140], [20, 150, 160], [240, 220, 60], [220, 40, 30]], float)
    t = np.clip(v, 0, 1) * (len(stops) - 1)
    k = np.minimum(t.astype(int), len(stops) - 2)
    f = (t - k)[..., None]
    return stops[k] * (1 - f) + stops[k + 1] * f


def save_analysis_png(mapfile, analysis, path, width_px: int = 1600) -> Path:
    """``analysis``: an ``engine.workshop.analysis.SightAnalysis`` of ``mapfile``."""
    _headless_env()
    import pygame

    from .table_view import TableRenderer
    from .text import plate, reset_fonts, text_halo

    m = mapfile
    if not pygame.font.get_init():
        pygame.font.init()
        reset_fonts()
    margin = max(24, width_px // 40)
    top, bottom = margin + 30, margin + 34
    map_w = width_px - PANEL_W
    scale = (map_w - 2 * margin) / m.width
    height_px = max(int(round(m.height * scale)) + top + bottom, 720)
    surf = pygame.Surface((width_px, height_px))
    surf.fill((28, 24, 20))
    r = TableRenderer(m)
    cam = r.fit_camera((map_w, height_px))
    cam.scale = scale
    cam.ox = -margin / scale
    cam.oy = m.height + top / scale
    sub = surf.subsurface(pygame.Rect(0, 0, map_w, height_px))
    r.draw(sub, cam)
    k = m.mm_per_unit
    g = analysis.grid
    heat = analysis.heat
    hmax = float(np.nanmax(heat)) if np.isfinite(heat).any() else 1.0
    rgb = _ramp(np.nan_to_num(heat / max(hmax, 1e-9), nan=0.0))
    alpha = np.where(np.isnan(heat), 0, 150).astype(np.uint8)
    rgba = np.dstack([rgb.astype(np.uint8), alpha])[::-1]          # rows go up on the table
    img = pygame.image.frombuffer(np.ascontiguousarray(rgba).tobytes(), (g.cols, g.rows), "RGBA")
    x0, y1 = cam.to_screen(0, m.height)
    x1, y0 = cam.to_screen(m.width, 0)
    img = pygame.transform.scale(img, (int(round(x1 - x0)), int(round(y0 - y1))))
    sub.blit(img, (int(round(x0)), int(round(y1))))
    # objectives: control circles, green when both sides can hide a model in range, amber one, red none
    met = analysis.metrics
    ctrl = met["control_range_mm"] / k
    for o in met["objectives"]:
        n_h = int(o["hidable_side1"]) + int(o["hidable_side2"])
        col = [(220, 50, 40), (240, 170, 40), (60, 200, 80)][n_h]
        cx, cy = cam.to_screen(o["x"], o["y"])
        pygame.draw.circle(sub, col, (cx, cy), max(3, ctrl * scale), 3)
        pygame.draw.circle(sub, col, (cx, cy), 5)
    # lanes
    for i, lane in enumerate(analysis.lanes, 1):
        a = cam.to_screen(*lane["from"])
        b = cam.to_screen(*lane["to"])
        col = (255, 60, 200) if lane["zone_to_zone"] else (250, 250, 250)
        pygame.draw.line(sub, (10, 10, 10), a, b, 6)
        pygame.draw.line(sub, col, a, b, 3)
        for e in (a, b):
            pygame.draw.circle(sub, col, e, 5)
        lab = plate(f"{i}: {lane['length']:.0f}", 14)
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        sub.blit(lab, (mx - lab.get_width() / 2, my - lab.get_height() / 2))
    title = text_halo(f"{m.name}: sight analysis", 26, bold=True)
    surf.blit(title, (margin, (top - title.get_height()) // 2 + 2))
    # panel
    px, py = map_w + 8, top
    unit = '"' if m.unit == "in" else f" {m.unit}"

    def line(text, size=16, bold=False, colour=(248, 242, 228)):
        nonlocal py
        t = text_halo(text, size, colour=colour, bold=bold)
        surf.blit(t, (px, py))
        py += t.get_height() + 4

    line("Figures", 20, True)
    hz, ex, oh = met["dz_hideability_pct"], met["dz_exposure_pct"], met["objective_hidability_pct"]
    f = lambda v: "–" if v is None else f"{v:.1f}%"  # noqa: E731
    line(f"overall line of sight   {met['overall_los_pct']:.1f}%")
    line(f"DZ hideable   side 1 {f(hz['1'])}   side 2 {f(hz['2'])}")
    line(f"DZ exposure   side 1 {f(ex['1'])}   side 2 {f(ex['2'])}")
    line(f"objectives hidable   side 1 {f(oh['1'])}   side 2 {f(oh['2'])}")
    line(f"longest lane   {met['longest_lane_in']:.1f}{unit}")
    line(f"terrain coverage   {met['coverage_pct']:.1f}%")
    line(f"eye {met['eye_mm']:.0f} mm, grid {met['grid_step_mm'] / k:g}{unit}, control {ctrl:g}{unit}", 13,
         colour=(200, 195, 185))
    py += 10
    line("Openness (share of open table seen)", 18, True)
    bar_w, bar_h = PANEL_W - 40, 18
    ramp = _ramp(np.linspace(0, 1, bar_w))
    for xk in range(bar_w):
        pygame.draw.line(surf, ramp[xk].astype(int).tolist(), (px + xk, py), (px + xk, py + bar_h))
    py += bar_h + 2
    lo_t, hi_t = text_halo("0%", 13), text_halo(f"{hmax * 100:.0f}%", 13)
    surf.blit(lo_t, (px, py))
    surf.blit(hi_t, (px + bar_w - hi_t.get_width(), py))
    py += lo_t.get_height() + 12
    line("Lanes (longest open sight lines)", 18, True)
    pygame.draw.line(surf, (255, 60, 200), (px, py + 9), (px + 40, py + 9), 3)
    surf.blit(text_halo("deployment zone to zone", 14), (px + 50, py))
    py += 24
    pygame.draw.line(surf, (250, 250, 250), (px, py + 9), (px + 40, py + 9), 3)
    surf.blit(text_halo("other", 14), (px + 50, py))
    py += 30
    line("Objectives (control range)", 18, True)
    for col, text in (((60, 200, 80), "both sides can hide in range"), ((240, 170, 40), "one side can"),
                      ((220, 50, 40), "neither side can")):
        pygame.draw.circle(surf, col, (px + 12, py + 9), 8, 3)
        surf.blit(text_halo(text, 14), (px + 32, py))
        py += 24
    py += 8
    for i, lane in enumerate(analysis.lanes, 1):
        line(f"{i}: {lane['length']:.1f}{unit}  ({lane['from'][0]:g}, {lane['from'][1]:g}) - "
             f"({lane['to'][0]:g}, {lane['to'][1]:g})", 13)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(path))
    return path
