"""The client's game screen on a seat of a network game (issue 50): the same screen, driven by a
``RemoteSession`` instead of a ``GameSession``. The other seat is a session of this process
played by an agent. No pass screen ever comes (each window shows one player), the other
player's decisions show in the log as they arrive, undo asks the other player both ways, and a
dropped player is waited for."""
from __future__ import annotations

import time

import pygame
from client_helpers import app_fixture, frame, key
from net_helpers import remote_window as _window  # noqa: F401
from net_helpers import seat, served, waits  # noqa: F401 - served: a fixture the tests take
from net_helpers import window_turns as _turns

app = app_fixture(close_scene=True)


def test_frontiers_first_two_turns_in_a_window_with_no_pass_screen(app, served):
    host, srv = served("frontier", "town", 44)
    scene = _window(app, srv.port, 1, host.codes[1])
    other = seat(srv.port, 2, host.codes[2], ai_seed=9)
    hands = []

    def done():
        if scene.state.view["cards"]["1"]["hand"]:
            hands.append(list(scene.state.view["cards"]["1"]["hand"]))
        assert scene.state.view["cards"]["2"]["hand"] is None         # never the other player's hand
        return scene.state.view["turn"] >= 3

    _turns(app, scene, other, done)
    assert hands and scene.state.viewer == 1
    # every line the window's player may read is in its log, the other player's decisions too
    mine = {e.text for e in host.game.log if e.visible(1)}
    assert mine <= set(scene.state.log.texts)
    assert any(not e.visible(1) for e in host.game.log)          # (there were lines it may not read)
    assert not {e.text for e in host.game.log if not e.visible(1)} - mine & set(scene.state.log.texts)
    assert not app.crashes and host.exceptions == 0
    other.close()


def test_undo_asks_the_other_player_both_ways(app, served):
    host, srv = served("counterblast", "outpost", 5, {"deployment": "alternate"})
    scene = _window(app, srv.port, 1, host.codes[1])
    other = seat(srv.port, 2, host.codes[2])
    # play until the window's player may take back its last decision, then Ctrl+Z
    _turns(app, scene, other, lambda: host.session.undo_target() is not None and host.game.decisions[-1][0] == 1)
    n = len(host.game.decisions)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    waits(lambda: other.pump(wait=0.02), lambda: other.undo_asked is not None, 100)
    assert other.undo_asked is not None and other.undo_asked.by == 1
    other.reply_undo(True)
    waits(lambda: frame(app), lambda: len(scene.state.session.game.decisions) == n - 1, 100)
    assert len(host.game.decisions) == n - 1 and len(scene.state.session.game.decisions) == n - 1
    # now the other asks: the window shows the question; Allow takes it back
    _turns(app, scene, other, lambda: host.session.undo_target() is not None and host.game.decisions[-1][0] == 2)
    n = len(host.game.decisions)
    # the other's copy must have its own last decision first
    waits(lambda: other.pump(wait=0.02), lambda: len(other.game.decisions) == n, 100)
    assert other.undo()
    waits(lambda: frame(app), lambda: scene.panels.dialogs.undo_dialog is not None, 100)
    assert scene.panels.dialogs.undo_dialog is not None
    scene.routing.command("undo reply", True)
    waits(lambda: (frame(app), other.pump()), lambda: len(host.game.decisions) == n - 1, 100)
    assert len(host.game.decisions) == n - 1
    assert not app.crashes and host.exceptions == 0
    other.close()


