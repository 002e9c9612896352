"""The symmetry picture: the terrain with no counterpart under each symmetry of the table, and its figures."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .analysis_frame import _pygame, _reading, _save

# --- symmetry -------------------------------------------------------------------------
SYM_TITLES = {"point": "180-degree turn", "mirror_x": "left-right mirror", "mirror_y": "top-bottom mirror"}


def save_symmetry_png(mapfile, table, metrics: dict, path, width_px: int = 1600) -> Path:
    """Three small maps, one per symmetry: terrain with no counterpart (red: bare table opposite,
    orange: other terrain opposite) and the outlines where the counterparts would stand; the
    figures and the per-side differences beside them."""
    pygame = _pygame()
    from engine.workshop.symmetry import TRANSFORMS, symmetry

    from .table_view import TableRenderer
    from .text import text_halo

    m = mapfile
    sym = symmetry(table)
    rep = metrics["symmetry"]
    gap = 16
    cell_w = (width_px - 3 * gap) // 2
    scale = (cell_w - 2 * gap) / m.width
    cell_h = int(round(m.height * scale)) + 2 * gap + 30
    height_px = 70 + 2 * cell_h + gap
    surf = pygame.Surface((width_px, height_px))
    surf.fill((28, 24, 20))
    t = text_halo(f"{m.name}: symmetry (is the table the same for both sides?)", 26, bold=True)
    surf.blit(t, (gap, 20))
    k = m.mm_per_unit
    for idx, name in enumerate(TRANSFORMS):
        cx0 = gap + (idx % 2) * (cell_w + gap)
        cy0 = 70 + (idx // 2) * (cell_h + gap)
        sub = surf.subsurface(pygame.Rect(cx0, cy0, cell_w, cell_h))
        r = TableRenderer(m)
        cam = r.fit_camera((cell_w, cell_h))
        cam.scale = scale
        cam.ox = -gap / scale
        cam.oy = m.height + (gap + 30) / scale
        r.draw(sub, cam, labels=False, scale_bar=False)
        none, other = sym.unmatched(name)
        rgba = np.zeros(none.shape + (4,), dtype=np.uint8)
        rgba[none] = (235, 40, 40, 210)
        rgba[other] = (250, 160, 30, 210)
        img = pygame.image.frombuffer(np.ascontiguousarray(rgba[::-1]).tobytes(), (none.shape[1], none.shape[0]), "RGBA")
        x0, y1 = cam.to_screen(0, m.height)
        x1, y0 = cam.to_screen(m.width, 0)
        sub.blit(pygame.transform.scale(img, (int(round(x1 - x0)), int(round(y0 - y1)))), (int(round(x0)), int(round(y1))))
        W, H = m.width, m.height

        def image(x, y, name=name):
            return (W - x, H - y) if name == "point" else (W - x, y) if name == "mirror_x" else (x, H - y)

        for piece in table.pieces:
            for part in piece.parts:
                if hasattr(part, "points"):
                    pts = [cam.to_screen(*image(px / k, py / k)) for px, py in part.points]
                    pygame.draw.polygon(sub, (250, 250, 250), pts, 1)
                else:
                    c = cam.to_screen(*image(part.cx / k, part.cy / k))
                    pygame.draw.circle(sub, (250, 250, 250), c, max(1, part.r / k * scale), 1)
        for o in m.objectives:
            c = cam.to_screen(*image(*o.at))
            pygame.draw.circle(sub, (250, 250, 250), c, 6, 2)
        rr = rep["transforms"][name]
        swaps = rr["zone_mismatch_pct"] is not None and rr["zone_mismatch_pct"] < 1.0
        head = (f"{SYM_TITLES[name]}: {rr['unmatched_pct']:.1f}% of the terrain unmatched"
                + ("  (swaps the zones)" if swaps else "  (does not swap the zones)"))
        col = (120, 230, 120) if swaps and rr["unmatched_pct"] < 1 else (248, 242, 228)
        sub.blit(text_halo(head, 17, colour=col, bold=True), (gap, 6))
    # the fourth cell: the figures
    px, py = gap + cell_w + gap + 10, 70 + cell_h + gap + 6

    def line(text, size=15, bold=False, colour=(248, 242, 228)):
        nonlocal py
        s = text_halo(text, size, colour=colour, bold=bold)
        surf.blit(s, (px, py))
        py += s.get_height() + 3

    line("Terrain with no counterpart", 18, True)
    pygame.draw.rect(surf, (235, 40, 40), (px, py + 2, 18, 12))
    surf.blit(text_halo("bare table where its image falls", 14), (px + 26, py))
    py += 20
    pygame.draw.rect(surf, (250, 160, 30), (px, py + 2, 18, 12))
    surf.blit(text_halo("other terrain there (height, sight, cover or movement)", 14), (px + 26, py))
    py += 20
    line("white outlines: where each piece's counterpart would stand", 13, colour=(200, 195, 185))
    for name in TRANSFORMS:
        rr = rep["transforms"][name]
        zm = "-" if rr["zone_mismatch_pct"] is None else f"{rr['zone_mismatch_pct']:.0f}%"
        line(f"{SYM_TITLES[name]}: unmatched {rr['unmatched_pct']:.1f}% (bare {rr['no_terrain_opposite_pct']:.1f}, "
             f"other {rr['other_terrain_opposite_pct']:.1f}); zones off {zm}; objectives off {rr['objectives_unmatched']}", 13)
    best = rep["fair_symmetry"]
    line(f"symmetry that swaps the sides: {SYM_TITLES.get(best, 'none')}"
         + (f", {rep['unmatched_pct']:.1f}% unmatched" if best else ""), 15, True)
    py += 6
    line("Side 1 minus side 2 (sight figures)", 18, True)
    for key, v in metrics["side_difference"].items():
        txt = "-" if v is None else f"{v:+.1f} points"
        warn = v is not None and abs(v) >= 5
        line(f"{SIDE_LABELS.get(key, key)}: {txt}", 14, colour=(255, 170, 120) if warn else (248, 242, 228))
    line(_reading(metrics, m), 13, colour=(200, 195, 185))
    return _save(surf, path)


SIDE_LABELS = {
    "dz_hideability_pct": "deployment zone hideable", "dz_exposure_pct": "zone's exposure to the enemy's half",
    "objective_hidability_pct": "objectives hidable", "hiding.open_pct": "hidden on the open table",
    "hiding.own_half_pct": "hidden in its own half", "hiding.enemy_half_pct": "hidden in the enemy's half",
}
