"""Draw a map's sight analysis to PNGs a designer can lay side by side:

- ``save_analysis_png``: the openness heatmap on one fixed 0-100% scale, the longest firing lanes,
  each objective's control circle coloured by which side can hold it unseen, with the point counts;
- ``save_hiding_png``: where each side can stand hidden from the enemy's deployment zone;
- ``save_symmetry_png``: the terrain that has no counterpart under each symmetry of the table;
- ``save_compare_png``: B against A: where sight opened or closed, terrain added or removed, and
  the lanes one layout has that the other closes.

Labels are placed by ``place_labels`` (pure geometry, tested): a lane's label sits on its lane
where it covers no other label and no objective marker, or is left to the panel's list.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import analysis_marks as AM
from .png import headless_pygame

PANEL_W = 420
MIN_H = 800

# viridis (matplotlib's perceptually uniform map), five stops: dark = hidden, yellow = open
_VIRIDIS = np.array([[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]], float)
# closed (sees less) blue - white - orange (sees more)
_DIVERGING = np.array([[40, 90, 200], [120, 160, 230], [245, 245, 245], [250, 170, 90], [215, 80, 20]], float)
DIFF_SCALE = 0.5          # the difference picture's colour scale ends at +-50 points of the table
SIDE_HIDE = {1: (70, 130, 255), 2: (240, 70, 55)}
BOTH_HIDE = (180, 90, 220)
TERRAIN_ADDED = (15, 15, 15)
TERRAIN_REMOVED = (60, 230, 140)
HIDE_COLOURS = {"both": (60, 200, 80), 1: (110, 160, 255), 2: (255, 110, 90), "none": (235, 235, 235)}


def _ramp(v: np.ndarray, stops: np.ndarray = _VIRIDIS) -> np.ndarray:
    """0..1 -> RGB along ``stops`` (values outside are clipped)."""
    t = np.clip(v, 0, 1) * (len(stops) - 1)
    k = np.minimum(t.astype(int), len(stops) - 2)
    f = (t - k)[..., None]
    return stops[k] * (1 - f) + stops[k + 1] * f


def heat_rgb(heat: np.ndarray) -> np.ndarray:
    """Openness (share of the open table seen, 0..1) -> RGB on the fixed scale: the same share is
    the same colour on every map."""
    return _ramp(np.nan_to_num(heat, nan=0.0))


def diff_rgb(d: np.ndarray) -> np.ndarray:
    """Openness change (B - A, share of the table) -> RGB on the fixed +-DIFF_SCALE scale."""
    return _ramp(np.nan_to_num(d, nan=0.0) / (2 * DIFF_SCALE) + 0.5, _DIVERGING)


# --- label placement (pure geometry) --------------------------------------------------
Rect = tuple[float, float, float, float]      # x, y, w, h in pixels


def overlaps(a: Rect, b: Rect, pad: float = 0.0) -> bool:
    return (a[0] < b[0] + b[2] + pad and b[0] < a[0] + a[2] + pad
            and a[1] < b[1] + b[3] + pad and b[1] < a[1] + a[3] + pad)


ALONG = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.12, 0.88)


def place_labels(segments, sizes, avoid=(), bounds: Rect | None = None, pad: float = 2.0) -> list[Rect | None]:
    """A rectangle for each label, or None where none fits: label ``i`` (``sizes[i]`` = (w, h))
    is centred on segment ``i`` ((ax, ay), (bx, by)) at the first of ``ALONG`` fractions of its
    length, or nudged across it by up to one label height, where it overlaps no rectangle in
    ``avoid``, no label already placed (``pad`` px apart) and stays inside ``bounds``."""
    placed: list[Rect] = []
    out: list[Rect | None] = []
    for ((ax, ay), (bx, by)), (w, h) in zip(segments, sizes):
        L = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / L, (bx - ax) / L          # unit normal
        got = None
        for t in ALONG:
            cx, cy = ax + t * (bx - ax), ay + t * (by - ay)
            for s in (0.0, 0.5, -0.5, 1.0, -1.0):
                r = (cx + s * h * nx - w / 2, cy + s * h * ny - h / 2, w, h)
                if bounds is not None and not (bounds[0] <= r[0] and r[0] + w <= bounds[0] + bounds[2]
                                               and bounds[1] <= r[1] and r[1] + h <= bounds[1] + bounds[3]):
                    continue
                if any(overlaps(r, o, pad) for o in avoid) or any(overlaps(r, o, pad) for o in placed):
                    continue
                got = r
                break
            if got:
                break
        out.append(got)
        if got:
            placed.append(got)
    return out


# --- the frame: the map on the left, a panel of figures on the right ------------------
@dataclass
class Frame:
    surf: object
    sub: object
    cam: object
    renderer: object
    map_w: int
    margin: int
    top: int
    scale: float
    px: int
    py: int

    def table_rect(self) -> Rect:
        m = self.renderer.map
        x0, y1 = self.cam.to_screen(0, m.height)
        x1, y0 = self.cam.to_screen(m.width, 0)
        return (x0, y1, x1 - x0, y0 - y1)


_pygame = headless_pygame          # pygame, headless, fonts ready (``png.headless_pygame``)


def _frame(m, title: str, width_px: int = 1600, panel_w: int = PANEL_W, labels: bool = True) -> Frame:
    pygame = _pygame()
    from .table_view import TableRenderer
    from .text import text_halo

    margin = max(24, width_px // 40)
    top, bottom = margin + 30, margin + 34
    map_w = width_px - panel_w
    scale = (map_w - 2 * margin) / m.width
    height_px = max(int(round(m.height * scale)) + top + bottom, MIN_H)
    surf = pygame.Surface((width_px, height_px))
    surf.fill((28, 24, 20))
    r = TableRenderer(m)
    cam = r.fit_camera((map_w, height_px))
    cam.scale = scale
    cam.ox = -margin / scale
    cam.oy = m.height + top / scale
    sub = surf.subsurface(pygame.Rect(0, 0, map_w, height_px))
    r.draw(sub, cam, labels=labels)
    t = text_halo(title, 26, bold=True)
    surf.blit(t, (margin, (top - t.get_height()) // 2 + 2))
    return Frame(surf, sub, cam, r, map_w, margin, top, scale, map_w + 8, top)


def _blit_cells(fr: Frame, rgba: np.ndarray) -> None:
    """Lay a (rows, cols, 4) uint8 image (row 0 at the table's bottom) over the table."""
    pygame = _pygame()
    rows, cols = rgba.shape[:2]
    img = pygame.image.frombuffer(np.ascontiguousarray(rgba[::-1]).tobytes(), (cols, rows), "RGBA")
    x, y, w, h = fr.table_rect()
    img = pygame.transform.scale(img, (int(round(w)), int(round(h))))
    fr.sub.blit(img, (int(round(x)), int(round(y))))


class _Panel:
    """Lines of text down the right-hand panel."""

    def __init__(self, fr: Frame):
        self.fr, self.x, self.y = fr, fr.px, fr.py

    def line(self, text, size=16, bold=False, colour=(248, 242, 228), dx=0):
        from .text import text_halo

        t = text_halo(text, size, colour=colour, bold=bold)
        self.fr.surf.blit(t, (self.x + dx, self.y))
        self.y += t.get_height() + 4

    def row(self, label, cells, size=13, colour=(248, 242, 228), right=(255, 320, 390)):
        """A label and its cells on one line, each cell right-aligned at ``right`` px."""
        from .text import text_halo

        a = text_halo(label, size, colour=colour)
        self.fr.surf.blit(a, (self.x, self.y))
        for text, x in zip(cells, right):
            t = text_halo(text, size, colour=colour)
            self.fr.surf.blit(t, (self.x + x - t.get_width(), self.y))
        self.y += a.get_height() + 2

    def head(self, text):
        self.y += 8
        self.line(text, 18, True)

    def swatch(self, colour, text, size=14, ring=False, dashed=False):
        pygame = _pygame()
        from .text import text_halo

        if ring:
            _ring(self.fr.surf, colour, (self.x + 12, self.y + 9), 8, dashed)
        else:
            pygame.draw.rect(self.fr.surf, colour, (self.x + 2, self.y + 2, 20, 14))
        self.fr.surf.blit(text_halo(text, size), (self.x + 32, self.y))
        self.y += 22

    def bar(self, rgb: np.ndarray, lo: str, hi: str, mid: str | None = None):
        pygame = _pygame()
        from .text import text_halo

        w, h = PANEL_W - 40, 18
        for xk in range(w):
            pygame.draw.line(self.fr.surf, rgb[xk].astype(int).tolist(), (self.x + xk, self.y), (self.x + xk, self.y + h))
        self.y += h + 2
        for text, at in ((lo, 0.0), (mid, 0.5), (hi, 1.0)):
            if text is None:
                continue
            t = text_halo(text, 13)
            x = self.x + at * w - at * t.get_width()
            self.fr.surf.blit(t, (x, self.y))
        self.y += 20


def _ring(surf, colour, c, r, dashed=False, width=3):
    pygame = _pygame()
    if not dashed:
        pygame.draw.circle(surf, (10, 10, 10), c, r + 1, width + 2)
        pygame.draw.circle(surf, colour, c, r, width)
        return
    rect = pygame.Rect(c[0] - r, c[1] - r, 2 * r, 2 * r)
    for k in range(12):
        a0 = k * math.pi / 6
        pygame.draw.arc(surf, colour, rect, a0, a0 + math.pi / 10, width)


def _marker_radius(fr: Frame) -> float:
    return max(7.0, 20.0 / fr.cam.mm_per_unit * fr.cam.scale)     # the renderer's 40 mm marker


def _marker_rects(fr: Frame, mapfile) -> list[Rect]:
    """What the renderer draws at each objective (the marker and its number)."""
    r = _marker_radius(fr)
    out = []
    for o in mapfile.objectives:
        cx, cy = fr.cam.to_screen(*o.at)
        out.append((cx - 1.2 * r, cy - 1.8 * r, 3.0 * r, 3.0 * r))
    return out


def _objectives(fr: Frame, mapfile, met: dict, info: dict | None) -> list[Rect]:
    """Control circles coloured by which side can hold the objective unseen from the enemy's
    zone, and under each marker a badge per side with the number of observer points in range
    where it can. Returns the rectangles labels must avoid (markers and badges)."""
    from .look import SIDE_COLOURS
    from .text import plate

    fr.renderer._markers(fr.sub, fr.cam)         # again, over the overlay that tinted them

    ctrl = met["control_range_mm"] / mapfile.mm_per_unit
    avoid = _marker_rects(fr, mapfile)
    r = _marker_radius(fr)
    for o in met["objectives"]:
        by = o.get("hidable_by", [s for s in (1, 2) if o[f"hidable_side{s}"]])
        col = HIDE_COLOURS["both"] if len(by) == 2 else HIDE_COLOURS[by[0]] if by else HIDE_COLOURS["none"]
        cx, cy = fr.cam.to_screen(o["x"], o["y"])
        _ring(fr.sub, col, (cx, cy), max(3, ctrl * fr.scale), dashed=not by)
        n_in = max(1, o.get("points", 0))
        AM.share_arcs(fr.sub, (cx, cy), max(3, ctrl * fr.scale),
                      {s: o[f"hidden_points_side{s}"] / n_in for s in (1, 2)}, SIDE_HIDE)
        badges = []
        for s in (1, 2):
            n = o[f"hidden_points_side{s}"]
            bg = (*SIDE_COLOURS[s], 230) if n else (50, 46, 42, 220)
            badges.append(plate(f"{s}: {n}" if n else f"{s}: 0", 13, bg=bg))
        w = sum(b.get_width() for b in badges) + 3
        x = cx - w / 2
        y = cy + 1.3 * r
        for b in badges:
            fr.sub.blit(b, (x, y))
            avoid.append((x, y, b.get_width(), b.get_height()))
            x += b.get_width() + 3
    if info is not None:
        info["avoid_rects"] = list(avoid)
    return avoid


def _lanes(fr: Frame, lanes: list[dict], avoid: list[Rect], info: dict | None, prefix: str = "",
           colours=None, dashed_for=None) -> None:
    pygame = _pygame()
    from .text import plate

    segs, labels = [], []
    for i, lane in enumerate(lanes, 1):
        a = fr.cam.to_screen(*lane["from"])
        b = fr.cam.to_screen(*lane["to"])
        col = colours(lane) if colours else ((255, 60, 200) if lane["zone_to_zone"] else (250, 250, 250))
        dashed = dashed_for(lane) if dashed_for else False
        if dashed:
            n = max(2, int(math.dist(a, b) // 14))
            for k in range(0, n, 2):
                p = (a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n)
                q = (a[0] + (b[0] - a[0]) * (k + 1) / n, a[1] + (b[1] - a[1]) * (k + 1) / n)
                pygame.draw.line(fr.sub, (10, 10, 10), p, q, 6)
                pygame.draw.line(fr.sub, col, p, q, 3)
        else:
            pygame.draw.line(fr.sub, (10, 10, 10), a, b, 6)
            pygame.draw.line(fr.sub, col, a, b, 3)
        for e in (a, b):
            pygame.draw.circle(fr.sub, col, e, 5)
        segs.append((a, b))
        labels.append(plate(f"{prefix}{lane.get('index', i)}: {lane['length']:.0f}", 14))
    # ends of every lane are markers too: a label must not hide where a lane starts
    ends = [(e[0] - 6, e[1] - 6, 12, 12) for s in segs for e in s]
    bounds = (0, 0, fr.map_w, fr.sub.get_height())
    rects = place_labels(segs, [(lb.get_width(), lb.get_height()) for lb in labels], list(avoid) + ends, bounds)
    for lb, r in zip(labels, rects):
        if r is not None:
            fr.sub.blit(lb, (round(r[0]), round(r[1])))
    if info is not None:
        info["label_rects"] = [r for r in rects if r is not None]
        info["unplaced_labels"] = sum(r is None for r in rects)


def _save(surf, path) -> Path:
    pygame = _pygame()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(path))
    return path


def _unit(m) -> str:
    return '"' if m.unit == "in" else f" {m.unit}"


def _f(v, unit="%") -> str:
    return "-" if v is None else f"{v:.1f}{unit}"


def _reading(met: dict, m) -> str:
    k = m.mm_per_unit
    u = _unit(m)
    fp = ", footprints block (40k)" if met.get("footprints_block") else ""
    return (f"eye {met['eye_mm']:.0f} mm, grid {met['grid_step_mm'] / k:g}{u}, "
            f"control {met['control_range_mm'] / k:g}{u}{fp}")


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


SIDE_LABELS = {
    "dz_hideability_pct": "deployment zone hideable", "dz_exposure_pct": "zone's exposure to the enemy's half",
    "objective_hidability_pct": "objectives hidable", "hiding.open_pct": "hidden on the open table",
    "hiding.own_half_pct": "hidden in its own half", "hiding.enemy_half_pct": "hidden in the enemy's half",
}
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
