"""Shooting: range bands, who may shoot, shooting into a melee, aiming, back shots, fighters on
the ground, and the words of line of sight.

Distances are centimetres, base edge to base edge (the table measures them). Everything here
is a pure function of its inputs; the state machine supplies the geometry (distance, visible
fraction, whether the shooter was inside the target's vision arc on its way).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .data import DEFAULT_OPTIONS, DoublesOptions
from .duel import PoolSpec, aptitude_test, double_test

RangeBand = Literal["short", "medium", "long", "out_of_range"]
Visibility = Literal["visible", "partly_visible", "hidden"]
BackShotChoice = Literal["advantage", "penalty"]

SLICE_CM = 10.0


class ShootingError(ValueError):
    """A shot that the rules refuse (the reason is in the message)."""


# --- range ------------------------------------------------------------------------------------
def max_range_cm(throw: int) -> float:
    """Each point of the throwing characteristic is a 10 cm slice: 3 throws to 30 cm."""
    return SLICE_CM * max(0, throw)


def range_bands(throw: int) -> tuple[tuple[RangeBand, float, float], ...]:
    """The bands as (band, from, to] in cm. The first 10 cm are short, the last slice long, the
    slices between medium; with 1 point, short to 5 cm and long to 10 cm."""
    if throw <= 0:
        return ()
    top = max_range_cm(throw)
    if throw == 1:
        return (("short", 0.0, 5.0), ("long", 5.0, top))
    if throw == 2:
        return (("short", 0.0, 10.0), ("long", 10.0, top))
    return (("short", 0.0, 10.0), ("medium", 10.0, top - SLICE_CM), ("long", top - SLICE_CM, top))


def range_band(throw: int, distance_cm: float) -> RangeBand:
    """The band a target ``distance_cm`` away falls in (a band includes its upper bound)."""
    if distance_cm < 0:
        raise ValueError(f"a distance is never negative ({distance_cm})")
    for band, _lo, hi in range_bands(throw):
        if distance_cm <= hi:
            return band
    return "out_of_range"


def range_dice(band: RangeBand, options: DoublesOptions = DEFAULT_OPTIONS) -> tuple[int, int]:
    """(advantage, penalty) dice on the shot for its range band (our reading: short +1 die,
    long 1 penalty; options ``short_range_advantage``, ``medium_range_penalty``, ``long_range_penalty``)."""
    if band == "out_of_range":
        raise ShootingError("the target is out of range")
    return {"short": (options.short_range_advantage, 0),
            "medium": (0, options.medium_range_penalty),
            "long": (0, options.long_range_penalty)}[band]


# --- line of sight ----------------------------------------------------------------------------
def visibility(fraction: float, options: DoublesOptions = DEFAULT_OPTIONS) -> Visibility:
    """Words for the visible fraction of the target's silhouette (the table samples it)."""
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"a visible fraction lies in 0..1, not {fraction}")
    if fraction >= options.visible_from:
        return "visible"
    if fraction >= options.partly_visible_from:
        return "partly_visible"
    return "hidden"


# --- may this fighter shoot? ------------------------------------------------------------------
@dataclass(frozen=True)
class ShotCheck:
    allowed: bool
    reason: str = ""
    ap_cost: int = 0


def can_shoot(*, throw: int, ap_left: int, shots_taken: int, engaged: bool, on_ground: bool,
              low_ammunition_blocked: bool = False, aimed: bool = False,
              options: DoublesOptions = DEFAULT_OPTIONS) -> ShotCheck:
    """Whether a fighter may take a shot now, and its AP cost (1, +1 to aim)."""
    cost = options.shoot_cost_ap + (options.aim_cost_ap if aimed else 0)
    if on_ground:
        return ShotCheck(False, "a fighter on the ground must stand up before shooting", cost)
    if engaged:
        return ShotCheck(False, "only an unengaged fighter may shoot", cost)
    if throw <= 0:
        return ShotCheck(False, "no throwing characteristic, no range", cost)
    if shots_taken >= options.shots_per_turn:
        return ShotCheck(False, f"already {shots_taken} shots this turn (at most {options.shots_per_turn})", cost)
    if low_ammunition_blocked:
        return ShotCheck(False, "low ammunition: the aptitude test for a double failed this turn", cost)
    if ap_left < cost:
        return ShotCheck(False, f"needs {cost} AP, has {ap_left}", cost)
    return ShotCheck(True, "", cost)


def thrown_weapon_bonus(weapon_bonus: int | None, options: DoublesOptions = DEFAULT_OPTIONS) -> int:
    """A fighter throws whatever it holds: a weapon adds its bonus; with nothing suitable in
    hand (``None``) it throws a stone picked up (``improvised_throw_bonus``)."""
    return options.improvised_throw_bonus if weapon_bonus is None else weapon_bonus


def low_ammunition_check(aptitude: int, rng, *, advantage: int = 0, penalty: int = 0,
                         options: DoublesOptions = DEFAULT_OPTIONS) -> bool:
    """At the start of its next turn, a fighter under low ammunition tests for a double:
    True means it may shoot this turn. The effect ends after that turn either way."""
    return double_test(aptitude, rng, advantage=advantage, penalty=penalty, options=options)


