"""The map's objective markers as the missions of Frontier and Doubles read them (our rules:
docs/rules/frontier.md and docs/rules/doubles.md, "Missions"): where the markers are in table
millimetres, who holds a marker, which marker is the one nearest the middle of the table, and
each side's own table edge. Pure functions of the map and of positions; no ruleset state.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

EDGES = ("west", "east", "south", "north")     # x = 0, x = width, y = 0, y = height (y up)


@dataclass(frozen=True)
class MarkerPoint:
    id: str
    name: str
    x: float      # table millimetres
    y: float


def marker_points(mapfile) -> list[MarkerPoint]:
    """The map's objective markers in table millimetres, in the file's order."""
    k = mapfile.mm_per_unit
    return [MarkerPoint(o.id, o.name, o.at[0] * k, o.at[1] * k) for o in mapfile.objectives]


class MarkerMissions:
    """The part of a ruleset's rules whose missions are played on the map's objective markers, with
    "fight" the default (Doubles, Frontier): the launcher's look-ups and the set-up that keeps the
    chosen mission and the markers. ``MISSIONS`` is the ruleset's id -> ``MissionInfo``;
    ``_setup_mission_map`` adds what else a ruleset reads of the map."""

    MISSIONS: dict = {}

    @classmethod
    def missions(cls) -> dict:
        return dict(cls.MISSIONS)

    @classmethod
    def default_mission(cls, mapfile) -> str:
        return "fight"

    def _setup_mission(self, mission_id) -> None:
        """Keep the chosen mission (``options["mission"]``, popped before the options are checked:
        the default when None) and the map's markers; a ``SetupError`` for an unknown mission or a
        map with too few markers (``chosen_mission``)."""
        mf = self.table.mapfile
        mid = self.chosen_mission(mf, mission_id)
        self.mission, self.mission_info, self.markers = mid, self.MISSIONS[mid], marker_points(mf)
        self._setup_mission_map(mf)

    def _setup_mission_map(self, mapfile) -> None:
        """What else the ruleset's missions read of the map (nothing by default)."""


def within(x: float, y: float, radius: float, marker: MarkerPoint, reach_mm: float) -> bool:
    """Is the edge of a base of ``radius`` centred at (x, y) within ``reach_mm`` of the marker's
    point? (A base standing over the point is within any reach.)"""
    return math.hypot(x - marker.x, y - marker.y) - radius <= reach_mm + 1e-6


def holder(near: dict[int, int]) -> int | None:
    """Who holds a marker, from the count of each side's eligible models near it: the one side
    with any near it; nobody when neither or both have (contested)."""
    sides = [s for s, n in sorted(near.items()) if n > 0]
    return sides[0] if len(sides) == 1 else None


def centre_marker(mapfile) -> MarkerPoint | None:
    """The marker nearest the middle of the table (on a tie, the first in the file); None on a
    map without markers."""
    pts = marker_points(mapfile)
    if not pts:
        return None
    k = mapfile.mm_per_unit
    cx, cy = mapfile.width * k / 2, mapfile.height * k / 2
    return min(pts, key=lambda m: round(math.hypot(m.x - cx, m.y - cy), 6))


def home_edge(mapfile, side: int) -> str:
    """The table edge a side's deployment zone lies along: the edge its zone's outline shares
    most length with; a zone touching no edge takes the edge nearest the zone's middle."""
    k = mapfile.mm_per_unit
    w, h = mapfile.width * k, mapfile.height * k
    polys = [[(x * k, y * k) for x, y in z.points] for z in mapfile.deployment if z.side == side]
    tol = 1e-6 * max(w, h) + 1e-3
    on = {"west": lambda x, y: abs(x) <= tol, "east": lambda x, y: abs(x - w) <= tol,
          "south": lambda x, y: abs(y) <= tol, "north": lambda x, y: abs(y - h) <= tol}
    shared = {e: 0.0 for e in EDGES}
    for p in polys:
        for i in range(len(p)):
            (ax, ay), (bx, by) = p[i], p[(i + 1) % len(p)]
            for e in EDGES:
                if on[e](ax, ay) and on[e](bx, by):
                    shared[e] += math.hypot(bx - ax, by - ay)
    best = max(EDGES, key=lambda e: (shared[e], -EDGES.index(e)))
    if shared[best] > 0:
        return best
    pts = [pt for p in polys for pt in p]
    if not pts:
        return "south" if side == 1 else "north"
    mx, my = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
    gaps = {"west": mx, "east": w - mx, "south": my, "north": h - my}
    return min(EDGES, key=lambda e: (gaps[e], EDGES.index(e)))


def edge_gap(x: float, y: float, radius: float, edge: str, width: float, height: float) -> float:
    """Millimetres from the edge of a base of ``radius`` at (x, y) to the table edge ``edge``
    (``width`` and ``height``: the table's, in millimetres)."""
    d = {"west": x, "east": width - x, "south": y, "north": height - y}[edge]
    return max(0.0, d - radius)
