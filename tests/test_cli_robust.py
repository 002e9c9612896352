"""The command line refuses bad usage cleanly (exit 2), never prints a traceback for an
unwritable output or a closed pipe, routes bare options to play, and saves safely."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from file_fuzz import run_command

from engine.core.saves import SaveError, write_atomic

ROOT = Path(__file__).resolve().parent.parent


def test_an_unknown_ruleset_lists_the_shipped_ones():
    rc, err, exc = run_command(["simulate", "--ruleset", "chess", "--map", "town", "--games", "1"])
    assert rc == 2 and "available: counterblast, doubles, frontier" in err


@pytest.mark.parametrize("n", ["0", "-1", "x"])
def test_games_must_be_positive(n):
    rc, err, exc = run_command(["simulate", "--ruleset", "doubles", "--map", "prehistoric", "--games", n])
    assert rc == 2 and "--games" in err


@pytest.mark.parametrize("ruleset, mp", [("doubles", "outpost"), ("frontier", "outpost"), ("counterblast", "prehistoric")])
def test_a_map_that_does_not_suit_the_ruleset_is_refused_unless_any_map(ruleset, mp, tmp_path):
    rc, err, exc = run_command(["simulate", "--ruleset", ruleset, "--map", mp, "--games", "1"])
    assert rc == 2 and "is made for" in err and "--any-map" in err
    rc, err, exc = run_command(["play", "--ruleset", ruleset, "--map", mp, "--screenshot", str(tmp_path / "x.png")])
    assert rc == 2 and exc is None and "is made for" in err and not (tmp_path / "x.png").exists()


def test_any_map_lets_it_run(tmp_path):
    rc, err, exc = run_command(["simulate", "--ruleset", "doubles", "--map", "outpost", "--games", "1", "--any-map", "--json"])
    assert exc is None and "is made for" not in err


def test_a_missing_map_lists_the_shipped_ones():
    rc, err, exc = run_command(["simulate", "--ruleset", "doubles", "--map", "nowhere", "--games", "1"])
    assert rc == 1 and "field, outpost, prehistoric, quarry, town" in err
    rc, err, exc = run_command(["analyze-map", "nowhere"])
    assert rc == 1 and "prehistoric" in err


def test_unwritable_pictures_are_refused_without_a_traceback():
    for argv in (["analyze-map", "town", "--png", "/proc/nope/x.png"],
                 ["screenshot", "--ruleset", "frontier", "--map", "town", "--out", "/proc/nope/x.png"],
                 ["play", "--map", "town", "--screenshot", "/proc/nope/x.png"]):
        rc, err, exc = run_command(argv)
        assert exc is None and rc == 1 and "cannot write /proc/nope/x.png" in err, (argv, err)


def test_options_without_a_command_go_to_play(monkeypatch):
    import game.cli as cli

    seen = {}
    monkeypatch.setattr(cli, "cmd_play", lambda args: seen.setdefault("map", args.map) and 0)
    parser = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda: _with_play(parser(), cli.cmd_play))
    assert cli.main(["--map", "outpost"]) == 0 and seen["map"] == "outpost"


def _with_play(parser, fn):
    for action in parser._subparsers._group_actions:
        action.choices["play"].set_defaults(func=fn)
    return parser


def test_simulate_save_dir_writes_one_save_per_game(tmp_path):
    out = tmp_path / "saves"
    rc, err, exc = run_command(["simulate", "--ruleset", "doubles", "--map", "prehistoric", "--games", "3",
                                "--seed", "4", "--save-dir", str(out)])
    assert rc == 0, err
    files = sorted(out.glob("*.json"))
    assert len(files) == 3
    for f in files:
        assert run_command(["replay", str(f), "--check"])[0] == 0


def test_replay_into_a_closed_pipe_is_quiet(tmp_path):
    rc, err, exc = run_command(["simulate", "--ruleset", "doubles", "--map", "prehistoric", "--games", "1",
                                "--save-dir", str(tmp_path)])
    save = next(tmp_path.glob("*.json"))
    # the reader is gone before the first line is written (as with | head -1 on a long log)
    r, w = os.pipe()
    os.close(r)
    p = subprocess.run([sys.executable, "-m", "game.cli", "replay", str(save), "--log"], cwd=ROOT, stdout=w,
                       stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(w)
    assert "Traceback" not in p.stderr and "BrokenPipe" not in p.stderr, p.stderr
    assert p.returncode == 1


# --- writing saves ------------------------------------------------------------------------
def test_write_atomic_keeps_the_mode_of_a_replaced_file(tmp_path):
    p = tmp_path / "s.json"
    p.write_text("old")
    os.chmod(p, 0o600)
    write_atomic(p, "new")
    assert p.read_text() == "new" and p.stat().st_mode & 0o777 == 0o600
    q = tmp_path / "new.json"
    write_atomic(q, "x")
    assert q.stat().st_mode & 0o777 == 0o644


def test_write_atomic_refuses_a_missing_folder_and_a_symlink(tmp_path):
    with pytest.raises(SaveError, match="does not exist"):
        write_atomic(tmp_path / "no" / "s.json", "x")
    assert not (tmp_path / "no").exists()
    target = tmp_path / "target.json"
    target.write_text("keep")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    with pytest.raises(SaveError, match="symbolic link"):
        write_atomic(link, "x")
    assert target.read_text() == "keep" and link.is_symlink()


def test_write_atomic_syncs_the_folder(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.path.isdir(f"/proc/self/fd/{fd}")), real(fd)))
    write_atomic(tmp_path / "s.json", "x")
    assert synced == [False, True]   # the file, then its folder


def test_simulate_and_experiment_check_ruleset_and_agents_alike():
    from game.cli.checks import ruleset_and_agents_problem
    assert ruleset_and_agents_problem("experiment", "doubles", ("hard:budget=2.0", "easy")) is None
    why = ruleset_and_agents_problem("experiment", "doubles", ("grandmaster", "easy"))
    assert why.startswith("skirmish experiment: no agent 'grandmaster'") and "easy" in why
    assert "counterblast" in ruleset_and_agents_problem("simulate", "chess", ("easy", "easy"))


def test_every_commands_help_prints():
    """``skirmish CMD --help`` for every command: a help text argparse cannot format (a bare
    "%" in it) was a traceback instead of the help (``experiment --help``, found 2026-12-05)."""
    import argparse
    import contextlib
    import io

    from game.cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(sub.choices) >= 10
    for name, cmd in sub.choices.items():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            text = cmd.format_help()
        assert "usage: skirmish" in text and name in text, name


def test_fail_says_why_on_stderr_and_gives_the_exit_code(capsys):
    from game.cli.args import fail

    assert fail("skirmish x: why", 2) == 2
    assert fail("skirmish x: other", 130) == 130
    out = capsys.readouterr()
    assert (out.out, out.err) == ("", "skirmish x: why\nskirmish x: other\n")
