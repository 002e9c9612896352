"""The Moxie economy: the pool, the Moxie check for the active crew, activation and action costs."""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

from engine.core.rng import GameRng

from .checks import CheckResult, ability_check, roll_off
from .options import DEFAULT_OPTIONS, CounterblastOptions


class MoxieError(ValueError):
    pass


def moxie_pool(models_on_table: int, bonus: int = 0) -> int:
    """Moxie phase: one Moxie per model on the table, plus bonuses from special rules."""
    return max(0, models_on_table) + max(0, bonus)


def spend(pool: int, cost: int) -> int:
    """Spend Moxie; never below zero."""
    if cost < 0:
        raise MoxieError("a cost cannot be negative")
    if cost > pool:
        raise MoxieError(f"needs {cost} Moxie, the pool holds {pool}")
    return pool - cost


def moxie_check(rng: GameRng, pool: int, *, passed: bool = False,
                options: CounterblastOptions = DEFAULT_OPTIONS) -> CheckResult:
    """A Moxie check vs 7: one die per Moxie in the pool (capped). A crew that passed fails it."""
    return ability_check(rng, pool, options.moxie_difficulty, options=options, automatic_zero=passed)


@dataclass(frozen=True)
class ActiveRoll:
    active: Hashable
    decided_by: str                         # "successes", "pool", "roll_off", "only_crew"
    checks: dict = field(default_factory=dict)          # crew -> CheckResult
    roll_offs: list = field(default_factory=list)       # rounds of crew -> d10


def determine_active(rng: GameRng, pools: Mapping[Hashable, int], passed: Iterable[Hashable] = (),
                     options: CounterblastOptions = DEFAULT_OPTIONS) -> ActiveRoll:
    """Step 1 of an Activation phase: which crew is Active.

    Crews that have not passed each roll a Moxie check vs 7; most successes wins; ties go to the
    larger Moxie pool, then to d10 roll-offs repeated until one is highest. A crew that has passed
    fails automatically, which ranks it below every crew that rolled (even a 0). If only one crew
    has not passed, it is Active without a roll. (The caller ends the phase when every crew has
    passed or can do nothing.)
    """
    crews = list(pools)
    gone = set(passed)
    live = [c for c in crews if c not in gone]
    if not crews:
        raise MoxieError("no crews")
    if not live:
        raise MoxieError("every crew has passed the turn: the Activation phases are over")
    if len(live) == 1:
        return ActiveRoll(live[0], "only_crew")
    checks = {c: moxie_check(rng, pools[c], options=options) for c in live}
    best = max(ch.successes for ch in checks.values())
    tied = [c for c in live if checks[c].successes == best]
    if len(tied) == 1:
        return ActiveRoll(tied[0], "successes", checks)
    top = max(pools[c] for c in tied)
    tied = [c for c in tied if pools[c] == top]
    if len(tied) == 1:
        return ActiveRoll(tied[0], "pool", checks)
    winner, rounds = roll_off(rng, tied)
    return ActiveRoll(winner, "roll_off", checks, rounds)


def single_activation_cost(options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    return options.single_activation_cost


def group_activation_cost(options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    return options.group_activation_cost


def extra_action_cost(active_models: int = 1, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """One Moxie per active model per extra action (a group pays for each of its models)."""
    return options.extra_action_cost * max(1, active_models)


def reaction_cost(options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    return options.reaction_cost


def group_problems(members: list[tuple[bool, str]], options: CounterblastOptions = DEFAULT_OPTIONS) -> list[str]:
    """Check a group activation. ``members``: (is_hero, role) per chosen model.

    A group is one hero and up to two lackeys, all un-Spent (the caller checks Spent).
    """
    probs = []
    heroes = sum(1 for h, _ in members if h)
    lackeys = sum(1 for h, r in members if not h and r == "lackey")
    others = len(members) - heroes - lackeys
    if heroes != options.group_max_heroes:
        probs.append(f"a group activation takes exactly {options.group_max_heroes} hero, not {heroes}")
    if lackeys > options.group_max_lackeys:
        probs.append(f"a group activation takes up to {options.group_max_lackeys} lackeys, not {lackeys}")
    if others:
        probs.append("only heroes and lackeys can join a group activation")
    return probs


def reaction_allowed(crews_reacted_to_this_action: Iterable[Hashable], crew: Hashable,
                     options: CounterblastOptions = DEFAULT_OPTIONS) -> bool:
    """No crew may trigger more than one reaction to any single action."""
    return list(crews_reacted_to_this_action).count(crew) < options.reactions_per_crew_per_action


def may_react(pool: int, crews_reacted_to_this_action: Iterable[Hashable], crew: Hashable,
              options: CounterblastOptions = DEFAULT_OPTIONS) -> bool:
    """Whether ``crew`` is offered a reaction to the action under way: it has not used up its
    reactions to this action and can pay for one. The flow asks this before every reaction window
    (Snapshot and Pursuit, Return fire and the rest, Disperse)."""
    return reaction_allowed(crews_reacted_to_this_action, crew, options) and pool >= reaction_cost(options)


def leader_election_cost(options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """At the start of a turn, 1 Moxie elects a new leader."""
    return options.leader_election_cost
