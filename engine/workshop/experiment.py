"""Balance experiments: AI-vs-AI games over one or more maps on dask.distributed.

Game ``i`` of ``games`` on a map uses seed ``game_seed(seed, i % half)`` where ``half`` is
``ceil(games / 2)``: the first half seats the ``p1`` agent in seat 1, the second half replays
the same seeds with the seats swapped, so each seed is played from both sides. Every game is a
pure function of (ruleset, map, seed, seats): the records, not the order in which workers finish,
are the result. Records are appended to ``games.jsonl`` as games finish (one JSON object a line,
flushed), so an interrupted run continues with ``resume=True`` and loses no finished game.
"""
from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

from engine.simulate import game_seed

RECORDS = "games.jsonl"
CONFIG = "config.json"


@dataclass(frozen=True)
class Config:
    ruleset: str
    maps: tuple[str, ...]
    games: int
    p1: str
    p2: str
    seed: int = 1
    max_decisions: int = 50_000


@dataclass(frozen=True)
class Job:
    ruleset: str
    map: str
    index: int
    seed: int
    seats: tuple[str, str]       # agent name in seat 1, seat 2
    swapped: bool                # True: the p2 agent sits in seat 1
    max_decisions: int = 50_000
    path: str = ""               # where the workers read the map (absolute for a file), else ``map``


def map_label(name: str) -> str:
    """A map's name in records and reports: a shipped map's id, or a file's stem."""
    return Path(name).stem if name.endswith(".json") else name


def map_source(name: str) -> str:
    """What a worker passes to ``resolve_map``: a shipped id, or the file's absolute path."""
    return str(Path(name).resolve()) if name.endswith(".json") else name


def jobs(cfg: Config) -> list[Job]:
    half = math.ceil(cfg.games / 2)
    out = []
    for m in cfg.maps:
        for i in range(cfg.games):
            swapped = i >= half
            out.append(Job(cfg.ruleset, map_label(m), i, game_seed(cfg.seed, i % half),
                           (cfg.p2, cfg.p1) if swapped else (cfg.p1, cfg.p2), swapped, cfg.max_decisions,
                           map_source(m)))
    return out


@lru_cache(maxsize=16)
def _load(map_name: str):
    from engine.data.maps import load_map
    from engine.paths import resolve_map

    return load_map(resolve_map(map_name))


def run_game(job: Job) -> dict:
    """Play one game; never raises (an error is part of the record)."""
    from engine.ai import make_agent
    from engine.core import Game, Setup
    from engine.simulate import play

    t0, c0 = time.perf_counter(), time.thread_time()
    rec = {"map": job.map, "index": job.index, "seed": job.seed, "ruleset": job.ruleset,
           "seats": {"1": job.seats[0], "2": job.seats[1]}, "swapped": job.swapped,
           "agents": None, "winner": None, "winner_agent": None, "first_player": None,
           "turns": None, "decisions": None, "scores": None, "reason": None, "error": None}
    try:
        game = Game(Setup(job.ruleset, _load(job.path or job.map), (), {}, job.seed))
        first = game.pending()
        rec["first_player"] = None if first is None else first.player
        players = {p: make_agent(job.seats[p - 1], p, job.seed ^ (p * 0x9E3779B1)) for p in (1, 2)}
        played = play(game, players, max_decisions=job.max_decisions)
        w = played.result.winner
        rec.update(winner=w, turns=game.state.turn, decisions=played.decisions,
                   scores={str(k): v for k, v in (played.result.scores or {}).items()},
                   reason=played.result.reason)
        if w is not None:
            # p1 / p2: the experiment's --p1 / --p2 agent, wherever it sat
            rec["winner_agent"] = ("p2" if w == 1 else "p1") if job.swapped else f"p{w}"
    except Exception as err:  # recorded: an experiment's job is also to find these
        rec["error"] = f"{type(err).__name__}: {err}"
    rec["seconds"] = round(time.perf_counter() - t0, 3)
    rec["cpu_seconds"] = round(time.thread_time() - c0, 3)     # the game's own CPU time on its worker
    return rec


def _key(rec_or_job) -> tuple[str, int]:
    if isinstance(rec_or_job, Job):
        return (rec_or_job.map, rec_or_job.index)
    return (rec_or_job["map"], int(rec_or_job["index"]))


def read_records(out: Path) -> list[dict]:
    path = Path(out) / RECORDS
    if not path.exists():
        return []
    recs = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            recs.append(json.loads(line))
        except json.JSONDecodeError:   # a line cut short by a kill: that game is played again
            continue
    return recs


class ConfigMismatch(ValueError):
    pass


