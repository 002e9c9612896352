"""Counterblast data files: the armoury (shooting and striking weapons, gear), crews and missions.

Every file carries ``schema_version`` and is validated by the models below. A bad file is
refused with a ``DataError`` naming the file, the field and the reason, never a traceback:
schema problems come from pydantic (``parse_data``), cross-checks (unknown weapon ids, stated
points that are not the profile's (``points.py``), points over the limit, two copies of one
character, a leader who is not a hero) from ``crew_problems``. ``parse_crew`` returns the crew
with every model's ``points`` stated, the formula's where the file leaves them out.

Shipped data lives in ``data/``: ``armoury.json``, ``crews/*.json``, ``missions/*.json``.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.data.errors import DataError, find_id, load_json_file, parse_data
from engine.data.shipped import cached, shipped_folder
from engine.data.text import ID_CHARS, NAME_CHARS, TEXT_CHARS, IdText

from .options import DEFAULT_OPTIONS, CounterblastOptions
from .points import MEASURED_MODELS, model_points, outside_measured
from .roles import is_hero  # noqa: F401  (re-exported: callers read it from here)

SCHEMA_VERSION = 1
DATA_DIR = Path(__file__).parent / "data"

Slug = Annotated[str, Field(min_length=1, max_length=ID_CHARS)]
_SLUG = r"^[a-z0-9_\-]+$"

Kind = Literal["living", "robot", "cyberform"]
Role = Literal["hero", "lackey", "character", "psifer"]
GearKind = Literal["scanner", "medkit", "tools", "psi_focus", "other"]

# What each kind of gear lets a model do (the actions' rules refer to these capabilities).
GEAR_ENABLES: dict[str, tuple[str, ...]] = {
    "scanner": ("hack_mark",),            # Hack: Mark an enemy model
    "medkit": ("treat_heal",),            # Treat: heal living models and cyberforms
    "tools": ("engineer_heal",),          # Engineer: heal (repair) robots and cyberforms
    "psi_focus": ("psi_strike", "psi_craft"),
    "other": (),
}


class _Strict(BaseModel):
    # no NaN or infinity; strict types: "70" is not a number nor 1 a true/false (engine/data/strict.py)
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, strict=True)


# Upper bounds a real game could need (issue 30): a number past them is a typo, refused with its field.
MAX_RANGE_IN = 240.0     # inches: 20 ft, past the diagonal of any table (the seed's is 4' x 3')
MAX_REACH_IN = 24.0      # inches: a striking weapon's reach (the shipped armoury's longest is 1")
MAX_DAMAGE = 20          # raw damage per success: more than any model's Mettle
MAX_POINTS = 100_000     # points: a model's cost, a crew's limit, a mission's score


# Conditions a weapon or enigma may inflict. The seed defines Burning, Blind, Half-blind and
# Pinned but names no cause; it does say "Some weapons may apply additional effects as well
# according to their own rules", so causes are weapon data (Interpretation 36).
InflictedCondition = Literal["burning", "blind", "half_blind", "pinned"]


class Inflicts(_Strict):
    """A weapon's (or enigma's) own rule: the target gains ``condition`` when the attack check
    against it scores a success (``when: hit``) or when the attack gives it a damage token
    (``when: tokens``). Applied after the attack's damage, to a target still on the table."""
    condition: InflictedCondition
    when: Literal["hit", "tokens"] = "hit"


# Conditions a character's ability may make it immune to.
ImmuneCondition = Literal["stunned", "panic", "pinned", "blind", "half_blind", "burning", "marked"]


