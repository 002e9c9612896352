"""The reach shading: the reach raster (``reach.py``) refined where it changes, so that every
point shaded is one the move's ``check`` accepts.

The raster shades a cell when ``check`` accepts its centre, so along the boundary a shaded cell
may hold refused points up to half a cell's diagonal away. Where a base barely fits through a gap
that is most of what is shaded (issue 58: on the Ford of Bones the Hut and the Chief's Hut stand
2.9 cm apart, a Doubles base is 2.5 cm across, and an eighth of the green strip drawn between them
was refused with "overlaps the Chief's Hut"). ``refine`` draws the shading on a grid ``sub``
times finer:

- a cell whose centre and its eight neighbours' centres are all accepted is shaded whole: what is
  refused (a base's or a piece's footprint grown by the base's radius, at least 2.5 cm across;
  ground beyond the allowance) cannot fit between centres a cell apart without covering one;
- a cell whose centre and its neighbours' are all refused is left out;
- every other cell (the band along the boundary) is cut into ``sub`` x ``sub`` fine cells, and a
  fine cell is shaded only when ``accepts`` takes all four of its corners (one batched question,
  ``MoveSpace.accepts``: the raster's own tests at those points).

So the shading errs only on the side of leaving out: a point it leaves out may still be accepted
within one fine cell of its edge (and on strips narrower than a cell, such as the top of a fence,
which the raster never shaded). ``tests/test_reach_shading_agrees.py`` holds both sides.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .reach import Reach


def _neighbourhood(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(all, any) of each cell's 3 x 3 neighbourhood; outside the grid counts as refused (the
    grid holds the allowance's whole disc on the table)."""
    H, W = mask.shape
    pad = np.pad(mask, 1, constant_values=False)
    every = np.ones_like(mask)
    some = np.zeros_like(mask)
    for dj in (0, 1, 2):
        for di in (0, 1, 2):
            sub = pad[dj:dj + H, di:di + W]
            every &= sub
            some |= sub
    return every, some


def refine(r: Reach, sub: int, accepts: Callable[[np.ndarray], np.ndarray]) -> Reach:
    """``r`` on a grid of ``r.cell / sub`` (same origin; no cost), refined as the module says.
    ``accepts(P)`` answers for points P (N, 2): True where the move there is legal."""
    H, W = r.mask.shape
    every, some = _neighbourhood(r.mask)
    fine = np.repeat(np.repeat(every, sub, axis=0), sub, axis=1)
    band = some & ~every
    if not band.any():
        return Reach(r.x0, r.y0, r.cell / sub, fine)
    # the corners of the band's fine cells, each asked once
    need = np.zeros((H * sub + 1, W * sub + 1), bool)
    for j, i in zip(*band.nonzero()):
        need[j * sub:(j + 1) * sub + 1, i * sub:(i + 1) * sub + 1] = True
    fj, fi = need.nonzero()
    step = r.cell / sub
    P = np.column_stack([r.x0 + fi * step, r.y0 + fj * step])
    ok = np.zeros_like(need)
    ok[fj, fi] = np.asarray(accepts(P), bool)
    corners = ok[:-1, :-1] & ok[1:, :-1] & ok[:-1, 1:] & ok[1:, 1:]
    in_band = np.repeat(np.repeat(band, sub, axis=0), sub, axis=1)
    fine[in_band] = corners[in_band]
    return Reach(r.x0, r.y0, step, fine)
