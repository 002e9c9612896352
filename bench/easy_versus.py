"""Head to head: today's ``easy`` against an older ``easy`` (issue 61, item 2: "keep a change only
if the new easy is not weaker").

Run:  git archive <commit> engine/ai | tar -x -C /tmp/old-fd      # the old agent's code, once
      python bench/easy_versus.py --old /tmp/old-fd --ruleset frontier --games 100 --seed 1 \
          [--rosters bootleggers,sheriffs] [--option mission=relic-hunt] [--jobs 2] [--out FILE.jsonl]

The old agent is the old checkout's ``engine/ai`` loaded as a package of another name
(``old_ai``), so both live in one process and play the same engine (rules, table, deployment):
only the agents' code differs. Its ``easy`` is registered as ``easy-old`` and reads its own
policies (``old_ai.easy_frontier`` where the rules name ``engine.ai.easy_frontier``).

The games are the simulator's crossed design (``engine.simulate.plan_game``): each seed block
plays every cell of rosters by zone x agents by seat, so each agent has each seat and each
roster equally often, on distinct seeds. Prints the new easy's share of decided games with its
95% Wilson interval, wins by seat and by roster; ``--out`` keeps one JSON line per game.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from ai_versus_old import OLD as OLD_NAME, register_old_easy  # noqa: E402
from engine.workshop.stats import wilson  # noqa: E402
from game.cli.args import option_pairs  # noqa: E402


def load_old(path: str) -> None:
    """Register the easy agent of the checkout at ``path`` as ``easy-old`` (once per process)."""
    from engine.ai import base

    if OLD_NAME in base._AGENTS:
        return
    pkg = Path(path) / "engine" / "ai"
    spec = importlib.util.spec_from_file_location("old_ai", pkg / "__init__.py",
                                                  submodule_search_locations=[str(pkg)])
    mod = importlib.util.module_from_spec(spec)
    sys.modules["old_ai"] = mod
    spec.loader.exec_module(mod)
    register_old_easy("old_ai")          # the same registration as bench/ai_versus_old.py


def apply_sets(sets) -> None:
    """``module:Class.attr=value`` (value read as JSON, else a string): a variant of today's agent
    (a switch a policy keeps for this bench, ``FrontierPolicy.move_order``, say)."""
    for s in sets:
        target, _, raw = s.partition("=")
        module, _, path = target.partition(":")
        obj = importlib.import_module(module)
        *owners, attr = path.split(".")
        for o in owners:
            obj = getattr(obj, o)
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        setattr(obj, attr, value)


def play_one(args) -> dict:
    old, ruleset, map_id, index, seed, rosters, options, sets = args
    load_old(old)
    apply_sets(sets)
    from engine.data.maps import load_map
    from engine.paths import resolve_map
    from engine.simulate import plan_game, play_planned

    mapfile = load_map(resolve_map(map_id))
    plan = plan_game(index, seed, tuple(rosters), ("easy", OLD_NAME), crossed=True)
    t = time.perf_counter()
    rec, _ = play_planned(ruleset, mapfile, plan, options)
    rec["seconds"] = round(time.perf_counter() - t, 2)
    return rec


def report(recs: list[dict]) -> str:
    new = sum(r["winner_agent"] == "easy" for r in recs)
    old = sum(r["winner_agent"] == OLD_NAME for r in recs)
    errors = sum(bool(r["error"]) for r in recs)
    draws = len(recs) - new - old - errors
    share, lo, hi = wilson(new, new + old)
    if share is None:
        share, lo, hi = float("nan"), 0.0, 1.0
    by_seat = {s: sum(r["winner"] == s for r in recs) for s in (1, 2)}
    by_roster: dict = {}
    for r in recs:
        if r["winner_roster"] is not None:
            by_roster[r["winner_roster"]] = by_roster.get(r["winner_roster"], 0) + 1
    return (f"games {len(recs)}: new easy {new}, old easy {old}, draws {draws}, errors {errors}; "
            f"new easy's share of decided {share:.1%} [95% {lo:.0%}-{hi:.0%}]; wins by seat {by_seat}; "
            f"by roster {by_roster}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="a checkout (or git archive) holding the old engine/ai")
    ap.add_argument("--ruleset", required=True, choices=("frontier", "doubles", "counterblast"))
    ap.add_argument("--map", help="default: the ruleset's home map")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rosters", help="A,B (default: the ruleset's default pairing)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE:CLASS.ATTR=VALUE",
                    help="a variant of today's agent, e.g. engine.ai.easy_frontier:FrontierPolicy.move_order=roster")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="one JSON line per game")
    a = ap.parse_args(argv)
    from engine.core.rules import get_rules
    from engine.simulate import default_rosters

    map_id = a.map or get_rules(a.ruleset).home_map
    rosters = tuple(a.rosters.split(",")) if a.rosters else default_rosters(a.ruleset)
    options, bad = option_pairs(a.option, a.ruleset)     # each value read as its option's type
    if bad:
        ap.error(bad)
    try:                                                  # refused here, not in every worker
        get_rules(a.ruleset).options_model().model_validate(options)
    except ValueError as err:
        ap.error(f"--option: {err}")
    jobs = [(a.old, a.ruleset, map_id, i, a.seed, rosters, options, a.set) for i in range(a.games)]
    recs = []
    t = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for rec in ex.map(play_one, jobs):
            recs.append(rec)
            if a.out:
                with open(a.out, "a") as f:
                    f.write(json.dumps(rec) + "\n")
    print(f"{a.ruleset} on {map_id}, rosters {rosters}, options {options}, sets {a.set}, seed {a.seed}, "
          f"{time.perf_counter() - t:.0f} s")
    print(report(recs))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    raise SystemExit(main())
