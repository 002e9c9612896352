"""``RemoteSession``: a seat of a network game, with the interface the client uses on a
``GameSession`` (``pending``, ``submit``, ``view``, ``seats``, ``version``, ``game``...), so the
screens, the controllers and the agents answer decisions the same way whether the game is
local or remote.

The game it holds (``game``) is a ``WorldGame`` (``engine/core/worlds.py``): the seat's world as
the server last sent it, on which ``pending``, ``check``, the words, the odds, the sight and the
ranges of the seat's own decisions are worked out as in a local game. ``submit`` checks the
answer there first (a refusal costs no round trip), sends it, and waits for the server's new
state (or its refusal, raised as ``Refused``, a ``GameError``); another player's decisions arrive
on their own and are taken in by ``pump`` (the scene calls it every frame; ``take_steps`` gives
what they did, to show).

The connection runs on a thread: it says hello with the seat and its code, reads messages into
a queue, and when the connection drops it connects again (every 0.2 s to 3 s) and says hello
again, so a dropped connection, or a restarted server that loaded its autosave, is only a
pause; the server then sends the whole view again. A wrong code is final (``refused``).
Undo asks the other player (``undo`` sends the request; the answer comes as ``undo_result``);
``save`` asks the host to write a save on its disk (the seat never holds the whole game).
"""
from __future__ import annotations

import json
import logging
import queue
import time
from dataclasses import dataclass

from engine.ai import make_agent
from engine.core import Choice, Decision, GameError
from engine.core.worlds import WorldGame, decode_state, event_from_json
from engine.data.maps import MapFile
from game.names import clean_name, who
from game.session import HUMAN, Step, decision_seed

from .link import NotConnected, Refused, _Link, parse_address
from .protocol import (
    Answer,
    Bye,
    Hello,
    Joined,
    ProtocolError,
    Saved,
    ServerBye,
    StateMsg,
    UndoAsked,
    UndoResult,
    WaitingFor,
    Welcome,
    dump,
    normal_code,
    parse_server,
)
from .protocol import Refused as RefusedMsg
from .remote_asks import RemoteAsks

log = logging.getLogger("skirmish.net")
REMOTE = "remote"


@dataclass
class Notice:
    text: str
    kind: str = "info"       # "info" | "waiting" | "undo" | "error"


