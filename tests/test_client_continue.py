"""The launcher's Continue says which game it takes up (issue 58, item 7): the ruleset, the map,
the turn and when it was saved, read from the autosave without replaying it; an autosave that
cannot be read is said so (Continue is not offered for it), never a crash."""
from __future__ import annotations

import os
from datetime import datetime

from client_helpers import app, click_element, frame  # noqa: F401

from engine.data.maps import load_named_map
from game.launch.resume import autosave_info, when_words
from game.session import GameSession


def _launcher(app):
    from game.kit.transitions import Switch
    app.go(Switch("launcher"))
    frame(app, n=2)
    return app.scene


def _autosave(turns: int = 2):
    """A game against the AI played into turn ``turns`` and autosaved where Continue looks."""
    from game.userdirs import autosave_file

    s = GameSession.new("counterblast", load_named_map("outpost"), (), {1: "human", 2: "ai:random"}, 3,
                        autosave=False)
    from engine.ai import make_agent
    agents = {p: make_agent("random", p, 7 + p) for p in (1, 2)}
    while s.game.state.turn < turns:
        d = s.pending()
        s.submit(d.player, agents[d.player].choose(d, s.game.view(d.player)))
    autosave_file().parent.mkdir(parents=True, exist_ok=True)
    s.save(autosave_file())
    return s, autosave_file()


def test_continue_says_the_ruleset_map_turn_and_when_and_takes_that_game_up(app):
    from game.scenes.play import PlayScene

    s, path = _autosave(2)
    t = datetime(2026, 3, 5, 14, 5).timestamp()
    os.utime(path, (t, t))
    sc = _launcher(app)
    line = sc.resume_line.text
    assert line.startswith("Continue: Counterblast on Kessler Station, turn 2, saved on 5 March"), line
    assert "14:05" in line and sc.continue_b.is_enabled
    click_element(app, sc.continue_b)
    assert isinstance(app.scene, PlayScene) and app.scene.state.session.game.state_hash() == s.game.state_hash()


def test_an_autosave_that_cannot_be_read_is_said_so_and_not_offered(app):
    from game.userdirs import autosave_file

    autosave_file().parent.mkdir(parents=True, exist_ok=True)
    autosave_file().write_text('{"format": "skirmish-save", "version": 2, "ruleset": 7}')
    sc = _launcher(app)
    assert "cannot be read" in sc.resume_line.text and not sc.continue_b.is_enabled
    assert not app.crashes


def test_no_autosave_no_continue(app):
    sc = _launcher(app)
    assert sc.continue_b is None and sc.resume_line is None


def test_when_words_read_as_a_person_says_them(tmp_path):
    now = datetime(2026, 3, 5, 20, 0)
    at = lambda *a: datetime(*a).timestamp()                      # noqa: E731
    assert when_words(at(2026, 3, 5, 9, 7), now) == "today at 09:07"
    assert when_words(at(2026, 3, 4, 23, 59), now) == "yesterday at 23:59"
    assert when_words(at(2026, 1, 17, 8, 0), now) == "on 17 January at 08:00"
    assert when_words(at(2025, 12, 31, 18, 40), now) == "on 31 December 2025 at 18:40"
    assert autosave_info(tmp_path / "none.json") is None
    (tmp_path / "dir.json").mkdir()
    assert not autosave_info(tmp_path / "dir.json").readable
