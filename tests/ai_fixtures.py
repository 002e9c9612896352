"""Games on each ruleset's home map and agents attached to them, for the AI tests."""
from __future__ import annotations

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.core.rules import get_rules
from engine.data.maps import load_map
from engine.paths import resolve_map

HOME = {r: get_rules(r).home_map for r in ("counterblast", "frontier", "doubles")}   # the engine's home maps


def _game(ruleset: str, seed: int) -> Game:
    return Game(Setup(ruleset, load_map(resolve_map(HOME[ruleset])), (), {"deployment": "automatic"}, seed))


def _agents(g: Game, names, seed: int) -> dict:
    agents = {p: make_agent(names[p - 1], p, seed * 7 + p) for p in (1, 2)}
    for a in agents.values():
        a.attach(g.table, g.rules)
    return agents
