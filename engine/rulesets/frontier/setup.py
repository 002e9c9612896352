"""Last Hope Frontier's set-up: the posses and options a game is made with, and the game's start.

The shipped data (items, posses, default options) is read once per process. ``SetupRules`` (a
mixin of ``FrontierRules``) checks the rosters (a faction id or a posse object; the defaults are
``DEFAULT_FACTIONS``) and the house-rule options, keeps the static look-ups the rest of the state
machine reads (profiles, factions, items, the duel's rules), and deals the start: each player's
54 cards shuffled, the first-turn high-card draw for priority, hands of eight, then the
deployment (``deployment.py``).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from engine.core.errors import SetupError
from engine.core.rng import GameRng
from engine.data.errors import problems_of
from engine.rulesets.common import roster_of

from . import duel
from .cards import PlayerCards
from .data import ItemCatalogue, Options, Posse, budget_problems, load_items, load_posses, parse_posse
from .state import FrontierState, Piles

DEFAULT_FACTIONS = ("sheriffs", "outlawmen")


@lru_cache(maxsize=1)
def _catalogue() -> ItemCatalogue:
    return load_items()


@lru_cache(maxsize=1)
def _shipped_posses() -> dict[str, Posse]:
    return load_posses()


@lru_cache(maxsize=1)
def _default_options() -> dict:
    return Options().model_dump()


def _posse_of(roster: Any, player: int) -> Posse:
    if isinstance(roster, Posse):
        return roster
    if roster is None:
        roster = DEFAULT_FACTIONS[player - 1]
    return roster_of(roster, _shipped_posses, lambda data: parse_posse(data, f"roster of player {player}", _catalogue()),
                     unknown=f"player {player}: no posse", refused=f"player {player}: the posse is refused: ",
                     kinds=f"player {player}: a roster is a faction id or a posse object", catch=Exception)


class SetupRules:
    """The set-up of ``FrontierRules`` (a mixin): rosters, options, static look-ups, the start."""

    def __init__(self, table, rosters, options):
        super().__init__(table, rosters, options)
        rosters = list(rosters) + [None] * (2 - len(rosters))
        self.posses: dict[int, Posse] = {p: _posse_of(rosters[p - 1], p) for p in (1, 2)}
        options = dict(options or {})
        mission_id = options.pop("mission", None)     # missions.py; kept as ``self.mission``
        unknown = set(options) - set(_default_options())
        if unknown:
            raise SetupError(f"unknown frontier options: {', '.join(sorted(unknown))}")
        try:
            self.opts = Options.model_validate({**_default_options(), **options})
        except ValidationError as err:
            raise SetupError("frontier options refused: " + "; ".join(f"{f}: {r}" for f, r in problems_of(err))) from None
        except Exception as err:
            raise SetupError(f"frontier options refused: {err}") from None
        self.duel_rules = self.opts.duel_rules()
        self._setup_mission(mission_id)
        self.catalogue = _catalogue()
        for p in (1, 2):                            # the posse budget (ours), shipped posses too
            over = budget_problems(self.posses[p], self.opts.posse_budget, self.catalogue)
            if over:
                raise SetupError(f"player {p}: {self.posses[p].name}: {over[0][1]}")
        self.items = self.catalogue.by_id()
        self.faction = {p: self.posses[p].faction for p in (1, 2)}
        self.profiles = {p: {m.id: m for m in self.posses[p].models} for p in (1, 2)}
        self._sight_cache: dict = {}
        self._move_cache: dict = {}
        self._quick_cache: dict = {}
        self._pair_cache: dict = {}

    @classmethod
    def default_rosters(cls, table) -> list:
        return list(DEFAULT_FACTIONS)

    @classmethod
    def roster_ids(cls) -> dict[str, str]:
        return {k: p.name for k, p in load_posses().items()}

    @classmethod
    def smallest_base_mm(cls) -> float:
        return float(min(m.base_mm for p in load_posses().values() for m in p.models))

    @classmethod
    def options_model(cls):
        return Options


    def initial_state(self, seed: int) -> FrontierState:
        rng = GameRng(seed)
        st = FrontierState(rng=rng)
        decks = [PlayerCards.new(rng), PlayerCards.new(rng)]
        first = duel.first_turn_draw(decks, [self.faction[1], self.faction[2]], rng)
        st.first_draw = [[a.code, b.code] for a, b in first.draws]
        for pc in decks:
            pc.deal(self.opts.hand_size, rng)
        for p in (1, 2):
            st.cards[p] = Piles()
            st.cards[p].store(decks[p - 1])
        st.priority = st.active = first.winner + 1
        st.mission = self._mission_start()
        st.phase = "deploy"
        self._setup_events = []
        self.deploy_setup(st, self._setup_events)
        return st

    def _names(self, p: int) -> dict[str, str]:
        models = self.posses[p].models
        count: dict[str, int] = {}
        for m in models:
            count[m.name] = count.get(m.name, 0) + 1
        seen: dict[str, int] = {}
        out = {}
        for m in models:
            if count[m.name] > 1:
                seen[m.name] = seen.get(m.name, 0) + 1
                out[m.id] = f"{m.name} {seen[m.name]}"
            else:
                out[m.id] = m.name
        return out
