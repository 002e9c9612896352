"""Agents answer Decisions for one player. An agent sees only the Decision and that player's
view, never the game itself, and draws any randomness from its own seeded RNG."""
from __future__ import annotations

import random
from typing import Callable

from engine.core.protocol import Choice, Decision


class Agent:
    name = "agent"

    def __init__(self, player: int, seed: int = 0):
        self.player = player
        self.rng = random.Random(seed)

    def choose(self, decision: Decision, view: dict) -> Choice:
        raise NotImplementedError


_AGENTS: dict[str, Callable[..., Agent]] = {}


def register_agent(cls):
    _AGENTS[cls.name] = cls
    return cls


def make_agent(name: str, player: int, seed: int) -> Agent:
    if name not in _AGENTS:
        raise KeyError(f"no agent {name!r} (available: {', '.join(sorted(_AGENTS))})")
    return _AGENTS[name](player, seed)


def agent_names() -> list[str]:
    return sorted(_AGENTS)
