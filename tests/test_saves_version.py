"""Saves name the version that wrote them (issue 60); a save written before they did still loads."""
from __future__ import annotations

import json

from test_saves_cli import half_played

from engine.core.saves import load_game, read_save, save_game
from engine.version import __version__


def test_a_save_names_the_version_that_wrote_it(tmp_path):
    g = half_played()
    path = tmp_path / "g.json"
    save_game(g, path)
    assert json.loads(path.read_text())["written_by"] == f"skirmish {__version__}"
    assert read_save(path).written_by == f"skirmish {__version__}"


def test_a_save_from_before_the_version_was_written_still_loads(tmp_path):
    g = half_played()
    path = tmp_path / "g.json"
    save_game(g, path)
    data = json.loads(path.read_text())
    del data["written_by"]             # as every save before 0.2.0: the field is outside the setup check
    path.write_text(json.dumps(data))
    assert read_save(path).written_by is None
    assert load_game(path).state_hash() == g.state_hash()