class Ability(_Strict):
    """A character's special ability (the seed: characters "sometimes have special abilities
    unique to them", none defined). Each is one of a few coded effects with its parameter:

    * ``long_shot_difficulty``: the model's Shoot checks beyond short range use ``value`` as the
      base difficulty instead of the long-range one (Aim, Marked and Panic still modify it);
    * ``strike_explode_on``: the model's Strike checks explode on ``value`` or more (if lower
      than the weapon's own number);
    * ``immune``: the model never gains ``condition``.
    """
    id: Slug = Field(pattern=_SLUG)
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    effect: Literal["long_shot_difficulty", "strike_explode_on", "immune"]
    value: int | None = Field(None, ge=2, le=10, description="the difficulty or explosion number the effect uses")
    condition: ImmuneCondition | None = None
    description: str = Field(min_length=1, max_length=TEXT_CHARS)

    @model_validator(mode="after")
    def _params(self) -> Ability:
        if self.effect == "immune":
            if self.condition is None or self.value is not None:
                raise ValueError("an 'immune' ability names a condition and no value")
        elif self.value is None or self.condition is not None:
            raise ValueError(f"a {self.effect!r} ability has a value and no condition")
        if self.effect == "strike_explode_on" and self.value is not None and self.value < 8:
            raise ValueError("strike_explode_on: the seed's explosions are on 8s at most")
        return self


class ShootingWeapon(_Strict):
    id: Slug = Field(pattern=_SLUG)
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    range: float = Field(gt=0, le=MAX_RANGE_IN, description="inches")
    damage: int = Field(ge=1, le=MAX_DAMAGE, description="raw damage per success")
    pistol: bool = Field(False, description="may Snapshot while Engaged")
    explode_on: int = Field(10, ge=8, le=10, description="some weapons explode on 9s or 8s")
    inflicts: Inflicts | None = None
    notes: str = Field("", max_length=TEXT_CHARS)


class StrikingWeapon(_Strict):
    id: Slug = Field(pattern=_SLUG)
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    reach: float = Field(ge=0, le=MAX_REACH_IN, description="inches, base edge to base edge")
    damage: int = Field(ge=1, le=MAX_DAMAGE, description="raw damage per success")
    explode_on: int = Field(10, ge=8, le=10, description="some weapons explode on 9s or 8s")
    inflicts: Inflicts | None = None
    notes: str = Field("", max_length=TEXT_CHARS)


class Enigma(_Strict):
    """A psi power, used with Psi Strike (attacks) or Psi Craft (passive effects, aid)."""
    id: Slug = Field(pattern=_SLUG)
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    action: Literal["psi_strike", "psi_craft"]
    difficulty: int = Field(ge=2, le=10, description="the Psi check's difficulty")
    range: float = Field(gt=0, le=MAX_RANGE_IN, description="inches")
    damage: int = Field(0, ge=0, le=MAX_DAMAGE, description="raw damage per success (Psi Strike)")
    inflicts: Inflicts | None = Field(None, description="Psi Strike: a condition it causes")
    craft: Literal["veil", "remove_token"] | None = Field(
        None, description="Psi Craft: light cover until Upkeep, or one damage token removed")
    effect: str = Field("", max_length=TEXT_CHARS, description="rules text shown to players")

    @model_validator(mode="after")
    def _kind(self) -> Enigma:
        if self.action == "psi_craft":
            if self.craft is None:
                raise ValueError("a psi_craft enigma names its craft effect (veil or remove_token)")
            if self.damage or self.inflicts is not None:
                raise ValueError("a psi_craft enigma deals no damage and inflicts nothing")
        else:
            if self.craft is not None:
                raise ValueError("craft is for psi_craft enigmas only")
            if not self.damage and self.inflicts is None:
                raise ValueError("a psi_strike enigma deals damage or inflicts a condition")
        return self


class Gear(_Strict):
    id: Slug = Field(pattern=_SLUG)
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    kind: GearKind
    description: str = Field("", max_length=TEXT_CHARS)
    enigmas: list[Enigma] = Field(default_factory=list)

    @model_validator(mode="after")
    def _psi(self) -> Gear:
        if self.kind == "psi_focus" and not self.enigmas:
            raise ValueError("psi gear must hold at least one enigma")
        if self.kind != "psi_focus" and self.enigmas:
            raise ValueError("only psi gear (kind psi_focus) holds enigmas")
        return self

    @property
    def enables(self) -> tuple[str, ...]:
        return GEAR_ENABLES[self.kind]