def test_a_dropped_player_is_waited_for(app, served):
    host, srv = served("doubles", "prehistoric", 3)
    scene = _window(app, srv.port, 1, host.codes[1])
    other = seat(srv.port, 2, host.codes[2])
    frame(app, n=3)
    other.close()
    waits(lambda: (frame(app), scene.state.session.pump(wait=0.01), frame(app)),
          lambda: scene.state.message and "waiting for player 2" in scene.state.message[0])
    assert scene.state.message and "waiting for player 2" in scene.state.message[0]
    # the message fades; the standing line stays until player 2 is back
    from game.play.frame import net_banner
    scene.state.message = None
    frame(app, n=3)
    assert "waiting for player 2" in (net_banner(scene.state.session, 1) or "")
    back = seat(srv.port, 2, host.codes[2])
    waits(lambda: (frame(app), scene.state.session.pump(wait=0.01), back.pump()),
          lambda: net_banner(scene.state.session, 1) is None)
    assert net_banner(scene.state.session, 1) is None
    assert not app.crashes
    back.close()


# --- the launcher's Host and Join -------------------------------------------------------------
def _launcher(app):
    from game.kit.transitions import Switch
    app.go(Switch("launcher"))
    frame(app, n=2)
    return app.scene


def test_the_launchers_host_serves_the_game_and_plays_side_1(app):
    from client_helpers import click

    from game.scenes.play import PlayScene

    sc = _launcher(app)
    sc.settings.ruleset, sc.settings.map = "doubles", "prehistoric"
    sc.settings.seats = ["human", "human"]                 # side 2: a player on another machine
    sc.form.rebuild()
    click(app, sc.host_b.rect.center)
    frame(app, n=2)
    assert isinstance(app.scene, PlayScene) and app.scene.state.session.remote
    s = app.scene.state.session
    host = s.server.host
    assert 2 in host.codes and any(host.codes[2] in t for t in app.scene.state.log.texts)   # the code is shown
    other = seat(s.server.address[1], 2, host.codes[2])                              # player 2 joins
    s.agent("random", 4)                                  # (the test's hand for side 1)
    _turns(app, app.scene, other, lambda: len(host.game.decisions) >= 12)
    assert not app.crashes and host.exceptions == 0
    other.close()
    s.close()
    s.server.stop()


def test_join_with_no_host_keeps_the_window_going_and_says_so(app, monkeypatch):
    """No host at the address: frames keep coming while it tries (the window never freezes), and
    after the wait the dialog says no game answered; Cancel then closes it."""
    import socket

    from client_helpers import click

    import game.launch.joining as joining

    monkeypatch.setattr(joining, "JOIN_WAIT", 1.0)
    with socket.socket() as s:                    # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    sc = _launcher(app)
    click(app, sc.join_b.rect.center)
    dlg = sc.join.dialog
    dlg.entries["address"].set_text(f"127.0.0.1:{port}")
    dlg.entries["seat"].set_text("1")
    dlg.entries["code"].set_text("ABC123")
    click(app, dlg.join_b.rect.center)
    start, frames = time.monotonic(), 0
    while "no game answered" not in dlg.problem.text and time.monotonic() - start < 10:
        t0 = time.monotonic()
        frame(app)
        assert time.monotonic() - t0 < 0.5, "a frame waited on the network"
        frames += 1
        time.sleep(0.01)
    assert "no game answered" in dlg.problem.text and frames > 10
    click(app, dlg.cancel_b.rect.center)
    assert sc.join is None and app.scene is sc


def test_the_launchers_join_opens_the_seat(app, served):
    from client_helpers import click

    from game.scenes.play import PlayScene

    host, srv = served("frontier", "town", 8)
    sc = _launcher(app)
    click(app, sc.join_b.rect.center)
    assert sc.join is not None
    dlg = sc.join.dialog
    dlg.entries["address"].set_text(f"127.0.0.1:{srv.port}")
    dlg.entries["seat"].set_text("2")
    dlg.entries["code"].set_text("WRONG1")
    click(app, dlg.join_b.rect.center)
    assert "connecting" in dlg.problem.text                    # the window goes on while it connects
    waits(lambda: (frame(app), time.sleep(0.02)), lambda: "the code is wrong" in dlg.problem.text)
    assert "the code is wrong" in dlg.problem.text and sc.join.dialog is dlg     # said in the dialog
    dlg.entries["code"].set_text(host.codes[2].lower())
    click(app, dlg.join_b.rect.center)
    waits(lambda: (frame(app), time.sleep(0.02)), lambda: isinstance(app.scene, PlayScene))
    assert isinstance(app.scene, PlayScene) and app.scene.state.session.seat == 2 and app.scene.state.viewer == 2
    assert not app.crashes
    app.scene.state.session.close()


