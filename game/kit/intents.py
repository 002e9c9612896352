"""Intents: what a panel or a tool wants done, as a small value the scene applies through the
session (boardgame.io's moves, python-tcod's actions). A panel never calls the session; it
returns one of these from ``handle`` and the scene's ``apply`` does it, in one place."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class Intent:
    """Base of every intent (a marker: ``isinstance(x, Intent)``)."""


@dataclass(frozen=True)
class Submit(Intent):
    """Answer the pending decision with ``choice`` (an engine ``Choice``)."""
    choice: Any


@dataclass(frozen=True)
class Select(Intent):
    """Select a model (None: select nothing)."""
    model: str | None


@dataclass(frozen=True)
class Say(Intent):
    """Show ``text`` to the player (the status line / a floating note)."""
    text: str
    warn: bool = False


@dataclass(frozen=True)
class RefuseSay(Intent):
    """An answer the engine refused: show the reason in the refusal box at ``where`` (screen)."""
    reason: str
    where: tuple[int, int] | None = None


@dataclass(frozen=True)
class Undo(Intent):
    """Take back the last decision, if the engine allows it (it says why not otherwise)."""


@dataclass(frozen=True)
class PickCards(Intent):
    """Cards picked in the hand, by index into the hand as the view lists it, or by their codes
    (``cards``): with ``spend`` each is spent in turn (a shortfall's cards), else the cards are
    one answer the scene matches against the engine's options (a pair: the engine's refusal when
    no option has them)."""
    indices: tuple[int, ...] = field(default_factory=tuple)
    spend: bool = False
    cards: tuple = field(default_factory=tuple)


@dataclass(frozen=True)
class PickOption(Intent):
    """The option at ``index`` of the list the panel shows (the controller makes it a choice:
    it may select a model first, or answer at once)."""
    index: int


@dataclass(frozen=True)
class PickDice(Intent):
    """Dice picked in the tray (their ids as the offer lists them): a keep, when enough are."""
    ids: tuple = field(default_factory=tuple)


@dataclass(frozen=True)
class Hover(Intent):
    """The pointer is at ``pos`` (screen): previews under it follow."""
    pos: tuple[int, int]


@dataclass(frozen=True)
class Click(Intent):
    """A plain left click on the table at ``pos`` (screen): a model or a point, as the decision
    reads it (the scene gives it to the select tool)."""
    pos: tuple[int, int]


@dataclass(frozen=True)
class Toggle(Intent):
    """Turn a table overlay (reach, sight, threat, ...) on or off."""
    name: str


@dataclass(frozen=True)
class Command(Intent):
    """A named command of the screen (save, load, help, menu, history, ...)."""
    name: str
    arg: Any = None
