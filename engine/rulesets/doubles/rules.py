"""Doubles as a playable game: the state machine on the engine core's decision protocol.

``DoublesRules`` (id ``doubles``) turns the phase-1 mechanics (``duel``, ``damage``,
``shooting``, ``turn``) into decisions addressed to the right player. This module is its core:
setting up (rosters, options), the static look-ups (a fighter's sheet, armour, what it may
throw, its base), the state helpers (who is in play, engaged, in a melee), and ``pending`` and
``apply``, which hand each decision to the part of the game it belongs to:

- ``choices.py``: the choices players answer with; ``state.py``: the state (plain data);
- ``deployment.py``: the set-up on the table: the shared deployment phase's hooks and the
  automatic placement (interpretation 29, docs/rules/deployment.md);
- ``activation.py``: each turn every fighter in play is placed on the initiative track; fighters
  activate from the top down, whichever side they belong to, and spend their AP one action at a
  time (move, charge, shoot, aimed shot, melee attack, stand up, pick up, disengage) or end the
  activation; the turn and the game end;
- ``attacks.py``: an attack is declared (target, aim), the melee lottery is rolled if the shot
  goes into a melee, the attacker announces its AP dice (and its back-shot choice when allowed),
  then the defender announces its own AP dice; the duel then runs step by step, its rolls settled
  automatically, its keeps, double effects, manoeuvres and discards asked of the player whose
  fighter makes them (a choice with a single option is settled without asking); the result is
  applied: damage, off-balance, weapon breakage, intimidation, cover, aggressiveness, low
  ammunition, and the target may turn after a back shot;
- ``spaces.py``: the continuous choices (moves, disengagements, shots at a point of ground);
- ``views.py``: the view and the choices in words.

The names of those modules are re-exported here (``from engine.rulesets.doubles.rules import
Shoot`` keeps working). The flow of play and what is still missing are in ``docs/rules/doubles.md``.
"""
from __future__ import annotations

import math

from engine.core import Choice, Decision, Event, Result, Rules, register
from engine.core.errors import SetupError
from engine.core.rng import GameRng
from engine.data.errors import DataError
from engine.rulesets.common import MoveTo, roster_of
from engine.table import Base

from . import damage as dmg
from . import turn as tn
from .activation import ActivationMixin
from .attacks import ROLE_WORDS, AttackMixin
from .choices import (
    Announce,
    ChooseEffect,
    DiscardDie,
    EndActivation,
    Face,
    KeepDice,
    MeleeAttack,
    PickTarget,
    PickUp,
    RerollDie,
    RulesError,
    Shoot,
    ShootAt,
    StandUp,
    TakeRelic,
)
from .data import DoublesOptions, Warband, bundled_warbands, parse_options, parse_warband
from .deployment import PlacementMixin
from .missions import MissionMixin
from .points import size_problems, victory_value
from .spaces import (  # noqa: F401
    PROBE_HEIGHT_MM,
    PROBE_RADIUS_MM,
    DisengageSpace,
    GroundShotSpace,
    SpacesMixin,
    _CachedMoveSpace,  # _CachedMoveSpace: re-exported for tests/test_table_reach.py
)
from .state import BASE_RADIUS_MM, MODEL_HEIGHT_MM, Attack, DoublesState, FighterState
from .views import ViewMixin

__all__ = [
    "BASE_RADIUS_MM", "MODEL_HEIGHT_MM", "PROBE_RADIUS_MM", "PROBE_HEIGHT_MM", "DEFAULT_WARBANDS", "ROLE_WORDS",
    "Shoot", "ShootAt", "PickUp", "TakeRelic", "MeleeAttack", "StandUp", "EndActivation", "Announce", "PickTarget",
    "KeepDice", "ChooseEffect", "RerollDie", "DiscardDie", "Face", "MoveTo", "RulesError",
    "FighterState", "Attack", "DoublesState", "DisengageSpace", "GroundShotSpace", "DoublesRules",
]

DEFAULT_WARBANDS = ("ash_skulls", "bone_hunters")


