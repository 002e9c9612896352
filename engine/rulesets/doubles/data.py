"""Doubles data: characteristics, weapons, armour, warbands and the house-rule options.

The seed lost the names of two characteristics with their icons ("The range depends of the
characteristic [icon]", "uses his [icon] characteristic"). We name the one that sets range and
rolls the dice of a shot ``throw`` (French *Lancer*), and add the ones a whole game needs
(see docs/rules/doubles.md, "Interpretations"). Every file is refused with file, field and
reason through ``engine.data.errors``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.data.text import ID_CHARS, NAME_CHARS, TEXT_CHARS, IdText
from engine.data.errors import DataError, find_id, load_model, parse_data
from engine.rulesets.deployment.options import DeploymentOptions

SCHEMA_VERSION = 1
DATA_DIR = Path(__file__).parent / "data"
WARBAND_DIR = DATA_DIR / "warbands"

Material = Literal["bone", "wood", "obsidian", "stone", "metal"]
WeaponUse = Literal["melee", "thrown", "both"]



class _Strict(BaseModel):
    # no NaN or infinity; strict types: "70" is not a number nor 1 a true/false (engine/data/strict.py)
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, strict=True)


class Characteristics(_Strict):
    """A fighter's sheet. Dice characteristics count d6; ``movement`` is in centimetres."""
    combat: int = Field(ge=0, le=10, description="d6 of a melee attack (our name; the seed covers shooting only)")
    throw: int = Field(ge=0, le=10, description="the lost icon: d6 of a shot, and range in 10 cm slices")
    defence: int = Field(ge=0, le=10, description="d6 of a defence roll (named by the seed)")
    aptitude: int = Field(ge=0, le=10, description="d6 of an aptitude test (the seed's 'test d'aptitude')")
    movement: int = Field(ge=0, le=50, description="cm moved for one action point")
    initiative: int = Field(ge=0, le=10, description="added to 1d6 to place the fighter on the initiative track")
    health: int = Field(ge=1, le=20, description="damage points a fighter can take before it is out of action")
    action_points: int = Field(ge=1, le=6, description="action points (AP, French PA) each turn")


class Weapon(_Strict):
    id: str = Field(min_length=1, max_length=ID_CHARS, pattern=r"^[a-z0-9_\-]+$")
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    material: Material = Field(default="bone", description="the seed: when nothing says otherwise, the weapon is bone")
    bonus: int = Field(ge=0, le=5, description="d6 added to the attack characteristic")
    use: WeaponUse = "both"


class Armour(_Strict):
    id: str = Field(min_length=1, max_length=ID_CHARS, pattern=r"^[a-z0-9_\-]+$")
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    protection: int = Field(ge=1, le=5, description="damage points deducted from each hit")
    test_penalty: int = Field(default=1, ge=0, le=3, description="penalty dice on every test of its wearer")


class Fighter(_Strict):
    id: str = Field(min_length=1, max_length=ID_CHARS, pattern=r"^[a-z0-9_\-]+$")
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    value: int | None = Field(default=None, ge=1, le=1000,
                              description="victory points the enemy scores for taking it out; by default its points")
    points: int | None = Field(default=None, ge=1, le=1000,
                               description="its points (points.py works them out from the sheet); checked when given")
    characteristics: Characteristics
    weapons: list[IdText] = Field(default_factory=list, description="ids from the warband's weapons")
    armour: str | None = Field(default=None, max_length=ID_CHARS, description="an id from the warband's armours")


