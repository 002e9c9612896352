"""Presenters: each ruleset's face in the client, registered by ruleset id (issue 48). A presenter
says which panels the ruleset's screen shows (the card hand, the dice offer), how its counters read
in the turn bar (words and the drawn tracks) and how its sides are named. Every client question
that depends on the ruleset is asked here, so the ruleset ids appear in ``game/`` only in these
modules (and as data: defaults, schemas, CLI help).

Presenters read views (plain dicts) only: never the session, never a scene.
"""
from __future__ import annotations

from .base import Presenter

_REGISTRY: dict[str, Presenter] = {}


def register(presenter: Presenter) -> Presenter:
    _REGISTRY[presenter.id] = presenter
    return presenter


def presenter_for(ruleset_id: str | None) -> Presenter:
    """The ruleset's presenter; a plain one (turn and phase, no panels of its own) for a ruleset
    with none registered (a ruleset given as a plugin)."""
    return _REGISTRY.get(ruleset_id or "", _PLAIN)


def presenters() -> dict[str, Presenter]:
    """Every registered presenter by ruleset id, in registration order (the launcher's list)."""
    return dict(_REGISTRY)


_PLAIN = Presenter()

from . import counterblast, frontier, doubles  # noqa: E402,F401  (each registers itself)
