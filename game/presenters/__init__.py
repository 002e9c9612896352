"""Presenters: each ruleset's face in the client, registered by ruleset id (issue 48). A presenter
says which panels the ruleset's screen shows (the card hand, the dice offer), how its counters read
in the turn bar (words and the drawn tracks) and how its sides are named. Every client question
that depends on the ruleset is asked here, so the ruleset ids appear in ``game/`` only in these
modules (and as data: defaults, schemas, CLI help).

Presenters read views (plain dicts) only: never the session, never a scene.
"""
from __future__ import annotations

from . import counterblast, doubles, frontier  # noqa: E402,F401  (each registers itself)
from .base import Presenter  # noqa: F401
from .registry import presenter_for, presenters, register  # noqa: F401
