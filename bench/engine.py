"""Whole-game throughput: python bench/engine.py [--games N] [--before DIR [--rounds K]]

Random-vs-random games on each ruleset's home map (Counterblast on the outpost, Frontier on the
town, Doubles on the prehistoric map): decisions per CPU second (process time, so other jobs on
the machine count less), and the cost of ``clone()`` plus one ``submit`` at decisions taken
through a game (what a search agent pays per step). The issue's figures before the speed work
(random play, 2-core machine under load): Counterblast 1,016, Frontier 1,352, Doubles 1,064
decisions per CPU second.

``--before DIR`` measures against another checkout of the code on the same machine and at the
same time (the figures of two days or two loads cannot be set side by side): each round runs
this loop once on DIR's engine and once on this one, each in a child process, alternating, and
the table gives the median of the rounds for each, with the ratio. The engine as it stood when
the speed issue was filed is commit 87f79e2 (``git worktree add /tmp/before 87f79e2``); its
rules differ from today's by the documented rule fixes since, so a game has a few more or fewer
decisions, which is why the figure is per decision.

Each decision's view is asked for a second time, timed apart from the game: the median cost of
that repeated ``Game.view`` in the first and in the last 25 decisions of the games (a view whose
cost grew with the game's log would show here; the first view of a decision also re-words the
models that changed, which depends on what happened, not on the game's length).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import add_arguments, alternate, code_root  # noqa: E402

ROOT = code_root()

from engine.ai import make_agent  # noqa: E402
from engine.core import Game, Setup  # noqa: E402
from engine.data.maps import load_map  # noqa: E402
from engine.paths import resolve_map  # noqa: E402
from engine.simulate import game_seed  # noqa: E402

HOME = (("counterblast", "outpost", 1016), ("frontier", "town", 1352), ("doubles", "prehistoric", 1064))


def measure(games: int) -> dict:
    out = {}
    for ruleset, mapname, _ in HOME:
        m = load_map(resolve_map(mapname))
        Game(Setup(ruleset, m, (), {}, 0))          # warm: the table and its caches
        decisions, cpu = 0, 0.0
        clone_costs = []
        views_early, views_late = [], []           # a repeated view's cost, first and last 25 decisions
        for i in range(games):
            s = game_seed(1, i)
            g = Game(Setup(ruleset, m, (), {}, s))
            agents = {p: make_agent("random", p, s ^ (p * 0x9E3779B1)) for p in (1, 2)}
            t0 = time.process_time()
            n = 0
            view_ms = []
            while (d := g.pending()) is not None:
                v = g.view(d.player)
                # the same view asked again, timed apart from the game: what a view costs with
                # the models' entries already made, so what is left is the log (it must not
                # grow with the game); the first view of a decision also re-words the models
                # that changed, which depends on what happened, not on how long the game is
                v0 = time.process_time()
                g.view(d.player)
                dv = time.process_time() - v0
                view_ms.append(dv * 1000)
                t0 += dv
                c = agents[d.player].choose(d, v)
                if i < 3 and n % 10 == 0:            # clone + submit on a copy, a sample of steps
                    t1, c1 = time.perf_counter(), time.process_time()
                    g.clone().submit(d.player, c)
                    clone_costs.append(time.perf_counter() - t1)
                    t0 += time.process_time() - c1  # not part of the game's own time
                g.submit(d.player, c)
                n += 1
            cpu += time.process_time() - t0
            decisions += n
            views_early += view_ms[:25]
            views_late += view_ms[-25:]
        out[ruleset] = {"per_game": decisions / games, "rate": decisions / cpu,
                        "clone_ms": statistics.median(clone_costs) * 1000,
                        "view_early_ms": statistics.median(views_early), "view_late_ms": statistics.median(views_late)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    add_arguments(ap, rounds=3)
    args = ap.parse_args()
    if args.json:
        print(json.dumps(measure(args.games)))
        return
    if not args.before:
        got = measure(args.games)
        for ruleset, mapname, before in HOME:
            r = got[ruleset]
            print(f"{ruleset:12s} {mapname:11s} {r['per_game']:6.0f} decisions/game  "
                  f"{r['rate']:7.0f} decisions per CPU s (the issue's figure: {before}, x{r['rate'] / before:.1f})  "
                  f"clone+submit median {r['clone_ms']:.2f} ms  repeated view median {r['view_early_ms']:.3f} ms "
                  f"(first 25 decisions) / {r['view_late_ms']:.3f} ms (last 25)")
        return
    old, new = alternate(__file__, args.before, ["--games", str(args.games)], args.rounds)
    for k, (o, n) in enumerate(zip(old, new)):
        print(f"round {k + 1}: " + "  ".join(f"{rs} {o[rs]['rate']:.0f} -> {n[rs]['rate']:.0f}" for rs, _, _ in HOME))
    print(f"\n{args.games} random games per ruleset, {args.rounds} alternating rounds, medians "
          f"(before: {args.before})")
    print("| ruleset, map | decisions per game before / now | decisions per CPU s before | now | gain (median of the rounds' ratios) "
          "| clone + submit before / now | repeated view, first / last 25 decisions: before | now |")
    print("|---|---|---|---|---|---|---|---|")
    for ruleset, mapname, _ in HOME:
        b = statistics.median(r[ruleset]["rate"] for r in old)
        a = statistics.median(r[ruleset]["rate"] for r in new)
        cb = statistics.median(r[ruleset]["clone_ms"] for r in old)
        ca = statistics.median(r[ruleset]["clone_ms"] for r in new)
        # the gain is the median of each round's ratio: the two sides of a round ran minutes
        # apart, so a ratio is not moved by the VM's speed drifting between rounds
        gain = statistics.median(n[ruleset]["rate"] / o[ruleset]["rate"] for o, n in zip(old, new))
        print(f"| {ruleset}, {mapname} | {old[0][ruleset]['per_game']:.0f} / {new[0][ruleset]['per_game']:.0f} "
              f"| {b:,.0f} | {a:,.0f} | {gain:.2f}x | {cb:.2f} / {ca:.2f} ms "
              f"| {_views(old, ruleset)} | {_views(new, ruleset)} |")


def _views(runs: list[dict], ruleset: str) -> str:
    """A view's median cost early and late in the games (older runs may not have measured it)."""
    r = [x[ruleset] for x in runs if "view_early_ms" in x[ruleset]]
    if not r:
        return "-"
    return (f"{statistics.median(x['view_early_ms'] for x in r):.3f} / "
            f"{statistics.median(x['view_late_ms'] for x in r):.3f} ms")


if __name__ == "__main__":
    main()
