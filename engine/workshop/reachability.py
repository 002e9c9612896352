"""Can a model walk from each deployment zone to every objective and to the other zone?

The answer comes from the engine's own movement rules for one base radius: a place is a place a
base may stand (``Table.position_problem``), and a way between two places is the straight slide
when ``Table.segment_clear`` allows it (climbable pieces are crossed, paying their height), else
the path finder (``Table.find_path``): never a straight line through terrain. Walking is
reversible, so every place that must be reachable is tested from one hub (the first zone of side
1): a place the hub reaches and the hub reaches it back, so two places reachable from the hub
reach each other.

A zone is represented by where its models stand: its **heart** (the legal grid point farthest
inside it) and its extremes (the legal points furthest left, right, down and up), so a zone cut in
two by a piece is found. A marker (objective, evacuation point) is reached when a base can stand
on it, or, where a piece covers the marker itself (a 40k objective under a generator), within the
analysis's control range of it (3"), where a model holds it.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from engine.core.errors import UnknownRuleset
from engine.core.rules import get_rules
from engine.data.maps import MM_PER

from .analysis import DEFAULT_CONTROL_MM, distance_to_boundary

if TYPE_CHECKING:  # pragma: no cover
    from engine.table import Table

DEFAULT_BASE_MM = 25.0
ZONE_GRID_MM = 25.4          # where a zone's standing points are looked for


@lru_cache(maxsize=8)
def smallest_base_mm(ruleset: str | None) -> float:
    """The diameter of the smallest base among the ruleset's shipped rosters (mm), as the ruleset
    states it (``Rules.smallest_base_mm``); 25 mm for none, an unknown ruleset or one that does
    not say."""
    if ruleset is None:
        return DEFAULT_BASE_MM
    try:
        rules = get_rules(ruleset)
    except UnknownRuleset:
        return DEFAULT_BASE_MM
    got = rules.smallest_base_mm()
    return DEFAULT_BASE_MM if got is None else float(got)


_ZONES: dict = {}       # (zone, radius, step) -> (the impassable pieces near it, its points)


def zone_points(table: Table, zone_points_mm, radius_mm: float, step_mm: float = ZONE_GRID_MM) -> list[tuple[float, float]]:
    """Where a base may stand in a zone: its heart first, then its extremes (duplicates
    dropped); empty when no base fits in it. Kept per zone while the impassable pieces near it
    are the very same piece objects (a generator's edits elsewhere leave them so)."""
    xs = [p[0] for p in zone_points_mm]
    ys = [p[1] for p in zone_points_mm]
    box = (min(xs) - radius_mm, min(ys) - radius_mm, max(xs) + radius_mm, max(ys) + radius_mm)
    near = tuple(mp for mp, tp in zip(table.mapfile.pieces, table.pieces)
                 if tp.impassable and tp.bbox[0] <= box[2] and tp.bbox[2] >= box[0]
                 and tp.bbox[1] <= box[3] and tp.bbox[3] >= box[1])
    key = (tuple(map(tuple, zone_points_mm)), float(radius_mm), float(step_mm), table.mapfile.unit)
    hit = _ZONES.get(key)
    if hit is not None and len(hit[0]) == len(near) and all(a is b for a, b in zip(hit[0], near)):
        return list(hit[1])
    out = _zone_points(table, zone_points_mm, radius_mm, step_mm)
    if len(_ZONES) > 256:
        _ZONES.clear()
    _ZONES[key] = (near, tuple(out))
    return out


def _zone_points(table: Table, zone_points_mm, radius_mm: float, step_mm: float) -> list[tuple[float, float]]:
    from .analysis import _point_in_poly

    xs = [p[0] for p in zone_points_mm]
    ys = [p[1] for p in zone_points_mm]
    gx, gy = np.meshgrid(np.arange(min(xs) + step_mm / 2, max(xs), step_mm),
                         np.arange(min(ys) + step_mm / 2, max(ys), step_mm))
    px, py = gx.ravel(), gy.ravel()
    if not len(px):
        return []
    inside = _point_in_poly(px, py, list(zone_points_mm))
    px, py = px[inside], py[inside]
    ok = np.array([table.position_problem(float(x), float(y), radius_mm) is None for x, y in zip(px, py)], dtype=bool)
    px, py = px[ok], py[ok]
    if not len(px):
        return []
    depth = distance_to_boundary(px, py, list(zone_points_mm))
    picks = [int(np.argmax(depth)), int(np.argmin(px)), int(np.argmax(px)), int(np.argmin(py)), int(np.argmax(py))]
    out: list[tuple[float, float]] = []
    for i in picks:
        p = (float(px[i]), float(py[i]))
        if p not in out:
            out.append(p)
    return out


def marker_spot(table: Table, at_mm, radius_mm: float, reach_mm: float = DEFAULT_CONTROL_MM) -> tuple[float, float] | None:
    """Where a base stands to reach a marker: on it, else the first free point on rings every
    half inch out to ``reach_mm`` (the control range); None when a base cannot come that close."""
    x, y = at_mm
    if table.position_problem(x, y, radius_mm) is None:
        return (x, y)
    for ring in range(1, int(reach_mm / 12.7 + 1e-9) + 1):
        r = ring * 12.7
        for k in range(16):
            a = 2 * math.pi * k / 16
            p = (x + r * math.cos(a), y + r * math.sin(a))
            if table.position_problem(p[0], p[1], radius_mm) is None:
                return p
    return None


def walkable(table: Table, a, b, radius_mm: float) -> bool:
    """A base of ``radius_mm`` can walk from a to b: the straight slide, else the path finder."""
    if table.segment_clear(a, b, radius_mm):
        return True
    return table.find_path(a, b, radius_mm) is not None


def reach_problems(table: Table, base_mm: float = DEFAULT_BASE_MM, limit: int = 5) -> list[str]:
    """Why models of a ``base_mm`` base could not play on this table: a zone with no room, part of
    a zone cut off, the other zone or a marker out of reach on foot. Empty when all is reachable.
    Stops after ``limit`` problems."""
    mf = table.mapfile
    k = MM_PER[mf.unit]
    r = base_mm / 2
    out: list[str] = []
    places: list[tuple[str, tuple[float, float]]] = []
    for i, z in enumerate(mf.deployment):
        pts = zone_points(table, [(x * k, y * k) for x, y in z.points], r)
        name = f"zone {i + 1} (side {z.side})"
        if not pts:
            out.append(f"{name}: no room for a {base_mm:g} mm base")
            continue
        places.append((name, pts[0]))
        places += [(f"part of {name} near ({p[0] / k:.1f}, {p[1] / k:.1f})", p) for p in pts[1:]]
    for group, markers in (("objective", mf.objectives), ("evacuation point", mf.evac_points)):
        for mk in markers:
            spot = marker_spot(table, (mk.at[0] * k, mk.at[1] * k), r)
            if spot is None:
                out.append(f"{group} {mk.id}: a {base_mm:g} mm base cannot stand on it or within "
                           f"{DEFAULT_CONTROL_MM / 25.4:g}\" of it")
            else:
                places.append((f"{group} {mk.id}", spot))
    if out or not places:
        return out[:limit]
    hub_name, hub = places[0]
    for name, p in places[1:]:
        if not walkable(table, hub, p, r):
            out.append(f"{name} cannot be reached on foot from {hub_name} by a {base_mm:g} mm base")
            if len(out) >= limit:
                break
    return out
