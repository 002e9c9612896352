"""The decision protocol's vocabulary: choices, decisions, choice spaces, events, results.

A ruleset stops whenever someone must choose and describes that as a ``Decision``: who
decides, what kind of decision, the enumerated options and/or continuous ``ChoiceSpace``s
(a point on the table, say). Choices are small frozen dataclasses that serialise to JSON
for replays and saves and describe themselves in a player's words.
"""
from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

_CHOICE_TYPES: dict[str, type[Choice]] = {}


@dataclass(frozen=True)
class Choice:
    """Base of every answer to a Decision. Subclasses are frozen dataclasses whose fields
    are JSON-friendly (str, int, float, bool, None, and tuples of those)."""

    tag: ClassVar[str] = ""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        tag = cls.__dict__.get("tag") or cls.__qualname__
        cls.tag = tag
        other = _CHOICE_TYPES.get(tag)
        if other is not None and other.__qualname__ != cls.__qualname__:
            raise TypeError(f"choice tag {tag!r} is used by {other} and {cls}")
        _CHOICE_TYPES[tag] = cls

    def describe(self) -> str:
        """Fallback wording; rulesets word choices with names via ``Rules.describe_choice``."""
        args = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self))
        return f"{type(self).__name__}({args})"

    def describe_safely(self) -> str:
        """``describe()`` that never fails, whatever the fields hold."""
        try:
            return self.describe()
        except Exception:
            args = ", ".join(f"{f.name}={_short(getattr(self, f.name, None))}" for f in dataclasses.fields(self))
            return f"{type(self).__name__}({args})"

    def field_problems(self) -> list[str]:
        """What is wrong with the types of this choice's fields, read from the dataclass
        annotations (str, int, float (finite), bool, None unions, tuples of those); empty when
        every field has its declared type. Types are exact: a subclass of str or int (which may
        compare or hash as it likes) is refused like any other wrong type, so nothing a caller
        passes runs code when the answer is compared. ``Game.check`` and ``from_json`` refuse on any."""
        hints = _field_types(type(self))
        problems = []
        for f in dataclasses.fields(self):
            reason = _type_problem(getattr(self, f.name, None), hints.get(f.name, Any))
            if reason:
                problems.append(f"{f.name}: {reason}")
        return problems

    def to_json(self) -> dict:
        d = {"type": self.tag}
        for f in dataclasses.fields(self):
            d[f.name] = _jsonable(getattr(self, f.name))
        return d

    @staticmethod
    def from_json(data: dict) -> Choice:
        if not isinstance(data, dict) or "type" not in data:
            raise ValueError("a choice must be an object with a 'type'")
        cls = _CHOICE_TYPES.get(data["type"])
        if cls is None:
            raise ValueError(f"unknown choice type {data['type']!r}")
        names = {f.name for f in dataclasses.fields(cls)}
        extra = set(data) - names - {"type"}
        if extra:
            raise ValueError(f"choice {data['type']!r} has unknown fields {sorted(extra)}")
        kwargs = {k: _untuple(v) for k, v in data.items() if k != "type"}
        try:
            choice = cls(**kwargs)
        except TypeError as err:
            raise ValueError(f"choice {data['type']!r}: {err}") from None
        problems = choice.field_problems()
        if problems:
            raise ValueError(f"choice {data['type']!r}: " + "; ".join(problems))
        return choice


# The largest integer a choice may carry: beyond it a float loses whole numbers, and no count,
# heading or die value of any ruleset comes near it.
MAX_INT = 2 ** 53
_SCALARS = (str, int, float, bool, type(None))
_HINTS: dict[type, dict[str, Any]] = {}


def _field_types(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        try:
            hints = typing.get_type_hints(cls)
        except Exception:  # an annotation that cannot be resolved: check nothing rather than crash
            hints = {}
        _HINTS[cls] = hints
    return hints


def _type_name(t: Any) -> str:
    if t is type(None):
        return "None"
    if t is float:
        return "a finite number"
    if t is int:
        return "a whole number"
    if t is str:
        return "text"
    if t is bool:
        return "true or false"
    if t is tuple:
        return "a list"
    return str(t).replace("typing.", "")


def _short(v: Any) -> str:
    """A short repr that never fails (a huge int has no decimal repr past 4300 digits)."""
    try:
        r = repr(v)
    except Exception:
        r = f"<{type(v).__name__}>"
    return r if len(r) <= 40 else r[:37] + "..."


def _type_problem(v: Any, t: Any, depth: int = 0) -> str | None:
    """None when ``v`` fits the annotation ``t``, else the reason it does not."""
    if depth > 8:
        return "nested too deeply"
    if t is Any:
        t = typing.Union[_SCALARS + (tuple,)]  # noqa: UP007 - a JSON-friendly value
    origin = typing.get_origin(t)
    if origin in (typing.Union, types.UnionType):
        reasons = []
        for arm in typing.get_args(t):
            r = _type_problem(v, arm, depth + 1)
            if r is None:
                return None
            reasons.append(r)
        return f"{_short(v)} is not " + " or ".join(_type_name(a) for a in typing.get_args(t))
    if t is tuple or origin is tuple:
        if type(v) is not tuple:
            return f"{_short(v)} is not a list"
        args = typing.get_args(t)
        if len(args) == 2 and args[1] is Ellipsis:
            item_types = [args[0]] * len(v)
        elif args:
            if len(args) != len(v):
                return f"has {len(v)} items, not {len(args)}"
            item_types = list(args)
        else:
            item_types = [Any] * len(v)
        for i, (x, it) in enumerate(zip(v, item_types)):
            r = _type_problem(x, it, depth + 1)
            if r:
                return f"item {i}: {r}"
        return None
    if t is type(None):
        return None if v is None else f"{_short(v)} is not None"
    if t is bool:
        return None if type(v) is bool else f"{_short(v)} is not true or false"
    if t is int:
        if type(v) is not int:
            return f"{_short(v)} is not a whole number"
        if abs(v) > MAX_INT:
            return f"{_short(v)} is out of range (at most {MAX_INT} either way)"
        return None
    if t is float:
        if type(v) not in (float, int):
            return f"{_short(v)} is not a number"
        try:
            ok = math.isfinite(float(v))
        except OverflowError:
            ok = False
        return None if ok else f"{_short(v)} is not a finite number"
    if t is str:
        return None if type(v) is str else f"{_short(v)} is not text"
    return None  # a type this check does not know: the ruleset's own check decides


def same_choice(a: Choice, b: Choice) -> bool:
    """``a == b`` compared by exact type first, field by field: a value whose type differs is
    never equal, and its own ``__eq__`` is never called (an answer cannot run code in
    ``Game.check`` by comparing; an int 1 is not the answer 1.0)."""
    if type(a) is not type(b):
        return False
    return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))


