"""How the agents deploy: the first model still to place, at the best spot of the one placement
policy (``engine/rulesets/deployment/policy.py``: cover from the enemy zone, nearness to an
objective, forward, kept apart from friends), the spot tested by the decision's own space.

The automatic placement ("deploy the rest", the ``automatic`` mode) places by the same policy, so
an agent deploying a whole force and the automatic placement put it on the same spots (issue 58).
What it reads is what the player may know: the table, the zones, the markers, and the decision's
own spaces, whose ``others`` are the models on the table and the player's own unseen placements,
never the other side's unseen ones.
"""
from __future__ import annotations

from engine.core.protocol import Choice, Decision
from engine.rulesets.deployment import DeployRest, PlaceModel, PlaceSpace
from engine.rulesets.deployment.policy import best_spot


def choose_placement(decision: Decision, table, player: int) -> Choice:
    """The agent's answer to a deployment decision: the first model still to place, at its best
    spot; the automatic placement when no lattice spot is legal."""
    spaces = [s for s in decision.spaces if isinstance(s, PlaceSpace)]
    if not spaces:
        return _fallback(decision)
    space = spaces[0]
    spot = best_spot(table, player, space.radius, space.others,
                     lambda x, y: space.check(PlaceModel(space.model, x, y)) is None)
    return _fallback(decision) if spot is None else PlaceModel(space.model, *spot)


def _fallback(decision: Decision) -> Choice:
    return next((o for o in decision.options if isinstance(o, DeployRest)), decision.options[0])
