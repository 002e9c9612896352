"""The names players give at join reach the other seat's screen (issue 58): its header, log lines,
hover cards, score titles, prompt, the undo question and the window's title; a seat never at the
table is waited for "to join", a dropped one "to come back"; Leave on a network seat says the
host keeps the game and how to come back, not a local autosave."""
from __future__ import annotations

import re

import pygame
from client_helpers import app_fixture, click_element, frame
from net_helpers import remote_window, seat, served, waits, window_turns  # noqa: F401

app = app_fixture(close_scene=True)

# an odd name, as a hostile client could give one: markup, a regex template, a non-Latin letter
ODD = "<b>Al</b> \\1 $& Zoë"


def _shown_log(scene) -> list[str]:
    return [scene.state.log.shown(i) for i in range(len(scene.state.log.texts))]


def test_the_other_seats_name_reaches_header_log_cards_prompt_and_title(app, served):
    from game.play.frame import net_banner
    from game.ui.status import status_line

    host, srv = served("counterblast", "outpost", 5, {"deployment": "alternate"})
    scene = remote_window(app, srv.port, 1, host.codes[1], name="Bob")
    frame(app, n=2)
    # before seat 2 ever connected: waited for "to join" (it never left)
    assert net_banner(scene.state.session, 1) == "waiting for player 2 to join (the game is kept on the host)"
    assert pygame.display.get_caption()[0] == "Skirmish — Counterblast on Kessler Station — seat 1 (Bob)"
    other = seat(srv.port, 2, host.codes[2], name=ODD)
    waits(lambda: (frame(app), scene.state.session.pump(wait=0.01)), lambda: scene.state.names.get(2) == ODD)
    assert scene.state.names == {1: "you", 2: ODD} and net_banner(scene.state.session, 1) is None
    assert other.names == {1: "Bob", 2: ODD}                      # (the other window knows Bob)
    # play until the log holds lines of player 2's, then read them as shown
    window_turns(app, scene, other, lambda: sum("Player 2" in t for t in scene.state.log.texts) >= 2
                 and scene.state.decision is not None and scene.state.decision.player == 2)
    raw = [t for t in scene.state.log.texts if re.search(r"\b[Pp]layer 2\b", t)]
    shown = _shown_log(scene)
    assert raw and not any(re.search(r"(?<!\()\b[Pp]layer 2\b", t) for t in shown), shown   # (a name's "(player 2)" stays)
    assert sum(ODD in t for t in shown) >= len(raw)
    assert f"{ODD} (player 2) joined the game" in shown
    # the header's words, a hover card of one of seat 2's models, the score's title, the prompt
    assert ODD in status_line(scene.state.view, scene.state.names)[1]
    theirs = next(p for p in scene.state.pieces if p["player"] == 2)
    assert scene.overlays._piece_lines(theirs)[0].endswith(f"({ODD})")
    assert ODD in scene.panels.score.titles[2]
    frame(app, n=2)
    assert scene.state.prompt.html_text.startswith(f"{ODD}".replace("<", "&lt;"))
    # the other window's title names its own seat and player
    assert scene.caption() == "Skirmish — Counterblast on Kessler Station — seat 1 (Bob)"
    # seat 2 drops: now it is waited for to come back, by its name
    other.close()
    waits(lambda: (frame(app), scene.state.session.pump(wait=0.01)), lambda: net_banner(scene.state.session, 1) is not None)
    assert net_banner(scene.state.session, 1) == f"waiting for {ODD} (player 2) to come back (the game is kept on the host)"
    assert not app.crashes and host.exceptions == 0


