"""The soak (issue 30): many whole games of every ruleset, on dask.distributed, counting errors.

    python bench/soak.py --games 200 --out runs/soak            # 200 games per ruleset
    python bench/soak.py --games 10000 --out runs/soak --start 0 --count 2500   # one chunk of a big run
    python bench/soak.py --games 10000 --out runs/soak --scheduler tcp://host:8786

Game ``i`` of a ruleset is fully decided by (``--seed``, ruleset, ``i``): it is played on the
``i mod M``-th of the ``M`` shipped maps the ruleset accepts (its own set-up check, as
``skirmish simulate --any-map``: a map's ``suits`` is a designer's label, not a rule), with the
agent pair ``(i div M) mod 4`` of random v random, random v easy, easy v random, easy v easy, and
its own seed. So every map meets every pairing, and any chunk of indices (``--start``,
``--count``) can be played at any time, in any order, on any machine, and adds to the same run.

A game that raises is recorded (ruleset, index, map, agents, seed, decisions, the traceback) and
the soak goes on; a game still going after ``--max-decisions`` is an error too. Every game's save is
kept for a sample (``--sample``, 1% by default, chosen by a hash of the game so it does not
follow the map or pairing cycles) and for every game that failed; each sampled save is checked by
``skirmish replay --check`` (the command's own ``main``, in a dask task), and so is every failed
game's. Records go to
``OUT/games.jsonl`` and ``OUT/checks.jsonl`` as they arrive: a killed run is taken up again by the
same command (games already recorded are skipped); ``OUT/config.json`` refuses a run whose
settings differ. Figures (games, errors, time, games per second, replays checked) are printed
and written to ``OUT/summary.json``; ``--report OUT`` prints them again for the whole folder.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RULESETS = ("counterblast", "frontier", "doubles")
PAIRS = (("random", "random"), ("random", "easy"), ("easy", "random"), ("easy", "easy"))
MAX_DECISIONS = 20_000          # a Counterblast game of easy v easy takes ~400


# --- what runs in a worker ---------------------------------------------------------------------
def _engine_on_path(root: str) -> None:
    """A worker started by a LocalCluster (or elsewhere) finds this checkout's engine."""
    if root not in sys.path:
        sys.path.insert(0, root)


def game_seed(seed: int, ruleset: str, index: int) -> int:
    h = hashlib.blake2b(f"soak:{seed}:{ruleset}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") % 2**31


def sampled(seed: int, ruleset: str, index: int, fraction: float) -> bool:
    h = hashlib.blake2b(f"sample:{seed}:{ruleset}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") % 1_000_000 < fraction * 1_000_000


def accepted_maps(ruleset: str, root: str = str(ROOT)) -> list[str]:
    """The shipped maps the ruleset's own set-up accepts, in id order."""
    _engine_on_path(root)
    from engine.core import Game, Setup, SetupError
    from engine.data.maps import load_named_map
    from engine.paths import shipped_map_ids

    out = []
    for mid in shipped_map_ids():
        try:
            Game(Setup(ruleset, load_named_map(mid), (), {}, 1))
        except SetupError:
            continue
        out.append(mid)
    return out


