"""Doubles' house-rule options (``DoublesOptions``): what players could read differently and the
constants a table may house-rule. Apart from ``data.py`` (the sheets) so that the points formula
(``points.py``), which ``data.py`` asks to check a warband's stated points, can read the options
without importing ``data.py`` back.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.rulesets.deployment.options import DeploymentOptions


class _Strict(BaseModel):
    # no NaN or infinity; strict types: "70" is not a number nor 1 a true/false (engine/data/strict.py)
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, strict=True)


class DoublesOptions(DeploymentOptions, _Strict):
    """Rules players could read differently, and constants a table may house-rule.

    Each field is named in docs/rules/doubles.md where it is used; the defaults are our reading.
    """
    schema_version: Literal[1] = 1

    # --- dice pools ----------------------------------------------------------------------
    cancel_advantage_and_penalty: bool = Field(True, description="an advantage and a penalty on the same roll cancel one for one")
    penalty_rule: Literal["cancels_highest", "must_keep", "opponent_discards"] = Field(
        "cancels_highest",
        description="cancels_highest: penalty dice are rolled with the pool, then as many of the highest dice as "
                    "there are penalty dice are set aside (a penalty die first among equal values), and a kept pair "
                    "with a penalty die in it is never a double; "
                    "must_keep: a penalty die is rolled with the pool and must be among the kept dice; "
                    "opponent_discards: no die is added, the opponent sets one rolled die aside per penalty")
    distinct_double_effects: bool = Field(False, description="a side may not pick the same double effect twice in one duel")
    melee_defender_double_six: Literal["low_ammunition", "two_effects"] = Field(
        "low_ammunition",
        description="what a defender's double 6 does in melee: low_ammunition (the seed's only double-6 defence: the "
                    "attacker must roll a double next turn to shoot) or two_effects (two different 1-5 defences)")
    tactical_advantage_fixed_damage: bool = Field(
        True, description="a tactical-advantage win deals exactly 1 point, armour, bonuses and aggressiveness aside "
                          "(the seed: 'the defender takes 1 point of damage'); false: the table's 1 point for a "
                          "difference of 0, with armour and bonuses")
    precise_attack_penalty: int = Field(1, ge=0, le=3, description="penalty dice a precise attack gives the opponent")
    cover_dice: int = Field(1, ge=0, le=3, description="advantage dice on defence against projectiles that cover gives")
    intimidation_next_turn_loss: int = Field(2, ge=0, le=6, description="AP an intimidated attacker with none left loses next turn")

    # --- damage and armour --------------------------------------------------------------
    instant_death_points: int | None = Field(
        None, ge=1, le=30, description="None: a difference of 12 kills outright; a number: it deals that many points, armour applies")
    stripped_armour_counts_as_none: bool = Field(
        True, description="once flaws have taken armour to 0, further flaws or a force attack add +1 damage as if unarmoured")
    armour_damage_permanent: bool = Field(False, description="armour lost to flaws and force attacks stays lost for the game")

    # --- shooting -----------------------------------------------------------------------
    shots_per_turn: int = Field(2, ge=0, le=6, description="the seed: up to 2 actions of shooting per turn")
    short_range_advantage: int = Field(1, ge=0, le=3, description="advantage dice of a shot at short range")
    medium_range_penalty: int = Field(0, ge=0, le=3, description="penalty dice of a shot at medium range")
    long_range_penalty: int = Field(1, ge=0, le=3, description="penalty dice of a shot at long range")
    aim_cost_ap: int = Field(1, ge=0, le=3, description="AP to aim")
    aimed_in_melee_penalty: int = Field(1, ge=0, le=3, description="penalty dice of a shot at a target in melee")
    moved_before_shooting_penalty: int = Field(1, ge=0, le=3, description="penalty dice of a shooter that moved first")
    back_shot_dice: int = Field(1, ge=0, le=3, description="the advantage gained or the penalty given by a back shot")
    back_shot_damage: int = Field(1, ge=0, le=3, description="damage added by a back shot")
    ground_target_penalty: int = Field(1, ge=0, le=3, description="penalty dice of a defender on the ground")
    ground_target_damage: int = Field(1, ge=0, le=3, description="damage added against a target on the ground")
    visible_from: float = Field(0.9, gt=0, le=1, description="visible fraction from which a target is 'visible'")
    partly_visible_from: float = Field(0.1, gt=0, le=1, description="visible fraction from which a target is 'partly visible' (below: hidden)")
    partly_visible_defence_advantage: int = Field(1, ge=0, le=3, description="advantage dice on defence of a partly visible target")
    melee_target_tie: Literal["retest", "shooter_chooses"] = Field(
        "retest", description="a shot into a melee: fighters tied for the lowest test 'retest' among "
                              "themselves, or the shooter chooses among them ('shooter_chooses')")
    improvised_throw_bonus: int = Field(0, ge=0, le=3, description="bonus of a stone picked up when nothing else is thrown")
    thrown_weapon: Literal["kept", "dropped"] = Field(
        "kept",
        description="kept: placing the projectile only marks where it lands, the weapon stays in hand; "
                    "dropped: a thrown weapon leaves the hand and lies where it landed until a fighter of its "
                    "warband picks it up")
    pick_up_cost_ap: int = Field(1, ge=0, le=3, description="AP to pick up a dropped weapon (thrown_weapon='dropped')")

    # --- whole game ---------------------------------------------------------------------
    turn_limit: int = Field(6, ge=1, le=30, description="turns in a game")
    move_cost_ap: int = Field(1, ge=1, le=3, description="AP of a move")
    shoot_cost_ap: int = Field(1, ge=1, le=3, description="AP of a shot")
    melee_attack_cost_ap: int = Field(1, ge=1, le=3, description="AP of a melee attack")
    stand_up_cost_ap: int = Field(1, ge=0, le=3, description="AP to stand up")
    disengage_extra_ap: int = Field(1, ge=0, le=3, description="AP a move out of an engagement costs on top")
    difficult_terrain_factor: float = Field(0.5, gt=0, le=1, description="share of a move left in difficult terrain (0.5: it counts double)")
    engagement_distance_cm: float = Field(1.0, ge=0, le=5, description="bases this close (edge to edge) are engaged")
    vision_arc_deg: float = Field(180.0, gt=0, le=360, description="a fighter's vision arc, centred on its facing (back shots)")

    # --- forces (issue 49; ours: the seed prices nothing) ---------------------------------
    game_points: int = Field(
        200, ge=1, le=10_000,
        description="ours: the game's size, the most a warband may be worth in points (points.py); the dearest "
                    "shipped warband, 186, rounded up to 200 (docs/rules/doubles.md, Forces)")
    # --- missions (ours: the seed has none; docs/rules/doubles.md, "Missions"). A mission is chosen
    # with the option "mission" and played to ``turn_limit``; these are its numbers.
    stones_distance_cm: float = Field(
        5.0, gt=0, le=30,
        description="ours, Standing Stones: a standing fighter whose base edge is within this many cm of a stone "
                    "is near it; a stone with fighters of one side only near it is held by that side")
    stones_points: int = Field(
        1, ge=1, le=10, description="ours, Standing Stones: mission points a side scores at the end of each turn "
                                    "for each stone it holds")
    relic_reach_cm: float = Field(
        2.0, gt=0, le=10,
        description="ours, Relic Hunt: a fighter whose base edge is within this many cm of a relic lying on the "
                    "ground may pick it up (unless an enemy fighter on its feet is as near)")
    relic_pick_up_ap: int = Field(1, ge=0, le=3, description="ours, Relic Hunt: AP to pick up a relic")
    relic_points: int = Field(
        1, ge=1, le=10, description="ours, Relic Hunt: mission points a side scores at the end of each turn for "
                                    "each relic one of its fighters carries")

    def __deepcopy__(self, memo):  # frozen: a game state's copies share it
        return self

    @model_validator(mode="after")
    def _thresholds(self) -> DoublesOptions:
        if self.partly_visible_from > self.visible_from:
            raise ValueError("partly_visible_from must not exceed visible_from")
        return self


DEFAULT_OPTIONS = DoublesOptions()
