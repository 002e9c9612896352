"""A printable setup sheet: what someone building the table in real life needs, at a paper size.

The table is drawn to scale (as large as the page allows) over a measuring grid labelled from
the left and bottom edges, with the deployment zones, objectives and evacuation points; every
piece carries a number, and the list gives each number's name, kind, height and its distances
from the two nearest table edges (to its bounding box: "3" from the left, 12" from the bottom"),
and its turn when it is not square to the table. PDF (every page) or PNG (one file per page).
Needs matplotlib (the workshop extra); no pygame.
"""
from __future__ import annotations

import math
from pathlib import Path

from engine.data.maps import MM_PER, CircleShape, PolygonShape, WallShape

from . import shapes as S

PAPERS = {"A4": (297.0, 210.0), "A3": (420.0, 297.0), "letter": (279.4, 215.9)}    # mm, landscape
MM_PER_INCH = 25.4
ROWS_BESIDE = 44          # list rows that fit beside the map on the first page
ROWS_PER_PAGE = 84        # on each following page (two columns of 42)
SIDE_COLOURS = {1: "#3d6fd0", 2: "#d04a3d"}


def _unit_words(unit: str) -> str:
    return '"' if unit == "in" else f" {unit}"


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def turn_of(shape) -> float | None:
    """How far the piece's longest side is turned from the table's edges, in degrees from -45 to
    45 (counter-clockwise positive); None for a circle, 0 when it is square to the table."""
    if isinstance(shape, CircleShape):
        return None
    if isinstance(shape, WallShape):
        pts = [shape.a, shape.b]
    else:
        pts = [tuple(p) for p in shape.points]
    best, ang = -1.0, 0.0
    for i in range(len(pts) if len(pts) > 2 else 1):
        a, b = pts[i], pts[(i + 1) % len(pts)]
        L = math.dist(a, b)
        if L > best:
            best, ang = L, math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 90.0
    if ang > 45.0:
        ang -= 90.0
    return 0.0 if abs(ang) < 0.5 else round(ang, 1)


def placements(m) -> list[dict]:
    """One row per piece: number, name, kind, height, distances from the nearest side edge and
    the nearest top or bottom edge, and its turn."""
    u = _unit_words(m.unit)
    rows = []
    for i, p in enumerate(m.pieces, start=1):
        x0, y0, x1, y1 = S.bounds(p.shape)
        if x0 <= m.width - x1:
            side = f"{_fmt(max(0.0, x0))}{u} from the left"
        else:
            side = f"{_fmt(max(0.0, m.width - x1))}{u} from the right"
        if y0 <= m.height - y1:
            end = f"{_fmt(max(0.0, y0))}{u} from the bottom"
        else:
            end = f"{_fmt(max(0.0, m.height - y1))}{u} from the top"
        h = p.height_mm(m.unit) / MM_PER[m.unit]
        t = turn_of(p.shape)
        rows.append({"n": i, "name": p.name or p.kind, "kind": p.kind, "height": f"{_fmt(h)}{u}",
                     "size": f"{_fmt(x1 - x0)} x {_fmt(y1 - y0)}{u}", "edges": f"{side}, {end}",
                     "turn": "" if not t else f"turned {t:+.1f}\u00b0"})
    return rows


def _piece_colour(p) -> tuple[str, str]:
    if p.prop("obscuring"):
        return "#a9c79a", "#3f6a34"
    if not p.prop("blocks_sight"):
        return "#ece6d6", "#8a806a"
    if p.height_mm("mm") >= 50:
        return "#6d655c", "#2b2620"
    return "#b5aa98", "#4c4438"


