"""What a remote seat asks of the server: an undo (the other player answers) and a save on the host's
disk. ``RemoteSession`` owns one ``RemoteAsks``: it keeps the asks' answers (``undo_asked``,
``last_undo``, ``saved``; written here only, as the session hands it the server's messages) and
reads the session's game, seat and link."""
from __future__ import annotations

import time

from .link import NotConnected, Refused
from .protocol import Refused as RefusedMsg
from .protocol import SaveAsk, UndoAsk, UndoAsked, UndoReply, UndoResult, dump


class RemoteAsks:
    """One seat's undo and save asks, and the server's answers to them."""

    def __init__(self, session):
        self.session = session
        self.undo_asked: UndoAsked | None = None   # the other player asks to take back (answer: reply_undo)
        self.last_undo: UndoResult | None = None
        self.saved: str | None = None

    # --- the server's answers (the session hands them over as they arrive) ---------------------
    def asked_of_us(self, msg: UndoAsked) -> None:
        self.undo_asked = msg

    def undo_result(self, msg: UndoResult) -> None:
        self.last_undo = msg
        if msg.by != self.session.seat or not msg.accepted:
            self.undo_asked = None

    def saved_as(self, file: str) -> None:
        self.saved = file

    # --- undo and save: asked of the server ---------------------------------------------------
    def undo_target(self) -> int | None:
        s = self.session
        g = s.game
        if g is None or not g.decisions or g.decisions[-1][0] != s.seat:
            return None
        return len(g.decisions) - 1

    def undo(self) -> bool:
        """Ask the other player to let this seat take back its last decision. The answer comes
        later (``last_undo``; an agreed undo comes as a whole new state); False: not asked."""
        s = self.session
        s.pump()                         # the newest state first: its last decision is the one asked
        if self.undo_target() is None or not s.up:
            return False
        self.last_undo = None
        return s._link.send(dump(UndoAsk(seq=len(s.game.decisions))))

    def undo_and_wait(self, timeout: float = 30.0) -> bool:
        """``undo`` and wait for the answer: True when it was agreed (and the state is back)."""
        if not self.undo():
            return False
        s = self.session
        end = time.monotonic() + timeout
        s._replies.clear()
        while time.monotonic() < end:
            s.pump(wait=0.1)
            if any(isinstance(r, RefusedMsg) for r in s._replies):
                return False
            if self.last_undo is not None:
                return self.last_undo.accepted
        return False

    def reply_undo(self, accept: bool) -> bool:
        a = self.undo_asked
        if a is None:
            return False
        self.undo_asked = None
        return self.session._link.send(dump(UndoReply(seq=a.seq, accept=bool(accept))))

    def save(self, path=None, timeout: float = 15.0) -> str:
        """Ask the host to save the game on its disk (named after ``path``'s stem, if given);
        the file's name there. A seat never holds the whole game (it holds hidden cards), so no
        save is written here."""
        from pathlib import Path

        name = "".join(ch for ch in (Path(path).stem if path else "") if ch.isalnum() or ch in "-_")[:60]
        s = self.session
        self.saved = None
        s._replies.clear()
        if not s._link.send(dump(SaveAsk(name=name))):
            raise NotConnected("not connected to the server")
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            s.pump(wait=0.1)
            for r in s._replies:
                if isinstance(r, RefusedMsg):
                    raise Refused(r.reason)
            if self.saved:
                return self.saved
        raise NotConnected("the host did not say it saved")
