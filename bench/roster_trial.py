"""Try a roster before it ships: crossed easy-v-easy games of a candidate against other rosters.

    python bench/roster_trial.py --ruleset frontier --candidate my_posse.json --against sheriffs outlawmen \\
        --maps town field --blocks 100 [--seed 1] [--workers 2]
    python bench/roster_trial.py --ruleset frontier --all a.json b.json c.json d.json --maps town field --blocks 60

A roster is a shipped id or a JSON file (a crew, posse or warband object, as ``Setup`` takes it).
Each block plays the candidate from each zone on one seed (``engine.simulate.game_seed``), so
the games are those ``skirmish experiment --rosters`` would play with the candidate shipped under
that id; the report is the roster effect of ``engine.workshop.stats.summarize`` (the candidate's
share against each opponent on an even table, 95% interval), per map and opponent.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def load_roster(spec: str):
    p = Path(spec)
    if p.suffix == ".json" and p.exists():
        return json.loads(p.read_text())
    return spec


def label(spec: str) -> str:
    return Path(spec).stem if spec.endswith(".json") else spec


def play_block(job) -> list[dict]:
    ruleset, map_name, block, seed, specs = job
    from engine.core import Game, Setup
    from engine.data.maps import load_map
    from engine.paths import resolve_map
    from engine.simulate import GamePlan, game_record, make_agents, play

    mf = load_map(resolve_map(map_name))
    objs = {label(s): load_roster(s) for s in specs}
    a, b = (label(s) for s in specs)
    out = []
    for k, rs in enumerate(((a, b), (b, a))):
        plan = GamePlan(2 * block + k, block, seed, rs, ("easy", "easy"))
        g = Game(Setup(ruleset, mf, (objs[rs[0]], objs[rs[1]]), {}, seed))
        d = g.pending()
        first = None if d is None else d.player
        try:
            played = play(g, make_agents(seed, plan.agents))
            rec = game_record(plan, g, played, first)
        except Exception as err:  # noqa: BLE001 - counted
            rec = game_record(plan, g, None, first, f"{type(err).__name__}: {err}")
        rec["map"] = map_name
        out.append(rec)
    return out


def _refused(ruleset: str, maps: list[str], pairs: list[tuple[str, str]]) -> str | None:
    """Why a pair cannot be played (a file that is not JSON, a roster the rules refuse, an unknown
    map), named with the roster or map, before any worker starts; None when every pair sets up."""
    from engine.core import Game, Setup
    from engine.data.maps import load_map
    from engine.paths import resolve_map

    for m in maps:
        try:
            mf = load_map(resolve_map(m))
        except Exception as err:  # noqa: BLE001 - reported, not raised
            return f"map {m}: {err}"
        for pair in pairs:
            try:
                objs = tuple(load_roster(s) for s in pair)
            except (OSError, ValueError) as err:
                return f"{' or '.join(pair)}: {err}"
            try:
                Game(Setup(ruleset, mf, objs, {}, 1))
            except Exception as err:  # noqa: BLE001 - the rules' own reason, with the roster
                return f"{label(pair[0])} v {label(pair[1])} on {m}: {err}"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", required=True)
    ap.add_argument("--candidate", help="the roster to try (with --against)")
    ap.add_argument("--against", nargs="+", default=[])
    ap.add_argument("--all", nargs="+", help="instead: every pair of these rosters")
    ap.add_argument("--maps", nargs="+", required=True)
    ap.add_argument("--blocks", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--records", help="append every game record to this JSONL file")
    args = ap.parse_args(argv)

    from multiprocessing import Pool

    from engine.simulate import game_seed
    from engine.workshop.stats import pct, summarize

    if args.all:
        import itertools

        pairs = list(itertools.combinations(args.all, 2))
    else:
        pairs = [(args.candidate, opp) for opp in args.against]
    problem = _refused(args.ruleset, args.maps, pairs)
    if problem:
        print(f"roster_trial: {problem}", file=sys.stderr)
        return 2
    jobs = [(args.ruleset, m, b, game_seed(args.seed, b), pair)
            for pair in pairs for m in args.maps for b in range(args.blocks)]
    with Pool(args.workers) as pool:
        recs = [r for rs in pool.map(play_block, jobs, chunksize=4) for r in rs]
    if args.records:
        with open(args.records, "a") as fh:
            for r in recs:
                fh.write(json.dumps(r, sort_keys=True) + "\n")
    for a_spec, opp in pairs:
        cand, o = label(a_spec), label(opp)
        mine = [r for r in recs if {cand, o} == {r["rosters"]["1"], r["rosters"]["2"]}]
        s = summarize(mine, {"rosters": [cand, o], "p1": "easy", "p2": "easy"})
        for m, v in s.items():
            errs = f", {v['errors']} errors" if v["errors"] else ""
            print(f"{cand} v {o} on {m}: {cand} wins {pct(v['roster'])} of {v['decisive']} decisive "
                  f"({v['distinct_games']} games{errs}); zone 1 {pct(v['table'])}; draws {pct(v['draw'])}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