class Armoury(_Strict):
    schema_version: Literal[1]
    shooting: list[ShootingWeapon] = Field(default_factory=list)
    striking: list[StrikingWeapon] = Field(default_factory=list)
    gear: list[Gear] = Field(default_factory=list)
    abilities: list[Ability] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> Armoury:
        for group in ("shooting", "striking", "gear", "abilities"):
            dup = [k for k, n in Counter(x.id for x in getattr(self, group)).items() if n > 1]
            if dup:
                raise ValueError(f"{group}: duplicate id(s) {', '.join(sorted(dup))}")
        dup = [k for k, n in Counter(e.id for g in self.gear for e in g.enigmas).items() if n > 1]
        if dup:
            raise ValueError(f"gear: duplicate enigma id(s) {', '.join(sorted(dup))} (enigmas are named by id across all psi gear)")
        return self

    # An unknown id is an ``UnknownId`` naming it and the armoury's ids, never a StopIteration.
    def shooting_weapon(self, wid: str) -> ShootingWeapon:
        return find_id(self.shooting, wid, "shooting weapon", "armoury", "shooting")

    def striking_weapon(self, wid: str) -> StrikingWeapon:
        return find_id(self.striking, wid, "striking weapon", "armoury", "striking")

    def gear_item(self, gid: str) -> Gear:
        return find_id(self.gear, gid, "gear", "armoury", "gear")

    def ability(self, aid: str) -> Ability:
        return find_id(self.abilities, aid, "ability", "armoury", "abilities")


class Profile(_Strict):
    """A model's characteristics. Abilities are dice (0 = '0d'); Move is inches."""
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    role: Role
    kind: Kind
    size: int = Field(ge=1, le=5, description="Jump and Throw compare sizes")
    base_mm: Literal[25, 30, 40, 50] = 30
    height_mm: float = Field(40.0, gt=0, le=500, description="silhouette height for sight and cover (mm)")
    move: int = Field(ge=0, le=20, description="inches per move")
    zap: int = Field(ge=0, le=20, description="dice of shooting checks")
    grit: int = Field(ge=0, le=20, description="dice of striking checks")
    defense: int = Field(ge=0, le=20, description="dice of Defense checks")
    knack: int = Field(ge=0, le=20, description="dice of Knack checks (heal, Hack, Rally...)")
    mettle: int = Field(ge=1, le=20, description="damage tokens that put the model Down")
    points: int | None = Field(None, ge=0, le=MAX_POINTS,
                               description="the model's cost: points.py works it out from the profile; checked when given")
    shooting: list[Slug] = Field(default_factory=list)
    striking: list[Slug] = Field(default_factory=list)
    gear: list[Slug] = Field(default_factory=list)
    special: list[Slug] = Field(default_factory=list, description="ids of the armoury's character abilities")


class CrewEntry(_Strict):
    id: Slug = Field(pattern=_SLUG)
    profile: Profile
    count: int = Field(1, ge=1, le=20, description="copies of this model in the crew")


class Crew(_Strict):
    schema_version: Literal[1]
    id: Slug = Field(pattern=_SLUG)
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    description: str = Field("", max_length=TEXT_CHARS)
    points_limit: int = Field(500, gt=0, le=MAX_POINTS, description="most points the crew may cost")
    leader: Slug
    models: list[CrewEntry] = Field(min_length=1)

    @property
    def points(self) -> int:
        """The crew's cost: its models' stated points (``parse_crew`` states every model's)."""
        return sum((e.profile.points or 0) * e.count for e in self.models)

    def instances(self) -> list[tuple[str, CrewEntry]]:
        """One (model id, entry) per model on the table: ``grunt-1``, ``grunt-2``... when count > 1."""
        out = []
        for e in self.models:
            if e.count == 1:
                out.append((e.id, e))
            else:
                out.extend((f"{e.id}-{i}", e) for i in range(1, e.count + 1))
        return out


