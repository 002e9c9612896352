"""Throughput of ``skirmish experiment`` with 1 and 2 local dask workers (same games, same seed).

    PYTHONPATH=. python bench/experiment.py [--games 100] [--ruleset doubles] [--map prehistoric]

Prints games per second for each worker count (cluster start-up included and excluded) and the
ratio, with the load average before and after, since other jobs may share the cores.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    from engine.workshop.experiment import Config, run

    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--ruleset", default="doubles")
    ap.add_argument("--map", default="prehistoric")
    ap.add_argument("--agent", default="easy")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()
    cfg = Config(args.ruleset, (args.map,), args.games, args.agent, args.agent, seed=11)
    rate = {}
    for k in args.workers:
        d = tempfile.mkdtemp(prefix="skx")
        try:
            l0 = os.getloadavg()[0]
            info = run(cfg, d, workers=k, progress=False, write_outputs=False)
            rate[k] = args.games / info.play_seconds
            cpu = sum(r.get("cpu_seconds") or 0 for r in info.records)
            # occupancy: the share of each worker's time spent inside a game (1.0: never idle,
            # whatever share of a core the machine gave it): what dask's scheduling costs
            occ = sum(r.get("seconds") or 0 for r in info.records) / (k * info.play_seconds)
            print(f"{k} worker(s): {args.games} games played in {info.play_seconds:.1f} s ({info.seconds:.1f} s with the "
                  f"cluster's start-up): {rate[k]:.2f} games/s; the games' CPU time {cpu:.1f} s, i.e. "
                  f"{cpu / info.play_seconds:.2f} cores busy on average; worker occupancy {occ:.2f}; load {l0:.1f} -> {os.getloadavg()[0]:.1f}")
        finally:
            shutil.rmtree(d, ignore_errors=True)
    if 1 in rate and 2 in rate:
        print(f"speed-up with 2 workers: {rate[2] / rate[1]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
