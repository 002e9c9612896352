"""Saves (atomic, versioned, refused when broken) and the skirmish command."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from core_fixtures import small_map
from data_refusals import refused

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.core.saves import load_game, save_game, write_atomic
from engine.data.errors import DataError
from engine.simulate import simulate
from game.cli import main

ROOT = Path(__file__).resolve().parent.parent


def half_played(seed=9, steps=5):
    g = Game(Setup("toy", small_map(), seed=seed))
    agents = {p: make_agent("random", p, p) for p in (1, 2)}
    for _ in range(steps):
        d = g.pending()
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    return g


def test_save_and_load_give_the_identical_game(tmp_path):
    g = half_played()
    path = tmp_path / "game.json"
    save_game(g, path)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left behind
    assert path.stat().st_mode & 0o777 == 0o644
    loaded = load_game(path)
    assert loaded.state_hash() == g.state_hash()
    assert loaded.decisions == g.decisions
    assert loaded.pending().expected() == g.pending().expected()
    data = json.loads(path.read_text())
    assert data["format"] == "skirmish-save" and data["version"] == 2


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    path.write_text("old")

    def failing_fsync(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError):
        write_atomic(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d.update(state_hash="0" * 32), "state_hash"),
    (lambda d: d.update(version=99), "version"),
    (lambda d: d["decisions"][0]["choice"].update(type="nope"), "decisions[0].choice"),
    (lambda d: d["decisions"][0].update(player=0), "decisions[0].player"),
    (lambda d: d.update(ruleset="chess"), "ruleset"),
    (lambda d: d["map"].update(width=-3), "map.width"),
])
def test_broken_saves_are_refused_with_the_field(tmp_path, mutate, field):
    g = half_played()
    path = tmp_path / "game.json"
    save_game(g, path)
    data = json.loads(path.read_text())
    mutate(data)
    path.write_text(json.dumps(data))
    with pytest.raises(DataError) as e:
        load_game(path)
    assert str(path) in str(e.value) and field in [f for f, _ in e.value.problems]


def test_truncated_save_refused(tmp_path):
    refused(load_game, '{"format": "skirmish-save", "vers', tmp_path / "game.json", match="not valid JSON")


def test_simulate_same_arguments_same_hashes():
    a = simulate("toy", small_map(), 20, 1, ("random", "random"))
    b = simulate("toy", small_map(), 20, 1, ("random", "random"))
    assert a["errors"] == 0 and a["final_hashes"] == b["final_hashes"]
    assert sum(a["wins"].values()) == 20 and len(set(a["final_hashes"])) > 10
    c = simulate("toy", small_map(), 20, 2, ("random", "random"))
    assert c["final_hashes"] != a["final_hashes"]


def test_cli_simulate_json(tmp_path, capsys):
    mp = tmp_path / "small.json"
    mp.write_text(small_map().model_dump_json())
    rc = main(["simulate", "--ruleset", "toy", "--map", str(mp), "--games", "5", "--seed", "3", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    for key in ("ruleset", "map", "games", "wins", "mean_turns", "errors", "seconds", "final_hashes"):
        assert key in out
    assert out["errors"] == 0 and len(out["final_hashes"]) == 5


@pytest.mark.parametrize("ruleset, words", [("chess", "no ruleset 'chess'"), ("nosuch", "no ruleset")])
def test_cli_simulate_unknown_ruleset_exit_2(ruleset, words, capsys):
    rc = main(["simulate", "--ruleset", ruleset, "--map", "field", "--games", "1"])
    assert rc == 2 and words in capsys.readouterr().err


def test_cli_replay_check(tmp_path, capsys):
    g = half_played(steps=7)
    path = tmp_path / "game.json"
    save_game(g, path)
    assert main(["replay", str(path), "--check"]) == 0
    assert "matches the save" in capsys.readouterr().out
    data = json.loads(path.read_text())
    data["state_hash"] = "f" * 32
    path.write_text(json.dumps(data))
    assert main(["replay", str(path), "--check"]) == 1
    assert "state_hash" in capsys.readouterr().err


def test_cli_validate_maps_and_refuses_a_broken_one(tmp_path, capsys):
    maps = sorted((ROOT / "maps").glob("*.json"))
    assert len(maps) >= 4
    assert main(["validate", *map(str, maps)]) == 0
    bad = tmp_path / "bad.json"
    data = json.loads(maps[0].read_text())
    data["pieces"][0]["shape"] = {"type": "circle", "center": [1, 1], "radius": -2}
    data["unit"] = "furlong"
    bad.write_text(json.dumps(data))
    assert main(["validate", str(maps[0]), str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}: unit:" in err and "pieces[0].shape.circle.radius" in err
    assert "Traceback" not in err


def test_cli_validate_non_json_and_missing(tmp_path, capsys):
    junk = tmp_path / "junk.json"
    junk.write_text("not json at all")
    assert main(["validate", str(junk), str(tmp_path / "missing.json")]) == 1
    err = capsys.readouterr().err
    assert "not valid JSON" in err and "no such file" in err


def test_engine_never_imports_pygame():
    offenders = [str(p) for p in (ROOT / "engine").rglob("*.py")
                 if any(line.strip().startswith(("import pygame", "from pygame")) for line in p.read_text().splitlines())]
    assert offenders == []
    code = ("import sys, engine.core, engine.table, engine.data.maps, engine.simulate, engine.ai, game.cli;"
            "sys.exit(1 if 'pygame' in sys.modules else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_cli_validate_shipped_rosters_and_refuses_a_broken_one(tmp_path, capsys):
    rosters = sorted((ROOT / "engine" / "rulesets").glob("*/data/*/*.json"))
    assert len(rosters) >= 9  # three crews, four posses, three warbands (and missions)
    assert main(["validate", *map(str, rosters)]) == 0
    out = capsys.readouterr().out
    for kind in ("Counterblast crew", "Frontier posse", "Doubles warband"):
        assert kind in out
    warband = next(p for p in rosters if "warbands" in str(p))
    data = json.loads(warband.read_text())
    del data["fighters"][0]["name"]
    bad = tmp_path / "warband.json"
    bad.write_text(json.dumps(data))
    assert main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}: fighters[0].name: Field required" in err


def test_cli_simulate_refuses_a_map_the_ruleset_cannot_use(capsys):
    """Counterblast needs 25-50% terrain: the open field is refused once, cleanly, exit 2."""
    rc = main(["simulate", "--ruleset", "counterblast", "--map", "field", "--games", "3"])
    err = capsys.readouterr().err
    assert rc == 2 and "cannot set up counterblast" in err and "25%" in err and "Traceback" not in err
