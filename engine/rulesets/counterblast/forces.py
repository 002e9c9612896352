"""Counterblast forces (issue 49): the crews a player may build, and their price.

- **What a crew may hold**: every profile of the shipped crews (``data/crews``), each with the
  armoury's shooting and striking weapons and gear. Which gear a profile may take is asked of
  ``data.crew_problems`` (a one-model crew with that gear added; psi gear is a psifer's), and so is
  how many copies of it a crew may field (a character: one). Nothing here restates a rule.
- **Price**: each model's points from the points formula (``data.prices``: ``points.model_points``,
  so a changed weapon changes the price), times its copies, against the game's size, the option ``game_points``
  (500, the seed's "500 points is a standard game"). The check is ``data.crew_problems``: the
  limit, "a crew can never [have] multiple copies of the same character", the leader (a single
  hero), psi gear, known weapons.
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
    new_model,
    problems_from,
    slug,
    unique_ids,
)
from engine.data.errors import DataError, parse_data

from .data import Crew, crew_problems, is_hero, load_armoury, prices, shipped_crews, unknown_ids
from .options import DEFAULT_OPTIONS

SLOTS = (Slot("shooting", "Shooting weapons"), Slot("striking", "Striking weapons"), Slot("gear", "Gear"))
GEAR_FIELDS = ("shooting", "striking", "gear")


def _gear_keys(profile: dict) -> list[str]:
    return [f"{s}:{g}" for s in GEAR_FIELDS for g in profile.get(s, [])]


def _base(profile: dict) -> dict:
    """The profile without the gear the builder chooses, and without stated points: a built crew
    states none, so the formula prices it as it is (a file's stated points must be the formula's)."""
    return {k: v for k, v in profile.items() if k not in GEAR_FIELDS and k != "points"}


def _with_gear(base: dict, keys) -> dict:
    prof = dict(base)
    for s in GEAR_FIELDS:
        prof[s] = [k.split(":", 1)[1] for k in keys if k.split(":", 1)[0] == s]
    return prof


def _one_model_crew(profile: dict, count: int = 1) -> dict:
    return {"schema_version": 1, "id": "probe", "name": "probe", "points_limit": 100_000, "leader": "m",
            "models": [{"id": "m", "count": count, "profile": profile}]}


def _problems_at(profile: dict, prefix: str, count: int = 1) -> list[str]:
    """crew_problems of a crew of this one model, on fields starting with ``prefix``."""
    try:
        crew = parse_data(Crew, _one_model_crew(profile, count), "<probe>")
    except DataError:
        return ["unreadable"]
    big = DEFAULT_OPTIONS.model_copy(update={"game_points": 100_000})
    return [r for f, r in crew_problems(crew, load_armoury(), big, game_points=100_000) if f.startswith(prefix)]


def _points(profile: dict, count: int = 1) -> int:
    """What ``count`` copies of a model cost: the formula's price of its profile as it stands."""
    return prices(parse_data(Crew, _one_model_crew(_base(profile) | {k: profile[k] for k in GEAR_FIELDS
                                                                     if k in profile}, count), "<probe>"),
                  load_armoury())[0] * count


@functools.lru_cache(maxsize=64)
def _allowed_for(base_key: tuple) -> tuple[tuple[str, ...], int | None]:
    """The gear keys a profile may take (each probed alone: the problems ``crew_problems`` finds
    on that piece's own field), and how many copies a crew may field (None: any)."""
    base = {k: list(v) if isinstance(v, tuple) else v for k, v in base_key}     # _freeze made lists tuples
    allowed = tuple(g.key for g in catalog_gear()
                    if not _problems_at(_with_gear(base, [g.key]), f"models[0].profile.{g.slot}[0]"))
    most = 1 if _problems_at(_with_gear(base, []), "models[0].count", count=2) else None
    return allowed, most


def _freeze(d: dict) -> tuple:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in d.items()))


def _allowed(base: dict) -> tuple[tuple[str, ...], int | None]:
    return _allowed_for(_freeze(base))


@functools.lru_cache(maxsize=1)
def catalog_gear() -> tuple[GearChoice, ...]:
    arm = load_armoury()
    out = [GearChoice(f"shooting:{w.id}", w.name, "shooting",
                      f'{w.range:g}", damage {w.damage}' + (", pistol" if w.pistol else "")
                      + (f", explodes on {w.explode_on}s" if w.explode_on < 10 else "")
                      + (f", {w.inflicts.condition.replace('_', '-')}" if w.inflicts else ""))
           for w in arm.shooting]
    out += [GearChoice(f"striking:{w.id}", w.name, "striking",
                       (f'reach {w.reach:g}", ' if w.reach else "") + f"damage {w.damage}"
                       + (f", explodes on {w.explode_on}s" if w.explode_on < 10 else ""))
            for w in arm.striking]
    out += [GearChoice(f"gear:{g.id}", g.name, "gear",
                       g.kind.replace("_", " ") + (": " + ", ".join(e.name for e in g.enigmas) if g.enigmas else ""))
            for g in arm.gear]
    return tuple(out)


