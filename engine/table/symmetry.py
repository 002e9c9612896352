"""How far a layout is from the symmetries that make a two-sided table fair, before any game.

The terrain is rasterised on a fine grid (``RASTER_STEP_MM``) whose cell centres map exactly onto
each other under the three symmetries of a rectangle that matter here: the 180-degree turn about
the table's centre (``point``), the left-right mirror (``mirror_x``: x -> width - x) and the
top-bottom mirror (``mirror_y``: y -> height - y). Each cell holds a code for what terrain covers
it (height, sight, cover, movement; 0 for bare table), so a symmetry's figure is simply: of the
covered cells, the share whose image cell holds no terrain or different terrain. A layout
symmetric under a transform scores 0; a lone piece away from the centre scores 100.

Grid sampling is exact for pieces whose edges do not pass through cell centres (the centres lie
at odd multiples of an eighth of an inch on an inch table); elsewhere a piece that is symmetric
to the map's precision can leave a cell or two along an edge (a few hundredths of a point).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from engine.data.maps import MM_PER

if TYPE_CHECKING:  # pragma: no cover
    from engine.table import Table

RASTER_STEP_MM = 25.4 / 4
OBJECTIVE_TOLERANCE_MM = 25.4 / 4     # an objective's image must land this close to another objective
TRANSFORMS = {
    "point": "180-degree turn about the centre",
    "mirror_x": "left-right mirror (x to width - x)",
    "mirror_y": "top-bottom mirror (y to height - y)",
}
_COVER_BITS = {"none": 0, "light": 8, "heavy": 16}


def _flip(a: np.ndarray, name: str) -> np.ndarray:
    """The array as seen through the transform: ``_flip(a)[r, c]`` is ``a`` at the image of (r, c)."""
    if name == "point":
        return a[::-1, ::-1]
    if name == "mirror_x":
        return a[:, ::-1]
    return a[::-1, :]


def _inside(part, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    from engine.table.geometry import CirclePart

    if isinstance(part, CirclePart):
        return (gx - part.cx) ** 2 + (gy - part.cy) ** 2 <= part.r ** 2
    inside = np.ones(gx.shape, dtype=bool)
    pts = part.points
    for k in range(len(pts)):
        (x0, y0), (x1, y1) = pts[k], pts[(k + 1) % len(pts)]
        inside &= (x1 - x0) * (gy - y0) - (y1 - y0) * (gx - x0) >= -1e-9
    return inside


def _point_in_poly(px, py, poly) -> np.ndarray:
    inside = np.zeros(px.shape, dtype=bool)
    for k in range(len(poly)):
        (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % len(poly)]
        cond = (y0 > py) != (y1 > py)
        with np.errstate(divide="ignore", invalid="ignore"):
            xint = x0 + (py - y0) * (x1 - x0) / (y1 - y0)
        inside ^= cond & (px < xint)
    return inside


@dataclass
class Symmetry:
    step_mm: float
    xs: np.ndarray
    ys: np.ndarray
    codes: np.ndarray                 # (rows, cols) int64: 0 bare table, else what terrain covers the cell
    zone: dict[int, np.ndarray]       # side -> (rows, cols) bool
    objectives: list[tuple[float, float]]    # mm
    width: float
    height: float

    def unmatched(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """(no terrain at the image, different terrain at the image): (rows, cols) bool masks of
        covered cells without a counterpart under transform ``name``."""
        img = _flip(self.codes, name)
        covered = self.codes > 0
        return covered & (img == 0), covered & (img > 0) & (img != self.codes)

    def report(self, name: str) -> dict:
        none, other = self.unmatched(name)
        covered = int((self.codes > 0).sum())
        z1, z2 = self.zone[1], self.zone[2]
        either = z1 | z2
        # does the transform carry zone 1 onto zone 2 (and back)? the share of zone cells it does not
        zmiss = ((z1 != _flip(z2, name)) | (z2 != _flip(z1, name))) & either
        w, h = self.width, self.height
        lost = 0
        for x, y in self.objectives:
            ix, iy = (w - x, h - y) if name == "point" else (w - x, y) if name == "mirror_x" else (x, h - y)
            if not any(abs(ix - u) <= OBJECTIVE_TOLERANCE_MM and abs(iy - v) <= OBJECTIVE_TOLERANCE_MM
                       for u, v in self.objectives):
                lost += 1
        pct = (lambda c: round(100 * c / covered, 2)) if covered else (lambda c: 0.0)
        return {
            "unmatched_pct": pct(int(none.sum() + other.sum())),
            "no_terrain_opposite_pct": pct(int(none.sum())),
            "other_terrain_opposite_pct": pct(int(other.sum())),
            "zone_mismatch_pct": round(100 * int(zmiss.sum()) / int(either.sum()), 2) if either.any() else None,
            "objectives_unmatched": lost,
        }


def symmetry(table: Table, step_mm: float = RASTER_STEP_MM) -> Symmetry:
    """The terrain and zone raster of ``table`` (see the module's note)."""
    W, H = table.width, table.height
    cols, rows = max(1, int(round(W / step_mm))), max(1, int(round(H / step_mm)))
    xs = (np.arange(cols) + 0.5) * (W / cols)
    ys = (np.arange(rows) + 0.5) * (H / rows)
    height = np.zeros((rows, cols))
    bits = np.zeros((rows, cols), dtype=np.int64)
    covered = np.zeros((rows, cols), dtype=bool)
    for p in table.pieces:
        pb = ((1 if p.impassable else 0) | (2 if p.difficult else 0) | (4 if p.obscuring else 0)
              | (32 if p.blocks_sight else 0) | _COVER_BITS.get(p.cover, 0))
        for part in p.parts:
            x0, y0, x1, y1 = part.bbox
            c0, c1 = np.searchsorted(xs, x0, "left"), np.searchsorted(xs, x1, "right")
            r0, r1 = np.searchsorted(ys, y0, "left"), np.searchsorted(ys, y1, "right")
            if c0 >= c1 or r0 >= r1:
                continue
            gx, gy = np.meshgrid(xs[c0:c1], ys[r0:r1])
            ins = _inside(part, gx, gy)
            covered[r0:r1, c0:c1] |= ins
            bits[r0:r1, c0:c1] |= np.where(ins, pb, 0)
            height[r0:r1, c0:c1] = np.where(ins, np.maximum(height[r0:r1, c0:c1], p.height), height[r0:r1, c0:c1])
    codes = np.where(covered, 1 + bits + 64 * np.round(height).astype(np.int64), 0)
    mf = table.mapfile
    k = MM_PER[mf.unit]
    gx, gy = np.meshgrid(xs, ys)
    zone = {1: np.zeros((rows, cols), dtype=bool), 2: np.zeros((rows, cols), dtype=bool)}
    for z in mf.deployment:
        zone[z.side] |= _point_in_poly(gx, gy, [(x * k, y * k) for x, y in z.points])
    objs = [(o.at[0] * k, o.at[1] * k) for o in mf.objectives]
    return Symmetry(step_mm, xs, ys, codes, zone, objs, W, H)


def symmetry_report(table: Table, step_mm: float = RASTER_STEP_MM) -> dict:
    """Per transform: the share of covered area without a counterpart, whether it swaps the
    deployment zones, and how many objectives have no image; ``fair_symmetry`` names the
    transform that swaps the zones and leaves the least terrain unmatched (None when none swaps
    them: no symmetry can make such a table fair by construction)."""
    s = symmetry(table, step_mm)
    out = {name: s.report(name) for name in TRANSFORMS}
    swapping = [n for n in TRANSFORMS if out[n]["zone_mismatch_pct"] is not None and out[n]["zone_mismatch_pct"] < 1.0]
    best = min(swapping, key=lambda n: out[n]["unmatched_pct"]) if swapping else None
    return {"raster_step_mm": round(step_mm, 3), "transforms": out, "fair_symmetry": best,
            "unmatched_pct": out[best]["unmatched_pct"] if best else None}
