"""Estimate the share of the table covered by terrain (overlaps counted once).

    python tools/mapgen/coverage.py maps/outpost.json [step]

Samples the centres of a fine grid of cells (default 0.1 map units, i.e. 0.1" or 1 mm)
and marks every sample that falls inside any piece: point-in-polygon (even-odd), inside a
circle, or within half the thickness of a wall segment. Numpy does it per piece on the
piece's bounding box only, so a 48x36" table at 0.1" takes well under a second.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np


def _shape_mask(shape, X, Y):
    kind = shape["type"] if isinstance(shape, dict) else shape.type
    g = (lambda k: shape[k]) if isinstance(shape, dict) else (lambda k: getattr(shape, k))
    if kind == "circle":
        cx, cy = g("center")
        r = g("radius")
        return (X - cx) ** 2 + (Y - cy) ** 2 <= r * r
    if kind == "wall":
        (ax, ay), (bx, by), t = g("a"), g("b"), g("thickness")
        dx, dy = bx - ax, by - ay
        L2 = dx * dx + dy * dy
        u = np.clip(((X - ax) * dx + (Y - ay) * dy) / L2, 0.0, 1.0)
        px, py = ax + u * dx - X, ay + u * dy - Y
        return px * px + py * py <= (t / 2) ** 2
    pts = g("points")
    inside = np.zeros(X.shape, dtype=bool)
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        if y0 == y1:
            continue
        crosses = (y0 > Y) != (y1 > Y)
        xi = x0 + (Y - y0) * (x1 - x0) / (y1 - y0)
        inside ^= crosses & (X < xi)
    return inside


def _bounds(shape):
    kind = shape["type"] if isinstance(shape, dict) else shape.type
    g = (lambda k: shape[k]) if isinstance(shape, dict) else (lambda k: getattr(shape, k))
    if kind == "circle":
        (cx, cy), r = g("center"), g("radius")
        return cx - r, cy - r, cx + r, cy + r
    if kind == "wall":
        (ax, ay), (bx, by), t = g("a"), g("b"), g("thickness")
        return min(ax, bx) - t, min(ay, by) - t, max(ax, bx) + t, max(ay, by) + t
    xs = [p[0] for p in g("points")]
    ys = [p[1] for p in g("points")]
    return min(xs), min(ys), max(xs), max(ys)


def coverage_mask(m, step: float = 0.1) -> np.ndarray:
    """Boolean grid [row=y, col=x] of the sample points covered by any piece.

    ``m`` is a ``MapFile`` or the equivalent dict (as read from JSON).
    """
    get = (lambda k: m[k]) if isinstance(m, dict) else (lambda k: getattr(m, k))
    W, H = float(get("width")), float(get("height"))
    nx, ny = int(round(W / step)), int(round(H / step))
    xs = (np.arange(nx) + 0.5) * (W / nx)
    ys = (np.arange(ny) + 0.5) * (H / ny)
    covered = np.zeros((ny, nx), dtype=bool)
    for p in get("pieces"):
        shape = p["shape"] if isinstance(p, dict) else p.shape
        x0, y0, x1, y1 = _bounds(shape)
        i0, i1 = np.searchsorted(xs, [x0, x1])
        j0, j1 = np.searchsorted(ys, [y0, y1])
        if i1 <= i0 or j1 <= j0:
            continue
        X, Y = np.meshgrid(xs[i0:i1], ys[j0:j1])
        covered[j0:j1, i0:i1] |= _shape_mask(shape, X, Y)
    return covered


def coverage(m, step: float = 0.1) -> float:
    """Covered share of the table area, 0..1."""
    return float(coverage_mask(m, step).mean())


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    import json
    step = float(argv[1]) if len(argv) > 1 else 0.1
    for path in argv[:1] or sorted(str(p) for p in (Path(__file__).resolve().parents[2] / "maps").glob("*.json")):
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        print(f"{path}: {len(data['pieces'])} pieces, coverage {coverage(data, step):.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
