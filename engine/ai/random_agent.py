"""The baseline agent: uniform over the legal options; for a continuous choice, a random legal
point drawn by the choice space itself (the engine's check decides what is legal)."""
from __future__ import annotations

from engine.core.protocol import Choice, Decision

from .base import Agent, register_agent


@register_agent
class RandomAgent(Agent):
    name = "random"
    reads_view = False      # the decision alone: the simulator builds it no view

    def choose(self, decision: Decision, view: dict | None) -> Choice:
        n_opt, spaces = len(decision.options), list(decision.spaces)
        # Each enumerated option and each continuous space is one "door"; pick a door uniformly.
        while True:
            k = self.rng.randrange(n_opt + len(spaces))
            if k < n_opt:
                return decision.options[k]
            choice = spaces[k - n_opt].sample(self.rng)
            if choice is not None:
                return choice
            spaces.pop(k - n_opt)  # this space found nothing legal: try the other doors
            if not spaces and not n_opt:
                raise RuntimeError(f"no legal choice could be found for {decision.expected()}")
