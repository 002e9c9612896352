"""Forces (issue 49): what a ruleset lets a player build, and what a built force costs, as plain
values, so the force builder, ``skirmish validate`` and the tests ask any ruleset the same way.

A ruleset answers four class-method hooks of ``Rules`` (``engine/core/rules.py``), each written in
``engine/rulesets/<id>/forces.py``:

- ``force_catalog()`` -> ``ForceCatalog``: the model templates a force may hold (with the gear each
  may take), the gear, the limit and the rules a force must keep;
- ``build_force(draft)`` -> the roster as the ruleset's own file holds it (a dict that its pydantic
  models read: a Counterblast crew, a Frontier posse, a Doubles warband);
- ``read_force(roster)`` -> ``ForceDraft``: a roster dict read back into a draft (a saved force
  opened again in the builder); a roster that does not read raises ``DataError``;
- ``price_force(roster, limit)`` -> ``ForcePrice``: the roster checked through the ruleset's own
  models (the code ``skirmish validate`` and the game use), its total, each model's price, the
  limit, and the problems with file, field and reason.

A draft is the builder's working copy: ``DraftModel``s made from templates (``new_model``), each
carrying the ruleset's data of the model (``base``, opaque to the client) and the gear chosen.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Problem:
    """One reason a force is refused: the file (or "<force>"), the field, the reason."""
    file: str
    field: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.field or '(file)'}: {self.reason}"


@dataclass(frozen=True)
class Slot:
    """A kind of equipment a model carries ("Shooting weapons", "Armour"); ``most``: how many of
    it one model may take (None: any number)."""
    id: str
    name: str
    most: int | None = None


@dataclass(frozen=True)
class GearChoice:
    """One piece of equipment, keyed ``"<slot>:<id>"``; ``price`` where the ruleset prices it by
    itself (Frontier's dollars), else None (it is priced with the model)."""
    key: str
    name: str
    slot: str
    summary: str = ""
    price: int | None = None

    @property
    def id(self) -> str:
        return self.key.split(":", 1)[1]


@dataclass(frozen=True)
class ModelTemplate:
    """A model a force may hold: as the shipped rosters have it (``loadout``: its gear there),
    with the gear it may take instead (``allowed``). ``base``: the ruleset's data of the model
    without its gear (opaque to the client). ``most``: copies a force may hold (None: any)."""
    id: str
    name: str
    role: str
    group: str                      # where it comes from: the id of a crew, a faction, a warband
    summary: str                    # its profile in a line
    price: int                      # with its loadout
    base: dict = field(default_factory=dict, compare=False, hash=False)
    loadout: tuple[str, ...] = ()
    allowed: tuple[str, ...] = ()
    most: int | None = None
    can_lead: bool = False


@dataclass(frozen=True)
class ForceCatalog:
    """Everything a force of one ruleset may hold, and what it must keep.

    ``currency``: "points" or "$"; ``limit``: the default limit, set in a game by the option
    ``limit_option``; ``groups``: where templates come from, (id, name), and with ``one_group`` a
    force draws every model from one of them (a Frontier posse is one faction's); ``shape``: (role, least,
    most) the force must hold (empty: no shape); ``rules``: the force's rules in a line each,
    marked where they are ours; ``counted``: models come in counts (a Counterblast entry), else
    each copy is a model of its own."""
    ruleset: str
    noun: str                       # "crew", "posse", "warband"
    currency: str
    limit: int
    limit_option: str
    templates: tuple[ModelTemplate, ...]
    gear: tuple[GearChoice, ...]
    slots: tuple[Slot, ...]
    groups: tuple[tuple[str, str], ...] = ()
    one_group: bool = False
    shape: tuple[tuple[str, int, int], ...] = ()
    rules: tuple[str, ...] = ()
    max_models: int = 20
    counted: bool = False           # a model comes in copies (``count``) kept as one entry of the roster
    choose_leader: bool = False     # the player names the leader among the models that may lead
    # the shipped rosters to start from, group id -> the roster dict
    starts: dict = field(default_factory=dict, compare=False, hash=False)

    def template(self, template_id: str) -> ModelTemplate:
        for t in self.templates:
            if t.id == template_id:
                return t
        raise KeyError(template_id)

    def group_name(self, group_id: str | None) -> str:
        return dict(self.groups).get(group_id or "", group_id or "")

    def gear_choice(self, key: str) -> GearChoice | None:
        for g in self.gear:
            if g.key == key:
                return g
        return None

    def money(self, amount: int | None) -> str:
        """An amount in the force's currency: "$135" or "500 pts"."""
        if amount is None:
            return "?"
        return f"${amount}" if self.currency == "$" else f"{amount} pts"


@dataclass
class DraftModel:
    """A model of a force being built: ``count`` copies with the gear ``gear`` (keys of
    ``GearChoice``)."""
    name: str
    role: str
    base: dict
    gear: list[str] = field(default_factory=list)
    count: int = 1
    template: str = ""
    allowed: tuple[str, ...] = ()
    most: int | None = None
    can_lead: bool = False

    def copy(self) -> DraftModel:
        return replace(self, base=dict(self.base), gear=list(self.gear))


def add_model(draft: ForceDraft, catalog: ForceCatalog, template_id: str) -> int:
    """Add a model from a template: one more copy of an identical entry where the ruleset counts
    copies, else a new entry. Returns the entry's index."""
    t = catalog.template(template_id)
    if catalog.counted:
        for i, m in enumerate(draft.models):
            if m.template == t.id and m.gear == list(t.loadout) and m.base == t.base:
                m.count += 1
                return i
    draft.models.append(new_model(t))
    return len(draft.models) - 1


def remove_model(draft: ForceDraft, index: int) -> None:
    """Take entry ``index`` out; the leader stays the same model."""
    del draft.models[index]
    if draft.leader is not None:
        if draft.leader == index:
            draft.leader = None
        elif draft.leader > index:
            draft.leader -= 1


def toggle_gear(model: DraftModel, catalog: ForceCatalog, key: str) -> None:
    """Give the model ``key``, or take it away; in a slot of ``most`` 1 the new piece replaces
    the old one (the oldest goes when the slot is full)."""
    if key in model.gear:
        model.gear.remove(key)
        return
    g = catalog.gear_choice(key)
    slot = next((s for s in catalog.slots if g is not None and s.id == g.slot), None)
    if slot is not None and slot.most is not None:
        same = [k for k in model.gear if k.split(":", 1)[0] == slot.id]
        while len(same) >= slot.most:
            model.gear.remove(same.pop(0))
    model.gear.append(key)


def new_model(t: ModelTemplate) -> DraftModel:
    """A draft model from a template, with its loadout."""
    return DraftModel(name=t.name, role=t.role, base=dict(t.base), gear=list(t.loadout), count=1, template=t.id,
                      allowed=tuple(t.allowed), most=t.most, can_lead=t.can_lead)


@dataclass
class ForceDraft:
    """A force being built: its name, the group it is drawn from (a faction), its models and the
    one that leads (an index into ``models``; None: the first that may)."""
    name: str = "My force"
    models: list[DraftModel] = field(default_factory=list)
    leader: int | None = None
    group: str | None = None
    id: str = ""

    def copy(self) -> ForceDraft:
        return replace(self, models=[m.copy() for m in self.models])

    def leader_index(self) -> int | None:
        """The model that leads: the one chosen if it may, else the first that may."""
        if self.leader is not None and 0 <= self.leader < len(self.models) and self.models[self.leader].can_lead:
            return self.leader
        return next((i for i, m in enumerate(self.models) if m.can_lead), None)


@dataclass(frozen=True)
class ModelPrice:
    """What one entry of the roster costs: ``count`` copies at ``each``."""
    id: str
    name: str
    count: int
    each: int

    @property
    def total(self) -> int:
        return self.count * self.each


@dataclass(frozen=True)
class ForcePrice:
    """A roster's price against a limit. ``total`` None: the roster could not be priced (its
    problems say why). ``problems`` include a total over the limit."""
    total: int | None
    limit: int
    currency: str
    models: tuple[ModelPrice, ...] = ()
    problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def left(self) -> int | None:
        return None if self.total is None else self.limit - self.total

    def reasons(self) -> list[str]:
        return [str(p) for p in self.problems]


def slug(text: str, keep: str = "-") -> str:
    """An id made from a name: lower case letters and digits, other runs of characters as ``keep``."""
    out, last = [], keep
    for ch in text.strip().lower():
        if ch.isascii() and ch.isalnum():
            out.append(ch)
            last = ch
        elif last != keep:
            out.append(keep)
            last = keep
    return "".join(out).strip(keep)[:60] or "force"


def unique_ids(names: list[str], keep: str = "-") -> list[str]:
    """An id for each name, unique among them (``raider``, ``raider-2``...)."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        base = slug(n, keep) or "model"
        k = seen.get(base, 0) + 1
        seen[base] = k
        out.append(base if k == 1 else f"{base}{keep}{k}")
    return out


def problems_from(err, file: str = "<force>") -> tuple[Problem, ...]:
    """A ``DataError``'s (field, reason) pairs as problems of ``file``."""
    return tuple(Problem(file, f, r) for f, r in getattr(err, "problems", [("", str(err))]))


__all__ = ["add_model", "remove_model", "toggle_gear", "DraftModel", "ForceCatalog", "ForceDraft", "ForcePrice", "GearChoice", "ModelPrice", "ModelTemplate",
           "Problem", "Slot", "new_model", "problems_from", "slug", "unique_ids"]
