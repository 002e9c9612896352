"""``bench/soak.py`` (issue 30): whole games of every ruleset on dask, errors recorded with their
seed and traceback without stopping the soak, sampled saves checked by ``replay --check``, runs
taken up again and played in chunks."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import soak  # noqa: E402

pytest.importorskip("distributed")


def _job(**kw):
    job = {"ruleset": "doubles", "index": 0, "map": "prehistoric", "agents": ["random", "easy"], "seed": 5,
           "max_decisions": soak.MAX_DECISIONS, "keep_save": True}
    return {**job, **kw}


def test_a_game_is_played_and_its_save_replays():
    rec = soak.play_game(_job(), str(ROOT))
    assert rec["error"] is None and rec["decisions"] > 20 and rec["winner"] in (1, 2, None)
    check = soak.check_save(rec["save"], "g.json", str(ROOT))
    assert check["rc"] == 0 and "matches the save" in check["out"], check


def test_a_game_that_raises_is_recorded_with_its_seed_and_traceback():
    rec = soak.play_game(_job(max_decisions=7), str(ROOT))
    assert rec["error"].startswith("RuntimeError: no result after 7 decisions") and rec["seed"] == 5
    assert "Traceback" in rec["traceback"] and "play_game" in rec["traceback"]
    assert soak.check_save(rec["save"], "g.json", str(ROOT))["rc"] == 0     # the save up to the error replays
    rec = soak.play_game(_job(agents=["random", "nope"]), str(ROOT))
    assert "no agent 'nope'" in rec["error"] and rec["save"] is not None


def test_every_accepted_map_meets_every_pairing():
    class A:
        rulesets, start, count, games, seed, sample, max_decisions = ["counterblast"], 0, 32, 32, 1, 0.01, 100
    maps = {"counterblast": soak.accepted_maps("counterblast")}
    assert maps["counterblast"] == ["outpost", "prehistoric", "quarry", "town"]   # the field is 2% covered: refused
    js = soak.jobs(A, maps)
    assert {(j["map"], tuple(j["agents"])) for j in js[:16]} == {(m, p) for m in maps["counterblast"] for p in soak.PAIRS}
    assert len({j["seed"] for j in js}) == 32


def test_a_small_soak_on_dask_records_and_resumes(tmp_path):
    out = tmp_path / "run"
    argv = ["--games", "4", "--rulesets", "doubles", "--sample", "0.5", "--out", str(out), "--workers", "1"]
    assert soak.main(argv + ["--count", "2"]) == 0
    assert soak.main(argv + ["--start", "2"]) == 0                # the rest, as a second chunk
    games = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    checks = [json.loads(x) for x in (out / "checks.jsonl").read_text().splitlines()]
    assert sorted(g["index"] for g in games) == [0, 1, 2, 3] and not any(g["error"] for g in games)
    kept = sorted(p.name for p in (out / "saves").glob("*.json"))
    assert kept and sorted(c["save"] for c in checks) == kept and all(c["rc"] == 0 for c in checks)
    assert kept == sorted(soak._save_name(g) for g in games if soak.sampled(1, "doubles", g["index"], 0.5))
    assert soak.main(argv) == 0                                      # taken up again: nothing left to play
    assert len((out / "games.jsonl").read_text().splitlines()) == 4
    summary = json.loads((out / "summary.json").read_text())
    assert summary["this_run"]["games"] == 0 and summary["whole_run"]["games"] == 4
    assert soak.main(argv[:-4] + ["--sample", "0.2", "--out", str(out)]) == 2   # another run's settings
