"""The automatic placement's shared search, fair by construction.

Every ruleset says where it wants each model as a point of the side's frame (``right``,
``ahead``: ``zones.side_frames``) and this module finds the legal spot nearest that point on a
lattice laid out in the same frame, rings outward, ties broken as the player faces the table.
Nothing here reads table coordinates directly, so on a table that is symmetric under the half
turn or a mirror, side 2's search is the image of side 1's step for step: the same roster order
gives each side the image of the other's placement. (Issue 45: a search that started in the same
absolute direction for both sides gave one zone 62% of games on an exactly symmetric table.)
"""
from __future__ import annotations

import math

from engine.core.errors import SetupError
from engine.table import Base
from engine.table.facing import Frame

from .zones import base_inside, frame_extent

# The lattices are shifted off the frame's origin by these fractions of a step (the same in both
# sides' frames, so images stay images): maps are drawn to a hundredth of an inch, and a lattice
# point exactly on a piece's edge is on or off the piece by float noise, which differs between a
# point and its image (seen on the outpost: a container's edge at a whole inch).
SHIFT = (0.3183, 0.2718)


def spot_ok(table, x: float, y: float, radius: float, polys, placed) -> bool:
    return base_inside(x, y, radius, polys) and table.position_problem(x, y, radius, placed) is None


def _ring(k: int) -> list[tuple[int, int]]:
    """The lattice points (i, j) with max(|i|, |j|) == k, nearest first, then the front (j
    larger), then i smaller."""
    if k == 0:
        return [(0, 0)]
    pts = [(i, j) for i in range(-k, k + 1) for j in range(-k, k + 1) if max(abs(i), abs(j)) == k]
    pts.sort(key=lambda p: (p[0] * p[0] + p[1] * p[1], -p[1], p[0]))
    return pts


def nearest_free(table, frame: Frame, polys, right: float, ahead: float, radius: float, placed,
                 step: float = 5.0, rings: int = 200, what: str = "a model") -> tuple[float, float]:
    """The legal spot nearest (``right``, ``ahead``) of ``frame``, on a lattice of ``step`` mm in
    that frame: the base wholly inside the zone (``polys``), where it may stand, clear of
    ``placed``. Raises ``SetupError`` when the zone has no room."""
    for k in range(rings):
        for i, j in _ring(k):
            x, y = frame.point(right + (i + SHIFT[0]) * step, ahead + (j + SHIFT[1]) * step)
            x, y = round(x, 2), round(y, 2)
            if spot_ok(table, x, y, radius, polys, placed):
                return x, y
    raise SetupError(f"no room to deploy {what} in its zone")


def lattice(frame: Frame, polys, step: float, weight_ahead: float = 3.0) -> list[tuple[float, float]]:
    """The points of a lattice of ``step`` mm centred on the frame's origin that lie inside the
    zone, nearest the zone's middle first (the distance ahead counted ``weight_ahead`` times: a
    line across the zone, not a clump), then the front, then i smaller."""
    lo_r, hi_r, lo_a, hi_a = frame_extent(frame, polys)
    ni = int(math.ceil(max(-lo_r, hi_r) / step)) + 1
    nj = int(math.ceil(max(-lo_a, hi_a) / step)) + 1
    out = []
    for i in range(-ni, ni + 1):
        for j in range(-nj, nj + 1):
            r, a = (i + SHIFT[0]) * step, (j + SHIFT[1]) * step
            x, y = frame.point(r, a)
            # a point at least 1 mm inside (no base is smaller): a point on the zone's edge is
            # in or out by float noise, which would differ between a point and its image
            if base_inside(x, y, 1.0, polys):
                out.append((round(math.hypot(r, a * weight_ahead), 6), -j, i, round(x, 2), round(y, 2)))
    out.sort()
    return [(x, y) for *_, x, y in out]


def first_free(table, candidates, polys, radius: float, placed, what: str) -> tuple[float, float]:
    """The first of ``candidates`` (table points, in order) where the base may stand."""
    for x, y in candidates:
        if spot_ok(table, x, y, radius, polys, placed):
            return x, y
    raise SetupError(f"no room to deploy {what} in its zone")


def placed_base(table, mid: str, x: float, y: float, radius: float, height: float, facing: float = 0.0) -> Base:
    return Base(mid, x, y, radius, height, facing, table.surface_height(x, y))


def rounded_heading(frame: Frame, quarter: bool = True) -> float:
    """The side's default facing: ``ahead``, to the nearest quarter turn when ``quarter``."""
    h = frame.heading()
    return round(h / 90.0) * 90.0 % 360.0 if quarter else round(h, 6)
