"""Resolving damage: cover, the Defense check, damage tokens against Mettle, Down / Stable /
casualty, stabilising, healing, the Upkeep check on Down models, falling and burning.

Cover (the seed uses it but leaves it open; see docs "Interpretations"):

* A target is *in cover* when at least ``cover_fraction`` (a third) of its silhouette, as seen
  by the attacker, is hidden by terrain that gives cover; the table reports the hidden shares
  behind light and behind heavy terrain.
* Heavy cover when at least that share is hidden by heavy terrain alone, else light cover.
  A Prone model always has at least light cover. Cover does not stack: the best one counts.
* Cover adds dice to the Defense check: light +1D, heavy +2D (options). It helps against
  shooting (Shoot, Snapshot, Return-fire), not Strikes, falls or burning (``cover_vs_strikes``).
* When another ability replaces Defense, cover (and anything else modifying Defense) is ignored.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import floor
from typing import Literal

from engine.core.rng import GameRng

from .checks import CheckResult, ability_check, pool_size
from .options import DEFAULT_OPTIONS, CounterblastOptions

CoverClass = Literal["none", "light", "heavy"]
AttackKind = Literal["shoot", "strike", "psi", "fall", "burning", "other"]
_RANK = {"none": 0, "light": 1, "heavy": 2}


def _frac(x) -> Fraction:
    return Fraction(x).limit_denominator(10**6)


def cover_class(light_fraction: float | Fraction = 0, heavy_fraction: float | Fraction = 0, *,
                prone: bool = False, options: CounterblastOptions = DEFAULT_OPTIONS) -> CoverClass:
    """Cover from the hidden shares of the target's silhouette (behind light / heavy terrain)."""
    lf, hf = _frac(light_fraction), _frac(heavy_fraction)
    if hf >= options.cover_fraction:
        return "heavy"
    if lf + hf >= options.cover_fraction or prone:
        return "light"
    return "none"


def best_cover(*covers: CoverClass) -> CoverClass:
    return max(covers, key=_RANK.__getitem__, default="none")


