"""Play the shipped balanced maps' confirmations again on today's game (issue 62).

    python bench/balance_check.py [SIDECAR ...] [--games N] [--seed S] [--workers 1] [--out DIR] [--write]
    python bench/balance_check.py SIDECAR --from EXPERIMENT_DIR [--write]

Each balanced map carries ``<map>.confirmed.json`` (``engine/workshop/confirmed.py``): the rules
version, agents, rosters, deployment, commit, seed and games of its confirming experiment and the
interval it gave. This bench plays the same experiment (the recorded agents, rosters and options;
the recorded number of games unless ``--games``; the recorded seed unless ``--seed``, a fresh one
being the real test) and prints, per map, the recorded interval beside today's with the verdict
("balanced" only when the interval lies inside 45-55%). ``--write`` rewrites the sidecar from
today's games (the new conditions, interval, verdict and sample to replay). ``--from`` reads the
games of an experiment already played (its ``games.jsonl[.gz]``) instead of playing.

Default sidecars: every ``docs/examples/balanced/*.confirmed.json``. The fast check (no full
confirmation: the conditions and two replayed games per map) is ``tests/test_balanced_maps.py``.
"""
from __future__ import annotations

import argparse
import gzip
import json
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHIPPED = ROOT / "docs" / "examples" / "balanced"


def read_records(folder: Path) -> tuple[list[dict], dict]:
    cfg = json.loads((folder / "config.json").read_text())
    for name in ("games.jsonl", "games.jsonl.gz"):
        p = folder / name
        if p.exists():
            opener = gzip.open if name.endswith(".gz") else open
            with opener(p, "rt") as fh:
                return [json.loads(line) for line in fh if line.strip()], cfg
    raise SystemExit(f"{folder}: no games.jsonl")


def pct(share, low, high) -> str:
    return f"{100 * share:.0f}% [{100 * low:.0f}-{100 * high:.0f}]"


def check(sidecar: Path, args) -> int:
    from engine.data.maps import load_map
    from engine.workshop import confirmed as C
    from engine.workshop.balance_stats import table_estimate

    conf = C.load(sidecar)
    map_path = sidecar.parent / conf.map
    load_map(map_path)                     # a bad map is refused here, before any game
    if args.from_dir:
        recs, cfgj = read_records(Path(args.from_dir))
        seed, games = int(cfgj["seed"]), len(recs)
        if cfgj["ruleset"] != conf.ruleset or (cfgj["p1"], cfgj["p2"]) != tuple(conf.agents):
            raise SystemExit(f"{args.from_dir}: its ruleset or agents are not the sidecar's")
    else:
        from engine.workshop.experiment import Config, run

        seed = conf.experiment_seed if args.seed is None else args.seed
        games = args.games or conf.games
        cfg = Config(conf.ruleset, (str(map_path),), games, conf.agents[0], conf.agents[1], tuple(conf.rosters),
                     seed, labels=(sidecar.stem,), any_map=True, options=tuple(sorted(conf.options.items())))
        out = Path(args.out) / sidecar.name.replace(C.SUFFIX, "")
        recs = run(cfg, out, workers=args.workers, resume=out.exists(), progress=False).records
    est = table_estimate(recs, tuple(conf.rosters), tuple(conf.agents))
    now = C.verdict(est)
    cpu = sum(r.get("cpu_seconds") or 0 for r in recs)
    print(f"{conf.map}: recorded {pct(conf.share, conf.low, conf.high)} ({conf.verdict}, {conf.decisive} decisive, "
          f"seed {conf.experiment_seed}, commit {conf.commit}); today {pct(est['share'], est['low'], est['high'])} "
          f"over {est['games']} decisive of {len(recs)} games ({now}; {' v '.join(conf.agents)}, no budget; "
          f"seed {seed}; {cpu:.0f} s of game CPU)", flush=True)
    if args.write:
        cmd = args.command or ("python bench/balance_check.py " + shlex.quote(str(sidecar.relative_to(ROOT)))
                               + f" --games {games} --seed {seed} --write")
        new = C.from_records(conf.map, conf.ruleset, recs, est, seed, dict(conf.options), command=cmd)
        C.save(new.model_copy(update={"agent_budgets": conf.agent_budgets}), sidecar)
        print(f"  wrote {sidecar}")
    return 0 if now == "balanced" else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sidecars", nargs="*", type=Path)
    ap.add_argument("--games", type=int, help="games per map (default: the recorded number)")
    ap.add_argument("--seed", type=int, help="the experiment seed (default: the recorded one; a fresh one is the test)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", default="runs/balance-check", help="folder for the experiments")
    ap.add_argument("--from", dest="from_dir", help="read an experiment already played instead of playing")
    ap.add_argument("--write", action="store_true", help="rewrite the sidecar from today's games")
    ap.add_argument("--command", help="with --write: the command recorded as reproducing it")
    args = ap.parse_args(argv)
    files = args.sidecars or sorted(SHIPPED.glob("*.confirmed.json"))
    if args.from_dir and len(files) != 1:
        ap.error("--from reads one experiment: give one sidecar")
    from engine.data.maps import DataError
    from engine.workshop.confirmed import ConfirmationError

    worst = 0
    for f in files:
        try:
            worst = max(worst, check(f.resolve(), args))
        except (ConfirmationError, DataError, OSError) as err:     # refused with the file and the reason
            print(f"balance_check: {err}", file=sys.stderr)
            worst = 2
    return worst


if __name__ == "__main__":
    sys.exit(main())
