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


def play_until_searched(g: Game, agents: dict, searched: int) -> str:
    """Attach ``agents`` to ``g`` (seat 1's searching agent bound to the worlds seat 1 may be in) and
    play until seat 1 has searched ``searched`` decisions, with no error: the state hash there (16
    characters)."""
    for a in agents.values():
        a.attach(g.table, g.rules)
    agents[1].bind_worlds(lambda rng: g.sample_world(1, rng))
    while (d := g.pending()) is not None and agents[1].stats["searched"] < searched:
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    assert agents[1].stats["searched"] == searched and agents[1].stats["errors"] == 0
    return g.state_hash()[:16]


def simulate_one_json(p1: str, p2: str) -> tuple[int, dict]:
    """``skirmish simulate`` of one seed-3 doubles game on prehistoric between ``p1`` and ``p2``, its
    --json report read back: (exit code, report)."""
    import io
    import json
    from contextlib import redirect_stdout

    from game.cli import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = main(["simulate", "--ruleset", "doubles", "--map", "prehistoric", "--games", "1", "--seed", "3",
                   "--p1", p1, "--p2", p2, "--json"])
    return rc, json.loads(buf.getvalue())
