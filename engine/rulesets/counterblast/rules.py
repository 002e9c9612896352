"""Counterblast as a playable state machine on the engine core (phase 2): the core.

The turn: Moxie phase (pools; 1 Moxie may elect a new leader), repeated Activation phases
(Moxie checks for the Active crew, then a single activation, a group activation or a pass;
actions, extra actions and reactions), Upkeep (un-Spend, Down models, Dread reduction by the
leader) and Panic (Dread, Panic tests). Six turns, or until one crew is left; then battle,
objective and mission scores and the degree of victory.

Every rule function comes from the phase-1 modules; the state machine adds the geometry (sight,
ranges, moves, jumps, falls), the decisions and the order of resolution. See
``docs/rules/counterblast.md`` ("Flow of play" and "Interpretations").

This module holds the set-up (crews, mission; the deployment's hooks are ``deployment.py``) and
``CounterblastRules``: ``pending`` and ``apply`` dispatch on the phase to the parts of the flow of
play in ``flow/``, one module per part, each a mixin of the class; the state it plays on
(``CBState``, ``Model``, ``Activation``) is ``state.py``:

- ``flow/geometry.py``     bases, distances, sight and cover, engagement, model helpers
- ``flow/activations.py``  the Moxie phase, leader election, Activation phases, paying for actions
- ``flow/actions.py``      the actions a model may take (options, split attacks) and their effects
- ``flow/movement.py``     move spaces, Rush / Action-roll moves, Prone, Jumps and throws, falls, flight
- ``flow/reactions.py``    Snapshot, Pursuit, Return fire, Action roll, Counterstrike, Parry, Disperse
- ``flow/attacks.py``      attack checks, Defense and damage, conditions inflicted, Throw, Psi
- ``flow/turn_end.py``     Upkeep, Dread, Panic and Rally, the end of the game and its scores, the scoreboard
- ``flow/words.py``        the view, option labels with their odds, ``attack_odds``
"""
from __future__ import annotations

from functools import partial

from pydantic import ValidationError

from engine.core import Decision, Event, MissionInfo, Result, Rules, SetupError, register
from engine.core.rng import GameRng
from engine.data.errors import problems_of
from engine.rulesets.common import roster_of

from . import moxie, panic
from .choices import ElectLeader, KeepLeader, ReduceDread, Stay
from .data import Crew, load_armoury, mission_summary, parse_crew, shipped_crews, shipped_missions
from .deployment import PlacementMixin
from .flow.actions import ActionRules, SplitSpace, split_offers
from .flow.activations import ActivationRules
from .flow.attacks import AttackRules
from .flow.common import CONTACT_MM, HEADINGS, MM, PRONE_HEIGHT_MM, TEAM_FOR, _kind_of
from .flow.geometry import GeometryRules
from .flow.movement import CBMoveSpace, MovementRules
from .flow.reactions import ReactionRules
from .flow.turn_end import TurnEndRules
from .flow.words import WordsRules, _attack_chance, _check_floats
from .options import CounterblastOptions
from .state import CBState

# the names other modules and the tests import from here
__all__ = ["CBMoveSpace", "CONTACT_MM", "CounterblastRules", "HEADINGS", "MM", "PRONE_HEIGHT_MM", "SplitSpace",
           "TEAM_FOR", "split_offers", "_attack_chance", "_check_floats", "_kind_of"]

MIN_COVERAGE, MAX_COVERAGE = 0.25, 0.50
DEFAULT_CREWS = ("dustjaw-raiders", "reach-rangers")


# ------------------------------------------------------------------------------------ rules