def play_game(job: dict, root: str) -> dict:
    """One game of the soak; never raises: an error is part of the record."""
    _engine_on_path(root)
    import traceback

    rec = {k: job[k] for k in ("ruleset", "index", "map", "agents", "seed")}
    rec.update(decisions=0, error=None, traceback=None, winner=None, turn=None, save=None)
    t0 = time.process_time()
    game = None
    try:
        from engine.ai import make_agent
        from engine.core import Game, Setup
        from engine.core.saves import to_save
        from engine.data.maps import load_named_map

        game = Game(Setup(job["ruleset"], load_named_map(job["map"]), (), {}, job["seed"]))
        agents = {p: make_agent(job["agents"][p - 1], p, job["seed"] ^ (p * 0x9E3779B1)) for p in (1, 2)}
        for a in agents.values():
            a.attach(game.table, game.rules)
        while (d := game.pending()) is not None:
            if rec["decisions"] >= job["max_decisions"]:
                raise RuntimeError(f"no result after {job['max_decisions']} decisions (turn {game.state.turn})")
            game.submit(d.player, agents[d.player].choose(d, game.view(d.player)))
            rec["decisions"] += 1
        result = game.result()
        if result is None:
            raise RuntimeError("no decision is pending but the ruleset reports no result")
        rec["winner"], rec["turn"] = result.winner, game.state.turn
    except Exception as err:  # noqa: BLE001 - the soak's job is to find these, and go on
        rec["error"] = f"{type(err).__name__}: {err}"
        rec["traceback"] = traceback.format_exc()
    rec["cpu_seconds"] = round(time.process_time() - t0, 3)
    if game is not None and (job["keep_save"] or rec["error"]):
        try:
            rec["save"] = json.dumps(to_save(game), allow_nan=False)
        except Exception as err:  # noqa: BLE001
            rec["save_error"] = f"{type(err).__name__}: {err}"
    return rec


def check_save(text: str, name: str, root: str) -> dict:
    """``skirmish replay NAME --check`` on a save, in-process: its exit code and what it said."""
    _engine_on_path(root)
    import contextlib
    import io
    import tempfile

    from game.cli import main

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / name
        path.write_text(text)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(["replay", str(path), "--check"])
            except BaseException as e:  # noqa: BLE001 - a crash of the check is a failed check
                rc, err = None, io.StringIO(f"{type(e).__name__}: {e}")
    return {"save": name, "rc": rc, "out": out.getvalue().strip()[-300:], "err": err.getvalue().strip()[-1000:]}


