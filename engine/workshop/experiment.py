"""Balance experiments: AI-vs-AI games over one or more maps on dask.distributed.

The games follow the simulator's crossed design (``engine.simulate``): game ``i`` of a map is
cell ``i mod K`` of seed block ``i div K``, where a block crosses the two rosters over the two
zones and the two agents over the two seats (``K`` = 4, or fewer when the rosters or the agents
are the same: those swaps would replay a game already in the block). The seed of game ``i``
depends on ``i`` alone, so ``resume`` can extend an experiment to more games. Every game is a
pure function of its job: the records, not the order in which workers finish, are the result.
Records are appended to ``games.jsonl`` as games finish (one JSON object a line, flushed), so an
interrupted run continues with ``resume=True`` and loses no finished game.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

from engine.simulate import cells, plan_game

from .records import CONFIG, RECORDS, read_config, read_records  # noqa: F401 - the folder's names, read here too

DESIGN = "crossed-v2"     # the design the records follow; an older folder cannot be resumed


@dataclass(frozen=True)
class Config:
    ruleset: str
    maps: tuple[str, ...]                 # as given: shipped ids or map files
    games: int                            # games per map (rounded up to whole blocks by ``planned``)
    p1: str
    p2: str
    rosters: tuple = (None, None)         # roster A, roster B (ids); None: the ruleset's defaults
    seed: int = 1
    max_decisions: int = 50_000
    labels: tuple[str, ...] = ()          # one per map; empty: ``map_labels(maps)``
    any_map: bool = False
    design: str = DESIGN
    options: tuple = ()                   # the ruleset's options as sorted (key, value) pairs

    @property
    def per_block(self) -> int:
        return len(cells(self.rosters, (self.p1, self.p2)))

    @property
    def planned(self) -> int:
        """Games per map: ``games`` rounded up to whole blocks, so every block is fully crossed."""
        k = self.per_block
        return -(-self.games // k) * k

    def map_labels(self) -> tuple[str, ...]:
        return tuple(self.labels) if self.labels else map_labels(self.maps)

    def to_json(self) -> dict:
        d = asdict(self)
        d["maps"], d["rosters"], d["labels"] = list(self.maps), list(self.rosters), list(self.map_labels())
        d["options"] = dict(self.options)
        return d


@dataclass(frozen=True)
class Job:
    ruleset: str
    map: str                     # the map's label in records and reports
    index: int
    block: int
    seed: int
    rosters: tuple               # roster in zone 1, zone 2
    agents: tuple[str, str]      # agent in seat 1, seat 2
    max_decisions: int = 50_000
    path: str = ""               # where the workers read the map (absolute for a file), else ``map``
    options: tuple = ()          # the ruleset's options, (key, value) pairs


def is_file_name(name: str) -> bool:
    from engine.paths import MAPS_DIR, resolve_map

    return resolve_map(name).resolve().parent != MAPS_DIR.resolve() or Path(name).suffix != ""


def map_labels(names) -> tuple[str, ...]:
    """A label per map: a shipped map's id, or a file's stem; maps whose stems collide are
    labelled by the name given (their path), so two files called ``town.json`` are two rows."""
    stems = [Path(n).stem for n in names]
    return tuple(n if stems.count(s) > 1 else s for n, s in zip(names, stems))


def map_source(name: str) -> str:
    """What a worker passes to ``resolve_map``: a shipped id, or the file's absolute path."""
    from engine.paths import resolve_map

    return str(resolve_map(name).resolve()) if is_file_name(name) else name


def jobs(cfg: Config) -> list[Job]:
    out = []
    for m, label in zip(cfg.maps, cfg.map_labels()):
        src = map_source(m)
        for i in range(cfg.planned):
            p = plan_game(i, cfg.seed, tuple(cfg.rosters), (cfg.p1, cfg.p2))
            out.append(Job(cfg.ruleset, label, i, p.block, p.seed, p.rosters, p.agents, cfg.max_decisions, src,
                           tuple(cfg.options)))
    return out


@lru_cache(maxsize=16)
def _load(map_name: str):
    from engine.data.maps import load_map
    from engine.paths import resolve_map

    return load_map(resolve_map(map_name))