@register
class CounterblastRules(PlacementMixin, GeometryRules, ActivationRules, ActionRules, MovementRules, ReactionRules, AttackRules,
                        TurnEndRules, WordsRules, Rules):
    id = "counterblast"
    home_map = "outpost"
    easy_policy = "engine.ai.easy_counterblast:CounterblastPolicy"
    forces_module = "engine.rulesets.counterblast.forces"     # the force builder's hooks (Rules.force_catalog and the rest)
    name = "Counterblast"
    unit = "in"
    players = 2
    # 2: issue 32 (any Jump heading, a Panicked model may not jump toward an enemy, a Throw's
    # direction chosen after the roll): a save made under version 1 does not replay.
    # 3: issue 31 (ending a move Prone is chosen with the point, MoveProne, not asked after it)
    # 4: issue 32 (deployment ordered as each player faces the table, so that on a point-symmetric
    # table side 2 stands where side 1 would, turned half a turn)
    # 5: issue 45 (a deployment phase; the automatic placement on a lattice of each side's frame)
    # 6: issue 58 (the automatic placement is the agents' placement policy, spread out in cover)
    version = "6"

    # ---------------------------------------------------------------- setup
    @classmethod
    def default_rosters(cls, table) -> list:
        return list(DEFAULT_CREWS)

    @classmethod
    def roster_ids(cls) -> dict[str, str]:
        from .data import shipped_crews
        return {k: c.name for k, c in shipped_crews().items()}

    @classmethod
    def smallest_base_mm(cls) -> float:
        return float(min(e.profile.base_mm for c in shipped_crews().values() for e in c.models))

    @classmethod
    def options_model(cls):
        return CounterblastOptions

    @classmethod
    def missions(cls) -> dict[str, MissionInfo]:
        # Ours: the seed lists "Missions" in its set-up and scores "Objective points" but defines
        # no mission nor objective (Interpretation 17); the shipped ones are data/missions/*.json.
        return {m.id: MissionInfo(m.id, m.name, mission_summary(m), m.min_markers, ours=True,
                                  doc="docs/rules/counterblast.md, Interpretation 17")
                for m in shipped_missions().values()}

    @classmethod
    def default_mission(cls, mapfile) -> str:
        """Salvage Rights on a map with three objective markers or more, else Headhunters (which
        needs none)."""
        return "salvage-rights" if len(mapfile.objectives or ()) >= 3 else "headhunters"


    def __init__(self, table, rosters, options):
        super().__init__(table, rosters, options)
        opts = dict(options or {})
        mission_id = opts.pop("mission", None)
        try:
            self.opt = CounterblastOptions(**opts)
        except ValidationError as err:
            raise SetupError("counterblast options refused: " + "; ".join(f"{f}: {r}" for f, r in problems_of(err))) from None
        long_in, short_in = (max(table.width, table.height) / MM, min(table.width, table.height) / MM)
        want_long, want_short = max(self.opt.table_size), min(self.opt.table_size)
        if abs(long_in - want_long) > self.opt.table_size_tolerance or \
                abs(short_in - want_short) > self.opt.table_size_tolerance:
            raise SetupError(f"map {table.mapfile.id!r} is {long_in:.1f}x{short_in:.1f}\"; Counterblast is played on a "
                             f"{want_short / 12:g}'x{want_long / 12:g}' table ({want_long:g}x{want_short:g}\", "
                             f"within {self.opt.table_size_tolerance:g}\")")
        cov = table.coverage()
        if not (MIN_COVERAGE <= cov <= MAX_COVERAGE):
            raise SetupError(f"map {table.mapfile.id!r} is {cov:.0%} covered by terrain; Counterblast needs "
                             f"a table covered between {MIN_COVERAGE:.0%} and {MAX_COVERAGE:.0%}")
        if len(rosters) != 2:
            raise SetupError(f"Counterblast needs two crews, got {len(rosters)}")
        self.armoury = load_armoury()
        shipped = shipped_crews()
        self.crews: dict[int, Crew] = {}
        for p, r in zip((1, 2), rosters):
            self.crews[p] = roster_of(r, lambda: shipped, partial(parse_crew, file=f"roster {p}", armoury=self.armoury,
                                                                  options=self.opt),
                                      unknown="no crew", kinds=f"roster {p}: a crew id or a crew object")
        for p, crew in self.crews.items():       # a shipped crew too: the game's size is the limit
            if crew.points > self.opt.game_points:
                raise SetupError(f"roster {p}: {crew.name} costs {crew.points} points, over the game's "
                                 f"{self.opt.game_points}-point limit (option game_points)")
        markers = self.table.mapfile.objectives
        self.mission = shipped_missions()[self.chosen_mission(self.table.mapfile, mission_id)]
        self.markers = {m.id: (m.at[0] * table.mapfile.mm_per_unit, m.at[1] * table.mapfile.mm_per_unit)
                        for m in markers}
        evacs = self.table.mapfile.evac_points
        self.evac = {p: (evacs[p - 1].at[0] * table.mapfile.mm_per_unit, evacs[p - 1].at[1] * table.mapfile.mm_per_unit)
                     for p in (1, 2) if len(evacs) >= p}
        # static per-model data
        self.profile, self.names, self.crew_of, self.entries = {}, {}, {}, {}
        for p, crew in self.crews.items():
            for inst, entry in crew.instances():
                mid = f"{p}-{inst}"
                self.profile[mid] = entry.profile
                self.entries[mid] = (inst, entry)
                self.crew_of[mid] = p
                suffix = inst.rsplit("-", 1)[1] if entry.count > 1 else ""
                self.names[mid] = entry.profile.name + (f" {suffix}" if suffix else "")
        self._sight_cache: dict = {}
        self.reach = {mid: max((self.armoury.striking_weapon(w).reach for w in p.striking), default=None)
                      for mid, p in self.profile.items()}
        self.radius = {mid: p.base_mm / 2 for mid, p in self.profile.items()}
        self.abilities = {mid: [self.armoury.ability(a) for a in p.special] for mid, p in self.profile.items()}
        # Every door on the map is a secure door a Hack may open (Interpretation 40).
        self.doors = [p.id for p in table.pieces if p.kind == "door"]
        self._tables: dict = {}

    def initial_state(self, seed: int) -> CBState:
        st = CBState(rng=GameRng(seed))
        for p in (1, 2):
            crew = self.crews[p]
            st.leader[p] = f"{p}-{crew.leader}"
            st.leader_lost[p] = False
            st.dread[p] = 0
            st.casualties[p] = []
            st.hacked[p] = []
            st.held[p] = 0
            st.moxie[p] = 0
        st.phase = "deploy"
        self._setup_events = []
        self.deploy_setup(st, self._setup_events)
        return st

    # ---------------------------------------------------------------- pending and apply: the dispatch
    def pending(self, st: CBState) -> Decision | None:
        # the labels are worded when read (``Game.pending``: ``option_label``, most kept per option)
        return self._decision(st)

    def _decision(self, st: CBState) -> Decision | None:
        ph = st.phase
        if ph == "over":
            return None
        if st.deploy is not None:
            return self.deploy_pending(st)
        if ph == "leader":
            p = st.queue[0]
            opts = (KeepLeader(),) + tuple(ElectLeader(i) for i in self._leader_candidates(st, p))
            return Decision(p, "elect a leader", f"Player {p}: keep {self.names[st.leader[p]]} as leader, "
                            f"or spend {self.opt.leader_election_cost} Moxie to elect a new one", options=opts)
        if ph == "activate":
            return Decision(st.active, "activate", f"Activate one model ({self.opt.single_activation_cost} Moxie), "
                            f"a group ({self.opt.group_activation_cost} Moxie) or pass",
                            options=self._activation_options(st))
        if ph == "act":
            opts, spaces = self._action_options(st)
            return Decision(st.act.player, "act", self._act_prompt(st), options=tuple(opts), spaces=tuple(spaces))
        if ph == "move":
            w = st.window
            m = st.models[w["mover"]]
            return Decision(m.player, "move", f"{self.names[m.id]} moves up to {w['allowance']:.0f}\"",
                            options=(Stay(m.id),), spaces=tuple(self._move_spaces(st, m.id, w["allowance"] * MM)))
        if ph == "throw":
            w = st.window
            space = self._throw_direction_space(st)
            return Decision(st.models[w["thrower"]].player, "throw direction",
                            f"{self.names[w['thrower']]} throws {self.names[w['target']]} {w['inches']}\": "
                            f"choose the direction (click the table)", options=tuple(space.shortcuts()),
                            spaces=(space,))
        if ph == "react":
            w = st.window
            return Decision(w["reactor"], "react", w["prompt"], options=tuple(w["options"]))
        if ph == "dread":
            p = st.queue[0]
            top = min(st.moxie[p], st.dread[p])
            return Decision(p, "reduce dread", f"Player {p}: spend Moxie to reduce Dread {st.dread[p]}",
                            options=tuple(ReduceDread(n) for n in range(0, top + 1)))
        raise AssertionError(f"unknown phase {ph}")

    def apply(self, st: CBState, player: int, c) -> list[Event]:
        if st.deploy is not None:
            return self.deploy_apply(st, player, c)
        ev: list[Event] = []
        ph = st.phase
        if ph == "leader":
            st.queue.pop(0)
            if isinstance(c, ElectLeader):
                st.moxie[player] = moxie.spend(st.moxie[player], self.opt.leader_election_cost)
                st.leader[player] = c.model
                ev.append(Event(f"Player {player} spends {self.opt.leader_election_cost} Moxie: {self.names[c.model]} is the "
                                f"new leader", "leader"))
            if not st.queue:
                self._start_activation_phase(st, ev)
        elif ph == "activate":
            self._apply_activation(st, player, c, ev)
        elif ph == "act":
            self._apply_act(st, c, ev)
        elif ph == "move":
            self._apply_move_followup(st, c, ev)
        elif ph == "throw":
            self._apply_throw_direction(st, c, ev)
        elif ph == "react":
            self._apply_reaction(st, c, ev)
        elif ph == "dread":
            st.queue.pop(0)
            if c.moxie:
                st.moxie[player] = moxie.spend(st.moxie[player], c.moxie)
                st.dread[player] = panic.reduce_dread(st.dread[player], c.moxie, leader_on_table_not_down=True,
                                                      options=self.opt)
                ev.append(Event(f"Player {player}'s leader spends {c.moxie} Moxie: Dread {st.dread[player]}", "dread"))
            if not st.queue:
                self._panic_phase(st, ev)
        return ev

    def result(self, st) -> Result | None:
        if st.phase != "over" or st.final is None:
            return None
        f = st.final
        sc = f["scores"]
        reason = (f"{f['degree']} victory by {f['margin']}" if f["winner"] else "draw") + \
                 f" (mission scores {sc[1]['mission']}–{sc[2]['mission']}, {self.mission.name})"
        # the game ends when one crew is left on the table (turn_end._check_end) or after the last turn
        ending = "wiped_out" if sum(1 for p in (1, 2) if self.on_table(st, p)) <= 1 else "turn_limit"
        return Result(f["winner"], reason, {p: sc[p]["mission"] for p in (1, 2)}, ending)
