"""What a Doubles fighter is worth: points worked out from its sheet, weighed in games.

The seed gives fighters no cost, so a player who builds a warband could not tell whether it is a
fair match for another. A fighter's **points** are a weighted sum of the numbers on its sheet
(``FEATURES``: characteristics, its best weapons' bonuses, its armour), plus a constant per
fighter, times ``POINTS_PER_LOGIT``, rounded; a warband's points are its fighters' sum.

The weights are measured, not chosen (``docs/rules/doubles.md``, "Points"): ``easy`` played
``easy`` in thousands of games between random warbands (``bench/doubles_values.py``), each
fighter scoring its points as victory points, and a logistic model of "zone 1's warband wins" on
the difference of the two warbands' summed features gave each feature's weight in log-odds. One
log-odds is ``POINTS_PER_LOGIT`` points, so two warbands ``POINTS_PER_LOGIT / 5`` points apart
are about 5 points of win share apart near an even game. The weights hold over the range the
random warbands covered (``MEASURED``); a sheet outside it is priced by extrapolation, and
``outside_measured`` says where.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .options import DEFAULT_OPTIONS, DoublesOptions

if TYPE_CHECKING:  # pragma: no cover
    from .data import Fighter, Warband

# log-odds of winning per unit of each feature, summed over a warband (bench/doubles_values.py fit)
WEIGHTS: dict[str, float] = {
    "one": -0.845, "health": 0.065, "defence": 0.127, "protection": 0.141, "test_penalty": -0.200,
    "combat": 0.018, "melee_bonus": 0.022, "throw": 0.139, "throw_bonus": 0.037, "aptitude": 0.036,
    "movement": 0.003, "initiative": -0.015, "action_points": 0.079,
}
POINTS_PER_LOGIT = 100

# the range of each feature in the measured games: (lowest, highest)
MEASURED: dict[str, tuple[int, int]] = {
    "health": (2, 8), "defence": (1, 4), "protection": (0, 2), "test_penalty": (0, 2), "combat": (1, 5),
    "melee_bonus": (0, 3), "throw": (0, 5), "throw_bonus": (0, 3), "aptitude": (1, 4), "movement": (8, 14),
    "initiative": (0, 4), "action_points": (2, 4),
}


def best_bonus(wb: Warband, f: Fighter, use: str) -> int | None:
    """The best bonus among the fighter's weapons for ``use`` ("melee" or "thrown"), or None."""
    ok = [wb.weapon(w).bonus for w in f.weapons if wb.weapon(w).use in (use, "both")]
    return max(ok) if ok else None


def features(wb: Warband, f: Fighter, options: DoublesOptions = DEFAULT_OPTIONS) -> dict[str, int]:
    """The numbers the points are weighed on: the sheet, the best melee weapon's bonus (0 bare
    handed), the best throwing weapon's bonus (a stone's when it holds none; 0 when its Throw is
    0, since it cannot throw), and its armour's protection and penalty dice (0 without)."""
    c = f.characteristics
    arm = wb.armour_of(f)
    thrown = best_bonus(wb, f, "thrown")
    return {
        "one": 1, "health": c.health, "defence": c.defence,
        "protection": arm.protection if arm else 0, "test_penalty": arm.test_penalty if arm else 0,
        "combat": c.combat, "melee_bonus": best_bonus(wb, f, "melee") or 0, "throw": c.throw,
        "throw_bonus": 0 if c.throw == 0 else (options.improvised_throw_bonus if thrown is None else thrown),
        "aptitude": c.aptitude, "movement": c.movement, "initiative": c.initiative,
        "action_points": c.action_points,
    }


def fighter_points(wb: Warband, f: Fighter, options: DoublesOptions = DEFAULT_OPTIONS) -> int:
    """The fighter's points: ``POINTS_PER_LOGIT`` x its weighted features, rounded, at least 1."""
    x = features(wb, f, options)
    return max(1, round(POINTS_PER_LOGIT * sum(w * x[k] for k, w in WEIGHTS.items())))


def warband_points(wb: Warband, options: DoublesOptions = DEFAULT_OPTIONS) -> int:
    return sum(fighter_points(wb, f, options) for f in wb.fighters)


def victory_value(wb: Warband, f: Fighter) -> int:
    """The victory points the enemy scores for putting ``f`` out of action: the file's ``value``,
    else its points."""
    return f.value if f.value is not None else fighter_points(wb, f)


def outside_measured(wb: Warband, f: Fighter) -> list[str]:
    """The features of ``f`` outside the range the weights were measured on, in words."""
    x = features(wb, f)
    return [f"{k} {x[k]} (measured {lo}-{hi})" for k, (lo, hi) in MEASURED.items() if not lo <= x[k] <= hi]


def size_problems(wb: Warband, game_points: int | None = None,
                  options: DoublesOptions = DEFAULT_OPTIONS) -> list[tuple[str, str]]:
    """A warband worth more than the game's size (the option ``game_points``, ours)."""
    limit = options.game_points if game_points is None else game_points
    total = warband_points(wb, options)
    if total <= limit:
        return []
    each = " + ".join(f"{f.name} {fighter_points(wb, f, options)}" for f in wb.fighters)
    return [("fighters", f"the warband is worth {total} points ({each}), over the game's {limit}-point size "
                         "(option game_points)")]


def summary(wb: Warband) -> str:
    """One line for ``skirmish validate``: the total and each fighter's points, against the
    game's default size (``DoublesOptions.game_points``, ours)."""
    each = ", ".join(f"{f.name} {fighter_points(wb, f)}" for f in wb.fighters)
    text = f"{len(wb.fighters)} fighters, {warband_points(wb)} of {DEFAULT_OPTIONS.game_points} points ({each})"
    if wb.points_limit is not None:
        text += f", limit {wb.points_limit}"
    far = [f"{f.name}: {', '.join(o)}" for f in wb.fighters if (o := outside_measured(wb, f))]
    if far:
        text += "; priced beyond the measured range: " + "; ".join(far)
    return text
