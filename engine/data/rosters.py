"""Rosters and the other ruleset data files, recognised by their fields.

Each ruleset owns the pydantic schema of its own rosters (a Counterblast crew, a Frontier
posse, a Doubles warband: models, profiles and equipment in that ruleset's terms), in
``engine/rulesets/<id>/data.py``. This module only tells which schema a file is meant for, so
``skirmish validate`` can check any of them and name the file, the field and the reason.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import DataError


@dataclass(frozen=True)
class DataKind:
    name: str               # what the file is, in a user's words
    keys: frozenset[str]    # top-level fields that only this kind of file has together
    loader: str             # "module:function" called with the file's path; raises DataError
    summary: str = ""       # "module:function" giving a line about the loaded object (its points)


KINDS: tuple[DataKind, ...] = (
    DataKind("Counterblast crew", frozenset({"points_limit", "leader", "models"}),
             "engine.rulesets.counterblast.data:load_crew", "engine.rulesets.counterblast.data:crew_summary"),
    DataKind("Counterblast mission", frozenset({"min_markers", "objectives"}),
             "engine.rulesets.counterblast.data:load_mission"),
    DataKind("Counterblast armoury", frozenset({"shooting", "striking", "gear"}),
             "engine.rulesets.counterblast.data:load_armoury"),
    DataKind("Frontier posse", frozenset({"faction", "leader_rule", "models"}),
             "engine.rulesets.frontier.data:load_posse_in_budget", "engine.rulesets.frontier.data:posse_summary"),
    DataKind("Frontier item catalogue", frozenset({"items"}),
             "engine.rulesets.frontier.data:load_items"),
    DataKind("Frontier options", frozenset({"hand_size", "cards_per_turn"}),
             "engine.rulesets.frontier.data:load_options"),
    DataKind("Doubles warband", frozenset({"fighters", "weapons"}),
             "engine.rulesets.doubles.data:load_warband_in_size", "engine.rulesets.doubles.points:summary"),
)


def kind_of(data: Any) -> DataKind | None:
    if not isinstance(data, dict):
        return None
    keys = set(data)
    for kind in KINDS:
        if kind.keys <= keys:
            return kind
    return None


def validate_roster(data: Any, path: str | Path) -> str:
    """Validate a roster-like file; return a one-line summary or raise DataError."""
    kind = kind_of(data)
    if kind is None:
        raise DataError(path, [("", "not a map, roster, save or other ruleset data file that this build knows")])
    mod, fn = kind.loader.split(":")
    loaded = getattr(importlib.import_module(mod), fn)(path)
    ident = getattr(loaded, "id", "") or getattr(loaded, "name", "")
    line = f"{kind.name}" + (f" {ident!r}" if ident else "")
    if kind.summary:
        mod, fn = kind.summary.split(":")
        line += ": " + getattr(importlib.import_module(mod), fn)(loaded)
    return line