class RemoteSession:
    """One seat of a network game (see the module's doc). It owns its ``asks`` (undo and save:
    ``remote_asks.RemoteAsks``), which answer the session's ``undo``, ``reply_undo`` and ``save``."""

    remote = True
    server = None           # the launcher's Host: the server this window's process runs (its thread)

    def __init__(self, address: str, seat: int, code: str, name: str = "", connect: bool = True):
        host, port = parse_address(address)
        self.address = f"{host}:{port}"
        self.seat = seat
        self.code = normal_code(code)
        self.name = clean_name(name)        # what the other seat sees (a name the protocol accepts)
        self.names: dict[int, str] = {}     # the names the seats gave (the host's word), this one's too
        self.seen: set[int] = set()         # seats known to have been at the table (a drop: "come back")
        self.game: WorldGame | None = None
        self.seats: dict[int, str] = {seat: HUMAN, 3 - seat: REMOTE}
        self.eyes = seat
        self.agents: dict = {}
        self.ai_seed = 0
        self.version = 0
        self.connected: dict[int, bool] = {}
        self.up = False                     # the connection is up (and welcomed)
        self.fatal: str | None = None       # why the session cannot go on (a wrong code)
        self.notices: list[Notice] = []     # what the player should be told (waiting for, undo...)
        self.asks = RemoteAsks(self)        # undo and save, and the server's answers to them
        self.messages = 0                   # server messages taken in
        self.wire: list | None = None       # a list: every message as it arrived (the tests read it)
        self._steps: list[Step] = []
        self._arrived = 0                   # states taken in so far (each step's ``arrival``)
        self._inbox: queue.Queue = queue.Queue()
        self._replies: list = []            # refusals and the like, for the one waiting in submit
        self._setup = None
        host_part = f"[{host}]" if ":" in host else host
        hello = dump(Hello(seat=seat, code=self.code, name=self.name))
        self._link = _Link(f"ws://{host_part}:{port}", hello, self._inbox)
        if connect:
            self._link.start()

    # --- undo and save: the session's asks (``RemoteAsks``), under GameSession's names ----------
    undo_asked = property(lambda self: self.asks.undo_asked)
    last_undo = property(lambda self: self.asks.last_undo)
    saved = property(lambda self: self.asks.saved)
    undo_target = property(lambda self: self.asks.undo_target)
    undo = property(lambda self: self.asks.undo)
    undo_and_wait = property(lambda self: self.asks.undo_and_wait)
    reply_undo = property(lambda self: self.asks.reply_undo)
    save = property(lambda self: self.asks.save)

    # --- the connection --------------------------------------------------------------------
    def wait_ready(self, timeout: float = 15.0) -> RemoteSession:
        """Block until the server has welcomed this seat and sent its state; ``Refused`` (a
        wrong code) or ``NotConnected`` (no server answered in ``timeout`` s)."""
        end = time.monotonic() + timeout
        while not self.poll_ready(end, timeout, wait=0.2):
            pass
        return self

    def poll_ready(self, end: float, timeout: float, wait: float = 0.0) -> bool:
        """One look (``wait`` s at most) for the welcome and the first state: True when ready;
        ``Refused`` or ``NotConnected`` (past ``end``, a ``time.monotonic`` instant) as
        ``wait_ready``. A window calls it once a frame so that it never waits on the network."""
        if self.game is not None and self.up:
            return True
        self.pump(wait=min(wait, max(0.0, end - time.monotonic())))
        if self.fatal:
            raise Refused(self.fatal)
        if self.game is not None and self.up:
            return True
        if time.monotonic() > end:
            raise NotConnected(f"no game answered at {self.address} within {timeout:g} s")
        return False

    def close(self) -> None:
        self._link.stop(dump(Bye(reason="leaving")))

    def pump(self, wait: float = 0.0) -> int:
        """Take in what the server sent (``wait`` s for the first message when none is there);
        the number of messages taken in."""
        n = 0
        while True:
            try:
                item = self._inbox.get(timeout=wait) if (wait > 0 and n == 0) else self._inbox.get_nowait()
            except queue.Empty:
                return n
            n += 1
            kind, payload = item
            if kind == "msg":
                self._take(payload)
            elif kind == "down":
                if self.up:
                    self.notices.append(Notice(f"connection lost ({payload}); connecting again", "waiting"))
                self.up = False
                self.version += 1
            elif kind == "fatal":
                self.fatal = payload
                self.up = False
                self.notices.append(Notice(f"refused: {payload}", "error"))
                self.version += 1

    def _take(self, raw) -> None:
        if self.wire is not None:
            self.wire.append(raw)
        try:
            msg = parse_server(raw)
        except ProtocolError as err:
            self.notices.append(Notice(f"a message from the server could not be read: {err}", "error"))
            return
        self.messages += 1
        if isinstance(msg, Welcome):
            self._welcome(msg)
        elif isinstance(msg, StateMsg):
            self._state(msg)
        elif isinstance(msg, RefusedMsg):
            self._replies.append(msg)
            self.notices.append(Notice(f"refused: {msg.reason}", "error"))
        elif isinstance(msg, WaitingFor):
            self.connected[msg.seat] = False
            if msg.joined:
                self.seen.add(msg.seat)
            self.notices.append(Notice(self.waiting_words(msg.seat), "waiting"))
            self.version += 1
        elif isinstance(msg, Joined):
            self.connected[msg.seat] = True
            again = msg.again or msg.seat in self.seen
            self.seen.add(msg.seat)
            if msg.name:
                self.names[msg.seat] = msg.name
            else:
                self.names.pop(msg.seat, None)
            self.notices.append(Notice(f"{who(msg.seat, self.names)} {'is back' if again else 'joined the game'}",
                                       "info"))
            self.version += 1
        elif isinstance(msg, UndoAsked):
            self.asks.asked_of_us(msg)
            self.notices.append(Notice(f"{who(msg.by, self.names)} asks to take back their last decision", "undo"))
            self.version += 1
        elif isinstance(msg, UndoResult):
            self.asks.undo_result(msg)
            self._replies.append(msg)
            self.notices.append(Notice("undo " + ("agreed" if msg.accepted else f"refused: {msg.reason}"), "undo"))
        elif isinstance(msg, Saved):
            self.asks.saved_as(msg.file)
            self._replies.append(msg)
            self.notices.append(Notice(f"the host saved the game as {msg.file}", "info"))
        elif isinstance(msg, ServerBye):
            self.notices.append(Notice(f"the server said goodbye: {msg.reason}", "waiting"))

    def _welcome(self, msg: Welcome) -> None:
        from engine.core import Setup

        if msg.seat != self.seat:
            self.fatal = f"the server gave seat {msg.seat}, not {self.seat}"
            return
        s = msg.setup
        key = json.dumps(s.model_dump(mode="json"), sort_keys=True)
        if self.game is None or self._setup != key:     # a new host may hold another game: start afresh
            mapfile = MapFile.model_validate(s.map)
            self.game = WorldGame(Setup(s.ruleset, mapfile, tuple(s.rosters), dict(s.options), 0), self.seat)
            self._setup = key
        self.seats = {int(p): (HUMAN if int(p) == self.seat else str(k)) for p, k in msg.seats.items()}
        self.names = {int(p): n for p, n in msg.names.items() if n}

    def _state(self, msg: StateMsg) -> None:
        g = self.game
        if g is None:
            return
        state = decode_state(msg.world)
        pending = None if msg.pending is None else (msg.pending.player, msg.pending.kind)
        events = [event_from_json(e.model_dump()) for e in msg.events]
        if msg.full:
            g.update(state, msg.seq, pending, msg.deciders, log=events)
        else:
            before = [p for p, _ in g.decisions]
            g.update(state, msg.seq, pending, before + list(msg.deciders), new_events=events)
        g.served_view = msg.view
        self.connected = {int(p): v for p, v in msg.connected.items()}
        self.seen.update(p for p, on in self.connected.items() if on)
        self.up = True
        self.version += 1
        step = Step(msg.by if msg.by is not None else 0, None, events, msg.by is not None and msg.by != self.seat)
        step.seq = msg.seq
        step.full = msg.full
        step.undone = msg.undone
        self._arrived += 1
        step.arrival = self._arrived
        self._steps.append(step)
        if len(self._steps) > 1000:          # nobody takes them (a headless seat): keep the newest
            del self._steps[:-1000]

    def waiting_words(self, seat: int) -> str:
        """"waiting for Alice (player 2) to come back", or "... to join" for a seat never seen here."""
        return f"waiting for {who(seat, self.names)} to {'come back' if seat in self.seen else 'join'}"

    def take_notices(self) -> list[Notice]:
        """What the player should be told since the last call (waiting for, back, undo...)."""
        out, self.notices = self.notices, []
        return out

    def take_steps(self) -> list[Step]:
        """What changed since the last call (the other player's decisions, an undo, a
        reconnection's whole log), for the screen to show; each ``Step`` has ``seq``, ``full``
        (the log was sent whole: rebuild it) and ``undone``."""
        out, self._steps = self._steps, []
        return out

    # --- who decides, who looks (as GameSession) ---------------------------------------------
    def pending(self) -> Decision | None:
        return None if self.game is None else self.game.pending()

    def is_human(self, player: int | None) -> bool:
        return player == self.seat

    @property
    def humans(self) -> list[int]:
        return [self.seat]

    def viewer(self) -> int:
        return self.seat

    def pass_due(self) -> None:
        return None                  # one seat, one screen: nothing to pass

    def confirm_eyes(self, player: int) -> None:
        pass

    def hidden_differs(self) -> bool:
        return False

    def ai_to_move(self) -> bool:
        return False                 # the other seat's AI (if any) thinks on the server

    def view(self, player: int | None = None) -> dict:
        return self.game.view(self.seat if player is None else player)

    def scoreboard(self):
        return self.game.rules.scoreboard(self.game.state)

    # --- changing the game -----------------------------------------------------------------
    def submit(self, player: int, choice: Choice, seq: int | None = None, timeout: float = 30.0) -> Step:
        """Answer this seat's pending decision through the server: checked here first, then sent;
        returns the server's new state as a ``Step``; ``Refused`` with the server's reason."""
        self.pump()
        d = self.pending()
        if d is None:
            raise GameError("the game is over; no decision is pending")
        self.game.check(player, choice, seq)        # the same refusal as a local game, at once
        mark = self._arrived
        self._replies.clear()
        if not self.up or not self._link.send(dump(Answer(seq=d.seq, choice=choice.to_json()))):
            raise NotConnected("not connected to the server; connecting again")
        return self._await_step(d.seq, timeout, choice, mark)

    def _await_step(self, seq: int, timeout: float, choice=None, mark: int = 0) -> Step:
        """The state the server sent for this seat's answer to decision ``seq`` (one that came
        after ``mark``, the states taken in when it was sent)."""
        end = time.monotonic() + timeout
        while True:
            for i, step in enumerate(self._steps):
                if step.arrival > mark and step.seq > seq and step.player == self.seat and not step.full:
                    del self._steps[i]
                    step.choice = choice
                    return step
            for r in self._replies:
                if isinstance(r, RefusedMsg):
                    self._replies.clear()
                    raise Refused(r.reason)
            if any(step.arrival > mark and step.full for step in self._steps):
                # a whole state since (a reconnection, an undo): it says whether the answer counted
                raise NotConnected("the game was sent again whole; read the decision again")
            if self.fatal or time.monotonic() > end:
                raise NotConnected(self.fatal or f"no answer from the server within {timeout:g} s")
            if not self.up and not self._inbox.qsize():
                # the connection dropped: the answer may or may not have arrived; the state sent
                # on reconnecting says which
                raise NotConnected("the connection dropped; connecting again")
            self.pump(wait=0.1)

    def agent(self, name: str, ai_seed: int = 0):
        """An agent answering this seat's decisions here (``skirmish join --ai``): seeded as a
        local game's (``GameSession``), it sees only this seat's view and samples its worlds from
        this seat's world."""
        self.ai_seed = ai_seed
        agent = make_agent(name, self.seat, ai_seed ^ (self.seat * 0x9E3779B1))
        attach = getattr(agent, "attach", None)
        if attach is not None:
            attach(self.game.table, self.game.rules)
        bind = getattr(agent, "bind_worlds", None)
        if bind is not None:
            bind(lambda rng: self.game.sample_world(self.seat, rng))
        self.agents = {self.seat: agent}
        return agent

    def ai_choose(self) -> tuple[int, Choice]:
        d = self.pending()
        agent = self.agents[self.seat]
        agent.rng.seed(decision_seed(self.ai_seed, d.player, d.seq))
        return d.player, agent.choose(d, self.game.view(d.player))

    def client_data(self) -> dict:
        return {"seats": {str(p): s for p, s in self.seats.items()}, "ai_seed": self.ai_seed}
