"""The editor's live analysis: ``analyse`` reduced to what a panel and an overlay draw, small
enough to send back from a worker process (the visibility matrix itself, 50 MB on a 60x44"
table, stays behind).

``coarse`` uses a 2" grid (a quarter of the points, about a twentieth of the work) for the frames
while a piece is dragged; the full 1" grid is the one ``analyze-map`` reports, used once the
piece drops. The full grid's matrix is kept between requests (in the worker process, as counts
of hiding parts over every cell of the grid), so after an edit only the parts that changed are
measured again: the same matrix as a fresh analysis, in a fraction of the time. A draft that
lacks a side's zone is analysed for everything but the per-side figures.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

FULL_STEP_IN = 1.0
COARSE_STEP_IN = 2.0
# the kept counts are (cells)^2 uint16: 15 MB on a 60x44" table at 1"; above this, measure afresh
KEEP_MAX_CELLS = 6000


@dataclass
class LiveResult:
    version: int                 # the editor's map version this was computed for
    coarse: bool
    metrics: dict
    heat: np.ndarray             # (rows, cols) share of the open table each point sees, NaN in terrain
    hidden: dict                 # side -> (rows, cols) bool: no point of the enemy's zone sees it
    width_mm: float
    height_mm: float
    seconds: float
    error: str | None = None
    cpu_seconds: float = 0.0     # the worker's own CPU time for it (the wall time waits for other jobs)
    kept: bool = False           # the matrix came from the kept counts (only the changed parts measured)


def analyse_map(map_data: dict, version: int, coarse: bool = False, processes: int = 1) -> LiveResult:
    """Analyse a map given as its JSON data (what a worker process receives). ``processes`` > 1
    deals the full grid's visibility matrix to that many forked processes (the editor's worker
    uses both cores once a piece drops: the window idles then)."""
    from engine.table import Table

    from .analysis import analyse

    t0, c0 = time.perf_counter(), time.process_time()
    edits0 = _KEPT.get("edits") if _KEPT else None
    try:
        m = _draft(map_data)
        table = Table(m)
        step = (COARSE_STEP_IN if coarse else FULL_STEP_IN) * 25.4
        matrix = None if coarse else (lambda g: _kept_matrix(table, g, processes))
        a = analyse(table, step_mm=step, processes=1 if coarse else processes, matrix=matrix)
        hidden = {s: a.layer(a.hidden[s].astype(float), fill=0.0) > 0.5 for s in (1, 2)}
        a.metrics["missing_sides"] = sorted({1, 2} - {z.get("side") for z in map_data.get("deployment", [])})
        return LiveResult(version, coarse, a.metrics, a.heat, hidden, table.width, table.height,
                          time.perf_counter() - t0, cpu_seconds=time.process_time() - c0,
                          kept=edits0 is not None and _KEPT.get("edits", -1) > edits0)
    except Exception as err:  # noqa: BLE001 - a draft the table cannot take: say so in the panel
        empty = np.zeros((1, 1))
        return LiveResult(version, coarse, {}, empty, {}, 0.0, 0.0, time.perf_counter() - t0,
                          f"{type(err).__name__}: {err}")


def _draft(map_data: dict):
    """The map, with a stand-in zone (the whole table) for a side that has none yet."""
    from engine.data.maps import MapFile

    sides = {z["side"] for z in map_data.get("deployment", [])}
    data = dict(map_data)
    if sides != {1, 2}:
        w, h = data["width"], data["height"]
        data["deployment"] = list(data.get("deployment", [])) + [
            {"side": s, "points": [[0, 0], [w, 0], [w, h], [0, h]]} for s in (1, 2) if s not in sides]
    return MapFile.model_validate(data)


# the worker's last full-grid matrix: what it was measured for, and the counts of hiding parts
_KEPT: dict = {}


def _part_key(part) -> tuple:
    from engine.table.geometry import CirclePart

    if isinstance(part, CirclePart):
        return ("c", part.cx, part.cy, part.r)
    return ("p", tuple(part.points))


def _kept_matrix(table, g, processes: int = 1):
    """The visibility matrix of ``g``'s open points, from the kept counts brought up to date (the
    parts that left the table taken away, the new ones added), or measured afresh when nothing
    is kept for this table size, grid and eye height."""
    from collections import Counter

    from engine.table.heatmap import DEFAULT_EYE_MM

    from .analysis import hidden_counts, matrix_from_counts, tall_parts, update_counts, visibility_matrix

    if g.rows * g.cols > KEEP_MAX_CELLS:
        _KEPT.clear()
        return visibility_matrix(table, g.pts, processes=processes)
    parts = tall_parts(table.pieces, DEFAULT_EYE_MM)
    now = Counter(_part_key(p) for p in parts)
    key = (table.width, table.height, g.cols, g.rows, DEFAULT_EYE_MM)
    cell = g.idx[:, 0] * g.cols + g.idx[:, 1]          # each open point's cell, ascending
    if _KEPT.get("key") == key:
        by_key = {_part_key(p): p for p in parts} | _KEPT["parts"]
        gone, new = _KEPT["have"] - now, now - _KEPT["have"]
        removed = [by_key[k] for k, c in gone.items() for _ in range(c)]
        added = [by_key[k] for k, c in new.items() for _ in range(c)]
        try:
            update_counts(_KEPT["counts"], _KEPT["pts"], removed, added)
        except ValueError:            # cannot happen unless the kept counts are wrong: start afresh
            _KEPT.clear()
        else:
            _KEPT.update(have=now, parts={_part_key(p): p for p in parts}, edits=_KEPT["edits"] + 1)
            return matrix_from_counts(_KEPT["counts"], cell)
    gx, gy = np.meshgrid(g.xs, g.ys)
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    counts = hidden_counts(parts, pts, processes=processes)
    _KEPT.clear()
    _KEPT.update(key=key, pts=pts, counts=counts, have=now, parts={_part_key(p): p for p in parts}, edits=0)
    return matrix_from_counts(counts, cell)
