"""``skirmish export`` and ``skirmish import`` check the file they are to write with one
``replace_problem`` (game/cli/checks.py): a link to nowhere, a file that exists without --force,
then ``out_file_problem``; each command keeps its own words for its argument ("OUT", "--out")."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main
from game.cli.checks import replace_problem

HAND = Path(__file__).parent / "data" / "carltographer" / "polygons-and-footprints.json"
OLD = '{"the old map": "kept"}\n'

# each command's words: how it is called with an output path, its argument's name, and what a
# link to nowhere asks for instead
COMMANDS = {
    "export": (lambda out, *more: ["export", "field", str(out), "--to", "tts", *more], "OUT",
               "give the file's own path"),
    "import": (lambda out, *more: ["import", str(HAND), "--out", str(out), *more], "--out",
               "give the map file's own path as --out"),
}


def test_replace_problem_says_why_or_none(tmp_path):
    out = tmp_path / "o.json"
    assert replace_problem(out, False, "OUT") is None
    out.write_text(OLD)
    assert replace_problem(out, False, "--out") == f"{out} exists; give another --out or --force to replace it"
    assert replace_problem(out, True, "--out") is None
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "nowhere.json")
    for force in (False, True):
        assert replace_problem(link, force, "OUT", "give it") == (
            f"{link} is a symbolic link to {tmp_path / 'nowhere.json'}, which does not exist; give it")
    assert replace_problem(tmp_path, True, "OUT") == f"cannot write {tmp_path}: it is a folder"
    assert list(tmp_path.iterdir()) == [out, link]            # asking wrote nothing


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_refuses_with_its_own_words_and_writes_nothing(command, tmp_path, capsys):
    argv, arg, own_path = COMMANDS[command]
    out = tmp_path / "o.json"
    out.write_text(OLD)
    assert main(argv(out)) == 1
    assert capsys.readouterr().err.strip() == (
        f"skirmish {command}: {out} exists; give another {arg} or --force to replace it")
    assert out.read_text() == OLD
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "nowhere.json")
    for force in ([], ["--force"]):
        assert main(argv(link, *force)) == 1
        assert capsys.readouterr().err.strip() == (
            f"skirmish {command}: {link} is a symbolic link to {tmp_path / 'nowhere.json'}, which does not exist; "
            f"{own_path}")
    assert main(argv(out, "--force")) == 0
    assert json.loads(out.read_text()) != json.loads(OLD)
    assert not (tmp_path / "nowhere.json").exists()
