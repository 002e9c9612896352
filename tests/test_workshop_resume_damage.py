"""``experiment --resume`` and ``balance --resume`` on a damaged folder (issue 47): a truncated
file, ``[]``, ``{}``, a row of the wrong shape, a NaN, a folder or a named pipe in place of a file
is refused with the file and the reason (exit 1), by the real command in a process, and nothing
in the folder changes: the games already played are never lost. The one damage a run makes
itself, a last line cut short by a kill, is dropped and that game played again."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from test_workshop_bad_input import clean, run

pytest.importorskip("distributed")

EXPERIMENT = ["experiment", "--ruleset", "doubles", "--maps", "field", "--games", "2", "--p1", "random", "--p2",
              "random", "--seed", "4", "--workers", "1", "--no-progress"]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A real experiment of two games (one seed block), played once for the module."""
    home = tmp_path_factory.mktemp("home")
    out = tmp_path_factory.mktemp("exp") / "x"
    clean(run([*EXPERIMENT, "--out", str(out)], home, timeout=300), 0)
    assert len((out / "games.jsonl").read_text().splitlines()) == 2
    return out


def _lines(folder: Path) -> list[str]:
    return (folder / "games.jsonl").read_text().splitlines()


def _record(folder: Path, **change) -> str:
    rec = json.loads(_lines(folder)[0])
    rec.update(change)
    return json.dumps(rec)


