"""What a remote seat asks of the server: an undo (the other player answers) and a save on the host's disk."""
from __future__ import annotations

import time

from .link import NotConnected, Refused
from .protocol import Refused as RefusedMsg, SaveAsk, UndoAsk, UndoReply, dump


class RemoteAsks:
    """``RemoteSession``'s undo and save methods."""

    # --- undo and save: asked of the server ---------------------------------------------------
    def undo_target(self) -> int | None:
        g = self.game
        if g is None or not g.decisions or g.decisions[-1][0] != self.seat:
            return None
        return len(g.decisions) - 1

    def undo(self) -> bool:
        """Ask the other player to let this seat take back its last decision. The answer comes
        later (``last_undo``; an agreed undo comes as a whole new state); False: not asked."""
        self.pump()                      # the newest state first: its last decision is the one asked
        if self.undo_target() is None or not self.up:
            return False
        self.last_undo = None
        return self._link.send(dump(UndoAsk(seq=len(self.game.decisions))))

    def undo_and_wait(self, timeout: float = 30.0) -> bool:
        """``undo`` and wait for the answer: True when it was agreed (and the state is back)."""
        if not self.undo():
            return False
        end = time.monotonic() + timeout
        self._replies.clear()
        while time.monotonic() < end:
            self.pump(wait=0.1)
            if any(isinstance(r, RefusedMsg) for r in self._replies):
                return False
            if self.last_undo is not None:
                return self.last_undo.accepted
        return False

    def reply_undo(self, accept: bool) -> bool:
        a = self.undo_asked
        if a is None:
            return False
        self.undo_asked = None
        return self._link.send(dump(UndoReply(seq=a.seq, accept=bool(accept))))

    def save(self, path=None, timeout: float = 15.0) -> str:
        """Ask the host to save the game on its disk (named after ``path``'s stem, if given);
        the file's name there. A seat never holds the whole game (it holds hidden cards), so no
        save is written here."""
        from pathlib import Path

        name = "".join(ch for ch in (Path(path).stem if path else "") if ch.isalnum() or ch in "-_")[:60]
        self.saved = None
        self._replies.clear()
        if not self._link.send(dump(SaveAsk(name=name))):
            raise NotConnected("not connected to the server")
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(wait=0.1)
            for r in self._replies:
                if isinstance(r, RefusedMsg):
                    raise Refused(r.reason)
            if self.saved:
                return self.saved
        raise NotConnected("the host did not say it saved")
