"""Benchmark of the table geometry on maps/town.json (or a ~130-piece stand-in if it is missing).

Run: python bench/table.py   Prints cover evaluations/s (single sight() calls and batched
sight_matrix), the 20x20 matrix time, the 1-inch openness heatmap time, and path timings.
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paths import place_models  # noqa: E402 - beside this file: the same 20 models as its path timings

from engine.table import Table, openness_heatmap, sight_reference  # noqa: E402


def load_table() -> Table:
    town = ROOT / "maps" / "town.json"
    if town.exists():
        return Table.load(town)
    sys.path.insert(0, str(ROOT / "tests"))
    from table_fixtures import random_town
    print("maps/town.json missing: using a 130-piece stand-in")
    return random_town()


def best_of(fn, repeat=5):
    """(best, median) wall-clock seconds. Best is the figure least disturbed by other load."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main() -> None:
    t = load_table()
    print(f"{t!r}: {sum(len(p.parts) for p in t.pieces)} convex parts, coverage {t.coverage():.1%}")
    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    print(f"machine: {os.cpu_count()} cpus, {cpu}, load average {os.getloadavg()[0]:.2f}")
    models = place_models(t, 20)
    pairs = [(a, b) for a in models for b in models if a.id != b.id]
    t.sight(models[0], models[1], models)            # warm the kernel

    def singles():
        for a, b in pairs:
            t.sight(a, b, models)
    best, med = best_of(singles, 5)
    print(f"sight() single calls, 5x3 samples, 20 models blocking: {len(pairs) / best:,.0f} evals/s "
          f"(median {len(pairs) / med:,.0f})")

    def ref():
        for a, b in pairs[:60]:
            sight_reference(t, a, b, models)
    best, _ = best_of(ref, 1)
    print(f"sight_reference (pymunk all-hits) for comparison: {60 / best:,.0f} evals/s")

    def matrix():
        t.sight_matrix(models, models)
    best, med = best_of(matrix, 20)
    print(f"sight_matrix 20x20 (380 pairs): {best * 1000:.1f} ms best, {med * 1000:.1f} ms median "
          f"-> {len(pairs) / med:,.0f} evals/s batched")
    many = place_models(t, 60, seed=11)
    best, med = best_of(lambda: t.sight_matrix(many, many), 5)
    print(f"sight_matrix 60x60 (3540 pairs): {med * 1000:.1f} ms median -> {3540 / med:,.0f} evals/s batched")

    for procs in (1, 2):
        best, med = best_of(lambda: openness_heatmap(t, 25.4, processes=procs), 3)
        print(f"openness heatmap 1-inch, {procs} process(es): {best:.2f} s best, {med:.2f} s median")

    t0 = time.perf_counter()
    t.find_path((models[0].x, models[0].y), (models[1].x, models[1].y), 12.5)
    first = time.perf_counter() - t0
    rng = random.Random(3)
    qs = []
    for _ in range(30):
        a, b = rng.sample(models, 2)
        qs.append((a, b))

    found: list[bool] = []

    def paths():
        found.clear()
        for a, b in qs:
            p = t.find_path((a.x, a.y), (b.x + 30, b.y), 12.5, others=models, ignore=(a.id,))
            found.append(p is not None)
    best, med = best_of(paths, 3)
    g = t._nav_graph(12.5)
    print(f"find_path: first call (builds the 12.5 mm graph: {len(g.xy)} nodes, {len(g.I)} edges) "
          f"{first * 1000:.0f} ms; then {med / len(qs) * 1000:.1f} ms per path with 20 models "
          f"({sum(found)}/{len(found)} goals reachable)")


if __name__ == "__main__":
    main()
