"""The host's files: the autosave (written on a thread of its own) with its journal (``host_journal``:
every change synced before a seat is told of it), and the saves a seat asks for. ``GameHost``
owns one ``HostFiles``: it writes ``saver``, ``journal`` and ``journal_error`` (nothing else does)
and reads the host's game and ``client_data``."""
from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from engine.core import GameError, Setup
from engine.core.saves import save_game

from .host_seats import Outgoing, _text
from .protocol import SaveAsk

log = logging.getLogger("skirmish.net")


class HostFiles:
    """One ``GameHost``'s autosave, journal and saves."""

    def __init__(self, host, autosave_path: Path | None = None, saves_dir: Path | None = None):
        self.host = host
        self.autosave_path = Path(autosave_path) if autosave_path else None
        self.saves_dir = Path(saves_dir) if saves_dir else None
        self.saver: _Autosaver | None = None
        self.journal = None                      # the running ``host_journal.Journal``, or None
        self.journal_error: str | None = None   # why the journal's last append or start failed

    def keep(self, undo: int | None = None) -> None:
        """Keep the change just made (the last decision, or an undo that kept ``undo`` decisions):
        its journal line written and synced before this returns, so before any seat is told of
        it (``host_journal``), then the whole game put to the autosave thread (``_Autosaver``),
        so the game never waits for a whole save. With no journal running (none started yet, or
        its last append failed) a new one is started, the game written whole first."""
        if self.autosave_path is None:
            return
        g = self.host.game
        state_hash = g.state_hash()
        j = self.journal
        if j is not None:
            try:
                if undo is None:
                    player, choice = g.decisions[-1]
                    j.decision(len(g.decisions) - 1, player, choice, state_hash)
                else:
                    j.undo(undo, state_hash)
            except (OSError, ValueError) as err:
                self.journal_error = str(err)
                log.error("could not write the journal %s: %s; the game is written whole instead", j.path, err)
                j.close()
                self.journal = None
        if self.journal is None:
            self.start_journal(state_hash)
        else:
            self._put(state_hash)

    def start_journal(self, state_hash: str | None = None) -> bool:
        """Write the game whole (waiting for it), then start a new journal beside it (a new token,
        so an old journal there is never played onto this snapshot); False, with the reason in
        ``autosave_error`` or ``journal_error``, when either could not be written (the next
        change tries again: until then every change is written whole, and waited for)."""
        if self.autosave_path is None:
            return True
        from .host_journal import Journal, journal_path

        if self.journal is not None:
            self.journal.close()
            self.journal = None
        token = secrets.token_hex(8)
        self._put(state_hash or self.host.game.state_hash(), {"token": token, "ops": 0})
        if not self.flush_autosave():
            return False
        try:
            self.journal = Journal.start(journal_path(self.autosave_path), token)
        except (OSError, ValueError) as err:
            self.journal_error = str(err)
            log.error("could not start the journal beside %s: %s", self.autosave_path, err)
            return False
        self.journal_error = None
        return True

    def _put(self, state_hash: str, mark: dict | None = None) -> None:
        """The game as it is now to the autosave thread, marked with the journal lines it holds."""
        if self.saver is None:
            self.saver = _Autosaver(self.autosave_path)
        g = self.host.game
        client = self.host.client_data()
        j = self.journal
        mark = mark or ({"token": j.token, "ops": j.ops} if j is not None else None)
        if mark is not None and isinstance(client.get("net"), dict):
            client["net"]["journal"] = mark
        self.saver.put(_Snapshot(g.setup, list(g.decisions), state_hash), client)

    def flush_autosave(self, timeout: float = 30.0) -> bool:
        """Wait until the last snapshot is on disk; False if it could not be written."""
        return True if self.saver is None else self.saver.flush(timeout)

    @property
    def autosave_error(self) -> str | None:
        """Why the last autosave could not be written, or None (it was, or none was tried)."""
        return None if self.saver is None else self.saver.last_error

    @property
    def keep_error(self) -> str | None:
        """Why the files may not hold the game as it is, or None. With the journal running they
        hold every change, even when the last snapshot failed (an older one is followed by the
        journal's lines); without it (it could not be written) every change is written whole
        and waited for, so the last write's outcome says."""
        if self.journal is not None:
            return None
        return self.autosave_error

    def save(self, name: str = "") -> Path:
        from game.userdirs import saves_dir

        folder = self.saves_dir or saves_dir()
        folder.mkdir(parents=True, exist_ok=True)
        setup = self.host.game.setup
        stem = name or f"{setup.ruleset}-{setup.map.id}-network-{datetime.now():%Y%m%d-%H%M%S}"
        path = folder / f"{stem}.json"
        save_game(self.host.game, path, self.host.client_data())
        return path

    def asked(self, conn: int, msg: SaveAsk) -> list[Outgoing]:
        """A seat's ask to save: the file's name, or the reason it could not be written."""
        try:
            path = self.save(msg.name)
        except (OSError, GameError) as err:
            return [self.host._refuse(conn, f"the host could not save: {str(err)[:300]}")]
        log.info("saved to %s", path)
        return [Outgoing(conn, _text({"type": "saved", "file": path.name}))]


