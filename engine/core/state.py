"""Game state conventions and the canonical state hash.

A ruleset's state is plain data (dataclasses, lists, dicts, tuples, numbers, strings) with
the game's ``GameRng`` in it; static things such as the table stay outside in the ``Rules``
object, so cloning a game copies only what can change.
"""
from __future__ import annotations

import dataclasses
import enum
import hashlib
from dataclasses import dataclass, field
from typing import Any

from .rng import GameRng


@dataclass
class State:
    """Base of every ruleset state: the RNG, the turn counter and whose turn it is."""
    rng: GameRng
    turn: int = 1
    active: int = 1


def _feed(h, obj: Any) -> None:
    if obj is None or isinstance(obj, (bool, int, str)):
        h.update(repr(obj).encode())
    elif isinstance(obj, float):
        h.update(repr(round(obj, 9)).encode())
    elif isinstance(obj, GameRng):
        h.update(b"rng:" + obj.fingerprint().encode())
    elif isinstance(obj, enum.Enum):
        h.update(f"{type(obj).__name__}.{obj.name}".encode())
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        h.update(type(obj).__name__.encode() + b"(")
        for f in dataclasses.fields(obj):
            flag = f.metadata.get("hash", True)
            if not flag:
                continue
            value = getattr(obj, f.name)
            if value is None and flag == "unless_none":
                continue
            h.update(f.name.encode() + b"=")
            _feed(h, value)
        h.update(b")")
    elif isinstance(obj, (list, tuple)):
        h.update(b"[")
        for x in obj:
            _feed(h, x)
            h.update(b",")
        h.update(b"]")
    elif isinstance(obj, dict):
        h.update(b"{")
        for k in sorted(obj, key=repr):
            _feed(h, k)
            h.update(b":")
            _feed(h, obj[k])
        h.update(b"}")
    elif isinstance(obj, (set, frozenset)):
        h.update(b"{")
        for x in sorted(obj, key=repr):
            _feed(h, x)
        h.update(b"}")
    else:
        raise TypeError(f"cannot hash {type(obj).__name__} in game state: keep state plain data")


def state_hash(state: Any) -> str:
    """A stable hash of everything in the state, RNG included (floats rounded to 1e-9)."""
    h = hashlib.blake2b(digest_size=16)
    _feed(h, state)
    return h.hexdigest()


def static_field(**kw):
    """A state field left out of the hash (derived caches)."""
    return field(metadata={"hash": False}, **kw)


def optional_field(**kw):
    """A state field (default None) that enters the hash only while it holds something: a part
    of the state some games never use (a mission's score), added without changing the hashes of
    the games that do not use it (their saves and seeded hashes stay valid)."""
    return field(default=None, metadata={"hash": "unless_none"}, **kw)
