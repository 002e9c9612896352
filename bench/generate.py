"""Sweep of the layout generator (``engine/workshop/generate.py``) over fresh seeds, as
``skirmish generate --seed N`` makes them: a 60x44" table, the short-edges mission, the default
catalog, symmetry and targets (``DEFAULT_TARGETS``), every constraint held, met on the full 1"
grid, within a CPU budget (60 s by default, as the command's).

    PYTHONPATH=. python bench/generate.py [--first-seed 101] [--seeds 20] [--jobs 2] \
        [--cpu-limit 60] [--target NAME=V ...] [--symmetry mirror] [--out data/experiments/DATE-generate.jsonl]

Per seed: met or not (and, if not, which target and why: the run's own verdict), the CPU seconds
of the search (one process a seed: its own CPU, which a shared machine's load changes much less
than the wall time), the wall time, the rounds, moves and full-grid checks, the full-grid figures
and the load average before and after. ``--jobs``: seeds run side by side in that many processes
(at most 2 on the shared 2-core machine).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def one(seed: int, targets: list[str], symmetry: str, mission: str, cpu_limit: float | None, rounds: int,
        in_zones: bool = True) -> dict:
    from engine.workshop import generate as G
    from engine.workshop.catalog import load_catalog
    from engine.workshop.targets import parse_target

    cat = load_catalog()
    start = G.start_map(60, 44, "in", cat.mission(mission), None, f"generated-{seed}", f"seed {seed}")
    entries = [G.Entry(t, lo, hi, in_zones and t in G.DEFAULT_IN_ZONES) for t, (lo, hi) in G.DEFAULT_COUNTS.items()]
    load0 = os.getloadavg()
    t0, c0 = time.perf_counter(), time.process_time()
    prob, pre = G.make_problem(start, symmetry, entries, [parse_target(t) for t in targets], None, 25.0, cat)
    res = G.run(prob, seed=seed, rounds=rounds, pre_edits=pre, cpu_limit=cpu_limit)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    broken = G.layout_problems(prob, res.state.map, res.state.template_of())
    f = res.full
    return {"seed": seed, "met": res.met, "stopped": res.stopped, "verdict": res.verdict,
            "cpu_s": round(cpu, 2), "search_cpu_s": round(res.cpu_seconds, 2), "wall_s": round(wall, 2),
            "rounds": res.rounds, "moves": res.steps, "full_checks": len(res.checks),
            "figures": {k: f.get(k) for k in ("los", "hide", "hide_diff", "objectives", "obj_diff", "obj_held", "lane",
                                              "lane_share", "cover", "zone_cover")},
            "bias": res.bias, "bias_learnt": res.learnt, "pieces": len(res.state.map.pieces),
            "constraints_broken": broken, "load_before": [round(x, 2) for x in load0],
            "load_after": [round(x, 2) for x in os.getloadavg()]}


def main() -> int:
    from engine.workshop.generate import DEFAULT_TARGETS

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first-seed", type=int, default=101)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=1, help="seeds run side by side (processes; at most 2 here)")
    ap.add_argument("--cpu-limit", type=float, default=60.0, help="each seed's CPU budget, s (0: none)")
    ap.add_argument("--rounds", type=int, default=60)
    ap.add_argument("--target", action="append", default=None, help="as skirmish generate (default its defaults)")
    ap.add_argument("--symmetry", default="mirror")
    ap.add_argument("--mission", default="short-edges")
    ap.add_argument("--no-in-zones", action="store_true",
                    help="no template in a deployment zone (the setting of the 2026-12-03 record in docs/performance.md)")
    ap.add_argument("--out", default=None, help="append one JSON line per seed here")
    args = ap.parse_args()
    targets = args.target or list(DEFAULT_TARGETS)
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    print(f"# {len(seeds)} seeds from {seeds[0]}, {args.jobs} processes, CPU budget {args.cpu_limit:g} s, "
          f"targets {' '.join(targets)}, symmetry {args.symmetry}, {args.mission}; load {os.getloadavg()[0]:.1f}",
          flush=True)
    rows = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = [ex.submit(one, s, targets, args.symmetry, args.mission, args.cpu_limit or None, args.rounds,
                          not args.no_in_zones) for s in seeds]
        for fut in futs:
            row = fut.result()
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.out:
                Path(args.out).parent.mkdir(parents=True, exist_ok=True)
                with open(args.out, "a") as fh:
                    fh.write(json.dumps(row) + "\n")
    print("\n| seed | met | CPU s | wall s | rounds | checks | los | lane_share | obj_held | cover | not met: target and why |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        f = r["figures"]
        held = "/".join(str(v) for v in (f["obj_held"] or {}).values())
        print(f"| {r['seed']} | {'yes' if r['met'] else 'no'} | {r['cpu_s']:.1f} | {r['wall_s']:.0f} | {r['rounds']} | "
              f"{r['full_checks']} | {f['los']} | {f['lane_share']} | {held} | {f['cover']} | "
              f"{'; '.join(r['verdict']) or '-'} |")
    met = [r for r in rows if r["met"]]
    cpu = [r["cpu_s"] for r in rows]
    print(f"\n{len(met)} of {len(rows)} seeds met every target on the full grid; CPU per seed median "
          f"{statistics.median(cpu):.1f} s, max {max(cpu):.1f} s; {sum(1 for x in cpu if x <= 60)} within 60 s; "
          f"constraints broken on {sum(1 for r in rows if r['constraints_broken'])}; load average (1 min) "
          f"{min(r['load_before'][0] for r in rows):.1f} to {max(r['load_after'][0] for r in rows):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