def crew_summary(crew: Crew, armoury: Armoury | None = None) -> str:
    """One line for ``skirmish validate``: the models and what they cost against the limit, and
    any model priced beyond the range the points were measured on."""
    arm = armoury if armoury is not None else load_armoury()
    n = sum(e.count for e in crew.models)
    text = (f"{n} models, {crew.points} of {crew.points_limit} points ("
            + ", ".join(f"{e.profile.name} {e.profile.points}" + (f" x{e.count}" if e.count > 1 else "")
                        for e in crew.models) + ")")
    far = [f"{e.profile.name}: {', '.join(o)}" for e in crew.models if (o := outside_measured(e.profile, arm))]
    if not MEASURED_MODELS[0] <= n <= MEASURED_MODELS[1]:
        far.insert(0, f"{n} models (measured {MEASURED_MODELS[0]}-{MEASURED_MODELS[1]})")
    if far:
        text += "; priced beyond the measured range: " + "; ".join(far)
    return text


def prices(crew: Crew, armoury: Armoury, options: CounterblastOptions = DEFAULT_OPTIONS) -> list[int | None]:
    """Each entry's points a model: the formula's (``points.model_points``), or with the
    ``points_formula`` option off the file's own (None where it states none)."""
    if not options.points_formula:
        return [e.profile.points for e in crew.models]
    return [model_points(e.profile, armoury, options) for e in crew.models]


def unknown_ids(crew: Crew, armoury: Armoury) -> list[tuple[str, str]]:
    """Each weapon, gear or ability a crew names that the armoury does not hold: such a crew cannot
    be priced (the points weigh them), nor read into the force builder."""
    probs: list[tuple[str, str]] = []
    known = {"shooting": ({w.id for w in armoury.shooting}, "shooting weapon"),
             "striking": ({w.id for w in armoury.striking}, "striking weapon"),
             "gear": ({g.id for g in armoury.gear}, "gear"),
             "special": ({a.id for a in armoury.abilities}, "ability")}
    for i, e in enumerate(crew.models):
        for slot, (ids, what) in known.items():
            for j, x in enumerate(getattr(e.profile, slot)):
                if x not in ids:
                    probs.append((f"models[{i}].profile.{slot}[{j}]", f"unknown {what} {x!r}"))
    return probs


def crew_problems(crew: Crew, armoury: Armoury, options: CounterblastOptions = DEFAULT_OPTIONS,
                  game_points: int | None = None) -> list[tuple[str, str]]:
    """Cross-checks a schema-valid crew: references, points, characters, leader, psi gear."""
    unknown = unknown_ids(crew, armoury)
    probs: list[tuple[str, str]] = list(unknown)
    gear = {g.id: g for g in armoury.gear}
    abilities = {a.id for a in armoury.abilities}
    ids = Counter(e.id for e in crew.models)
    for i, e in enumerate(crew.models):
        f = f"models[{i}]"
        if ids[e.id] > 1:
            probs.append((f"{f}.id", f"duplicate model id {e.id!r}"))
        p = e.profile
        psi = False
        for j, g in enumerate(p.gear):
            if g in gear and gear[g].kind == "psi_focus":
                psi = True
                if p.role != "psifer":
                    probs.append((f"{f}.profile.gear[{j}]", f"{p.name} is a {p.role}; only psifers carry psi gear"))
        for j, a in enumerate(p.special):
            if a in abilities and p.role != "character":
                probs.append((f"{f}.profile.special[{j}]",
                              f"{p.name} is a {p.role}; only characters have special abilities"))
        if p.role == "psifer" and not psi:
            probs.append((f"{f}.profile.gear", f"{p.name} is a psifer but carries no psi gear"))
        if p.role == "character" and e.count > 1:
            probs.append((f"{f}.count", f"{p.name} is a character: a crew may field only one copy, not {e.count}"))
    seen: dict[str, int] = {}
    for i, e in enumerate(crew.models):
        if e.profile.role != "character":
            continue
        key = e.profile.name.strip().casefold()
        if key in seen:
            probs.append((f"models[{i}].profile.name",
                          f"character {e.profile.name!r} already in the crew at models[{seen[key]}]; "
                          "a crew may never hold two copies of one character"))
        else:
            seen[key] = i
    if not unknown:     # the points weigh the weapons and gear, so they need them known
        probs += points_problems(crew, armoury, options, game_points)
    leaders = [e for e in crew.models if e.id == crew.leader]
    if not leaders:
        probs.append(("leader", f"no model with id {crew.leader!r}"))
    else:
        e = leaders[0]
        if not is_hero(e.profile, options):
            probs.append(("leader", f"{e.profile.name} is a {e.profile.role}; the leader must be a hero"))
        elif e.count > 1:
            probs.append(("leader", f"entry {e.id!r} has count {e.count}; the leader must be a single model"))
    return probs


