"""Search throughput: decisions simulated per CPU second of a search agent's look-ahead, per ruleset.

Run: python bench/ai_throughput.py [--agent hard:iters=4] [--steps 240] [--every 3] [--seed 7]
                                   [--ruleset R ...] [--profile N]

Each ruleset's game (home map, default rosters, game seed ``--seed``) is played by ``easy`` on both
sides; at every ``--every``-th decision with a choice to make, the searching agent (seeded per
seat) is asked the same decision and its answer thrown away, so every run looks at the same
positions whatever the agent does. A fixed number of rounds (``iters``) makes the work the same
from run to run, so the figure compares code, not luck. Prints, per ruleset: the searched
decisions, the agent's thread CPU in them, the playouts (``stats``) and the decisions submitted
inside its sampled worlds (every ``Game.submit`` during its ``choose``), and their rates per CPU
second. ``--profile N`` prints the N most expensive functions (cProfile, internal time) instead
of timing (the profiler's overhead makes its seconds no figure to quote).
"""
from __future__ import annotations

import argparse
import cProfile
import json
import pstats
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

HOME = {r: get_rules(r).home_map for r in ("counterblast", "frontier", "doubles")}


def run(ruleset: str, agent: str, steps: int, every: int, seed: int, profile: cProfile.Profile | None = None) -> dict:
    g = Game(Setup(ruleset, load_map(resolve_map(HOME[ruleset])), (), {}, seed))
    easy = {p: make_agent("easy", p, seed ^ (p * 0x9E3779B1)) for p in (1, 2)}
    search = {p: make_agent(agent, p, seed ^ (p * 0x9E3779B1)) for p in (1, 2)}
    for p in (1, 2):
        easy[p].attach(g.table, g.rules)
        search[p].attach(g.table, g.rules)
        search[p].bind_worlds(lambda rng, p=p: g.sample_world(p, rng))
    submitted = [0]
    real_submit = Game.submit

    def counting_submit(self, *a, **kw):
        submitted[0] += 1
        return real_submit(self, *a, **kw)

    cpu, asked, sim, n = 0.0, 0, 0, 0
    while (d := g.pending()) is not None and n < steps:
        v = g.view(d.player, drawing=False)
        if n % every == 0 and (len(d.options) > 1 or d.spaces):
            submitted[0] = 0
            Game.submit = counting_submit
            try:
                t = time.thread_time()
                if profile is not None:
                    profile.enable()
                search[d.player].choose(d, dict(v))
                if profile is not None:
                    profile.disable()
                cpu += time.thread_time() - t
            finally:
                Game.submit = real_submit
            sim += submitted[0]
            asked += 1
        g.submit(d.player, easy[d.player].choose(d, v))
        n += 1
    playouts = sum(search[p].stats.get("playouts", 0) for p in (1, 2))
    return {"ruleset": ruleset, "agent": agent, "seed": seed, "steps": n, "asked": asked,
            "cpu_s": round(cpu, 3), "playouts": playouts, "simulated": sim,
            "playouts_per_cpu_s": round(playouts / cpu, 1) if cpu else 0.0,
            "simulated_per_cpu_s": round(sim / cpu, 1) if cpu else 0.0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", default="hard:iters=4")
    ap.add_argument("--steps", type=int, default=240, help="decisions of the easy game looked at")
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--ruleset", nargs="*", default=list(HOME))
    ap.add_argument("--profile", type=int, default=0)
    args = ap.parse_args(argv)
    for rs in args.ruleset:
        prof = cProfile.Profile() if args.profile else None
        print(json.dumps(run(rs, args.agent, args.steps, args.every, args.seed, prof)), flush=True)
        if prof is not None:
            pstats.Stats(prof).sort_stats("tottime").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
