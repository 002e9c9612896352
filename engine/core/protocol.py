"""The decision protocol's vocabulary: choices, decisions, choice spaces, events, results.

A ruleset stops whenever someone must choose and describes that as a ``Decision``: who
decides, what kind of decision, the enumerated options and/or continuous ``ChoiceSpace``s
(a point on the table, say). Choices are small frozen dataclasses that serialise to JSON
for replays and saves and describe themselves in a player's words.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable

_CHOICE_TYPES: dict[str, type["Choice"]] = {}


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

    def to_json(self) -> dict:
        d = {"type": self.tag}
        for f in dataclasses.fields(self):
            d[f.name] = _jsonable(getattr(self, f.name))
        return d

    @staticmethod
    def from_json(data: dict) -> "Choice":
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
            return cls(**kwargs)
        except TypeError as err:
            raise ValueError(f"choice {data['type']!r}: {err}") from None


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


@dataclass(frozen=True)
class Decision:
    player: int
    kind: str
    prompt: str
    options: tuple[Choice, ...] = ()
    spaces: tuple[ChoiceSpace, ...] = ()
    labels: tuple[str, ...] = ()  # the options in player words, parallel to options
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


def events_text(events: Iterable[Event]) -> list[str]:
    return [e.text for e in events]
