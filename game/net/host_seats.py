"""The host's bookkeeping: each seat's kind, code and connection, an undo asked, and what is sent out."""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import NamedTuple

from game.names import who

from .protocol import CODE_CHARS, CODE_LEN, VERSION

REMOTE = "remote"


def new_code() -> str:
    return "".join(secrets.choice(CODE_CHARS) for _ in range(CODE_LEN))


class Outgoing(NamedTuple):
    conn: int
    text: str
    close: bool = False     # close this connection once the text is sent


def _text(d: dict) -> str:
    return json.dumps({"version": VERSION, **d}, separators=(",", ":"), allow_nan=False, default=_plain)


def _plain(v):
    """Event data that JSON does not carry as it is (a set, a tuple inside a key): plain."""
    if isinstance(v, (set, frozenset)):
        return sorted(v, key=repr)
    return str(v)


@dataclass
class _Seat:
    kind: str                       # REMOTE or "ai:AGENT"
    code: str | None = None         # remote seats only
    conn: int | None = None         # the connection holding it now
    name: str = ""
    joined: bool = False            # has been connected once (a later drop says "waiting for")
    sent_seq: int = 0               # decisions already told to this seat
    sent_log: int = 0               # events of the game's log already looked through for it


@dataclass
class _UndoAsk:
    by: int
    seq: int
    keep: int


def waiting_for(p: int, seat: _Seat) -> dict:
    """The other seats' word that ``p`` is not connected: not yet joined, or gone (to come back)."""
    name = {p: seat.name} if seat.name else None
    return {"type": "waiting_for", "seat": p, "joined": seat.joined,
            "text": f"waiting for {who(p, name)} to {'come back' if seat.joined else 'join'}"}


def joined(p: int, seat: _Seat, again: bool) -> dict:
    """The other seats' word that ``p`` sat down (``again``: it was there before), with its name."""
    return {"type": "joined", "seat": p, "name": seat.name, "again": again}