# --- the driver --------------------------------------------------------------------------------
def jobs(args, maps: dict[str, list[str]]) -> list[dict]:
    out = []
    for rs in args.rulesets:
        m = maps[rs]
        for i in range(args.start, min(args.start + args.count, args.games)):
            out.append({"ruleset": rs, "index": i, "map": m[i % len(m)], "agents": list(PAIRS[(i // len(m)) % 4]),
                        "seed": game_seed(args.seed, rs, i), "max_decisions": args.max_decisions,
                        "keep_save": sampled(args.seed, rs, i, args.sample)})
    return out


def read_jsonl(path: Path) -> list[dict]:
    """The records of a file appended to as games finished; a line cut short by a kill is dropped."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def _heal(path: Path) -> None:
    """Rewrite a records file whose last line a kill cut short, so appended lines start afresh."""
    if path.exists() and path.stat().st_size and not path.read_bytes().endswith(b"\n"):
        tmp = path.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(r) + "\n" for r in read_jsonl(path)))
        tmp.replace(path)


def _client(workers: int, scheduler: str | None):
    from distributed import Client, LocalCluster

    if scheduler:
        return Client(scheduler, timeout="20s"), None
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)     # a taken dashboard port: harmless here
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None, silence_logs=40)
    return Client(cluster), cluster


def _lost(fut, job: dict | None) -> dict:
    """The record of a task that failed outside ``play_game`` (a worker died, dask gave up): a
    game's is an error like any other; a replay check's is a failed check."""
    import traceback

    exc = fut.exception()
    why = f"the task failed outside the game: {type(exc).__name__}: {exc}"
    if job is None:
        return {"save": "?", "rc": None, "out": "", "err": why}
    rec = {k: job[k] for k in ("ruleset", "index", "map", "agents", "seed")}
    rec.update(decisions=None, winner=None, turn=None, save=None, cpu_seconds=None, error=why,
               traceback="".join(traceback.format_tb(fut.traceback())))
    return rec


def _save_name(rec: dict) -> str:
    return f"{rec['ruleset']}-{rec['map']}-{rec['index']:05d}-seed{rec['seed']}.json"


def summarize(games: list[dict], checks: list[dict]) -> dict:
    by = {}
    for rs in sorted({g["ruleset"] for g in games}):
        gs = [g for g in games if g["ruleset"] == rs]
        by[rs] = {"games": len(gs), "errors": sum(1 for g in gs if g["error"]),
                  "decisions": sum(g["decisions"] or 0 for g in gs),
                  "cpu_seconds": round(sum(g.get("cpu_seconds") or 0 for g in gs), 1),
                  "maps": sorted({g["map"] for g in gs}),
                  "pairs": sorted({"-".join(g["agents"]) for g in gs})}
    bad = [c for c in checks if c["rc"] != 0]
    return {"games": len(games), "errors": sum(1 for g in games if g["error"]), "by_ruleset": by,
            "saves_checked": len(checks), "saves_failed": len(bad),
            "failed_checks": [f"{c['save']}: rc {c['rc']}: {c['err'][:200]}" for c in bad[:20]],
            "error_games": [{k: g[k] for k in ("ruleset", "index", "map", "agents", "seed", "error")}
                            for g in games if g["error"]][:50]}


def run(args) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "saves").mkdir(exist_ok=True)
    maps = {rs: accepted_maps(rs) for rs in args.rulesets}
    # what decides each game and its checks (not --games: game i is the same in a run of any size,
    # so a run can be taken further later)
    config = {"seed": args.seed, "sample": args.sample, "max_decisions": args.max_decisions,
              "pairs": [list(p) for p in PAIRS], "maps": maps}
    cfg_path = out / "config.json"
    if cfg_path.exists():
        old = json.loads(cfg_path.read_text())
        if any(old.get(k) != v for k, v in config.items() if k != "maps") or \
                any(old.get("maps", {}).get(rs, v) != v for rs, v in maps.items()):
            print(f"soak: {cfg_path} holds another run ({old}); use another --out", file=sys.stderr)
            return 2
        config["maps"] = {**old.get("maps", {}), **maps}
    cfg_path.write_text(json.dumps(config, indent=1) + "\n")

    for name in ("games.jsonl", "checks.jsonl"):
        _heal(out / name)
    done_games = read_jsonl(out / "games.jsonl")
    done = {(g["ruleset"], g["index"]) for g in done_games}
    todo = [j for j in jobs(args, maps) if (j["ruleset"], j["index"]) not in done]
    checked = {c["save"] for c in read_jsonl(out / "checks.jsonl")}
    unchecked = [g for g in done_games if g.get("saved") and _save_name(g) not in checked
                 and (out / "saves" / _save_name(g)).exists()]     # a run killed before its checks ended
    print(f"soak: {len(todo)} games to play ({len(done)} already in {out}); maps "
          + "; ".join(f"{rs}: {', '.join(m)}" for rs, m in maps.items()), flush=True)
    t0 = time.perf_counter()
    new_games, new_checks = [], []
    if todo or unchecked:
        from distributed import as_completed

        client, cluster = _client(args.workers, args.scheduler)
        try:
            n_workers = len(client.scheduler_info().get("workers", {})) or args.workers
            t_play = time.perf_counter()
            root = str(ROOT)
            games = client.map(play_game, todo, root=root, pure=False)
            job_of = {f.key: j for f, j in zip(games, todo)}
            futs = as_completed(games)
            for g in unchecked:
                futs.add(client.submit(check_save, (out / "saves" / _save_name(g)).read_text(), _save_name(g),
                                       root, pure=False))
            step = max(1, len(todo) // 20)
            with open(out / "games.jsonl", "a") as fg, open(out / "checks.jsonl", "a") as fc:
                for fut in futs:
                    rec = fut.result() if fut.status != "error" else _lost(fut, job_of.get(fut.key))
                    if "rc" in rec:                  # a replay check
                        fc.write(json.dumps(rec) + "\n")
                        fc.flush()
                        new_checks.append(rec)
                        continue
                    save = rec.pop("save")
                    rec["saved"] = save is not None
                    if save is not None:
                        name = _save_name(rec)
                        (out / "saves" / name).write_text(save)
                        futs.add(client.submit(check_save, save, name, root, pure=False))
                    fg.write(json.dumps(rec) + "\n")
                    fg.flush()
                    new_games.append(rec)
                    if rec["error"]:
                        print(f"soak: ERROR {rec['ruleset']} #{rec['index']} on {rec['map']} "
                              f"({' v '.join(rec['agents'])}, seed {rec['seed']}): {rec['error']}", flush=True)
                    if len(new_games) % step == 0:
                        rate = len(new_games) / (time.perf_counter() - t_play)
                        print(f"soak: {len(new_games)}/{len(todo)} games, {rate:.2f} games/s", flush=True)
            play_seconds = time.perf_counter() - t_play
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    else:
        n_workers, play_seconds = 0, 0.0
    wall = time.perf_counter() - t0
    this = summarize(new_games, new_checks)
    this.update(seconds=round(wall, 1), play_seconds=round(play_seconds, 1), workers=n_workers,
                games_per_second=round(len(new_games) / play_seconds, 3) if play_seconds else None)
    whole = summarize(read_jsonl(out / "games.jsonl"), read_jsonl(out / "checks.jsonl"))
    (out / "summary.json").write_text(json.dumps({"this_run": this, "whole_run": whole}, indent=1) + "\n")
    _print(this, "this run")
    _print(whole, f"all of {out}")
    return 1 if whole["errors"] or whole["saves_failed"] else 0


def _print(s: dict, label: str) -> None:
    print(f"== {label}: {s['games']} games, {s['errors']} errors; {s['saves_checked']} sampled saves checked "
          f"by replay --check, {s['saves_failed']} failed")
    if s.get("play_seconds"):
        print(f"   {s['seconds']} s wall ({s['play_seconds']} s playing, cluster start-up aside) on {s['workers']} "
              f"workers: {s['games_per_second']} games/s")
    for rs, b in s["by_ruleset"].items():
        print(f"   {rs}: {b['games']} games, {b['errors']} errors, {b['decisions']} decisions "
              f"({b['decisions'] / max(1, b['games']):.0f} a game), {b['cpu_seconds']} CPU s; maps {', '.join(b['maps'])}")
    for e in s["error_games"][:10]:
        print(f"   error: {e}")
    for f in s["failed_checks"][:10]:
        print(f"   failed check: {f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per ruleset in the whole run (default 200)")
    ap.add_argument("--start", type=int, default=0, help="first game index of this chunk")
    ap.add_argument("--count", type=int, default=None, help="games per ruleset in this chunk (default: to --games)")
    ap.add_argument("--rulesets", nargs="+", default=list(RULESETS), choices=RULESETS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sample", type=float, default=0.01, help="share of games whose save is kept and checked")
    ap.add_argument("--max-decisions", type=int, default=MAX_DECISIONS)
    ap.add_argument("--out", required=True, help="folder of the run (games.jsonl, checks.jsonl, saves/, summary.json)")
    ap.add_argument("--workers", type=int, default=2, help="local dask workers (without --scheduler)")
    ap.add_argument("--scheduler", help="address of a running dask scheduler (its workers need this checkout)")
    ap.add_argument("--report", action="store_true", help="only print the figures of --out")
    args = ap.parse_args(argv)
    if args.report:
        s = summarize(read_jsonl(Path(args.out) / "games.jsonl"), read_jsonl(Path(args.out) / "checks.jsonl"))
        _print(s, f"all of {args.out}")
        return 1 if s["errors"] or s["saves_failed"] else 0
    if args.count is None:
        args.count = args.games - args.start
    if not (0 <= args.start < args.games and args.count > 0 and 0 <= args.sample <= 1 and args.workers > 0):
        ap.error("need 0 <= --start < --games, --count > 0, 0 <= --sample <= 1, --workers > 0")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