class Warband(_Strict):
    schema_version: Literal[1] = Field(description="warband schema version; this build reads 1")
    id: str = Field(min_length=1, max_length=ID_CHARS, pattern=r"^[a-z0-9_\-]+$")
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    description: str = Field("", max_length=TEXT_CHARS)
    weapons: list[Weapon] = Field(default_factory=list)
    armours: list[Armour] = Field(default_factory=list)
    fighters: list[Fighter] = Field(min_length=1)
    points_limit: int | None = Field(default=None, ge=1, le=10_000,
                                     description="the most points the warband may field; none: no limit")

    @model_validator(mode="after")
    def _references(self) -> "Warband":
        problems: list[str] = []
        for group in ("weapons", "armours", "fighters"):
            seen: set[str] = set()
            for i, item in enumerate(getattr(self, group)):
                if item.id in seen:
                    problems.append(f"{group}[{i}].id: duplicate id {item.id!r}")
                seen.add(item.id)
        weapon_ids = {w.id for w in self.weapons}
        armour_ids = {a.id for a in self.armours}
        for i, f in enumerate(self.fighters):
            for j, w in enumerate(f.weapons):
                if w not in weapon_ids:
                    problems.append(f"fighters[{i}].weapons[{j}]: unknown weapon {w!r} (known: {sorted(weapon_ids)})")
            if f.armour is not None and f.armour not in armour_ids:
                problems.append(f"fighters[{i}].armour: unknown armour {f.armour!r} (known: {sorted(armour_ids)})")
        if not problems:
            problems += self._points_problems()
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def _points_problems(self) -> list[str]:
        """A stated ``points`` that is not the sheet's, or a total over ``points_limit``: the file
        should tell a reader what the fighters are worth, and stay true when the sheet changes."""
        from .points import fighter_points   # points weighs the sheets this module defines

        out, total = [], 0
        for i, f in enumerate(self.fighters):
            p = fighter_points(self, f)
            total += p
            if f.points is not None and f.points != p:
                out.append(f"fighters[{i}].points: {f.name}'s sheet is worth {p} points, not {f.points}")
        if self.points_limit is not None and total > self.points_limit:
            out.append(f"points_limit: the fighters are worth {total} points, over the limit of {self.points_limit}")
        return out

    # An unknown id is an ``UnknownId`` naming it and the warband's ids, never a StopIteration.
    def weapon(self, weapon_id: str) -> Weapon:
        return find_id(self.weapons, weapon_id, "weapon", f"warband {self.id!r}", "weapons")

    def armour_of(self, fighter: Fighter) -> Armour | None:
        if fighter.armour is None:
            return None
        return find_id(self.armours, fighter.armour, "armour", f"warband {self.id!r}", "armours")

    def fighter(self, fighter_id: str) -> Fighter:
        return find_id(self.fighters, fighter_id, "fighter", f"warband {self.id!r}", "fighters")


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
    def _thresholds(self) -> "DoublesOptions":
        if self.partly_visible_from > self.visible_from:
            raise ValueError("partly_visible_from must not exceed visible_from")
        return self


DEFAULT_OPTIONS = DoublesOptions()


def parse_warband(data, file: str | Path = "<warband>") -> Warband:
    return parse_data(Warband, data, file)


def load_warband(path: str | Path) -> Warband:
    """Read and validate a warband file; raises ``DataError`` naming file, field and reason."""
    return load_model(Warband, path)


def load_options(path: str | Path) -> DoublesOptions:
    return load_model(DoublesOptions, path)


def parse_options(data, file: str | Path = "<options>") -> DoublesOptions:
    return parse_data(DoublesOptions, data, file)


# The shipped warbands, parsed once per process rather than twice at every game's set-up (a
# balance run sets up thousands): the models are frozen, so sharing them is safe; a file changed
# on disk (modification time or size) is read again.
_BUNDLED: dict = {}


def bundled_warbands() -> dict[str, Warband]:
    """Every warband shipped in ``data/warbands``, by id (a new dict each call; the warbands are
    shared)."""
    paths = sorted(WARBAND_DIR.glob("*.json"))
    key = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in paths)
    got = _BUNDLED.get(key)
    if got is None:
        got = {}
        for path in paths:
            wb = load_warband(path)
            if wb.id in got:
                raise DataError(path, [("id", f"warband id {wb.id!r} is used by another file")])
            got[wb.id] = wb
        _BUNDLED.clear()
        _BUNDLED[key] = got
    return dict(got)
