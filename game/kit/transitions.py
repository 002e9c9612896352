"""Transitions: a scene never imports another scene nor switches by itself; it returns one of
these (from ``update`` or an intent's application) and the app resolves it with the screen
factories registered in ``game/app.py``. A screen is named by a string and built from ``args``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class Transition:
    """Base of every transition."""


@dataclass(frozen=True)
class Switch(Transition):
    """Leave the current screen (it is closed) for a new one: ``screen`` built from ``args``."""
    screen: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Push(Transition):
    """Open a screen over the current one (kept, not closed: a pass screen, the game-over
    screen with "look at the table"); ``Pop`` comes back to it."""
    screen: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Pop(Transition):
    """Close this screen and go back to the one under it."""


@dataclass(frozen=True)
class Quit(Transition):
    """Close the window."""
