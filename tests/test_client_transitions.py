"""Transitions (issue 48): scenes hand the app ``Switch/Push/Pop/Quit`` values and ``App.go``
resolves them through the registry of screens in ``game/app.py``. Push keeps the scene under (the
same object comes back on Pop, not closed); Switch closes the scene and every one kept under it.
And the whole path through the window: launcher -> game -> game over -> the table again -> a new
game's launcher, by the buttons a player presses."""
from __future__ import annotations

import pygame
import pytest
from client_helpers import app, click, frame, play_fast_until, show_launcher  # noqa: F401

from game.kit.transitions import Pop, Push, Quit, Switch


class Probe:
    """A scene stand-in that records being closed."""

    def __init__(self, app, under=None, name="probe"):
        self.app, self.under, self.name, self.closed = app, under, name, 0

    def close(self):
        self.closed += 1


@pytest.fixture
def probe_screen(app):
    """A "probe" screen in the app's registry, built as a Probe."""
    app.screens["probe"] = lambda app, under, **args: Probe(app, under, **args)


def _b_over_a(app):
    """Switch to probe a, push probe b over it: (a, b)."""
    app.go(Switch("probe", {"name": "a"}))
    a = app.scene
    app.go(Push("probe", {"name": "b"}))
    return a, app.scene


def test_push_keeps_the_scene_under_and_pop_brings_the_same_one_back(app, probe_screen):
    a = app.build("probe", {"name": "a"})
    app.switch(a)
    app.go(Push("probe", {"name": "b"}))
    b = app.scene
    assert b.name == "b" and b.under is a and app.under == [a] and not a.closed
    app.go(Push("probe", {"name": "c"}))
    assert app.under == [a, b]
    app.go(Pop())
    assert app.scene is b and app.under == [a] and not b.closed
    app.go(Pop())
    assert app.scene is a and not a.closed and b.closed == 1
    with pytest.raises(ValueError):
        app.go(Pop())                                  # nothing under the first screen


def test_switch_closes_the_scene_and_those_kept_under_it(app, probe_screen):
    a, b = _b_over_a(app)
    app.go(Switch("probe", {"name": "c"}))
    assert app.scene.name == "c" and app.under == [] and a.closed == 1 and b.closed == 1
    app.switch(app.scene)                              # showing the scene shown: nothing closed
    assert not app.scene.closed
    with pytest.raises(ValueError, match="no screen 'nowhere'"):
        app.go(Switch("nowhere"))
    app.go(Quit())
    assert not app.running


def test_showing_a_scene_kept_under_pops_to_it(app, probe_screen):
    a, b = _b_over_a(app)
    app.switch(a)
    assert app.scene is a and app.under == [] and not a.closed and b.closed == 1


def test_an_update_may_return_its_transition(app, probe_screen):

    class Leaving(Probe):
        ui = type("UI", (), {"update": lambda self, dt: None, "draw_ui": lambda self, s: None,
                             "process_events": lambda self, ev: False})()

        def handle(self, ev):
            pass

        def update(self, dt):
            return Switch("probe", {"name": "next"})

        def draw(self, screen):
            raise AssertionError("a scene that left is not drawn")

    first = Leaving(app)
    app.switch(first)
    app.step(1 / 60, [])
    assert app.scene.name == "next" and first.closed == 1


def test_launcher_to_a_game_to_game_over_and_back_by_the_buttons(app):
    from game.scenes.game_over import GameOverScene
    from game.scenes.launcher import LauncherScene
    from game.scenes.play import PlayScene
    from game.settings import Settings

    launcher = show_launcher(app, Settings(ruleset="doubles", map="prehistoric", seats=["ai:random", "ai:random"],
                                            deployment="automatic", seed=7))
    click(app, launcher.start.rect.center)
    play = app.scene
    assert isinstance(play, PlayScene) and play.state.session.seats == {1: "ai:random", 2: "ai:random"}
    play_fast_until(app, play, lambda: isinstance(app.scene, GameOverScene))
    over = app.scene
    assert isinstance(over, GameOverScene) and play.state.session.game.over
    assert over.play is play and app.under == [play]  # pushed over the game, which is kept
    frame(app)
    click(app, over.b_table.rect.center)               # "Look at the table": the same game screen
    assert app.scene is play and play.state.game_over_seen and app.under == []
    frame(app, n=3)
    assert app.scene is play                           # no second game-over screen
    play.state.game_over_seen = False                        # as if the game had just ended again
    frame(app)
    assert isinstance(app.scene, GameOverScene)
    click(app, app.scene.b_new.rect.center)            # "New game": the launcher, the game closed
    assert isinstance(app.scene, LauncherScene) and app.under == []
    click(app, app.scene.quit_b.rect.center)
    assert not app.running
    pygame.event.clear()


def test_closing_the_window_closes_the_scenes_kept_under_too(app, probe_screen):
    a, b = _b_over_a(app)
    b.request_quit = lambda: True
    app.step(1 / 60, [pygame.event.Event(pygame.QUIT)])
    assert not app.running and a.closed == 1 and b.closed == 1
