"""Whole-game throughput: python bench/engine.py [--games N]

Random-vs-random games on each ruleset's home map (Counterblast on the outpost, Frontier on the
town, Doubles on the prehistoric map): decisions per CPU second (process time, so other jobs on
the machine count less), and the cost of ``clone()`` plus one ``submit`` at decisions taken
through a game (what a search agent pays per step). The issue's figures before the speed work
(random play, 2-core machine under load): Counterblast 1,016, Frontier 1,352, Doubles 1,064
decisions per CPU second.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import make_agent  # noqa: E402
from engine.core import Game, Setup  # noqa: E402
from engine.data.maps import load_map  # noqa: E402
from engine.paths import resolve_map  # noqa: E402
from engine.simulate import game_seed  # noqa: E402

HOME = (("counterblast", "outpost", 1016), ("frontier", "town", 1352), ("doubles", "prehistoric", 1064))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    for ruleset, mapname, before in HOME:
        m = load_map(resolve_map(mapname))
        Game(Setup(ruleset, m, (), {}, 0))          # warm: the table and its caches
        decisions, cpu = 0, 0.0
        clone_costs = []
        for i in range(args.games):
            s = game_seed(1, i)
            g = Game(Setup(ruleset, m, (), {}, s))
            agents = {p: make_agent("random", p, s ^ (p * 0x9E3779B1)) for p in (1, 2)}
            t0 = time.process_time()
            n = 0
            while (d := g.pending()) is not None:
                c = agents[d.player].choose(d, g.view(d.player))
                if i < 3 and n % 10 == 0:            # clone + submit on a copy, a sample of steps
                    t1, c1 = time.perf_counter(), time.process_time()
                    g.clone().submit(d.player, c)
                    clone_costs.append(time.perf_counter() - t1)
                    t0 += time.process_time() - c1  # not part of the game's own time
                g.submit(d.player, c)
                n += 1
            cpu += time.process_time() - t0
            decisions += n
        rate = decisions / cpu
        print(f"{ruleset:12s} {mapname:11s} {decisions / args.games:6.0f} decisions/game  "
              f"{rate:7.0f} decisions per CPU s (before: {before}, x{rate / before:.1f})  "
              f"clone+submit median {statistics.median(clone_costs) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
