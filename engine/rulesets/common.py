"""Pieces every ruleset shares: the continuous "move this model to a point" choice.

The space asks the table whether a destination is legal (position, path, cost) so that
rulesets, the client and the random agent all use the one check.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from engine.core.protocol import Choice, ChoiceSpace


@dataclass(frozen=True)
class MoveTo(Choice):
    """Move ``model`` to the point (x, y) in table millimetres, by the shortest legal path."""
    tag = "common.MoveTo"
    model: str
    x: float
    y: float


class MoveSpace(ChoiceSpace):
    """Any point a base can reach by a legal path costing at most ``allowance`` mm
    (horizontal plus vertical; difficult ground counted ``difficult_factor`` times)."""

    choice_type = MoveTo

    def __init__(self, table, base, allowance: float, others=(), difficult_factor: float = 1.0,
                 label: str = ""):
        self.table, self.base, self.allowance = table, base, allowance
        self.others = tuple(o for o in others if o.id != base.id)
        self.difficult_factor = difficult_factor
        self.label = label or f"move {base.id} up to {allowance / 25.4:.1f}\""

    def cost(self, path) -> float:
        return path.length + (self.difficult_factor - 1.0) * path.difficult

    def path_to(self, x: float, y: float):
        # the cost is at least the length, so no path longer than the allowance can do
        return self.table.find_path((self.base.x, self.base.y), (x, y), self.base.radius, self.others,
                                    max_length=self.allowance)

    def check(self, c: MoveTo) -> str | None:
        if c.model != self.base.id:
            return f"this move is for {self.base.id}, not {c.model}"
        problem = self.table.position_problem(c.x, c.y, self.base.radius, self.others)
        if problem:
            return problem
        straight = math.hypot(c.x - self.base.x, c.y - self.base.y)
        if straight > self.allowance + 1e-6:  # no path is shorter than the straight line
            return f"it is {straight / 25.4:.1f}\" away, more than the {self.allowance / 25.4:.1f}\" allowed"
        path = self.path_to(c.x, c.y)
        if path is None:
            return f"no path of {self.allowance / 25.4:.1f}\" or less leads there"
        cost = self.cost(path)
        if cost > self.allowance + 1e-6:
            return f"the path costs {cost / 25.4:.1f}\", more than the {self.allowance / 25.4:.1f}\" allowed"
        return None

    def sample(self, rng, tries: int = 30) -> MoveTo | None:
        for _ in range(tries):
            a = rng.uniform(0, 2 * math.pi)
            r = self.allowance * math.sqrt(rng.random())
            c = MoveTo(self.base.id, round(self.base.x + r * math.cos(a), 2), round(self.base.y + r * math.sin(a), 2))
            if self.check(c) is None:
                return c
        return None
