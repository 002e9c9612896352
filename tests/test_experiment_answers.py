"""A search agent's experiment replays by its recorded answers (issue 60): a game with an agent that
thinks for a CPU budget keeps its answers in its raw line, and ``skirmish experiment --check``
plays them back and compares the final hash, whatever the agent's clock did. Games recorded
before that keep none: their manifests are historical, and the check says so instead of playing
minutes of search that may differ."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.manifest import (
    Manifest,
    ReplayError,
    answers_in,
    load_manifest,
    recorded_answers,
    replay,
    sample_keys,
    thinks_for_time,
)
from engine.workshop.experiment import Config, jobs, run_game

ROOT = Path(__file__).resolve().parents[1]
HARD = ROOT / "data/experiments/balance/doubles-hard/ash_skulls--bone_hunters/manifest.json.gz"
CONFIG = {"ruleset": "doubles", "maps": ["prehistoric"], "games": 2, "p1": "hard:budget=0.01", "p2": "easy",
          "rosters": ["ash_skulls", "bone_hunters"], "seed": 3, "max_decisions": 50000, "labels": ["prehistoric"],
          "any_map": False, "design": "crossed-v2"}


def _game() -> dict:
    cfg = Config(CONFIG["ruleset"], tuple(CONFIG["maps"]), CONFIG["games"], CONFIG["p1"], CONFIG["p2"],
                 tuple(CONFIG["rosters"]), CONFIG["seed"], labels=tuple(CONFIG["labels"]))
    return run_game(jobs(cfg)[0])


def _manifest(rec: dict) -> Manifest:
    return Manifest.model_validate({
        "manifest": 1, "name": "test", "command": "skirmish experiment ...", "commit": "0" * 40,
        "config": CONFIG, "agents": [CONFIG["p1"], CONFIG["p2"]], "seeds": {"prehistoric": [rec["seed"]]},
        "games": {"prehistoric": 2}, "final_hashes": {"digest": {"prehistoric": "x"},
                                                     "sample": {"prehistoric": {"0": rec["final_hash"]}}},
        "summary": {"prehistoric": {}}})


def test_which_agents_replay_by_their_answers():
    assert thinks_for_time(["hard", "easy"]) and thinks_for_time(["easy", "normal:budget=0.1"])
    assert thinks_for_time(["hard-2026", "hard-2026"])
    assert not thinks_for_time(["easy", "random"]) and not thinks_for_time(["easy:x=1", "easy"])


def test_a_search_agents_game_keeps_its_answers_and_plays_again_by_them():
    rec = _game()
    assert rec["error"] is None and rec["final_hash"]
    assert len(rec["answers"]) == rec["decisions"] > 0
    json.dumps(rec)                                              # a raw line, as the experiment writes it
    key = "prehistoric:0"
    m = _manifest(rec)
    got = replay(m, [key], here=True, timeout=600, answers={key: rec["answers"]})
    assert got == {key: rec["final_hash"]}

    # one answer fewer ends elsewhere (or is refused): the check tells a changed game from the same one
    short = replay(m, [key], here=True, timeout=600, answers={key: rec["answers"][:-1]})
    assert short[key] != rec["final_hash"]


def test_an_easy_game_keeps_no_answers():
    cfg = Config("doubles", ("prehistoric",), 1, "easy", "easy", ("ash_skulls", "bone_hunters"), 3)
    assert "answers" not in run_game(jobs(cfg)[0])


def test_raw_lines_without_answers_are_refused_with_the_reason():
    lines = [json.dumps({"map": "prehistoric", "index": 0, "final_hash": "ab"}), "{cut short"]
    with pytest.raises(ReplayError, match="keep no answers for prehistoric:0"):
        answers_in(lines, ["prehistoric:0"])
    assert answers_in([json.dumps({"map": "m", "index": 1, "answers": [[1, {"type": "x"}]]})], ["m:1"]) == \
        {"m:1": [[1, {"type": "x"}]]}


def test_the_hard_experiments_of_before_are_historical_because_they_keep_no_answers():
    """Their raw lines keep no answers (true: read from the history), so they are marked historical
    with that reason, and the check refuses them instead of playing minutes of search."""
    m = load_manifest(HARD)
    assert m.historical and "answers were not kept" in m.historical
    if shutil.which("git") is None or subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", m.raw.commit],
                                                     capture_output=True).returncode != 0:
        pytest.skip("no git history with the raw lines")
    with pytest.raises(ReplayError, match="keep no answers"):
        recorded_answers(m, sample_keys(m, 1))
    p = subprocess.run([sys.executable, "-m", "game.cli", "experiment", "--check", str(HARD), "--sample", "1"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert "historical, not played again" in p.stderr and "answers were not kept" in p.stderr, p.stdout + p.stderr


def test_raw_lines_that_do_not_unpack_are_refused_with_the_file(monkeypatch):
    import engine.manifest as manifest

    m = load_manifest(HARD)
    packed = m.model_copy(update={"raw": m.raw.model_copy(update={"path": "x/games.jsonl.gz"})})
    monkeypatch.setattr(manifest, "_git", lambda *args: b"\x1f\x8b\x08cut short")
    with pytest.raises(ReplayError, match="x/games.jsonl.gz .* do not unpack"):
        manifest.recorded_answers(packed, ["prehistoric:0"])
