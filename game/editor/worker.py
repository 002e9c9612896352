"""Work the editor hands off so its window never waits: the live sight analysis in a worker
process, and a balance experiment in a child process.

The analysis runs in one spawned process (not a thread: the analysis holds the interpreter for
most of its half second, and the editor's frames would wait for it). Requests coalesce: while
one runs, only the newest waiting request is kept, so a drag that asks every few frames never
builds a queue. ``inline=True`` runs it in the caller instead (tests, benches).

Test balance runs ``skirmish experiment`` as a child process (the same path as the command
line: dask, the crossed design, the report), writing into the user's ``balance`` folder; its
progress is the number of games in ``games.jsonl``, its answer the table effect in
``summary.json``. Generate runs ``skirmish generate`` the same way (``GenerateRun``): its progress
is the last "round N" line the command printed, its answer the files it wrote.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.workshop.live import LiveResult, analyse_map

if TYPE_CHECKING:    # started on the first request (the pool's imports wait until then)
    from concurrent.futures import Future, ProcessPoolExecutor

FULL_PROCESSES = min(2, os.cpu_count() or 1)


class AnalysisRunner:
    def __init__(self, inline: bool = False):
        self.inline = inline
        self._pool: ProcessPoolExecutor | None = None      # started on the first request
        self._future: Future | None = None
        self._pending: tuple | None = None
        self._ready: LiveResult | None = None
        self.requests = 0

    def request(self, mapfile, version: int, coarse: bool) -> None:
        """Analyse ``mapfile`` (the editor's map at ``version``); the answer comes from ``poll``."""
        self.requests += 1
        data = mapfile.model_dump(mode="json")
        if self.inline:
            self._ready = analyse_map(data, version, coarse)
            return
        self._pending = (data, version, coarse)
        self._pump()

    def _pump(self) -> None:
        if self._future is not None or self._pending is None:
            return
        if self._pool is None:
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn"))
        data, version, coarse = self._pending
        self._pending = None
        # the full grid after a drop on every core (the window idles then); the coarse one while
        # dragging in one process, so the frames keep a core
        self._future = self._pool.submit(analyse_map, data, version, coarse, FULL_PROCESSES)

    @property
    def busy(self) -> bool:
        return self._future is not None or self._pending is not None

    def poll(self) -> LiveResult | None:
        """A finished analysis (the newest), or None."""
        if self._ready is not None:
            r, self._ready = self._ready, None
            return r
        if self._future is None or not self._future.done():
            return None
        fut, self._future = self._future, None
        try:
            r = fut.result()
        except Exception as err:  # noqa: BLE001 - a dead worker: say so, start a new one next time
            import numpy as np

            self._pool = None
            r = LiveResult(-1, False, {}, np.zeros((1, 1)), {}, 0.0, 0.0, 0.0, f"the analysis failed: {err!r}")
        self._pump()
        return r

    def wait(self, timeout: float = 30.0) -> LiveResult | None:
        """Block until the newest request is answered (tests and benches)."""
        t0 = time.monotonic()
        last = None
        while time.monotonic() - t0 < timeout:
            r = self.poll()
            if r is not None:
                last = r
                if not self.busy:
                    return last
            elif not self.busy:
                return last
            time.sleep(0.01)
        return last

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._future = None


@dataclass
class BalanceOutcome:
    ok: bool
    lines: list[str]
    share: float | None = None        # zone 1's share of decisive games, other things even
    low: float | None = None
    high: float | None = None
    verdict: str = ""


class BalanceRun:
    """``skirmish experiment`` on one map file, in the background."""

    def __init__(self, map_path: Path, out: Path, ruleset: str, games: int, agent: str = "easy",
                 seed: int = 1, python: str | None = None):
        self.map_path, self.out = Path(map_path), Path(out)
        self.ruleset, self.games, self.agent = ruleset, games, agent
        self.out.mkdir(parents=True, exist_ok=True)
        cmd = [python or sys.executable, "-m", "game.cli", "experiment", "--ruleset", ruleset,
               "--maps", str(self.map_path), "--games", str(games), "--p1", agent, "--p2", agent,
               "--seed", str(seed), "--out", str(self.out), "--workers", "1", "--any-map"]
        self.log = open(self.out / "experiment.log", "w")
        self.proc = spawn(cmd, self.log)
        self.started = time.monotonic()
        self.outcome: BalanceOutcome | None = None

    def planned(self) -> int:
        try:
            cfg = json.loads((self.out / "config.json").read_text())
            per = 4 if cfg.get("p1") != cfg.get("p2") else 2
            return max(self.games, -(-self.games // per) * per)
        except (OSError, ValueError):
            return self.games

    def progress(self) -> float:
        try:
            done = sum(1 for line in (self.out / "games.jsonl").read_text().splitlines() if line.strip())
        except OSError:
            done = 0
        return min(1.0, done / max(1, self.planned()))

    @property
    def running(self) -> bool:
        return self.proc.poll() is None

    def poll(self) -> BalanceOutcome | None:
        """The outcome once the experiment has ended (once), else None."""
        if self.outcome is not None or self.running:
            return None
        self.log.close()
        rc = self.proc.returncode
        self.outcome = read_outcome(self.out, rc)
        return self.outcome

    def cancel(self) -> None:
        stop(self.proc)
        self.outcome = BalanceOutcome(False, ["balance test cancelled"])
        try:
            self.log.close()
        except OSError:
            pass


def spawn(cmd: list[str], log) -> subprocess.Popen:
    """``cmd`` (a ``python -m game.cli ...``) from the project's root, output to ``log``."""
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    # its own process group: Cancel ends it and the workers it starts, and nothing else
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=str(root),
                            env=env, start_new_session=True)


def stop(proc: subprocess.Popen) -> None:
    """End ``proc``'s process group: politely, then for good after 5 s."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait(timeout=5)


def read_outcome(out: Path, returncode: int = 0) -> BalanceOutcome:
    """The table effect of the experiment in ``out`` (its ``summary.json``)."""
    try:
        data = json.loads((Path(out) / "summary.json").read_text())
        s = next(iter(data["maps"].values()))
    except (OSError, ValueError, StopIteration, KeyError):
        tail = ""
        try:
            tail = (Path(out) / "experiment.log").read_text().strip().splitlines()[-1]
        except (OSError, IndexError):
            pass
        return BalanceOutcome(False, [f"the balance test failed (exit {returncode})" + (f": {tail}" if tail else "")])
    t = s.get("table") or {}
    share, low, high = t.get("share"), t.get("low"), t.get("high")
    lines = [f"{s.get('games', 0)} games ({s.get('decisive', 0)} decisive), {s.get('agents', ['?'])[0]} v "
             f"{s.get('agents', ['?', '?'])[-1]}"]
    if share is not None:
        lines.append(f"zone 1 wins {share:.0%} [{low:.0%}-{high:.0%}] of decisive games")
    lines.append(s.get("verdict_words", ""))
    return BalanceOutcome(True, [ln for ln in lines if ln], share, low, high, s.get("verdict", ""))


class GenerateRun:
    """``skirmish generate`` in the background (``args`` its arguments; its output in
    ``out/generate.log``). Progress is the last "round N:" line it printed out of ``rounds``."""

    READ_EVERY_S = 0.25           # the log is read at most this often (progress is asked every frame)

    def __init__(self, args: list[str], out: Path, rounds: int, python: str | None = None):
        self.out, self.rounds = Path(out), max(1, rounds)
        self.out.mkdir(parents=True, exist_ok=True)
        self.log_path = self.out / "generate.log"
        self.log = open(self.log_path, "w")
        self.proc = spawn([python or sys.executable, "-m", "game.cli", "generate", *args], self.log)
        self.started = time.monotonic()
        self.ended: int | None = None          # the exit code, once seen
        self.cancelled = False
        self._done, self._read_at = 0, -1.0

    def rounds_done(self) -> int:
        now = time.monotonic()
        # once the command has ended the log is final: read it whatever the last read's age
        if now - self._read_at >= self.READ_EVERY_S or not self.running:
            self._read_at = now
            try:
                text = self.log_path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            found = [int(n) for n in re.findall(r"^\s*round (\d+):", text, re.M)]
            if found:
                self._done = max(found)
        return self._done

    def progress(self) -> float:
        return min(1.0, self.rounds_done() / self.rounds)

    @property
    def running(self) -> bool:
        return self.proc.poll() is None

    def poll(self) -> int | None:
        """The exit code once the command has ended (once), else None."""
        if self.ended is not None or self.cancelled or self.running:
            return None
        self.log.close()
        self.ended = self.proc.returncode
        return self.ended

    def cancel(self) -> None:
        stop(self.proc)
        self.cancelled = True
        try:
            self.log.close()
        except OSError:
            pass
