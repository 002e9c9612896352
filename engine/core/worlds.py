"""A player's world: the game as one player may know it, as JSON, and a ``Game`` built on it.

A network game's server (``game/net``) holds the real ``Game``; each seat gets its world: the
state ``Rules.redact`` leaves for that player (nothing hidden from them in it: no unseen card,
no unseen placement, not the dice to come), written by ``encode_state`` as plain JSON. The client
reads it back (``decode_state``) into a ``WorldGame``, on which the same code as a local game
asks ``pending``, ``check``, the words of a choice, the odds, the sight and the ranges of its own
decisions, and a search agent samples its worlds (``Game.sample_world``). A world cannot be
played on: answers go to the server, which sends the next world.

The JSON form of a state: numbers, text, true/false/null and lists stand for themselves; the
other shapes are objects with one marker key: ``{"~t": [..]}`` a tuple, ``{"~s": [..]}`` a set,
``{"~d": [[key, value], ..]}`` a dict whose keys are not all text (or one that begins with ``~``),
``{"~c": "module:Class", "f": {field: value}}`` a dataclass, ``{"~n": "module:Class", "v": [..]}``
a named tuple, ``{"~e": "module:Class", "v": "NAME"}`` an enum member, ``{"~m": "module:Class",
"j": "{..}"}`` a pydantic model (a ruleset's options that a state holds: Doubles' duel keeps the
game's options) as its own JSON text, and ``{"~r": 0}`` the RNG's stand-in (its state is never
written). Reading it back builds only classes of the engine's own modules (``engine.``) that are
dataclasses, named tuples, enums or pydantic models, and runs none of their code but a model's
own validation of its JSON.
"""
from __future__ import annotations

import copy
import dataclasses
import enum
import importlib
import math
from typing import Any

from pydantic import BaseModel, ValidationError

from .errors import GameError, NotYourDecision
from .game import Game, Setup
from .protocol import Decision, Event
from .rng import GameRng

MAX_DEPTH = 64          # nesting of a world's JSON (a state is a few levels deep)


class WorldError(ValueError):
    """A world that cannot be read (the reason says where and why)."""


def _name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def encode_state(obj: Any, depth: int = 0) -> Any:
    """``obj`` (a state, or any part of one) as JSON-friendly data (see the module's doc)."""
    if depth > MAX_DEPTH:
        raise WorldError("a state nested too deeply to write")
    if obj is None or type(obj) in (bool, str, int):
        return obj
    if isinstance(obj, enum.Enum):         # before str and int: a str or int enum is a member
        return {"~e": _name(type(obj)), "v": obj.name}
    if type(obj) is float:
        if not math.isfinite(obj):
            raise WorldError(f"a state holds {obj!r}, which JSON cannot carry")
        return obj
    if isinstance(obj, GameRng):
        return {"~r": 0}
    d = depth + 1
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {"~c": _name(type(obj)),
                "f": {f.name: encode_state(getattr(obj, f.name), d) for f in dataclasses.fields(obj)}}
    if isinstance(obj, BaseModel):
        return {"~m": _name(type(obj)), "j": obj.model_dump_json()}
    if isinstance(obj, tuple) and hasattr(type(obj), "_fields"):
        return {"~n": _name(type(obj)), "v": [encode_state(x, d) for x in obj]}
    if isinstance(obj, list):
        return [encode_state(x, d) for x in obj]
    if isinstance(obj, tuple):
        return {"~t": [encode_state(x, d) for x in obj]}
    if isinstance(obj, (set, frozenset)):
        return {"~s": [encode_state(x, d) for x in sorted(obj, key=repr)]}
    if isinstance(obj, dict):
        if all(type(k) is str and not k.startswith("~") for k in obj):
            return {k: encode_state(v, d) for k, v in obj.items()}
        return {"~d": [[encode_state(k, d), encode_state(v, d)] for k, v in obj.items()]}
    raise WorldError(f"cannot write a {type(obj).__name__} of a game state")


_CLASSES: dict[str, type] = {}


