"""A network game survives its connections (issue 50): junk over a real socket is refused and the
game goes on; a client that drops (killed) comes back with its code and the game goes on; a
server that stops (killed) starts again from its autosave and the players' clients come back by
themselves. Each game ends with the hash of the same agents' local game: nothing was lost or
played twice. In this process in the default run; with real processes killed (SIGKILL) under
``-m long``."""
from __future__ import annotations

import json
import random
import socket
import time

import pytest
from net_helpers import ServerThread, local_game, new_host, play_out, seat, start_host, start_join

from engine.core.saves import load_game
from game.net.host import GameHost


def _kill_link(session) -> None:
    """The client dies: its socket is cut with no goodbye, and it never reconnects."""
    link = session._link
    link.stopping.set()
    ws = link.ws
    if ws is not None:
        ws.socket.shutdown(socket.SHUT_RDWR)


def test_junk_over_the_socket_is_refused_and_the_game_goes_on():
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    host = new_host("doubles", "prehistoric", 17)
    srv = ServerThread(host)
    uri = f"ws://127.0.0.1:{srv.port}"
    rng = random.Random(3)
    refused = closed = 0
    try:
        ws = connect(uri)
        for i in range(300):
            kind = i % 6
            if kind == 0:
                m = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))       # a binary frame
            elif kind == 1:
                m = "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(0, 60)))
            elif kind == 2:
                m = json.dumps({"version": 1, "type": "answer", "seq": rng.randrange(5), "choice": {"type": "x"}})
            elif kind == 3:
                m = "{" * 10_000
            elif kind == 4:
                m = json.dumps({"version": 1, "type": "answer", "seq": 0, "choice": {"t": "x" * 70_000}})
            else:
                m = json.dumps({"version": 1, "type": "undo_reply", "seq": 0, "accept": True})
            ws.send(m)
            r = json.loads(ws.recv(timeout=5))
            assert r["type"] == "refused" and set(r) == {"version", "type", "reason"}
            refused += 1
        ws.send("x" * 2_000_000)                          # past the frame limit: the library closes
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        closed += 1
        for _ in range(3):                                # wrong codes: refused, closed
            ws = connect(uri)
            ws.send(json.dumps({"version": 1, "type": "hello", "seat": 1, "code": "NOPE99"}))
            assert json.loads(ws.recv(timeout=5))["reason"] == "the code is wrong"
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=5)
            closed += 1
        assert host.exceptions == 0 and len(host.game.decisions) == 0
        s = {p: seat(srv.port, p, host.codes[p]) for p in (1, 2)}
        play_out(s)
        assert host.game.over and host.game.state_hash() == local_game(host.game.setup).state_hash()
    finally:
        srv.stop()
    assert refused == 300 and closed == 4


