"""What one or more models can see of the table: a grid of probes, for the client's sight and
threat shading (and the AI's threat maps).

A cell counts as seen when a model ``probe_height`` tall with a ``probe_radius`` base standing
at its centre would show at least one sight ray to some viewer (``Table.sight_matrix``: the
same rays and heights as every other sight question). Only terrain blocks here: other models
are left out, since a shading of the whole table is a plan of what the ground allows (the
hover line between two models counts them). Cells where no base may stand (inside buildings,
walls, rocks) are never marked.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .bases import Base

if TYPE_CHECKING:  # pragma: no cover
    from .table import Table


@dataclass(frozen=True)
class Grid:
    """A boolean raster over the table. ``mask[row, col]`` is the cell whose centre is
    (origin x + (col + 0.5) * cell, origin y + (row + 0.5) * cell) in table mm: rows go up (+y)."""
    origin: tuple[float, float]
    cell: float
    mask: np.ndarray

    def centre(self, row: int, col: int) -> tuple[float, float]:
        return (self.origin[0] + (col + 0.5) * self.cell, self.origin[1] + (row + 0.5) * self.cell)

    def contains(self, x: float, y: float) -> bool:
        col = int((x - self.origin[0]) // self.cell)
        row = int((y - self.origin[1]) // self.cell)
        h, w = self.mask.shape
        return 0 <= row < h and 0 <= col < w and bool(self.mask[row, col])


def standing_cells(table: Table, cell_mm: float, probe_radius: float) -> tuple[np.ndarray, list, list]:
    """(mask of cells where a probe base may stand, their (row, col, x, y), their surface
    heights) on a cell_mm grid; cached on the table, which never changes."""
    key = ("standing", round(cell_mm, 6), round(probe_radius, 6))
    cache = table.__dict__.setdefault("_visibility_cache", {})
    if key not in cache:
        cols, rows = int(table.width / cell_mm + 1e-9), int(table.height / cell_mm + 1e-9)
        ok = np.zeros((rows, cols), dtype=bool)
        cells = []
        for r in range(rows):
            y = (r + 0.5) * cell_mm
            for c in range(cols):
                x = (c + 0.5) * cell_mm
                if table.position_problem(x, y, probe_radius) is None:
                    ok[r, c] = True
                    cells.append((r, c, x, y))
        cache[key] = (ok, cells, [table.surface_height(x, y) for _, _, x, y in cells])
    return cache[key]


def visible_grid(table: Table, viewers: Sequence[Base], cell_mm: float = 25.4,
                 probe_radius: float = 12.5, probe_height: float = 30.0) -> Grid:
    ok, cells, zs = standing_cells(table, cell_mm, probe_radius)
    mask = np.zeros_like(ok)
    viewers = list(viewers)
    if viewers and cells:
        probes = [Base(f"~probe{i}", x, y, probe_radius, probe_height, 0.0, z)
                  for i, ((_, _, x, y), z) in enumerate(zip(cells, zs))]
        vis, _ = table.sight_matrix(viewers, probes, models_block=False)
        seen = (vis > 0).any(axis=0)
        for (r, c, _, _), s in zip(cells, seen):
            mask[r, c] = s
    return Grid((0.0, 0.0), cell_mm, mask)
