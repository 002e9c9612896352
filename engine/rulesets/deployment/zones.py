"""Where a side deploys: its zone in millimetres, whether a base stands wholly inside it, and
each side's frame as its player faces the table, chosen so that the frames of the two sides are
each other's image under the table's own symmetry (the ground of fair automatic placement).
"""
from __future__ import annotations

import math

from engine.data.maps import point_in_polygon
from engine.table.facing import Frame, zone_frame
from engine.table.symmetry import symmetry_report


def zone_polys(mapfile, side: int) -> list[list[tuple[float, float]]]:
    """The polygons of ``side``'s deployment zone, in table millimetres (a map may give a side
    more than one)."""
    k = mapfile.mm_per_unit
    return [[(x * k, y * k) for x, y in z.points] for z in mapfile.deployment if z.side == side]


def _edge_gap(x: float, y: float, poly) -> float:
    """The distance from (x, y) to the nearest edge of ``poly``."""
    best = math.inf
    n = len(poly)
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        dx, dy = bx - ax, by - ay
        ll = dx * dx + dy * dy
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / ll))
        best = min(best, math.hypot(x - ax - t * dx, y - ay - t * dy))
    return best


# how far a base may reach past its zone's edge and still count as inside: placements are kept
# to 0.01 mm, so a base touching the edge, or its image across the table, may pass it by that much
EDGE_TOLERANCE_MM = 0.02


def base_inside(x: float, y: float, radius: float, polys) -> bool:
    """Does a base of ``radius`` centred at (x, y) stand wholly inside one of ``polys``?"""
    return any(point_in_polygon(x, y, p) and _edge_gap(x, y, p) >= radius - EDGE_TOLERANCE_MM for p in polys)


def zones_overlap(mapfile) -> bool:
    """Do the two sides' zones share any ground? (Hidden deployment needs them apart: a spot
    refused for a hidden enemy base would give that base away.)"""
    a, b = zone_polys(mapfile, 1), zone_polys(mapfile, 2)
    for p in a:
        for q in b:
            if any(point_in_polygon(x, y, q) for x, y in p) or any(point_in_polygon(x, y, p) for x, y in q):
                return True
            if _polys_cross(p, q):
                return True
    return False


def _polys_cross(p, q) -> bool:
    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    for i in range(len(p)):
        a1, a2 = p[i], p[(i + 1) % len(p)]
        for j in range(len(q)):
            b1, b2 = q[j], q[(j + 1) % len(q)]
            d1, d2 = cross(b1, b2, a1), cross(b1, b2, a2)
            d3, d4 = cross(a1, a2, b1), cross(a1, a2, b2)
            if d1 * d2 < 0 and d3 * d4 < 0:
                return True
    return False


def fair_symmetry(table) -> str | None:
    """The symmetry of the table that swaps the two zones and leaves the least terrain without
    an image (``engine/table/symmetry.py``'s ``fair_symmetry``: "point", "mirror_x",
    "mirror_y", or None when none swaps the zones). Worked out once per table."""
    memo = table.__dict__.setdefault("_deploy_memo", {})
    if "symmetry" not in memo:
        memo["symmetry"] = symmetry_report(table)["fair_symmetry"]
    return memo["symmetry"]


def side_frames(table) -> dict[int, Frame]:
    """Each side's frame (``engine/table/facing.py``): origin at its zone's middle, ``ahead``
    toward the table's middle. On a table whose zone-swapping symmetry is a mirror, side 2's
    frame is mirrored (``hand`` -1), so that a point given in side 1's frame and the same numbers
    in side 2's are each other's mirror image; under the half turn they already are."""
    memo = table.__dict__.setdefault("_deploy_memo", {})
    if "frames" not in memo:
        mf = table.mapfile
        hand2 = -1.0 if (fair_symmetry(table) or "").startswith("mirror") else 1.0
        out = {}
        for side, hand in ((1, 1.0), (2, hand2)):
            f = zone_frame(mf, side)
            if f is not None:
                out[side] = Frame(f.cx, f.cy, f.fx, f.fy, hand)
        memo["frames"] = out
    return memo["frames"]


def frame_extent(frame: Frame, polys) -> tuple[float, float, float, float]:
    """(least right, most right, least ahead, most ahead) of the zone's corners in ``frame``."""
    rs = [frame.right(x, y) for p in polys for x, y in p]
    aa = [frame.ahead(x, y) for p in polys for x, y in p]
    return min(rs), max(rs), min(aa), max(aa)
