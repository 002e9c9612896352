"""Balance experiments: statistics, the game plan, and a real dask scheduler with two workers."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.workshop.experiment import Config, jobs, run_game
from engine.workshop.stats import summarize, wilson

ROOT = Path(__file__).resolve().parents[1]


def test_wilson_interval():
    p, lo, hi = wilson(5, 10)
    assert p == 0.5 and lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    p, lo, hi = wilson(0, 20)
    assert p == 0 and lo == 0 and hi == pytest.approx(0.1611, abs=1e-4)
    assert wilson(0, 0) == (None, None, None)


def test_plan_swaps_sides_halfway_on_the_same_seeds():
    js = jobs(Config("doubles", ("prehistoric", "town"), 6, "easy", "random", seed=3))
    assert len(js) == 12
    pre = [j for j in js if j.map == "prehistoric"]
    assert [j.swapped for j in pre] == [False] * 3 + [True] * 3
    assert [j.seed for j in pre[:3]] == [j.seed for j in pre[3:]]
    assert pre[0].seats == ("easy", "random") and pre[3].seats == ("random", "easy")


def test_a_game_is_a_pure_function_of_its_job():
    j = jobs(Config("doubles", ("prehistoric",), 2, "random", "random", seed=5))[1]
    a, b = run_game(j), run_game(j)
    for r in (a, b):
        r.pop("seconds"), r.pop("cpu_seconds")
    assert a == b and a["error"] is None and a["turns"] >= 1


def test_summary_counts_sides_and_first_player():
    recs = [dict(map="m", index=i, winner=w, winner_agent=wa, first_player=fp, turns=5, decisions=10, error=None)
            for i, (w, wa, fp) in enumerate([(1, "p1", 1), (1, "p2", 2), (2, "p2", 2), (None, None, 1)])]
    s = summarize(recs)["m"]
    assert s["draw"]["k"] == 1 and s["draw"]["n"] == 4
    assert s["side1_win_of_decisive"]["k"] == 2 and s["side1_win_of_decisive"]["n"] == 3
    assert s["first_player_win_of_decisive"]["k"] == 2
    assert s["p1_agent_win"]["k"] == 1 and s["p2_agent_win"]["k"] == 2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _dask_cli() -> str | None:
    cand = Path(sys.executable).parent / "dask"
    return str(cand) if cand.exists() else shutil.which("dask")


def test_experiment_on_a_real_scheduler_with_two_workers_and_resume(tmp_path):
    pytest.importorskip("distributed")
    pytest.importorskip("tqdm")
    dask = _dask_cli()
    if dask is None:
        pytest.skip("no dask command")
    port = _free_port()
    addr = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    logs = [open(tmp_path / f"{k}.log", "w") for k in ("sched", "w1", "w2")]
    procs = []
    try:
        procs.append(subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                       "--no-dashboard", "--idle-timeout", "120s"],
                                      env=env, stdout=logs[0], stderr=subprocess.STDOUT, cwd=tmp_path))
        for k in (1, 2):
            procs.append(subprocess.Popen([dask, "worker", addr, "--host", "127.0.0.1", "--nthreads", "1",
                                           "--nworkers", "1", "--no-dashboard", "--death-timeout", "60s",
                                           "--name", f"w{k}"],
                                          env=env, stdout=logs[k], stderr=subprocess.STDOUT, cwd=tmp_path))
        from distributed import Client

        deadline = time.monotonic() + 60
        while True:  # wait for both workers
            try:
                with Client(addr, timeout="5s") as c:
                    if len(c.scheduler_info()["workers"]) >= 2:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("the scheduler and two workers did not come up in 60 s: "
                            + (tmp_path / "sched.log").read_text()[-2000:])
            time.sleep(0.5)
        from game.cli import main

        out = tmp_path / "exp"
        args = ["experiment", "--ruleset", "doubles", "--maps", "prehistoric", "--games", "4", "--p1", "random",
                "--p2", "random", "--seed", "2", "--out", str(out), "--scheduler", addr, "--no-progress"]
        assert main(args) == 0
        lines = (out / "games.jsonl").read_text().splitlines()
        assert len(lines) == 4
        full = sorted((json.loads(x) for x in lines), key=lambda r: r["index"])
        for f in ("summary.csv", "summary.json", "report.md"):
            assert (out / f).exists()
        summary = json.loads((out / "summary.json").read_text())["maps"]["prehistoric"]
        assert summary["games"] == 4
        # an interrupted run: two games lost, one line cut short; --resume plays only those
        (out / "games.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:20])
        assert main(args) == 2                      # refuses to overwrite without --resume
        assert main(args + ["--resume"]) == 0
        again = sorted((json.loads(x) for x in (out / "games.jsonl").read_text().splitlines() if x.endswith("}")),
                       key=lambda r: r["index"])
        strip = lambda r: {k: v for k, v in r.items() if k not in ("seconds", "cpu_seconds")}  # noqa: E731
        assert [strip(r) for r in again] == [strip(r) for r in full]
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=5)
        for f in logs:
            f.close()