def _damage(folder: Path, what: str) -> str:
    """Damage ``folder`` as ``what`` says; the words the refusal must hold."""
    recs, cfg = folder / "games.jsonl", folder / "config.json"
    good = _lines(folder)
    if what == "records cut in the middle":
        recs.write_text(good[0][: len(good[0]) // 2] + "\n" + good[1] + "\n")
        return "line 1"
    if what == "records []":
        recs.write_text("[]\n" + good[1] + "\n")
        return "line 1"
    if what == "records {}":
        recs.write_text("{}\n" + good[1] + "\n")
        return "line 1"
    if what == "records a string index":
        recs.write_text(_record(folder, index="0") + "\n" + good[1] + "\n")
        return "index"
    if what == "records winner 3":
        recs.write_text(_record(folder, winner=3) + "\n" + good[1] + "\n")
        return "winner"
    if what == "records a NaN row":
        recs.write_text(_record(folder).replace('"turns": ', '"turns": NaN, "x": ') + "\n" + good[1] + "\n")
        return "not a finite number"
    if what in ("records a folder", "records a FIFO"):
        words = _not_a_file(recs, what)
        if recs.is_dir():
            (recs / "keep.txt").write_text("mine")
        return words
    if what == "config truncated":
        cfg.write_text(cfg.read_text()[:40])
        return "not valid JSON"
    if what == "config []":
        cfg.write_text("[]")
        return "JSON object"
    if what == "config {}":
        cfg.write_text("{}")
        return "not an experiment's configuration"
    if what == "config NaN":
        cfg.write_text(cfg.read_text().replace('"seed": 4', '"seed": NaN'))
        return "not a finite number"
    if what in ("config a folder", "config a FIFO"):
        return _not_a_file(cfg, what)
    raise AssertionError(what)


def _not_a_file(path: Path, what: str) -> str:
    """Put a folder (``what`` ends "a folder") or a named pipe ("a FIFO") where the file ``path``
    was; the words the refusal must hold."""
    path.unlink()
    if what.endswith("a folder"):
        path.mkdir()
        return "a folder"
    assert what.endswith("a FIFO"), what
    os.mkfifo(path)
    return "named pipe"


def _listing(folder: Path) -> dict:
    """Every entry (kind) and every regular file's bytes: nothing may change in a refused folder."""
    out = {}
    for p in sorted(folder.rglob("*")):
        kind = "fifo" if p.is_fifo() else "dir" if p.is_dir() else "file"
        out[str(p.relative_to(folder))] = (kind, p.read_bytes() if kind == "file" else None)
    return out


DAMAGE = ["records cut in the middle", "records []", "records {}", "records a string index", "records winner 3",
          "records a NaN row", "records a folder", "records a FIFO", "config truncated", "config []", "config {}",
          "config NaN", "config a folder", "config a FIFO"]


@pytest.mark.parametrize("what", DAMAGE)
def test_a_damaged_experiment_is_refused_and_left_as_it_was(played, tmp_path, what):
    folder = tmp_path / "x"
    shutil.copytree(played, folder)
    words = _damage(folder, what)
    before = _listing(folder)
    p = run([*EXPERIMENT, "--out", str(folder), "--resume"], tmp_path, timeout=60)
    text = clean(p, 1, words, "cannot resume")
    assert ("games.jsonl" if what.startswith("records") else "config.json") in text
    assert _listing(folder) == before


def test_a_last_line_cut_by_a_kill_is_played_again(played, tmp_path):
    folder = tmp_path / "x"
    shutil.copytree(played, folder)
    good = _lines(folder)
    (folder / "games.jsonl").write_text(good[0] + "\n" + good[1][:30])
    clean(run([*EXPERIMENT, "--out", str(folder), "--resume"], tmp_path, timeout=300), 0,
          "1 games played (1 already done)")
    again = _lines(folder)
    assert len(again) == 2 and again[0] == good[0] and json.loads(again[1])["index"] == json.loads(good[1])["index"]
    assert (folder / "report.md").exists()


def test_an_experiment_where_one_side_never_wins_writes_its_report_and_resumes(tmp_path):
    """The issue's command: random never beats easy; the plot's interval at 0% (three blocks: its end
    came out 5.6e-17) used to stop the report (ValueError: 'xerr' must not contain negative values),
    and --resume alike."""
    args = ["experiment", "--ruleset", "doubles", "--maps", "prehistoric", "field", "--games", "12", "--p1", "random",
            "--p2", "easy", "--seed", "4", "--workers", "1", "--no-progress", "--out", str(tmp_path / "x")]
    clean(run(args, tmp_path, timeout=300), 0, "agent random wins 0%")
    assert "balance.png" in (tmp_path / "x" / "report.md").read_text()
    clean(run([*args, "--resume"], tmp_path, timeout=120), 0, "0 games played (24 already done)")


# --- balance --resume -------------------------------------------------------------------------
BALANCE = ["balance", "--ruleset", "doubles", "--map", "field", "--search-games", "8", "--check-games", "8",
           "--confirm", "400", "--no-pictures"]


@pytest.fixture(scope="module")
def balanced(tmp_path_factory) -> Path:
    """A finished balance run's folder with the command's own settings, its games played by the
    fake experiment of test_workshop_balance (no game is played here)."""
    from test_workshop_balance import FakePlay

    from engine.data.maps import load_named_map
    from engine.simulate import default_rosters
    from engine.workshop import balance as B

    out = tmp_path_factory.mktemp("bal") / "b"
    s = B.Settings("doubles", "field", tuple(default_rosters("doubles")), ("easy", "easy"), 1, 30.0, 8, 8, 400, 24, 3,
                   keep_z=1.0, max_steps=0)
    res = B.run(s, load_named_map("field"), out, FakePlay(lambda m: 0.5), say=lambda line: None)
    assert res.state["phase"] == "done"
    return out


def test_a_sound_balance_state_resumes(balanced, tmp_path):
    folder = tmp_path / "b"
    shutil.copytree(balanced, folder)
    clean(run([*BALANCE, "--max-steps", "0", "--out", str(folder), "--resume"], tmp_path, timeout=120), 0, "written")


def _damage_state(folder: Path, what: str) -> str:
    path = folder / "state.json"
    st = json.loads(path.read_text())
    if what == "truncated":
        path.write_text(path.read_text()[:300])
        return "not valid JSON"
    if what in ("[]", "{}"):
        path.write_text(what)
        return "JSON object" if what == "[]" else "version"
    if what == "a step in words":
        st["step"] = "3"
    elif what == "an unknown phase":
        st["phase"] = "somewhere"
    elif what == "a map of the wrong shape":
        st["incumbent"]["map"]["width"] = -1
        what = "incumbent.map.width"
    elif what == "a folder outside the run":
        st["incumbent"]["folder"] = "../../elsewhere"
    elif what == "no settings":
        st["settings"] = {}
    elif what == "a NaN":
        path.write_text(path.read_text().replace('"search_seconds": ', '"search_seconds": NaN, "x": '))
        return "not a finite number"
    elif what in ("a folder", "a FIFO"):
        return _not_a_file(path, what)
    else:
        raise AssertionError(what)
    path.write_text(json.dumps(st))
    return {"a step in words": "step", "an unknown phase": "phase", "a folder outside the run": "folder",
            "no settings": "settings"}.get(what, what)


@pytest.mark.parametrize("what", ["truncated", "[]", "{}", "a step in words", "an unknown phase",
                                  "a map of the wrong shape", "a folder outside the run", "no settings", "a NaN",
                                  "a folder", "a FIFO"])
def test_a_damaged_balance_state_is_refused_and_left_as_it_was(balanced, tmp_path, what):
    folder = tmp_path / "b"
    shutil.copytree(balanced, folder)
    words = _damage_state(folder, what)
    before = _listing(folder)
    text = clean(run([*BALANCE, "--max-steps", "0", "--out", str(folder), "--resume"], tmp_path, timeout=60), 1, words,
                 "cannot resume")
    assert "state.json" in text
    assert _listing(folder) == before


@pytest.mark.parametrize("what", ["records a NaN row", "records a FIFO", "config []"])
def test_a_damaged_experiment_inside_a_balance_run_is_refused(balanced, played, tmp_path, what):
    """A run in its search resumes the incumbent's experiment first: a damaged one is refused as it is."""
    folder = tmp_path / "b"
    shutil.copytree(balanced, folder)
    st = json.loads((folder / "state.json").read_text())
    st["phase"], st["stopped"], st["settings"]["max_steps"] = "search", None, 1     # a step to take: it reads first
    (folder / "state.json").write_text(json.dumps(st))
    exp = folder / st["incumbent"]["folder"]
    for name in ("games.jsonl", "config.json"):
        shutil.copy(played / name, exp / name)        # another experiment's files: damaged, they are refused first
    words = _damage(exp, what)
    before = _listing(folder)
    text = clean(run([*BALANCE, "--max-steps", "1", "--out", str(folder), "--resume"], tmp_path, timeout=60), 1,
                 words, "cannot resume")
    assert ("games.jsonl" if what.startswith("records") else "config.json") in text
    assert _listing(folder) == before
