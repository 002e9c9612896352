"""Headless AI-vs-AI games: the simulator behind ``skirmish simulate`` and the random-game tests."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from engine.ai import make_agent
from engine.core import Game, Result, Setup, SetupError
from engine.core.rules import get_rules
from engine.data.maps import MapFile


class DidNotEnd(RuntimeError):
    pass


@dataclass
class Played:
    game: Game
    result: Result
    decisions: int


def game_seed(seed: int, index: int) -> int:
    # Spread seeds apart so game i of one run never equals game j of a neighbouring run.
    return (seed * 1_000_003 + index * 7_919) % (2**31)


def play(game: Game, agents: dict, max_decisions: int = 50_000,
         on_step: Callable[[Game], None] | None = None) -> Played:
    for agent in agents.values():  # the public static facts only: the table and the ruleset object
        attach = getattr(agent, "attach", None)
        if attach is not None:
            attach(game.table, game.rules)
    for player, agent in agents.items():  # search agents: worlds the agent's player cannot tell apart
        bind = getattr(agent, "bind_worlds", None)
        if bind is not None:
            bind(lambda rng, p=player: game.sample_world(p, rng))
    n = 0
    while (d := game.pending()) is not None:
        if n >= max_decisions:
            raise DidNotEnd(f"no result after {max_decisions} decisions (turn {game.state.turn})")
        agent = agents[d.player]
        choice = agent.choose(d, game.view(d.player))
        game.submit(d.player, choice)
        n += 1
        if on_step is not None:
            on_step(game)
    result = game.result()
    if result is None:
        raise DidNotEnd("no decision is pending but the ruleset reports no result")
    return Played(game, result, n)


def seats(index: int, swap_sides: bool) -> tuple[int, int]:
    """Which agent (0: the --p1 agent, 1: the --p2 agent) sits in seat 1 and in seat 2 for game
    ``index``: fixed, or alternating game by game with ``swap_sides`` (odd games swapped)."""
    return (1, 0) if swap_sides and index % 2 == 1 else (0, 1)


def simulate(ruleset: str, mapfile: MapFile, games: int, seed: int, agents: tuple[str, str],
             map_name: str = "", options: dict | None = None, max_errors_listed: int = 5,
             swap_sides: bool = False, on_game: Callable[[int, int, Game], None] | None = None) -> dict:
    """``wins`` counts per agent: "p1" is the first agent of ``agents`` wherever it sat;
    ``wins_by_seat`` counts per seat (player 1 / player 2 of the ruleset). ``on_game(index,
    seed, game)`` is called after each game, finished or stopped by an error (a save per game)."""
    get_rules(ruleset)  # refuses an unknown ruleset before any game starts
    t0 = time.perf_counter()
    wins = {"p1": 0, "p2": 0, "draw": 0}
    by_seat = {"seat1": 0, "seat2": 0, "draw": 0}
    hashes, turns, errors, messages, decisions = [], [], 0, [], 0
    for i in range(games):
        s = game_seed(seed, i)
        try:
            game = Game(Setup(ruleset, mapfile, (), dict(options or {}), s))
        except SetupError:
            raise  # the ruleset refuses this map or these options: no game can be played
        try:
            order = seats(i, swap_sides)
            players = {p: make_agent(agents[order[p - 1]], p, s ^ (p * 0x9E3779B1)) for p in (1, 2)}
            played = play(game, players)
        except Exception as err:  # counted and reported: the simulator's job is to find these
            errors += 1
            hashes.append(None)
            if len(messages) < max_errors_listed:
                messages.append(f"game {i} (seed {s}): {type(err).__name__}: {err}")
            if on_game is not None:
                on_game(i, s, game)
            continue
        if on_game is not None:
            on_game(i, s, game)
        w = played.result.winner
        by_seat["draw" if w is None else f"seat{w}"] += 1
        wins["draw" if w is None else f"p{order[w - 1] + 1}"] += 1
        hashes.append(game.state_hash())
        turns.append(game.state.turn)
        decisions += played.decisions
    return {
        "ruleset": ruleset,
        "map": map_name or mapfile.id,
        "games": games,
        "seed": seed,
        "agents": {"p1": agents[0], "p2": agents[1]},
        "swap_sides": swap_sides,
        "wins": wins,
        "wins_by_seat": by_seat,
        "mean_turns": round(sum(turns) / len(turns), 3) if turns else None,
        "mean_decisions": round(decisions / len(turns), 1) if turns else None,
        "errors": errors,
        "error_messages": messages,
        "seconds": round(time.perf_counter() - t0, 3),
        "final_hashes": hashes,
    }