@register
class DoublesRules(ActivationMixin, AttackMixin, MissionMixin, PlacementMixin, SpacesMixin, ViewMixin, Rules):
    id = "doubles"
    home_map = "prehistoric"
    easy_policy = "engine.ai.easy_doubles:DoublesPolicy"
    forces_module = "engine.rulesets.doubles.forces"     # the force builder's hooks (Rules.force_catalog and the rest)
    name = "Doubles"
    unit = "cm"
    players = 2
    # 2: issue 32's default readings (penalty dice cancel the highest die, a tactical advantage's
    # fixed point, low ammunition in melee): a save made under version 1 replays differently
    # 3: issue 45 (a deployment phase; the automatic placement in each side's own frame)
    # 4: issue 58 (the automatic placement is the agents' placement policy, spread out in cover;
    # a straight move is the table's swept test, which a base sliding through a hut's edge fails)
    version = "4"

    def __init__(self, table, rosters, options):
        super().__init__(table, rosters, options)
        opts = dict(options or {})
        mission_id = opts.pop("mission", None)       # missions.py; kept as ``self.mission``
        try:
            self.opts: DoublesOptions = parse_options(opts, "<options>")
        except DataError as err:
            raise SetupError(str(err)) from None
        self._setup_mission(mission_id)
        if len(rosters) != 2:
            raise SetupError(f"doubles needs 2 rosters (one warband each), got {len(rosters)}")
        self.warbands: dict[int, Warband] = {s: self._warband(r, s) for s, r in zip((1, 2), rosters)}
        for s, wb in self.warbands.items():      # the game's size (ours), shipped warbands too
            over = size_problems(wb, self.opts.game_points, self.opts)
            if over:
                raise SetupError(f"player {s}: {wb.name}: {over[0][1]}")
        self._names: dict[str, str] = {}
        # victory points the enemy scores for each fighter put out of action: its points unless
        # the warband file gives a value of its own
        self.victory_values: dict[tuple[int, str], int] = {}
        for s, wb in self.warbands.items():
            for f in wb.fighters:
                self._names[f"{s}.{f.id}"] = f.name
                self.victory_values[(s, f.id)] = victory_value(wb, f)
        self._paths: dict = {}

    @staticmethod
    def _warband(roster, side) -> Warband:
        return roster_of(roster, bundled_warbands, lambda data: parse_warband(data, f"<roster of player {side}>"),
                         unknown=f"player {side}: no warband", listed="bundled",
                         kinds=f"player {side}: a roster is a warband id or a warband object")

    @classmethod
    def default_rosters(cls, table) -> list:
        return list(DEFAULT_WARBANDS)

    @classmethod
    def smallest_base_mm(cls) -> float:
        return 2 * BASE_RADIUS_MM       # every fighter stands on the same base (interpretation 28)

    @classmethod
    def roster_ids(cls) -> dict[str, str]:
        return {k: w.name for k, w in bundled_warbands().items()}

    @classmethod
    def options_model(cls):
        return DoublesOptions


    # ------------------------------------------------------------ static look-ups
    def sheet(self, f: FighterState):
        # the warbands are fixed when the rules are made: one look-up per fighter, then a dict
        sheets = self.__dict__.setdefault("_sheets", {})
        key = (f.side, f.fid)
        s = sheets.get(key)
        if s is None:
            s = sheets[key] = self.warbands[f.side].fighter(f.fid)
        return s

    def chars(self, f: FighterState):
        return self.sheet(f).characteristics

    def armour(self, f: FighterState):
        return self.warbands[f.side].armour_of(self.sheet(f))

    def test_penalty(self, f: FighterState) -> int:
        return dmg.armour_test_penalty(self.armour(f))

    def _test_pen(self, f: FighterState) -> int:
        """Penalty dice on the fighter's own tests: its armour's, and being on the ground."""
        return self.test_penalty(f) + (self.opts.ground_target_penalty if f.on_ground else 0)

    def protection(self, f: FighterState) -> int:
        a = self.armour(f)
        return max(0, a.protection - f.armour_lost) if a else 0

    def throwables(self, f: FighterState) -> list:
        """What ``f`` may throw: every weapon it holds for throwing (use ``thrown`` or ``both``),
        by id, or ``[None]`` (a stone picked up) when it holds none."""
        wb = self.warbands[f.side]
        ids = sorted({w for w in f.weapons if wb.weapon(w).use in ("thrown", "both")})
        return ids or [None]

    def weapon_for(self, f: FighterState, use: str):
        """The weapon a fighter uses: its best (bonus, then id) for melee or for throwing; None
        when it holds nothing suitable (a stone picked up, or bare hands)."""
        wb = self.warbands[f.side]
        ok = [wb.weapon(w) for w in f.weapons if wb.weapon(w).use in (use, "both")]
        if not ok:
            return None
        return sorted(ok, key=lambda w: (-w.bonus, w.id))[0]

    def base(self, f: FighterState) -> Base:
        # Bases are immutable: the one built for a fighter standing there is shared (building a
        # frozen dataclass costs more than the look-up)
        key = (f.key, f.x, f.y, f.facing, f.z)
        bases = self.__dict__.setdefault("_bases", {})
        b = bases.get(key)
        if b is None:
            if len(bases) > 4096:
                bases.clear()
            b = bases[key] = Base(f.key, f.x, f.y, BASE_RADIUS_MM, MODEL_HEIGHT_MM, f.facing, f.z)
        return b

    # ------------------------------------------------------------ state helpers
    @staticmethod
    def in_play(st: DoublesState, side: int | None = None):
        return [f for f in st.fighters.values() if not f.out and (side is None or f.side == side)]

    def others(self, st, *exclude: str) -> list[Base]:
        return [self.base(f) for f in self.in_play(st) if f.key not in exclude]

    @staticmethod
    def edge_cm(a: FighterState, b: FighterState) -> float:
        """Base edge to base edge, in cm (the table's ``distance`` for two round bases)."""
        return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - 2 * BASE_RADIUS_MM) / 10.0

    def engaged_with(self, st, f: FighterState) -> list[FighterState]:
        return [e for e in self.in_play(st) if e.side != f.side and tn.is_engaged(self.edge_cm(f, e), self.opts)]

    def melee_group(self, st, f: FighterState) -> list[str]:
        """Every fighter in the melee around ``f`` (engagement, followed from fighter to fighter)."""
        seen, todo = {f.key}, [f]
        while todo:
            g = todo.pop()
            for e in self.engaged_with(st, g):
                if e.key not in seen:
                    seen.add(e.key)
                    todo.append(e)
        return sorted(seen)

    def fighter_name(self, st, key: str) -> str:
        return st.fighters[key].name if key in st.fighters else self._names.get(key, key)

    def owner(self, st, key: str) -> int:
        return st.fighters[key].side

    # ------------------------------------------------------------ setup
    def initial_state(self, seed: int) -> DoublesState:
        st = DoublesState(rng=GameRng(seed))
        st.mission = self._mission_start()
        self._setup_events = []
        self.deploy_setup(st, self._setup_events)
        return st

    # ------------------------------------------------------------ pending and apply
    def pending(self, st: DoublesState) -> Decision | None:
        if st.finished:
            return None
        if st.deploy is not None:
            return self.deploy_pending(st)
        if st.attack is not None:
            return self._attack_decision(st)
        return self._action_decision(st)

    def apply(self, st: DoublesState, player: int, c: Choice) -> list[Event]:
        ev: list[Event] = []
        if st.finished:
            raise RulesError("the game is over")
        if st.deploy is not None:
            return self.deploy_apply(st, player, c)
        if st.attack is not None:
            self._apply_attack_choice(st, player, c, ev)
        else:
            self._apply_action(st, player, c, ev)
        self._advance(st, ev)
        return ev

    # ------------------------------------------------------------ result, odds
    def result(self, st: DoublesState) -> Result | None:
        if not st.finished:
            return None
        gone = any(all(f.out for f in st.fighters.values() if f.side == s) for s in (1, 2))
        scores = self._mission_scores(st) if st.mission is not None else {1: st.points[0], 2: st.points[1]}
        return Result(st.winner, st.reason, scores, "wiped_out" if gone else "turn_limit")

    def attack_odds(self, st: DoublesState, c: Choice, player: int | None):
        """Exact odds of a Shoot, MeleeAttack or the attacker's Announce (``attack_odds.py``,
        model in ``odds.py``); None for any other choice."""
        from . import attack_odds as _attack_odds
        return _attack_odds.attack_odds(self, st, c, player)