@dataclass
class _Snapshot:
    """What ``to_save`` reads of a game, copied: the setup, the decisions, the state hash."""
    setup: Setup
    decisions: list
    hash: str

    def state_hash(self) -> str:
        return self.hash


class _Autosaver:
    """Writes the latest snapshot to one file on its own thread (atomic: ``save_game``'s
    ``write_atomic``). A snapshot put while one is being written waits; a newer one replaces a
    waiting one, so the disk is never more than one write behind and never slows the game.

    Writes start at most every ``gap`` seconds (``flush`` does not wait for it): the journal
    holds every decision, so a snapshot a second old loses nothing, and a whole save synced to
    the disk after every one of a fast game's decisions held up the journal's own sync (the
    file system commits them together): a legal answer's median went from 2.8 ms to 8-9 ms,
    against 3.5 ms with the gap (docs/performance.md). Between players who take more than a
    second to decide it is still every decision."""

    def __init__(self, path: Path, gap: float = 1.0):
        self.path = path
        self.gap = gap
        self.cond = threading.Condition()
        self.job = None
        self.busy = False
        self.hurry = 0                           # flushes waiting: no gap before the next write
        self.last_error: str | None = None       # the reason the last write failed, for the host's words
        self.written = 0
        self._started = -gap
        self.thread = threading.Thread(target=self._run, daemon=True, name="skirmish-autosave")
        self.thread.start()

    def put(self, snap: _Snapshot, client: dict) -> None:
        with self.cond:
            self.job = (snap, client)
            self.cond.notify_all()

    def flush(self, timeout: float) -> bool:
        end = time.monotonic() + timeout
        with self.cond:
            self.hurry += 1
            self.cond.notify_all()
            try:
                while self.job is not None or self.busy:
                    left = end - time.monotonic()
                    if left <= 0:
                        return False
                    self.cond.wait(left)
                return self.last_error is None
            finally:
                self.hurry -= 1

    def _run(self) -> None:
        from engine.core.saves import to_save, write_atomic

        while True:
            with self.cond:
                while True:
                    due = self._started + self.gap - time.monotonic()
                    if self.job is not None and (due <= 0 or self.hurry):
                        break
                    self.cond.wait(due if self.job is not None else None)
                (snap, client), self.job = self.job, None
                self.busy = True
                self._started = time.monotonic()
            try:
                data = to_save(snap)
                data["client"] = client
                self.path.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(self.path, json.dumps(data, allow_nan=False))
                self.written += 1
                self.last_error = None          # the file holds the game again
            except Exception as err:   # noqa: BLE001 - a failed autosave must not end the game
                self.last_error = str(err)
                log.error("could not autosave to %s: %s", self.path, err)
            finally:
                with self.cond:
                    self.busy = False
                    self.cond.notify_all()