# --- shooting into a melee --------------------------------------------------------------------
@dataclass(frozen=True)
class MeleeTarget:
    target: str | None                       # None: the shooter chooses among ``tied``
    tied: tuple[str, ...]
    rounds: tuple[dict[str, int], ...]        # each round of aptitude results


def melee_target(candidates: Mapping[str, PoolSpec], rng,
                 options: DoublesOptions = DEFAULT_OPTIONS) -> MeleeTarget:
    """Every fighter engaged in the melee (friend or foe) takes an aptitude test (its pool:
    aptitude, with its penalties); the lowest result becomes the target. A tie for lowest is
    tested again among the tied (``melee_target_tie="retest"``) or left to the shooter."""
    if not candidates:
        raise ShootingError("no engaged fighter to hit")
    names = sorted(candidates)
    rounds: list[dict[str, int]] = []
    while True:
        res = {}
        for n in names:
            spec = candidates[n]
            res[n] = aptitude_test(spec.dice, rng, advantage=spec.advantage, penalty=spec.penalty,
                                   options=options).result
        rounds.append(res)
        low = min(res.values())
        tied = tuple(n for n in names if res[n] == low)
        if len(tied) == 1:
            return MeleeTarget(tied[0], tied, tuple(rounds))
        if options.melee_target_tie == "shooter_chooses":
            return MeleeTarget(None, tied, tuple(rounds))
        names = list(tied)


# --- back shots -------------------------------------------------------------------------------
def back_shot_allowed(seen_by_target_since_turn_start: bool) -> bool:
    """A back shot needs a shooter that was never inside the target's vision arc while it moved
    since the start of the turn (its current position included): the table answers that."""
    return not seen_by_target_since_turn_start


# --- all the dice and damage modifiers of one shot ---------------------------------------------
@dataclass(frozen=True)
class ShotModifiers:
    attack_advantage: int = 0
    attack_penalty: int = 0
    defence_advantage: int = 0
    defence_penalty: int = 0
    back_shot: bool = False
    target_on_ground: bool = False

    @property
    def target_may_turn(self) -> bool:
        """After a back shot hits, the target may turn to face the next blows."""
        return self.back_shot

    @property
    def damage_bonus(self) -> int:
        """For reference; ``damage.duel_damage`` adds these from the flags."""
        return int(self.back_shot) + int(self.target_on_ground)


def shot_modifiers(*, band: RangeBand, sight: Visibility = "visible", moved_before: bool = False,
                   aimed_in_melee: bool = False, back_shot: BackShotChoice | None = None,
                   seen_by_target_since_turn_start: bool = True, target_on_ground: bool = False,
                   shooter_on_ground: bool = False, shooter_test_penalty: int = 0,
                   target_test_penalty: int = 0, target_cover_dice: int = 0,
                   options: DoublesOptions = DEFAULT_OPTIONS) -> ShotModifiers:
    """Gather the advantage and penalty dice of both sides for one shot.

    ``shooter_test_penalty``/``target_test_penalty``: armour (``damage.armour_test_penalty``).
    ``target_cover_dice``: the target's cover effects this turn (times ``options.cover_dice``).
    Raises ``ShootingError`` for a shot the rules refuse.
    """
    if shooter_on_ground:
        raise ShootingError("shooting without getting up is impossible")
    if sight == "hidden":
        raise ShootingError("the target is hidden")
    adv, pen = range_dice(band, options)
    dadv = target_cover_dice * options.cover_dice
    dpen = 0
    if sight == "partly_visible":
        dadv += options.partly_visible_defence_advantage
    if moved_before:
        pen += options.moved_before_shooting_penalty
    if aimed_in_melee:
        pen += options.aimed_in_melee_penalty
    if back_shot is not None:
        if not back_shot_allowed(seen_by_target_since_turn_start):
            raise ShootingError("no back shot: the target saw the shooter during its movement this turn")
        if back_shot == "advantage":
            adv += options.back_shot_dice
        elif back_shot == "penalty":
            dpen += options.back_shot_dice
        else:
            raise ShootingError(f"a back shot gives 'advantage' or 'penalty', not {back_shot!r}")
    if target_on_ground:
        dpen += options.ground_target_penalty
    pen += shooter_test_penalty
    dpen += target_test_penalty
    return ShotModifiers(adv, pen, dadv, dpen, back_shot is not None, target_on_ground)


def shot_pools(*, throw: int, weapon_bonus: int, defence: int, mods: ShotModifiers,
               attack_ap: int = 0, defence_ap: int = 0) -> tuple[PoolSpec, PoolSpec]:
    """The attack and defence ``PoolSpec`` of a shot."""
    return (PoolSpec(throw + weapon_bonus, attack_ap, mods.attack_advantage, mods.attack_penalty),
            PoolSpec(defence, defence_ap, mods.defence_advantage, mods.defence_penalty))
