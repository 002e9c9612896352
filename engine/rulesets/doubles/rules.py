"""Doubles as a playable game: the state machine on the engine core's decision protocol.

``DoublesRules`` (id ``doubles``) turns the phase-1 mechanics (``duel``, ``damage``,
``shooting``, ``turn``) into decisions addressed to the right player:

- each turn every fighter in play is placed on the initiative track; fighters activate from
  the top down, whichever side they belong to, and spend their AP one action at a time
  (move, charge, shoot, aimed shot, melee attack, stand up, disengage) or end the activation;
- an attack is declared (target, aim), the melee lottery is rolled if the shot goes into a
  melee, the attacker announces its AP dice (and its back-shot choice when allowed), then the
  defender announces its own AP dice; the duel then runs step by step, its rolls settled
  automatically, its keeps, double effects, manoeuvres and discards asked of the player whose
  fighter makes them (a choice with a single option is settled without asking);
- the result is applied: damage, off-balance, weapon breakage, intimidation, cover,
  aggressiveness, low ammunition, and the target may turn after a back shot.

The flow of play and what is still missing are in ``docs/rules/doubles.md``.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core import Choice, ChoiceSpace, Decision, Event, Result, Rules, State, register
from engine.core.board import piece
from engine.core.errors import SetupError
from engine.core.rng import GameRng
from engine.data.errors import DataError
from engine.rulesets.common import MoveSpace, MoveTo
from engine.table import Base
from engine.table.movement import EDGE_TOL, HARD

from . import damage as dmg
from . import duel as dl
from . import shooting as sh
from . import turn as tn
from .data import DoublesOptions, Warband, bundled_warbands, parse_options, parse_warband

BASE_RADIUS_MM = 12.5      # 25 mm round bases
MODEL_HEIGHT_MM = 32.0
PROBE_RADIUS_MM = 2.5      # a projectile lying on the ground: the probe for sight to a point
PROBE_HEIGHT_MM = 5.0
DEFAULT_WARBANDS = ("ash_skulls", "bone_hunters")
ROLE_WORDS = {"attacker": "attack", "defender": "defence"}


# ---------------------------------------------------------------------------------- choices
@dataclass(frozen=True)
class Shoot(Choice):
    """``shooter`` throws ``weapon`` (a weapon id it holds; None: a stone picked up) at the model
    ``target``; ``aimed`` (1 AP more) picks that target inside a melee."""
    tag = "doubles.Shoot"
    shooter: str
    target: str
    aimed: bool = False
    weapon: str | None = None


@dataclass(frozen=True)
class ShootAt(Choice):
    """``shooter`` throws ``weapon`` (None: a stone picked up) at the point (x, y) of empty ground,
    in table millimetres: the shot is spent and the projectile lands there, hitting nothing."""
    tag = "doubles.ShootAt"
    shooter: str
    x: float
    y: float
    weapon: str | None = None


@dataclass(frozen=True)
class PickUp(Choice):
    """(option ``thrown_weapon="dropped"``) ``fighter`` picks up ``weapon`` lying at (x, y)."""
    tag = "doubles.PickUp"
    fighter: str
    weapon: str
    x: float
    y: float


@dataclass(frozen=True)
class MeleeAttack(Choice):
    tag = "doubles.MeleeAttack"
    attacker: str
    target: str


@dataclass(frozen=True)
class StandUp(Choice):
    tag = "doubles.StandUp"
    fighter: str


@dataclass(frozen=True)
class EndActivation(Choice):
    tag = "doubles.EndActivation"
    fighter: str


@dataclass(frozen=True)
class Announce(Choice):
    """AP spent on extra duel dice, announced before the roll; the attacker also says how it
    uses a back shot ("advantage" or "penalty") when one is allowed."""
    tag = "doubles.Announce"
    fighter: str
    ap: int
    back: str | None = None


@dataclass(frozen=True)
class PickTarget(Choice):
    """(option ``melee_target_tie="shooter_chooses"``) the shooter picks among the tied."""
    tag = "doubles.PickTarget"
    fighter: str


@dataclass(frozen=True)
class KeepDice(Choice):
    tag = "doubles.KeepDice"
    fighter: str
    values: tuple[int, ...]
    penalty_values: tuple[int, ...] = ()


@dataclass(frozen=True)
class ChooseEffect(Choice):
    tag = "doubles.ChooseEffect"
    fighter: str
    effect: str


@dataclass(frozen=True)
class RerollDie(Choice):
    """Manoeuvre: the opponent's die ``die`` (an id in the duel) is rerolled."""
    tag = "doubles.RerollDie"
    fighter: str
    die: int


@dataclass(frozen=True)
class DiscardDie(Choice):
    """(option ``penalty_rule="opponent_discards"``) set one of the opponent's dice aside."""
    tag = "doubles.DiscardDie"
    fighter: str
    die: int


@dataclass(frozen=True)
class Face(Choice):
    """After a back shot hit, the target may turn to face the shooter."""
    tag = "doubles.Face"
    fighter: str
    turn: bool


# ---------------------------------------------------------------------------------- state
@dataclass
class FighterState:
    key: str                  # "<side>.<fighter id>": unique in the game, the base id
    side: int
    warband: str
    fid: str
    name: str
    x: float
    y: float
    facing: float
    health: int
    z: float = 0.0
    ap: int = 0
    on_ground: bool = False
    out: bool = False
    weapons: list = field(default_factory=list)     # ids of the weapons not broken
    armour_lost: int = 0                            # option armour_damage_permanent
    status: tn.TurnStatus = field(default_factory=tn.TurnStatus)
    ammo_blocked: bool = False                      # failed its low-ammunition test this turn
    activated: bool = False
    path: list = field(default_factory=list)        # (x, y) points moved through since the turn began


@dataclass
class Attack:
    kind: str                 # "shoot" | "melee"
    attacker: str
    target: str               # the model the attack was declared at
    stage: str                # "pick" | "announce_attack" | "announce_defence" | "duel" | "face"
    defender: str | None = None
    aimed: bool = False
    band: str = ""
    sight: str = "visible"
    moved_before: bool = False
    weapon: str | None = None  # None: an improvised stone or bare hands
    weapon_bonus: int = 0
    back_allowed: bool = False
    back: str | None = None
    attack_ap: int = 0
    defence_ap: int = 0
    tied: tuple = ()
    duel: Any = None          # duel.Duel while the dice are out


@dataclass
class DoublesState(State):
    fighters: dict = field(default_factory=dict)
    track: tuple = ()         # turn.TrackEntry, top first
    acting: str | None = None
    attack: Attack | None = None
    finished: bool = False
    winner: int | None = None
    reason: str = ""
    points: tuple = (0, 0)
    dropped: list = field(default_factory=list)   # (side, weapon id, x, y): thrown weapons lying on the table

    def __deepcopy__(self, memo):
        """Clones copy what can change: the RNG, each fighter (with its lists) and the attack;
        frozen values (TurnStatus, TrackEntry, Duel) are shared, being immutable."""
        c = copy.copy(self)
        c.rng = copy.deepcopy(self.rng, memo)
        c.fighters = {k: replace(f, weapons=list(f.weapons), path=list(f.path)) for k, f in self.fighters.items()}
        c.attack = replace(self.attack) if self.attack is not None else None
        c.dropped = list(self.dropped)
        return c


class RulesError(ValueError):
    """apply() was given something pending() did not offer (Game.submit never lets it through)."""