JUNK_HTTP = [b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"hello\r\n\r\n", b"\x00\xff" * 50,
             b"POST /x HTTP/1.1\r\nContent-Length: 5\r\n\r\nabcde", b"GET / HTTP/1.1\r\n", b"",
             b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"]


def test_junk_http_is_one_warning_line_per_connection_and_no_traceback(caplog):
    """A port scan, a browser or junk that never opens a WebSocket: the library logged each as an
    error with its traceback (24 tracebacks for 15 requests); now one warning line each, saying
    who was refused and why, and the game is untouched."""
    import logging

    host = new_host("doubles", "prehistoric", 17)
    srv = ServerThread(host)
    caplog.set_level(logging.INFO)
    sent = 15
    try:
        for i in range(sent):
            with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as s:
                s.sendall(JUNK_HTTP[i % len(JUNK_HTTP)])
                if i % 3 == 0:
                    s.shutdown(socket.SHUT_WR)
                s.settimeout(2)
                try:
                    s.recv(4096)
                except OSError:
                    pass
        end = time.monotonic() + 10
        while sum(r.getMessage().startswith("refused 127.0.0.1:") for r in caplog.records) < sent:
            assert time.monotonic() < end, [r.getMessage() for r in caplog.records]
            time.sleep(0.05)
        time.sleep(0.3)
    finally:
        srv.stop()
    refused = [r for r in caplog.records if r.getMessage().startswith("refused 127.0.0.1:")]
    assert len(refused) == sent and all(r.levelno == logging.WARNING for r in refused)
    assert all("\n" not in r.getMessage() and "not a WebSocket opening" in r.getMessage() for r in refused)
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], \
        [(r.name, r.getMessage()) for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert "Traceback" not in caplog.text
    assert host.exceptions == 0 and host.conns == {} and len(host.game.decisions) == 0


def test_a_dropped_client_comes_back_and_the_game_goes_on():
    host = new_host("frontier", "town", 23)
    srv = ServerThread(host)
    try:
        s = {p: seat(srv.port, p, host.codes[p]) for p in (1, 2)}
        play_out(s, until=lambda: len(host.game.decisions) >= 40)
        s[1].notices.clear()
        _kill_link(s[2])
        end = time.monotonic() + 10
        while not any(n.text == "waiting for player 2 to come back" for n in s[1].notices):
            s[1].pump(wait=0.1)
            assert time.monotonic() < end, "player 1 was not told it waits for player 2"
        assert host.connected()["2"] is False
        s[2] = seat(srv.port, 2, host.codes[2])           # the player starts the client again
        assert s[2].game.decisions and len(s[2].game.decisions) == len(host.game.decisions)
        end = time.monotonic() + 10
        while not any(n.text == "player 2 is back" for n in s[1].notices):
            s[1].pump(wait=0.1)
            assert time.monotonic() < end
        play_out(s)
        assert host.game.over and host.exceptions == 0
        assert host.game.state_hash() == local_game(host.game.setup).state_hash()
    finally:
        srv.stop()


def test_a_stopped_server_starts_again_from_its_autosave(tmp_path):
    auto = tmp_path / "auto.json"
    host = new_host("counterblast", "outpost", 29, autosave_path=auto)
    srv = ServerThread(host)
    port = srv.port
    s = {p: seat(port, p, host.codes[p]) for p in (1, 2)}
    play_out(s, until=lambda: len(host.game.decisions) >= 60)
    srv.stop()                                            # the server is gone
    host.flush_autosave()
    again = GameHost.load(auto, autosave_path=auto)
    assert again.codes == host.codes and len(again.game.decisions) >= 55
    srv2 = ServerThread(again, port=port)                 # started again with --load, on its port
    try:
        play_out(s)                                       # the clients come back by themselves
        assert again.game.over and again.exceptions == 0
        assert again.game.state_hash() == local_game(again.game.setup).state_hash()
        assert all(x._link.connections >= 2 for x in s.values())
    finally:
        srv2.stop()


# --- real processes, killed ---------------------------------------------------------------------
def _wait_for(path, at_least: int, timeout=120.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if len(json.loads(path.read_text())["decisions"]) >= at_least:
                return
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.05)
    raise AssertionError(f"{path} never reached {at_least} decisions")


def _finish(procs, timeout=240):
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=timeout)
        assert p.returncode == 0, err
        outs.append(out)
    return outs


@pytest.mark.long
def test_a_killed_client_process_comes_back(tmp_path):
    host, info = start_host(tmp_path, "--ruleset", "frontier", "--map", "town", "--seed", "31")
    codes, port = info["codes"], info["port"]
    j1 = start_join(tmp_path, port, 1, codes["1"])
    j2 = start_join(tmp_path, port, 2, codes["2"], record=str(tmp_path / "r2a.json"))
    try:
        _wait_for(tmp_path / "r2a.json", 20)
        j2.kill()                                          # SIGKILL: no goodbye
        j2.wait(10)
        time.sleep(0.5)
        j2 = start_join(tmp_path, port, 2, codes["2"], record=str(tmp_path / "r2b.json"))
        _finish([j1, j2])
        out = _finish([host])[0]
    finally:
        for p in (host, j1, j2):
            if p.poll() is None:
                p.kill()
    final = out.strip().splitlines()[-1].rsplit(" ", 1)[-1]
    g = load_game(tmp_path / "autosave.json")
    assert g.state_hash() == final and g.over
    assert local_game(g.setup).state_hash() == final


@pytest.mark.long
def test_a_killed_server_process_starts_again_from_its_autosave(tmp_path):
    host, info = start_host(tmp_path, "--ruleset", "counterblast", "--map", "outpost", "--seed", "37")
    codes, port = info["codes"], info["port"]
    joins = [start_join(tmp_path, port, p, codes[str(p)]) for p in (1, 2)]
    try:
        _wait_for(tmp_path / "record1.json", 40)
        host.kill()                                        # SIGKILL: the autosave is all that is left
        host.wait(10)
        saved = load_game(tmp_path / "autosave.json")
        assert 0 < len(saved.decisions) < 400
        host, info2 = start_host(tmp_path, "--load", str(tmp_path / "autosave.json"), port=port)
        assert info2["codes"] == codes and info2["port"] == port
        _finish(joins)
        out = _finish([host])[0]
    finally:
        for p in (host, *joins):
            if p.poll() is None:
                p.kill()
    final = out.strip().splitlines()[-1].rsplit(" ", 1)[-1]
    g = load_game(tmp_path / "autosave.json")
    assert g.state_hash() == final and g.over
    assert local_game(g.setup).state_hash() == final