def _summary(p) -> str:
    arm = load_armoury()
    special = [arm.ability(a).name for a in p.special if any(x.id == a for x in arm.abilities)]
    return (f"{p.role}, {p.kind}: Mv {p.move} Zap {p.zap} Grit {p.grit} Def {p.defense} Knack {p.knack} "
            f"Mettle {p.mettle}" + (f"; {', '.join(special)}" if special else ""))


@functools.lru_cache(maxsize=4)
def _catalog(key) -> ForceCatalog:
    templates, seen = [], set()
    crews = shipped_crews()
    for cid, crew in crews.items():
        for e in crew.models:
            if e.profile.name in seen:
                continue
            seen.add(e.profile.name)
            prof = e.profile.model_dump()
            base = _base(prof)
            allowed, most = _allowed(base)
            templates.append(ModelTemplate(
                id=f"{cid}.{e.id}", name=e.profile.name, role=e.profile.role, group=cid,
                summary=_summary(e.profile), price=_points(prof), base=base, loadout=tuple(_gear_keys(prof)),
                allowed=allowed, most=most, can_lead=is_hero(e.profile)))
    return ForceCatalog(
        ruleset="counterblast", noun="crew", currency="points", limit=DEFAULT_OPTIONS.game_points,
        limit_option="game_points", templates=tuple(templates), gear=catalog_gear(), slots=SLOTS,
        groups=tuple((cid, c.name) for cid, c in crews.items()),
        rules=(f"{DEFAULT_OPTIONS.game_points} points is a standard game (the seed; option game_points)",
               "a crew can never hold two copies of the same character (the seed)",
               "the leader is a hero (a character or a psifer counts), a single model",
               "only psifers carry psi gear, and every psifer carries some"),
        max_models=20, counted=True, choose_leader=True,
        starts={cid: c.model_dump(mode="json") for cid, c in crews.items()})


def force_catalog() -> ForceCatalog:
    return _catalog(tuple(sorted(shipped_crews())))


def build_force(draft: ForceDraft) -> dict:
    ids = unique_ids([m.name for m in draft.models])
    lead = draft.leader_index()
    leader = ids[lead] if lead is not None else (ids[0] if ids else "")
    return {"schema_version": 1, "id": draft.id or slug(draft.name), "name": draft.name,
            "description": "Built with the force builder.", "points_limit": force_catalog().limit,
            "leader": leader,
            "models": [{"id": i, "count": m.count, "profile": _with_gear(m.base, m.gear)}
                       for i, m in zip(ids, draft.models)]}


def _crew(roster: dict, file: str) -> Crew:
    """The roster read by the crew's models, its weapons, gear and abilities the armoury's (as the
    Frontier and Doubles forces check theirs): ``DataError`` naming the field otherwise."""
    crew = parse_data(Crew, roster, file)
    unknown = unknown_ids(crew, load_armoury())
    if unknown:
        raise DataError(file, unknown)
    return crew


def read_force(roster: dict, file: str = "<force>") -> ForceDraft:
    crew = _crew(roster, file)
    cat = force_catalog()
    by_name = {t.name: t for t in cat.templates}
    models, leader = [], None
    for i, e in enumerate(crew.models):
        prof = e.profile.model_dump()
        base = _base(prof)
        t = by_name.get(e.profile.name)
        allowed, most = (t.allowed, t.most) if t is not None and t.base == base else _allowed(base)
        models.append(DraftModel(name=e.profile.name, role=e.profile.role, base=base, gear=_gear_keys(prof),
                                 count=e.count, template=t.id if t is not None else "", allowed=allowed, most=most,
                                 can_lead=is_hero(e.profile)))
        if e.id == crew.leader:
            leader = i
    return ForceDraft(name=crew.name, models=models, leader=leader, id=crew.id)


def price_force(roster: dict, limit: int | None = None, file: str = "<force>") -> ForcePrice:
    limit = DEFAULT_OPTIONS.game_points if limit is None else int(limit)
    try:
        crew = _crew(roster, file)      # a crew naming an unknown weapon has no price
    except DataError as err:
        return ForcePrice(None, limit, "points", (), problems_from(err, file))
    opts = DEFAULT_OPTIONS.model_copy(update={"game_points": limit})
    probs = crew_problems(crew, load_armoury(), opts, game_points=limit)
    each = prices(crew, load_armoury(), opts)
    models = tuple(ModelPrice(e.id, e.profile.name, e.count, p or 0) for e, p in zip(crew.models, each))
    total = sum(m.each * m.count for m in models)
    return ForcePrice(total, limit, "points", models, tuple(Problem(file, f, r) for f, r in probs))


__all__ = ["build_force", "force_catalog", "new_model", "price_force", "read_force"]
