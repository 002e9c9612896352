"""Helpers of the network tests (issue 50): a game server on a thread of this process, seats
played by agents through ``RemoteSession``, the server and clients as processes of their own,
and the merge of the clients' records into one list of decisions."""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.core import Choice, Game, StaleDecision, replay
from engine.data.maps import load_named_map
from game.net.host import GameHost
from game.net.link import NotConnected
from game.net.remote import RemoteSession
from game.net.server import GameServer

ROOT = Path(__file__).resolve().parent.parent


class ServerThread:
    """A ``GameServer`` serving ``host`` on 127.0.0.1 from a thread; ``stop`` ends it."""

    def __init__(self, host: GameHost, port: int = 0):
        self.host = host
        self.server = GameServer(host, "127.0.0.1", port, stop_when_over=False)
        ready = threading.Event()
        self.error: BaseException | None = None

        def run():
            try:
                asyncio.run(self.server.run(lambda a: ready.set()))
            except BaseException as err:   # noqa: BLE001 - the test reads it
                self.error = err
                ready.set()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert ready.wait(10), "the server did not start"
        assert self.error is None, self.error
        self.port = self.server.address[1]

    def stop(self) -> None:
        self.server.stop()
        self.thread.join(10)


def seat(port: int, p: int, code: str, agent: str = "random", ai_seed: int = 1, wire: bool = False,
         name: str = "") -> RemoteSession:
    s = RemoteSession(f"127.0.0.1:{port}", p, code, name)
    if wire:
        s.wire = []
    s.wait_ready(10)
    s.agent(agent, ai_seed)
    return s


def play_out(sessions: dict[int, RemoteSession], limit: int = 5000, until=None, timeout: float = 120.0) -> int:
    """The seats' agents answer through the protocol until the game is over (or ``until()``);
    the decisions answered."""
    n = 0
    end = time.monotonic() + timeout
    while n < limit and time.monotonic() < end:
        for s in sessions.values():
            s.pump()
            if s.undo_asked is not None:
                s.reply_undo(True)
        if all(s.game.over and s.up for s in sessions.values()):
            return n
        if until is not None and until():
            return n
        moved = answer_each(sessions)
        n += moved
        if not moved:
            for s in sessions.values():
                s.pump(wait=0.05)
    return n


def answer_each(sessions: dict[int, RemoteSession], timeout: float = 30.0) -> int:
    """Each seat's agent answers the decision the seat holds, through the protocol (``submit``
    waits up to ``timeout`` for the server); the answers sent."""
    n = 0
    for p, s in sessions.items():
        d = s.pending()
        if d is not None and d.player == p and s.up:
            player, choice = s.ai_choose()
            try:
                s.submit(player, choice, d.seq, timeout=timeout)
            except (NotConnected, StaleDecision):   # the server is gone for now, or came back at
                continue                            # another decision: its next state says
            n += 1
    return n


def local_game(setup, agent: str = "random", ai_seed: int = 1) -> Game:
    """The same game played here by the same agents with the same seeds (``GameSession``)."""
    from game.session import GameSession

    s = GameSession(Game(setup), {1: f"ai:{agent}", 2: f"ai:{agent}"}, ai_seed=ai_seed, autosave=False)
    while s.pending() is not None:
        p, c = s.ai_choose()
        s.submit(p, c)
    return s.game


def new_host(ruleset: str, mapname: str, seed: int, options=None, **kw) -> GameHost:
    return GameHost.new(ruleset, load_named_map(mapname), (), dict(options or {}), seed, **kw)


def msg(**d) -> str:
    """A message of the protocol's version 1, as a seat's connection sends it."""
    return json.dumps({"version": 1, **d})


def play_to_an_undo(host: GameHost, choose, seat: int = 1, limit: int = 100) -> None:
    """Play ``host``'s game, its AI thinking when due and ``seat`` answering ``choose(decision)``
    through the protocol, until that seat's last decision may be undone (``limit`` rounds at most)."""
    for _ in range(limit):
        if host.ai_due():
            host.ai_busy = True
            host.ai_done(*host.ai_think())
            continue
        if host.session.undo_target() is not None and host.game.decisions[-1][0] == seat:
            return
        d = host.game.pending()
        host.receive(seat, msg(type="answer", seq=d.seq, choice=choose(d).to_json()))


