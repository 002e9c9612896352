"""Speed of the workshop's sight analysis (``engine.workshop.analysis.analyse``) over the shared
60x44" layouts at 1" observer spacing: wall and CPU time per layout, one and two processes.

    PYTHONPATH=. python bench/workshop.py [LAYOUT_DIR] [--repeat 3] [--footprints-block]

Prints per-layout times and the median / worst over the layouts. CPU time (of this process and
its workers) shows the work when other jobs share the cores; wall time is what a user waits.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.data.maps import load_map  # noqa: E402
from engine.table import Table  # noqa: E402
from engine.workshop.analysis import analyse  # noqa: E402


def cpu() -> float:
    a = resource.getrusage(resource.RUSAGE_SELF)
    b = resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("layouts", nargs="?", default=str(Path(__file__).resolve().parents[2] / "shared" / "layouts"),
                    help="a folder of maps (default: the team's shared layouts beside the project)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--footprints-block", action="store_true", help="the 40k reading (footprints block sight)")
    args = ap.parse_args()
    files = sorted(Path(args.layouts).glob("*.json"))
    print(f"{len(files)} layouts, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for procs in args.processes:
        walls, cpus = [], []
        for f in files:
            t = Table(load_map(f))
            best_w, best_c = 1e9, 1e9
            for _ in range(args.repeat):
                c0, w0 = cpu(), time.perf_counter()
                a = analyse(t, processes=procs, footprints_block=args.footprints_block)
                best_w = min(best_w, time.perf_counter() - w0)
                best_c = min(best_c, cpu() - c0)
            walls.append(best_w)
            cpus.append(best_c)
            print(f"  {procs} proc  {f.stem:42s} n={a.metrics['observer_points']:5d}  wall {best_w:.3f} s  cpu {best_c:.3f} s")
        print(f"{procs} process(es): wall median {statistics.median(walls):.3f} s, worst {max(walls):.3f} s; "
              f"cpu median {statistics.median(cpus):.3f} s, worst {max(cpus):.3f} s "
              f"(load now {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
