"""The shipped experiments re-run: CPU per game, before and after (issue 28's third goal).

    python bench/rerun.py [--games 20] [--before DIR] [--rounds 2] [EXPERIMENT_DIR ...]

Each experiment folder's ``config.json`` (or its ``manifest.json.gz``'s config) (by default the four in ``data/experiments/`` and one
``easy`` balance pairing per ruleset that those do not play) is played again for its first
``--games`` games per map, the same agents, seeds and crossed design, one game after another in
one process (``engine.workshop.experiment.run_game``, what a worker does, without dask). One
untimed game per map first builds what a process builds once per map. Prints, per experiment,
CPU per game (each game's own ``thread_time``, as the experiment records it), decisions per game,
CPU per decision and errors; with ``--before DIR`` the same for DIR's code (its own maps and
rosters), alternately, the gains as medians over the rounds, and how many games end in the same
final hash on both sides: the rules and the default forces changed since the speed work began,
so where the games differ the per-game gain measures the games as much as the code.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import THIS, add_arguments, alternate, code_root, med  # noqa: E402

DEFAULT = ["data/experiments/doubles-easy", "data/experiments/frontier-easy",
           "data/experiments/mirror-doubles-easy", "data/experiments/mirror-frontier-easy",
           "data/experiments/balance/counterblast-easy/dustjaw-raiders--iron-choir",
           "data/experiments/balance/doubles-easy/ash_skulls--obsidian_clan",
           "data/experiments/balance/frontier-easy/bootleggers--townsfolk"]


def measure(folders: list[str], games: int) -> dict:
    """This process's code (``code_root``) on each folder's config: per-game records."""
    code_root()
    from engine.workshop.experiment import Config, jobs, run_game

    out = {}
    for folder in folders:
        f = THIS / folder / "config.json"       # a kept experiment holds it in its manifest (gzip)
        raw = json.loads(f.read_text()) if f.exists() else \
            json.loads(gzip.decompress((f.parent / "manifest.json.gz").read_bytes()))["config"]
        cfg = Config(raw["ruleset"], tuple(raw["maps"]), games, raw["p1"], raw["p2"],
                     tuple(raw.get("rosters") or (None, None)), raw.get("seed", 1),
                     raw.get("max_decisions", 50_000), tuple(raw.get("labels") or ()))
        try:
            todo = jobs(cfg)
        except Exception as e:      # a roster or map this checkout does not have
            out[folder] = {"refused": f"{type(e).__name__}: {e}"}
            continue
        warmed, recs = set(), []
        for job in todo:
            if job.map not in warmed:
                run_game(job)
                warmed.add(job.map)
            r = run_game(job)
            recs.append({k: r.get(k) for k in ("map", "index", "cpu_seconds", "decisions", "final_hash", "error")})
        out[folder] = {"records": recs}
    return out


def summary(res: dict) -> dict:
    if "refused" in res:
        return res
    recs = res["records"]
    cpu = sum(r["cpu_seconds"] for r in recs)
    dec = sum(r["decisions"] or 0 for r in recs)
    return {"games": len(recs), "cpu_per_game": cpu / len(recs), "decisions_per_game": dec / len(recs),
            "ms_per_decision": 1000 * cpu / max(dec, 1), "errors": sum(1 for r in recs if r["error"]),
            "hashes": {f"{r['map']}#{r['index']}": r["final_hash"] for r in recs}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="*", default=DEFAULT, help="experiment folders (relative to this checkout)")
    ap.add_argument("--games", type=int, default=20, help="games per map, from the first")
    add_arguments(ap, rounds=2)
    args = ap.parse_args()
    if args.json:
        print(json.dumps({f: summary(r) for f, r in measure(args.folders, args.games).items()}))
        return 0
    argv = [*args.folders, "--games", str(args.games)]
    if not args.before:
        now = {f: summary(r) for f, r in measure(args.folders, args.games).items()}
        for f, s in now.items():
            if "refused" in s:
                print(f"{f}: refused: {s['refused']}")
            else:
                print(f"{f}: {s['games']} games, {s['cpu_per_game']:.3f} CPU s a game, "
                      f"{s['decisions_per_game']:.0f} decisions, {s['ms_per_decision']:.2f} ms a decision, "
                      f"{s['errors']} errors")
        return 0
    old, new = alternate(__file__, args.before, argv, args.rounds)
    print("| experiment | games | CPU s a game: before | now | gain | decisions a game: before | now "
          "| ms a decision: before | now | gain | same final hash |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for f in args.folders:
        a, b = [r[f] for r in old], [r[f] for r in new]
        if "refused" in a[0] or "refused" in b[0]:
            print(f"| {f} | refused: {a[0].get('refused') or b[0].get('refused')} |")
            continue
        pg_a, pg_b = med(old, f, "cpu_per_game"), med(new, f, "cpu_per_game")
        pd_a, pd_b = med(old, f, "ms_per_decision"), med(new, f, "ms_per_decision")
        same = sum(h == b[0]["hashes"].get(k) for k, h in a[0]["hashes"].items())
        errs = a[0]["errors"] + b[0]["errors"]
        print(f"| {Path(f).name if 'balance' not in f else f.split('balance/')[1]} | {a[0]['games']} "
              f"| {pg_a:.3f} | {pg_b:.3f} | {pg_a / pg_b:.2f}x | {a[0]['decisions_per_game']:.0f} "
              f"| {b[0]['decisions_per_game']:.0f} | {pd_a:.2f} | {pd_b:.2f} | {pd_a / pd_b:.2f}x "
              f"| {same} of {a[0]['games']} |" + (f" {errs} errors" if errs else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
