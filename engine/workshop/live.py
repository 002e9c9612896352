"""The editor's live analysis: ``analyse`` reduced to what a panel and an overlay draw, small
enough to send back from a worker process (the visibility matrix itself, 50 MB on a 60x44"
table, stays behind).

``coarse`` uses a 2" grid (a quarter of the points, about a twentieth of the work) for the frames
while a piece is dragged; the full 1" grid is the one ``analyze-map`` reports, used once the
piece drops. A draft that lacks a side's zone is analysed for everything but the per-side
figures.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

FULL_STEP_IN = 1.0
COARSE_STEP_IN = 2.0


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


def analyse_map(map_data: dict, version: int, coarse: bool = False, processes: int = 1) -> LiveResult:
    """Analyse a map given as its JSON data (what a worker process receives). ``processes`` > 1
    deals the full grid's visibility matrix to that many forked processes (the editor's worker
    uses both cores once a piece drops: the window idles then)."""
    from engine.table import Table

    from .analysis import analyse

    t0, c0 = time.perf_counter(), time.process_time()
    try:
        m = _draft(map_data)
        table = Table(m)
        step = (COARSE_STEP_IN if coarse else FULL_STEP_IN) * 25.4
        a = analyse(table, step_mm=step, processes=1 if coarse else processes)
        hidden = {s: a.layer(a.hidden[s].astype(float), fill=0.0) > 0.5 for s in (1, 2)}
        a.metrics["missing_sides"] = sorted({1, 2} - {z.get("side") for z in map_data.get("deployment", [])})
        return LiveResult(version, coarse, a.metrics, a.heat, hidden, table.width, table.height,
                          time.perf_counter() - t0, cpu_seconds=time.process_time() - c0)
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