def run_game(job: Job) -> dict:
    """Play one game; never raises (an error is part of the record)."""
    from engine.manifest import thinks_for_time
    from engine.simulate import GamePlan, game_record, play_planned

    t0, c0 = time.perf_counter(), time.thread_time()
    plan = GamePlan(job.index, job.block, job.seed, tuple(job.rosters), (job.agents[0], job.agents[1]))
    try:
        rec, game = play_planned(job.ruleset, _load(job.path or job.map), plan, dict(job.options),
                                 max_decisions=job.max_decisions)
        if thinks_for_time(job.agents):
            # a search agent's choices depend on its clock (and so on the machine and its load): the
            # seeds alone do not play this game again, its answers do (engine/manifest.py)
            rec["answers"] = [[player, choice.to_json()] for player, choice in game.decisions]
    except Exception as err:  # noqa: BLE001 - a setup refusal on a worker: recorded like any error
        rec = game_record(plan, None, None, None, f"{type(err).__name__}: {err}")
    rec["map"] = job.map
    rec["ruleset"] = job.ruleset
    rec["seconds"] = round(time.perf_counter() - t0, 3)
    rec["cpu_seconds"] = round(time.thread_time() - c0, 3)     # the game's own CPU time on its worker
    return rec


def _key(rec_or_job) -> tuple[str, int]:
    if isinstance(rec_or_job, Job):
        return (rec_or_job.map, rec_or_job.index)
    return (rec_or_job["map"], int(rec_or_job["index"]))


class ConfigMismatch(ValueError):
    pass


class Interrupted(Exception):
    """Ctrl-C during the games: ``saved`` games of ``total`` are in games.jsonl."""

    def __init__(self, saved: int, total: int):
        super().__init__(f"{saved} of {total} games saved")
        self.saved, self.total = saved, total


@dataclass
class RunInfo:
    total: int
    skipped: int
    played: int
    seconds: float               # wall time, the cluster's start-up included
    workers: int                 # worker processes
    play_seconds: float = 0.0    # wall time from the first submitted game to the last result
    records: list = field(default_factory=list)
    threads: int = 0             # worker threads over all workers (games played at once)


