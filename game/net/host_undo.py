"""The host's undo: a seat asks, the other player (an AI seat agrees) says yes or no (``GameHost``'s part)."""
from __future__ import annotations

from .host_seats import REMOTE, Outgoing, _text, _UndoAsk
from .protocol import UndoAsk, UndoReply


class HostUndo:
    """``GameHost``'s undo methods (the host's doc says how an undo is asked)."""

    # --- undo: the other player is asked ----------------------------------------------------
    def _undo(self, conn: int, seat: int, msg: UndoAsk) -> list[Outgoing]:
        g = self.game
        if self.ai_busy:
            return [self._refuse(conn, "wait: the AI is thinking")]
        if msg.seq != len(g.decisions):
            return [self._refuse(conn, f"stale: you asked at decision #{msg.seq}; {len(g.decisions)} are settled now")]
        if self.undo_ask is not None:
            return [self._refuse(conn, f"player {self.undo_ask.by} has asked for an undo already; wait for the answer")]
        keep = self.session.undo_target()
        if keep is None or not g.decisions or g.decisions[-1][0] != seat:
            return [self._refuse(conn, "nothing of yours to take back: the last decision revealed dice or cards, "
                                       "or was the other side's")]
        others = [p for p in self.seats if p != seat]
        remote = [p for p in others if self.seats[p].kind == REMOTE]
        if not remote:                               # the AI agrees
            return self._do_undo(seat)
        absent = [p for p in remote if self.seats[p].conn is None]
        if absent:
            return [self._refuse(conn, f"player {absent[0]} is not connected to agree to the undo")]
        self.undo_ask = _UndoAsk(seat, msg.seq, keep)
        return [Outgoing(self.seats[p].conn, _text({"type": "undo_asked", "by": seat, "seq": msg.seq, "keep": keep}))
                for p in remote]

    def _undo_reply(self, conn: int, seat: int, msg: UndoReply) -> list[Outgoing]:
        a = self.undo_ask
        if a is None or a.by == seat or msg.seq != a.seq:
            return [self._refuse(conn, "no undo is asked of you")]
        if not msg.accept:
            self.undo_ask = None
            return [Outgoing(c, _text({"type": "undo_result", "accepted": False, "by": a.by,
                                       "reason": f"player {seat} said no"}))
                    for c in (self.seats[a.by].conn, conn) if c is not None]
        return self._do_undo(a.by)

    def _do_undo(self, by: int) -> list[Outgoing]:
        self.undo_ask = None
        if not self.session.undo():
            return [Outgoing(c, _text({"type": "undo_result", "accepted": False, "by": by,
                                       "reason": "it can no longer be taken back"}))
                    for c in [t.conn for t in self.seats.values()] if c is not None]
        self.keep(undo=len(self.game.decisions))     # on disk before any seat is told
        self._changed()
        out = []
        for p, t in self.seats.items():
            if t.conn is not None:
                out.append(self._state_for(p, full=True, by=by, undone=True))
                out.append(Outgoing(t.conn, _text({"type": "undo_result", "accepted": True, "by": by})))
        return out

    def _undo_void(self, why: str) -> list[Outgoing]:
        a, self.undo_ask = self.undo_ask, None
        c = self.seats[a.by].conn
        return [] if c is None else [Outgoing(c, _text({"type": "undo_result", "accepted": False, "by": a.by,
                                                        "reason": why}))]
