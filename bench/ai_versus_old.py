"""Head to head: today's ``easy`` against ``easy`` as it stood at an older commit (issue 61, item 2:
"keep a change only if the new easy is not weaker").

Run:  python bench/ai_versus_old.py --ref b736436 --games 100 --seed 11 [--ruleset counterblast]
          [--map outpost] [--rosters A,B] [--option KEY=VALUE] [--set MODULE:CLASS.ATTR=VALUE]
          [--workers 2] [--json FILE] [--out FILE.jsonl]
      python bench/ai_versus_old.py --old DIR ...     # DIR: a checkout or ``git archive`` copy

The old agent is the old commit's ``engine/ai`` (``git archive REF engine/ai``, or ``DIR/engine/ai``
with ``--old``), copied into a temporary folder and imported as a package of its own
(``oldeasy_NAME``): its modules import each other relatively and the rules absolutely, so the old
policy plays on today's rules. It is
registered as the agent ``easy-old`` (its ruleset policy is its own, never today's
``Rules.easy_policy``). Games are the simulator's crossed design (``engine.simulate``): each seed
block plays both rosters from both zones and both agents from both seats, every block its own
seed. Prints (and with ``--json`` writes, atomically) the new easy's wins, losses and draws, its
share of the decided games with the 95% Wilson interval over blocks (``engine.workshop.stats``:
a block's games share their luck), by roster and by seat, and any error. ``--set`` plays a
variant of today's agent (a switch a policy keeps for this bench: ``FrontierPolicy.move_order``).
``--out`` keeps one JSON line per game as it ends.
"""
from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.ai.base import register_agent  # noqa: E402
from engine.core.rules import get_rules  # noqa: E402
from engine.data.maps import load_map  # noqa: E402
from engine.paths import resolve_map  # noqa: E402
from engine.simulate import default_rosters, plan_game, play_planned  # noqa: E402
from engine.workshop.stats import cluster_share  # noqa: E402
from game.cli.args import option_pairs  # noqa: E402

OLD = "easy-old"


def register_old_easy(pkg: str) -> None:
    """Register the ``easy`` of the old ``engine/ai`` imported as ``pkg`` as the agent
    ``easy-old``. Its ruleset policies are the old package's own: where the rules name
    ``engine.ai.easy_frontier:FrontierPolicy``, it reads ``<pkg>.easy_frontier``, never today's."""
    easy = importlib.import_module(f"{pkg}.easy")

    @register_agent
    class OldEasy(easy.EasyAgent):
        name = OLD

        def policy(self, view):
            if self._policy is None:
                spec = getattr(self.rules, "easy_policy", None) if self.rules is not None else None
                if not spec or self.table is None:
                    return super().policy(view)
                module, cls = spec.split(":")
                module = module.replace("engine.ai.", f"{pkg}.", 1)
                self._policy = getattr(importlib.import_module(module), cls)(self)
            return self._policy


def _old_files(ref: str) -> dict[str, bytes]:
    """``engine/ai``'s top-level modules (``__init__`` aside) at ``ref``: a commit, or a folder
    holding a checkout or a ``git archive`` copy."""
    folder = Path(ref) / "engine" / "ai"
    if folder.is_dir():
        return {f.name: f.read_bytes() for f in folder.glob("*.py") if f.name != "__init__.py"}
    blob = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "engine/ai"], check=True,
                          capture_output=True).stdout
    out = {}
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        for m in tar.getmembers():
            name = m.name.split("engine/ai/", 1)[-1]
            if m.isfile() and "/" not in name and name.endswith(".py") and name != "__init__.py":
                out[name] = tar.extractfile(m).read()
    return out


def load_old(ref: str, where: Path | None = None) -> str:
    """Copy ``engine/ai`` of ``ref`` (a commit or a folder, ``_old_files``) as the package
    ``oldeasy_<name>`` and register its easy agent as ``easy-old``; returns the package name."""
    pkg = "oldeasy_" + "".join(ch for ch in (Path(ref).name if Path(ref).is_dir() else ref) if ch.isalnum())
    where = Path(where or tempfile.mkdtemp(prefix="old-easy-"))
    dest = where / pkg
    if not dest.exists():
        files = _old_files(ref)
        dest.mkdir(parents=True)
        for name, data in files.items():
            (dest / name).write_bytes(data)
        (dest / "__init__.py").write_text(f'"""engine/ai as of {ref} (bench/ai_versus_old.py)."""\n')
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))
    register_old_easy(pkg)
    os.environ["OLD_EASY_DIR"], os.environ["OLD_EASY_REF"] = str(where), ref
    return pkg


def apply_sets(sets) -> None:
    """``module:Class.attr=value`` (value read as JSON, else a string): a variant of today's agent."""
    for item in sets:
        target, _, raw = item.partition("=")
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


def _one(args):
    ruleset, map_name, index, seed, rosters, options, sets = args
    if OLD not in __import__("engine.ai.base", fromlist=["_AGENTS"])._AGENTS:    # a spawned worker
        load_old(os.environ["OLD_EASY_REF"], Path(os.environ["OLD_EASY_DIR"]))
    apply_sets(sets)
    mapfile = load_map(resolve_map(map_name))
    plan = plan_game(index, seed, rosters, ("easy", OLD), True, False)
    t0 = time.process_time()
    rec, _ = play_planned(ruleset, mapfile, plan, options)
    rec["cpu"] = round(time.process_time() - t0, 2)
    return rec


