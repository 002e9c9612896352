"""What a ruleset implements, and the registry that finds rulesets by id."""
from __future__ import annotations

import copy
import importlib
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from .errors import SetupError, UnknownRuleset
from .odds import AttackOdds
from .protocol import Choice, Decision, Event, Result
from .rng import GameRng
from .setup_info import MissionInfo, Scoreboard
from .state import State


class Rules(ABC):
    """A ruleset bound to one table, rosters and options: the static half of a game.

    The dynamic half is the ``State``; every method here reads or changes a state passed in,
    so one Rules object serves every clone of a game.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    unit: ClassVar[str] = "in"  # the unit this ruleset measures in
    players: ClassVar[int] = 2
    # The shipped table its default forces were balanced on (docs/rules/<id>.md): where the
    # launcher starts it, so that the defaults give an even game.
    home_map: ClassVar[str | None] = None
    # Recorded in saves: a ruleset bumps it when a change makes old games replay differently.
    version: ClassVar[str] = "1"
    # The ``easy`` agent's policy for this ruleset, "module:Class" (a ``engine.ai.easy.Policy``).
    # A name, not an import: the agents read the rulesets, never the other way round, and a game
    # without agents never loads them. None: easy plays its plain fallback.
    easy_policy: ClassVar[str | None] = None

    def __init__(self, table, rosters: list[Any], options: dict[str, Any]):
        self.table = table
        self.rosters = rosters
        self.options = options

    @classmethod
    def default_rosters(cls, table) -> list[Any]:
        """Rosters to use when none are given (one per player), as JSON-friendly data."""
        return [None] * cls.players

    @classmethod
    def roster_ids(cls) -> dict[str, str]:
        """The rosters that ship with the ruleset, id -> name (a launcher's choices)."""
        return {}

    @classmethod
    def smallest_base_mm(cls) -> float | None:
        """The diameter (mm) of the smallest base among the shipped rosters: the workshop tests a
        layout's walking routes with it (``engine/workshop/reachability.py``). None: not known,
        the workshop's default base is used."""
        return None

    @classmethod
    def options_model(cls):
        """The pydantic model of the ruleset's options (house rules), or None: the launcher's
        Options dialog lists its fields with their descriptions and defaults."""
        return None

    @classmethod
    def missions(cls) -> dict[str, MissionInfo]:
        """The missions (scenarios) the ruleset offers, id -> info, chosen with the option
        ``mission``. Empty: the ruleset has one way to play."""
        return {}

    @classmethod
    def default_mission(cls, mapfile) -> str | None:
        """The mission played on ``mapfile`` when none is chosen (None: no missions)."""
        return None

    @classmethod
    def mission_problem(cls, mapfile, mission_id: str) -> str | None:
        """Why ``mapfile`` cannot hold ``mission_id`` (None: it can): an unknown id, or too few
        objective markers. A ruleset with other needs extends it."""
        missions = cls.missions()
        if mission_id not in missions:
            known = ", ".join(sorted(missions)) or "none"
            return f"no {cls.name} mission {mission_id!r} (missions: {known})"
        m = missions[mission_id]
        have = len(getattr(mapfile, "objectives", ()) or ())
        if have < m.min_markers:
            return f"{m.name} needs {m.min_markers} objective markers; {mapfile.name!r} has {have}"
        return None

    # --- forces (issue 49): what a force may hold and what it costs (engine/core/forces.py) ----
    # The ruleset's force builder module, "package.module" with the four functions below, imported
    # when first asked (as ``easy_policy``). None: the ruleset has no builder.
    forces_module: ClassVar[str | None] = None

    @classmethod
    def _forces(cls):
        if cls.forces_module is None:
            raise NotImplementedError(f"{cls.name} has no force builder")
        return importlib.import_module(cls.forces_module)

    @classmethod
    def force_catalog(cls):
        """The ``ForceCatalog`` of the force builder: the model templates, their gear, the limit
        and the rules a force keeps. None: the ruleset has no builder."""
        return None if cls.forces_module is None else cls._forces().force_catalog()

    @classmethod
    def build_force(cls, draft) -> dict:
        """The roster dict (as the ruleset's roster file holds it) a ``ForceDraft`` makes."""
        return cls._forces().build_force(draft)

    @classmethod
    def read_force(cls, roster: dict, file: str = "<force>"):
        """A roster dict read back into a ``ForceDraft``; ``DataError`` when it does not read."""
        return cls._forces().read_force(roster, file)

    @classmethod
    def price_force(cls, roster: dict, limit: int | None = None, file: str = "<force>"):
        """The ``ForcePrice`` of a roster dict against ``limit`` (None: the game's default),
        checked through the ruleset's own models: total, each model's price, the problems."""
        return cls._forces().price_force(roster, limit, file)

    @classmethod
    def chosen_mission(cls, mapfile, mission_id) -> str | None:
        """The mission a game on ``mapfile`` plays: ``mission_id`` (the option ``mission``), or the
        default when None; a ``SetupError`` with ``mission_problem``'s words (the launcher's and the
        command line's) when the map cannot hold it or it is not a mission id."""
        if mission_id is None:
            mission_id = cls.default_mission(mapfile)
            if mission_id is None:
                return None
        why = (cls.mission_problem(mapfile, mission_id) if isinstance(mission_id, str)
               else f"option mission: a mission id, not {mission_id!r}")
        if why:
            raise SetupError(why)
        return mission_id

    def scoreboard(self, state: State) -> Scoreboard | None:
        """The game's standing as every player may know it (the score panel, the game-over
        screen). None: the ruleset keeps no score beyond who is left."""
        return None

    @abstractmethod
    def initial_state(self, seed: int) -> State: ...

    @abstractmethod
    def pending(self, state: State) -> Decision | None:
        """The next decision, or None when the game is over. Must not change the state."""

    @abstractmethod
    def apply(self, state: State, player: int, choice: Choice) -> list[Event]:
        """Apply a choice that ``pending`` offered, settle everything automatic that follows,
        and return the events, stopping at the next decision."""

    @abstractmethod
    def view(self, state: State, player: int | None, drawing: bool = True) -> dict:
        """Everything ``player`` may know (None: a spectator, who sees no hidden card). With
        ``drawing=False`` without ``pieces``, the entries only the client draws from: the
        simulator and the search's roll-outs ask so for agents, which never read them."""

    @abstractmethod
    def result(self, state: State) -> Result | None: ...

    def setup_events(self, state: State) -> list[Event]:
        """What happened while ``initial_state`` set the game up (a roll-off, an automatic
        placement), for the first lines of the log; asked once, right after it."""
        return list(self.__dict__.pop("_setup_events", ()))

    def aim_info(self, state: State, attacker: str, target: str) -> list[str]:
        """What a player sizing up an attack may know, in the ruleset's own words: how much of
        the target shows and the cover it gets, the range band (for the client's hover)."""
        return []

    def ranges(self, state: State, model: str) -> list[tuple[str, float]]:
        """The model's attack reaches, (name, mm from the edge of its base), for range rings."""
        return []

    def describe_choice(self, state: State, choice: Choice) -> str:
        return choice.describe()

    def refusal(self, state: State, player: int, choice: Choice) -> str | None:
        """Why the pending decision does not offer ``choice``, in the rules' words, where the
        rules can say more than "not one of the options" (a group that cannot be formed: which
        model may not join, and why). ``Game.check`` adds it to its refusal; None says nothing."""
        return None

    def hidden_from(self, state: State, player: int) -> tuple:
        """What ``player`` cannot see, as a comparable value (the dice to come are not in it:
        ``Game`` watches the RNG itself). A decision after which this changed revealed or used up
        something hidden (an opponent's face-down card turned over, a card drawn from a deck), so
        the player may not take it back. The base hides nothing but the dice."""
        return ()

    def determinize(self, state: State, player: int | None, rng) -> State:
        """A copy of ``state`` that ``player`` cannot tell from it: the same ``view(player)``,
        with everything that player may not know drawn anew from ``rng`` (a ``random.Random``).
        The base keeps the whole state (nothing is hidden but the dice to come) and reseeds the
        copy's ``GameRng`` from ``rng``; a ruleset with hidden cards re-deals them as well.
        The result depends only on what ``player`` sees and on ``rng``, never on the hidden facts
        of ``state``: this is what search agents play on (``Game.sample_world``)."""
        new = copy.deepcopy(state)
        new.rng = GameRng(rng.getrandbits(64))
        return new

    def redact(self, state: State, player: int | None) -> State:
        """A copy of ``state`` holding nothing ``player`` may not know, for a network client
        (``game/net``): with it the client asks ``pending``, ``check``, the words, the odds and
        ``view(player)`` of its own decisions without the server. Unlike ``determinize`` it draws
        nothing: what the player may not know is left out (an unseen card is ``None``, an unseen
        placement a stand-in) rather than dealt anew, so none of the hidden facts, not even which
        cards they are among, is in it. The base hides only the dice to come: the copy's
        ``GameRng`` is a fixed stand-in, never the game's. ``view(player)`` of the copy is
        ``view(player)`` of ``state``, and so is ``pending`` when ``player`` decides
        (``tests/test_core_worlds.py``)."""
        new = copy.deepcopy(state)
        new.rng = GameRng(0)
        return new

    def attack_odds(self, state: State, choice: Choice, player: int | None) -> AttackOdds | None:
        """The odds of ``choice`` if it is an attack (None for any other choice), from what
        ``player`` may know (None: a spectator). Must not change the state. Rulesets override
        this with their own odds functions; the base has no attacks."""
        return None


_REGISTRY: dict[str, type[Rules]] = {}
# Rulesets that ship with the product, imported on first use so the engine stays light.
_BUILTIN = {
    "counterblast": "engine.rulesets.counterblast.rules",
    "frontier": "engine.rulesets.frontier.rules",
    "doubles": "engine.rulesets.doubles.rules",
}


def register(cls: type[Rules]) -> type[Rules]:
    """Class decorator: make a ruleset available by its id."""
    _REGISTRY[cls.id] = cls
    return cls


def unregister(ruleset_id: str) -> None:
    _REGISTRY.pop(ruleset_id, None)


def get_rules(ruleset_id: str) -> type[Rules]:
    if ruleset_id not in _REGISTRY and ruleset_id in _BUILTIN:
        try:
            importlib.import_module(_BUILTIN[ruleset_id])
        except ModuleNotFoundError as err:
            if not (err.name or "").startswith(_BUILTIN[ruleset_id].rsplit(".", 1)[0]):
                raise
    if ruleset_id not in _REGISTRY:
        raise UnknownRuleset(ruleset_id, available(), planned=ruleset_id in _BUILTIN)
    return _REGISTRY[ruleset_id]


def available() -> list[str]:
    """The rulesets that can be asked for: those registered and the shipped ones that are there
    (found without importing them)."""
    from importlib.util import find_spec

    shipped = set()
    for rid, mod in _BUILTIN.items():
        try:
            if find_spec(mod) is not None:
                shipped.add(rid)
        except (ImportError, ValueError):
            pass
    return sorted(set(_REGISTRY) | shipped)
