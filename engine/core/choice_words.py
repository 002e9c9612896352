"""Choices worded by a table: ``{choice type: describer}`` built once per ruleset, one small
function per choice type, instead of an ``isinstance`` ladder that every wording walks.

A describer is ``describer(rules, state, choice) -> str``. A choice whose type has none is
worded by its own ``describe()``. A subclass of a choice type (Counterblast's ``MoveProne`` is
a ``MoveTo``) takes the nearest describer along its method resolution order, as ``isinstance``
did, unless it has its own; the answer is kept per type, so a lookup is one dict access.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .protocol import Choice

Describer = Callable[[Any, Any, Choice], str]


class ChoiceWords:
    """A ruleset's describers by choice type; ``words(rules, state, choice)`` words a choice."""

    def __init__(self, table: Mapping[type, Describer]):
        self._table = dict(table)
        self._by_type: dict[type, Describer | None] = {}

    def describer(self, cls: type) -> Describer | None:
        try:
            return self._by_type[cls]
        except KeyError:
            found = next((self._table[k] for k in cls.__mro__ if k in self._table), None)
            self._by_type[cls] = found
            return found

    def __call__(self, rules, st, c: Choice) -> str:
        word = self.describer(type(c))
        return c.describe() if word is None else word(rules, st, c)
