"""The server's game (issue 50): one authority over one ``Game``, as a plain object with no
network and no pygame in it. ``server.py`` feeds it each connection's messages (``receive``) and
sends what it returns; the tests feed it directly.

- It holds the ``Game`` through a ``GameSession`` (the seats, the AI's seeds, undo), so a remote
  seat is a ``human`` of that session and an AI seat is answered here, by the same agents with
  the same per-decision seeds as in a local game (``ai_due``, ``ai_think``, ``ai_done``).
- Each remote seat has its own code (``new_code``: six characters from ``secrets``), so neither a
  stranger nor the other player can take it. A wrong code is refused with "the code is wrong"
  and nothing else, whatever the seat, and the connection is closed.
- It sends each seat only that seat's view (``Rules.view``), its world (``Rules.redact``: the
  state with nothing hidden from it) and the events it may see (``Event.visible``); another
  seat's decision is only "player N to KIND".
- It accepts an answer only from the seat the pending decision names, at the current decision
  number; anything else (not JSON, not a message, a stale number, another seat's turn, a choice
  the rules refuse) is refused with the reason and changes nothing. ``receive`` never raises:
  an unexpected error is counted (``exceptions``) and refused.
- Every decision and undo is kept before any seat is told of it (``HostFiles.keep``, the host's
  ``files``: a line of
  the journal beside the autosave, written and synced; the whole game in the autosave on a
  thread of its own), and a game loads from any save (``GameHost.load``: the autosave with its
  journal's lines past it played), the codes kept when the save holds them, so a restarted
  server takes its players back where they were; a save it writes loads in hot-seat too (both
  remote seats are ``human`` there). A save whose seats name an agent this build does not
  know is refused (``DataError``: the file, ``client.net.seats.N``, the reason).
- A dropped connection keeps the seat: the other seat is told ``waiting_for``; the player comes
  back with the same code and gets the whole view again (``joined`` to the other, with its name).
- Undo asks the other player (an AI seat agrees: the host's ``undos``, a ``host_undo.UndoBroker``);
  ``save`` writes a save on the host's disk.
"""
from __future__ import annotations

import logging
import secrets
import traceback
from pathlib import Path

from engine.core import Choice, Game, GameError, Setup, replay
from engine.core.worlds import event_to_json, world_of
from game.session import HUMAN, GameSession, parse_seat

from .host_files import HostFiles
from .host_journal import replay_journal
from .host_seats import REMOTE, Outgoing, _Seat, _text, joined, new_code, waiting_for
from .host_undo import UndoBroker
from .protocol import (
    CODE_CHARS,
    Answer,
    Bye,
    Hello,
    ProtocolError,
    SaveAsk,
    UndoAsk,
    UndoReply,
    normal_code,
    parse_client,
)

log = logging.getLogger("skirmish.net")


