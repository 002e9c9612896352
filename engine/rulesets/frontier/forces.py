"""Last Hope Frontier forces (issue 49): the posses a player may build, and their price.

- **What a posse may hold**: one faction's models (a posse is one faction's: its leader's
  eighth-card rule and its favoured suit come with it), in the shape every shipped posse has,
  one leader, two deputies and three gangers; the profiles are the shipped posses' (``data/posses``),
  each with any item of the catalogue (``data/items.json``).
- **Price**: the dollars of the models' items (``items.json``'s values: ours, the seed prices
  nothing) against the posse budget, the option ``posse_budget`` (ours: $135, the dearest shipped
  posse's $133 rounded up to $5). The check is the posse's own models (``data.Posse``: one leader,
  a deputy and a ganger at least, unique ids, the faction's leader rule; ``check_item_refs``)
  and ``data.budget_problems``; the builder adds the shape.
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

from .data import ModelProfile, Options, Posse, budget_problems, check_item_refs, load_items, load_posses, model_dollars

SHAPE = (("leader", 1, 1), ("deputy", 2, 2), ("ganger", 3, 3))
ROLE_WORDS = {"leader": ("leader", "leaders"), "deputy": ("deputy", "deputies"), "ganger": ("ganger", "gangers")}
SLOTS = (Slot("item", "Items"),)


def _budget() -> int:
    return Options().posse_budget


def _item_summary(it) -> str:
    if it.kind == "firearm":
        return f'firearm, {it.range:g}", +{it.damage} damage'
    if it.kind == "melee":
        return f"melee, +{it.damage} damage" + (f', thrown {it.throw_range:g}"' if it.throw_range else "")
    if it.kind == "clothing":
        return f"clothing, +{it.defence} defence"
    return f"drink, heals {it.heal}"


@functools.lru_cache(maxsize=1)
def _gear() -> tuple[GearChoice, ...]:
    return tuple(GearChoice(f"item:{it.id}", it.name, "item", _item_summary(it), it.value) for it in load_items().items)


def _base(model: dict) -> dict:
    return {k: v for k, v in model.items() if k not in ("id", "items")}


def _summary(m: ModelProfile) -> str:
    return (f"{m.role}: Str {m.strength} Sht {m.shooting} Def {m.defence} Tgh {m.toughness} "
            f"Wounds {m.wounds} Move {m.move:g}\"")


@functools.lru_cache(maxsize=1)
def _catalog() -> ForceCatalog:
    cat = load_items()
    posses = load_posses()
    keys = tuple(g.key for g in _gear())
    templates = []
    for fac, posse in posses.items():
        seen = set()
        for m in posse.models:
            base = _base(m.model_dump())
            sig = tuple(sorted(base.items()))
            if sig in seen:            # the second Deputy with the same sheet: one template
                continue
            seen.add(sig)
            templates.append(ModelTemplate(
                id=f"{fac}.{m.id}", name=m.name, role=m.role, group=fac, summary=_summary(m),
                price=model_dollars(m, cat), base=base, loadout=tuple(f"item:{i}" for i in m.items),
                allowed=keys, most=None, can_lead=m.role == "leader"))
    budget = _budget()
    return ForceCatalog(
        ruleset="frontier", noun="posse", currency="$", limit=budget, limit_option="posse_budget",
        templates=tuple(templates), gear=_gear(), slots=SLOTS,
        groups=tuple((fac, f"{fac.capitalize()} ({p.name})") for fac, p in posses.items()),
        one_group=True, shape=SHAPE,
        rules=(f"items worth at most ${budget} (ours: the seed prices nothing; option posse_budget)",
               "one faction's models: one leader, two deputies, three gangers (as every shipped posse)",
               "any model may carry any item; only its best padded clothing counts"),
        max_models=6, starts={fac: p.model_dump(mode="json") for fac, p in posses.items()})


def force_catalog() -> ForceCatalog:
    return _catalog()


def shape_problems(roles: list[str | None], file: str) -> list[Problem]:
    """The builder's shape: one leader, two deputies, three gangers."""
    out = []
    for role, least, most in SHAPE:
        n = roles.count(role)
        if not least <= n <= most:
            one, many = ROLE_WORDS[role]
            out.append(Problem(file, "models", f"a posse has {least} {one if least == 1 else many}, "
                                               f"this one has {n} (one leader, two deputies, three gangers)"))
    return out


def build_force(draft: ForceDraft) -> dict:
    posses = load_posses()
    fac = draft.group if draft.group in posses else next(iter(posses))
    shipped = posses[fac]
    names = [m.name for m in draft.models for _ in range(m.count)]
    ids = iter(unique_ids(names, keep="_"))
    models = [{**m.base, "id": next(ids), "items": [k.split(":", 1)[1] for k in m.gear]}
              for m in draft.models for _ in range(m.count)]
    return {"schema_version": 1, "id": draft.id or slug(draft.name, "_"), "name": draft.name, "faction": fac,
            "leader_rule": shipped.leader_rule.model_dump(), "faction_rule": shipped.faction_rule.model_dump(),
            "models": models}


def read_force(roster: dict, file: str = "<force>") -> ForceDraft:
    posse = parse_data(Posse, roster, file)
    check_item_refs(posse, load_items(), file)
    cat = force_catalog()
    models = []
    for m in posse.models:
        base = _base(m.model_dump())
        t = next((t for t in cat.templates if t.group == posse.faction and t.base == base), None)
        models.append(DraftModel(name=m.name, role=m.role, base=base, gear=[f"item:{i}" for i in m.items],
                                 count=1, template=t.id if t else "", allowed=tuple(g.key for g in _gear()),
                                 can_lead=m.role == "leader"))
    return ForceDraft(name=posse.name, models=models, group=posse.faction, id=posse.id)


def price_force(roster: dict, limit: int | None = None, file: str = "<force>") -> ForcePrice:
    limit = _budget() if limit is None else int(limit)
    cat = load_items()
    raw = roster.get("models") if isinstance(roster, dict) else None
    # each model priced by itself (its own schema), so a posse that does not read yet still shows a total
    models: list[ModelPrice] = []
    total: int | None = 0              # None: a model that does not read leaves the total unknown
    for m in (raw if isinstance(raw, list) else []):
        try:
            prof = parse_data(ModelProfile, m, file)
        except DataError:
            total = None
            continue
        each = model_dollars(prof, cat)
        models.append(ModelPrice(prof.id, prof.name, 1, each))
        if total is not None:
            total += each
    if not isinstance(raw, list):
        total = None
    try:
        posse = parse_data(Posse, roster, file)
        check_item_refs(posse, cat, file)
    except DataError as err:
        probs = list(problems_from(err, file))
        if total is not None and total > limit:
            probs.append(Problem(file, "models", f"the posse's items are worth ${total}, over the ${limit} budget "
                                                 "(option posse_budget)"))
        if isinstance(raw, list):
            probs += shape_problems([m.get("role") for m in raw if isinstance(m, dict)], file)
        return ForcePrice(total, limit, "$", tuple(models), tuple(dict.fromkeys(probs)))
    probs = [Problem(file, f, r) for f, r in budget_problems(posse, limit, cat)]
    probs += shape_problems([m.role for m in posse.models], file)
    return ForcePrice(total, limit, "$", tuple(models), tuple(probs))


__all__ = ["SHAPE", "build_force", "force_catalog", "price_force", "read_force", "shape_problems"]