def points_problems(crew: Crew, armoury: Armoury, options: CounterblastOptions = DEFAULT_OPTIONS,
                    game_points: int | None = None) -> list[tuple[str, str]]:
    """A stated ``points`` that is not the profile's (``points.model_points``), so a file stays true
    after an edit; a crew over its ``points_limit`` or the game's size."""
    probs: list[tuple[str, str]] = []
    cost = prices(crew, armoury, options)
    for i, (e, c) in enumerate(zip(crew.models, cost)):
        if c is None:
            probs.append((f"models[{i}].profile.points",
                          f"{e.profile.name} states no points (required when the points_formula option is off)"))
        elif e.profile.points is not None and e.profile.points != c:
            probs.append((f"models[{i}].profile.points",
                          f"{e.profile.name}'s profile is worth {c} points, not {e.profile.points}"))
    if None in cost:
        return probs
    limit = min(crew.points_limit, game_points if game_points is not None else options.game_points)
    total = sum(c * e.count for e, c in zip(crew.models, cost))
    if total > limit:
        detail = " + ".join(f"{c}x{e.count}" if e.count > 1 else str(c) for e, c in zip(crew.models, cost))
        probs.append(("models", f"crew costs {total} points ({detail}), over the {limit}-point limit"))
    return probs


# --- missions ----------------------------------------------------------------------------

ObjectiveKind = Literal["control_markers", "hack_markers", "eliminate_leader", "protect_leader", "extract"]


class Objective(_Strict):
    """One scoring objective of a mission; every crew in the mission pursues it.

    A crew scores ``points`` per unit achieved (a marker controlled, a terminal hacked, ...),
    at most ``max_points``; each crew also scores ``deny_points`` for every opponent that
    achieved none of it (the seed's "preventing its opponents from completing their objectives").
    ``scored`` says when units are counted: once at the end of the game or at every turn's end.
    """
    id: Slug = Field(pattern=_SLUG)
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    kind: ObjectiveKind
    description: str = Field(min_length=1, max_length=TEXT_CHARS)
    points: int = Field(ge=0, le=MAX_POINTS, description="scored per unit achieved")
    max_points: int | None = Field(None, ge=0, le=MAX_POINTS, description="most this objective scores (None: no cap)")
    deny_points: int = Field(0, ge=0, le=MAX_POINTS, description="scored for each opponent that achieved none of it")
    scored: Literal["game_end", "each_turn_end"] = "game_end"
    markers: list[IdText] = Field(default_factory=list, description="map objective marker ids; empty = all")
    range: float = Field(3.0, gt=0, le=MAX_RANGE_IN, description="inches from a marker / evac point that counts")


class Mission(_Strict):
    schema_version: Literal[1]
    id: Slug = Field(pattern=_SLUG)
    name: str = Field(min_length=1, max_length=NAME_CHARS)
    description: str = Field(min_length=1, max_length=TEXT_CHARS)
    min_markers: int = Field(0, ge=0, le=1000, description="objective markers the map must provide")
    objectives: list[Objective] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> Mission:
        dup = [k for k, n in Counter(o.id for o in self.objectives).items() if n > 1]
        if dup:
            raise ValueError(f"objectives: duplicate id(s) {', '.join(sorted(dup))}")
        return self

    def summary(self) -> str:
        return mission_summary(self)

    def max_objective_score(self, opponents: int = 1) -> int:
        total = 0
        for o in self.objectives:
            total += (o.max_points if o.max_points is not None else o.points) + o.deny_points * opponents
        return total


