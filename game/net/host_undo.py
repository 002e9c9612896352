"""The host's undo: a seat asks, the other player (an AI seat agrees) says yes or no. ``GameHost``
owns one ``UndoBroker``: it keeps the ask in flight (``asked``, written here only) and reads the
host's seats, session and files."""
from __future__ import annotations

from .host_seats import REMOTE, Outgoing, _text, _UndoAsk
from .protocol import UndoAsk, UndoReply


class UndoBroker:
    """The undo asks of one ``GameHost`` (the host's doc says how an undo is asked)."""

    def __init__(self, host):
        self.host = host
        self.asked: _UndoAsk | None = None     # the ask waiting for the other player's answer

    def ask(self, conn: int, seat: int, msg: UndoAsk) -> list[Outgoing]:
        h = self.host
        g = h.game
        if h.ai_busy:
            return [h._refuse(conn, "wait: the AI is thinking")]
        if msg.seq != len(g.decisions):
            return [h._refuse(conn, f"stale: you asked at decision #{msg.seq}; {len(g.decisions)} are settled now")]
        if self.asked is not None:
            return [h._refuse(conn, f"player {self.asked.by} has asked for an undo already; wait for the answer")]
        keep = h.session.undo_target()
        if keep is None or not g.decisions or g.decisions[-1][0] != seat:
            return [h._refuse(conn, "nothing of yours to take back: the last decision revealed dice or cards, "
                                       "or was the other side's")]
        others = [p for p in h.seats if p != seat]
        remote = [p for p in others if h.seats[p].kind == REMOTE]
        if not remote:                               # the AI agrees
            return self.grant(seat)
        absent = [p for p in remote if h.seats[p].conn is None]
        if absent:
            return [h._refuse(conn, f"player {absent[0]} is not connected to agree to the undo")]
        self.asked = _UndoAsk(seat, msg.seq, keep)
        return [Outgoing(h.seats[p].conn, _text({"type": "undo_asked", "by": seat, "seq": msg.seq, "keep": keep}))
                for p in remote]

    def reply(self, conn: int, seat: int, msg: UndoReply) -> list[Outgoing]:
        a = self.asked
        if a is None or a.by == seat or msg.seq != a.seq:
            return [self.host._refuse(conn, "no undo is asked of you")]
        if not msg.accept:
            self.asked = None
            return [Outgoing(c, _text({"type": "undo_result", "accepted": False, "by": a.by,
                                       "reason": f"player {seat} said no"}))
                    for c in (self.host.seats[a.by].conn, conn) if c is not None]
        return self.grant(a.by)

    def grant(self, by: int) -> list[Outgoing]:
        h = self.host
        self.asked = None
        if not h.session.undo():
            return [Outgoing(c, _text({"type": "undo_result", "accepted": False, "by": by,
                                       "reason": "it can no longer be taken back"}))
                    for c in [t.conn for t in h.seats.values()] if c is not None]
        h.files.keep(undo=len(h.game.decisions))     # on disk before any seat is told
        h._changed()
        out = []
        for p, t in h.seats.items():
            if t.conn is not None:
                out.append(h._state_for(p, full=True, by=by, undone=True))
                out.append(Outgoing(t.conn, _text({"type": "undo_result", "accepted": True, "by": by})))
        return out

    def void(self, why: str) -> list[Outgoing]:
        """The ask in flight is void (a seat left, the game went on): its asker is told why."""
        a, self.asked = self.asked, None
        c = self.host.seats[a.by].conn
        return [] if c is None else [Outgoing(c, _text({"type": "undo_result", "accepted": False, "by": a.by,
                                                        "reason": why}))]
