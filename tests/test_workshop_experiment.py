"""Balance experiments: the crossed design (no game played twice, each roster from each zone),
the command's refusals and Ctrl-C, a real run on a mirrored table, and a real dask scheduler with
two workers (resume, extension, two maps of the same file name). The statistics against
hand-worked numbers are in test_workshop_stats.py."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from file_fuzz import run_command

from engine.simulate import agent_seed, cells, game_seed, plan_game, simulate
from engine.workshop.experiment import Config, jobs, map_labels, run_game
from engine.workshop.stats import summarize

ROOT = Path(__file__).resolve().parents[1]


# --- the design ------------------------------------------------------------------------------
def test_identical_agents_never_play_a_game_twice():
    """easy v easy: the agents are not swapped (that game is the one already played); the rosters
    are. Every row is a different game: different final hash, different decisions."""
    for rosters, per_block in ((("ash_skulls", "bone_hunters"), 2), (("ash_skulls", "ash_skulls"), 1)):
        cfg = Config("doubles", ("prehistoric",), 6, "easy", "easy", rosters, seed=4)
        js = jobs(cfg)
        recs = [run_game(j) for j in js]
        assert all(r["error"] is None for r in recs)
        assert len({r["final_hash"] for r in recs}) == len(recs), "a game was played twice"
        assert len(recs) == 6
        assert len({(j.seed, j.rosters, j.agents) for j in js}) == 6
        assert cfg.per_block == per_block


def test_agents_are_seeded_from_the_game_and_the_agent():
    s = game_seed(1, 0)
    assert agent_seed(s, "easy", 1) != agent_seed(s, "random", 1)      # the agent, not the seat alone
    assert agent_seed(s, "easy", 1) != agent_seed(game_seed(1, 1), "easy", 1)
    assert agent_seed(s, "hard:budget=2.0", 1) != agent_seed(s, "hard", 1)
    assert agent_seed(s, "easy", 1) == agent_seed(s, "easy", 1)        # stable: a blake2b hash, not hash()


def test_the_crossed_design_gives_each_roster_each_zone_and_each_agent_each_seat_equally():
    n = 4 * 25
    plans = [plan_game(i, 7, ("A", "B"), ("X", "Y")) for i in range(n)]
    assert Counter(p.rosters[0] for p in plans) == {"A": 50, "B": 50}
    assert Counter(p.agents[0] for p in plans) == {"X": 50, "Y": 50}
    assert Counter((p.rosters[0], p.agents[0]) for p in plans) == {(r, a): 25 for r in "AB" for a in "XY"}
    for b in range(25):   # a block: one seed, the four crossings
        block = plans[4 * b: 4 * b + 4]
        assert {p.seed for p in block} == {game_seed(7, b)} and {p.block for p in block} == {b}
        assert len({(p.rosters, p.agents) for p in block}) == 4
    # game i's plan does not depend on how many games are played (so --resume can extend)
    assert plans[:8] == [plan_game(i, 7, ("A", "B"), ("X", "Y")) for i in range(8)]
    assert len(cells(("A", "A"), ("X", "Y"))) == 2 and len(cells(("A", "B"), ("X", "X"))) == 2
    # an experiment rounds the games up to whole blocks: the crossing is never cut short
    cfg = Config("doubles", ("prehistoric", "town"), 9, "easy", "random", ("ash_skulls", "bone_hunters"))
    js = jobs(cfg)
    assert cfg.planned == 12 and len(js) == 24
    for m in ("prehistoric", "town"):
        mine = [j for j in js if j.map == m]
        assert Counter((j.rosters[0], j.agents[0]) for j in mine) == {
            (r, a): 3 for r in ("ash_skulls", "bone_hunters") for a in ("easy", "random")}


def _mirror_map():
    from engine.data.maps import MapFile

    d = json.loads((ROOT / "maps" / "field.json").read_text())
    d.update(id="mirror", pieces=[], objectives=[{"id": "c", "name": "Centre", "at": [24, 18]}])
    return MapFile.model_validate(d)   # empty, zones along the long edges: the same seen from either side


def _strong_and_weak():
    strong = json.loads((ROOT / "engine/rulesets/doubles/data/warbands/ash_skulls.json").read_text())
    weak = dict(strong, id="weak", name="Weak", fighters=strong["fighters"][:2])   # 2 fighters against 4
    return strong, weak


def _mirror_run(games):
    strong, weak = _strong_and_weak()
    out = simulate("doubles", _mirror_map(), games, 1, ("easy", "easy"), rosters=(strong, weak))
    recs = out["records"]   # summarize reads simulate's records as they are (the design from game 0)
    return out, recs, summarize(recs)["mirror"]


def test_a_real_run_on_a_mirrored_table_crosses_the_rosters_and_finds_the_strong_one():
    out, recs, s = _mirror_run(40)
    strong, weak = _strong_and_weak()
    assert out["errors"] == 0 and len({r["final_hash"] for r in recs}) == 40
    assert sum(1 for r in recs if r["rosters"]["1"] == strong) == 20       # each roster from each zone, equally
    assert {r["block"] for r in recs} == set(range(20)) and all(r["ending"] in ("turn_limit", "wiped_out") for r in recs)
    assert s["roster"]["low"] > 0.5                                     # the strong roster is told from luck
    assert s["table"]["low"] < 0.5 < s["table"]["high"]                 # the mirrored table is not


@pytest.mark.long
def test_a_mirrored_table_with_a_strong_roster_is_balanced_long():
    # 600 games: the strong roster wins most of them, so few games say anything of the table;
    # with the deployment phase (issue 45) 400 gave 46% [40-53], a hair wider than 40-60%
    out, recs, s = _mirror_run(600)
    assert s["verdict"] == "balanced", s["verdict_words"]
    assert s["roster"]["low"] > 0.6


# --- the commands ----------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["simulate", "experiment"])
def test_unknown_rosters_are_refused_with_the_known_ones(command):
    where = ["--map", "prehistoric"] if command == "simulate" else ["--maps", "prehistoric", "--out", "/nonexistent/x"]
    rc, err, exc = run_command([command, "--ruleset", "doubles", *where, "--games", "1", "--rosters", "ash_skulls,orcs"])
    assert rc == 2 and exc is None
    assert "no roster 'orcs'" in err and "bone_hunters (The Bone Hunters)" in err
    rc, err, exc = run_command([command, "--ruleset", "doubles", *where, "--games", "1", "--rosters", "ash_skulls"])
    assert rc == 2 and "two rosters" in err


def test_simulate_json_records_who_sat_where(capsys):
    from game.cli import main

    rc = main(["simulate", "--ruleset", "doubles", "--map", "prehistoric", "--games", "4", "--p1", "easy",
               "--p2", "random", "--rosters", "obsidian_clan,bone_hunters", "--json", "--records"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["games_per_block"] == 4
    recs = out["records"]
    assert [(r["rosters"]["1"], r["agents"]["1"]) for r in recs] == [
        ("obsidian_clan", "easy"), ("obsidian_clan", "random"), ("bone_hunters", "easy"), ("bone_hunters", "random")]
    assert len({r["seed"] for r in recs}) == 1 and len({r["final_hash"] for r in recs}) == 4
    for r in recs:
        w = r["winner"]
        if w is not None:
            assert r["winner_roster"] == r["rosters"][str(w)] and r["winner_agent"] == r["agents"][str(w)]
    assert sum(out["wins_by_roster"].values()) == 4


def test_experiment_refuses_a_map_made_for_another_ruleset_unless_any_map(tmp_path):
    rc, err, exc = run_command(["experiment", "--ruleset", "doubles", "--maps", "outpost", "--games", "1",
                                "--out", str(tmp_path / "x")])
    assert rc == 2 and "is made for" in err and "--any-map" in err and not (tmp_path / "x").exists()


def test_an_unwritable_out_or_save_dir_is_refused_before_any_game(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    rc, err, exc = run_command(["experiment", "--ruleset", "doubles", "--maps", "prehistoric", "--games", "1",
                                "--out", str(blocker / "exp")])
    assert rc == 1 and exc is None and "--out" in err and "cannot make the folder" in err   # docs/commands.md: 1, unwritable
    rc, err, exc = run_command(["experiment", "--ruleset", "doubles", "--maps", "prehistoric", "--games", "1",
                                "--out", str(blocker)])
    assert rc == 1 and "it is a file" in err

    import engine.simulate

    def no_games(*a, **k):
        raise AssertionError("a game was played before the folder was checked")

    monkeypatch.setattr(engine.simulate, "simulate", no_games)
    rc, err, exc = run_command(["simulate", "--ruleset", "doubles", "--map", "prehistoric", "--games", "1",
                                "--save-dir", str(blocker / "saves")])
    assert rc == 1 and exc is None and "--save-dir" in err and "cannot make the folder" in err


def test_maps_with_the_same_file_name_are_two_rows(tmp_path):
    src = (ROOT / "maps" / "prehistoric.json").read_text()
    a, b = tmp_path / "a" / "pre.json", tmp_path / "b" / "pre.json"
    for p in (a, b):
        p.parent.mkdir()
        p.write_text(src)
    assert map_labels([str(a), str(b), "town"]) == (str(a), str(b), "town")
    assert map_labels(["x/pre.json", "town"]) == ("pre", "town")
    rc, err, exc = run_command(["experiment", "--ruleset", "doubles", "--maps", str(a), str(a), "--games", "1",
                                "--out", str(tmp_path / "o")])
    assert rc == 2 and "same map file" in err
    rc, err, exc = run_command(["experiment", "--ruleset", "doubles", "--maps", str(a), str(b), "--label", "one",
                                "--games", "1", "--out", str(tmp_path / "o")])
    assert rc == 2 and "one per map" in err


def test_ctrl_c_saves_the_games_and_says_how_to_resume(tmp_path):
    """Ctrl-C as a terminal sends it: to the whole process group. No traceback, the saved games
    counted, and the resume command printed."""
    import signal

    pytest.importorskip("distributed")
    out = tmp_path / "exp"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "game.cli", "experiment", "--ruleset", "doubles", "--maps",
                          "prehistoric", "--games", "400", "--p1", "easy", "--p2", "easy", "--out", str(out),
                          "--workers", "1", "--no-progress"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            f = out / "games.jsonl"
            if f.exists() and len(f.read_text().splitlines()) >= 2:
                break
            if p.poll() is not None:
                break
            time.sleep(0.3)
        waited = 120 - (deadline - time.monotonic())
        f = out / "games.jsonl"
        games_then = len(f.read_text().splitlines()) if f.exists() else 0
        os.killpg(p.pid, signal.SIGINT)
        try:
            so, se = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.kill(p.pid, signal.SIGABRT)            # faulthandler: every thread's stack to stderr
            try:
                so, se = p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                so, se = p.communicate()
            pytest.fail(f"the interrupted experiment did not exit within 60 s (interrupted after {waited:.0f} s "
                        f"with {games_then} games written); its output: {so[-1500:]!r} {se[-6000:]!r}")
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, (so, se)
    assert "Traceback" not in se and "KeyboardInterrupt" not in se, se
    saved = len([x for x in (out / "games.jsonl").read_text().splitlines() if x.endswith("}")])
    assert f"{saved} of 400 games are saved" in se
    assert "--resume" in se and "skirmish experiment --ruleset doubles --maps prehistoric --games 400" in se


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
        src = (ROOT / "maps" / "prehistoric.json").read_text()
        maps = []
        for d in ("a", "b"):   # two maps with one file name: two rows, labelled by their paths
            (tmp_path / d).mkdir()
            (tmp_path / d / "pre.json").write_text(src)
            maps.append(f"{d}/pre.json")
        args = ["experiment", "--ruleset", "doubles", "--maps", *maps, "--games", "4", "--p1", "random",
                "--p2", "random", "--seed", "2", "--out", str(out), "--scheduler", addr, "--no-progress"]
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            assert main(args) == 0
            lines = (out / "games.jsonl").read_text().splitlines()
            assert len(lines) == 8
            key = lambda r: (r["map"], r["index"])  # noqa: E731
            full = sorted((json.loads(x) for x in lines), key=key)
            for f in ("summary.csv", "summary.json", "report.md", "balance.png", "length.png"):
                assert (out / f).exists()
            summary = json.loads((out / "summary.json").read_text())["maps"]
            assert sorted(summary) == maps and all(summary[m]["games"] == 4 for m in maps)
            # an interrupted run: two games lost, one line cut short; --resume plays only those
            (out / "games.jsonl").write_text("\n".join(lines[:5]) + "\n" + lines[5][:20])
            assert main(args) == 2                      # refuses to overwrite without --resume
            assert main(args + ["--resume"]) == 0
            again = sorted((json.loads(x) for x in (out / "games.jsonl").read_text().splitlines() if x.endswith("}")),
                           key=key)
            strip = lambda r: {k: v for k, v in r.items() if k not in ("seconds", "cpu_seconds")}  # noqa: E731
            assert [strip(r) for r in again] == [strip(r) for r in full]
            # --resume extends the experiment: game i's seed does not depend on the total
            longer = [a if a != "4" else "8" for a in args]
            assert main(longer + ["--resume"]) == 0
            more = sorted((json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()), key=key)
            assert len(more) == 16
            assert [strip(r) for r in more if r["index"] < 4] == [strip(r) for r in full]
            assert json.loads((out / "config.json").read_text())["games"] == 8
            # anything else changed is refused
            assert main([a if a != "2" else "3" for a in longer] + ["--resume"]) == 2
        finally:
            os.chdir(cwd)
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


@pytest.mark.parametrize("ruleset, mp", [("doubles", "prehistoric"), ("frontier", "town"), ("counterblast", "outpost")])
def test_every_ruleset_says_how_its_games_end(ruleset, mp):
    from engine.core.protocol import ENDINGS
    from engine.data.maps import load_named_map

    out = simulate(ruleset, load_named_map(mp), 2, 3, ("easy", "easy"))
    assert out["errors"] == 0
    for r in out["records"]:
        assert r["ending"] in ENDINGS, r
        words = r["reason"].lower()
        if ruleset == "doubles":   # "turn limit 6: ..." or "side k has no fighter left"
            assert (r["ending"] == "turn_limit") == words.startswith("turn limit")
        if ruleset == "frontier":  # "player k's posse is routed" / "... wiped out" / "turn 8 is over; ..."
            assert (r["ending"] == "rout") == ("routed" in words)
            assert (r["ending"] == "wiped_out") == ("wiped out" in words or "out of action" in words)