# How each kind of objective is won, in a player's words: (what the crew does, what one unit is,
# when it is naturally scored).
_OBJECTIVE_WORDS = {
    "control_markers": ("control objective markers at the end", "a marker", "game_end"),
    "hack_markers": ("hack objective markers", "a marker", "game_end"),
    "eliminate_leader": ("have the enemy leader Down or a casualty at the end", None, "game_end"),
    "protect_leader": ("keep your leader up, not Down or Panicked", "a turn", "each_turn_end"),
    "extract": ("have heroes at your evac point at the end, not Down", "a hero", "game_end"),
}


def _objective_words(o: Objective) -> str:
    what, unit, natural = _OBJECTIVE_WORDS[o.kind]
    if o.scored != natural:
        what += " (counted at each turn's end)" if o.scored == "each_turn_end" else " (counted at the end)"
    pts = f"{o.points} {unit}" if unit else f"{o.points}"
    if o.max_points is not None and unit:
        pts += f", at most {o.max_points}"
    if o.deny_points:
        pts += f"; {o.deny_points} if the enemy fails at it"
    return f"{what} ({pts})"


def mission_summary(m: Mission) -> str:
    """How ``m`` is won, in a sentence or two written from its objectives (the launcher's line,
    ``CounterblastRules.missions``), so it stays true when the data changes."""
    parts = [_objective_words(o) for o in m.objectives]
    first = parts[0][0].upper() + parts[0][1:]
    body = "; ".join([first] + parts[1:-1]) + (f"; and {parts[-1]}" if len(parts) > 1 else "")
    return f"{body}. Add the battle score (your crew still standing): the higher total wins."


# --- loading -------------------------------------------------------------------------------

def load_armoury(path: str | Path | None = None) -> Armoury:
    if path is None:   # the shipped one, read once (engine/data/shipped.py)
        path = DATA_DIR / "armoury.json"
        return cached("counterblast armoury", [path], lambda: parse_data(Armoury, load_json_file(path), path))
    path = Path(path)
    return parse_data(Armoury, load_json_file(path), path)


def parse_crew(data, file: str | Path, armoury: Armoury | None = None,
               options: CounterblastOptions = DEFAULT_OPTIONS, game_points: int | None = None) -> Crew:
    crew = parse_data(Crew, data, file)
    arm = armoury if armoury is not None else load_armoury()
    probs = crew_problems(crew, arm, options, game_points)
    if probs:
        raise DataError(file, probs)
    return with_prices(crew, arm, options)


def with_prices(crew: Crew, armoury: Armoury, options: CounterblastOptions = DEFAULT_OPTIONS) -> Crew:
    """The crew with every model's ``points`` stated (the formula's where the file left them out),
    so the battle score and the agents read one number."""
    cost = prices(crew, armoury, options)
    if all(e.profile.points == c for e, c in zip(crew.models, cost)):
        return crew
    models = [e.model_copy(update={"profile": e.profile.model_copy(update={"points": c})})
              for e, c in zip(crew.models, cost)]
    return crew.model_copy(update={"models": models})


def load_crew(path: str | Path, armoury: Armoury | None = None,
              options: CounterblastOptions = DEFAULT_OPTIONS, game_points: int | None = None) -> Crew:
    return parse_crew(load_json_file(path), path, armoury, options, game_points)


def load_mission(path: str | Path) -> Mission:
    return parse_data(Mission, load_json_file(path), path)


def shipped_crews() -> dict[str, Crew]:
    return shipped_folder("counterblast crews", DATA_DIR / "crews", lambda p: load_crew(p, load_armoury()),
                          also=[DATA_DIR / "armoury.json"])


def shipped_missions() -> dict[str, Mission]:
    return shipped_folder("counterblast missions", DATA_DIR / "missions", load_mission)