# ---------------------------------------------------------------------------------- spaces
class _CachedMoveSpace(MoveSpace):
    """MoveSpace whose paths are remembered by the rules (pure function of the inputs), so that
    apply() reuses the path the check found."""

    # rules._path takes the straight line whenever it is clear, climbing or not (MoveSpace.reach)
    detour_when_straight_clear = False

    def __init__(self, rules: "DoublesRules", base, allowance, others, difficult_factor, label=""):
        super().__init__(rules.table, base, allowance, others, difficult_factor, label)
        self.rules = rules

    def path_to(self, x, y):
        return self.rules._path(self.base, (x, y), self.others, self.allowance)


class DisengageSpace(_CachedMoveSpace):
    """A move that must end out of contact with every enemy (2 AP by default)."""

    def __init__(self, rules, base, allowance, others, difficult_factor, enemies, label=""):
        super().__init__(rules, base, allowance, others, difficult_factor, label)
        self.enemies = tuple(enemies)

    def problem(self, c):
        moved = self.base.moved(c.x, c.y)
        for e in self.enemies:
            if tn.is_engaged(self.rules.table.distance(moved, e) / 10.0, self.rules.opts):
                return f"it would still be in contact with {self.rules._names.get(e.id, e.id)}"
        return None


class GroundShotSpace(ChoiceSpace):
    """A shot at a point of empty ground: on the table, not on a model nor on impassable terrain,
    within the thrower's range (edge of its base to the point, at most the end of the long band)
    and in its line of sight (a small probe lying at the point is not hidden). ``weapons`` are the
    things it may throw (weapon ids, or None for a stone picked up)."""

    choice_type = ShootAt

    def __init__(self, rules: "DoublesRules", st, f: "FighterState", weapons, label: str = ""):
        self.rules, self.key = rules, f.key
        self.shooter = rules.base(f)
        self.others = tuple(rules.others(st, f.key))
        self.throw = rules.chars(f).throw
        self.reach_mm = sh.max_range_cm(self.throw) * 10.0
        self.weapons = tuple(weapons)
        self.label = label or f"throw at a point of empty ground up to {self.reach_mm / 10:.0f} cm away"

    @property
    def actor(self) -> str:
        return self.key

    def at_point(self, x: float, y: float) -> tuple[ShootAt, ...]:
        return tuple(ShootAt(self.key, round(float(x), 2), round(float(y), 2), w) for w in self.weapons)

    def check(self, c) -> str | None:
        if not isinstance(c, ShootAt):
            return "not a shot at a point"
        if c.shooter != self.key:
            return f"this shot is for {self.key}, not {c.shooter}"
        if c.weapon not in self.weapons:
            return f"{self.key} holds no {c.weapon!r} to throw"
        x, y = float(c.x), float(c.y)
        if not (math.isfinite(x) and math.isfinite(y)):
            return "not a point"
        b = self.shooter
        if math.hypot(x - b.x, y - b.y) < b.radius + PROBE_RADIUS_MM:
            return "on the shooter's own base"
        cm = self.rules.table.distance_to_point(b, x, y) / 10.0
        if sh.range_band(self.throw, cm) == "out_of_range":
            return f"{cm:.1f} cm away, beyond the {self.reach_mm / 10:.0f} cm range"
        problem = self.rules.table.position_problem(x, y, PROBE_RADIUS_MM, self.others)
        if problem:
            return f"not empty ground: {problem}"
        if self.rules.point_sight(b, x, y, self.others) == "hidden":
            return "not in the shooter's line of sight"
        return None

    def sample(self, rng, tries: int = 30) -> ShootAt | None:
        b = self.shooter
        for _ in range(tries):
            a = rng.uniform(0, 2 * math.pi)
            r = (b.radius + self.reach_mm) * math.sqrt(rng.random())
            w = self.weapons[rng.randrange(len(self.weapons))]
            c = ShootAt(self.key, round(b.x + r * math.cos(a), 2), round(b.y + r * math.sin(a), 2), w)
            if self.check(c) is None:
                return c
        return None