def report(recs: list[dict]) -> dict:
    ok = [r for r in recs if not r["error"]]
    new_wins = sum(r["winner_agent"] == "easy" for r in ok)
    old_wins = sum(r["winner_agent"] == OLD for r in ok)
    draws = sum(r["winner"] is None for r in ok)
    dec = [r for r in ok if r["winner"] is not None]
    blocks = sorted({r["block"] for r in dec})
    wins = [sum(r["winner_agent"] == "easy" for r in dec if r["block"] == b) for b in blocks]
    games = [sum(1 for r in dec if r["block"] == b) for b in blocks]
    share = cluster_share(wins, games) if dec else None
    by_roster, by_seat = {}, {}
    for r in dec:
        seat = next(s for s, a in r["agents"].items() if a == "easy")
        ro = r["rosters"][seat]
        w = r["winner_agent"] == "easy"
        by_roster.setdefault(ro, [0, 0])[0] += w
        by_roster[ro][1] += 1
        by_seat.setdefault(f"seat{seat}", [0, 0])[0] += w
        by_seat[f"seat{seat}"][1] += 1
    return {"games": len(recs), "errors": [r["error"] for r in recs if r["error"]],
            "new_wins": new_wins, "old_wins": old_wins, "draws": draws,
            "share_of_decided": share, "new_by_roster": by_roster, "new_by_seat": by_seat,
            "mean_cpu_s": round(sum(r["cpu"] for r in recs) / max(1, len(recs)), 2)}


def commit_of(root: Path) -> str:
    """The tree's commit (a copy made with ``git archive`` has none: its COMMIT file, if any)."""
    got = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if got.returncode == 0:
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "engine"], capture_output=True,
                               text=True).stdout.strip()
        return got.stdout.strip() + (" (+ uncommitted engine changes)" if dirty else "")
    f = root / "COMMIT"
    return f.read_text().strip() if f.exists() else "an unknown commit"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    old = ap.add_mutually_exclusive_group(required=True)
    old.add_argument("--ref", help="the old commit (its engine/ai is the old easy)")
    old.add_argument("--old", metavar="DIR", help="a checkout or git archive copy holding the old engine/ai")
    ap.add_argument("--ruleset", default="counterblast")
    ap.add_argument("--map", default=None)
    ap.add_argument("--rosters", default=None, help="A,B (default: the ruleset's default pairing)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE:CLASS.ATTR=VALUE",
                    help="a variant of today's agent, e.g. engine.ai.easy_frontier:FrontierPolicy.move_order=roster")
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--out", metavar="FILE.jsonl", help="one JSON line per game, as it ends")
    ap.add_argument("--cache", metavar="DIR", help="where the old package is unpacked (kept: a run from a copy of the "
                                                  "tree without git finds it there)")
    a = ap.parse_args(argv)
    ref = a.ref or a.old
    options, bad = option_pairs(a.option, a.ruleset)     # each value read as its option's type
    if bad:
        ap.error(bad)
    try:                                                  # refused here, not in every worker
        get_rules(a.ruleset).options_model().model_validate(options)
    except ValueError as err:
        ap.error(f"--option: {err}")
    load_old(ref, Path(a.cache) if a.cache else None)
    map_name = a.map or get_rules(a.ruleset).home_map
    rosters = tuple(a.rosters.split(",")) if a.rosters else default_rosters(a.ruleset)
    jobs = [(a.ruleset, map_name, i, a.seed, rosters, options, a.set) for i in range(a.games)]
    t0 = time.time()
    recs = []
    with ProcessPoolExecutor(a.workers) if a.workers > 1 else nullcontext() as ex:
        for rec in (ex.map(_one, jobs) if ex is not None else map(_one, jobs)):
            recs.append(rec)
            if a.out:
                with open(a.out, "a") as f:
                    f.write(json.dumps(rec) + "\n")
    out = {"new": f"easy at {commit_of(ROOT)}" + (f", sets {a.set}" if a.set else ""),
           "old": f"easy at {ref}", "budgets": "both easy: no search budget", "ruleset": a.ruleset,
           "map": map_name, "rosters": list(rosters), "options": options, "seed": a.seed,
           "design": "crossed (blocks of 4)", "wall_s": round(time.time() - t0, 1)} | report(recs)
    s = out["share_of_decided"]
    print(f"{out['new']} v {out['old']}, {a.ruleset} on {map_name}, {a.games} games, seed {a.seed}: "
          f"new {out['new_wins']} - old {out['old_wins']} - draws {out['draws']}; errors {len(out['errors'])}")
    if s:
        print(f"  new easy's share of decided games {s['share']:.1%} [{s['low']:.1%}-{s['high']:.1%}] "
              f"(95%, blocks as clusters); by roster {out['new_by_roster']}; by seat {out['new_by_seat']}")
    if a.json:
        p = Path(a.json)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(p.suffix + ".tmp")
        tmp.write_text(json.dumps(out | {"records": recs}, indent=1))
        os.replace(tmp, p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
