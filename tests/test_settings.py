"""The launcher's settings file: a file of the wrong shape is set aside (renamed, kept), the
defaults are used and the launcher says so; a good file round-trips. Issue 30."""
from __future__ import annotations

import json

import pygame
import pytest

from game.settings import DEFAULT_OPPONENT, Settings


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SKIRMISH_HOME", str(tmp_path))
    (tmp_path / "config").mkdir()
    return tmp_path / "config"


BAD = [
    '{"ruleset": "doubles", "rosters": {"doubles": [[1], {"a": 1}]}}',   # the file
    '{"rosters": {"doubles": ["a"]}}',                                     # one roster, not two
    '{"seats": "human"}',
    '{"seats": ["human", 3]}',
    '{"seed": "one"}',
    '{"seed": 1e400}',
    '{"seed": 100000000000000000000000}',                                  # past a 64-bit seed
    '{"ai_speed": NaN}',
    '{"ai_speed": -1}',
    '{"ruleset": ""}',
    '[1, 2, 3]',
    '"frontier"',
    '{"ruleset": "doubles"',                                               # cut short
    '\xff\xfe garbage',
    '[' * 100_000 + ']' * 100_000,
]


@pytest.mark.parametrize("text", BAD)
def test_a_bad_settings_file_is_set_aside_and_defaults_used(home, text):
    (home / "settings.json").write_text(text, encoding="utf-8", errors="surrogateescape")
    s = Settings.load()
    assert (s.ruleset, s.map, s.rosters, s.seats, s.seed) == ("frontier", "town", {}, ["human", DEFAULT_OPPONENT], 1)
    kept = list(home.glob("settings.json.bad-*"))
    assert len(kept) == 1 and not (home / "settings.json").exists()
    assert kept[0].name in s.notice and "defaults" in s.notice
    s.save()                                   # the next start reads the new file quietly
    assert Settings.load().notice == ""


def test_a_good_file_round_trips_and_unknown_keys_are_ignored(home):
    s = Settings(ruleset="doubles", map="prehistoric", rosters={"doubles": ["a", "b"]}, seats=["ai:easy", "human"],
                 seed=42, ai_speed=2.0)
    s.save()
    data = json.loads((home / "settings.json").read_text())
    assert "notice" not in data
    data["from_a_newer_build"] = {"x": 1}
    (home / "settings.json").write_text(json.dumps(data))
    back = Settings.load()
    assert back == s and back.notice == "" and not list(home.glob("*.bad-*"))


def test_a_missing_file_gives_the_defaults_without_a_notice(home):
    s = Settings.load()
    assert s == Settings() and s.notice == ""


def test_the_launcher_shows_why_and_starts_a_game(home):
    from game.app import App
    from game.scenes.launcher import LauncherScene
    from game.scenes.play import PlayScene

    (home / "settings.json").write_text('{"ruleset": "doubles", "rosters": {"doubles": [[1], {"a": 1}]}}')
    app = App((1280, 720))
    try:
        launcher = LauncherScene(app)
        app.switch(launcher)
        app.step(1 / 60, [])
        assert "set aside" in launcher.error and "set aside" in launcher.reason.html_text
        launcher.start_game()
        assert isinstance(app.scene, PlayScene) and not app.crashes
    finally:
        pygame.quit()
