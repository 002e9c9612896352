"""Benchmark of the reach preview (Table.reach) on maps/town.json.

Run: python bench/reach.py [--starts 50] [--repeats 3] [--cell 6.35]
A 25 mm base (radius 12.5 mm) at random legal starts with 20 other bases on the table, 6" and 12"
allowances at 0.25" cells. Prints the first call (which builds the path graph for the radius),
then per allowance the median and 95th percentile over the starts, for each repeat.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.table import Base, Table  # noqa: E402

INCH = 25.4


def place(t: Table, n: int, rng: random.Random, r: float = 12.5, others=()) -> list[Base]:
    out: list[Base] = []
    while len(out) < n:
        x, y = rng.uniform(0, t.width), rng.uniform(0, t.height)
        if t.position_problem(x, y, r, list(others) + out) is None:
            out.append(Base(f"m{len(out)}", x, y, r, 30.0, 0.0, t.surface_height(x, y)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--starts", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cell", type=float, default=0.25 * INCH)
    args = ap.parse_args()
    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    print(f"machine: {os.cpu_count()} cpus, {cpu}, load average {os.getloadavg()[0]:.2f}")
    t = Table.load(ROOT / "maps" / "town.json")
    rng = random.Random(7)
    others = place(t, 20, rng)
    starts = [Base("me", b.x, b.y, b.radius, b.height, 0.0, b.z) for b in place(t, args.starts, rng, others=others)]
    t0 = time.perf_counter()
    first = t.reach(starts[0], 12 * INCH, others, args.cell)
    print(f"first call (builds the graph for r = 12.5 mm): {(time.perf_counter() - t0) * 1000:.0f} ms; "
          f"grid {first.mask.shape[1]}x{first.mask.shape[0]}, {first.mask.sum()} cells in reach")
    for inches in (6, 12):
        meds, p95s = [], []
        for rep in range(args.repeats):
            times = []
            for b in starts:
                t0 = time.perf_counter()
                t.reach(b, inches * INCH, others, args.cell)
                times.append(time.perf_counter() - t0)
            times.sort()
            med = statistics.median(times) * 1000
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))] * 1000
            meds.append(med)
            p95s.append(p95)
            print(f'{inches:>2}" repeat {rep + 1}: median {med:.1f} ms, 95th percentile {p95:.1f} ms, '
                  f"max {times[-1] * 1000:.1f} ms")
        print(f'{inches:>2}" best of {args.repeats}: median {min(meds):.1f} ms, p95 {min(p95s):.1f} ms; '
              f"median of repeats: median {statistics.median(meds):.1f} ms, p95 {statistics.median(p95s):.1f} ms")


if __name__ == "__main__":
    main()