def cover_dice(cover: CoverClass, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    return {"none": 0, "light": options.cover_light_dice, "heavy": options.cover_heavy_dice}[cover]


def cover_applies(attack: AttackKind, options: CounterblastOptions = DEFAULT_OPTIONS) -> bool:
    return attack == "shoot" or (attack == "strike" and options.cover_vs_strikes)


def defense_pool(defense: int, *, cover: CoverClass = "none", attack: AttackKind = "shoot",
                 parry_grit: int = 0, bonus_dice: int = 0, substitute: int | None = None,
                 options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Dice rolled to resist raw damage.

    Defense, plus Parry's Grit (a Parrying model adds its Grit to its Defense), plus cover dice
    where cover applies, plus other ``bonus_dice`` (e.g. +3D for a Prone model against burning),
    capped at the dice cap. With ``substitute`` (another ability rolled instead of Defense)
    no Defense modifier applies: just that ability, capped.
    """
    if substitute is not None:
        return pool_size(substitute, 0, options)
    extra = bonus_dice + (cover_dice(cover, options) if cover_applies(attack, options) else 0)
    return pool_size(defense + parry_grit, extra, options)


def defense_check(rng: GameRng, pool: int, options: CounterblastOptions = DEFAULT_OPTIONS) -> CheckResult:
    """The Defense check vs 7 for a pool from ``defense_pool`` (explodes on 10s)."""
    return ability_check(rng, pool, options.defense_difficulty, options=options)


def tokens_from(raw: int, defense_successes: int) -> int:
    """Each Defense success cancels one raw damage, to a minimum of 0; the rest become tokens."""
    return max(0, raw - max(0, defense_successes))


@dataclass(frozen=True)
class Wounds:
    """A model's damage state."""
    tokens: int = 0
    down: bool = False
    stable: bool = False
    casualty: bool = False


def status_for(tokens: int, mettle: int) -> str:
    """'ok' below Mettle, 'down' from Mettle to twice Mettle, 'casualty' above twice Mettle."""
    if tokens > 2 * mettle:
        return "casualty"
    if tokens >= mettle:
        return "down"
    return "ok"


def apply_tokens(w: Wounds, new_tokens: int, mettle: int,
                 options: CounterblastOptions = DEFAULT_OPTIONS) -> Wounds:
    """Add damage tokens and apply their effect at once.

    Reaching Mettle makes a standing model Down and Stable (the caller also makes it Prone);
    more than twice Mettle makes it a casualty. Further damage to a model already Down does not
    make it Stable again unless ``damage_restabilizes_down``.
    """
    if w.casualty:
        return w
    if new_tokens < 0:
        raise ValueError("damage tokens are added, never negative")
    tokens = w.tokens + new_tokens
    st = status_for(tokens, mettle)
    if st == "casualty":
        return Wounds(tokens, w.down, w.stable, True)
    if st == "down":
        if not w.down:
            return Wounds(tokens, True, True)
        stable = w.stable or (options.damage_restabilizes_down and new_tokens > 0)
        return Wounds(tokens, True, stable)
    return Wounds(tokens, False, False)


def newly_down(before: Wounds, after: Wounds) -> bool:
    return after.down and not before.down and not after.casualty


def stabilize_actions(kind: str) -> frozenset[str]:
    """Engineer stabilises robots, Treat living models, either one cyberforms."""
    return {"robot": frozenset({"engineer"}), "living": frozenset({"treat"}),
            "cyberform": frozenset({"engineer", "treat"})}[kind]


HEAL_GEAR: dict[str, str] = {"treat": "medkit", "engineer": "tools"}


def can_heal(action: str, gear_kinds: set[str] | frozenset[str], target_kind: str) -> bool:
    """Healing needs the right gear: a medkit with Treat (living, cyberform), tools with Engineer
    (robot, cyberform)."""
    return action in stabilize_actions(target_kind) and HEAL_GEAR.get(action) in set(gear_kinds)


def skill_useful(action: str, healer_gear: set[str] | frozenset[str], target_kind: str, down: bool,
                 stable: bool, tokens: int) -> bool:
    """Is Treat or Engineer (``action``) worth offering on a friend? It must suit the target's
    kind; then a Down target not yet Stable can be stabilised, and a standing one with more than
    one token healed by the right gear. The rules list the option by this, and the easy agent
    weighs an activation by it (one rule, asked from both)."""
    if action not in stabilize_actions(target_kind):
        return False
    if down and not stable:
        return True
    return can_heal(action, healer_gear, target_kind) and tokens > 1


def stabilize(w: Wounds, successes: int) -> Wounds:
    """Stabilise (Knack/7): a Down target becomes Stable on a success."""
    if w.casualty or not w.down or successes <= 0:
        return w
    return replace(w, stable=True)


def heal(w: Wounds, successes: int, mettle: int, options: CounterblastOptions = DEFAULT_OPTIONS) -> Wounds:
    """Heal (Knack/7): one token removed per success, never below one token left; a target
    still Down becomes Stable (on a success, unless ``heal_failure_stabilizes``); a target left
    with fewer tokens than its Mettle stops being Down."""
    if w.casualty:
        return w
    s = max(0, successes)
    tokens = max(min(w.tokens, 1), w.tokens - s)
    if tokens < mettle:
        return Wounds(tokens, False, False)
    if not w.down:
        return Wounds(tokens)
    stable = w.stable or s > 0 or options.heal_failure_stabilizes
    return Wounds(tokens, True, stable)


def upkeep(w: Wounds) -> Wounds:
    """Upkeep: a Down model that is not Stable is removed as a casualty; a Down, Stable model
    becomes un-Stable (someone must stabilise it again before the next Upkeep)."""
    if w.casualty or not w.down:
        return w
    if not w.stable:
        return replace(w, casualty=True)
    return replace(w, stable=False)


def fall_damage(drop: float, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Raw damage for a fall: 1 per full inch fallen."""
    return max(0, floor(drop + 1e-9)) * options.fall_damage_per_inch


def burning_defense_pool(defense: int, prone: bool, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Defense against burning's raw damage: Prone models get +3D; cover does not apply."""
    return defense_pool(defense, attack="burning",
                        bonus_dice=options.burning_prone_defense_dice if prone else 0, options=options)


@dataclass(frozen=True)
class BurningOutcome:
    tokens: int
    panic_test: bool       # tokens gained: roll Knack/7 at once, Panicked on a failure
    stops_burning: bool    # no tokens from burning: the model stops burning


def burning(defense_successes: int, options: CounterblastOptions = DEFAULT_OPTIONS) -> BurningOutcome:
    t = tokens_from(options.burning_raw_damage, defense_successes)
    return BurningOutcome(t, t > 0, t == 0)
