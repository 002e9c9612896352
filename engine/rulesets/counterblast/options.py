"""Counterblast rules constants that players may house-rule.

Every number the seed states (short range 8", difficulties 7/8, the 10-dice cap, ...) lives
here with the seed's value as the default, so a table can change it in data rather than code.
Fields marked *interpretation* fill a gap in the seed; see "Interpretations" in
``docs/rules/counterblast.md``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, model_validator

from engine.data.strict import JsonFraction, json_pair
from engine.rulesets.deployment.options import DeploymentOptions

OPTIONS_SCHEMA_VERSION = 1


# Upper bounds a real game could need (issue 30), each stated on its field: a difficulty of a d10
# check (explosions reach past 10), a die's sides, dice in one pool, a distance in inches (20 ft:
# past the diagonal of any table), a small count or cost, a score.
DIFFICULTY = dict(ge=1, le=30)
DICE = dict(ge=0, le=30)
INCHES = 240.0
COUNT = dict(ge=0, le=20)
SCORE = dict(ge=0, le=1000)


class CounterblastOptions(DeploymentOptions):
    # no NaN or infinity; strict types: "70" is not a number nor 1 a true/false (engine/data/strict.py)
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, strict=True)

    schema_version: Literal[1] = 1

    # --- checks -------------------------------------------------------------------------
    dice_cap: int = Field(10, ge=1, le=30, description="most dice rolled for one check (before explosions)")
    explode_on: int = Field(10, ge=2, le=10, description="default explosion threshold of a check")
    dice_cap_includes_bonus_dice: bool = Field(
        True, description="interpretation: +1D bonuses (Boost, Aim-Assist, cover...) count toward the cap")

    # --- shooting / striking ------------------------------------------------------------
    short_range: float = Field(8.0, gt=0, le=INCHES, description="inches; Shoot difficulty is lower within it")
    shoot_difficulty_short: int = Field(7, **DIFFICULTY, description="Shoot within short range")
    shoot_difficulty_long: int = Field(8, **DIFFICULTY, description="Shoot beyond short range")
    strike_difficulty_even: int = Field(7, **DIFFICULTY, description="target Grit <= attacker Grit")
    strike_difficulty_stronger: int = Field(8, **DIFFICULTY, description="target Grit > attacker Grit")
    grit_difficulty_vs_down: int = Field(2, **DIFFICULTY, description="Grit checks against Down models, always")
    aim_bonus: int = Field(1, **DICE, description="an Aimed shot's difficulty is this much lower")
    marked_bonus: int = Field(1, **DICE, description="a shot at a Marked model is this much easier")
    panic_penalty: int = Field(1, **DICE, description="a Panicked attacker's difficulty is this much higher")
    prone_own_grit_penalty: int = Field(1, **DICE, description="a Prone attacker's Strike difficulty is this much higher")
    prone_target_grit_bonus: int = Field(1, **DICE, description="a Strike at a Prone model is this much easier")
    split_offer_targets: int = Field(
        3, ge=2, le=20, description="interpretation: split attacks are offered as options over the nearest N targets "
                                    "(every split between two of them, the most even split over more); any legal "
                                    "split over any number of targets is still accepted")
    throw_range: float = Field(1.0, ge=0, le=INCHES, description="inches: how close a Throw's target must be (base edge to base edge)")
    blind_move: int = Field(2, **COUNT, description="Blind models' Move attribute (if higher)")
    blind_grit_dice: int = Field(1, **DICE, description="Blind models' Grit (if higher)")
    half_blind_dice: int = Field(1, **DICE, description="Half-blind models' Zap and Grit (if higher)")

    # --- damage ---------------------------------------------------------------------------
    defense_difficulty: int = Field(7, **DIFFICULTY, description="Defense checks")
    cover_light_dice: int = Field(1, **DICE, description="interpretation: light cover adds this many Defense dice")
    cover_heavy_dice: int = Field(2, **DICE, description="interpretation: heavy cover adds this many Defense dice")
    cover_fraction: JsonFraction = Field(
        Fraction(1, 3), ge=0, le=1, description="share of a model behind cover that makes it obscured (in cover)")
    sight_fraction: JsonFraction = Field(Fraction(1, 3), ge=0, le=1,
                                     description="share that must be visible to be a valid target")
    cover_vs_strikes: bool = Field(False, description="interpretation: cover helps Defense only against shooting")
    damage_restabilizes_down: bool = Field(
        False, description="interpretation: more damage to an already-Down model does not make it Stable again")
    heal_failure_stabilizes: bool = Field(
        False, description="interpretation: a heal with result 0 does not stabilise a Down target")
    burning_raw_damage: int = Field(3, **COUNT, description="raw damage Burning deals at Upkeep")
    burning_prone_defense_dice: int = Field(3, **DICE, description="extra Defense dice of a Prone model against burning")
    fall_damage_per_inch: int = Field(1, **COUNT, description="raw damage per inch fallen")
    fall_landing_radius: float = Field(3.0, ge=0, le=INCHES, description="inches round the spot a falling model lands in")

    # --- movement ---------------------------------------------------------------------------
    rush_die: int = Field(10, ge=1, le=100, description="sides of the die a Rush adds to the move")
    jump_die: int = Field(5, ge=1, le=100, description="sides of the die a Jump rolls")
    jump_clearance: float = Field(1.0, ge=0, le=INCHES, description="inches of terrain a Jump clears")
    d5_from_d10: bool = Field(
        True, description="interpretation: a d5 is a d10 halved rounding up (the seed's only dice are d10s)")

    # --- Moxie and activations ------------------------------------------------------------
    moxie_difficulty: int = Field(7, **DIFFICULTY, description="Moxie checks")
    single_activation_cost: int = Field(1, **COUNT, description="Moxie to activate one model")
    group_activation_cost: int = Field(2, **COUNT, description="Moxie to activate a group")
    group_max_heroes: int = Field(1, **COUNT, description="heroes in one group")
    group_max_lackeys: int = Field(2, **COUNT, description="lackeys in one group")
    free_actions: int = Field(2, **COUNT, description="actions an activated model takes without paying")
    extra_action_cost: int = Field(1, **COUNT, description="per active model per extra action")
    reaction_cost: int = Field(1, **COUNT, description="Moxie a reaction costs")
    reactions_per_crew_per_action: int = Field(
        1, ge=0, le=1, description="reactions a crew may make to one action: 1 (the seed) or 0 (a house rule: no "
                                   "reactions at all). Each action opens one reaction window, so more is not offered")
    leader_election_cost: int = Field(1, **COUNT, description="Moxie to elect a new leader")
    dread_reduction_per_moxie: int = Field(1, **COUNT, description="Dread one Moxie removes")
    psifer_is_hero: bool = Field(True, description="interpretation: psifers count as heroes")
    rally_spends: bool = Field(True, description="Rally carries no * in the action list, so it spends")
    stunned_free_actions: int = Field(
        2, **COUNT, description="interpretation: free actions of a Stunned model when activated (house rule: 1)")

    # --- stabilising, healing, panic ------------------------------------------------------
    knack_difficulty: int = Field(7, **DIFFICULTY, description="Stabilize, heal, Rally, Recover, Hack, burning panic")
    hack_door_reach: float = Field(
        1.0, ge=0, le=INCHES, description="interpretation: inches from a secure door a model may Hack it open")
    panic_difficulty: int = Field(7, **DIFFICULTY, description="Panic checks")
    rally_clear_result: int = Field(2, ge=0, le=30, description="successes of a Rally that clear Panic")
    psi_ability: Literal["knack", "zap", "grit"] = Field(
        "knack", description="interpretation: the seed names a 'Psi check' but no Psi ability")
    disperse_range: float = Field(12.0, ge=0, le=INCHES, description="inches: how close a psifer must be to Disperse a Psi check")
    dread_base: int = Field(1, **COUNT, description="Dread added in every Panic phase for the fighting")
    dread_per_down: int = Field(1, **COUNT, description="Dread per Down model")
    dread_per_casualty: int = Field(1, **COUNT, description="Dread per casualty")
    dread_per_hero_casualty: int = Field(1, **COUNT, description="extra Dread per hero casualty")

    # --- the table ----------------------------------------------------------------------------
    table_size: json_pair(Annotated[float, Field(gt=0, le=INCHES)]) = Field(
        (48.0, 36.0), description="inches: the seed's '3X4' playing area")
    table_size_tolerance: float = Field(
        1.0, ge=0, le=INCHES, description="interpretation: inches either way, so a 120x90 cm table counts as 4'x3'")

    # --- game length and scoring ----------------------------------------------------------
    turns: int = Field(6, ge=1, le=100, description="turns in a game")
    game_points: int = Field(500, gt=0, le=100_000, description="the game's size in points")
    points_formula: bool = Field(
        True, description="interpretation: a model costs what points.py works out from its sheet (a stated "
                          "'points' must equal it); off: the crew files' own points stand, and every model states them")
    battle_score_basis: Literal["game", "crew"] = Field(
        "game", description="compare remaining points to the game's size (seed) or the crew's own cost")
    battle_high_share: JsonFraction = Field(Fraction(3, 4), ge=0, le=1, description="share of points standing for the top battle score")
    battle_mid_share: JsonFraction = Field(Fraction(1, 2), ge=0, le=1, description="share of points standing for the middle battle score")
    battle_high_points: int = Field(6, **SCORE, description="battle score with the high share standing")
    battle_mid_points: int = Field(3, **SCORE, description="battle score with the middle share standing")
    battle_low_points: int = Field(1, **SCORE, description="battle score below it")
    heroic_margin: int = Field(6, **SCORE, description="score margin of a heroic victory")
    major_margin: int = Field(4, **SCORE, description="score margin of a major victory")
    objective_control_range: float = Field(3.0, gt=0, le=INCHES,
                                           description="interpretation: inches to a marker to contest it")

    @model_validator(mode="after")
    def _sane(self) -> CounterblastOptions:
        if self.battle_mid_share > self.battle_high_share:
            raise ValueError("battle_mid_share must not exceed battle_high_share")
        if self.major_margin > self.heroic_margin:
            raise ValueError("major_margin must not exceed heroic_margin")
        return self


DEFAULT_OPTIONS = CounterblastOptions()