def test_the_undo_question_names_the_asker(app, served):
    host, srv = served("counterblast", "outpost", 5, {"deployment": "alternate"})
    scene = remote_window(app, srv.port, 1, host.codes[1], name="Bob")
    other = seat(srv.port, 2, host.codes[2], name=ODD)
    window_turns(app, scene, other, lambda: host.session.undo_target() is not None and host.game.decisions[-1][0] == 2)
    n = len(host.game.decisions)
    waits(lambda: other.pump(wait=0.02), lambda: len(other.game.decisions) == n, 100)
    assert other.undo()
    waits(lambda: frame(app), lambda: scene.panels.dialogs.undo_dialog is not None, 100)
    dlg = scene.panels.dialogs.undo_dialog
    text = dlg.confirmation_text.html_text
    assert text.startswith("&lt;b&gt;Al&lt;/b&gt; \\1 $&amp; Zoë (player 2) asks to take back"), text
    click_element(app, dlg.cancel_button)
    waits(lambda: (frame(app), other.pump(wait=0.02)), lambda: other.last_undo is not None, 100)
    assert other.last_undo is not None and not other.last_undo.accepted and len(host.game.decisions) == n
    waits(lambda: frame(app), lambda: scene.state.message and "undo refused" in scene.state.message[0], 100)
    assert scene.state.message[0] == "undo refused: Bob said no"          # the host's words, the seat named
    assert not app.crashes and host.exceptions == 0
    other.close()


def test_leave_on_a_network_seat_says_the_host_keeps_the_game_and_how_to_come_back(app, served):
    from game.scenes.launcher import LauncherScene
    from game.userdirs import autosave_file

    host, srv = served("doubles", "prehistoric", 3)
    scene = remote_window(app, srv.port, 2, host.codes[2], name="Alice")
    assert pygame.display.get_caption()[0] == "Skirmish — Doubles on The Ford of Bones — seat 2 (Alice)"
    scene.routing.command("menu")
    dlg = scene.panels.dialogs.leave_dialog
    text = dlg.confirmation_text.html_text
    assert "host keeps the game" in text and f"code {host.codes[2]}" in text and "seat 2" in text, text
    assert f"127.0.0.1:{srv.port}" in text
    assert "autosave" not in text and "Continue" not in text, text
    n = len(host.game.decisions)
    click_element(app, dlg.confirm_button)
    assert isinstance(app.scene, LauncherScene) and not autosave_file().exists()
    assert pygame.display.get_caption()[0] == "Skirmish"
    waits(lambda: time_step(), lambda: host.seats[2].conn is None)
    assert host.seats[2].conn is None and len(host.game.decisions) == n      # the host keeps it, as it was
    back = seat(srv.port, 2, host.codes[2])                                    # and the code takes it back
    assert back.game is not None and len(back.game.decisions) == n
    back.close()


def time_step():
    import time
    time.sleep(0.02)


def test_the_launchers_join_sends_the_name_given_and_remembers_it(app, served):
    from client_helpers import click

    from game.kit.transitions import Switch
    from game.scenes.play import PlayScene
    from game.settings import Settings

    host, srv = served("frontier", "town", 8)
    app.go(Switch("launcher"))
    frame(app, n=2)
    sc = app.scene
    click(app, sc.join_b.rect.center)
    dlg = sc.join.dialog
    assert dlg.entries["name"].get_text() == ""
    dlg.entries["address"].set_text(f"127.0.0.1:{srv.port}")
    dlg.entries["seat"].set_text("2")
    dlg.entries["code"].set_text(host.codes[2])
    dlg.entries["name"].set_text("  Alice\t ")
    click_element(app, dlg.join_b)
    waits(lambda: (frame(app), time_step()), lambda: isinstance(app.scene, PlayScene))
    assert isinstance(app.scene, PlayScene) and host.seats[2].name == "Alice"
    assert Settings.load().player_name == "Alice"
    frame(app)
    assert pygame.display.get_caption()[0] == "Skirmish — Last Hope Frontier on Dry Gulch — seat 2 (Alice)"
    app.scene.routing.command("menu")
    click_element(app, app.scene.panels.dialogs.leave_dialog.confirm_button)
    click(app, app.scene.join_b.rect.center)                    # the next Join offers the name again
    assert app.scene.join.dialog.entries["name"].get_text() == "Alice"