def out_problem(out: str | Path) -> str | None:
    """Why the experiment cannot write its folder ``out`` (None: it can): checked before any
    game, with a real file, since permission bits say nothing to root or to a read-only mount."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        return f"cannot write to {out}: it is a file, not a folder"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        return f"cannot make the folder {out}: {err.strerror or err}"
    probe = out / f".write-test-{os.getpid()}"
    try:
        probe.write_text("")
        probe.unlink()
    except OSError as err:
        return f"cannot write in the folder {out}: {err.strerror or err}"
    return None


class SchedulerError(ValueError):
    """The ``--scheduler`` address is not one, or no scheduler answered there in time."""


CONNECT_SECONDS = 10      # how long to wait for a scheduler to answer


def scheduler_problem(address: str) -> str | None:
    """Why ``address`` is not a dask scheduler's address (None: it may be one): PROTOCOL://HOST:PORT
    or HOST:PORT, the port from 1 to 65535. Asked before any work, so a typo is bad usage at once."""
    import re

    m = re.fullmatch(r"(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.\-_]+):(\d{1,5})", address or "")
    if not m:
        return (f"{address[:200]!r} is not a scheduler address: write tcp://HOST:PORT "
                "(e.g. tcp://127.0.0.1:8786)")
    if not 1 <= int(m.group(3)) <= 65535:
        return f"{address[:200]!r}: the port is from 1 to 65535"
    return None


def _client(workers: int, scheduler: str | None):
    from distributed import Client, LocalCluster

    if scheduler:
        why = scheduler_problem(scheduler)
        if why:
            raise SchedulerError(why)
        try:
            return Client(scheduler, timeout=f"{CONNECT_SECONDS}s"), None
        except (OSError, TimeoutError, ValueError) as err:
            raise SchedulerError(f"no dask scheduler answered at {scheduler} within {CONNECT_SECONDS} s "
                                 f"({type(err).__name__}: {str(err)[:200]})") from None
    import signal
    import warnings

    with warnings.catch_warnings():
        # no dashboard; the scheduler's small HTTP server binds 127.0.0.1 and, when 8787 is taken
        # (another cluster on the machine), warns before taking a free port: harmless here
        warnings.simplefilter("ignore", UserWarning)
        # the worker processes ignore Ctrl-C (they inherit this), so only this process hears it
        # and closes them: no traceback from each worker
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                   dashboard_address=None, silence_logs=50)
        finally:
            signal.signal(signal.SIGINT, old)
    return Client(cluster), cluster


def check_config(cfg: Config, out: Path, resume: bool) -> tuple[list[dict], bool]:
    """(the records already in ``out``, whether the last line of games.jsonl was cut short),
    after checking they belong to this experiment. Only ``games`` may change on ``--resume``
    (game i's seed does not depend on the total). Read and checked before anything is written:
    a damaged folder is refused (``DataError``) as it is."""
    cfg_path, rec_path = out / CONFIG, out / RECORDS
    if not resume:
        held = cfg_path.exists() or cfg_path.is_symlink() or (
            rec_path.exists() and (not rec_path.is_file() or rec_path.stat().st_size > 0))
        if held:
            raise ConfigMismatch(f"{out} already holds an experiment: pass --resume to continue it, or choose "
                                 "another --out")
        return [], False
    old = read_config(out)
    existing, cut = read_records(out)
    if not (existing or old is not None):
        return existing, cut
    if old is None:
        raise ConfigMismatch(f"{out}/{CONFIG} is missing: cannot tell which experiment "
                             f"{out}/{RECORDS} belongs to; choose another --out")
    if old.get("design") != cfg.design:
        raise ConfigMismatch(f"{out} holds an experiment of an older design ({old.get('design', 'seats swapped halfway')}) "
                             "that cannot be extended: choose another --out")
    new = cfg.to_json()
    defaults: dict[str, dict] = {"options": {}}       # a folder written before a field existed had its default
    diff = [k for k in new if k not in ("games", "any_map") and old.get(k, defaults.get(k)) != new[k]]
    if diff:
        raise ConfigMismatch(f"{out}/{CONFIG} differs from these arguments in {', '.join(diff)}: "
                             + "; ".join(f"{k}: {old.get(k)} there, {new[k]} here" for k in diff))
    return existing, cut


def run(cfg: Config, out: str | Path, workers: int = 2, scheduler: str | None = None, resume: bool = False,
        progress: bool = True, write_outputs: bool = True) -> RunInfo:
    """Play every game of ``cfg`` not already in ``out/games.jsonl`` on dask, appending records
    as they finish; then write the summary files (``outputs``). Ctrl-C raises ``Interrupted``
    after closing the workers (the finished games stay saved)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    existing, cut = check_config(cfg, out, resume)
    (out / CONFIG).write_text(json.dumps(cfg.to_json(), indent=1) + "\n")
    if cut:  # drop the line a kill cut short, so appended lines start on a fresh line
        tmp = out / (RECORDS + ".tmp")
        tmp.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in existing))
        tmp.replace(out / RECORDS)
    planned = jobs(cfg)
    done = {_key(r) for r in existing}
    todo = [j for j in planned if _key(j) not in done]
    skipped = len(planned) - len(todo)
    t0 = time.perf_counter()
    new: list[dict] = []
    n_workers, n_threads, play = workers, workers, 0.0
    if todo:
        from distributed import as_completed

        bar = None
        client = cluster = None
        stop = _CtrlC()
        try:
            stop.install()
            client, cluster = _client(workers, scheduler)
            stop.install()          # again: starting a cluster may have set a handler of its own
            if progress:
                try:
                    from tqdm import tqdm

                    bar = tqdm(total=len(planned), initial=skipped, unit="game", dynamic_ncols=True)
                except ImportError:  # tqdm is in the workshop extra: no bar without it
                    bar = None
            info = client.scheduler_info().get("workers", {})
            n_workers = len(info) or workers
            n_threads = sum(int(w.get("nthreads", 1)) for w in info.values()) or n_workers
            t_play = time.perf_counter()
            futs = client.map(run_game, todo, pure=False)
            ready = as_completed(futs)
            with open(out / RECORDS, "a") as fh:
                while not ready.is_empty():
                    stop.check()
                    if not ready.has_ready():
                        time.sleep(0.05)
                        continue
                    for fut in ready.next_batch(block=False):
                        rec = fut.result()
                        fh.write(json.dumps(rec, sort_keys=True) + "\n")
                        fh.flush()
                        new.append(rec)
                        if bar is not None:
                            bar.update(1)
                            bar.set_postfix_str(f"{rec['map']} #{rec['index']}")
            play = time.perf_counter() - t_play
        except KeyboardInterrupt:
            raise Interrupted(skipped + len(new), len(planned)) from None
        finally:
            stop.restore()
            if bar is not None:
                bar.close()
            _close(client, cluster)
    secs = time.perf_counter() - t0
    keys = {_key(j) for j in planned}
    records = [r for r in existing + new if _key(r) in keys]
    if write_outputs:
        outputs(cfg, out, records)
    return RunInfo(len(planned), skipped, len(new), secs, n_workers, play, records, n_threads)


