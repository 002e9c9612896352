"""Attack parameters: difficulties of Shoot, Strike and Throw, raw damage, split dice, assists."""
from __future__ import annotations

from fractions import Fraction

from .checks import pool_size
from .options import DEFAULT_OPTIONS, CounterblastOptions


def is_short_range(distance: float, options: CounterblastOptions = DEFAULT_OPTIONS) -> bool:
    """Within short range: base-to-base distance no more than ``short_range`` (8")."""
    return distance <= options.short_range


def shoot_difficulty(distance: float, *, aimed: bool = False, target_marked: bool = False,
                     shooter_panicked: bool = False, modifier: int = 0, long_difficulty: int | None = None,
                     options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """7 within short range, 8 beyond; Aim -1, target Marked -1, shooter Panicked +1, plus ``modifier``.

    ``long_difficulty`` replaces the long-range base difficulty (a character's ability)."""
    if is_short_range(distance, options):
        d = options.shoot_difficulty_short
    else:
        d = options.shoot_difficulty_long if long_difficulty is None else long_difficulty
    d -= options.aim_bonus if aimed else 0
    d -= options.marked_bonus if target_marked else 0
    d += options.panic_penalty if shooter_panicked else 0
    return d + modifier


def grit_difficulty(attacker_grit: int, target_grit: int, *, target_down: bool = False,
                    attacker_prone: bool = False, target_prone: bool = False,
                    attacker_panicked: bool = False, modifier: int = 0,
                    options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Strike (and Throw) difficulty: 7 if the target's Grit is equal or lower, else 8.

    Grit values are the current ones (after Blind/Half-blind). Against a Down target the
    difficulty is always 2, whatever else applies. Attacker Prone +1, target Prone -1,
    attacker Panicked +1, plus ``modifier``.
    """
    if target_down:
        return options.grit_difficulty_vs_down
    d = options.strike_difficulty_even if target_grit <= attacker_grit else options.strike_difficulty_stronger
    d += options.prone_own_grit_penalty if attacker_prone else 0
    d -= options.prone_target_grit_bonus if target_prone else 0
    d += options.panic_penalty if attacker_panicked else 0
    return d + modifier


strike_difficulty = grit_difficulty
throw_difficulty = grit_difficulty


def can_throw(attacker_size: int, target_size: int) -> bool:
    """Throw may only target models smaller than the attacker."""
    return target_size < attacker_size


def throw_distance(successes: int) -> int:
    """The thrown model moves the check's result in inches (as a Jump, landing Prone)."""
    return max(0, successes)


def raw_damage(successes: int, weapon_damage: int) -> int:
    """Successes times the weapon's Damage."""
    return max(0, successes) * weapon_damage


def split_dice(ability: int, allocation: list[int], *, bonus_dice: int = 0,
               options: CounterblastOptions = DEFAULT_OPTIONS) -> list[int]:
    """Check a split of an attack's dice between targets; returns the pools.

    The pool (ability plus bonuses, capped at ``dice_cap``) is divided whole: every target gets
    at least one die and the shares add up to the pool.
    """
    pool = pool_size(ability, bonus_dice, options)
    if not allocation:
        raise ValueError("a split needs at least one target")
    if any(a < 1 for a in allocation):
        raise ValueError("every target of a split attack needs at least one die")
    if sum(allocation) != pool:
        raise ValueError(f"the split {allocation} uses {sum(allocation)} dice; the pool is {pool}")
    return list(allocation)


def can_assist(ability: int) -> bool:
    """Models with 0 dice in the relevant ability may not Boost, Aim-Assist or Dog-pile."""
    return ability > 0


def aim_assist_dice(assists: int) -> int:
    """A model benefits from only one Aim-Assist at a time: +1 die at most."""
    return 1 if assists > 0 else 0


def boost_dice(boosters: int) -> int:
    """Each Boosting model adds 1 die to the Knack of an Engineer, Treat or Hack action."""
    return max(0, boosters)


def dog_pile_dice(dog_piles: int) -> int:
    """Dog-piles on one target within one activation stack: +1 die each to the next Strike's first Grit check."""
    return max(0, dog_piles)


def visible_enough(visible_fraction: float | Fraction, options: CounterblastOptions = DEFAULT_OPTIONS) -> bool:
    """A valid target shows at least a third of itself to the attacker."""
    return Fraction(visible_fraction).limit_denominator(10**6) >= options.sight_fraction


def psi_ability(zap: int, grit: int, knack: int, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """The ability rolled for Psi checks (the seed names none; Knack by default)."""
    return {"knack": knack, "zap": zap, "grit": grit}[options.psi_ability]


def disperse_in_range(distance: float, options: CounterblastOptions = DEFAULT_OPTIONS) -> bool:
    """Disperse may answer a Psi check by a psifer within 12"."""
    return distance <= options.disperse_range


def disperse_cancels(disperse_result: int, target_result: int) -> bool:
    """Disperse: if the Dispersing psifer's result beats the other's, that roll counts as 0."""
    return disperse_result > target_result
