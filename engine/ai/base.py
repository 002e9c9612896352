"""Agents answer Decisions for one player.

The honesty boundary: an agent sees only the Decision it must answer and that player's view
(``Game.view(player)``), plus, through ``attach``, the public static half of the game: the
table (terrain geometry: sight, cover, paths, distances) and the ruleset object bound to it
(rosters, profiles, options, mission, markers; pure rule functions such as odds). It never
receives the game state: not the opponent's hand, not the deck order, not the RNG. Whatever it
asks the table or a pure function, it asks with positions and numbers taken from the view.
Any randomness comes from the agent's own seeded RNG.

Search agents also get, through ``bind_worlds``, a way to draw *sampled worlds*: games that the
agent's player cannot tell from the real one (same view), with every hidden fact (dice to come,
the opponent's cards, deck orders) drawn anew (``Game.sample_world``). A world is built from
the view's facts and the agent's own RNG only, so what the agent does with it cannot depend on
what it may not know.
"""
from __future__ import annotations

import copy
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
        self.worlds: Callable | None = None

    def attach(self, table, rules) -> None:
        """Receive the public static facts of the game about to be played: the ``Table`` and the
        ``Rules`` object (the static half of a game: rosters, profiles, options; it holds no
        state). The simulator calls this before the first decision; a client running an agent
        calls it once per game. Agents that need no geometry may ignore it."""
        self.table, self.rules = table, rules

    def bind_worlds(self, worlds: Callable) -> None:
        """Receive ``worlds(rng) -> Game``: a fresh determinized copy of the game in progress,
        as this agent's player sees it (``Game.sample_world(player, rng)``; ``rng`` is a
        ``random.Random``). The simulator and the client's session bind it after ``attach``;
        agents that do not search ignore it."""
        self.worlds = worlds

    def choose(self, decision: Decision, view: dict) -> Choice:
        raise NotImplementedError

    def __deepcopy__(self, memo):
        """A copy with its own RNG, memory and kept answers, sharing the table and the rules:
        they are the game's static facts (a game's clones share them too), and copying them
        would cost far more than the agent itself."""
        for shared in (self.table, self.rules):
            if shared is not None:
                memo.setdefault(id(shared), shared)
        new = self.__class__.__new__(self.__class__)
        memo[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return new


_AGENTS: dict[str, Callable[..., Agent]] = {}


def register_agent(cls):
    _AGENTS[cls.name] = cls
    return cls


def parse_agent(name: str) -> tuple[str, dict]:
    """"hard" -> ("hard", {}); "hard:budget=2.0,k=4" -> ("hard", {"budget": 2.0, "k": 4}).
    Values are ints or floats where they parse as such, else strings."""
    base, _, rest = name.partition(":")
    params: dict = {}
    for part in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, val = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"agent parameter {part!r} in {name!r} is not key=value")
        val = val.strip()
        for conv in (int, float):
            try:
                val = conv(val)
                break
            except ValueError:
                pass
        params[key.strip()] = val
    return base.strip(), params


def make_agent(name: str, player: int, seed: int) -> Agent:
    """An agent by name, with optional parameters after a colon (``"hard:budget=2.0"``); an
    agent that takes none refuses them."""
    base, params = parse_agent(name)
    if base not in _AGENTS:
        raise KeyError(f"no agent {base!r} (available: {', '.join(sorted(_AGENTS))})")
    if params:
        return _AGENTS[base](player, seed, **params)
    return _AGENTS[base](player, seed)


def agent_names() -> list[str]:
    return sorted(_AGENTS)