class _CtrlC:
    """Ctrl-C while games are played: our own SIGINT handler sets a flag that the results loop
    checks, so an interrupt is never lost. (Seen on the CI machine: a SIGINT sent to the process
    group just after the cluster started raised nothing in the main thread, which then waited
    for the killed worker's games for ever.) Only in the main thread, where handlers can be set."""

    def __init__(self):
        self.hit = False
        self._old = None
        self._mine = False

    def _handler(self, signum, frame) -> None:
        self.hit = True

    def install(self) -> None:
        import signal
        import threading

        if threading.current_thread() is not threading.main_thread():
            return
        old = signal.signal(signal.SIGINT, self._handler)
        if not self._mine:
            self._old, self._mine = old, True

    def check(self) -> None:
        if self.hit:
            raise KeyboardInterrupt

    def restore(self) -> None:
        import signal

        if self._mine:
            signal.signal(signal.SIGINT, self._old)
            self._mine = False


def _close(client, cluster) -> None:
    """Close the client and the local cluster, quietly even after Ctrl-C."""
    import logging

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    # bounded: after a Ctrl-C in a terminal the workers got the SIGINT too, and an unbounded close
    # can wait on them for a long time (seen once on the CI machine: the command did not exit in 60 s)
    for thing, limit in ((client, 5), (cluster, 10)):
        if thing is None:
            continue
        try:
            thing.close(timeout=limit)
        except (Exception, KeyboardInterrupt):  # noqa: BLE001 - closing after Ctrl-C: nothing left to save
            pass


# a table this close to its symmetry (share of covered area unmatched, %) counts as symmetric: the
# raster leaves a cell or two along an edge of a piece that is symmetric to the map's precision
SYMMETRIC_PCT = 0.5


def symmetric_table_notes(cfg: Config, summary: dict) -> None:
    """For each map that is symmetric under a transform that swaps the zones (``symmetry.py``),
    ``symmetric`` names the transform, and a zone verdict gets a warning: such a table cannot
    favour a zone, so an interval that excludes 50% points at the deployment or the agents."""
    from engine.core.tables import table_for

    from .symmetry import symmetry_report

    for m, label in zip(cfg.maps, cfg.map_labels()):
        s = summary.get(label)
        if s is None:
            continue
        try:
            rep = symmetry_report(table_for(_load(map_source(m))))
        except Exception:  # noqa: BLE001 - a map the workers could read; no note rather than no report
            continue
        name = rep["fair_symmetry"]
        sym = name if name is not None and rep["unmatched_pct"] <= SYMMETRIC_PCT else None
        s["symmetric"] = sym
        if sym and s["verdict"].startswith("zone"):
            s["notes"] = list(s["notes"]) + [
                f"the table is symmetric ({sym.replace('_', ' ')}), yet its interval excludes 50%: look for a bias "
                "in the deployment or the agents, not in the table"]


def outputs(cfg: Config, out: Path, records: list[dict]) -> dict:
    """summary.json, summary.csv, report.md and the plots (when matplotlib is there)."""
    import csv

    from .stats import CSV_FIELDS, csv_rows, report_markdown, summarize

    order = {m: i for i, m in enumerate(cfg.map_labels())}
    records = sorted(records, key=lambda r: (order.get(r["map"], 99), r["index"]))
    summary = summarize(records, cfg)
    symmetric_table_notes(cfg, summary)
    cfg_json = cfg.to_json()
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
