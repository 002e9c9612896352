"""Every question the client asks in a dialog, answered as a hand answers it (issue 58): the
confirming button clicked through ``App.step`` with real presses (``click_element``) does what it
says; Cancel, Esc and the window's close button do nothing. The other player's undo question of a
network game is in ``test_client_remote.py`` (it needs a server)."""
from __future__ import annotations

import pygame
import pytest
from client_helpers import app, click_element, close_window, editor, frame, key, place  # noqa: F401

from engine.data.maps import load_named_map
from game.session import GameSession


def _game(app):
    """A local game against the AI, one decision of side 1's made (something to keep)."""
    from game.scenes.play import PlayScene

    session = GameSession.new("doubles", load_named_map("prehistoric"), (), {1: "human", 2: "ai:random"}, 4)
    scene = PlayScene(app, session, "prehistoric")
    app.switch(scene)
    frame(app)
    return scene


def test_leave_clicked_keeps_the_game_in_the_autosave_and_opens_the_launcher(app):
    from game.scenes.launcher import LauncherScene
    from game.userdirs import autosave_file

    scene = _game(app)
    h = scene.state.session.game.state_hash()
    scene.routing.command("menu")
    dlg = scene.panels.dialogs.leave_dialog
    assert dlg is not None and str(autosave_file()) in dlg.confirmation_text.html_text
    click_element(app, dlg.confirm_button)
    assert isinstance(app.scene, LauncherScene) and autosave_file().is_file()
    assert GameSession.load(autosave_file()).game.state_hash() == h


@pytest.mark.parametrize("way", ["cancel", "esc", "close"])
def test_cancel_esc_or_the_close_button_stay_in_the_game(app, way):
    scene = _game(app)
    scene.routing.command("menu")
    dlg = scene.panels.dialogs.leave_dialog
    if way == "cancel":
        click_element(app, dlg.cancel_button)
    elif way == "esc":
        key(app, pygame.K_ESCAPE)
    else:
        close_window(app, dlg)
    frame(app, n=3)
    assert app.scene is scene and not dlg.alive()
    scene.routing.command("menu")                               # asked again: a new question opens
    assert scene.panels.dialogs.leave_dialog is not None and scene.panels.dialogs.leave_dialog.alive()


def test_the_editors_discard_question_asks_and_each_answer_does_its_own(app):
    """The editor's "Unsaved changes" (Save, Discard, Cancel; and its close button, Esc): only
    Discard leaves with the changes dropped; Cancel, the close button and Esc stay with them."""
    scene = editor(app)
    place(app, scene, "Crate", (20.0, 20.0))
    for way in ("cancel", "close", "esc"):
        frame(app, [pygame.event.Event(pygame.QUIT)])
        d = scene.dialogs.dialog
        assert app.running and d is not None
        if way == "cancel":
            click_element(app, next(b for b, a in d.buttons.items() if a == "Cancel"))
        elif way == "close":
            close_window(app, d.window)
        else:
            key(app, pygame.K_ESCAPE)
        assert app.running and app.scene is scene and scene.state.doc.dirty and scene.dialogs.dialog is None, way
    frame(app, [pygame.event.Event(pygame.QUIT)])
    click_element(app, next(b for b, a in scene.dialogs.dialog.buttons.items() if a == "Discard"))
    assert not app.running