# --- a window on a seat (the client's tests) -------------------------------------------------------
@pytest.fixture
def served():
    """``served(ruleset, map, seed, options)``: a new host served on a thread, stopped at the end."""
    made = []

    def make(ruleset, mapname, seed, options=None):
        host = new_host(ruleset, mapname, seed, options)
        srv = ServerThread(host)
        made.append(srv)
        return host, srv

    yield make
    for srv in made:
        srv.stop()


def waits(step, done, tries: int = 200) -> bool:
    """``step()`` until ``done()``, at most ``tries`` times (the network answers in its own time);
    the caller asserts what it waited for."""
    for _ in range(tries):
        if done():
            return True
        step()
    return bool(done())


def remote_window(app, port, p, code, name: str = ""):
    """The game screen on seat ``p`` (a ``RemoteSession`` named ``name``), shown, one frame run."""
    from client_helpers import frame

    from game.scenes.play import PlayScene

    s = RemoteSession(f"127.0.0.1:{port}", p, code, name).wait_ready(10)
    s.agent("random", 4)
    scene = PlayScene(app, s)
    app.switch(scene)
    frame(app)
    return scene


def window_turns(app, scene, other, until, limit=400):
    """The window's player answers through the screen (``submit``, a click's path), the other by
    its agent, until ``until()``."""
    from client_helpers import frame

    from game.scenes.passing import PassScene

    for _ in range(limit):
        frame(app)
        assert not isinstance(app.scene, PassScene), "a pass screen in a network game"
        if until():
            return
        if app.scene is scene and scene.state.ctrl is not None:
            _, choice = scene.state.session.ai_choose()
            assert scene.answering.submit(choice)
            continue
        other.pump()
        d = other.pending()
        if d is not None and d.player == other.seat:
            p, c = other.ai_choose()
            other.submit(p, c, d.seq)
        else:
            scene.state.session.pump(wait=0.05)
    raise AssertionError("the game did not get there")


# --- processes ------------------------------------------------------------------------------------
def env(home: Path) -> dict:
    e = dict(os.environ)
    e.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
             SKIRMISH_HOME=str(home), PYTHONPATH=str(ROOT))
    return e


def start_host(tmp: Path, *args: str, port: int = 0) -> tuple[subprocess.Popen, dict]:
    info = tmp / f"info-{time.monotonic_ns()}.json"
    cmd = [sys.executable, "-m", "game.cli", "host", "--port", str(port), "--bind", "127.0.0.1",
           "--info", str(info), "--autosave", str(tmp / "autosave.json"), "--quiet", *args]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env(tmp / "home"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    end = time.monotonic() + 60
    while not info.exists():
        if proc.poll() is not None:
            raise AssertionError(f"the host exited {proc.returncode}: {proc.stderr.read()}")
        assert time.monotonic() < end, "the host did not start"
        time.sleep(0.05)
    return proc, json.loads(info.read_text())


def start_join(tmp: Path, port: int, p: int, code: str, agent: str = "random", record: str | None = None,
               ai_seed: int = 1) -> subprocess.Popen:
    record = record or str(tmp / f"record{p}.json")
    cmd = [sys.executable, "-m", "game.cli", "join", f"127.0.0.1:{port}", "--seat", str(p), "--code", code,
           "--ai", agent, "--ai-seed", str(ai_seed), "--record", record]
    return subprocess.Popen(cmd, cwd=ROOT, env=env(tmp / "home"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def merged_decisions(*records: Path) -> list[tuple[int, Choice]]:
    """The clients' records as one game's decisions, in order; a number answered twice (again
    after the server went back to its autosave) counts its last answer."""
    by_seq: dict[int, dict] = {}
    for r in records:
        if Path(r).exists():
            for d in json.loads(Path(r).read_text())["decisions"]:
                by_seq[d["seq"]] = d
    seqs = sorted(by_seq)
    assert seqs == list(range(len(seqs))), f"decisions missing from the records: {sorted(set(range(max(seqs) + 1)) - set(seqs))[:10]}"
    return [(by_seq[s]["player"], Choice.from_json(by_seq[s]["choice"])) for s in seqs]


def replayed_hash(setup, decisions) -> str:
    return replay(setup, decisions).state_hash()
