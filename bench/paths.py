"""Benchmark of path finding and move checks on maps/town.json.

Run: python bench/paths.py [--pairs N] [--checks N] [--repeat K] [--profile] [--before DIR [--rounds K]]

Prints, for a 25 mm base (radius 12.5 mm) with 20 other 25 mm bases on the table:
- the first ``find_path`` call (builds the per-radius graph);
- ``find_path`` over N random legal start/goal pairs (no ``max_length``): median, p95, mean, max;
- ``MoveSpace.check`` for random legal destinations within 6" and 12" allowances of each of the
  20 models (the others on the table): median, p95, and how many needed the path finder.
Timings are CPU time per call (``time.process_time``: other jobs on the shared machine count
less than in wall-clock time); with --repeat K the whole set is timed K times and the
best and median of the K medians / p95s are given (the machine is shared: take the best).
With ``--before DIR`` the same set runs on DIR's code and on this checkout's, alternately, and a
table gives both sides' figures (medians of the rounds' best) with the gain (``bench/compare.py``).
"""
from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import add_arguments, alternate, code_root, med, table  # noqa: E402

ROOT = code_root()

from engine.rulesets.common import INCH, MoveSpace, MoveTo  # noqa: E402
from engine.table import Base, Table  # noqa: E402

R = 12.5


def place_models(t: Table, n: int, seed: int = 7, r: float = R, h: float = 30.0) -> list[Base]:
    rng = random.Random(seed)
    out: list[Base] = []
    while len(out) < n:
        x, y = rng.uniform(0, t.width), rng.uniform(0, t.height)
        if t.position_problem(x, y, r, out) is None:
            out.append(Base(f"m{len(out)}", x, y, r, h, rng.uniform(0, 360), t.surface_height(x, y)))
    return out


def legal_point(t: Table, rng: random.Random, models, r: float = R):
    while True:
        x, y = rng.uniform(0, t.width), rng.uniform(0, t.height)
        if t.position_problem(x, y, r, models) is None:
            return x, y


def pct(xs, q):
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))
    return xs[k]


def path_queries(t, models, n, seed=5):
    rng = random.Random(seed)
    return [(legal_point(t, rng, models), legal_point(t, rng, models)) for _ in range(n)]


def check_queries(t, models, n_per, seed=6):
    rng = random.Random(seed)
    out = []
    for allowance in (6 * INCH, 12 * INCH):
        for i in range(n_per):
            b = models[i % len(models)]
            others = [m for m in models if m is not b]
            while True:
                a = rng.uniform(0, 6.283185307179586)
                d = allowance * rng.random() ** 0.5
                x, y = b.x + d * __import__("math").cos(a), b.y + d * __import__("math").sin(a)
                if t.position_problem(x, y, b.radius, others) is None:
                    break
            out.append((MoveSpace(t, b, allowance, others), MoveTo(b.id, x, y)))
    return out


def time_each(fn, items):
    times = []
    for it in items:
        t0 = time.process_time()
        fn(it)
        times.append(time.process_time() - t0)
    return times


def summary(times):
    ms = [x * 1000 for x in times]
    return statistics.median(ms), pct(ms, 0.95), statistics.fmean(ms), max(ms)


def measure(args, say=print) -> dict:
    t = Table.load(ROOT / "maps" / "town.json")
    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    say(f"{t!r}; machine: {os.cpu_count()} cpus, {cpu}, load average {os.getloadavg()[0]:.2f}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    models = place_models(t, 20)
    pairs = path_queries(t, models, args.pairs)
    checks = check_queries(t, models, args.checks)

    t0 = time.perf_counter()
    t.find_path(pairs[0][0], pairs[0][1], R)
    first = time.perf_counter() - t0
    g = t._nav_graph(R)
    say(f"first find_path (builds the {R} mm graph: {len(g.xy)} nodes, {len(g.I)} edges): {first * 1000:.0f} ms")
    out = {"first_ms": first * 1000}

    found = [0]

    def one_path(q):
        p = t.find_path(q[0], q[1], R, others=models)
        found[0] += p is not None

    def one_check(q):
        q[0].check(q[1])

    if args.profile:
        pr = cProfile.Profile()
        pr.enable()
        for q in pairs:
            one_path(q)
        for q in checks:
            one_check(q)
        pr.disable()
        pstats.Stats(pr).sort_stats("cumulative").print_stats(30)
        return out

    for key, label, fn, items in (("find_path", "find_path, 25 mm base, 20 models, random legal pairs", one_path, pairs),
                                  ("check6", "MoveSpace.check 6\"", one_check, checks[:args.checks]),
                                  ("check12", "MoveSpace.check 12\"", one_check, checks[args.checks:])):
        meds, p95s, means, maxs = [], [], [], []
        for _ in range(args.repeat):
            found[0] = 0
            m, p, a, x = summary(time_each(fn, items))
            meds.append(m), p95s.append(p), means.append(a), maxs.append(x)
        extra = f"; {found[0]}/{len(items)} found" if fn is one_path else ""
        say(f"{label} (n={len(items)}, x{args.repeat}): median {min(meds):.2f} ms best / "
            f"{statistics.median(meds):.2f} ms median; p95 {min(p95s):.2f} / {statistics.median(p95s):.2f} ms; "
            f"mean {min(means):.2f} ms; max {min(maxs):.1f} ms{extra}")
        out[key] = {"median": min(meds), "p95": min(p95s), "mean": min(means), "max": min(maxs)}
    legal = [q[0].check(q[1]) is None for q in checks]
    say(f"checks legal: 6\" {sum(legal[:args.checks])}/{args.checks}, 12\" {sum(legal[args.checks:])}/{args.checks}")
    out["legal"] = [sum(legal[:args.checks]), sum(legal[args.checks:])]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--checks", type=int, default=250, help="per allowance (6\" and 12\")")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    add_arguments(ap, rounds=2)
    args = ap.parse_args()
    if args.json:
        print(json.dumps(measure(args, say=lambda *_: None)))
        return
    if not args.before:
        measure(args)
        return
    argv = ["--pairs", str(args.pairs), "--checks", str(args.checks), "--repeat", str(args.repeat)]
    old, new = alternate(__file__, args.before, argv, args.rounds)
    rows = [("first find_path (builds the graph)", med(old, "first_ms"), med(new, "first_ms"), "ms")]
    for key, what in (("find_path", f"find_path, {args.pairs} pairs"), ("check6", "MoveSpace.check 6\""),
                      ("check12", "MoveSpace.check 12\"")):
        rows += [(f"{what}, {q}", med(old, key, q), med(new, key, q), "ms") for q in ("median", "p95", "max")]
    table(f"town, 25 mm base, 20 models; {args.rounds} alternating rounds, medians of the rounds' best "
          f"of {args.repeat} (before: {args.before}); goals: find_path median <= 5 ms, p95 <= 20 ms, "
          f"check median <= 1 ms", rows)
    print(f"destinations legal (6\", 12\" of {args.checks}): before {old[0]['legal']}, now {new[0]['legal']}")


if __name__ == "__main__":
    main()
