"""Damage: the table from the difference of results, armour, and weapon breakage by material.

The winner's result minus the loser's gives the damage points from ``DAMAGE_TABLE`` (12 or
more: instant death). Bonuses (flaw or force attack on an unarmoured target, the force
attack's +1, a back shot, a target on the ground) are added; the remaining armour protection
and the defender's aggressiveness are taken off; the total is never below 0.
"""
from __future__ import annotations

from dataclasses import dataclass

from .data import DEFAULT_OPTIONS, Armour, DoublesOptions, Material

# (largest difference of the row, damage points); a difference of 12 or more kills outright.
DAMAGE_TABLE: tuple[tuple[int, int], ...] = ((2, 1), (4, 2), (6, 3), (8, 4), (9, 5), (10, 6), (11, 8))
INSTANT_DEATH_AT = 12


def table_damage(difference: int) -> int | None:
    """Damage points for ``difference`` (attack result minus defence result); ``None`` means
    instant death. A difference of 0 (a tie the attacker won) reads as 'up to 2': 1 point."""
    if difference < 0:
        raise ValueError(f"a hit has a difference of 0 or more, not {difference}")
    for top, points in DAMAGE_TABLE:
        if difference <= top:
            return points
    return None


@dataclass(frozen=True)
class DamageOutcome:
    difference: int
    table_points: int | None      # None: instant death
    bonus: int                    # +1s added
    protection: int               # armour protection left after flaws and force attacks
    reduction: int                # aggressiveness
    points: int                   # damage taken (0 with an instant death: see ``instant_death``)
    armour_lost: int              # protection lost for the rest of the game (option)

    @property
    def instant_death(self) -> bool:
        return self.table_points is None


def compute_damage(difference: int, *, protection: int = 0, flaws: int = 0, force_attacks: int = 0,
                   bonus: int = 0, reduction: int = 0,
                   options: DoublesOptions = DEFAULT_OPTIONS) -> DamageOutcome:
    """Damage of one hit.

    ``protection`` is the defender's armour; each flaw takes 1 off it, or adds +1 damage when
    there is none; each force attack sets it to 0, or adds +1 damage when there is none, and
    adds +1 damage. ``bonus``: other +1s (back shot, target on the ground). ``reduction``:
    the defender's aggressiveness this turn. Instant death ignores armour and reductions,
    unless ``options.instant_death_points`` turns it into that many points.
    """
    worn = protection > 0
    prot, extra = protection, 0
    for _ in range(flaws):
        none = prot == 0 if options.stripped_armour_counts_as_none else not worn
        if none:
            extra += 1
        elif prot > 0:
            prot -= 1
    for _ in range(force_attacks):
        none = prot == 0 if options.stripped_armour_counts_as_none else not worn
        if none:
            extra += 1
        prot = 0
        extra += 1
    lost = protection - prot if options.armour_damage_permanent else 0
    pts = table_damage(difference)
    total_bonus = bonus + extra
    if pts is None:
        if options.instant_death_points is None:
            return DamageOutcome(difference, None, total_bonus, prot, reduction, 0, lost)
        pts = options.instant_death_points
    return DamageOutcome(difference, pts, total_bonus, prot, reduction,
                         max(0, pts + total_bonus - prot - reduction), lost)


def duel_damage(result, *, protection: int = 0, back_shot: bool = False, target_on_ground: bool = False,
                aggressiveness_this_turn: int = 0,
                options: DoublesOptions = DEFAULT_OPTIONS) -> DamageOutcome | None:
    """Damage of a resolved duel (``duel.DuelResult``); ``None`` when the attack missed.

    ``aggressiveness_this_turn`` counts the defender's earlier aggressiveness effects this turn;
    the ones of this duel are added from the result.
    """
    if not result.hit:
        return None
    bonus = (options.back_shot_damage if back_shot else 0) + (options.ground_target_damage if target_on_ground else 0)
    if result.decided_by == "tactical_advantage" and options.tactical_advantage_fixed_damage:
        return DamageOutcome(result.difference, 1, 0, protection, 0, 1, 0)
    return compute_damage(result.difference, protection=protection, flaws=result.flaws,
                          force_attacks=result.force_attacks, bonus=bonus,
                          reduction=aggressiveness_this_turn + result.aggressiveness, options=options)


def armour_test_penalty(armour: Armour | None) -> int:
    """Penalty dice armour puts on every test of its wearer (Bones' example)."""
    return armour.test_penalty if armour is not None else 0


# --- weapon breakage --------------------------------------------------------------------------
BREAKS_ON: dict[str, tuple[tuple[int, ...], ...]] = {
    "bone": ((1, 2),),
    "wood": ((1, 2),),
    "obsidian": ((1,),),
    "stone": ((1,),),
    "metal": ((1,), (1,)),      # a 1, then a second 1
}


@dataclass(frozen=True)
class BreakTest:
    material: Material
    rolls: tuple[int, ...]
    broken: bool


def weapon_break_test(material: Material | None, rng) -> BreakTest:
    """Roll the break test of one weapon used in a force attack. Unknown material: bone."""
    material = material or "bone"
    rolls: list[int] = []
    for faces in BREAKS_ON[material]:
        r = rng.d(6)
        rolls.append(r)
        if r not in faces:
            return BreakTest(material, tuple(rolls), False)
    return BreakTest(material, tuple(rolls), True)


def break_chance(material: Material | None) -> float:
    """Exact probability that the weapon breaks (for the client and the AI)."""
    p = 1.0
    for faces in BREAKS_ON[material or "bone"]:
        p *= len(faces) / 6
    return p


def apply_damage(health: int, outcome: DamageOutcome | None) -> tuple[int, bool]:
    """(health left, out of action) after a hit."""
    if outcome is None:
        return health, False
    if outcome.instant_death:
        return 0, True
    left = max(0, health - outcome.points)
    return left, left == 0
