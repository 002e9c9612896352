"""What the map schema refuses in a map, as (field, reason): for a draft (one side's zone may be
missing while it is redrawn) and for saving."""
from __future__ import annotations

import re

from pydantic import ValidationError

from engine.data.errors import problems_of
from engine.data.maps import MapFile, Zone


def draft_problems(m: MapFile) -> list[tuple[str, str]]:
    """What the map schema refuses in ``m`` as (field, reason), except a side without a
    deployment zone (a draft may lack one while it is redrawn; ``save_problems`` has it)."""
    sides = {z.side for z in m.deployment}
    stubs = [Zone(side=s, points=[(0, 0), (m.width, 0), (m.width, m.height)]) for s in (1, 2) if s not in sides]
    probe = m.model_copy(update={"deployment": list(m.deployment) + stubs}) if stubs else m
    return _schema_problems(probe)


def save_problems(m: MapFile) -> list[tuple[str, str]]:
    """What the map schema refuses in ``m`` as (field, reason): empty when it may be saved."""
    return _schema_problems(m)


def _schema_problems(m: MapFile) -> list[tuple[str, str]]:
    try:
        MapFile.model_validate(m.model_dump())
    except ValidationError as err:
        out: list[tuple[str, str]] = []
        for fld, reason in problems_of(err):
            # the map-level check joins its findings with "; ": one line each
            parts = reason.split("; ") if fld == "" else [reason]
            out.extend((_split_field(fld, r)) for r in parts)
        return out
    return []


def _split_field(fld: str, reason: str) -> tuple[str, str]:
    if fld:
        return fld, reason
    head, sep, rest = reason.partition(": ")
    if sep and re.match(r"^[a-z_]+(\[\d+\])?(\.[a-z_]+)?( \([^)]*\))?$", head):
        return head, rest
    return "", reason