def _engine_class(name: Any) -> type:
    """The engine's class ``module:Qual.Name``; refused unless it is one of the engine's own."""
    if type(name) is not str or len(name) > 200:
        raise WorldError("a class name must be text")
    cls = _CLASSES.get(name)
    if cls is not None:
        return cls
    module, _, qual = name.partition(":")
    if not module.startswith("engine.") or not qual or not all(p.isidentifier() for p in module.split(".")) \
            or not all(p.isidentifier() and not p.startswith("__") for p in qual.split(".")):
        raise WorldError(f"{name!r} is not a class of the engine")
    try:
        obj: Any = importlib.import_module(module)
    except ImportError:
        raise WorldError(f"no module {module!r}") from None
    for part in qual.split("."):
        obj = getattr(obj, part, None)
    if not isinstance(obj, type) or obj.__module__ != module:
        raise WorldError(f"no class {name!r}")
    _CLASSES[name] = obj
    return obj


def decode_state(data: Any, depth: int = 0) -> Any:
    """Read back what ``encode_state`` wrote; ``WorldError`` for anything else."""
    if depth > MAX_DEPTH:
        raise WorldError("a world nested too deeply")
    if data is None or type(data) in (bool, str, int):
        return data
    if type(data) is float:
        if not math.isfinite(data):
            raise WorldError("a world holds a number that is not finite")
        return data
    d = depth + 1
    if type(data) is list:
        return [decode_state(x, d) for x in data]
    if type(data) is not dict:
        raise WorldError(f"a world cannot hold a {type(data).__name__}")
    if not any(type(k) is str and k.startswith("~") for k in data):
        return {k: decode_state(v, d) for k, v in data.items()}
    keys = set(data)
    if keys == {"~r"}:
        return GameRng(0)
    if keys == {"~t"} and type(data["~t"]) is list:
        return tuple(decode_state(x, d) for x in data["~t"])
    if keys == {"~s"} and type(data["~s"]) is list:
        items = [decode_state(x, d) for x in data["~s"]]
        try:
            return set(items)
        except TypeError:
            raise WorldError("a set of things that cannot be in a set") from None
    if keys == {"~d"} and type(data["~d"]) is list:
        out = {}
        for pair in data["~d"]:
            if type(pair) is not list or len(pair) != 2:
                raise WorldError("a dict entry must be [key, value]")
            k = decode_state(pair[0], d)
            try:
                out[k] = decode_state(pair[1], d)
            except TypeError:
                raise WorldError("a dict key that cannot be a key") from None
        return out
    if keys == {"~e", "v"}:
        cls = _engine_class(data["~e"])
        if not issubclass(cls, enum.Enum) or type(data["v"]) is not str or data["v"] not in cls.__members__:
            raise WorldError(f"no member {data['v']!r} of {data['~e']!r}")
        return cls[data["v"]]
    if keys == {"~n", "v"} and type(data["v"]) is list:
        cls = _engine_class(data["~n"])
        if not (issubclass(cls, tuple) and hasattr(cls, "_fields")) or len(data["v"]) != len(cls._fields):
            raise WorldError(f"{data['~n']!r} is not a named tuple of {len(data['v'])} fields")
        return tuple.__new__(cls, [decode_state(x, d) for x in data["v"]])
    if keys == {"~m", "j"} and type(data["j"]) is str:
        cls = _engine_class(data["~m"])
        if not issubclass(cls, BaseModel):
            raise WorldError(f"{data['~m']!r} is not a model")
        try:
            return cls.model_validate_json(data["j"])
        except ValidationError as err:
            raise WorldError(f"{data['~m']!r} refused its fields: {err.errors(include_url=False)[0]['msg']}") from None
    if keys == {"~c", "f"} and type(data["f"]) is dict:
        cls = _engine_class(data["~c"])
        if not dataclasses.is_dataclass(cls):
            raise WorldError(f"{data['~c']!r} is not a dataclass")
        names = [f.name for f in dataclasses.fields(cls)]
        if set(data["f"]) != set(names):
            raise WorldError(f"{data['~c']!r} has the fields {sorted(names)}, not {sorted(map(str, data['f']))}")
        obj = object.__new__(cls)
        for n in names:
            object.__setattr__(obj, n, decode_state(data["f"][n], d))
        return obj
    raise WorldError(f"an object of the keys {sorted(map(str, keys))[:4]} is no part of a world")


