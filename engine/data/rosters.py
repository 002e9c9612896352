"""Roster files: the models a player brings, their profiles and equipment.

The shape here is common to every ruleset; what a profile's stats mean belongs to the ruleset,
which may register a stricter schema for its own rosters (``register_roster_schema``). A roster
names its ruleset so ``skirmish validate`` knows which schema to apply.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .errors import DataError, parse_data

ROSTER_SCHEMA_VERSION = 1
Stat = int | float | str | bool


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Profile(_Strict):
    stats: dict[str, Stat] = Field(default_factory=dict)
    keywords: list[str] = Field(default_factory=list)


class Item(_Strict):
    kind: str = Field(min_length=1, description="weapon, armour, gear, ...")
    name: str = ""
    stats: dict[str, Stat] = Field(default_factory=dict)


class RosterModel(_Strict):
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    profile: str
    base_mm: float = Field(ge=10, le=160, description="base diameter in mm")
    height_mm: float = Field(gt=0, le=300, description="model height in mm")
    equipment: list[str] = Field(default_factory=list)
    leader: bool = False


class RosterFile(_Strict):
    schema_version: Literal[1]
    ruleset: str = Field(min_length=1)
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    faction: str = ""
    models: list[RosterModel] = Field(min_length=1)
    profiles: dict[str, Profile]
    equipment: dict[str, Item] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _references(self) -> "RosterFile":
        problems, seen = [], set()
        for i, m in enumerate(self.models):
            if m.id in seen:
                problems.append(f"models[{i}].id: duplicate id {m.id!r}")
            seen.add(m.id)
            if m.profile not in self.profiles:
                problems.append(f"models[{i}].profile: no profile {m.profile!r} in this roster")
            for e in m.equipment:
                if e not in self.equipment:
                    problems.append(f"models[{i}].equipment: no item {e!r} in this roster")
        if problems:
            raise ValueError("; ".join(problems))
        return self


# ruleset id -> "module:function" taking (data, path) and returning a one-line summary
_SCHEMAS: dict[str, str] = {}


def register_roster_schema(ruleset: str, target: str) -> None:
    _SCHEMAS[ruleset] = target


def validate_roster(data: Any, path: str | Path) -> str:
    if not isinstance(data, dict):
        raise DataError(path, [("", "a roster must be a JSON object")])
    ruleset = data.get("ruleset")
    if ruleset in _SCHEMAS:
        mod, fn = _SCHEMAS[ruleset].split(":")
        check: Callable[[Any, Any], str] = getattr(importlib.import_module(mod), fn)
        return check(data, path)
    if ruleset is None and "schema_version" not in data:
        raise DataError(path, [("", "not a map, roster or save: a roster names its 'ruleset'")])
    r = parse_data(RosterFile, data, path)
    return f"roster {r.id!r} for {r.ruleset}: {len(r.models)} models"
