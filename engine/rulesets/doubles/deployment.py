"""Doubles: deployment (interpretation 29).

Deployment is fixed: each warband stands spread along the front edge of its zone (the edge
nearer the table's centre), one base inside it, facing the centre; a spot taken by terrain or
another base moves to the nearest free spot in the zone, found by a deterministic spiral search.
``DeploymentMixin`` gives ``DoublesRules`` this step of the set-up.
"""
from __future__ import annotations

import math

from engine.core.errors import SetupError
from engine.data.maps import point_in_polygon
from engine.table import Base

from .state import BASE_RADIUS_MM, DoublesState, FighterState


class DeploymentMixin:
    """Set-up: the warbands take the table (part of ``DoublesRules``)."""

    def _deploy(self, st: DoublesState) -> None:
        mf = self.table.mapfile
        for side in (1, 2):
            zones = [z for z in mf.deployment if z.side == side]
            pts = [(self.table.to_mm(x, mf.unit), self.table.to_mm(y, mf.unit)) for x, y in zones[0].points]
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
            facing = math.degrees(math.atan2(self.table.height / 2 - cy, self.table.width / 2 - cx))
            facing = round(facing / 90.0) * 90.0 % 360.0
            fighters = self.warbands[side].fighters
            n = len(fighters)
            span = (max(xs) - min(xs)) if (max(xs) - min(xs)) >= (max(ys) - min(ys)) else (max(ys) - min(ys))
            horizontal = (max(xs) - min(xs)) >= (max(ys) - min(ys))
            step = min(span / (n + 1), 100.0)
            placed: list[Base] = [self.base(f) for f in st.fighters.values()]
            for i, ftr in enumerate(fighters):
                off = (i - (n - 1) / 2) * step
                # the front of the zone, the edge nearer the table's centre, one base inside it
                if horizontal:
                    fy = min(ys) if abs(min(ys) - self.table.height / 2) < abs(max(ys) - self.table.height / 2) else max(ys)
                    want = (cx + off, fy + math.copysign(2 * BASE_RADIUS_MM, cy - fy))
                else:
                    fx = min(xs) if abs(min(xs) - self.table.width / 2) < abs(max(xs) - self.table.width / 2) else max(xs)
                    want = (fx + math.copysign(2 * BASE_RADIUS_MM, cx - fx), cy + off)
                x, y = self._free_spot(want, pts, placed)
                key = f"{side}.{ftr.id}"
                fs = FighterState(key, side, self.warbands[side].id, ftr.id, ftr.name, round(x, 3), round(y, 3),
                                  facing, ftr.characteristics.health, weapons=list(ftr.weapons))
                fs.z = self.table.surface_height(fs.x, fs.y)
                st.fighters[key] = fs
                placed.append(self.base(fs))

    def _free_spot(self, want, poly, placed):
        """The nearest legal spot to ``want`` inside the zone (a deterministic spiral search)."""
        for ring in range(0, 60):
            r = ring * 8.0
            n = 1 if ring == 0 else 8 * ring
            for k in range(n):
                a = 2 * math.pi * k / n
                x, y = want[0] + r * math.cos(a), want[1] + r * math.sin(a)
                if point_in_polygon(x, y, poly) and self.table.position_problem(x, y, BASE_RADIUS_MM, placed) is None:
                    return x, y
        raise SetupError("no room to deploy a fighter in its deployment zone")

