"""Counterblast rules constants that players may house-rule.

Every number the seed states (short range 8", difficulties 7/8, the 10-dice cap, ...) lives
here with the seed's value as the default, so a table can change it in data rather than code.
Fields marked *interpretation* fill a gap in the seed; see "Interpretations" in
``docs/rules/counterblast.md``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

OPTIONS_SCHEMA_VERSION = 1


class CounterblastOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: Literal[1] = 1

    # --- checks -------------------------------------------------------------------------
    dice_cap: int = Field(10, ge=1, description="most dice rolled for one check (before explosions)")
    explode_on: int = Field(10, ge=2, le=10, description="default explosion threshold of a check")
    dice_cap_includes_bonus_dice: bool = Field(
        True, description="interpretation: +1D bonuses (Boost, Aim-Assist, cover...) count toward the cap")

    # --- shooting / striking ------------------------------------------------------------
    short_range: float = Field(8.0, gt=0, description="inches; Shoot difficulty is lower within it")
    shoot_difficulty_short: int = 7
    shoot_difficulty_long: int = 8
    strike_difficulty_even: int = Field(7, description="target Grit <= attacker Grit")
    strike_difficulty_stronger: int = Field(8, description="target Grit > attacker Grit")
    grit_difficulty_vs_down: int = Field(2, description="Grit checks against Down models, always")
    aim_bonus: int = 1
    marked_bonus: int = 1
    panic_penalty: int = 1
    prone_own_grit_penalty: int = 1
    prone_target_grit_bonus: int = 1
    split_offer_targets: int = Field(
        3, ge=2, description="interpretation: split attacks are offered as options over the nearest N targets "
                             "(every split between two of them, the most even split over more); any legal "
                             "split over any number of targets is still accepted")
    throw_range: float = 1.0
    blind_move: int = Field(2, description="Blind models' Move attribute (if higher)")
    blind_grit_dice: int = Field(1, description="Blind models' Grit (if higher)")
    half_blind_dice: int = Field(1, description="Half-blind models' Zap and Grit (if higher)")

    # --- damage ---------------------------------------------------------------------------
    defense_difficulty: int = 7
    cover_light_dice: int = Field(1, ge=0, description="interpretation: light cover adds this many Defense dice")
    cover_heavy_dice: int = Field(2, ge=0, description="interpretation: heavy cover adds this many Defense dice")
    cover_fraction: Fraction = Field(
        Fraction(1, 3), description="share of a model behind cover that makes it obscured (in cover)")
    sight_fraction: Fraction = Field(Fraction(1, 3), description="share that must be visible to be a valid target")
    cover_vs_strikes: bool = Field(False, description="interpretation: cover helps Defense only against shooting")
    damage_restabilizes_down: bool = Field(
        False, description="interpretation: more damage to an already-Down model does not make it Stable again")
    heal_failure_stabilizes: bool = Field(
        False, description="interpretation: a heal with result 0 does not stabilise a Down target")
    burning_raw_damage: int = 3
    burning_prone_defense_dice: int = 3
    fall_damage_per_inch: int = 1
    fall_landing_radius: float = 3.0

    # --- movement ---------------------------------------------------------------------------
    rush_die: int = 10
    jump_die: int = 5
    jump_clearance: float = Field(1.0, description="inches of terrain a Jump clears")
    d5_from_d10: bool = Field(
        True, description="interpretation: a d5 is a d10 halved rounding up (the seed's only dice are d10s)")

    # --- Moxie and activations ------------------------------------------------------------
    moxie_difficulty: int = 7
    single_activation_cost: int = 1
    group_activation_cost: int = 2
    group_max_heroes: int = 1
    group_max_lackeys: int = 2
    free_actions: int = 2
    extra_action_cost: int = Field(1, description="per active model per extra action")
    reaction_cost: int = 1
    reactions_per_crew_per_action: int = 1
    leader_election_cost: int = 1
    dread_reduction_per_moxie: int = 1
    psifer_is_hero: bool = Field(True, description="interpretation: psifers count as heroes")
    rally_spends: bool = Field(True, description="Rally carries no * in the action list, so it spends")
    stunned_free_actions: int = Field(
        2, ge=0, description="interpretation: free actions of a Stunned model when activated (house rule: 1)")

    # --- stabilising, healing, panic ------------------------------------------------------
    knack_difficulty: int = Field(7, description="Stabilize, heal, Rally, Recover, Hack, burning panic")
    hack_door_reach: float = Field(
        1.0, ge=0, description="interpretation: inches from a secure door a model may Hack it open")
    panic_difficulty: int = 7
    rally_clear_result: int = 2
    psi_ability: Literal["knack", "zap", "grit"] = Field(
        "knack", description="interpretation: the seed names a 'Psi check' but no Psi ability")
    disperse_range: float = 12.0
    dread_base: int = 1
    dread_per_down: int = 1
    dread_per_casualty: int = 1
    dread_per_hero_casualty: int = 1

    # --- the table ----------------------------------------------------------------------------
    table_size: tuple[float, float] = Field((48.0, 36.0), description="inches: the seed's '3X4' playing area")
    table_size_tolerance: float = Field(
        1.0, ge=0, description="interpretation: inches either way, so a 120x90 cm table counts as 4'x3'")

    # --- game length and scoring ----------------------------------------------------------
    turns: int = 6
    game_points: int = Field(500, gt=0)
    battle_score_basis: Literal["game", "crew"] = Field(
        "game", description="compare remaining points to the game's size (seed) or the crew's own cost")
    battle_high_share: Fraction = Fraction(3, 4)
    battle_mid_share: Fraction = Fraction(1, 2)
    battle_high_points: int = 6
    battle_mid_points: int = 3
    battle_low_points: int = 1
    heroic_margin: int = 6
    major_margin: int = 4
    objective_control_range: float = Field(3.0, description="interpretation: inches to a marker to contest it")

    @model_validator(mode="after")
    def _sane(self) -> "CounterblastOptions":
        if self.battle_mid_share > self.battle_high_share:
            raise ValueError("battle_mid_share must not exceed battle_high_share")
        if self.major_margin > self.heroic_margin:
            raise ValueError("major_margin must not exceed heroic_margin")
        return self


DEFAULT_OPTIONS = CounterblastOptions()
