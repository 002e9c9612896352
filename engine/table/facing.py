"""A player's frame, as they face the table: "ahead" from their deployment zone's middle toward
the table's middle, "right" their right hand.

Ties that a person would break by their own view of the table (the front before the back, left
before right) are read in this frame, not in table coordinates: on a point-symmetric table two
zones are each other's half-turn, and so are their frames, so both sides break ties alike. Reading
ties in table coordinates made one side prefer its left and the other its right (issue 32).
"""
from __future__ import annotations

import math
from dataclasses import dataclass


def facing(cx: float, cy: float, mx: float, my: float) -> tuple[float, float]:
    """Unit vector from a zone's middle (cx, cy) toward the table's middle (mx, my); a zone
    centred on the table faces +y."""
    dx, dy = mx - cx, my - cy
    n = math.hypot(dx, dy)
    if n < 1e-6:
        return 0.0, 1.0
    return dx / n, dy / n


@dataclass(frozen=True)
class Frame:
    cx: float
    cy: float
    fx: float
    fy: float
    # +1, or -1 for a frame seen in a mirror: on a mirror-symmetric table the image of one
    # player's right hand is the other's left, so side 2 reads its lateral axis the other way
    # (engine/rulesets/deployment/zones.py, ``side_frames``)
    hand: float = 1.0

    def ahead(self, x: float, y: float) -> float:
        return (x - self.cx) * self.fx + (y - self.cy) * self.fy

    def right(self, x: float, y: float) -> float:
        return self.hand * ((x - self.cx) * -self.fy + (y - self.cy) * self.fx)

    def point(self, right: float, ahead: float) -> tuple[float, float]:
        """The table point at ``right`` and ``ahead`` of the frame's origin (the inverse of
        ``right`` and ``ahead``)."""
        r = right * self.hand
        return (self.cx + ahead * self.fx - r * self.fy, self.cy + ahead * self.fy + r * self.fx)

    def heading(self) -> float:
        """The direction ``ahead`` points, in degrees counter-clockwise from +x."""
        return math.degrees(math.atan2(self.fy, self.fx)) % 360.0

    def tie_key(self, x: float, y: float) -> tuple[float, float]:
        """Larger is preferred on a tie: the player's left, then the front (rounded, so that a
        point and its half-turn image, equal up to float noise, get the same key)."""
        return (round(-self.right(x, y), 6), round(self.ahead(x, y), 6))


def zone_frame(mapfile, side: int) -> Frame | None:
    """The frame of the player whose deployment zone is ``side``'s on ``mapfile`` (mm), or None
    when the map has no zone for that side."""
    zone = next((z for z in mapfile.deployment if z.side == side), None)
    if zone is None:
        return None
    k = mapfile.mm_per_unit
    pts = [(x * k, y * k) for x, y in zone.points]
    cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    fx, fy = facing(cx, cy, mapfile.width * k / 2, mapfile.height * k / 2)
    return Frame(cx, cy, fx, fy)