# ---------------------------------------------------------------------------------- rules
@register
class DoublesRules(Rules):
    id = "doubles"
    name = "Doubles"
    unit = "cm"
    players = 2

    def __init__(self, table, rosters, options):
        super().__init__(table, rosters, options)
        try:
            self.opts: DoublesOptions = parse_options(dict(options or {}), "<options>")
        except DataError as err:
            raise SetupError(str(err)) from None
        if len(rosters) != 2:
            raise SetupError(f"doubles needs 2 rosters (one warband each), got {len(rosters)}")
        self.warbands: dict[int, Warband] = {s: self._warband(r, s) for s, r in zip((1, 2), rosters)}
        self._names: dict[str, str] = {}
        for s, wb in self.warbands.items():
            for f in wb.fighters:
                self._names[f"{s}.{f.id}"] = f.name
        self._paths: dict = {}

    @staticmethod
    def _warband(roster, side) -> Warband:
        if isinstance(roster, str):
            known = bundled_warbands()
            if roster not in known:
                raise SetupError(f"player {side}: no warband {roster!r} (bundled: {', '.join(sorted(known))})")
            return known[roster]
        if isinstance(roster, dict):
            try:
                return parse_warband(roster, f"<roster of player {side}>")
            except DataError as err:
                raise SetupError(str(err)) from None
        raise SetupError(f"player {side}: a roster is a warband id or a warband object, not {type(roster).__name__}")

    @classmethod
    def default_rosters(cls, table) -> list:
        return list(DEFAULT_WARBANDS)

    @classmethod
    def roster_ids(cls) -> dict[str, str]:
        return {k: w.name for k, w in bundled_warbands().items()}

    # ------------------------------------------------------------ static look-ups
    def sheet(self, f: FighterState):
        return self.warbands[f.side].fighter(f.fid)

    def chars(self, f: FighterState):
        return self.sheet(f).characteristics

    def armour(self, f: FighterState):
        return self.warbands[f.side].armour_of(self.sheet(f))

    def test_penalty(self, f: FighterState) -> int:
        return dmg.armour_test_penalty(self.armour(f))

    def protection(self, f: FighterState) -> int:
        a = self.armour(f)
        return max(0, a.protection - f.armour_lost) if a else 0

    def throwables(self, f: FighterState) -> list:
        """What ``f`` may throw: every weapon it holds for throwing (use ``thrown`` or ``both``),
        by id, or ``[None]`` (a stone picked up) when it holds none."""
        wb = self.warbands[f.side]
        ids = sorted({w for w in f.weapons if wb.weapon(w).use in ("thrown", "both")})
        return ids or [None]

    def point_sight(self, shooter: Base, x: float, y: float, others) -> str:
        """The sight word from ``shooter`` to a small probe lying at (x, y)."""
        probe = Base("probe", float(x), float(y), PROBE_RADIUS_MM, PROBE_HEIGHT_MM, 0.0,
                     self.table.surface_height(float(x), float(y)))
        s = self.table.sight(shooter, probe, [o for o in others if o.id != shooter.id])
        return sh.visibility(min(1.0, max(0.0, s.visible_fraction)), self.opts)

    def weapon_for(self, f: FighterState, use: str):
        """The weapon a fighter uses: its best (bonus, then id) for melee or for throwing; None
        when it holds nothing suitable (a stone picked up, or bare hands)."""
        wb = self.warbands[f.side]
        ok = [wb.weapon(w) for w in f.weapons if wb.weapon(w).use in (use, "both")]
        if not ok:
            return None
        return sorted(ok, key=lambda w: (-w.bonus, w.id))[0]

    def base(self, f: FighterState) -> Base:
        return Base(f.key, f.x, f.y, BASE_RADIUS_MM, MODEL_HEIGHT_MM, f.facing, f.z)

    def _path(self, base: Base, goal, others, max_length: float):
        key = (round(base.x, 6), round(base.y, 6), round(goal[0], 6), round(goal[1], 6), base.radius, max_length,
               tuple(sorted((o.id, round(o.x, 6), round(o.y, 6), o.radius) for o in others)))
        p = self._paths.get(key, False)
        if p is False:
            if len(self._paths) > 20000:
                self._paths.clear()
            if self._straight_clear((base.x, base.y), goal, base.radius, others):
                # nothing hard and no model in the way: the straight line is the shortest run
                p = self.table.path_of([(base.x, base.y), (float(goal[0]), float(goal[1]))])
            else:
                p = self.table.find_path((base.x, base.y), goal, base.radius, others, max_length=max_length)
            self._paths[key] = p
        return p

    def _straight_clear(self, a, b, r, others) -> bool:
        if self.table.position_problem(b[0], b[1], r, others) is not None:
            return False
        if self.table.space.segment_query_first((float(a[0]), float(a[1])), (float(b[0]), float(b[1])),
                                                max(r - EDGE_TOL, 0.0), HARD) is not None:
            return False
        ax, ay, dx, dy = a[0], a[1], b[0] - a[0], b[1] - a[1]
        L2 = dx * dx + dy * dy
        for o in others:
            t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((o.x - ax) * dx + (o.y - ay) * dy) / L2))
            if math.hypot(o.x - ax - t * dx, o.y - ay - t * dy) < o.radius + r - EDGE_TOL:
                return False
        return True

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
    def _deploy(self, st: DoublesState) -> None:
        mf = self.table.mapfile
        for side in (1, 2):
            zones = [z for z in mf.deployment if z.side == side]
            pts = [(self.table.to_mm(x, mf.unit), self.table.to_mm(y, mf.unit)) for x, y in zones[0].points]
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
            facing = math.degrees(math.atan2(self.table.height / 2 - cy, self.table.width / 2 - cx))
            facing = round(facing / 90.0) * 90.0 % 360.0
            fighters = self.warbands[side].fighters
            n = len(fighters)
            span = (max(xs) - min(xs)) if (max(xs) - min(xs)) >= (max(ys) - min(ys)) else (max(ys) - min(ys))
            horizontal = (max(xs) - min(xs)) >= (max(ys) - min(ys))
            step = min(span / (n + 1), 100.0)
            placed: list[Base] = [self.base(f) for f in st.fighters.values()]
            for i, ftr in enumerate(fighters):
                off = (i - (n - 1) / 2) * step
                # the front of the zone, the edge nearer the table's centre, one base inside it
                if horizontal:
                    fy = min(ys) if abs(min(ys) - self.table.height / 2) < abs(max(ys) - self.table.height / 2) else max(ys)
                    want = (cx + off, fy + math.copysign(2 * BASE_RADIUS_MM, cy - fy))
                else:
                    fx = min(xs) if abs(min(xs) - self.table.width / 2) < abs(max(xs) - self.table.width / 2) else max(xs)
                    want = (fx + math.copysign(2 * BASE_RADIUS_MM, cx - fx), cy + off)
                x, y = self._free_spot(want, pts, placed)
                key = f"{side}.{ftr.id}"
                fs = FighterState(key, side, self.warbands[side].id, ftr.id, ftr.name, round(x, 3), round(y, 3),
                                  facing, ftr.characteristics.health, weapons=list(ftr.weapons))
                fs.z = self.table.surface_height(fs.x, fs.y)
                st.fighters[key] = fs
                placed.append(self.base(fs))

    def _free_spot(self, want, poly, placed):
        """The nearest legal spot to ``want`` inside the zone (a deterministic spiral search)."""
        for ring in range(0, 60):
            r = ring * 8.0
            n = 1 if ring == 0 else 8 * ring
            for k in range(n):
                a = 2 * math.pi * k / n
                x, y = want[0] + r * math.cos(a), want[1] + r * math.sin(a)
                if _inside(poly, x, y) and self.table.position_problem(x, y, BASE_RADIUS_MM, placed) is None:
                    return x, y
        raise SetupError("no room to deploy a fighter in its deployment zone")

    def initial_state(self, seed: int) -> DoublesState:
        st = DoublesState(rng=GameRng(seed))
        self._deploy(st)
        self._start_turn(st, [])
        self._advance(st, [])
        return st

    # ------------------------------------------------------------ turn structure
    def _start_turn(self, st: DoublesState, ev: list) -> None:
        fs = self.in_play(st)
        st.track = tn.roll_initiative_track({f.key: self.chars(f).initiative for f in fs}, st.rng)
        ev.append(Event(f"Turn {st.turn}: initiative track " + ", ".join(
            f"{self.fighter_name(st, e.fighter)} {e.value}" for e in st.track), "turn",
            {"turn": st.turn, "track": [[e.fighter, e.value] for e in st.track]}))
        for f in sorted(fs, key=lambda f: f.key):
            c = self.chars(f)
            f.ap = tn.action_points_for_turn(c.action_points, f.status.ap_lost_next_turn)
            if f.status.ap_lost_next_turn:
                ev.append(Event(f"{f.name} has lost {f.status.ap_lost_next_turn} AP to intimidation: {f.ap} AP this turn", "ap"))
            f.status = replace(f.status, ap_lost_next_turn=0)
            f.activated = False
            f.ammo_blocked = False
            f.path = [(f.x, f.y)]
            if f.status.low_ammunition:
                ok = sh.low_ammunition_check(c.aptitude, st.rng, penalty=self._test_pen(f), options=self.opts)
                f.ammo_blocked = not ok
                f.status = replace(f.status, low_ammunition=False)
                ev.append(Event(f"{f.name} tests for low ammunition: " + ("a double, it may shoot" if ok else "no double, it cannot shoot this turn"), "test"))

    def _test_pen(self, f: FighterState) -> int:
        return self.test_penalty(f) + (self.opts.ground_target_penalty if f.on_ground else 0)

    def _end_turn(self, st: DoublesState, ev: list) -> None:
        for f in st.fighters.values():
            f.status = tn.end_of_turn(f.status)
        v = self._victory(st, turn_over=True)
        ev.append(Event(f"End of turn {st.turn}", "turn"))
        if v.over:
            self._finish(st, v, ev)
            return
        st.turn += 1
        self._start_turn(st, ev)

    def _victory(self, st, turn_over: bool) -> tn.Victory:
        sides = {s: [tn.FighterTally(self.sheet(f).value, f.out) for f in st.fighters.values() if f.side == s]
                 for s in (1, 2)}
        return tn.victory(sides, turn=st.turn, turn_over=turn_over, options=self.opts)

    def _finish(self, st, v: tn.Victory, ev: list) -> None:
        st.finished, st.winner, st.reason, st.points = True, v.winner, v.reason, tuple(v.points)
        st.acting, st.attack = None, None
        who = "a draw" if v.winner is None else f"player {v.winner} wins"
        ev.append(Event(f"Game over: {who} ({v.reason}; points {v.points[0]}-{v.points[1]})", "result",
                        {"winner": v.winner, "points": list(v.points)}))

    def _advance(self, st: DoublesState, ev: list) -> None:
        """Settle everything automatic until a player must decide (or the game is over)."""
        while not st.finished:
            if st.attack is not None:
                if not self._settle_attack(st, ev):
                    return
                continue
            if st.acting is not None:
                f = st.fighters[st.acting]
                if f.out or f.ap <= 0 or not self._has_actions(st, f):
                    self._end_activation(st, f, ev)
                    continue
                return
            nxt = next((e.fighter for e in st.track
                        if not st.fighters[e.fighter].out and not st.fighters[e.fighter].activated), None)
            if nxt is None:
                self._end_turn(st, ev)
                continue
            f = st.fighters[nxt]
            f.activated = True
            st.acting = nxt
            st.active = f.side
            ev.append(Event(f"{f.name} activates ({f.ap} AP)", "activate", {"fighter": f.key, "ap": f.ap}))

    def _end_activation(self, st, f: FighterState, ev: list) -> None:
        if not f.out:
            ev.append(Event(f"{f.name} ends its activation", "activate", {"fighter": f.key}))
        st.acting = None

    # ------------------------------------------------------------ what the active fighter may do
    def _allowed(self, st, f: FighterState) -> tuple[str, ...]:
        c = self.chars(f)
        return tn.allowed_actions(ap_left=f.ap, engaged=bool(self.engaged_with(st, f)), on_ground=f.on_ground,
                                  shots_taken=f.status.shots_taken, can_throw=c.throw > 0,
                                  low_ammunition_blocked=f.ammo_blocked, options=self.opts)

    def _has_actions(self, st, f) -> bool:
        return any(a != "end_activation" for a in self._allowed(st, f)) or bool(self._pick_up_options(st, f))

    def _pick_up_options(self, st, f: FighterState) -> list[PickUp]:
        """(thrown_weapon="dropped") a weapon of its warband lying within the engagement distance
        of the fighter's base edge, if it is standing, unengaged and has the AP."""
        if (self.opts.thrown_weapon != "dropped" or not st.dropped or f.on_ground
                or f.ap < self.opts.pick_up_cost_ap or self.engaged_with(st, f)):
            return []
        reach = BASE_RADIUS_MM + self.opts.engagement_distance_cm * 10.0 + 1e-6
        return list(dict.fromkeys(PickUp(f.key, w, x, y) for side, w, x, y in st.dropped
                                  if side == f.side and math.hypot(x - f.x, y - f.y) <= reach))

    def _ground_shot_space(self, st, f: FighterState) -> GroundShotSpace | None:
        c = self.chars(f)
        ok = sh.can_shoot(throw=c.throw, ap_left=f.ap, shots_taken=f.status.shots_taken, engaged=False,
                          on_ground=f.on_ground, low_ammunition_blocked=f.ammo_blocked, options=self.opts).allowed
        return GroundShotSpace(self, st, f, self.throwables(f)) if ok else None

    def _shot_options(self, st, f: FighterState, only: str | None = None) -> list[Shoot]:
        """Every legal shot of ``f`` (or only those at ``only``): an enemy in range, not hidden;
        aimed as well when the target is in a melee. (``allowed_actions`` has already said that
        ``f`` may shoot at all.)"""
        out: list[Shoot] = []
        c = self.chars(f)
        for t in sorted(self.in_play(st), key=lambda g: g.key):
            if t.side == f.side or (only is not None and t.key != only):
                continue
            band = sh.range_band(c.throw, self.edge_cm(f, t))
            if band == "out_of_range":
                continue
            engaged = bool(self.engaged_with(st, t))
            ok = [aimed for aimed in ((False, True) if engaged else (False,))
                  if sh.can_shoot(throw=c.throw, ap_left=f.ap, shots_taken=f.status.shots_taken, engaged=False,
                                  on_ground=f.on_ground, low_ammunition_blocked=f.ammo_blocked, aimed=aimed,
                                  options=self.opts).allowed]
            if ok and self._sight_word(st, f, t) != "hidden":
                out += [Shoot(f.key, t.key, aimed, w) for aimed in ok for w in self.throwables(f)]
        return out

    def aim_info(self, st: DoublesState, attacker: str, target: str) -> list[str]:
        f, t = st.fighters.get(attacker), st.fighters.get(target)
        if f is None or t is None:
            return []
        word = self._sight_word(st, f, t).replace("_", " ")
        cm = self.table.distance(self.base(f), self.base(t)) / 10.0
        band = sh.range_band(self.chars(f).throw, cm).replace("_", " ")
        return [f"sight: {word}", f"{cm:.1f} cm edge to edge: {band} range" if band != "out of range" else
                f"{cm:.1f} cm edge to edge: out of range"]

    def ranges(self, st: DoublesState, model: str) -> list[tuple[str, float]]:
        f = st.fighters.get(model)
        if f is None:
            return []
        return [(f"{band.replace('_', ' ')} range", hi * 10.0) for band, lo, hi in sh.range_bands(self.chars(f).throw)]

    def _sight_word(self, st, f: FighterState, t: FighterState) -> str:
        s = self.table.sight(self.base(f), self.base(t), self.others(st, f.key, t.key))
        return sh.visibility(min(1.0, max(0.0, s.visible_fraction)), self.opts)

    def _charge_options(self, st, f: FighterState, space: MoveSpace) -> list[MoveTo]:
        """For each enemy within reach, a move into contact with it (if a legal one is found)."""
        out = []
        gap = min(0.5, self.opts.engagement_distance_cm * 5.0)  # mm between the bases
        for t in sorted(self.in_play(st), key=lambda g: g.key):
            if t.side == f.side:
                continue
            d = math.hypot(t.x - f.x, t.y - f.y)
            reach = 2 * BASE_RADIUS_MM + gap
            if d - reach > space.allowance or d == 0:
                continue
            a0 = math.atan2(f.y - t.y, f.x - t.x)
            for k in (0, 1, -1, 2, -2, 3, -3):
                a = a0 + k * math.pi / 6
                c = MoveTo(f.key, round(t.x + reach * math.cos(a), 2), round(t.y + reach * math.sin(a), 2))
                if space.check(c) is None:
                    if tn.is_engaged(self.table.distance(self.base(f).moved(c.x, c.y), self.base(t)) / 10.0, self.opts):
                        out.append(c)
                    break
        return out

    def _move_space(self, st, f: FighterState):
        c = self.chars(f)
        return _CachedMoveSpace(self, self.base(f), self.table.to_mm(c.movement, "cm"), self.others(st, f.key),
                                1.0 / self.opts.difficult_terrain_factor,
                                label=f"move {f.name} up to {c.movement} cm")

    def _disengage_space(self, st, f: FighterState):
        c = self.chars(f)
        enemies = [self.base(e) for e in self.in_play(st) if e.side != f.side]
        return DisengageSpace(self, self.base(f), self.table.to_mm(c.movement, "cm"), self.others(st, f.key),
                              1.0 / self.opts.difficult_terrain_factor, enemies,
                              label=f"disengage {f.name}: move up to {c.movement} cm out of contact")

    # ------------------------------------------------------------ pending
    def pending(self, st: DoublesState) -> Decision | None:
        if st.finished:
            return None
        if st.attack is not None:
            return self._attack_decision(st)
        f = st.fighters[st.acting]
        allowed = self._allowed(st, f)
        opts: list[Choice] = []
        spaces = []
        if "stand_up" in allowed:
            opts.append(StandUp(f.key))
        if "melee_attack" in allowed:
            opts += [MeleeAttack(f.key, e.key) for e in sorted(self.engaged_with(st, f), key=lambda e: e.key)]
        if "shoot" in allowed or "aimed_shot" in allowed:
            opts += self._shot_options(st, f)
            ground = self._ground_shot_space(st, f) if "shoot" in allowed else None
            if ground is not None:
                spaces.append(ground)
        opts += self._pick_up_options(st, f)
        if "move" in allowed:
            space = self._move_space(st, f)
            opts += self._charge_options(st, f, space)
            spaces.append(space)
        if "disengage" in allowed:
            spaces.append(self._disengage_space(st, f))
        opts.append(EndActivation(f.key))
        return Decision(f.side, "action", f"{f.name} has {f.ap} AP: choose an action", tuple(opts), tuple(spaces))

    def _attack_decision(self, st) -> Decision:
        at = st.attack
        if at.stage == "pick":
            a = st.fighters[at.attacker]
            return Decision(a.side, "pick target", "Equal aptitude results: choose who the shot hits",
                            tuple(PickTarget(k) for k in at.tied))
        if at.stage == "announce_attack":
            a = st.fighters[at.attacker]
            backs = ("advantage", "penalty") if at.back_allowed else (None,)
            opts = tuple(Announce(a.key, n, b) for n in range(a.ap + 1) for b in backs)
            return Decision(a.side, "announce attack", f"{a.name}: AP for extra attack dice" +
                            (" and how to use the back shot" if at.back_allowed else ""), opts)
        if at.stage == "announce_defence":
            d = st.fighters[at.defender]
            return Decision(d.side, "announce defence", f"{d.name}: AP for extra defence dice",
                            tuple(Announce(d.key, n) for n in range(d.ap + 1)))
        if at.stage == "face":
            d = st.fighters[at.defender]
            return Decision(d.side, "face", f"{d.name} was hit in the back: turn to face {self.fighter_name(st, at.attacker)}?",
                            (Face(d.key, True), Face(d.key, False)))
        step = dl.next_step(self._duel(st))
        who = self._role_key(at, step.role)
        p = self.owner(st, who)
        nm = self.fighter_name(st, who)
        if isinstance(step, dl.KeepStep):
            return Decision(p, "keep", f"{nm}: keep two dice for the {ROLE_WORDS[step.role]}",
                            tuple(KeepDice(who, k.values, k.penalty_values) for k in step.options))
        if isinstance(step, dl.EffectStep):
            return Decision(p, "double effect", f"{nm} kept a double {step.double}: choose its effect",
                            tuple(ChooseEffect(who, e) for e in step.options))
        if isinstance(step, dl.ManoeuvreStep):
            return Decision(p, "manoeuvre", f"{nm}: choose one of the opponent's dice to be rerolled",
                            tuple(RerollDie(who, d.id) for d in step.options))
        if isinstance(step, dl.DiscardStep):
            return Decision(p, "discard", f"{nm}: set one of the opponent's dice aside",
                            tuple(DiscardDie(who, d.id) for d in step.options))
        raise AssertionError(f"no decision at duel step {step!r}")

    @staticmethod
    def _role_key(at: Attack, role: str) -> str:
        return at.attacker if role == "attacker" else at.defender

    def _duel(self, st) -> dl.Duel:
        return st.attack.duel

    # ------------------------------------------------------------ apply
    def apply(self, st: DoublesState, player: int, c: Choice) -> list[Event]:
        ev: list[Event] = []
        if st.finished:
            raise RulesError("the game is over")
        if st.attack is not None:
            self._apply_attack_choice(st, player, c, ev)
        else:
            self._apply_action(st, player, c, ev)
        self._advance(st, ev)
        return ev

    def _apply_action(self, st, player, c, ev) -> None:
        f = st.fighters[st.acting]
        who = next((getattr(c, a) for a in ("fighter", "model", "shooter", "attacker") if hasattr(c, a)), None)
        if player != f.side or who != f.key:
            raise RulesError(f"{self.describe_choice(st, c)} does not answer {f.name}'s activation")
        allowed = self._allowed(st, f)
        if isinstance(c, EndActivation):
            self._end_activation(st, f, ev)
        elif isinstance(c, StandUp):
            if "stand_up" not in allowed:
                raise RulesError("cannot stand up now")
            f.ap -= tn.action_cost("stand_up", self.opts)
            f.on_ground = False
            ev.append(Event(f"{f.name} stands up", "stand"))
        elif isinstance(c, MoveTo):
            self._apply_move(st, f, c, allowed, ev)
        elif isinstance(c, Shoot):
            self._declare_shot(st, f, c, ev)
        elif isinstance(c, ShootAt):
            self._shoot_at_ground(st, f, c, allowed, ev)
        elif isinstance(c, PickUp):
            if c not in self._pick_up_options(st, f):
                raise RulesError(f"{self.describe_choice(st, c)} is not allowed now")
            f.ap -= self.opts.pick_up_cost_ap
            st.dropped.remove((f.side, c.weapon, c.x, c.y))
            f.weapons.append(c.weapon)
            ev.append(Event(_cap(self.describe_choice(st, c)), "pick_up", {"fighter": f.key, "weapon": c.weapon}))
        elif isinstance(c, MeleeAttack):
            if "melee_attack" not in allowed or c.target not in {e.key for e in self.engaged_with(st, f)}:
                raise RulesError(f"{f.name} is not in contact with {self.fighter_name(st, c.target)}")
            self._declare_melee(st, f, st.fighters[c.target], ev)
        else:
            raise RulesError(f"{type(c).__name__} is not an action")

    def _apply_move(self, st, f, c: MoveTo, allowed, ev) -> None:
        if "disengage" in allowed:
            space, cost, verb = self._disengage_space(st, f), tn.action_cost("disengage", self.opts), "disengages"
        elif "move" in allowed:
            space, cost, verb = self._move_space(st, f), tn.action_cost("move", self.opts), "moves"
        else:
            raise RulesError(f"{f.name} cannot move now")
        reason = space.check(c)
        if reason:
            raise RulesError(reason)
        path = space.path_to(c.x, c.y)
        pts = [(float(p[0]), float(p[1])) for p in path.points]
        f.ap -= cost
        f.path.extend(pts[1:] if pts and pts[0] == (f.x, f.y) else pts)
        last = pts[-1]
        prev = next((p for p in reversed(pts[:-1]) if math.dist(p, last) > 1e-6), None)
        if prev is not None:
            f.facing = round(math.degrees(math.atan2(last[1] - prev[1], last[0] - prev[0])) % 360.0, 6)
        f.x, f.y = float(c.x), float(c.y)
        f.z = self.table.surface_height(f.x, f.y)
        f.status = replace(f.status, moved=True)
        foes = self.engaged_with(st, f)
        if foes and verb == "moves":
            t = min(foes, key=lambda e: (self.edge_cm(f, e), e.key))
            f.facing = round(math.degrees(math.atan2(t.y - f.y, t.x - f.x)) % 360.0, 6)
        cm = path.length / 10.0
        extra = f"; in contact with {', '.join(e.name for e in foes)}" if foes else ""
        ev.append(Event(f"{f.name} {verb} {cm:.1f} cm{extra}", "move",
                        {"fighter": f.key, "path": [list(p) for p in pts], "ap": f.ap}))

    # ------------------------------------------------------------ declaring attacks
    def _shoot_at_ground(self, st, f: FighterState, c: ShootAt, allowed, ev) -> None:
        space = self._ground_shot_space(st, f) if "shoot" in allowed else None
        reason = "cannot shoot now" if space is None else space.check(c)
        if reason:
            raise RulesError(reason)
        f.ap -= tn.action_cost("shoot", self.opts)
        f.status = replace(f.status, shots_taken=f.status.shots_taken + 1)
        x, y = float(c.x), float(c.y)
        ev.append(Event(_cap(self.describe_choice(st, c)) + ": it lands there and hits nothing", "shoot",
                        {"shooter": f.key, "point": [x, y], "weapon": c.weapon}))
        if c.weapon is not None and self.opts.thrown_weapon == "dropped":
            self._drop(st, f, c.weapon, x, y, ev)

    def _drop(self, st, f: FighterState, weapon: str, x: float, y: float, ev, where: str = "") -> None:
        """(thrown_weapon="dropped") the thrown weapon leaves the hand and lies at (x, y)."""
        f.weapons.remove(weapon)
        st.dropped.append((f.side, weapon, round(x, 3), round(y, 3)))
        w = self.warbands[f.side].weapon(weapon)
        ev.append(Event(f"{f.name}'s {w.name.lower()} lies {where or 'where it landed'}", "drop",
                        {"fighter": f.key, "weapon": weapon, "point": [round(x, 3), round(y, 3)]}))

    def _declare_shot(self, st, f: FighterState, c: Shoot, ev) -> None:
        if "shoot" not in self._allowed(st, f) or c not in self._shot_options(st, f, only=c.target):
            raise RulesError(f"{self.describe_choice(st, c)} is not allowed now")
        t = st.fighters[c.target]
        cost = tn.action_cost("aimed_shot" if c.aimed else "shoot", self.opts)
        f.ap -= cost
        f.status = replace(f.status, shots_taken=f.status.shots_taken + 1)
        w = self.warbands[f.side].weapon(c.weapon) if c.weapon is not None else None
        band = sh.range_band(self.chars(f).throw, self.edge_cm(f, t))
        at = Attack("shoot", f.key, t.key, "announce_attack", aimed=c.aimed, band=band,
                    sight=self._sight_word(st, f, t), moved_before=f.status.moved,
                    weapon=w.id if w else None, weapon_bonus=sh.thrown_weapon_bonus(w.bonus if w else None, self.opts))
        st.attack = at
        ev.append(Event(_cap(self.describe_choice(st, c)), "shoot",
                        {"shooter": f.key, "target": t.key, "band": band, "sight": at.sight, "aimed": c.aimed}))
        group = self.melee_group(st, t)
        if not c.aimed and len(group) > 1:
            cands = {k: dl.PoolSpec(self.chars(st.fighters[k]).aptitude, 0, 0, self._test_pen(st.fighters[k]))
                     for k in group}
            mt = sh.melee_target(cands, st.rng, self.opts)
            for i, rnd in enumerate(mt.rounds):
                ev.append(Event(("Aptitude tests in the melee: " if i == 0 else "Tied, tested again: ") + ", ".join(
                    f"{self.fighter_name(st, k)} {v}" for k, v in sorted(rnd.items())), "test", {"results": dict(rnd)}))
            if mt.target is None:
                at.tied, at.stage = tuple(mt.tied), "pick"
                return
            self._set_defender(st, mt.target, ev)
        else:
            self._set_defender(st, t.key, ev)

    def _set_defender(self, st, key: str, ev) -> None:
        at = st.attack
        at.defender = key
        a, d = st.fighters[at.attacker], st.fighters[key]
        if key != at.target:
            ev.append(Event(f"{d.name} ends up in the line of fire: the shot is at {d.name}", "target"))
        at.back_allowed = self.back_allowed(st, a, d)
        at.stage = "announce_attack"

    def back_allowed(self, st, a: FighterState, d: FighterState) -> bool:
        """The attacker was never inside the target's vision arc on its way this turn (nor now)."""
        pts = list(a.path) + [(a.x, a.y)]
        seen = self.table.path_in_arc(self.base(d), self.opts.vision_arc_deg, pts, BASE_RADIUS_MM)
        return sh.back_shot_allowed(seen)

    def _declare_melee(self, st, f: FighterState, t: FighterState, ev) -> None:
        f.ap -= tn.action_cost("melee_attack", self.opts)
        w = self.weapon_for(f, "melee")
        st.attack = Attack("melee", f.key, t.key, "announce_attack", weapon=w.id if w else None,
                           weapon_bonus=w.bonus if w else 0)
        ev.append(Event(_cap(self.describe_choice(st, MeleeAttack(f.key, t.key))), "melee",
                        {"attacker": f.key, "target": t.key}))
        self._set_defender(st, t.key, ev)

    # ------------------------------------------------------------ answers during an attack
    def _apply_attack_choice(self, st, player, c, ev) -> None:
        d = self._attack_decision(st)
        if player != d.player or c not in d.options:
            raise RulesError(f"{self.describe_choice(st, c)} does not answer: {d.prompt}")
        at = st.attack
        if isinstance(c, PickTarget):
            self._set_defender(st, c.fighter, ev)
        elif isinstance(c, Announce) and at.stage == "announce_attack":
            a = st.fighters[at.attacker]
            a.ap -= c.ap
            at.attack_ap, at.back = c.ap, c.back
            bits = [f"{c.ap} AP for extra dice"] if c.ap else []
            if c.back:
                bits.append("a back shot: " + ("an advantage die" if c.back == "advantage" else "a penalty die for the defender"))
            if bits:
                ev.append(Event(f"{a.name} announces " + " and ".join(bits), "announce"))
            at.stage = "announce_defence"
        elif isinstance(c, Announce):
            dfd = st.fighters[at.defender]
            dfd.ap -= c.ap
            at.defence_ap = c.ap
            if c.ap:
                ev.append(Event(f"{dfd.name} spends {c.ap} AP for extra defence dice", "announce"))
            self._start_duel(st, ev)
        elif isinstance(c, Face):
            dfd = st.fighters[at.defender]
            if c.turn:
                a = st.fighters[at.attacker]
                dfd.facing = round(math.degrees(math.atan2(a.y - dfd.y, a.x - dfd.x)) % 360.0, 6)
                ev.append(Event(f"{dfd.name} turns to face {a.name}", "face"))
            st.attack = None
        else:
            self._duel_choice(st, c, ev)

    def pools(self, st, at: Attack) -> tuple[dl.PoolSpec, dl.PoolSpec]:
        a, d = st.fighters[at.attacker], st.fighters[at.defender]
        ca, cd = self.chars(a), self.chars(d)
        if at.kind == "shoot":
            mods = sh.shot_modifiers(band=at.band, sight=at.sight, moved_before=at.moved_before,
                                     aimed_in_melee=at.aimed, back_shot=at.back,
                                     seen_by_target_since_turn_start=not at.back_allowed,
                                     target_on_ground=d.on_ground, shooter_on_ground=a.on_ground,
                                     shooter_test_penalty=self.test_penalty(a), target_test_penalty=self.test_penalty(d),
                                     target_cover_dice=d.status.cover, options=self.opts)
            return sh.shot_pools(throw=ca.throw, weapon_bonus=at.weapon_bonus, defence=cd.defence, mods=mods,
                                 attack_ap=at.attack_ap, defence_ap=at.defence_ap)
        return tn.melee_pools(combat=ca.combat, weapon_bonus=at.weapon_bonus, defence=cd.defence,
                              attack_ap=at.attack_ap, defence_ap=at.defence_ap,
                              attacker_test_penalty=self.test_penalty(a), defender_test_penalty=self.test_penalty(d),
                              defender_on_ground=d.on_ground, attacker_back_blow=at.back, options=self.opts)

    def _start_duel(self, st, ev) -> None:
        at = st.attack
        att, dfs = self.pools(st, at)
        first = tn.first_roller(st.track, at.attacker, at.defender)
        at.duel = dl.start_duel(at.kind, att, dfs, first=first, options=self.opts)
        at.stage = "duel"
        (n_a, p_a), (n_d, p_d) = att.counts(self.opts), dfs.counts(self.opts)
        ev.append(Event(f"{self.fighter_name(st, at.attacker)} attacks with {n_a} dice" + (f" and {p_a} penalty" if p_a else "")
                        + f"; {self.fighter_name(st, at.defender)} defends with {n_d} dice" + (f" and {p_d} penalty" if p_d else "")
                        + f"; {self.fighter_name(st, self._role_key(at, first))} rolls first", "duel",
                        {"attack": [n_a, p_a], "defence": [n_d, p_d], "first": first}))

    def _duel_choice(self, st, c, ev) -> None:
        at = st.attack
        du = at.duel
        step = dl.next_step(du)
        nm = self.fighter_name(st, self._role_key(at, step.role))
        if isinstance(c, KeepDice):
            kp = dl.Keep(tuple(c.values), tuple(c.penalty_values))
            at.duel = dl.keep(du, step.role, kp)
            ev.append(Event(f"{nm} {_keeps(kp)}", "keep", {"role": step.role, "values": list(kp.values)}))
        elif isinstance(c, ChooseEffect):
            at.duel = dl.choose_effect(du, step.role, c.effect)
            ev.append(Event(f"{nm}: {dl.EFFECT_WORDS[c.effect]}", "effect", {"role": step.role, "effect": c.effect}))
        elif isinstance(c, RerollDie):
            foe = dl.other(step.role)
            old = du.side(foe).die(c.die)
            at.duel = dl.manoeuvre(du, step.role, c.die, st.rng)
            new = at.duel.side(foe).dice[[x.id for x in du.side(foe).dice].index(c.die)]
            ev.append(Event(f"{nm}'s manoeuvre: {self.fighter_name(st, self._role_key(at, foe))} rerolls a {old.value} "
                            f"and gets a {new.value}", "dice",
                            {"role": foe, "old": old.value, "new": new.value}))
        elif isinstance(c, DiscardDie):
            foe = dl.other(step.role)
            gone = du.side(foe).die(c.die)
            at.duel = dl.discard(du, step.role, c.die)
            ev.append(Event(f"{nm} sets aside {self.fighter_name(st, self._role_key(at, foe))}'s {gone.value}", "dice",
                            {"role": foe, "value": gone.value}))
        else:
            raise RulesError(f"{type(c).__name__} does not answer a duel step")

    def _settle_attack(self, st, ev) -> bool:
        """Settle the automatic duel steps; True if something changed and the loop should go on,
        False when a player must decide."""
        at = st.attack
        if at.stage != "duel":
            return False
        step = dl.next_step(at.duel)
        if isinstance(step, dl.RollStep):
            at.duel = dl.roll(at.duel, step.role, st.rng)
            side = at.duel.side(step.role)
            ev.append(Event(f"{self.fighter_name(st, self._role_key(at, step.role))} rolls "
                            + " ".join(d.describe() for d in side.dice), "dice",
                            {"role": step.role, "dice": [d.value for d in side.dice],
                             "penalty": [d.penalty for d in side.dice]}))
            return True
        if isinstance(step, dl.KeepStep) and len(step.options) == 1:
            kp = step.options[0]
            at.duel = dl.keep(at.duel, step.role, kp)
            ev.append(Event(f"{self.fighter_name(st, self._role_key(at, step.role))} {_keeps(kp)}", "keep",
                            {"role": step.role, "values": list(kp.values)}))
            return True
        if isinstance(step, dl.ResolveStep):
            self._resolve(st, ev)
            return True
        return False

    def _resolve(self, st, ev) -> None:
        at = st.attack
        a, d = st.fighters[at.attacker], st.fighters[at.defender]
        res = dl.resolve(at.duel)
        out = dmg.duel_damage(res, protection=self.protection(d), back_shot=at.back is not None,
                              target_on_ground=d.on_ground, aggressiveness_this_turn=d.status.aggressiveness,
                              options=self.opts)
        how = {"result": "", "tactical_advantage": " (tactical advantage)",
               "remaining_dice": " (on the remaining dice)", "second_tie": " (a second tie: the attack fails)"}[res.decided_by]
        data = {"winner": res.winner, "attack": res.attack_score, "defence": res.defence_score}
        if res.hit:
            d.health, gone = dmg.apply_damage(d.health, out)
            d.armour_lost += out.armour_lost
            pts = "instant death" if out.instant_death else f"{out.points} damage"
            ev.append(Event(f"{a.name} hits {d.name}, {res.attack_score} against {res.defence_score}{how}: {pts}"
                            + (f"; {d.name} is out of action" if gone else f"; {d.health} health left"),
                            "hit", {**data, "damage": out.points, "instant_death": out.instant_death}))
            if gone:
                d.out = True
                d.on_ground = False
        else:
            ev.append(Event(f"{d.name} avoids {a.name}'s {'shot' if at.kind == 'shoot' else 'blow'}, "
                            f"{res.defence_score} against {res.attack_score}{how}", "miss", data))
        if res.aggressiveness:
            d.status = replace(d.status, aggressiveness=d.status.aggressiveness + res.aggressiveness)
        if res.cover:
            d.status = replace(d.status, cover=d.status.cover + res.cover)
            ev.append(Event(f"{d.name} takes cover against projectiles until the end of the turn", "effect"))
        if res.low_ammunition:
            # a shot's, or (option melee_defender_double_six="low_ammunition") a melee attacker's:
            # either way it is the attacker's next turn of shooting that is at stake
            a.status = replace(a.status, low_ammunition=True)
            ev.append(Event(f"{a.name} is low on ammunition: it must roll a double next turn to shoot", "effect"))
        if res.intimidation:
            a.ap, lost = tn.intimidation_loss(a.ap, self.opts)
            if lost:
                a.status = replace(a.status, ap_lost_next_turn=a.status.ap_lost_next_turn + lost)
            ev.append(Event(f"{a.name} is intimidated: " + (f"it will lose {lost} AP next turn" if lost
                                                           else "it loses its remaining AP"), "effect"))
        if res.off_balance and not d.out and not d.on_ground:
            down = dl.off_balance_test(self.chars(d).aptitude, st.rng, penalty=self._test_pen(d), options=self.opts)
            d.on_ground = down
            ev.append(Event(f"{d.name} is knocked off balance: " + ("it falls to the ground" if down else "a double, it keeps its feet"), "test"))
        if res.weapon_break_tests and at.weapon is not None:
            w = self.warbands[a.side].weapon(at.weapon)
            bt = dmg.weapon_break_test(w.material, st.rng)
            if bt.broken:
                a.weapons.remove(at.weapon)
            ev.append(Event(f"{a.name}'s {w.name} ({w.material}) " + ("breaks" if bt.broken else "holds")
                            + f" (break test {', '.join(map(str, bt.rolls))})", "break",
                            {"rolls": list(bt.rolls), "broken": bt.broken}))
        if (at.kind == "shoot" and at.weapon is not None and self.opts.thrown_weapon == "dropped"
                and at.weapon in a.weapons):
            # the projectile lands against the defender's base, on the shooter's side
            dist = math.hypot(a.x - d.x, a.y - d.y) or 1.0
            self._drop(st, a, at.weapon, d.x + (a.x - d.x) / dist * BASE_RADIUS_MM,
                       d.y + (a.y - d.y) / dist * BASE_RADIUS_MM, ev, where=f"at {d.name}'s feet")
        v = self._victory(st, turn_over=False)
        if v.over:
            self._finish(st, v, ev)
            return
        if res.hit and at.back is not None and not d.out:
            at.stage = "face"
            return
        st.attack = None

    # ------------------------------------------------------------ view, result, words
    def view(self, st: DoublesState, player: int | None) -> dict:
        at = st.attack
        fighters = []
        for f in st.fighters.values():
            fighters.append({
                "key": f.key, "side": f.side, "name": f.name, "x": f.x, "y": f.y, "z": f.z, "facing": f.facing,
                "health": f.health, "max_health": self.chars(f).health, "ap": f.ap, "on_ground": f.on_ground,
                "out": f.out, "weapons": list(f.weapons), "activated": f.activated,
                "cover": f.status.cover, "aggressiveness": f.status.aggressiveness,
                "shots_taken": f.status.shots_taken, "moved": f.status.moved,
                "low_ammunition": f.status.low_ammunition, "ammo_blocked": f.ammo_blocked,
                "path": [list(p) for p in f.path],
            })
        v: dict = {"ruleset": self.id, "turn": st.turn, "turn_limit": self.opts.turn_limit, "active": st.active,
                   "acting": st.acting, "track": [[e.fighter, e.value] for e in st.track], "fighters": fighters,
                   "finished": st.finished, "points": list(st.points), "attack": None,
                   "dropped": [{"side": s, "weapon": w, "x": x, "y": y} for s, w, x, y in st.dropped],
                   "pieces": [self._piece(st, f) for f in st.fighters.values()]}
        if at is not None:
            v["attack"] = {"kind": at.kind, "attacker": at.attacker, "target": at.target, "defender": at.defender,
                           "stage": at.stage, "band": at.band, "sight": at.sight, "back": at.back}
            if at.duel is not None:
                v["attack"]["dice"] = {r: {"dice": [[x.id, x.value, x.penalty] for x in at.duel.side(r).dice],
                                           "kept": list(at.duel.side(r).kept or ()),
                                           "effects": list(at.duel.side(r).effects)}
                                       for r in ("attacker", "defender")}
        return v

    def _piece(self, st: DoublesState, f: FighterState) -> dict:
        """The fighter in the shared shape of ``engine.core.board`` (what the client draws)."""
        c = self.chars(f)
        marks = [f"{f.ap} AP"] + (["on the ground"] if f.on_ground else []) \
            + ([f"aggressiveness {f.status.aggressiveness}"] if f.status.aggressiveness else []) \
            + (["low ammunition"] if f.status.low_ammunition else []) + (["activated"] if f.activated else [])
        cache = self.__dict__.setdefault("_profile_words", {})
        key = (f.key, tuple(f.weapons))
        if key not in cache:   # worded once per fighter and weapons held (weapons are thrown and lost)
            armour = self.armour(f)
            cache[key] = [f"Combat {c.combat}  Throw {c.throw}  Defence {c.defence}  Aptitude {c.aptitude}",
                          f"Movement {c.movement} cm/AP  Initiative {c.initiative}  AP {c.action_points}",
                          "weapons: " + (", ".join(f.weapons) or "none") + (f"; armour: {armour.name}" if armour else "")]
        lines = cache[key]
        b = self.base(f)
        return piece(f.key, f.side, f.name, f.x, f.y, f.z, b.radius, b.height, facing=f.facing, out=f.out,
                     health=f"{f.health}/{c.health} health", markers=marks, active=st.acting == f.key,
                     profile=lines)

    def result(self, st: DoublesState) -> Result | None:
        if not st.finished:
            return None
        return Result(st.winner, st.reason, {1: st.points[0], 2: st.points[1]})

    def attack_odds(self, st: DoublesState, c: Choice, player: int | None):
        """Exact odds of a Shoot, MeleeAttack or the attacker's Announce (``attack_odds.py``,
        model in ``odds.py``); None for any other choice."""
        from . import attack_odds as _attack_odds
        return _attack_odds.attack_odds(self, st, c, player)

    def describe_choice(self, st: DoublesState, c: Choice) -> str:
        n = lambda k: self.fighter_name(st, k)  # noqa: E731
        if isinstance(c, Shoot):
            f, t = st.fighters.get(c.shooter), st.fighters.get(c.target)
            if f is None or t is None:
                return c.describe()
            what = self._thrown_words(f, c.weapon)
            band = sh.range_band(self.chars(f).throw, self.edge_cm(f, t)).replace("_", " ")
            if c.aimed:
                return f"{f.name} aims {what} at {t.name} in the melee ({band} range, 1 AP more, a penalty die)"
            if self.engaged_with(st, t):
                return f"{f.name} throws {what} into the melee around {t.name} ({band} range)"
            return f"{f.name} throws {what} at {t.name} ({band} range)"
        if isinstance(c, ShootAt):
            f = st.fighters.get(c.shooter)
            if f is None:
                return c.describe()
            cm = self.table.distance_to_point(self.base(f), c.x, c.y) / 10.0
            band = sh.range_band(self.chars(f).throw, cm).replace("_", " ")
            return f"{f.name} throws {self._thrown_words(f, c.weapon)} at a point of empty ground {cm:.1f} cm away ({band} range)"
        if isinstance(c, PickUp):
            f = st.fighters.get(c.fighter)
            if f is None:
                return c.describe()
            return f"{f.name} picks up the {self.warbands[f.side].weapon(c.weapon).name.lower()}"
        if isinstance(c, MeleeAttack):
            f = st.fighters.get(c.attacker)
            w = self.weapon_for(f, "melee") if f else None
            return f"{n(c.attacker)} strikes {n(c.target)}" + (f" with his {w.name.lower()}" if w else " barehanded")
        if isinstance(c, MoveTo):
            f = st.fighters.get(c.model)
            if f is None:
                return c.describe()
            moved = self.base(f).moved(c.x, c.y)
            foes = [e for e in self.in_play(st) if e.side != f.side
                    and tn.is_engaged(self.table.distance(moved, self.base(e)) / 10.0, self.opts)]
            d = math.hypot(c.x - f.x, c.y - f.y) / 10.0
            if self.engaged_with(st, f):
                return f"{f.name} disengages to a point {d:.1f} cm away"
            if foes:
                return f"{f.name} charges {', '.join(e.name for e in foes)}"
            return f"{f.name} moves to a point {d:.1f} cm away"
        if isinstance(c, StandUp):
            return f"{n(c.fighter)} stands up"
        if isinstance(c, EndActivation):
            return f"{n(c.fighter)} ends its activation"
        if isinstance(c, Announce):
            s = f"{n(c.fighter)} spends {c.ap} AP on extra dice" if c.ap else f"{n(c.fighter)} spends no AP on extra dice"
            if c.back == "advantage":
                s += ", back shot: an advantage die"
            elif c.back == "penalty":
                s += ", back shot: a penalty die for the defender"
            return s
        if isinstance(c, PickTarget):
            return f"the shot hits {n(c.fighter)}"
        if isinstance(c, KeepDice):
            return f"{n(c.fighter)}: {dl.Keep(tuple(c.values), tuple(c.penalty_values)).describe()}"
        if isinstance(c, ChooseEffect):
            return f"{n(c.fighter)}: {dl.EFFECT_WORDS.get(c.effect, c.effect)}"
        if isinstance(c, (RerollDie, DiscardDie)):
            verb = "makes the opponent reroll" if isinstance(c, RerollDie) else "sets aside"
            val = None
            if st.attack is not None and st.attack.duel is not None:
                for r in ("attacker", "defender"):
                    for x in st.attack.duel.side(r).dice:
                        if x.id == c.die:
                            val = x.describe()
            return f"{n(c.fighter)} {verb} the {val if val is not None else f'die #{c.die}'}"
        if isinstance(c, Face):
            return f"{n(c.fighter)} turns to face the attacker" if c.turn else f"{n(c.fighter)} stays as it is"
        return c.describe()


    def _thrown_words(self, f: FighterState, weapon: str | None) -> str:
        if weapon is None:
            return "a stone"
        try:
            return f"his {self.warbands[f.side].weapon(weapon).name.lower()}"
        except StopIteration:
            return repr(weapon)


def _inside(poly, x, y) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _keeps(kp: dl.Keep) -> str:
    """'keeps 6 + 5 = 11' (Keep.describe says 'keep ...')."""
    d = kp.describe()
    return "keeps" + d[4:] if d.startswith("keep ") else d


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
