"""bench/ai_versus_old.py: today's easy against easy at an older commit (issue 61, item 2: "keep a
change only if the new easy is not weaker"). The old commit's ``engine/ai`` is imported as a
package of its own and registered as ``easy-old``, with its own ruleset policies (never today's
``Rules.easy_policy``); the report counts wins per agent wherever it sat."""
import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from script_modules import ROOT, load_script

import engine.ai.base as base
from engine.data.maps import load_named_map
from engine.simulate import plan_game, play_planned


def _bench():
    return load_script("ai_versus_old", "bench/ai_versus_old.py")


def test_the_old_easy_is_its_own_package_and_plays_a_game(tmp_path, monkeypatch):
    if subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", "b736436"], capture_output=True).returncode:
        pytest.skip("the checkout has no b736436 (a shallow copy)")
    monkeypatch.setattr(base, "_AGENTS", dict(base._AGENTS))      # the registration is this test's only
    monkeypatch.setattr(sys, "path", list(sys.path))                # and so is the old package's folder
    monkeypatch.delenv("OLD_EASY_DIR", raising=False)
    monkeypatch.delenv("OLD_EASY_REF", raising=False)
    bench = _bench()
    pkg = bench.load_old("b736436", tmp_path)
    try:
        old = importlib.import_module(f"{pkg}.easy_counterblast")
        assert Path(old.__file__).parent == tmp_path / pkg
        assert not hasattr(old.CounterblastPolicy, "group_pick")       # the old policy, not today's
        rec, g = play_planned("counterblast", load_named_map("outpost"),
                              plan_game(0, 5, ("dustjaw-raiders", "reach-rangers"), ("easy", "easy-old")))
        assert rec["error"] is None and g.result() is not None
        assert rec["agents"] == {"1": "easy", "2": "easy-old"}
    finally:
        for name in [m for m in sys.modules if m == pkg or m.startswith(pkg + ".")]:
            del sys.modules[name]


def test_the_report_counts_each_agents_wins_wherever_it_sat():
    bench = _bench()
    recs = [{"error": None, "block": 0, "winner": 1, "winner_agent": "easy", "agents": {"1": "easy", "2": "easy-old"},
             "rosters": {"1": "a", "2": "b"}, "cpu": 1.0},
            {"error": None, "block": 0, "winner": 1, "winner_agent": "easy-old", "agents": {"1": "easy-old", "2": "easy"},
             "rosters": {"1": "a", "2": "b"}, "cpu": 1.0},
            {"error": None, "block": 1, "winner": 2, "winner_agent": "easy", "agents": {"1": "easy-old", "2": "easy"},
             "rosters": {"1": "b", "2": "a"}, "cpu": 1.0},
            {"error": None, "block": 1, "winner": None, "winner_agent": None, "agents": {"1": "easy", "2": "easy-old"},
             "rosters": {"1": "b", "2": "a"}, "cpu": 1.0},
            {"error": "Boom", "block": 2, "winner": None, "winner_agent": None, "agents": {"1": "easy", "2": "easy-old"},
             "rosters": {"1": "a", "2": "b"}, "cpu": 0.5}]
    r = bench.report(recs)
    assert (r["new_wins"], r["old_wins"], r["draws"], r["errors"]) == (2, 1, 1, ["Boom"])
    assert r["share_of_decided"]["k"] == 2 and r["share_of_decided"]["n"] == 3
    assert r["new_by_roster"] == {"a": [2, 2], "b": [0, 1]} and r["new_by_seat"] == {"seat1": [1, 1], "seat2": [1, 2]}


def test_an_old_folder_is_copied_as_its_own_package(tmp_path, monkeypatch):
    """``--old DIR``: a checkout or ``git archive`` copy (here today's engine/ai with a marker) is
    copied as a package of its own, whose easy reads its own modules, not today's."""
    import shutil
    monkeypatch.setattr(base, "_AGENTS", dict(base._AGENTS))
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delenv("OLD_EASY_DIR", raising=False)
    monkeypatch.delenv("OLD_EASY_REF", raising=False)
    old = tmp_path / "old-tree" / "engine" / "ai"
    shutil.copytree(ROOT / "engine" / "ai", old, ignore=shutil.ignore_patterns("__pycache__"))
    (old / "easy.py").write_text((old / "easy.py").read_text() + "\nOLD_MARK = 'the old tree'\n")
    bench = _bench()
    pkg = bench.load_old(str(tmp_path / "old-tree"), tmp_path / "cache")
    try:
        assert pkg == "oldeasy_oldtree"
        assert importlib.import_module(f"{pkg}.easy").OLD_MARK == "the old tree"
        assert "easy-old" in base._AGENTS
    finally:
        for name in [m for m in sys.modules if m == pkg or m.startswith(pkg + ".")]:
            del sys.modules[name]


def test_a_set_changes_todays_agent_and_a_bad_option_is_refused_before_any_game(monkeypatch, capsys):
    bench = _bench()
    import engine.ai.easy_frontier as ef
    monkeypatch.setattr(ef.FrontierPolicy, "move_order", ef.FrontierPolicy.move_order)
    bench.apply_sets(["engine.ai.easy_frontier:FrontierPolicy.move_order=\"roster\""])
    assert ef.FrontierPolicy.move_order == "roster"
    monkeypatch.setattr(bench, "load_old", lambda *a, **k: pytest.fail("no game may start"))
    with pytest.raises(SystemExit) as err:
        bench.main(["--old", "/nowhere", "--ruleset", "doubles", "--option", "no_such_option=1", "--games", "1"])
    assert err.value.code == 2 and "no_such_option" in capsys.readouterr().err