def _same(x: Any, y: Any) -> bool:
    if type(x) is not type(y):
        return False
    if type(x) is tuple:
        return len(x) == len(y) and all(_same(p, q) for p, q in zip(x, y))
    return x == y


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v


def _untuple(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_untuple(x) for x in v)
    return v


class ChoiceSpace:
    """A continuous set of legal answers (e.g. any reachable point). The ruleset builds it
    with whatever it needs to check an answer; ``check`` is the one place that decides."""

    choice_type: type[Choice] = Choice
    label: str = ""
    hint: str = ""       # a word or two for a client's short hints ("jump"); the label when empty

    def check(self, choice: Choice) -> str | None:
        """None when the choice is legal, else the reason it is not."""
        raise NotImplementedError

    def sample(self, rng) -> Choice | None:
        """A random legal choice drawn with ``rng`` (an agent's own RNG), or None if none was found."""
        raise NotImplementedError

    def describe(self) -> str:
        return self.label or self.choice_type.__name__

    @property
    def actor(self) -> str | None:
        """The id of the model this space's answers are for, when there is one (for a client
        that lets the player pick the model first)."""
        return None

    def at_point(self, x: float, y: float) -> tuple[Choice, ...]:
        """The answers this space could take at a point of the table (table mm), for a client
        answering by a click. Not checked: ``check`` still decides. Empty when the space is
        not answered by pointing at the table."""
        return ()

    def flight(self, choice: Choice) -> Flight | None:
        """For an answer that sends a model straight along a heading (a Jump, a thrown model):
        where it starts, the heading and how far it may land, for a client to draw before the
        dice say. None for any other space or answer."""
        return None


@dataclass(frozen=True)
class Flight:
    """A straight flight a heading answer starts: from ``origin`` (table mm, the model's centre)
    along ``heading`` (degrees from +x, counter-clockwise), landing between ``near`` and ``far``
    mm away as the dice fall (terrain or a model may stop it short)."""
    origin: tuple[float, float]
    heading: float
    near: float
    far: float


@dataclass(frozen=True)
class Decision:
    player: int
    kind: str
    prompt: str
    options: tuple[Choice, ...] = ()
    spaces: tuple[ChoiceSpace, ...] = ()
    labels: Sequence[str] = ()  # the options in player words, parallel to options
    seq: int = 0  # set by Game: the number of decisions settled before this one

    def is_open(self) -> bool:
        return bool(self.options or self.spaces)

    def expected(self, limit: int = 8) -> str:
        parts = list(self.labels[:limit] or [o.describe() for o in self.options[:limit]])
        if len(self.options) > limit:
            parts.append(f"... ({len(self.options)} options)")
        parts += [s.describe() for s in self.spaces]
        return f"player {self.player} to {self.kind}: " + "; ".join(parts)


@dataclass(frozen=True)
class Event:
    """Something that happened, in player words. ``data`` is JSON-friendly detail (dice shown,
    cards revealed) for the client's animations; ``visible_to`` limits who may see it (None: all)."""

    text: str
    kind: str = "info"
    data: dict = field(default_factory=dict)
    visible_to: frozenset[int] | None = None

    def visible(self, player: int | None) -> bool:
        return self.visible_to is None or (player is not None and player in self.visible_to)


@dataclass(frozen=True)
class Result:
    winner: int | None  # None: a draw
    reason: str
    scores: dict = field(default_factory=dict)
    # how the game ended, one of ENDINGS (None: the ruleset does not say); experiments count these
    ending: str | None = None


# "turn_limit": the last turn was played out and scored; "wiped_out": a side had no model left
# (on the table, for Counterblast); "rout": a side broke (Frontier's rout); "objective": a
# mission's objective ended the game at once (Frontier's strongbox carried off the table)
ENDINGS = ("turn_limit", "wiped_out", "rout", "objective")


def events_text(events: Iterable[Event]) -> list[str]:
    return [e.text for e in events]
