"""The deployment's answers: place one model at a point of its zone (``PlaceModel``, checked by a
``PlaceSpace``), or place the rest of one's models by the automatic placement (``DeployRest``)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from engine.core.protocol import Choice, ChoiceSpace
from engine.table import Base

from .zones import base_inside


@dataclass(frozen=True)
class PlaceModel(Choice):
    """Put ``model`` on the table at (x, y), table millimetres, facing ``facing`` degrees (counter-
    clockwise from +x) where the ruleset uses a facing; None: the ruleset's own (toward the
    table's middle)."""
    tag = "common.PlaceModel"
    model: str
    x: float
    y: float
    facing: float | None = None

    def describe(self) -> str:
        return f"place {self.model} at ({self.x:.0f}, {self.y:.0f}) mm"


@dataclass(frozen=True)
class DeployRest(Choice):
    """Place every model of one's own still to place, by the automatic placement."""
    tag = "common.DeployRest"

    def describe(self) -> str:
        return "deploy the rest automatically"


class PlaceSpace(ChoiceSpace):
    """Any spot where ``model``'s base stands wholly inside its side's zone, on ground it may
    stand on (``Table.position_problem``: on the table, clear of impassable terrain, on top of a
    climbable piece only with its centre over it) and clear of every base in ``others``."""

    choice_type = PlaceModel

    def __init__(self, table, model: str, name: str, radius: float, polys, others=(),
                 uses_facing: bool = False, unit: str = "in"):
        self.table, self.model, self.name, self.radius = table, model, name, radius
        self.polys = [list(p) for p in polys]
        self.others = tuple(o for o in others if o.id != model)
        self.uses_facing, self.unit = uses_facing, unit
        self.label = f"place {name} in your deployment zone"

    @property
    def actor(self) -> str:
        return self.model

    def at_point(self, x: float, y: float) -> tuple[PlaceModel, ...]:
        return (PlaceModel(self.model, round(float(x), 2), round(float(y), 2)),)

    def check(self, c: PlaceModel) -> str | None:
        if c.model != self.model:
            return f"this placement is for {self.name}, not {c.model}"
        if not (math.isfinite(c.x) and math.isfinite(c.y)):
            return "not a point"
        if c.facing is not None:
            if not self.uses_facing:
                return "models here have no facing"
            if not math.isfinite(c.facing):
                return "the facing is not a direction"
        if not base_inside(c.x, c.y, self.radius, self.polys):
            return f"{self.name}'s base must stand wholly inside your deployment zone"
        return self.table.position_problem(c.x, c.y, self.radius, self.others)

    def base_at(self, x: float, y: float, height: float, facing: float = 0.0) -> Base:
        return Base(self.model, x, y, self.radius, height, facing, self.table.surface_height(x, y))

    def sample(self, rng, tries: int = 60) -> PlaceModel | None:
        """Random points of the zone's bounding box, the first legal one."""
        xs = [x for p in self.polys for x, _ in p]
        ys = [y for p in self.polys for _, y in p]
        for _ in range(tries):
            c = PlaceModel(self.model, round(rng.uniform(min(xs), max(xs)), 2), round(rng.uniform(min(ys), max(ys)), 2))
            if self.check(c) is None:
                return c
        return None
