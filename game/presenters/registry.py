"""The presenters' registry by ruleset id (apart from the package, so that a presenter module
registering itself imports this and not the package that imports it)."""
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