# --- the undo question, answered with the mouse and the keys (issue 58) --------------------------
def _asked(app, scene, other, host):
    """The other seat asks to take back its last decision; the window's question opens."""
    from client_helpers import click_element  # noqa: F401  (the callers click it)

    n = len(host.game.decisions)
    waits(lambda: other.pump(wait=0.02), lambda: len(other.game.decisions) == n, 100)
    assert other.undo()
    waits(lambda: frame(app), lambda: scene.panels.dialogs.undo_dialog is not None, 100)
    dlg = scene.panels.dialogs.undo_dialog
    assert dlg is not None and dlg.alive()
    return n, dlg


def _refused(app, scene, other, host, n):
    """The other seat hears "no" and nothing was taken back (nor is the question asked again)."""
    waits(lambda: (frame(app), other.pump(wait=0.02)), lambda: other.last_undo is not None, 100)
    assert other.last_undo is not None and not other.last_undo.accepted
    assert "player 1 said no" in other.last_undo.reason
    assert len(host.game.decisions) == n
    frame(app, n=3)
    assert scene.panels.dialogs.undo_dialog is None and host.undo_ask is None


def test_allow_takes_the_decision_back_and_cancel_esc_or_close_refuse(app, served):
    """Issue 58: Allow clicked through ``App.step`` (real presses, pygame_gui's own events) used
    to be read as a refusal: the dialog closed (pygame_gui kills it as it posts the confirmation)
    before its confirmation was handled. Only Cancel, Esc and the window's close button refuse."""
    from client_helpers import click_element, close_window

    host, srv = served("counterblast", "outpost", 5, {"deployment": "alternate"})
    scene = _window(app, srv.port, 1, host.codes[1])
    other = seat(srv.port, 2, host.codes[2])
    _turns(app, scene, other, lambda: host.session.undo_target() is not None and host.game.decisions[-1][0] == 2)
    n, dlg = _asked(app, scene, other, host)
    other.asks.last_undo = None
    click_element(app, dlg.confirm_button)
    waits(lambda: (frame(app), other.pump(wait=0.02)), lambda: other.last_undo is not None, 100)
    assert other.last_undo is not None and other.last_undo.accepted, other.last_undo
    assert len(host.game.decisions) == n - 1
    waits(lambda: frame(app), lambda: len(scene.state.session.game.decisions) == n - 1, 100)
    assert len(scene.state.session.game.decisions) == n - 1 and scene.panels.dialogs.undo_dialog is None
    # the other player decides again: now every other way out of the question refuses
    _turns(app, scene, other, lambda: host.session.undo_target() is not None and host.game.decisions[-1][0] == 2)
    n, dlg = _asked(app, scene, other, host)
    frame(app, [pygame.event.Event(pygame.VIDEORESIZE, w=1300, h=760, size=(1300, 760))], n=3)
    assert scene.panels.dialogs.undo_dialog is not None and scene.panels.dialogs.undo_dialog is not dlg   # asked again
    assert host.undo_ask is not None and other.last_undo is None        # a new layout is no answer
    dlg = scene.panels.dialogs.undo_dialog
    click_element(app, dlg.cancel_button)
    _refused(app, scene, other, host, n)
    n, dlg = _asked(app, scene, other, host)
    close_window(app, dlg)
    _refused(app, scene, other, host, n)
    n, dlg = _asked(app, scene, other, host)
    key(app, pygame.K_ESCAPE)
    assert not dlg.alive()
    _refused(app, scene, other, host, n)
    assert not app.crashes and host.exceptions == 0
    other.close()
