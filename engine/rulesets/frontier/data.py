"""Data for Last Hope Frontier: items, posses and house-rule options (pydantic, schema v1).

Files live in ``engine/rulesets/frontier/data/``: ``items.json`` (the item catalogue with
dollar values) and ``posses/<faction>.json`` (one posse per faction). A bad file is refused
with ``engine.data.errors.DataError`` naming the file, the field and the reason.

The four faction rules (Badge of Honour, Twist the Knife, Risky Business, Merchant Lines) are
only names in the seed: each posse keeps a slot for its rule, and the slot cannot be switched
on in this build (there is no text to implement).
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.data.errors import DataError, load_json_file, load_model, parse_data
from engine.data.shipped import shipped_folder
from engine.data.text import ID_CHARS, NAME_CHARS, TEXT_CHARS, IdText
from engine.rulesets.deployment.options import DeploymentOptions

from .duel import FACTIONS, LEADER_ACTION, DuelRules, Faction, Fighter, Weapon

SCHEMA_VERSION = 1
DATA_DIR = Path(__file__).parent / "data"
ITEMS_FILE = DATA_DIR / "items.json"
POSSES_DIR = DATA_DIR / "posses"
OPTIONS_FILE = DATA_DIR / "options.json"   # the defaults, written out for players to copy and edit

FACTION_RULE: dict[str, tuple[str, str]] = {
    "sheriffs": ("badge_of_honour", "Badge of Honour"),
    "outlawmen": ("twist_the_knife", "Twist the Knife"),
    "bootleggers": ("risky_business", "Risky Business"),
    "townsfolk": ("merchant_lines", "Merchant Lines"),
}

Id = Field(min_length=1, max_length=ID_CHARS, pattern=r"^[a-z0-9_]+$")


class _Strict(BaseModel):
    # no NaN or infinity; strict types: "70" is not a number nor 1 a true/false (engine/data/strict.py)
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, strict=True)


# --- items ---------------------------------------------------------------------------------

ItemKind = Literal["melee", "firearm", "clothing", "drink"]


class Item(_Strict):
    """One item. ``value`` is in dollars (Slippery Paws takes items worth under $10).

    - melee: ``damage`` bonus in base contact; ``throw_range`` > 0 if it can be thrown
      (in inches; a thrown item is lost);
    - firearm: ``range`` in inches and ``damage`` bonus;
    - clothing: ``defence`` bonus (padded clothing; only a model's best piece counts);
    - drink: ``heal`` wounds regained as a free action, used up when drunk.
    """
    id: str = Id
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    kind: ItemKind
    value: int = Field(ge=0, le=1000, description="dollars")
    damage: int = Field(default=0, ge=0, le=5, description="damage bonus (melee, firearms)")
    range: float = Field(default=0, ge=0, le=60, description="inches (firearms)")
    throw_range: float = Field(default=0, ge=0, le=12, description="inches (thrown melee items)")
    defence: int = Field(default=0, ge=0, le=5, description="defence bonus (clothing)")
    heal: int = Field(default=0, ge=0, le=10, description="wounds regained (drinks)")
    note: str = Field("", max_length=TEXT_CHARS)

    @model_validator(mode="after")
    def _fits_kind(self) -> Item:
        k = self.kind
        if k == "firearm" and self.range <= 0:
            raise ValueError("a firearm needs a range above 0")
        if k != "firearm" and self.range:
            raise ValueError(f"only firearms have a range (this is {k}; use throw_range for thrown weapons)")
        if k != "melee" and self.throw_range:
            raise ValueError("only melee items can be thrown")
        if k not in ("melee", "firearm") and self.damage:
            raise ValueError(f"a {k} item gives no damage bonus")
        if k == "clothing" and self.defence < 1:
            raise ValueError("clothing needs a defence bonus of at least 1")
        if k != "clothing" and self.defence:
            raise ValueError("only clothing gives a defence bonus")
        if k == "drink" and self.heal < 1:
            raise ValueError("a drink needs heal of at least 1")
        if k != "drink" and self.heal:
            raise ValueError("only drinks heal")
        return self

    def melee_weapon(self) -> Weapon | None:
        return Weapon(self.name, self.damage) if self.kind == "melee" else None

    def ranged_weapon(self) -> Weapon | None:
        if self.kind == "firearm":
            return Weapon(self.name, self.damage, self.range)
        if self.kind == "melee" and self.throw_range > 0:
            return Weapon(f"{self.name} (thrown)", self.damage, self.throw_range, thrown=True)
        return None


class ItemCatalogue(_Strict):
    schema_version: Literal[1] = Field(description="item catalogue schema version; this build reads 1")
    items: list[Item] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> ItemCatalogue:
        seen: set[str] = set()
        for i, it in enumerate(self.items):
            if it.id in seen:
                raise ValueError(f"items[{i}].id: duplicate id {it.id!r}")
            seen.add(it.id)
        return self

    def by_id(self) -> dict[str, Item]:
        return {it.id: it for it in self.items}

    def __getitem__(self, item_id: str) -> Item:
        return self.by_id()[item_id]


# --- posses --------------------------------------------------------------------------------

Role = Literal["leader", "deputy", "ganger"]
LeaderAction = Literal["dead_eyed_aim", "dirt_in_the_wound", "heart_of_the_town", "slippery_paws"]


class ModelProfile(_Strict):
    id: str = Id
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    role: Role
    strength: int = Field(ge=0, le=10, description="added to the card in a fight")
    shooting: int = Field(ge=0, le=10, description="added to the card in a shot")
    defence: int = Field(ge=0, le=10, description="added to the card when defending")
    toughness: int = Field(ge=0, le=10, description="subtracted from damage taken")
    wounds: int = Field(ge=1, le=20, description="maximum and starting wounds")
    move: float = Field(gt=0, le=24, description="inches per move action")
    base_mm: Literal[25, 30, 40, 50] = 30
    items: list[IdText] = Field(default_factory=list, description="item ids from items.json")


class LeaderRule(_Strict):
    """The leader's eighth-card action (played with a pair)."""
    id: LeaderAction
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    summary: str = Field("", max_length=TEXT_CHARS)


class FactionRule(_Strict):
    """A faction's overall rule: named in the seed, with no text. The slot is kept, inactive."""
    id: str = Id
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    active: Literal[False] = Field(
        default=False,
        description="the seed gives this rule no text, so it cannot be switched on in this build")
    text: str = Field("", max_length=TEXT_CHARS)


class Posse(_Strict):
    schema_version: Literal[1] = Field(description="posse schema version; this build reads 1")
    id: str = Id
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    faction: Faction
    leader_rule: LeaderRule
    faction_rule: FactionRule
    models: list[ModelProfile] = Field(min_length=3)

    @model_validator(mode="after")
    def _consistent(self) -> Posse:
        problems = []
        roles = [m.role for m in self.models]
        if roles.count("leader") != 1:
            problems.append(f"models: a posse has exactly one leader, this one has {roles.count('leader')}")
        for r in ("deputy", "ganger"):
            if r not in roles:
                problems.append(f"models: a posse needs at least one {r}")
        seen: set[str] = set()
        for i, m in enumerate(self.models):
            if m.id in seen:
                problems.append(f"models[{i}].id: duplicate id {m.id!r}")
            seen.add(m.id)
        if self.leader_rule.id != LEADER_ACTION[self.faction]:
            problems.append(f"leader_rule.id: {self.faction} leaders use {LEADER_ACTION[self.faction]!r}, "
                            f"not {self.leader_rule.id!r}")
        want = FACTION_RULE[self.faction][0]
        if self.faction_rule.id != want:
            problems.append(f"faction_rule.id: the {self.faction} rule is {want!r}, not {self.faction_rule.id!r}")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def leader(self) -> ModelProfile:
        return next(m for m in self.models if m.role == "leader")


# --- options -------------------------------------------------------------------------------

class Options(DeploymentOptions, _Strict):
    """House rules. Defaults are our reading of the seed (docs/rules/frontier.md)."""
    schema_version: Literal[1] = 1
    hand_size: int = Field(default=8, ge=2, le=15, description="cards in a hand")
    cards_per_turn: int = Field(default=7, ge=1, le=14, description="cards each player must spend in a turn")
    eighth_card_actions_per_turn: int = Field(default=1, ge=0, le=4, description="leader's pair plays per turn")
    shortfall: Literal["lay_down", "forfeit"] = Field(
        default="forfeit",
        description="actions run out before seven cards are spent: forfeit the rest to the discard "
                    "(they do not count for priority: priority is earned in tests) or lay them down "
                    "from hand face up (they count)")
    cover_half_at: float = Field(default=0.5, gt=0, le=1, description="covered share from which a model is half covered")
    cover_three_quarters_at: float = Field(default=0.75, gt=0, le=1,
                                           description="covered share from which a model is three-quarters covered")
    cover_half_bonus: int = Field(default=1, ge=0, le=5, description="defence bonus of half cover")
    cover_three_quarters_bonus: int = Field(default=2, ge=0, le=5, description="defence bonus of three-quarters cover")
    tiebreak_cards: Literal["any", "number_only"] = Field(
        default="number_only",
        description="which favoured-suit cards break a drawn test: favoured number cards 2-10 only "
                    "(the flow chart and worked example 1) or any favoured card (the summary sentence)")
    into_combat_penalty: int = Field(default=1, ge=0, le=5, description="damage to your own model in a combat when a shot into it fails")
    initiative_tie: Literal["swap", "keep"] = Field(
        default="swap", description="equal priority hands: 'swap' passes priority to the player who did not "
                                    "have it this turn, 'keep' leaves it with its holder")
    five_of_a_kind: bool = Field(default=True, description="four of a rank and a joker rank above a straight "
                                                           "flush (false: the joker makes the best other hand)")
    victory: Literal["rout", "last_standing"] = Field(
        default="rout", description="'rout': a posse with rout_fraction of its models out of action at a turn's "
                                    "end loses; 'last_standing': only wiping out the other posse wins before "
                                    "the turn limit")
    rout_fraction: float = Field(default=0.5, gt=0, le=1, description="share of a posse out of action that routs it")
    turn_limit: int | None = Field(default=8, ge=1, le=50, description="turns in a game (None: no limit)")
    # --- missions (ours: the seed has none; docs/rules/frontier.md, "Missions"). A mission is
    # chosen with the option "mission" and played to ``turn_limit``; these are its numbers.
    claim_distance_in: float = Field(
        default=3.0, gt=0, le=12,
        description="ours, Claim Jumpers: a standing model whose base edge is within this many inches of a "
                    "marker is near it; a marker with models of one posse only near it is that posse's claim")
    claim_points: int = Field(
        default=1, ge=0, le=10,
        description="ours, Claim Jumpers: points a posse scores at the end of each turn for each claim it holds "
                    "on its own half of the table (a marker no nearer the other posse's table edge than its own)")
    claim_far_points: int = Field(
        default=2, ge=0, le=10,
        description="ours, Claim Jumpers: points for each claim held on the other posse's half (a marker nearer "
                    "the other posse's table edge than its own): jumping their claims pays more")
    strongbox_reach_in: float = Field(
        default=1.0, gt=0, le=6,
        description="ours, The Strongbox: a model that ends a move with its base edge within this many inches "
                    "of the strongbox lying on the table picks it up, unless an enemy model is as near it")
    strongbox_edge_in: float = Field(
        default=1.0, ge=0, le=6,
        description="ours, The Strongbox: the carrier that ends a move with its base edge within this many "
                    "inches of its own table edge carries the strongbox off, and its posse wins")
    strongbox_carrier_move: float = Field(
        default=0.5, gt=0, le=1,
        description="ours, The Strongbox: the share of its move a model carrying the strongbox may use")

    # --- forces (issue 49; ours: the seed prices no item and sets no budget) -------------------
    posse_budget: int = Field(
        default=135, ge=1, le=100_000,
        description="ours: the most a posse's items may be worth, in dollars (items.json's values); "
                    "the dearest shipped posse's items, $133, rounded up to $5 (docs/rules/frontier.md, Forces)")

    @model_validator(mode="after")
    def _sane(self) -> Options:
        if self.cards_per_turn >= self.hand_size:
            raise ValueError(f"cards_per_turn ({self.cards_per_turn}) must be below hand_size "
                             f"({self.hand_size}) so an eighth card is left")
        if self.cover_half_at > self.cover_three_quarters_at:
            raise ValueError("cover_half_at must not be above cover_three_quarters_at")
        return self

    def duel_rules(self) -> DuelRules:
        return DuelRules(
            cover_half_at=self.cover_half_at, cover_three_quarters_at=self.cover_three_quarters_at,
            cover_half_bonus=self.cover_half_bonus, cover_three_quarters_bonus=self.cover_three_quarters_bonus,
            tiebreak_cards=self.tiebreak_cards, into_combat_penalty=self.into_combat_penalty)


# --- loading -------------------------------------------------------------------------------

def load_items(path: str | Path = ITEMS_FILE) -> ItemCatalogue:
    return load_model(ItemCatalogue, path)


def check_item_refs(posse: Posse, catalogue: ItemCatalogue, file: str | Path) -> None:
    known = catalogue.by_id()
    problems = [(f"models[{i}].items[{j}]", f"unknown item {ref!r} (not in the item catalogue)")
                for i, m in enumerate(posse.models) for j, ref in enumerate(m.items) if ref not in known]
    if problems:
        raise DataError(file, problems)


def parse_posse(data, file: str | Path, catalogue: ItemCatalogue | None = None) -> Posse:
    posse = parse_data(Posse, data, file)
    check_item_refs(posse, catalogue or load_items(), file)
    return posse


def load_posse(path: str | Path, catalogue: ItemCatalogue | None = None) -> Posse:
    return parse_posse(load_json_file(path), path, catalogue)


def model_dollars(model: ModelProfile, catalogue: ItemCatalogue | None = None) -> int:
    """What a model's items are worth (items.json's values; an unknown item counts nothing)."""
    items = (catalogue or load_items()).by_id()
    return sum(items[i].value for i in model.items if i in items)


def posse_dollars(posse: Posse, catalogue: ItemCatalogue | None = None) -> int:
    """What a posse's items are worth, in dollars."""
    catalogue = catalogue or load_items()
    return sum(model_dollars(m, catalogue) for m in posse.models)


def budget_problems(posse: Posse, budget: int, catalogue: ItemCatalogue | None = None) -> list[tuple[str, str]]:
    """A posse whose items are worth more than ``budget`` (the option ``posse_budget``, ours)."""
    catalogue = catalogue or load_items()
    dollars = posse_dollars(posse, catalogue)
    if dollars <= budget:
        return []
    each = " + ".join(f"{m.name} ${model_dollars(m, catalogue)}" for m in posse.models)
    return [("models", f"the posse's items are worth ${dollars} ({each}), over the ${budget} budget (option posse_budget)")]


def load_posse_in_budget(path: str | Path, budget: int | None = None) -> Posse:
    """``load_posse``, and refused (``DataError``) when its items are over the budget (the
    default's unless given): what ``skirmish validate`` reads a posse with."""
    catalogue = load_items()
    posse = load_posse(path, catalogue)
    probs = budget_problems(posse, Options().posse_budget if budget is None else budget, catalogue)
    if probs:
        raise DataError(path, probs)
    return posse


def posse_summary(posse: Posse) -> str:
    """One line for ``skirmish validate``: the models and what their items are worth against the
    default budget (``Options.posse_budget``, ours: the seed prices nothing)."""
    dollars = posse_dollars(posse)
    roles = [m.role for m in posse.models]
    return (f"{len(posse.models)} models ({roles.count('leader')} leader, {roles.count('deputy')} deputies, "
            f"{roles.count('ganger')} gangers), {sum(m.wounds for m in posse.models)} wounds, items worth ${dollars} "
            f"of the ${Options().posse_budget} budget")


def load_posses(directory: str | Path = POSSES_DIR) -> dict[str, Posse]:
    """Every posse file in ``directory``, by faction (one per faction); read once while the files
    and the item catalogue stay as they are (``engine/data/shipped.py``)."""
    catalogue: ItemCatalogue | None = None

    def load(path):   # the catalogue is read only when the posses are
        nonlocal catalogue
        catalogue = catalogue or load_items()
        return load_posse(path, catalogue)

    return shipped_folder("frontier posses", directory, load, "faction",
                          lambda faction: f"a second posse for {faction}", also=[ITEMS_FILE])


def load_options(path: str | Path = OPTIONS_FILE) -> Options:
    return load_model(Options, path)


def fighter(profile: ModelProfile, faction: Faction, catalogue: ItemCatalogue,
            wounds: int | None = None, items: list[str] | None = None) -> Fighter:
    """The duel's view of a model: its numbers, leader or not, and its best padded clothing."""
    known = catalogue.by_id()
    kit = [known[i] for i in (profile.items if items is None else items)]
    clothing = max((it.defence for it in kit if it.kind == "clothing"), default=0)
    return Fighter(faction=faction, strength=profile.strength, shooting=profile.shooting,
                   defence=profile.defence, toughness=profile.toughness,
                   wounds=profile.wounds if wounds is None else wounds, max_wounds=profile.wounds,
                   is_leader=profile.role == "leader", clothing=clothing, name=profile.name)


__all__ = ["SCHEMA_VERSION", "Item", "ItemCatalogue", "ModelProfile", "LeaderRule", "FactionRule",
           "Posse", "Options", "load_items", "load_posse", "load_posses", "parse_posse",
           "load_options", "fighter", "FACTIONS", "FACTION_RULE"]
