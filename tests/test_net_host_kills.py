"""A real ``skirmish host`` killed (SIGKILL) at random moments (issue 59, ``bench/host_kills.py``):
after each kill its autosave and journal load to a game that holds every decision a seat had
been told of, the decisions of the same agents' local game (so its state hash at that count).
Ten kills in the default run; 200 under ``-m long`` (``python bench/host_kills.py`` runs them
as a bench). Before the journal, 6 of 8 kills lost 1 to 4 decisions."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import host_kills  # noqa: E402


def _check(run: dict, kills: int) -> None:
    s = run["summary"]
    assert s["kills"] == kills
    assert s["decisions_lost"] == 0 and s["diverged"] == 0, [r for r in run["records"] if r["lost"] or not r["same_game"]]
    assert s["answers"] > kills * 10         # the kills landed in games going on, not before them


def test_a_host_killed_ten_times_loses_no_decision_a_seat_was_told(tmp_path):
    _check(host_kills.kill_run(tmp_path, 10, seed=5, max_delay=0.8, timeout=240.0, report=lambda line: None), 10)


@pytest.mark.long
def test_a_host_killed_200_times_loses_no_decision_a_seat_was_told(tmp_path):
    _check(host_kills.kill_run(tmp_path, 200, seed=59, max_delay=1.0, timeout=3600.0, report=lambda line: None), 200)