def _pages(m, paper: str, landscape: bool):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, Polygon

    W, H = PAPERS[paper]
    if not landscape:
        W, H = H, W
    size_in = (W / MM_PER_INCH, H / MM_PER_INCH)
    rows = placements(m)
    u = _unit_words(m.unit)
    figs = []
    # Figures of their own, not pyplot's: a sheet of many pages opened more than pyplot's 20 at once
    # and it warned (issue 47); nothing here needs pyplot's registry
    fig = Figure(figsize=size_in)
    beside = landscape and len(rows) <= ROWS_BESIDE
    map_w = 0.64 if beside else 0.92
    ax = fig.add_axes((0.05, 0.08, map_w - 0.02, 0.82))
    ax.set_aspect("equal")
    ax.set_xlim(-m.width * 0.02, m.width * 1.02)
    ax.set_ylim(-m.height * 0.02, m.height * 1.02)
    step = 6.0 if m.unit == "in" else 10.0 if m.unit == "cm" else 100.0
    fine = step / 6.0 if m.unit == "in" else step / 5.0
    k = 0.0
    while k <= m.width + 1e-9:
        ax.axvline(k, color="#d8d2c4" if abs(k / step - round(k / step)) > 1e-9 else "#9a9282", lw=0.3 if
                   abs(k / step - round(k / step)) > 1e-9 else 0.7, zorder=0)
        k += fine
    k = 0.0
    while k <= m.height + 1e-9:
        ax.axhline(k, color="#d8d2c4" if abs(k / step - round(k / step)) > 1e-9 else "#9a9282", lw=0.3 if
                   abs(k / step - round(k / step)) > 1e-9 else 0.7, zorder=0)
        k += fine
    ticks_x = [i * step for i in range(int(m.width // step) + 1)]
    ticks_y = [i * step for i in range(int(m.height // step) + 1)]
    ax.set_xticks(ticks_x, [f"{_fmt(t)}{u}" for t in ticks_x], fontsize=6)
    ax.set_yticks(ticks_y, [f"{_fmt(t)}{u}" for t in ticks_y], fontsize=6)
    ax.add_patch(Polygon(S.rect(0, 0, m.width, m.height), closed=True, fill=False, lw=1.4, color="#222222", zorder=5))
    for z in m.deployment:
        col = SIDE_COLOURS.get(z.side, "#888888")
        ax.add_patch(Polygon(z.points, closed=True, facecolor=col, alpha=0.12, edgecolor=col, lw=0.8,
                             hatch="//", zorder=1))
        cx = sum(p[0] for p in z.points) / len(z.points)
        cy = sum(p[1] for p in z.points) / len(z.points)
        ax.text(cx, cy, f"side {z.side}", color=col, fontsize=7, ha="center", va="center", alpha=0.8, zorder=2)
    small = max(m.width, m.height) / 120
    for i, p in enumerate(m.pieces, start=1):
        face, edge = _piece_colour(p)
        sh = p.shape
        if isinstance(sh, CircleShape):
            ax.add_patch(Circle(sh.center, sh.radius, facecolor=face, edgecolor=edge, lw=0.6, zorder=3))
            at = sh.center
        else:
            pts = _outline(sh)
            ax.add_patch(Polygon(pts, closed=True, facecolor=face, edgecolor=edge, lw=0.6, zorder=3))
            at = S.centre(sh)
        ax.text(at[0], at[1], str(i), fontsize=5.5, ha="center", va="center", zorder=6,
                bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="#555555", lw=0.3, alpha=0.85))
    r = max(small, 20.0 / MM_PER[m.unit])
    for j, o in enumerate(m.objectives, start=1):
        ax.add_patch(Circle(o.at, r, facecolor="#f2c230", edgecolor="#6a4d08", lw=0.8, zorder=7))
        ax.text(o.at[0], o.at[1], f"O{j}", fontsize=5.5, ha="center", va="center", zorder=8, weight="bold")
    for j, o in enumerate(m.evac_points, start=1):
        ax.add_patch(Circle(o.at, r, facecolor="#5bc47c", edgecolor="#1f5a33", lw=0.8, zorder=7))
        ax.text(o.at[0], o.at[1], f"E{j}", fontsize=5.5, ha="center", va="center", zorder=8, weight="bold")
    ax.tick_params(length=2, pad=1)
    fig.text(0.05, 0.955, f"{m.name}: setup sheet", fontsize=13, weight="bold")
    fig.text(0.05, 0.925, f"{_fmt(m.width)} x {_fmt(m.height)}{u} table, {len(m.pieces)} pieces; grid lines every "
             f"{_fmt(fine)}{u}, numbered every {_fmt(step)}{u} from the left and bottom edges. Distances are to each "
             "piece's bounding box; a turn is of its longest side, counter-clockwise positive.", fontsize=7)
    legend = [f"O{j}: objective {o.name or o.id} at {_fmt(o.at[0])}{u} from the left, {_fmt(o.at[1])}{u} from the bottom"
              for j, o in enumerate(m.objectives, start=1)]
    legend += [f"E{j}: evacuation point {o.name or o.id} at {_fmt(o.at[0])}{u}, {_fmt(o.at[1])}{u}"
               for j, o in enumerate(m.evac_points, start=1)]
    fig.text(0.05, 0.015, "   ".join(legend)[:400], fontsize=5.5, wrap=True)
    if beside:
        _list(fig, rows, 0.68, 0.90, 0.31, ROWS_BESIDE)
        figs.append(fig)
        return figs, plt
    figs.append(fig)
    for start in range(0, len(rows), ROWS_PER_PAGE):
        page = Figure(figsize=size_in)
        page.text(0.05, 0.955, f"{m.name}: pieces {start + 1} to {min(len(rows), start + ROWS_PER_PAGE)}",
                  fontsize=11, weight="bold")
        chunk = rows[start:start + ROWS_PER_PAGE]
        half = (len(chunk) + 1) // 2
        _list(page, chunk[:half], 0.05, 0.92, 0.44, ROWS_PER_PAGE // 2)
        _list(page, chunk[half:], 0.52, 0.92, 0.44, ROWS_PER_PAGE // 2)
        figs.append(page)
    return figs, plt


def _outline(sh):
    if isinstance(sh, WallShape):
        from .snapping import outline
        return outline(sh)
    return [tuple(p) for p in sh.points] if isinstance(sh, PolygonShape) else []


def _list(fig, rows, x, top, width, capacity):
    line = min(0.02, 0.86 / max(capacity, 1))
    for i, r in enumerate(rows):
        y = top - i * line
        fig.text(x, y, f"{r['n']:>3}", fontsize=6.2, weight="bold", family="monospace")
        words = f"{r['name'][:28]} ({r['kind']}, {r['height']} tall, {r['size']})"
        fig.text(x + 0.025, y, words, fontsize=6.2)
        fig.text(x + 0.025, y - line * 0.45, f"{r['edges']}{'; ' + r['turn'] if r['turn'] else ''}", fontsize=5.4,
                 color="#444444")


def write_sheet(m, out: str | Path, paper: str = "A4", landscape: bool = True) -> Path:
    """The sheet as one PDF (all pages) or PNG (the first page; the list's pages beside it as
    ``name-2.png`` ...), by ``out``'s suffix."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (one of {', '.join(PAPERS)})")
    out = Path(out)
    figs, plt = _pages(m, paper, landscape)
    try:
        if out.suffix.lower() == ".pdf":
            from matplotlib.backends.backend_pdf import PdfPages

            with PdfPages(out) as pdf:
                for f in figs:
                    pdf.savefig(f)
        else:
            for i, f in enumerate(figs):
                path = out if i == 0 else out.with_name(f"{out.stem}-{i + 1}{out.suffix}")
                f.savefig(path, dpi=150)
    finally:
        for f in figs:
            plt.close(f)
    return out


def write_sheets(m, base: str | Path, paper: str = "A4") -> list[Path]:
    """PDF and PNG side by side: ``base.pdf`` and ``base.png``."""
    base = Path(base)
    return [write_sheet(m, base.with_suffix(".pdf"), paper), write_sheet(m, base.with_suffix(".png"), paper)]
