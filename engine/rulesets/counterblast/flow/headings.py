"""Headings: the direction of a Jump, and of a thrown model, as a continuous choice.

The seed lets the player "choose a direction" (Jump; Throw: "choose a direction and move the
target"). A ``HeadingSpace`` accepts any heading in degrees (0 = +x, counter-clockwise,
0 <= heading < 360) and is answered by a point on the table: ``at_point`` gives the heading from
the moving model's centre toward the point. The eight compass headings (``HEADINGS``) are
offered beside it as shortcuts, each one also a point of the space.

A Panicked jumper "may not end a move closer to an enemy model than it started", and the d5 is
rolled after the heading is chosen: a heading is refused when any distance the flight could
cover would bring its centre closer to an enemy's (Interpretation 34). Along a straight line the
distance to a point first falls and then rises only when the line leads toward it, so a heading
is legal when it leads away from, or square to, every enemy; then no landing on it, short or
full, is closer.
"""
from __future__ import annotations

import math

from engine.core.protocol import ChoiceSpace, Flight

from ..choices import Jump, ThrowDirection
from .common import HEADINGS, MM

_TOWARD = 1e-6      # mm per mm of flight: moving toward an enemy by more than this is "closer"


def heading_between(x0: float, y0: float, x: float, y: float) -> float | None:
    """Degrees from (x0, y0) toward (x, y), in [0, 360), rounded to 0.01 (None at the point)."""
    if math.hypot(x - x0, y - y0) < 1e-6:
        return None
    h = round(math.degrees(math.atan2(y - y0, x - x0)), 2) % 360.0
    return 0.0 if h >= 360.0 else h


class HeadingSpace(ChoiceSpace):
    """Every legal heading for one model's straight flight, answered by a point on the table.
    ``choice_type`` and ``make(heading)`` build the answer; ``origin`` is where the flight starts;
    ``away_from`` (Panic) lists enemy centres the flight may not close on."""

    def __init__(self, make, origin: tuple[float, float], actor: str, label: str, away_from=(),
                 span_mm: tuple[float, float] = (0.0, 0.0), hint: str = ""):
        self.make = make
        self.hint = hint
        self.span_mm = (float(span_mm[0]), float(span_mm[1]))   # the shortest and longest flight
        self.choice_type = type(make(0.0))
        self.origin = (float(origin[0]), float(origin[1]))
        self._actor = actor
        self.label = label
        self.away_from = tuple((float(x), float(y)) for x, y in away_from)

    @property
    def actor(self) -> str:
        return self._actor

    def at_point(self, x: float, y: float) -> tuple:
        h = heading_between(*self.origin, float(x), float(y))
        return () if h is None else (self.make(h),)

    def flight(self, c) -> Flight | None:
        """The flight ``c`` starts, for the client's preview: from the model's centre, as far as
        the dice may send it (``span_mm``). None for an answer of another space."""
        if not isinstance(c, self.choice_type) or c != self.make(c.heading):
            return None
        return Flight(self.origin, float(c.heading), *self.span_mm)

    def problem(self, heading: float) -> str | None:
        """Why this heading is refused (the Panic restriction), or None."""
        ux, uy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
        x0, y0 = self.origin
        for ex, ey in self.away_from:
            gap = math.hypot(ex - x0, ey - y0) or 1.0
            if (ux * (ex - x0) + uy * (ey - y0)) / gap > _TOWARD:
                return "a Panicked model may not jump toward an enemy: it could end closer than it started"
        return None

    def check(self, c) -> str | None:
        if not isinstance(c, self.choice_type):
            return f"not a {self.choice_type.__name__}"
        try:
            h = float(c.heading)
        except (TypeError, ValueError):
            return "the heading must be a number of degrees"
        if not math.isfinite(h) or not 0.0 <= h < 360.0:
            return "the heading must be a number of degrees from 0 up to 360"
        if c != self.make(c.heading):
            return f"this heading is for {self.make(h).describe()}"
        return self.problem(h)

    def shortcuts(self) -> list:
        """The eight compass headings that are legal, as options."""
        return [self.make(float(h)) for h in HEADINGS if self.problem(float(h)) is None]

    def any_legal(self) -> bool:
        """Whether some heading is legal: the legal headings form an arc whose ends lie square to
        an enemy, so the compass headings and those square headings are enough to find one."""
        if not self.away_from:
            return True
        x0, y0 = self.origin
        cands = [float(h) for h in HEADINGS]
        for ex, ey in self.away_from:
            to = math.degrees(math.atan2(ey - y0, ex - x0))
            cands += [(to + 90.0) % 360.0, (to - 90.0) % 360.0, (to + 180.0) % 360.0]
        return any(self.problem(h) is None for h in cands)

    def sample(self, rng):
        for _ in range(40):
            h = round(rng.uniform(0.0, 360.0), 2) % 360.0
            if self.problem(h) is None:
                return self.make(h)
        ok = self.shortcuts()
        return rng.choice(ok) if ok else None


def jump_space(model: str, origin, away_from=(), name: str = "", die: int = 5) -> HeadingSpace:
    """Model ``model`` Jumps from ``origin`` (its centre) a roll of a ``die`` in inches."""
    return HeadingSpace(lambda h: Jump(model, h), origin, model,
                        f"{name or model} jumps a d{die} toward the point clicked (any heading)", away_from,
                        span_mm=(MM, die * MM), hint=f"jump a d{die}")


def throw_space(model: str, target: str, origin, inches: int, name: str = "") -> HeadingSpace:
    """The thrown model ``target`` flies ``inches`` from ``origin`` (its centre); the thrower chooses."""
    return HeadingSpace(lambda h: ThrowDirection(model, target, h), origin, model,
                        f"send {name or target} {inches}\" toward the point clicked (any heading)",
                        span_mm=(inches * MM, inches * MM), hint=f"send {name or target} {inches}\"")

