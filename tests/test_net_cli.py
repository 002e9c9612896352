"""``skirmish host`` and ``skirmish join`` (issue 50): bad usage is exit 2 with the reason, a
refused code or no server exit 1, never a traceback; a headless seat plays a game out."""
from __future__ import annotations

import contextlib
import io
import json

import pytest
from net_helpers import ServerThread, new_host

from game.cli import main


def run(argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as e:          # argparse's own usage errors
            rc = e.code
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv,words", [
    (["host"], "--ruleset"),
    (["host", "--ruleset", "chess"], "chess"),
    (["host", "--ruleset", "frontier", "--p2", "ai:grandmaster"], "grandmaster"),
    (["host", "--ruleset", "frontier", "--option", "nonsense"], "KEY=VALUE"),
    (["host", "--ruleset", "counterblast", "--mission", "moon-landing"], "moon-landing"),
    (["host", "--load", "x.json", "--ruleset", "frontier"], "--load"),
    (["host", "--ruleset", "frontier", "--port", "70000"], "port"),
    (["join", "localhost:99999", "--seat", "1", "--code", "X"], "port"),
    (["join", ":8765", "--seat", "1", "--code", "X"], "no host"),
    (["join", "localhost:8765", "--seat", "3", "--code", "X"], "seat"),
    (["join", "localhost:8765", "--seat", "1", "--code", "X", "--ai", "grandmaster"], "grandmaster"),
    (["host", "--ruleset", "frontier", "--port", "nan"], "whole number"),
    (["join", "localhost:abc", "--seat", "1", "--code", "X"], "not a number"),
    (["join", "[::1:8765", "--seat", "1", "--code", "X"], "not closed"),
    (["join", "[::1]8765", "--seat", "1", "--code", "X"], "after ]"),
    (["join", "localhost:8765", "--seat", "1", "--code", "X", "--timeout", "nan"], "seconds"),
    (["join", "localhost:8765", "--seat", "1", "--code", "X", "--timeout", "-1"], "seconds"),
    (["join", "localhost:8765", "--seat", "1", "--code", "X", "--name", "x" * 30], "at most 24"),
    (["join", "localhost:8765", "--seat", "1", "--code", "X", "--name", "A\nB"], "printable"),
])
def test_bad_usage_is_exit_2_with_the_reason(argv, words):
    rc, out, err = run(argv)
    assert rc == 2 and words in err and "Traceback" not in err, (rc, err)


def test_a_bad_save_is_exit_1(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    rc, out, err = run(["host", "--load", str(bad)])
    assert rc == 1 and "bad.json" in err


@pytest.mark.parametrize("kind", ["folder", "fifo", "truncated", "not-an-object"])
def test_a_save_that_is_not_a_save_file_is_exit_1_naming_it(kind, tmp_path):
    import os

    bad = tmp_path / "bad.json"
    if kind == "folder":
        bad.mkdir()
    elif kind == "fifo":
        os.mkfifo(bad)
    elif kind == "truncated":
        bad.write_text('{"schema_version": 1, "ruleset": "doubles"')
    else:
        bad.write_text("[1, 2]")
    rc, out, err = run(["host", "--load", str(bad), "--port", "0"])
    assert rc == 1 and "bad.json" in err and "Traceback" not in err, (rc, err)


@pytest.mark.parametrize("seat,words", [("ai:nope", "no agent 'nope'"), ("ai:hard:budget=nan", "budget"),
                                        ("5", "no agent '5'"), (5, "5 is not a seat"), (["x"], "not a seat")])
def test_a_save_whose_seat_names_an_unknown_agent_is_exit_1_with_the_file_and_the_reason(seat, words, tmp_path):
    """A network save's ``client.net.seats`` is outside the save's setup check (hand-edited, or
    written by another build): an agent this build does not know is refused as a damaged
    ``client`` part is, with the file, the field and the reason, not a traceback."""
    host = new_host("doubles", "prehistoric", 3, saves_dir=tmp_path)
    data = json.loads(host.save("net").read_text())
    data["client"]["net"]["seats"]["2"] = seat
    bad = tmp_path / "bad-seat.json"
    bad.write_text(json.dumps(data))
    rc, out, err = run(["host", "--load", str(bad), "--port", "0", "--bind", "127.0.0.1", "--quiet",
                        "--autosave", str(tmp_path / "again.json")])
    assert rc == 1 and "Traceback" not in err, (rc, err)
    assert "bad-seat.json" in err and "client.net.seats.2" in err and words in err, err


@pytest.mark.parametrize("flag", ["--autosave", "--info"])
def test_a_file_the_host_cannot_write_is_refused_before_anyone_joins(flag, tmp_path):
    """An autosave or info file that cannot be written (here: a folder) stops the host with the
    file and the reason, not a claim that the game is kept there, nor "cannot listen"."""
    folder = tmp_path / "a-folder"
    folder.mkdir()
    argv = ["host", "--ruleset", "doubles", "--map", "prehistoric", "--port", "0", "--quiet", flag, str(folder)]
    if flag == "--info":
        argv += ["--autosave", str(tmp_path / "auto.json")]
    rc, out, err = run(argv)
    assert rc == 1 and str(folder) in err and "not a regular file" in err, (rc, err)
    assert "cannot listen" not in err
    if flag == "--autosave":
        assert "is kept in" not in out


def test_a_wrong_code_or_no_server_is_exit_1():
    host = new_host("doubles", "prehistoric", 1)
    srv = ServerThread(host)
    try:
        rc, out, err = run(["join", f"127.0.0.1:{srv.port}", "--seat", "1", "--code", "WRONG2", "--ai", "random"])
        assert rc == 1 and "the code is wrong" in err
    finally:
        srv.stop()
    rc, out, err = run(["join", f"127.0.0.1:{srv.port}", "--seat", "1", "--code", "X", "--ai", "random",
                        "--timeout", "1"])
    assert rc == 1 and "no game answered" in err


def test_a_headless_seat_plays_against_the_servers_ai(tmp_path):
    host = new_host("doubles", "prehistoric", 9, seats={1: "remote", 2: "ai:random"})
    srv = ServerThread(host)
    try:
        rc, out, err = run(["join", f"127.0.0.1:{srv.port}", "--seat", "1", "--code", host.codes[1].lower(),
                            "--ai", "random", "--record", str(tmp_path / "r.json")])
        assert rc == 0 and "game over" in out, err
    finally:
        srv.stop()
    assert host.game.over and host.exceptions == 0
    rec = json.loads((tmp_path / "r.json").read_text())
    mine = [i for i, (p, _) in enumerate(host.game.decisions) if p == 1]
    assert [d["seq"] for d in rec["decisions"]] == mine and rec["over"]