def world_of(game: Game, player: int | None) -> Any:
    """``player``'s world of ``game`` as JSON-friendly data."""
    return encode_state(game.rules.redact(game.state, player))


def event_to_json(e: Event) -> dict:
    return {"text": e.text, "kind": e.kind, "data": e.data,
            "visible_to": None if e.visible_to is None else sorted(e.visible_to)}


def event_from_json(d: dict) -> Event:
    vis = d.get("visible_to")
    return Event(str(d.get("text", "")), str(d.get("kind", "info")), dict(d.get("data") or {}),
                 None if vis is None else frozenset(int(p) for p in vis))


class WorldGame(Game):
    """The game as one seat of a network game knows it: built once from the public setup (the
    map, the rosters, the options; not the seed), then given each world the server sends
    (``update``). ``pending`` is the seat's own decision worked out from its world, or, while
    another seat decides, a decision of that seat with nothing in it (its options are that
    seat's to know). It cannot be played on (``submit`` refuses): the server decides."""

    def __init__(self, setup: Setup, seat: int, table=None):
        super().__init__(Setup(setup.ruleset, setup.map, tuple(setup.rosters), dict(setup.options), 0), table=table)
        self.seat = seat
        self.log = []
        self._log_texts = {}
        self._who: tuple[int, str, int] | None = None     # (player, kind, seq) of the decision pending

    def update(self, state, seq: int, pending: tuple[int, str] | None, deciders=None, new_events=(),
               log=None) -> None:
        """A new world: the state (``decode_state``), the number of decisions settled, who
        decides now and what kind (None: the game is over), who decided each decision (public;
        a list of players, else ``None`` for each), the events new to this seat, or the whole
        log the seat may read (after a reconnection)."""
        self.state = state
        who = list(deciders) if deciders is not None and len(deciders) == seq else [None] * seq
        # a remote seat knows who decided, not what: no choice to keep
        self.decisions = [(p, None) for p in who]  # type: ignore[misc]
        self.revealed = [True] * seq
        if log is not None:
            self.log = list(log)
            self._log_texts = {}
        else:
            self.log.extend(new_events)
        self._who = None if pending is None else (pending[0], pending[1], seq)
        self._pending, self._pending_ok = None, False

    served_view: dict | None = None     # the seat's view as the server last sent it (no log)

    def view(self, player: int | None, drawing: bool = True) -> dict:
        """The seat's view: the server's when it sent one (the world gives the same,
        ``tests/test_core_worlds.py``), with the log the seat may read. Any other player's is
        a spectator's: a world holds nothing more of theirs."""
        if player != self.seat:
            player = None
        if player is None or self.served_view is None:
            return super().view(player, drawing)
        v = copy.deepcopy(self.served_view)
        if not drawing:
            v.pop("pieces", None)
        v["log"] = list(self._visible_log(player))
        return v

    def pending(self) -> Decision | None:
        if self._who is None:
            return None
        player, kind, seq = self._who
        if player != self.seat:
            if not self._pending_ok:
                self._pending = Decision(player, kind, f"waiting for player {player}", seq=seq)
                self._pending_ok = True
            return self._pending
        d = super().pending()
        if d is not None and (d.player != player or d.seq != seq):
            # the world does not give the decision the server asks: say so, never guess
            raise GameError(f"the world gives player {d.player} decision #{d.seq}, the server asks "
                            f"player {player} decision #{seq}")
        return d

    def submit(self, player, choice, seq=None):
        self.check(player, choice, seq)
        raise NotYourDecision("a network game's answers go to its server", "an answer sent to the server")
