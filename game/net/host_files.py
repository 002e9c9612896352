"""The host's files: the autosave, written on a thread of its own, and the saves a seat asks for."""
from __future__ import annotations

import json
import logging
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
    """``GameHost``'s autosave and save methods."""

    # --- files -------------------------------------------------------------------------------
    def autosave(self, wait: bool = False) -> None:
        """Keep the game in ``autosave_path``: written on a thread of its own (``_Autosaver``)
        from a snapshot taken now, so the game never waits for the disk; ``wait``: until it is
        written (``flush_autosave``)."""
        if self.autosave_path is None:
            return
        if self._saver is None:
            self._saver = _Autosaver(self.autosave_path)
        g = self.game
        self._saver.put(_Snapshot(g.setup, list(g.decisions), g.state_hash()), self.client_data())
        if wait:
            self.flush_autosave()

    def flush_autosave(self, timeout: float = 30.0) -> bool:
        """Wait until the last snapshot is on disk; False if it could not be written."""
        return True if self._saver is None else self._saver.flush(timeout)

    @property
    def autosave_error(self) -> str | None:
        """Why the last autosave could not be written, or None (it was, or none was tried)."""
        return None if self._saver is None else self._saver.last_error

    def save(self, name: str = "") -> Path:
        from game.userdirs import saves_dir

        folder = self.saves_dir or saves_dir()
        folder.mkdir(parents=True, exist_ok=True)
        setup = self.game.setup
        stem = name or f"{setup.ruleset}-{setup.map.id}-network-{datetime.now():%Y%m%d-%H%M%S}"
        path = folder / f"{stem}.json"
        save_game(self.game, path, self.client_data())
        return path

    def _save(self, conn: int, msg: SaveAsk) -> list[Outgoing]:
        try:
            path = self.save(msg.name)
        except (OSError, GameError) as err:
            return [self._refuse(conn, f"the host could not save: {str(err)[:300]}")]
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
    waiting one, so the disk is never more than one write behind and never slows the game."""

    def __init__(self, path: Path):
        self.path = path
        self.cond = threading.Condition()
        self.job = None
        self.busy = False
        self.last_error: str | None = None       # the reason the last write failed, for the host's words
        self.written = 0
        self.thread = threading.Thread(target=self._run, daemon=True, name="skirmish-autosave")
        self.thread.start()

    def put(self, snap: _Snapshot, client: dict) -> None:
        with self.cond:
            self.job = (snap, client)
            self.cond.notify_all()

    def flush(self, timeout: float) -> bool:
        end = time.monotonic() + timeout
        with self.cond:
            while self.job is not None or self.busy:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
            return self.last_error is None

    def _run(self) -> None:
        from engine.core.saves import to_save, write_atomic

        while True:
            with self.cond:
                while self.job is None:
                    self.cond.wait()
                (snap, client), self.job = self.job, None
                self.busy = True
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