class GameHost:
    """One game served to its seats. Its parts, each built here and each the only writer of its
    own fields: ``files`` (autosave, journal, saves: ``host_files.HostFiles``) and ``undos`` (an
    undo asked of the other player: ``host_undo.UndoBroker``)."""

    def __init__(self, session: GameSession, seats: dict[int, _Seat], autosave_path: Path | None = None,
                 saves_dir: Path | None = None):
        self.session = session
        self.seats = seats
        self.conns: dict[int, int | None] = {}    # connection -> seat (None: not yet)
        self.exceptions = 0             # unexpected errors while handling a message (the fuzz test counts 0)
        self.ai_busy = False
        self._pending: tuple[int, str, int] | None = None     # (player, kind, seq), set by ``_changed``
        self._frames: dict[int, dict] = {}
        self.files = HostFiles(self, autosave_path, saves_dir)
        self.undos = UndoBroker(self)

    # --- making one ------------------------------------------------------------------------
    @classmethod
    def create(cls, game: Game, seats: dict[int, str], codes: dict[int, str] | None = None, ai_seed: int | None = None,
               autosave_path=None, saves_dir=None) -> GameHost:
        """``seats``: each player "remote" (a player over the network) or an agent ("ai:easy")."""
        kinds = {}
        for p in (1, 2):
            s = str(seats.get(p, REMOTE)).strip()
            kinds[p] = REMOTE if s in (REMOTE, HUMAN) else parse_seat(s)
        codes = dict(codes or {})
        table = {p: _Seat(k, (normal_code(codes[p]) if codes.get(p) else new_code()) if k == REMOTE else None)
                 for p, k in kinds.items()}
        session = GameSession(game, {p: HUMAN if k == REMOTE else k for p, k in kinds.items()},
                              ai_seed=game.setup.seed if ai_seed is None else ai_seed, autosave=False)
        host = cls(session, table, autosave_path, saves_dir)
        host._changed()
        return host

    @classmethod
    def new(cls, ruleset: str, mapfile, rosters=(), options=None, seed: int = 1, seats=None, **kw) -> GameHost:
        game = Game(Setup(ruleset, mapfile, tuple(rosters), dict(options or {}), seed))
        return cls.create(game, seats or {1: REMOTE, 2: REMOTE}, **kw)

    @classmethod
    def load(cls, path, seats=None, new_codes: bool = False, **kw) -> GameHost:
        """A saved game (``DataError`` for a bad save, with the file, the field and the reason: a
        seat naming an agent this build does not know too), with the lines of its journal past
        it played (``host_journal``: the host's autosave is then exactly the game its seats were
        last told about); the seats and codes it was hosted with when it holds them (a network
        save), else both seats remote, with new codes."""
        from engine.core.saves import load_save
        from engine.data.errors import DataError

        game, save = load_save(path)        # one read: the snapshot's game and its journal mark agree
        client = save.client or {}
        net = client.get("net") if isinstance(client.get("net"), dict) else {}
        saved = net.get("seats") if isinstance(net.get("seats"), dict) else {}
        chosen = {}
        for p in (1, 2):
            s = (seats or {}).get(p) or saved.get(str(p)) or REMOTE
            if not isinstance(s, str):
                raise DataError(path, [(f"client.net.seats.{p}", f"{s!r} is not a seat (remote, or ai:AGENT)")])
            if s.strip() not in (REMOTE, HUMAN):
                try:
                    parse_seat(s)
                except ValueError as err:        # an unknown agent, or parameters it refuses
                    raise DataError(path, [(f"client.net.seats.{p}", str(err))]) from None
            chosen[p] = s
        codes = {}
        if not new_codes and isinstance(net.get("codes"), dict):
            for p in (1, 2):
                c = net["codes"].get(str(p))
                if isinstance(c, str) and 4 <= len(c) <= 32 and all(ch in CODE_CHARS for ch in normal_code(c)):
                    codes[p] = normal_code(c)
        ai_seed = client.get("ai_seed")
        if isinstance(ai_seed, bool) or not isinstance(ai_seed, int):
            ai_seed = None
        game = replay_journal(path, game, net.get("journal"))
        return cls.create(game, chosen, codes=codes, ai_seed=ai_seed, **kw)

    # --- what it holds -------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def codes(self) -> dict[int, str]:
        return {p: s.code for p, s in self.seats.items() if s.code}

    def client_data(self) -> dict:
        """A save's ``client`` part: hot-seat reads its seats (a remote seat is a human there),
        a new host reads ``net`` (who played where, the codes)."""
        data = self.session.client_data()
        data["net"] = {"seats": {str(p): s.kind for p, s in self.seats.items()}, "codes": {str(p): c for p, c in
                                                                                        self.codes.items()}}
        return data

    # what the command line (``net_cli``) and the tests read of the files and the undo in flight:
    # the parts' own fields and methods, under the host's old names
    autosave_path = property(lambda self: self.files.autosave_path)
    autosave_error = property(lambda self: self.files.autosave_error)
    journal_error = property(lambda self: self.files.journal_error)
    keep_error = property(lambda self: self.files.keep_error)
    start_journal = property(lambda self: self.files.start_journal)
    flush_autosave = property(lambda self: self.files.flush_autosave)
    save = property(lambda self: self.files.save)
    undo_ask = property(lambda self: self.undos.asked)

    def connected(self) -> dict[str, bool]:
        return {str(p): (s.conn is not None) if s.kind == REMOTE else True for p, s in self.seats.items()}

    def _changed(self) -> None:
        """After any change of the game: what is pending, cached, so that refusals and a joining
        seat never need the game while an agent thinks on another thread."""
        d = self.game.pending()
        self._pending = None if d is None else (d.player, d.kind, d.seq)
        self._frames = {p: self._frame(p) for p in self.seats}

    def _frame(self, p: int) -> dict:
        view = self.game.view(p)
        view.pop("log", None)               # the log travels as events, once each
        return {"view": view, "world": world_of(self.game, p),
                "pending": None if self._pending is None else {"player": self._pending[0], "kind": self._pending[1]}}

    # --- connections ---------------------------------------------------------------------
    def connect(self, conn: int) -> list[Outgoing]:
        self.conns[conn] = None
        return []

    def disconnect(self, conn: int) -> list[Outgoing]:
        seat = self.conns.pop(conn, None)
        if seat is None or self.seats[seat].conn != conn:
            return []
        self.seats[seat].conn = None
        out = []
        if self.undos.asked is not None:
            out += self.undos.void(f"player {seat} left")
        out += self._to_others(seat, waiting_for(seat, self.seats[seat]))
        log.info("player %d disconnected", seat)
        return out

    def receive(self, conn: int, raw) -> list[Outgoing]:
        """One message from a connection: what to send (and to whom) in return. Never raises."""
        if conn not in self.conns:
            self.conns[conn] = None
        try:
            msg = parse_client(raw)
        except ProtocolError as err:
            return [self._refuse(conn, str(err))]
        try:
            return self._handle(conn, msg)
        except Exception:   # noqa: BLE001 - never a server down for one message
            self.exceptions += 1
            log.error("a message could not be handled:\n%s", traceback.format_exc())
            return [self._refuse(conn, "the server could not handle that message (nothing changed)")]

    def _refuse(self, conn: int, reason: str, close: bool = False) -> Outgoing:
        seat = self.conns.get(conn)
        d = {"type": "refused", "reason": reason}
        if seat is not None and self._pending is not None:     # only a seated player learns the number
            d["seq"] = self._pending[2]
        return Outgoing(conn, _text(d), close)

    def _handle(self, conn: int, msg) -> list[Outgoing]:
        seat = self.conns.get(conn)
        if isinstance(msg, Hello):
            return self._hello(conn, msg)
        if seat is None:
            if isinstance(msg, Bye):
                return [Outgoing(conn, _text({"type": "bye", "reason": "goodbye"}), True)]
            return [self._refuse(conn, 'say hello first: {"type": "hello", "seat": N, "code": "..."}')]
        if isinstance(msg, Answer):
            return self._answer(conn, seat, msg)
        if isinstance(msg, UndoAsk):
            return self.undos.ask(conn, seat, msg)
        if isinstance(msg, UndoReply):
            return self.undos.reply(conn, seat, msg)
        if isinstance(msg, SaveAsk):
            return self.files.asked(conn, msg)
        if isinstance(msg, Bye):
            out = [Outgoing(conn, _text({"type": "bye", "reason": "goodbye"}), True)]
            return out + self.disconnect(conn)
        return [self._refuse(conn, "not a message this server answers")]

    def _hello(self, conn: int, msg: Hello) -> list[Outgoing]:
        if self.conns.get(conn) is not None:
            return [self._refuse(conn, f"this connection already holds seat {self.conns[conn]}")]
        s = self.seats.get(msg.seat)
        given = normal_code(msg.code)
        ok = s is not None and s.code is not None and secrets.compare_digest(given.encode(), s.code.encode())
        if not ok:
            return [self._refuse(conn, "the code is wrong", close=True)]
        out = []
        old = s.conn
        if old is not None and old != conn:       # the seat's code again: the newer connection takes it
            self.conns.pop(old, None)
            out.append(Outgoing(old, _text({"type": "bye", "reason": "another connection took this seat with its code"}),
                                True))
        back = s.joined and old is None
        s.conn, s.joined, s.name = conn, True, msg.name
        self.conns[conn] = msg.seat
        g = self.game
        setup = g.setup
        out.append(Outgoing(conn, _text({
            "type": "welcome", "seat": msg.seat,
            "setup": {"ruleset": setup.ruleset, "map": setup.map.model_dump(mode="json", exclude_none=True),
                      "rosters": list(setup.rosters), "options": dict(setup.options)},
            "seats": {str(p): t.kind for p, t in self.seats.items()},
            "names": {str(p): t.name for p, t in self.seats.items() if t.name}})))
        out.append(self._state_for(msg.seat, full=True))
        for p, t in self.seats.items():          # who this player is waiting for
            if p != msg.seat and t.kind == REMOTE and t.conn is None:
                out.append(Outgoing(conn, _text(waiting_for(p, t))))
        out += self._to_others(msg.seat, joined(msg.seat, s, back))      # its name, first time or back
        log.info("player %d connected", msg.seat)
        return out

    # --- the game moving on --------------------------------------------------------------------
    def _answer(self, conn: int, seat: int, msg: Answer) -> list[Outgoing]:
        if self._pending is None:
            return [self._refuse(conn, "the game is over; no decision is pending")]
        player, kind, seq = self._pending
        if msg.seq != seq:
            return [self._refuse(conn, f"stale: an answer to decision #{msg.seq}; decision #{seq} is pending")]
        if player != seat:
            return [self._refuse(conn, f"not your decision: decision #{seq} is player {player}'s")]
        if self.ai_busy:             # (cannot happen: the AI answers only its own seat's decisions)
            return [self._refuse(conn, "wait: the AI is thinking")]
        try:
            choice = Choice.from_json(msg.choice)
        except (ValueError, TypeError, RecursionError) as err:
            return [self._refuse(conn, f"not a choice: {str(err)[:300]}")]
        try:
            self.session.submit(seat, choice, seq)
        except GameError as err:
            return [self._refuse(conn, str(err)[:2000])]
        return self._after_decision(seat)

    def _after_decision(self, by: int) -> list[Outgoing]:
        out = []
        if self.undos.asked is not None:
            out += self.undos.void("the game went on")
        self.files.keep()              # on disk (the journal's line synced) before any seat is told
        self._changed()
        for p in self.seats:
            if self.seats[p].conn is not None:
                out.append(self._state_for(p, by=by))
        if self._pending is None:
            log.info("game over: %s; state hash %s", self.game.result(), self.game.state_hash())
        return out

    def _state_for(self, p: int, full: bool = False, by: int | None = None, undone: bool = False) -> Outgoing:
        s = self.seats[p]
        g = self.game
        if full:
            s.sent_seq = s.sent_log = 0
        events = [event_to_json(e) for e in g.log[s.sent_log:] if e.visible(p)]
        deciders = [q for q, _ in g.decisions[s.sent_seq:]]
        s.sent_log, s.sent_seq = len(g.log), len(g.decisions)
        frame = self._frames[p]
        d = {"type": "state", "seq": len(g.decisions), **frame, "deciders": deciders, "events": events,
             "full": full, "connected": self.connected(), "by": by, "undone": undone}
        return Outgoing(s.conn, _text(d))

    def _to_others(self, seat: int, d: dict) -> list[Outgoing]:
        return [Outgoing(t.conn, _text(d)) for p, t in self.seats.items() if p != seat and t.conn is not None]

    # --- the AI seats ----------------------------------------------------------------------
    def ai_due(self) -> tuple[int, int] | None:
        """(player, seq) when an AI seat is to decide and nobody thinks yet."""
        if self._pending is None or self.ai_busy:
            return None
        player, _, seq = self._pending
        return (player, seq) if self.seats[player].kind != REMOTE else None

    def ai_think(self) -> tuple[int, int, Choice]:
        """The agent's answer to the pending decision (may run on a thread: it reads the game)."""
        d = self.game.pending()
        player, choice = self.session.ai_choose()
        return player, d.seq, choice

    def ai_done(self, player: int, seq: int, choice: Choice) -> list[Outgoing]:
        self.ai_busy = False
        if self._pending is None or self._pending[2] != seq or self._pending[0] != player:
            return []
        try:
            self.session.submit(player, choice, seq)
        except GameError as err:
            self.exceptions += 1
            log.error("the AI's answer was refused: %s", err)
            return []
        return self._after_decision(player)


def rebuilt(host: GameHost) -> Game:
    """The host's game replayed from its setup and decisions (a check the tests use)."""
    g = host.game
    return replay(g.setup, g.decisions, table=g.table)
