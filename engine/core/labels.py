"""A decision's option labels, worded when first asked (issue 28, third pass).

``Game.pending`` used to word every option of every decision; most readers never look: the
random agent, the search's roll-outs (easy reads only the odds of Counterblast's attacks), a
simulation. ``Labels`` is the tuple of labels as a lazy sequence: label ``i`` is worded by the
ruleset (``Rules.describe_choice``, or its ``option_label`` where it keeps words per option) the
first time it is read, from the state the decision was listed in.

That state must still be the decision-time state when a label is read. A ``Decision`` is shared
by a game's clones (``Game.clone`` copies the state, not the decision), so the labels hold the
state object of the game that listed them, and that game settles them before the state first
changes (``Game.submit``, before the rules apply the answer): every label still unworded is
worded then, so a decision read later (a client's history, a clone's copy) gives the same words
as before. A game that knows nobody reads an answered decision's labels (``Game.keep_labels =
False``: ``simulate.play`` and the search's roll-outs) lets go of the state instead, and a label
asked for afterwards is refused (``LabelsGone``) rather than worded from a later state.
"""
from __future__ import annotations

from collections.abc import Sequence


class LabelsGone(RuntimeError):
    """A label asked for after its decision was answered in a game that keeps no labels."""


class Labels(Sequence):
    __slots__ = ("_words", "_word", "_state", "_options")

    def __init__(self, rules, state, options: tuple):
        self._words: list = [None] * len(options)
        self._word = getattr(rules, "option_label", None) or rules.describe_choice
        self._state = state
        self._options = options

    def __len__(self) -> int:
        return len(self._words)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self[k] for k in range(*i.indices(len(self._words))))
        w = self._words[i]
        if w is None:
            if self._state is None:
                raise LabelsGone("this decision was answered in a game that keeps no labels")
            w = self._words[i] = self._word(self._state, self._options[i])
        return w

    def __iter__(self):
        return (self[k] for k in range(len(self._words)))

    def listed_in(self, state) -> bool:
        """Worded from ``state`` (the object, not an equal copy) while it is unchanged."""
        return self._state is state

    def settle(self, keep: bool) -> None:
        """The state is about to change: word every label still unworded now (``keep``), or
        let go of the state."""
        if self._state is None:
            return
        if keep:
            for k in range(len(self._words)):
                self[k]
        self._state = None

    # a tuple of words to everything that compares, hashes, copies or pickles a decision
    def __eq__(self, other) -> bool:
        if isinstance(other, (Labels, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self):
        return (tuple, (tuple(self),))

    def __copy__(self):
        return tuple(self)

    def __deepcopy__(self, memo):
        return tuple(self)
