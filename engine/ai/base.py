"""Agents answer Decisions for one player.

The honesty boundary: an agent sees only the Decision it must answer and that player's view
(``Game.view(player)``), plus, through ``attach``, the public static half of the game: the
table (terrain geometry: sight, cover, paths, distances) and the ruleset object bound to it
(rosters, profiles, options, mission, markers; pure rule functions such as odds). It never
receives the game state: not the opponent's hand, not the deck order, not the RNG. Whatever it
asks the table or a pure function, it asks with positions and numbers taken from the view.
Any randomness comes from the agent's own seeded RNG.
"""
from __future__ import annotations

import random
from typing import Callable

from engine.core.protocol import Choice, Decision


class Agent:
    name = "agent"

    def __init__(self, player: int, seed: int = 0):
        self.player = player
        self.rng = random.Random(seed)
        self.table = None
        self.rules = None

    def attach(self, table, rules) -> None:
        """Receive the public static facts of the game about to be played: the ``Table`` and the
        ``Rules`` object (the static half of a game: rosters, profiles, options; it holds no
        state). The simulator calls this before the first decision; a client running an agent
        calls it once per game. Agents that need no geometry may ignore it."""
        self.table, self.rules = table, rules

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
