"""Errors a submission can raise. Each names what was wrong and what was expected;
the game state is never changed by a refused submission."""
from __future__ import annotations


class GameError(Exception):
    """Base class of every refusal by the engine."""


class IllegalChoice(GameError):
    """The choice is not one of those the pending decision allows."""

    def __init__(self, what: str, expected: str, reasons: tuple[str, ...] = ()):
        self.what = what
        self.expected = expected
        self.reasons = tuple(reasons)       # the rules' reasons alone, when they gave any
        super().__init__(f"{what}; expected {expected}")


class NotYourDecision(IllegalChoice):
    """A player answered a decision addressed to someone else."""


class StaleDecision(IllegalChoice):
    """The answer was meant for a decision that has already been settled."""


class GameOver(GameError):
    """No decision is pending: the game has ended."""


class SetupError(GameError):
    """A game could not be set up (unknown ruleset, rosters or options refused)."""


class UnknownRuleset(SetupError):
    def __init__(self, ruleset_id: str, known: list[str], planned: bool = False):
        self.ruleset_id = ruleset_id
        self.planned = planned
        if planned:
            msg = f"ruleset {ruleset_id!r} is planned but not implemented yet (available: {', '.join(known) or 'none'})"
        else:
            msg = f"no ruleset {ruleset_id!r} (available: {', '.join(known) or 'none'})"
        super().__init__(msg)


class EngineBug(GameError):
    """A ruleset failed while applying a choice it had offered; the state was restored."""