@dataclass
class RunInfo:
    total: int
    skipped: int
    played: int
    seconds: float               # wall time, the cluster's start-up included
    workers: int
    play_seconds: float = 0.0    # wall time from the first submitted game to the last result
    records: list = field(default_factory=list)


def _client(workers: int, scheduler: str | None):
    from distributed import Client, LocalCluster

    if scheduler:
        return Client(scheduler, timeout="20s"), None
    import warnings

    with warnings.catch_warnings():
        # no dashboard; the scheduler's small HTTP server binds 127.0.0.1 and, when 8787 is taken
        # (another cluster on the machine), warns before taking a free port: harmless here
        warnings.simplefilter("ignore", UserWarning)
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None, silence_logs=40)
    return Client(cluster), cluster


def run(cfg: Config, out: str | Path, workers: int = 2, scheduler: str | None = None, resume: bool = False,
        progress: bool = True, write_outputs: bool = True) -> RunInfo:
    """Play every game of ``cfg`` not already in ``out/games.jsonl`` on dask, appending records
    as they finish; then write the summary files (``outputs``)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    cfg_path = out / CONFIG
    cfg_json = asdict(cfg)
    cfg_json["maps"] = list(cfg.maps)
    existing = read_records(out)
    if existing or cfg_path.exists():
        if not resume:
            raise ConfigMismatch(f"{out} already holds an experiment: pass --resume to continue it, or choose another --out")
        old = json.loads(cfg_path.read_text()) if cfg_path.exists() else cfg_json
        if old != cfg_json:
            raise ConfigMismatch(f"{out}/{CONFIG} differs from these arguments: {old} vs {cfg_json}")
    cfg_path.write_text(json.dumps(cfg_json, indent=1) + "\n")
    if existing:  # drop a line cut short by a kill, so appended lines start on a fresh line
        tmp = out / (RECORDS + ".tmp")
        tmp.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in existing))
        tmp.replace(out / RECORDS)
    done = {_key(r) for r in existing}
    todo = [j for j in jobs(cfg) if _key(j) not in done]
    t0 = time.perf_counter()
    new = []
    n_workers = workers
    play = 0.0
    if todo:
        from distributed import as_completed

        bar = None
        client, cluster = _client(workers, scheduler)
        try:
            if progress:
                try:
                    from tqdm import tqdm

                    bar = tqdm(total=len(todo) + len(done), initial=len(done), unit="game", dynamic_ncols=True)
                except ImportError:  # tqdm is in the workshop extra: no bar without it
                    bar = None
            n_workers = len(client.scheduler_info().get("workers", {})) or workers
            t_play = time.perf_counter()
            futs = client.map(run_game, todo, pure=False)
            with open(out / RECORDS, "a") as fh:
                for fut in as_completed(futs):
                    rec = fut.result()
                    rec["agents"] = {"p1": cfg.p1, "p2": cfg.p2}
                    fh.write(json.dumps(rec, sort_keys=True) + "\n")
                    fh.flush()
                    new.append(rec)
                    if bar is not None:
                        bar.update(1)
                        bar.set_postfix_str(f"{rec['map']} #{rec['index']}")
            play = time.perf_counter() - t_play
        finally:
            if bar is not None:
                bar.close()
            client.close()
            if cluster is not None:
                cluster.close()
    secs = time.perf_counter() - t0
    records = existing + new
    if write_outputs:
        outputs(cfg, out, records)
    return RunInfo(len(todo) + len(done), len(done), len(new), secs, n_workers, play, records)


def outputs(cfg: Config, out: Path, records: list[dict]) -> dict:
    """summary.json, summary.csv, report.md and the plots (when matplotlib is there)."""
    import csv

    from .stats import CSV_FIELDS, csv_rows, report_markdown, summarize

    order = {map_label(m): i for i, m in enumerate(cfg.maps)}
    records = sorted(records, key=lambda r: (order.get(r["map"], 99), r["index"]))
    summary = summarize(records)
    cfg_json = asdict(cfg)
    cfg_json["maps"] = list(cfg.maps)
    (out / "summary.json").write_text(json.dumps({"config": cfg_json, "maps": summary}, indent=1) + "\n")
    with open(out / "summary.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(CSV_FIELDS)
        w.writerows(csv_rows(summary))
    md = report_markdown(summary, cfg_json)
    try:
        from .plots import plot_summary

        pngs = plot_summary(summary, records, out)
        md += "\n" + "\n".join(f"![{p.stem}]({p.name})" for p in pngs) + "\n"
    except ImportError:  # matplotlib is in the workshop extra
        pass
    (out / "report.md").write_text(md)
    return summary
