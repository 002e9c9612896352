"""Doubles forces (issue 49): the warbands a player may build, and their price.

- **What a warband may hold**: the fighters of the shipped warbands (``data/warbands``), each with
  any of their weapons (a fighter holds any number) and at most one armour.
- **Price**: each fighter's points as ``points.fighter_points`` works them out from the sheet, its
  best weapons and its armour (ours, measured in games: the seed prices nothing), against the
  game's size, the option ``game_points`` (ours: 200, the dearest shipped warband's 186 rounded
  up). The check is the warband's own model (``data.Warband``: known weapons and armour, unique
  ids, a stated ``points_limit``) and ``points.size_problems``.
"""
from __future__ import annotations

import functools

from engine.core.forces import (
    DraftModel,
    ForceCatalog,
    ForceDraft,
    ForcePrice,
    GearChoice,
    ModelPrice,
    ModelTemplate,
    Problem,
    Slot,
    problems_from,
    slug,
    unique_ids,
)
from engine.data.errors import DataError, parse_data

from .data import DEFAULT_OPTIONS, Warband, bundled_warbands
from .points import fighter_points, size_problems, warband_points

SLOTS = (Slot("weapon", "Weapons"), Slot("armour", "Armour", most=1))


@functools.lru_cache(maxsize=1)
def _arsenal() -> tuple[dict, dict]:
    """Every weapon and armour of the shipped warbands, by id (the first of an id kept)."""
    weapons, armours = {}, {}
    for wb in bundled_warbands().values():
        for w in wb.weapons:
            weapons.setdefault(w.id, w)
        for a in wb.armours:
            armours.setdefault(a.id, a)
    return weapons, armours


@functools.lru_cache(maxsize=1)
def _gear() -> tuple[GearChoice, ...]:
    weapons, armours = _arsenal()
    out = [GearChoice(f"weapon:{w.id}", w.name, "weapon", f"{w.use}, +{w.bonus}D, {w.material}")
           for w in weapons.values()]
    out += [GearChoice(f"armour:{a.id}", a.name, "armour", f"protection {a.protection}, {a.test_penalty} penalty die")
            for a in armours.values()]
    return tuple(out)


def _base(f: dict) -> dict:
    return {k: v for k, v in f.items() if k not in ("id", "name", "weapons", "armour", "points") and v is not None}


def _keys(f: dict) -> list[str]:
    return [f"weapon:{w}" for w in f.get("weapons", [])] + ([f"armour:{f['armour']}"] if f.get("armour") else [])


def _summary(c) -> str:
    return (f"Cbt {c.combat} Thr {c.throw} Def {c.defence} Apt {c.aptitude} Mv {c.movement}cm "
            f"Ini {c.initiative} HP {c.health} AP {c.action_points}")


@functools.lru_cache(maxsize=1)
def _catalog() -> ForceCatalog:
    keys = tuple(g.key for g in _gear())
    templates = []
    wbs = bundled_warbands()
    for wid, wb in wbs.items():
        for f in wb.fighters:
            d = f.model_dump()
            templates.append(ModelTemplate(
                id=f"{wid}.{f.id}", name=f.name, role="fighter", group=wid, summary=_summary(f.characteristics),
                price=fighter_points(wb, f), base=_base(d), loadout=tuple(_keys(d)), allowed=keys,
                can_lead=False))
    limit = DEFAULT_OPTIONS.game_points
    return ForceCatalog(
        ruleset="doubles", noun="warband", currency="points", limit=limit, limit_option="game_points",
        templates=tuple(templates), gear=_gear(), slots=SLOTS,
        groups=tuple((wid, wb.name) for wid, wb in wbs.items()),
        rules=(f"a {limit}-point game (ours: the seed prices nothing; option game_points)",
               "a fighter's points come from its sheet, its best weapons and its armour (ours: points.py)",
               "any number of weapons; one armour at most"),
        max_models=10, starts={wid: wb.model_dump(mode="json") for wid, wb in wbs.items()})


def force_catalog() -> ForceCatalog:
    return _catalog()


def build_force(draft: ForceDraft) -> dict:
    weapons, armours = _arsenal()
    names = []
    for m in draft.models:
        names += [m.name if k == 0 else f"{m.name} {k + 1}" for k in range(m.count)]
    ids = iter(unique_ids(names, keep="_"))
    fighters, used = [], []
    names_it = iter(names)
    for m in draft.models:
        wids = [k.split(":", 1)[1] for k in m.gear if k.startswith("weapon:")]
        arm = [k.split(":", 1)[1] for k in m.gear if k.startswith("armour:")]
        used += [k for k in m.gear if k not in used]
        for _ in range(m.count):
            f = {"id": next(ids), "name": next(names_it), **m.base, "weapons": wids}
            if arm:
                f["armour"] = arm[0]          # one at most (the slot's ``most``: the builder swaps)
            fighters.append(f)
    return {"schema_version": 1, "id": draft.id or slug(draft.name, "_"), "name": draft.name,
            "description": "Built with the force builder.",
            "weapons": [weapons[k.split(":", 1)[1]].model_dump() for k in used
                        if k.startswith("weapon:") and k.split(":", 1)[1] in weapons],
            "armours": [armours[k.split(":", 1)[1]].model_dump() for k in used
                        if k.startswith("armour:") and k.split(":", 1)[1] in armours],
            "fighters": fighters}


def read_force(roster: dict, file: str = "<force>") -> ForceDraft:
    wb = parse_data(Warband, roster, file)
    cat = force_catalog()
    models = []
    for f in wb.fighters:
        d = f.model_dump()
        base = _base(d)
        t = next((t for t in cat.templates if t.base == base), None)
        models.append(DraftModel(name=f.name, role="fighter", base=base, gear=_keys(d), count=1,
                                 template=t.id if t else "", allowed=tuple(g.key for g in _gear())))
    return ForceDraft(name=wb.name, models=models, id=wb.id)


def price_force(roster: dict, limit: int | None = None, file: str = "<force>") -> ForcePrice:
    limit = DEFAULT_OPTIONS.game_points if limit is None else int(limit)
    try:
        wb = parse_data(Warband, roster, file)
    except DataError as err:
        return ForcePrice(None, limit, "points", (), problems_from(err, file))
    models = tuple(ModelPrice(f.id, f.name, 1, fighter_points(wb, f)) for f in wb.fighters)
    probs = tuple(Problem(file, f, r) for f, r in size_problems(wb, limit))
    return ForcePrice(warband_points(wb), limit, "points", models, probs)


__all__ = ["build_force", "force_catalog", "price_force", "read_force"]
