"""Dread, the Panic test and the Rally action."""
from __future__ import annotations

from dataclasses import dataclass

from engine.core.rng import GameRng

from .checks import CheckResult, ability_check
from .options import DEFAULT_OPTIONS, CounterblastOptions


def dread_gain(downed: int, casualties_this_turn: int, hero_casualties_this_turn: int,
               options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Dread added at the start of the Panic phase: 1 for the fighting, 1 per Down model,
    1 per casualty this turn, 1 more per hero among those casualties."""
    if hero_casualties_this_turn > casualties_this_turn:
        raise ValueError("hero casualties are counted among the casualties")
    return (options.dread_base + options.dread_per_down * downed
            + options.dread_per_casualty * casualties_this_turn
            + options.dread_per_hero_casualty * hero_casualties_this_turn)


def panic_test_required(dread: int, models_on_table: int) -> bool:
    """Every model of the crew tests when its Dread exceeds the number of its models on the table."""
    return dread > models_on_table


def panic_test(rng: GameRng, knack: int, options: CounterblastOptions = DEFAULT_OPTIONS) -> CheckResult:
    """Knack/7; a failure (result 0) makes the model Panicked."""
    return ability_check(rng, knack, options.panic_difficulty, options=options)


def reduce_dread(dread: int, moxie_spent: int, *, leader_on_table_not_down: bool,
                 options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Upkeep: with its leader on the table and not Down, a crew spends Moxie to lower Dread."""
    if moxie_spent and not leader_on_table_not_down:
        raise ValueError("only a crew whose leader is on the table and not Down may reduce Dread")
    return max(0, dread - options.dread_reduction_per_moxie * moxie_spent)


@dataclass(frozen=True)
class RallyOutcome:
    check: CheckResult
    clears_panic: bool       # result >= 2
    may_continue: bool       # result >= 1: the rest of the activation is as normal
    must_flee: bool          # result 0: second action is a Move to the evac point, then Spent, activation ends


def rally(rng: GameRng, knack: int, options: CounterblastOptions = DEFAULT_OPTIONS) -> RallyOutcome:
    ch = ability_check(rng, knack, options.knack_difficulty, options=options)
    return rally_outcome(ch, options)


def rally_outcome(ch: CheckResult, options: CounterblastOptions = DEFAULT_OPTIONS) -> RallyOutcome:
    r = ch.successes
    return RallyOutcome(ch, r >= options.rally_clear_result, r >= 1, r == 0)
