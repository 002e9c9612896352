"""Benchmark of the ``easy`` agent: time per decision and per easy-vs-easy game, per ruleset.

Run: python bench/ai.py [--games N] [--seed S] [--ruleset R ...]
     python bench/ai.py --agent hard --versus easy [--swap-sides] [--games N] [--seed S] [--ruleset R ...]
Each ruleset is played on its home map (Counterblast on outpost, Frontier on town, Doubles on
prehistoric), easy against easy, sides as the seeds give them. Prints the median, 90th
percentile and maximum time of the agent's ``choose`` per decision (all decision kinds
together, and move decisions apart), and the median wall and CPU (process) time of a whole game
(engine included; on a loaded machine the CPU time is the figure to read).

With ``--agent A --versus B`` it plays A against B instead (the simulator's seeds and seats,
``--swap-sides`` alternating them) and prints A's wins, B's wins, draws, and A's time per
decision (decisions with one option, answered at once, left out), wall and CPU (the search
agents' budget is their own CPU time), as JSON lines.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.ai import make_agent  # noqa: E402
from engine.core import Game, Setup  # noqa: E402
from engine.core.rules import get_rules  # noqa: E402
from engine.data.maps import load_map  # noqa: E402
from engine.paths import resolve_map  # noqa: E402
from engine.simulate import game_seed  # noqa: E402

HOME = {r: get_rules(r).home_map for r in ("counterblast", "frontier", "doubles")}   # the engine's home maps


def run(ruleset: str, games: int, seed: int) -> dict:
    mapfile = load_map(resolve_map(HOME[ruleset]))
    times, move_times, game_times, game_cpu, decided = [], [], [], [], 0
    for i in range(games):
        s = game_seed(seed, i)
        t0, p0 = time.perf_counter(), time.process_time()
        g = Game(Setup(ruleset, mapfile, (), {}, s))
        agents = {p: make_agent("easy", p, s ^ (p * 0x9E3779B1)) for p in (1, 2)}
        for a in agents.values():
            a.attach(g.table, g.rules)
        while (d := g.pending()) is not None:
            v = g.view(d.player)
            c0 = time.perf_counter()
            c = agents[d.player].choose(d, v)
            dt = time.perf_counter() - c0
            times.append(dt)
            if d.spaces:
                move_times.append(dt)
            g.submit(d.player, c)
        game_times.append(time.perf_counter() - t0)
        game_cpu.append(time.process_time() - p0)
        decided += g.result().winner is not None
    q = statistics.quantiles(times, n=10)
    return {
        "ruleset": ruleset, "map": HOME[ruleset], "games": games, "seed": seed, "decided": decided,
        "decisions": len(times),
        "median_ms": 1000 * statistics.median(times), "p90_ms": 1000 * q[-1], "max_ms": 1000 * max(times),
        "move_median_ms": 1000 * statistics.median(move_times) if move_times else 0.0,
        "move_decisions": len(move_times),
        "game_s": statistics.median(game_times), "game_cpu_s": statistics.median(game_cpu),
    }


def versus(ruleset: str, agent: str, other: str, games: int, seed: int, swap_sides: bool) -> dict:
    from engine.simulate import play, seats

    mapfile = load_map(resolve_map(HOME[ruleset]))
    names = (agent, other)
    wins = {"agent": 0, "versus": 0, "draw": 0}
    times, cpu, t_all = [], [], time.perf_counter()
    for i in range(games):
        s = game_seed(seed, i)
        g = Game(Setup(ruleset, mapfile, (), {}, s))
        order = seats(i, swap_sides)
        players = {p: make_agent(names[order[p - 1]], p, s ^ (p * 0x9E3779B1)) for p in (1, 2)}
        for p, a in players.items():
            if order[p - 1] == 0:
                inner = a.choose

                def timed(d, v, inner=inner):
                    t, tc = time.perf_counter(), time.thread_time()
                    c = inner(d, v)
                    if len(d.options) > 1 or d.spaces:
                        times.append(time.perf_counter() - t)
                        cpu.append(time.thread_time() - tc)
                    return c
                a.choose = timed
        w = play(g, players).result.winner
        wins["draw" if w is None else ("agent" if order[w - 1] == 0 else "versus")] += 1
    q = statistics.quantiles(times, n=10) if len(times) > 1 else [0.0]
    return {"ruleset": ruleset, "map": HOME[ruleset], "agent": agent, "versus": other, "games": games,
            "seed": seed, "swap_sides": swap_sides, "wins": wins,
            "decisions_timed": len(times), "mean_s": statistics.mean(times) if times else 0.0,
            "median_s": statistics.median(times) if times else 0.0, "p90_s": q[-1],
            "max_s": max(times) if times else 0.0,
            "cpu_median_s": statistics.median(cpu) if cpu else 0.0, "cpu_max_s": max(cpu) if cpu else 0.0,
            "seconds": time.perf_counter() - t_all}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", nargs="*", default=list(HOME))
    ap.add_argument("--agent", help="time this agent against --versus instead of easy against easy")
    ap.add_argument("--versus", default="easy")
    ap.add_argument("--swap-sides", action="store_true")
    args = ap.parse_args(argv)
    if args.agent:
        import json
        for rs in args.ruleset:
            print(json.dumps(versus(rs, args.agent, args.versus, args.games, args.seed, args.swap_sides)), flush=True)
        return 0
    for rs in args.ruleset:
        r = run(rs, args.games, args.seed)
        print(f"{rs:12s} on {r['map']:11s} {r['games']} easy-vs-easy games (seed {r['seed']}), "
              f"{r['decided']} decided, {r['decisions']} decisions: per decision median {r['median_ms']:.2f} ms, "
              f"p90 {r['p90_ms']:.1f} ms, max {r['max_ms']:.0f} ms; move decisions ({r['move_decisions']}) "
              f"median {r['move_median_ms']:.1f} ms; a game: median {r['game_s']:.2f} s wall, "
              f"{r['game_cpu_s']:.2f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
