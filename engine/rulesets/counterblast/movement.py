"""Movement dice and the conditions for Rush and Jump."""
from __future__ import annotations

from collections.abc import Iterable

from engine.core.rng import GameRng

from .conditions import first_refusal
from .options import DEFAULT_OPTIONS, CounterblastOptions


def roll_d5(rng: GameRng, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """A d5: a d10 halved, rounding up (1-2 -> 1 ... 9-10 -> 5), unless ``d5_from_d10`` is off."""
    if options.d5_from_d10:
        return (rng.d(10) + 1) // 2
    return rng.d(5)


def rush_distance(rng: GameRng, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Rush: a d10 in inches in place of the Move attribute."""
    return rng.d(options.rush_die)


def jump_distance(rng: GameRng, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Jump: a d5 in inches, in a straight line."""
    if options.jump_die == 5:
        return roll_d5(rng, options)
    return rng.d(options.jump_die)


def half_blind_move(rng: GameRng, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """A Half-blind model's Move action covers a d5 inches."""
    return roll_d5(rng, options)


def _grounded(c: set[str], action: str) -> tuple[tuple[bool, str], ...]:
    """What bars both Rush and Jump: a Prone or Half-blind model does neither."""
    return (("prone" in c, f"Prone models may not {action}"),
            ("half_blind" in c, f"Half-blind models may not {action}"))


def can_rush(used: Iterable[str], conditions: Iterable[str]) -> tuple[bool, str]:
    """Rush needs a Move earlier this activation and no Jump; never Prone or Half-blind."""
    u, c = set(used), set(conditions)
    return first_refusal(("rush" in u, "already Rushed this activation (Multitasking)"),
                         ("move" not in u, "a model must Move before it may Rush"),
                         ("jump" in u, "a model that Jumped this activation may not Rush"),
                         *_grounded(c, "Rush"))


def can_jump(used: Iterable[str], conditions: Iterable[str]) -> tuple[bool, str]:
    u, c = set(used), set(conditions)
    return first_refusal(("jump" in u, "already Jumped this activation (Multitasking)"),
                         ("rush" in u, "a model that Rushed this activation may not Jump"),
                         *_grounded(c, "Jump"))


def jumps_over_model(jumper_size: int, other_size: int) -> bool:
    """A Jump passes over models of the jumper's size or smaller (a Throw uses the thrower's size)."""
    return other_size <= jumper_size


def jumps_over_terrain(height_above_takeoff: float, options: CounterblastOptions = DEFAULT_OPTIONS) -> bool:
    """A Jump clears terrain no more than 1" higher than the ground it leaves from."""
    return height_above_takeoff <= options.jump_clearance + 1e-9
