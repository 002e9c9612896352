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

from pydantic import Field, model_validator

from engine.data.errors import DataError, find_id, load_model, parse_data
from engine.data.shipped import shipped_folder
from engine.data.text import ID_CHARS, NAME_CHARS, TEXT_CHARS, IdText

from .options import DEFAULT_OPTIONS, DoublesOptions, _Strict  # noqa: F401  (re-exported: callers read them from here)
from .points import fighter_points, size_problems

SCHEMA_VERSION = 1
DATA_DIR = Path(__file__).parent / "data"
WARBAND_DIR = DATA_DIR / "warbands"

Material = Literal["bone", "wood", "obsidian", "stone", "metal"]
WeaponUse = Literal["melee", "thrown", "both"]


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
    def _references(self) -> Warband:
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


def parse_warband(data, file: str | Path = "<warband>") -> Warband:
    return parse_data(Warband, data, file)


def load_warband(path: str | Path) -> Warband:
    """Read and validate a warband file; raises ``DataError`` naming file, field and reason."""
    return load_model(Warband, path)


def load_warband_in_size(path, game_points: int | None = None) -> Warband:
    """``load_warband``, and refused (``DataError``) when it is worth more than the game's size
    (the default's unless given): what ``skirmish validate`` reads a warband with."""
    wb = load_warband(path)
    probs = size_problems(wb, game_points)
    if probs:
        raise DataError(path, probs)
    return wb


def load_options(path: str | Path) -> DoublesOptions:
    return load_model(DoublesOptions, path)


def parse_options(data, file: str | Path = "<options>") -> DoublesOptions:
    return parse_data(DoublesOptions, data, file)


def bundled_warbands() -> dict[str, Warband]:
    """Every warband shipped in ``data/warbands``, by id (a new dict each call; the warbands are
    shared: ``engine/data/shipped.py``)."""
    return shipped_folder("doubles warbands", WARBAND_DIR, load_warband,
                          again=lambda wid: f"warband id {wid!r} is used by another file")
