"""The ``skirmish`` command as a user meets it: real processes, bad input, no traceback.

Each case runs ``python -m game.cli`` in a child process (with its own user folder) and checks
the documented exit code (`docs/commands.md`, "Exit codes": 1 a file could not be read or written, 2 bad
usage) and that stderr holds a message and no "Traceback". Issue 30.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from cli_process import run_cli


def run(argv, home: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    return run_cli(argv, home, timeout)


def clean(p: subprocess.CompletedProcess, rc: int, *words: str) -> None:
    assert "Traceback" not in p.stderr, p.stderr
    assert p.returncode == rc, (p.returncode, p.stdout, p.stderr)
    for w in words:
        assert w in p.stderr, (w, p.stderr)


# --- 1. a picture that cannot be written where it was asked -------------------------------
@pytest.mark.parametrize("argv", [
    ["screenshot", "--ruleset", "doubles", "--map", "prehistoric", "--out", "/proc/x.png"],
    ["play", "--map", "field", "--screenshot", "/proc/x.png", "--frames", "1"],
])
def test_a_picture_into_proc_is_refused(tmp_path, argv):
    clean(run(argv, tmp_path), 1, "cannot write /proc/x.png")


def test_a_picture_that_fails_only_when_saved_is_refused(tmp_path, monkeypatch):
    """The check before drawing cannot foresee every failure: the save itself is caught too."""
    import pygame

    from game.scenes.base import PictureError, save_png

    def refuse(surface, path):
        raise pygame.error(f"Couldn't open {path}")
    monkeypatch.setattr(pygame.image, "save", refuse)
    with pytest.raises(PictureError, match="Couldn't open"):
        save_png(pygame.Surface((4, 4)), tmp_path / "x.png")


# --- 2. a settings file of the wrong shape ---------------------------------------------------
def test_a_bad_settings_file_is_set_aside_and_the_launcher_starts(tmp_path):
    cfg = tmp_path / "config"
    cfg.mkdir()
    bad = '{"ruleset": "doubles", "rosters": {"doubles": [[1], {"a": 1}]}}'
    (cfg / "settings.json").write_text(bad)
    p = run(["--frames", "2"], tmp_path)
    clean(p, 0)
    kept = list(cfg.glob("settings.json.bad-*"))
    assert len(kept) == 1 and kept[0].read_text() == bad       # set aside, not lost
    assert "settings" in p.stderr and kept[0].name in p.stderr  # and said where


# --- 3. meaningless values are usage errors -----------------------------------------------
@pytest.mark.parametrize("agent, words", [
    ("normal:budget=nan", ["budget", "finite"]),
    ("normal:budget=inf", ["budget", "finite"]),
    ("normal:budget=-1", ["budget", "greater than 0"]),
    ("normal:nope=1", ["nope", "budget"]),        # names what the agent does take
    ("easy:budget=1", ["easy", "takes no parameters"]),
    ("hard:k=2.5", ["k", "integer"]),
])
def test_bad_agent_parameters_are_usage_errors(tmp_path, agent, words):
    for argv in (["simulate", "--ruleset", "doubles", "--map", "prehistoric", "--games", "1", "--p1", agent],
                 ["play", "--ruleset", "doubles", "--map", "prehistoric", "--p2", f"ai:{agent}", "--frames", "1"],
                 ["screenshot", "--ruleset", "doubles", "--map", "prehistoric", "--agent", agent,
                  "--out", str(tmp_path / "x.png")]):
        p = run(argv, tmp_path)
        clean(p, 2, *words)
        assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("opt, value", [("--width", "0"), ("--height", "-5"), ("--width", "100000"),
                                        ("--steps", "-1")])
def test_screenshot_sizes_and_steps_must_make_sense(tmp_path, opt, value):
    p = run(["screenshot", "--ruleset", "doubles", "--map", "prehistoric", opt, value,
             "--out", str(tmp_path / "x.png")], tmp_path)
    clean(p, 2, opt)
    assert not (tmp_path / "x.png").exists()


# --- 4. a named pipe or a device given as a file -----------------------------------------------
@pytest.mark.parametrize("cmd", [["validate"], ["replay"], ["replay", "--check"]])
def test_a_named_pipe_is_refused_not_waited_on(tmp_path, cmd):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    p = run([*cmd, str(fifo)], tmp_path, timeout=30)   # before the fix: blocked until the timeout
    clean(p, 1, str(fifo), "named pipe")


def test_a_device_and_a_folder_are_refused(tmp_path):
    clean(run(["validate", "/dev/zero"], tmp_path, timeout=30), 1, "/dev/zero", "device")
    clean(run(["replay", str(tmp_path)], tmp_path), 1, "folder")
    clean(run(["simulate", "--ruleset", "doubles", "--map", "/dev/null", "--games", "1"], tmp_path), 1, "device")
