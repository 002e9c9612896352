"""Speed of the layout generator (``engine/workshop/generate.py``): from an empty 60x44" table to
a layout within +-3 points of an overall line-of-sight target with each side's deployment-zone
hideability within 5 points of the other's (``los=30 hide_diff<=5``), every constraint held, on
the full 1" grid, for 10 seeds.

    PYTHONPATH=. python bench/generate.py [--seeds 10] [--los 30] [--symmetry none] \
        [--mission short-edges] [--workers 1] [--rounds 60] [--out bench/results/DATE/generate.jsonl]

Per seed: whether the targets were met, the wall time and this process's CPU time to meet them
(with ``--workers 2`` the chains run on a local dask cluster and the CPU is the workers'), the
rounds and moves it took, the load average before and after. The machine is shared: wall time
follows the load, CPU time much less.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def one(seed: int, args, client=None) -> dict:
    from engine.workshop import generate as G
    from engine.workshop.catalog import load_catalog
    from engine.workshop.targets import parse_target

    cat = load_catalog()
    start = G.start_map(60, 44, "in", cat.mission(args.mission))
    entries = [G.Entry(t, lo, hi) for t, (lo, hi) in G.DEFAULT_COUNTS.items()]
    targets = [parse_target(f"los={args.los}"), parse_target("hide_diff<=5")]
    load0 = os.getloadavg()
    t0, c0 = time.perf_counter(), time.process_time()
    prob, pre = G.make_problem(start, args.symmetry, entries, targets)
    res = G.run(prob, seed=seed, chains=args.chains, rounds=args.rounds, steps=args.steps, pre_edits=pre,
                client=client)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    if client is not None:
        cpu = sum(client.run(lambda: time.process_time()).values()) - args._worker_cpu
        args._worker_cpu += cpu
    problems = G.layout_problems(prob, res.state.map, res.state.template_of())
    return {"seed": seed, "met": res.met, "stopped": res.stopped, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
            "rounds": res.rounds, "moves": res.steps, "full_checks": len(res.checks),
            "los": res.full["los"], "hide": res.full["hide"], "hide_diff": res.full["hide_diff"],
            "cover": res.full["cover"], "pieces": len(res.state.map.pieces), "edits": len(res.state.edits),
            "constraints_broken": problems, "load_before": [round(x, 2) for x in load0],
            "load_after": [round(x, 2) for x in os.getloadavg()], "symmetry": args.symmetry,
            "mission": args.mission, "target_los": args.los, "workers": args.workers}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--los", type=float, default=30.0)
    ap.add_argument("--symmetry", default="none")
    ap.add_argument("--mission", default="short-edges")
    ap.add_argument("--chains", type=int, default=4)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=60)
    ap.add_argument("--workers", type=int, default=1, help="1: chains in this process; more: a local dask cluster")
    ap.add_argument("--out", default=None, help="append one JSON line per seed here")
    args = ap.parse_args()
    args._worker_cpu = 0.0
    client = cluster = None
    if args.workers > 1:
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None, silence_logs=50)
        client = Client(cluster)
        args._worker_cpu = sum(client.run(lambda: time.process_time()).values())
    rows = []
    try:
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            row = one(seed, args, client)
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.out:
                Path(args.out).parent.mkdir(parents=True, exist_ok=True)
                with open(args.out, "a") as fh:
                    fh.write(json.dumps(row) + "\n")
    finally:
        if client is not None:
            client.close()
            cluster.close()
    met = [r for r in rows if r["met"]]
    print(f"{len(met)} of {len(rows)} seeds met los={args.los:g}+-3 and hide_diff<=5 on the full grid "
          f"(symmetry {args.symmetry}, {args.mission}); constraints broken on "
          f"{sum(1 for r in rows if r['constraints_broken'])}")
    if met:
        w = [r["wall_s"] for r in met]
        c = [r["cpu_s"] for r in met]
        print(f"time to the targets: wall median {statistics.median(w):.1f} s, max {max(w):.1f} s; "
              f"CPU median {statistics.median(c):.1f} s, max {max(c):.1f} s; "
              f"{sum(1 for x in w if x <= 60)} of {len(met)} within 60 s wall, "
              f"{sum(1 for x in c if x <= 60)} within 60 s CPU")
        print(f"load average (1 min) during the runs: {min(r['load_before'][0] for r in rows):.1f} to "
              f"{max(r['load_after'][0] for r in rows):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
