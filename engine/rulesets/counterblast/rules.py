"""Counterblast as a playable state machine on the engine core (phase 2).

The turn: Moxie phase (pools; 1 Moxie may elect a new leader), repeated Activation phases
(Moxie checks for the Active crew, then a single activation, a group activation or a pass;
actions, extra actions and reactions), Upkeep (un-Spend, Down models, Dread reduction by the
leader) and Panic (Dread, Panic tests). Six turns, or until one crew is left; then battle,
objective and mission scores and the degree of victory.

Every rule function comes from the phase-1 modules; this module adds the geometry (sight,
ranges, moves, jumps, falls), the decisions and the order of resolution. See
``docs/rules/counterblast.md`` ("Flow of play" and "Interpretations").
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from pydantic import ValidationError

from engine.core import Decision, Event, Result, Rules, SetupError, State, register
from engine.core.board import piece
from engine.core.protocol import ChoiceSpace
from engine.core.rng import GameRng
from engine.core.tables import table_without
from engine.data.errors import DataError
from engine.rulesets.common import MoveSpace, MoveTo
from engine.table import Base

from . import actions as act_mod
from . import abilities, attacks, conditions, damage, movement, moxie, odds, panic, scoring
from .checks import ability_check
from .choices import (ActivateGroup, ActivateSingle, Aim, AimAssist, Boost, DoNothing, DogPile, ElectLeader,
                      DropProne, EndActivation, Engineer, GoProne, GroupAction, HackDoor, HackMark, HackTerminal, Jump, KeepLeader,
                      MoveD5, NoReaction, PassTurn, PsiCraft, PsiStrike, Rally, React, Recover, ReduceDread,
                      Rush, Shoot, SplitShoot, SplitStrike, StandUp, Stay, Strike, Throw, Treat)
from .data import Crew, is_hero, load_armoury, parse_crew, shipped_crews, shipped_missions
from .options import CounterblastOptions

MM = 25.4
CONTACT_MM = 1.0          # interpretation: "within 0"" / base contact allows 1 mm of daylight
PRONE_HEIGHT_MM = 6.0     # a Prone model is its base only
HEADINGS = tuple(range(0, 360, 45))
MIN_COVERAGE, MAX_COVERAGE = 0.25, 0.50
DEFAULT_CREWS = ("reach-rangers", "iron-choir")
TEAM_FOR = {"shoot": "aim_assist", "engineer": "boost", "treat": "boost", "hack": "boost", "strike": "dog_pile"}


# ------------------------------------------------------------------------------------ state

@dataclass
class Model:
    id: str
    player: int
    entry: str
    x: float
    y: float
    z: float = 0.0
    tokens: int = 0
    down: bool = False
    stable: bool = False
    casualty: bool = False
    conditions: list = field(default_factory=list)   # sorted condition names (not down/stable)

    def has(self, c: str) -> bool:
        return c in self.conditions

    def gain(self, c: str) -> None:
        if c not in self.conditions:
            self.conditions.append(c)
            self.conditions.sort()

    def lose(self, c: str) -> None:
        if c in self.conditions:
            self.conditions.remove(c)

    @property
    def on_table(self) -> bool:
        return not self.casualty


@dataclass
class Activation:
    player: int
    members: list                 # model ids still taking part
    group: bool
    actions_left: int             # free actions left (a group shares them)
    used: dict = field(default_factory=dict)       # model -> actions used this activation
    aimed: list = field(default_factory=list)      # models whose next Zap check is 1 easier
    assist: dict = field(default_factory=dict)     # model -> Aim-Assist dice for its next Shoot
    boost: dict = field(default_factory=dict)      # model -> Boost dice for its next skill check
    dog_pile: dict = field(default_factory=dict)   # target -> Dog-pile dice for the next Strike on it
    step: str = ""                # group: the action chosen for the current group step
    to_resolve: list = field(default_factory=list)  # group: members yet to resolve that step


@dataclass
class CBState(State):
    models: dict = field(default_factory=dict)
    order: list = field(default_factory=list)      # model ids in roster order
    moxie: dict = field(default_factory=dict)
    dread: dict = field(default_factory=dict)
    leader: dict = field(default_factory=dict)
    leader_lost: dict = field(default_factory=dict)
    phase: str = "leader"
    queue: list = field(default_factory=list)      # players still to answer a once-per-phase decision
    passed: list = field(default_factory=list)
    act: Activation | None = None
    window: dict | None = None                     # a paused action waiting for a reaction or a move
    casualties: dict = field(default_factory=dict)  # player -> [[model id, was hero]] this turn
    hacked: dict = field(default_factory=dict)
    held: dict = field(default_factory=dict)       # protect-leader turns
    veiled: list = field(default_factory=list)
    opened: list = field(default_factory=list)     # secure doors Hacked open (piece ids, sorted)
    activations: int = 0
    final: dict | None = None


# ------------------------------------------------------------------------------ move space

class CBMoveSpace(MoveSpace):
    """``MoveSpace`` with nearby models only for the path search and the Panic restriction (a
    Panicked model may not end closer to any enemy than it started)."""

    def __init__(self, table, base, allowance, others=(), enemies=(), no_closer=False, label=""):
        super().__init__(table, base, allowance, others, label=label)
        reach = allowance + 2 * base.radius + 1.0
        self.near = tuple(o for o in self.others if math.hypot(o.x - base.x, o.y - base.y) <= reach + o.radius)
        self.no_closer = no_closer
        self.enemies = tuple(enemies)
        # each enemy's distance at the start: a Panicked model may end closer to none of them
        self.start_gaps = tuple(math.hypot(e.x - base.x, e.y - base.y) for e in self.enemies)

    def path_to(self, x, y):
        return self.table.find_path((self.base.x, self.base.y), (x, y), self.base.radius, self.near,
                                    max_length=self.allowance)

    @property
    def path_others(self):    # for MoveSpace.reach: the bases path_to steers round
        return self.near

    def problem(self, c: MoveTo) -> str | None:
        if not self.no_closer:
            return None
        for e, start in zip(self.enemies, self.start_gaps):
            if math.hypot(e.x - c.x, e.y - c.y) < start - 1e-6:
                return "a Panicked model may not end a move closer to an enemy"
        return None


class SplitSpace(ChoiceSpace):
    """Every legal split of one attack's dice: ``SplitShoot`` / ``SplitStrike`` by ``model`` with
    ``weapon`` over two or more distinct ``targets`` (each a valid target now), every target at
    least one die, the shares adding up to ``pool`` (003: 'divides its Zap or Grit among however
    many targets it wishes to attack')."""

    def __init__(self, choice_type, model, weapon, targets, pool, label=""):
        self.choice_type = choice_type
        self.kind = _kind_of(choice_type)
        self.model, self.weapon, self.targets, self.pool = model, weapon, tuple(targets), pool
        self.label = label or f"split {pool} dice of {model}'s {weapon} between any of {len(self.targets)} targets"

    def check(self, c) -> str | None:
        if not isinstance(c, self.choice_type) or c.model != self.model or c.weapon != self.weapon:
            return f"this split is for {self.model}'s {self.weapon}"
        try:
            targets, dice = tuple(c.targets), tuple(int(d) for d in c.dice)
        except (TypeError, ValueError):
            return "targets and dice must be lists"
        if len(targets) != len(dice):
            return "one share of dice per target"
        if len(targets) < 2:
            return "a split needs at least two targets"
        if len(set(targets)) != len(targets):
            return "a target may appear only once in a split"
        bad = [t for t in targets if t not in self.targets]
        if bad:
            return f"not a valid target: {', '.join(map(str, bad))}"
        if any(d < 1 for d in dice):
            return "every target of a split needs at least one die"
        if sum(dice) != self.pool:
            return f"the shares add up to {sum(dice)} dice; the pool is {self.pool}"
        return None

    def sample(self, rng):
        k_max = min(self.pool, len(self.targets))
        if k_max < 2:
            return None
        k = rng.randint(2, k_max)
        targets = rng.sample(self.targets, k)
        cuts = sorted(rng.sample(range(1, self.pool), k - 1))
        dice = [b - a for a, b in zip([0] + cuts, cuts + [self.pool])]
        return self.choice_type(self.model, self.weapon, tuple(targets), tuple(dice))


def split_offers(targets, pool, cap):
    """The enumerated split options (targets nearest first): every split of ``pool`` between two
    of the first ``cap`` targets, and the most even split over the first k targets for each
    k = 3 .. min(cap, pool) (the larger shares to the nearer targets). Pairs are (targets, dice)."""
    near = list(targets)[:cap]
    out = []
    if pool < 2:
        return out
    for t1, t2 in combinations(near, 2):
        for a in range(1, pool):
            out.append(((t1, t2), (a, pool - a)))
    for k in range(3, min(len(near), pool) + 1):
        q, r = divmod(pool, k)
        out.append((tuple(near[:k]), tuple(q + (1 if i < r else 0) for i in range(k))))
    return out


# ------------------------------------------------------------------------------ odds cache

@lru_cache(maxsize=4096)
def _check_floats(n, difficulty, explode) -> tuple:
    """``odds.check_dist`` (exact) as floats, cached: P(successes = k) for k = 0, 1, ..."""
    d = odds.check_dist(n, difficulty, explode)
    top = max(d.pmf, default=0)
    return tuple(float(d.p(k)) for k in range(top + 1))


@lru_cache(maxsize=8192)
def _attack_chance(dice, difficulty, damage_, explode, defense_dice, mettle, tokens, already_down) -> float:
    """Chance that an attack puts the target Down (or, if it is Down already, makes it a
    casualty): the attack check and the Defense check from ``odds.check_dist``, combined as in
    ``odds.attack_odds`` (successes x damage = raw; tokens = max(0, raw - Defense successes))."""
    att = _check_floats(dice, difficulty, explode)
    dfn = _check_floats(defense_dice, 7, 10)
    cum = [0.0]
    for q in dfn:
        cum.append(cum[-1] + q)           # cum[r] = P(Defense successes < r)
    need = mettle * 2 + 1 - tokens if already_down else mettle - tokens
    p = 0.0
    for s, ps in enumerate(att):
        raw = s * damage_
        if raw < need or ps == 0.0:
            continue
        k_max = raw - need                # Defense successes that still leave enough tokens
        p += ps * (cum[k_max + 1] if k_max + 1 < len(cum) else 1.0)
    return min(1.0, p)


# ------------------------------------------------------------------------------------ rules

@register
class CounterblastRules(Rules):
    id = "counterblast"
    name = "Counterblast"
    unit = "in"
    players = 2

    # ---------------------------------------------------------------- setup
    @classmethod
    def default_rosters(cls, table) -> list:
        return list(DEFAULT_CREWS)

    @classmethod
    def roster_ids(cls) -> dict[str, str]:
        from .data import shipped_crews
        return {k: c.name for k, c in shipped_crews().items()}

    def __init__(self, table, rosters, options):
        super().__init__(table, rosters, options)
        opts = dict(options or {})
        mission_id = opts.pop("mission", None)
        try:
            self.opt = CounterblastOptions(**opts)
        except ValidationError as err:
            raise SetupError(f"counterblast options refused: {err}") from None
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
            try:
                if isinstance(r, str):
                    if r not in shipped:
                        raise SetupError(f"no crew {r!r} (shipped: {', '.join(sorted(shipped))})")
                    self.crews[p] = shipped[r]
                elif isinstance(r, dict):
                    self.crews[p] = parse_crew(r, f"roster {p}", self.armoury, self.opt)
                else:
                    raise SetupError(f"roster {p}: a crew id or a crew object, not {type(r).__name__}")
            except DataError as err:
                raise SetupError(str(err)) from None
        missions = shipped_missions()
        markers = self.table.mapfile.objectives
        if mission_id is None:
            mission_id = "salvage-rights" if len(markers) >= 3 else "headhunters"
        if mission_id not in missions:
            raise SetupError(f"no mission {mission_id!r} (shipped: {', '.join(sorted(missions))})")
        self.mission = missions[mission_id]
        if len(markers) < self.mission.min_markers:
            raise SetupError(f"mission {self.mission.name!r} needs {self.mission.min_markers} objective markers; "
                             f"the map has {len(markers)}")
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
            for (x, y), mid in zip(self._deploy(p), [f"{p}-{i}" for i, _ in crew.instances()]):
                st.models[mid] = Model(mid, p, mid, x, y, self.table.surface_height(x, y))
                st.order.append(mid)
        self._start_turn(st, [])
        return st

    def _deploy(self, player: int) -> list:
        """Deterministic placement: a 1.5" grid over the crew's zone, points nearest the zone's
        middle first, each model on the first free legal point."""
        mf = self.table.mapfile
        k = mf.mm_per_unit
        zone = next(z for z in mf.deployment if z.side == player)
        pts = [(x * k, y * k) for x, y in zone.points]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
        step = 1.5 * MM
        cands = []
        y = min(ys) + step / 2
        while y < max(ys):
            x = min(xs) + step / 2
            while x < max(xs):
                if _inside(pts, x, y):
                    cands.append((round(math.hypot(x - cx, (y - cy) * 3), 6), round(x, 3), round(y, 3)))
                x += step
            y += step
        cands.sort()
        placed: list[Base] = []
        out = []
        crew = self.crews[player]
        for inst, entry in crew.instances():
            r = entry.profile.base_mm / 2
            for _, x, y in cands:
                if self.table.position_problem(x, y, r, placed) is None:
                    placed.append(Base(inst, x, y, r, entry.profile.height_mm))
                    out.append((x, y))
                    break
            else:
                raise SetupError(f"no room to deploy {entry.profile.name} in side {player}'s zone")
        return out

    # ---------------------------------------------------------------- geometry helpers
    def base(self, m: Model) -> Base:
        p = self.profile[m.id]
        h = PRONE_HEIGHT_MM if (m.down or m.has("prone")) else p.height_mm
        return Base(m.id, m.x, m.y, p.base_mm / 2, h, 0.0, m.z)

    def bases(self, st: CBState, exclude=()) -> list[Base]:
        return [self.base(st.models[i]) for i in st.order if st.models[i].on_table and i not in exclude]

    def dist(self, st, a: str, b: str) -> float:
        """Edge-to-edge distance in inches."""
        ma, mb = st.models[a], st.models[b]
        return max(0.0, math.hypot(ma.x - mb.x, ma.y - mb.y) - self.radius[a] - self.radius[b]) / MM

    def within(self, st, a, b, inches) -> bool:
        return self.dist(st, a, b) * MM <= inches * MM + CONTACT_MM

    def tbl(self, st: CBState):
        """The table as it stands now: the map without the secure doors Hacked open."""
        if not st.opened:
            return self.table
        key = tuple(st.opened)
        t = self._tables.get(key)
        if t is None:
            t = self._tables[key] = table_without(self.table.mapfile, key)
        return t

    def _sight_table(self, st: CBState) -> tuple:
        """(bases, cache of (viewer, target) -> visible share) for the current positions."""
        ms = st.models
        key = (tuple(st.opened),) + tuple((m.x, m.y, m.z, m.down or "prone" in m.conditions) if m.on_table else None
                                          for m in (ms[i] for i in st.order))
        got = self._sight_cache.get(key)
        if got is None:
            if len(self._sight_cache) > 256:
                self._sight_cache.clear()
            got = self._sight_cache[key] = (self.bases(st), {})
        return got

    def _fill(self, st, viewers, targets) -> None:
        bs, cache = self._sight_table(st)
        by = {b.id: b for b in bs}
        vb = [by[v] for v in viewers if v in by]
        tb = [by[t] for t in targets if t in by]
        if not vb or not tb:
            return
        vis, _ = self.tbl(st).sight_matrix(vb, tb, bs)
        for i, a in enumerate(vb):
            for j, b in enumerate(tb):
                cache[(a.id, b.id)] = float(vis[i, j])

    def seen(self, st, viewer: str, target: str) -> float:
        """Share of ``target`` that ``viewer`` can see (0 for Down or Blind viewers)."""
        v = st.models[viewer]
        if not v.on_table or not st.models[target].on_table or v.down:
            return 0.0
        if v.has("blind") and viewer != target:
            return 0.0
        if viewer == target:
            return 1.0
        _, cache = self._sight_table(st)
        got = cache.get((viewer, target))
        if got is None:
            side = st.models[target].player
            self._fill(st, [viewer], [i for i in st.order if st.models[i].on_table and i != viewer
                                      and st.models[i].player == side])
            got = cache.get((viewer, target), 0.0)
        return got

    def valid_target(self, st, viewer, target) -> bool:
        return attacks.visible_enough(self.seen(st, viewer, target), self.opt)

    def cover(self, st, attacker: str, target: str) -> str:
        t = st.models[target]
        s = self.tbl(st).sight(self.base(st.models[attacker]), self.base(t), self.bases(st, (attacker, target)))
        blocked = 1.0 - s.visible_fraction
        hidden = blocked + s.obscured_fraction
        heavy = blocked if s.cover == "heavy" else 0.0
        c = damage.cover_class(max(0.0, hidden - heavy), heavy, prone=t.down or t.has("prone"), options=self.opt)
        if target in st.veiled:
            c = damage.best_cover(c, "light")
        return c

    def aim_info(self, st, attacker: str, target: str) -> list[str]:
        if attacker not in st.models or target not in st.models:
            return []
        seen = self.seen(st, attacker, target)
        ok = attacks.visible_enough(seen, self.opt)
        d = self.dist(st, attacker, target)
        band = "short range" if attacks.is_short_range(d, self.opt) else "long range"
        return [f"{seen:.0%} visible{'' if ok else ': too little to be a target'}, "
                f"cover {self.cover(st, attacker, target)}",
                f"{d:.1f}\" edge to edge: {band} (short is up to {self.opt.short_range:g}\")"]

    def ranges(self, st, model: str) -> list[tuple[str, float]]:
        p = self.profile.get(model)
        if p is None:
            return []
        return [(self.armoury.shooting_weapon(w).name, self.armoury.shooting_weapon(w).range * MM)
                for w in p.shooting] + [("short range", self.opt.short_range * MM)]

    # ---------------------------------------------------------------- model helpers
    def enemies(self, st, mid):
        p = st.models[mid].player
        return [i for i in st.order if st.models[i].on_table and st.models[i].player != p]

    def friends(self, st, mid):
        p = st.models[mid].player
        return [i for i in st.order if st.models[i].on_table and st.models[i].player == p]

    def engaging(self, st, a: str, b: str) -> bool:
        """``a`` engages ``b``: an enemy, not Down, with ``b`` in sight and within a striking reach."""
        ma, mb = st.models[a], st.models[b]
        if ma.player == mb.player or ma.down or mb.down or not ma.on_table or not mb.on_table:
            return False
        reach = self.reach[a]
        if reach is None or not self.within(st, a, b, reach):
            return False
        return self.valid_target(st, a, b)

    def engaged(self, st, mid) -> bool:
        return any(self.engaging(st, e, mid) for e in self.enemies(st, mid))

    def engagers(self, st, mid) -> list:
        return [e for e in self.enemies(st, mid) if self.engaging(st, e, mid)]

    def in_melee_with_friend(self, st, shooter, target) -> bool:
        fr = [f for f in self.friends(st, shooter) if f != shooter]
        return any(self.engaging(st, f, target) or self.engaging(st, target, f) for f in fr)

    def grit(self, st, mid) -> int:
        return conditions.effective_grit(self.profile[mid].grit, st.models[mid].conditions, self.opt)

    def zap(self, st, mid) -> int:
        return conditions.effective_zap(self.profile[mid].zap, st.models[mid].conditions, self.opt)

    def move_in(self, st, mid) -> int:
        return conditions.effective_move(self.profile[mid].move, st.models[mid].conditions, self.opt)

    def hero(self, mid) -> bool:
        return is_hero(self.profile[mid], self.opt)

    def gear_kinds(self, mid) -> set:
        return {self.armoury.gear_item(g).kind for g in self.profile[mid].gear}

    def enigmas(self, mid, action):
        out = []
        for g in self.profile[mid].gear:
            out += [e for e in self.armoury.gear_item(g).enigmas if e.action == action]
        return out

    def enigma(self, mid, eid):
        return next(e for g in self.profile[mid].gear for e in self.armoury.gear_item(g).enigmas if e.id == eid)

    def on_table(self, st, p) -> list:
        return [i for i in st.order if st.models[i].player == p and st.models[i].on_table]

    def can_activate(self, st, mid) -> bool:
        m = st.models[mid]
        return m.on_table and not m.down and not m.has("spent")

    # ================================================================ the turn
    def _start_turn(self, st: CBState, ev: list) -> None:
        for p in (1, 2):
            st.moxie[p] = moxie.moxie_pool(len(self.on_table(st, p)))
            st.casualties[p] = []
        st.passed = []
        st.veiled = []
        ev.append(Event(f"Turn {st.turn}: Moxie {st.moxie[1]} / {st.moxie[2]}", "phase",
                        {"turn": st.turn, "moxie": dict(st.moxie)}))
        st.queue = [p for p in (1, 2) if st.moxie[p] >= self.opt.leader_election_cost and self._leader_candidates(st, p)]
        st.phase = "leader"
        if not st.queue:
            self._start_activation_phase(st, ev)

    def _leader_candidates(self, st, p) -> list:
        return [i for i in self.on_table(st, p) if self.hero(i) and not st.models[i].down and i != st.leader[p]]

    def _has_activation(self, st, p) -> bool:
        return st.moxie[p] >= self.opt.single_activation_cost and any(self.can_activate(st, i) for i in self.on_table(st, p))

    def _start_activation_phase(self, st: CBState, ev: list) -> None:
        st.act = None
        st.window = None
        for p in (1, 2):
            if p not in st.passed and not self._has_activation(st, p):
                st.passed.append(p)   # out of Moxie or models: as though it passed
        live = [p for p in (1, 2) if p not in st.passed]
        if not live:
            self._upkeep(st, ev)
            return
        r = moxie.determine_active(st.rng, {p: st.moxie[p] for p in (1, 2)}, passed=st.passed, options=self.opt)
        st.active = r.active
        st.activations += 1
        if r.decided_by == "only_crew":
            text = f"Player {r.active} is Active (the other crew is done for the turn)"
        else:
            rolls = ", ".join(f"P{p} {c.successes}" for p, c in sorted(r.checks.items()))
            text = f"Moxie checks {rolls}: player {r.active} is Active ({r.decided_by.replace('_', '-')})"
        ev.append(Event(text, "dice", {"moxie_checks": {p: list(c.values) for p, c in r.checks.items()},
                                       "roll_offs": r.roll_offs}))
        st.phase = "activate"

    # ---------------------------------------------------------------- pending
    def pending(self, st: CBState) -> Decision | None:
        ph = st.phase
        if ph == "over":
            return None
        if ph == "leader":
            p = st.queue[0]
            opts = (KeepLeader(),) + tuple(ElectLeader(i) for i in self._leader_candidates(st, p))
            return Decision(p, "elect a leader", f"Player {p}: keep {self.names[st.leader[p]]} as leader, "
                            f"or spend 1 Moxie to elect a new one", options=opts)
        if ph == "activate":
            return Decision(st.active, "activate", "Activate one model (1 Moxie), a group (2 Moxie) or pass",
                            options=self._activation_options(st))
        if ph == "act":
            opts, spaces = self._action_options(st)
            return Decision(st.act.player, "act", self._act_prompt(st), options=tuple(opts), spaces=tuple(spaces))
        if ph == "move":
            w = st.window
            m = st.models[w["mover"]]
            return Decision(m.player, "move", f"{self.names[m.id]} moves up to {w['allowance']:.0f}\"",
                            options=(Stay(m.id),), spaces=(self._move_space(st, m.id, w["allowance"] * MM),))
        if ph == "prone":
            m = st.models[st.window["mover"]]
            return Decision(m.player, "prone", f"{self.names[m.id]}: end the move Prone?",
                            options=(DropProne(m.id, False), DropProne(m.id, True)))
        if ph == "react":
            w = st.window
            return Decision(w["reactor"], "react", w["prompt"], options=tuple(w["options"]))
        if ph == "dread":
            p = st.queue[0]
            top = min(st.moxie[p], st.dread[p])
            return Decision(p, "reduce dread", f"Player {p}: spend Moxie to reduce Dread {st.dread[p]}",
                            options=tuple(ReduceDread(n) for n in range(0, top + 1)))
        raise AssertionError(f"unknown phase {ph}")

    def _act_prompt(self, st) -> str:
        a = st.act
        who = ", ".join(self.names[i] for i in a.members)
        if a.group and a.step:
            return f"Group action {a.step}: choose for {', '.join(self.names[i] for i in a.to_resolve)}"
        left = f"{a.actions_left} free action(s) left" if a.actions_left else f"extra actions cost Moxie ({st.moxie[a.player]} left)"
        return f"{who}: choose an action ({left})"

    def _activation_options(self, st) -> list:
        p = st.active
        ready = [i for i in self.on_table(st, p) if self.can_activate(st, i)]
        opts = [ActivateSingle(i) for i in ready]
        if st.moxie[p] >= self.opt.group_activation_cost:
            heroes = [i for i in ready if self.hero(i)]
            lackeys = [i for i in ready if self.profile[i].role == "lackey"]
            for h in heroes:
                for n in range(0, self.opt.group_max_lackeys + 1):
                    for ls in combinations(lackeys, n):
                        opts.append(ActivateGroup((h,) + ls))
        opts.append(PassTurn())
        return opts

    # ---------------------------------------------------------------- action options
    def _can_pay_action(self, st) -> bool:
        a = st.act
        return a.actions_left > 0 or st.moxie[a.player] >= moxie.extra_action_cost(len(a.members), self.opt)

    def _action_options(self, st):
        a = st.act
        opts, spaces = [], []
        if a.group and a.step:
            for mid in a.to_resolve:
                o, s = self._model_actions(st, mid, only=a.step)
                if self._must_rally(st, mid):
                    opts += o     # a Panicked model's first action is its Rally, whatever the group does
                    continue
                opts += o
                spaces += s
                opts += self._team_actions(st, mid, a.step)
                opts.append(DoNothing(mid))
            return opts, spaces
        if self._can_pay_action(st):
            if a.group:
                kinds = []
                for mid in a.members:
                    o, s = self._model_actions(st, mid, skip=frozenset(kinds))
                    for c in o + [sp.choice_type for sp in s]:
                        k = _kind_of(c)
                        if k and k not in kinds:
                            kinds.append(k)
                    if any(isinstance(sp, MoveSpace) for sp in s) and "move" not in kinds:
                        kinds.append("move")
                opts += [GroupAction(k) for k in sorted(kinds)]
            else:
                o, s = self._model_actions(st, a.members[0])
                opts += o
                spaces += s
        opts.append(EndActivation())
        return opts, spaces

    def _must_rally(self, st, mid) -> bool:
        """A Panicked model's next action must be its Rally: its first action, or its first once a
        condition that forbade Rallying (Pinned) is gone."""
        m = st.models[mid]
        return m.has("panic") and not m.has("pinned") and "rally" not in st.act.used.get(mid, [])

    def _model_actions(self, st, mid, only: str | None = None, skip=frozenset()):
        """The actions model ``mid`` may use now (enumerated choices and move spaces); ``only``
        keeps one kind of action, ``skip`` leaves kinds out (a group already knows it can use them)."""
        m = st.models[mid]
        a = st.act
        used = a.used.get(mid, [])
        conds = m.conditions
        opts, spaces = [], []
        if m.down or not m.on_table:
            return opts, spaces

        def ok(action):
            return ((only is None or only == action) and action not in skip
                    and act_mod.multitasking_allows(action, used))

        # Pinned allows only Recover; a Panicked model Rallies first, or as soon as it is able
        # to when another condition (Pinned) forbids it ("must use their action to rally as soon
        # as they are able")
        if m.has("pinned"):
            return ([Recover(mid)] if ok("recover") else []), []
        if self._must_rally(st, mid):
            return ([], []) if "rally" in skip else ([Rally(mid)], [])
        engaged = self.engaged(st, mid)
        enemies = [e for e in self.enemies(st, mid)]
        # maneuvers
        if ok("move"):
            if m.has("prone"):
                opts.append(StandUp(mid))
            else:
                opts.append(GoProne(mid))
            if m.has("half_blind"):
                opts.append(MoveD5(mid))
            else:
                spaces.append(self._move_space(st, mid, self.move_in(st, mid) * MM))
                opts += self._contact_moves(st, mid, self.move_in(st, mid) * MM)
        if ok("rush") and movement.can_rush(used, conds)[0]:
            opts.append(Rush(mid))
        if ok("jump") and movement.can_jump(used, conds)[0]:
            opts += [Jump(mid, h) for h in HEADINGS]
        # combat
        if ok("aim") and self.profile[mid].shooting and "aim" not in used:
            opts.append(Aim(mid))
        if ok("shoot") and not engaged:
            for w in self.profile[mid].shooting:
                wpn = self.armoury.shooting_weapon(w)
                ts = [e for e in enemies if self._shootable(st, mid, e, wpn.range)]
                opts += [Shoot(mid, w, e) for e in ts]
                n = self._zap_pool(st, mid)
                if n >= 2 and len(ts) >= 2:
                    ts = sorted(ts, key=lambda e: (self.dist(st, mid, e), e))
                    opts += [SplitShoot(mid, w, tt, dd) for tt, dd in split_offers(ts, n, self.opt.split_offer_targets)]
                    spaces.append(SplitSpace(SplitShoot, mid, w, ts, n))
        if ok("strike"):
            for w in self.profile[mid].striking:
                wpn = self.armoury.striking_weapon(w)
                ts = [e for e in enemies if self.within(st, mid, e, wpn.reach) and self.valid_target(st, mid, e)]
                opts += [Strike(mid, w, e) for e in ts]
                n = attacks.pool_size(self.grit(st, mid), 0, self.opt)
                if n >= 2 and len(ts) >= 2:
                    ts = sorted(ts, key=lambda e: (self.dist(st, mid, e), e))
                    opts += [SplitStrike(mid, w, tt, dd) for tt, dd in split_offers(ts, n, self.opt.split_offer_targets)]
                    spaces.append(SplitSpace(SplitStrike, mid, w, ts, n))
        if ok("throw"):
            for e in enemies:
                if (attacks.can_throw(self.profile[mid].size, self.profile[e].size)
                        and self.within(st, mid, e, self.opt.throw_range) and self.valid_target(st, mid, e)):
                    opts += [Throw(mid, e, h) for h in HEADINGS]
        if ok("psi_strike"):
            for en in self.enigmas(mid, "psi_strike"):
                for e in enemies:
                    if self.within(st, mid, e, en.range) and self.valid_target(st, mid, e):
                        opts.append(PsiStrike(mid, en.id, e))
        # skills (not while Engaged)
        if not engaged:
            if ok("psi_craft"):
                for en in self.enigmas(mid, "psi_craft"):
                    for f in self.friends(st, mid):
                        if self.within(st, mid, f, en.range) and (f == mid or self.seen(st, mid, f) > 0) \
                                and self._craft_useful(st, en.craft, f):
                            opts.append(PsiCraft(mid, en.id, f))
            for action, cls in (("treat", Treat), ("engineer", Engineer)):
                if ok(action):
                    for f in self.friends(st, mid):
                        if self._skill_useful(st, mid, action, f) and self.within(st, mid, f, 1) \
                                and (f == mid or self.seen(st, mid, f) > 0):
                            opts.append(cls(mid, f))
            if ok("hack"):
                if "scanner" in self.gear_kinds(mid):
                    for e in enemies:
                        if not st.models[e].has("marked") and self.within(st, mid, e, 12) and self.valid_target(st, mid, e):
                            opts.append(HackMark(mid, e))
                for obj in self.mission.objectives:
                    if obj.kind != "hack_markers":
                        continue
                    for mk, (x, y) in self.markers.items():
                        if (obj.markers and mk not in obj.markers) or mk in st.hacked[m.player]:
                            continue
                        if self.table.distance_to_point(self.base(m), x, y) <= obj.range * MM + CONTACT_MM:
                            opts.append(HackTerminal(mid, mk))
                table = self.tbl(st)
                for door in self.doors:
                    if door not in st.opened and \
                            table.distance_to_piece(self.base(m), door) <= self.opt.hack_door_reach * MM + CONTACT_MM:
                        opts.append(HackDoor(mid, door))
        # recovery
        if ok("recover") and any(m.has(c) for c in conditions.RECOVER_FROM):
            opts.append(Recover(mid))
        if ok("rally") and m.has("panic") and "rally" not in used:
            opts.append(Rally(mid))
        if only is not None:
            opts = [o for o in opts if _kind_of(o) == only]
            spaces = [sp for sp in spaces if _kind_of(sp.choice_type) == only]
        return opts, spaces

    def _zap_pool(self, st, mid) -> int:
        if conditions.zap_auto_zero(st.models[mid].conditions):
            return 0
        from .checks import pool_size
        return pool_size(self.zap(st, mid), st.act.assist.get(mid, 0), self.opt)

    def _shootable(self, st, mid, e, rng_in, snapshot=False) -> bool:
        return (self.within(st, mid, e, rng_in) and self.valid_target(st, mid, e)
                and act_mod.shoot_target_allowed(self.in_melee_with_friend(st, mid, e), snapshot=snapshot))

    def _skill_useful(self, st, mid, action, f) -> bool:
        t = st.models[f]
        kind = self.profile[f].kind
        if action not in damage.stabilize_actions(kind):
            return False
        if t.down and not t.stable:
            return True
        return damage.can_heal(action, self.gear_kinds(mid), kind) and t.tokens > 1

    def _craft_useful(self, st, craft, f) -> bool:
        if craft == "veil":
            return f not in st.veiled
        return st.models[f].tokens > 1       # remove_token: never below one token

    def _team_actions(self, st, mid, step) -> list:
        team = TEAM_FOR.get(step)
        m = st.models[mid]
        if team is None or m.down or not act_mod.multitasking_allows(team, st.act.used.get(mid, [])):
            return []
        if self._must_rally(st, mid) or m.has("pinned"):
            return []
        engaged = self.engaged(st, mid)
        out = []
        if team == "aim_assist" and attacks.can_assist(self.zap(st, mid)) and not engaged:
            out = [AimAssist(mid, f) for f in st.act.to_resolve
                   if f != mid and self.within(st, mid, f, 1) and self.seen(st, mid, f) > 0]
        elif team == "boost" and attacks.can_assist(self.profile[mid].knack) and not engaged:
            out = [Boost(mid, f) for f in st.act.to_resolve
                   if f != mid and self.within(st, mid, f, 1) and self.seen(st, mid, f) > 0]
        elif team == "dog_pile" and attacks.can_assist(self.grit(st, mid)):
            reach = max((self.armoury.striking_weapon(w).reach for w in self.profile[mid].striking), default=None)
            if reach is not None:
                out = [DogPile(mid, e) for e in self.enemies(st, mid)
                       if self.within(st, mid, e, reach) and self.valid_target(st, mid, e)]
        return out

    def _move_space(self, st, mid, allowance_mm) -> CBMoveSpace:
        m = st.models[mid]
        others = self.bases(st, (mid,))
        enemies = [self.base(st.models[e]) for e in self.enemies(st, mid)]
        return CBMoveSpace(self.tbl(st), self.base(m), allowance_mm, others, enemies, no_closer=m.has("panic"))

    def _contact_moves(self, st, mid, allowance_mm) -> list:
        """Moves into base contact with each enemy in reach of the move (so that charges are
        offered as options, not only as points a player must hit exactly)."""
        m = st.models[mid]
        if m.has("panic"):
            return []
        space = None
        out = []
        r = self.profile[mid].base_mm / 2
        for e in self.enemies(st, mid):
            me = st.models[e]
            if me.down:
                continue
            d = math.hypot(me.x - m.x, me.y - m.y)
            re_ = self.profile[e].base_mm / 2
            if d - r - re_ > allowance_mm or d - r - re_ <= CONTACT_MM:    # out of reach, or in contact already
                continue
            if space is None:
                space = self._move_space(st, mid, allowance_mm)
            gap = r + re_ + 0.3
            base_ang = math.atan2(m.y - me.y, m.x - me.x)
            for off in (0.0, 0.6, -0.6, 1.2, -1.2):
                a = base_ang + off
                c = MoveTo(mid, round(me.x + gap * math.cos(a), 2), round(me.y + gap * math.sin(a), 2))
                if space.check(c) is None:
                    out.append(c)
                    break
        return out

    # ================================================================ apply
    def apply(self, st: CBState, player: int, c) -> list[Event]:
        ev: list[Event] = []
        ph = st.phase
        if ph == "leader":
            st.queue.pop(0)
            if isinstance(c, ElectLeader):
                st.moxie[player] = moxie.spend(st.moxie[player], self.opt.leader_election_cost)
                st.leader[player] = c.model
                ev.append(Event(f"Player {player} spends 1 Moxie: {self.names[c.model]} is the new leader", "leader"))
            if not st.queue:
                self._start_activation_phase(st, ev)
        elif ph == "activate":
            self._apply_activation(st, player, c, ev)
        elif ph == "act":
            self._apply_act(st, c, ev)
        elif ph == "move":
            self._apply_move_followup(st, c, ev)
        elif ph == "prone":
            self._apply_prone(st, c, ev)
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

    def _apply_activation(self, st, p, c, ev):
        if isinstance(c, PassTurn):
            st.passed.append(p)
            ev.append(Event(f"Player {p} passes the turn", "pass"))
            self._start_activation_phase(st, ev)
            return
        if isinstance(c, ActivateSingle):
            st.moxie[p] = moxie.spend(st.moxie[p], self.opt.single_activation_cost)
            m = st.models[c.model]
            st.act = Activation(p, [c.model], False, conditions.free_actions(m.conditions, self.opt))
            ev.append(Event(f"Player {p} activates {self.names[c.model]} (1 Moxie)", "activate"))
        else:
            st.moxie[p] = moxie.spend(st.moxie[p], self.opt.group_activation_cost)
            free = min(conditions.free_actions(st.models[i].conditions, self.opt) for i in c.models)
            st.act = Activation(p, list(c.models), True, free)
            ev.append(Event(f"Player {p} activates a group: {', '.join(self.names[i] for i in c.models)} (2 Moxie)",
                            "activate"))
        st.phase = "act"
        self._continue(st, ev)

    # ---------------------------------------------------------------- actions
    def _pay(self, st, ev):
        a = st.act
        if a.actions_left > 0:
            a.actions_left -= 1
        else:
            cost = moxie.extra_action_cost(len(a.members), self.opt)
            st.moxie[a.player] = moxie.spend(st.moxie[a.player], cost)
            ev.append(Event(f"Player {a.player} spends {cost} Moxie for an extra action", "moxie"))

    def _use(self, st, mid, action):
        st.act.used.setdefault(mid, []).append(action)
        if act_mod.spends_model(action, self.opt):
            st.models[mid].gain("spent")

    def _apply_act(self, st, c, ev):
        a = st.act
        if isinstance(c, EndActivation):
            ev.append(Event(f"Player {a.player} ends the activation", "activate"))
            self._end_activation(st, ev)
            return
        if isinstance(c, GroupAction):
            self._pay(st, ev)
            a.step = c.action
            a.to_resolve = [i for i in a.members]
            ev.append(Event(f"The group uses {act_mod.ACTIONS[c.action].name}", "action"))
            self._continue(st, ev)
            return
        if not a.group:
            self._pay(st, ev)
        mid = c.model
        if a.group:
            a.to_resolve.remove(mid)
        if isinstance(c, DoNothing):
            self._use(st, mid, "do_nothing")
            ev.append(Event(f"{self.names[mid]} does nothing", "action"))
            self._continue(st, ev)
            return
        kind = _kind_of(c)
        self._use(st, mid, kind)
        self._resolve_action(st, c, ev)

    def _resolve_action(self, st, c, ev):
        mid = c.model
        n = self.names[mid]
        m = st.models[mid]
        if isinstance(c, MoveTo):
            before = self.engagers(st, mid)
            self._place(st, mid, c.x, c.y)
            ev.append(Event(f"{n} moves", "move", {"model": mid, "to": [c.x, c.y]}))
            if self._ask_prone(st, mid, {"then": "maneuver", "before": before}):
                return
            self._after_maneuver(st, mid, before, ev)
        elif isinstance(c, (GoProne, StandUp)):       # both are Move actions: maneuvers
            before = self.engagers(st, mid)
            if isinstance(c, GoProne):
                m.gain("prone")
            else:
                m.lose("prone")
            ev.append(Event(f"{n} {'drops Prone' if isinstance(c, GoProne) else 'stands up'}", "move"))
            self._after_maneuver(st, mid, before, ev)
        elif isinstance(c, Rush):
            d = movement.rush_distance(st.rng, self.opt)
            ev.append(Event(f"{n} Rushes: d10 = {d}\"", "dice", {"dice": [d]}))
            st.window = {"kind": "rush", "mover": mid, "allowance": float(d), "before": self.engagers(st, mid)}
            st.phase = "move"
        elif isinstance(c, Jump):
            before = self.engagers(st, mid)
            d = movement.jump_distance(st.rng, self.opt)
            ev.append(Event(f"{n} Jumps {d}\" (d5)", "dice", {"dice": [d]}))
            self._straight(st, mid, c.heading, d, self.profile[mid].size, ev)
            if st.phase == "over":
                return
            self._after_maneuver(st, mid, before, ev)
        elif isinstance(c, Aim):
            if mid not in st.act.aimed:
                st.act.aimed.append(mid)
            ev.append(Event(f"{n} Aims", "action"))
            self._continue(st, ev)
        elif isinstance(c, (Shoot, SplitShoot)):
            targets = [c.target] if isinstance(c, Shoot) else list(c.targets)
            dice = None if isinstance(c, Shoot) else list(c.dice)
            w = {"kind": "shoot", "actor": mid, "weapon": c.weapon, "targets": targets, "dice": dice}
            self._open_attack_window(st, w, ev)
        elif isinstance(c, (Strike, SplitStrike)):
            targets = [c.target] if isinstance(c, Strike) else list(c.targets)
            dice = None if isinstance(c, Strike) else list(c.dice)
            w = {"kind": "strike", "actor": mid, "weapon": c.weapon, "targets": targets, "dice": dice}
            self._open_attack_window(st, w, ev)
        elif isinstance(c, MoveD5):
            d = self._move_allowance(st, mid, ev)
            st.window = {"kind": "rush", "mover": mid, "allowance": d, "before": self.engagers(st, mid)}
            st.phase = "move"
        elif isinstance(c, PsiStrike):
            w = {"kind": "psi_strike", "actor": mid, "weapon": c.enigma, "targets": [c.target], "dice": None}
            self._open_psi_window(st, w, ev)
        elif isinstance(c, PsiCraft):
            w = {"kind": "psi_craft", "actor": mid, "weapon": c.enigma, "targets": [c.target], "dice": None}
            self._open_psi_window(st, w, ev)
        elif isinstance(c, Throw):
            self._throw(st, c, ev)
        elif isinstance(c, (Treat, Engineer)):
            self._skill(st, mid, "treat" if isinstance(c, Treat) else "engineer", c.target, ev)
        elif isinstance(c, HackMark):
            ch = self._knack(st, mid)
            if ch.success:
                self._gain(st, c.target, "marked", ev)
            ev.append(Event(f"{n} Hacks {self.names[c.target]} with a scanner: {ch.describe()} — "
                            f"{'Marked' if ch.success else 'no lock'}", "dice"))
            self._continue(st, ev)
        elif isinstance(c, HackDoor):
            ch = self._knack(st, mid)
            label = self.table.piece(c.door).label
            if ch.success:
                st.opened = sorted(set(st.opened) | {c.door})
            ev.append(Event(f"{n} Hacks the {label}: {ch.describe()} — "
                            f"{'it slides open' if ch.success else 'still locked'}", "dice",
                            {"door": c.door, "opened": ch.success}))
            self._continue(st, ev)
        elif isinstance(c, HackTerminal):
            ch = self._knack(st, mid)
            if ch.success and c.marker not in st.hacked[m.player]:
                st.hacked[m.player].append(c.marker)
            ev.append(Event(f"{n} Hacks the terminal {c.marker}: {ch.describe()} — "
                            f"{'cracked' if ch.success else 'locked out'}", "dice"))
            self._continue(st, ev)
        elif isinstance(c, Recover):
            ch = None
            if any(m.has(c) for c in conditions.RECOVER_CHECK):
                ch = ability_check(st.rng, self.profile[mid].knack, self.opt.knack_difficulty, options=self.opt)
            before = set(m.conditions)
            m.conditions = sorted(conditions.recover(m.conditions, ch.successes if ch else None))
            gone = ", ".join(conditions.NAMES[c] for c in sorted(before - set(m.conditions)))
            ev.append(Event(f"{n} Recovers" + (f": Knack {ch.describe()}" if ch else "")
                            + (f" — no longer {gone}" if gone else " — no change"), "action"))
            self._continue(st, ev)
        elif isinstance(c, Rally):
            self._rally(st, mid, ev)
        elif isinstance(c, (AimAssist, Boost)):
            d = st.act.assist if isinstance(c, AimAssist) else st.act.boost
            if isinstance(c, AimAssist):
                d[c.friend] = attacks.aim_assist_dice(1)
            else:
                d[c.friend] = d.get(c.friend, 0) + 1
            ev.append(Event(f"{n} {'Aim-Assists' if isinstance(c, AimAssist) else 'Boosts'} {self.names[c.friend]}", "action"))
            self._continue(st, ev)
        elif isinstance(c, DogPile):
            st.act.dog_pile[c.target] = st.act.dog_pile.get(c.target, 0) + 1
            ev.append(Event(f"{n} Dog-piles {self.names[c.target]}", "action"))
            self._continue(st, ev)
        else:
            raise AssertionError(f"unhandled action {c!r}")

    # ---------------------------------------------------------------- movement
    def _move_allowance(self, st, mid, ev) -> float:
        """Inches one Move action carries model ``mid``: its Move attribute (Blind: 2), or a d5
        rolled now if it is Half-blind ("Half-Blind models only move a d5 inches when they use
        the move action"). Every Move uses it: the model's own, an Action-roll, a Pursuit and
        the flight after a failed Rally."""
        if st.models[mid].has("half_blind"):
            d = movement.half_blind_move(st.rng, self.opt)
            ev.append(Event(f"{self.names[mid]} is Half-blind and moves a d5: {d}\"", "dice", {"dice": [d]}))
            return float(d)
        return float(self.move_in(st, mid))

    def _place(self, st, mid, x, y):
        m = st.models[mid]
        m.x, m.y = float(x), float(y)
        m.z = self.tbl(st).surface_height(m.x, m.y)

    def _straight(self, st, mid, heading, inches, size, ev, thrown=False):
        """Jump (or thrown) movement: straight, horizontal, over models no bigger than ``size``
        and terrain up to 1" above the take-off surface. Where the flight ends over a lower
        surface the model is over empty space and falls (``_fall``); otherwise it stops short at
        the last legal spot on its line."""
        m = st.models[mid]
        b = self.base(m)
        others = self.bases(st, (mid,))
        blockers = [o for o in others if self.profile[o.id].size > size]
        clearance = self.opt.jump_clearance * MM
        table = self.tbl(st)
        sm = table.straight_move(b, heading, inches * MM, blockers, clearance)
        ux, uy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
        z0 = m.z
        # where the flight ends before any backing off: the full distance, or where it is stopped
        end = inches * MM
        if sm.stopped_by is not None:
            lo, hi = 0.0, inches * MM
            while hi - lo > 0.1:
                mid_t = (lo + hi) / 2
                if table.straight_move(b, heading, mid_t, blockers, clearance).stopped_by is None:
                    lo = mid_t
                else:
                    hi = mid_t
            end = lo
        fx, fy = b.x + ux * end, b.y + uy * end
        if table.surface_height(fx, fy) < z0 - 1e-6:
            t = end
        else:
            t = sm.travelled
            while t > 0 and table.position_problem(b.x + ux * t, b.y + uy * t, b.radius, others) is not None:
                t = max(0.0, t - 0.5)
            fx, fy = b.x + ux * t, b.y + uy * t
        stopped = f" (stopped by {sm.stopped_by})" if sm.stopped_by and t < inches * MM - 1 else ""
        if table.surface_height(fx, fy) < z0 - 1e-6:
            ev.append(Event(f"{self.names[mid]} flies {t / MM:.1f}\" and is over empty space{stopped}", "move",
                            {"model": mid, "over": [fx, fy]}))
            self._fall(st, mid, fx, fy, z0, (heading + 180) % 360, ev)
            return
        self._place(st, mid, fx, fy)
        ev.append(Event(f"{self.names[mid]} lands {t / MM:.1f}\" away{stopped}", "move", {"model": mid, "to": [m.x, m.y]}))
        if thrown:
            m.gain("prone")

    def landing_spot(self, st, mid, x, y, z0, back_heading=0.0):
        """The closest valid position (no overlap with terrain, models or the table edge, on a
        surface below ``z0``) whose centre is within ``fall_landing_radius`` of (x, y), or None.
        Candidates: the point itself; the nearest points clear of what is in the way
        (``Table.clearance_candidates``: exact when one thing is); rings 1/8" apart with points
        at most 1/8" apart along each ring, nearer than the best of those; on a ring, ties go to
        the point nearest ``back_heading`` (toward take-off)."""
        r = self.radius[mid]
        others = self.bases(st, (mid,))
        step = MM / 8
        rings = int(round(self.opt.fall_landing_radius * MM / step))

        table = self.tbl(st)

        def ok(px, py):
            return (table.position_problem(px, py, r, others) is None
                    and table.surface_height(px, py) < z0 - 1e-6)

        if ok(x, y):
            return x, y
        reach = self.opt.fall_landing_radius * MM
        best, best_d = None, math.inf
        # exact when one piece, base or edge is in the way: the nearest point clear of it
        for q in table.clearance_candidates(x, y, r, others, reach):
            d = math.hypot(q[0] - x, q[1] - y)
            if d < best_d - 1e-9 and ok(*q):
                best, best_d = q, d
        # the ring search covers the rest (several things in the way); it wins only if nearer
        for k in range(1, rings + 1):
            rho = k * step
            if rho >= best_d:
                break
            n = max(8, math.ceil(2 * math.pi * rho / step))
            for j in range(n):
                # 0, +1, -1, +2, -2 ... steps around the ring from the back heading
                off = (j + 1) // 2 * (1 if j % 2 else -1)
                a = math.radians(back_heading) + 2 * math.pi * off / n
                px, py = x + rho * math.cos(a), y + rho * math.sin(a)
                if ok(px, py):
                    return px, py
        return best

    def _fall(self, st, mid, x, y, z0, back_heading, ev):
        """003 Falling: the closest valid position within 3" of the point below, Prone, Stunned,
        1 raw damage per full inch fallen; no valid position: a casualty."""
        m = st.models[mid]
        spot = self.landing_spot(st, mid, x, y, z0, back_heading)
        if spot is None:
            ev.append(Event(f"{self.names[mid]} falls with no valid position within "
                            f"{self.opt.fall_landing_radius:g}\" to land: a casualty", "fall", {"model": mid}))
            self._set_wounds(st, mid, damage.Wounds(m.tokens, m.down, m.stable, True))
            self._check_end(st, ev)
            return
        self._place(st, mid, *spot)
        moved = math.hypot(spot[0] - x, spot[1] - y) / MM
        drop = z0 - m.z
        m.gain("prone")
        self._gain(st, mid, "stunned", ev)
        raw = damage.fall_damage(drop / MM, self.opt)
        ev.append(Event(f"{self.names[mid]} falls {drop / MM:.1f}\"" + (f", landing {moved:.1f}\" from the point below" if moved > 0.05 else "")
                        + f": Prone, Stunned, {raw} raw damage", "fall", {"model": mid, "to": [m.x, m.y]}))
        if raw:
            self._damage(st, mid, raw, "fall", "none", 0, ev)
            self._check_end(st, ev)

    def _after_maneuver(self, st, mid, before, ev):
        """After Move, Rush or Jump: Snapshot (unobscured sight to the mover) or Pursuit (an
        engager the mover left) by the reactive crew."""
        if st.phase == "over":
            return
        m = st.models[mid]
        if not m.on_table or m.down:
            self._continue(st, ev)
            return
        rp = 3 - m.player
        opts = []
        if st.moxie[rp] >= self.opt.reaction_cost:
            now = set(self.engagers(st, mid))
            self._fill(st, [r for r in self.on_table(st, rp) if self._can_react(st, r)], [mid])
            for r in self.on_table(st, rp):
                if not self._can_react(st, r):
                    continue
                eng = self.engaged(st, r)
                if self.valid_target(st, r, mid):
                    for w in self.profile[r].shooting:
                        wpn = self.armoury.shooting_weapon(w)
                        if act_mod.engaged_allows("snapshot", pistol=wpn.pistol) or not eng:
                            if self.within(st, r, mid, wpn.range):
                                opts.append(React(r, "snapshot", w))
                # Pursuit is a move toward the enemy: a Panicked model 'may not end a move closer
                # to an enemy model than it started', so it may not Pursue
                if r in before and r not in now and not st.models[r].has("panic"):
                    opts.append(React(r, "pursuit"))
        if not opts:
            self._continue(st, ev)
            return
        st.window = {"kind": "maneuver", "actor": mid, "reactor": rp, "options": opts + [NoReaction()],
                     "prompt": f"Player {rp}: react to {self.names[mid]}'s move?"}
        st.phase = "react"

    def _apply_move_followup(self, st, c, ev):
        w = st.window
        mid = w["mover"]
        if isinstance(c, MoveTo):
            self._place(st, mid, c.x, c.y)
            ev.append(Event(f"{self.names[mid]} moves", "move", {"model": mid, "to": [c.x, c.y]}))
        else:
            ev.append(Event(f"{self.names[mid]} stays put", "move"))
        if w["kind"] == "rush":
            st.window = None
            st.phase = "act"
            if self._ask_prone(st, mid, {"then": "maneuver", "before": w["before"]}):
                return
            self._after_maneuver(st, mid, w["before"], ev)
        elif w["kind"] == "action_roll":
            st.window = w["resume"]
            st.phase = "act"
            if self._ask_prone(st, mid, {"then": "action_roll", "resume": w["resume"]}):
                return
            self._gain(st, mid, "stunned", ev)
            self._resolve_attack(st, st.window, None, ev)
        else:
            raise AssertionError(w["kind"])

    def _ask_prone(self, st, mid, then: dict) -> bool:
        """After a Move action's movement: a standing model may end it Prone ('A model may choose
        to become Prone at any point during a move action'). Asks its player (phase "prone")
        and returns True, or returns False when there is nothing to ask (already Prone, Down,
        off the table)."""
        m = st.models[mid]
        if not m.on_table or m.down or m.has("prone"):
            return False
        st.window = {"kind": "prone", "mover": mid, **then}
        st.phase = "prone"
        return True

    def _apply_prone(self, st, c, ev):
        w = st.window
        mid = w["mover"]
        st.window = None
        st.phase = "act"
        if c.prone:
            st.models[mid].gain("prone")
            ev.append(Event(f"{self.names[mid]} drops Prone", "move"))
        if w["then"] == "maneuver":
            self._after_maneuver(st, mid, w["before"], ev)
        else:                                   # an Action-roll: the shot resolves now
            st.window = w["resume"]
            self._gain(st, mid, "stunned", ev)
            self._resolve_attack(st, st.window, None, ev)

    # ---------------------------------------------------------------- reactions
    def _can_react(self, st, r) -> bool:
        m = st.models[r]
        return m.on_table and conditions.can_react(m.conditions + (["down"] if m.down else []))[0]

    def _open_attack_window(self, st, w, ev):
        actor = w["actor"]
        rp = 3 - st.models[actor].player
        opts = []
        if st.moxie[rp] >= self.opt.reaction_cost:
            for t in w["targets"]:
                if not self._can_react(st, t):
                    continue
                if w["kind"] == "shoot":
                    if not self.engaged(st, t):
                        for wid in self.profile[t].shooting:
                            if self._shootable(st, t, actor, self.armoury.shooting_weapon(wid).range):
                                opts.append(React(t, "return_fire", wid))
                    opts.append(React(t, "action_roll"))
                else:
                    for wid in self.profile[t].striking:
                        if self.within(st, t, actor, self.armoury.striking_weapon(wid).reach) and self.valid_target(st, t, actor):
                            opts.append(React(t, "counterstrike", wid))
                    opts.append(React(t, "parry"))
        if not opts:
            self._resolve_attack(st, w, None, ev)
            return
        w["reactor"] = rp
        w["options"] = opts + [NoReaction()]
        verb = "shoots at" if w["kind"] == "shoot" else "strikes at"
        w["prompt"] = f"Player {rp}: {self.names[actor]} {verb} {', '.join(self.names[t] for t in w['targets'])} — react?"
        st.window = w
        st.phase = "react"

    def _open_psi_window(self, st, w, ev):
        actor = w["actor"]
        rp = 3 - st.models[actor].player
        opts = []
        if st.moxie[rp] >= self.opt.reaction_cost:
            for r in self.on_table(st, rp):
                if (self.profile[r].role == "psifer" and self._can_react(st, r)
                        and attacks.disperse_in_range(self.dist(st, r, actor), self.opt)):
                    opts.append(React(r, "disperse"))
        if not opts:
            self._resolve_psi(st, w, None, ev)
            return
        w["reactor"] = rp
        w["options"] = opts + [NoReaction()]
        w["prompt"] = f"Player {rp}: {self.names[actor]} rolls a Psi check — Disperse it?"
        st.window = w
        st.phase = "react"

    def _apply_reaction(self, st, c, ev):
        w = st.window
        st.phase = "act"
        if isinstance(c, NoReaction):
            ev.append(Event(f"Player {w['reactor']} does not react", "react"))
            r = None
        else:
            st.moxie[w["reactor"]] = moxie.spend(st.moxie[w["reactor"]], self.opt.reaction_cost)
            ev.append(Event(f"{self.names[c.model]} reacts: {act_mod.ACTIONS[c.reaction].name} (1 Moxie)", "react"))
            r = c
        kind = w["kind"]
        if kind == "maneuver":
            st.window = None
            if r is not None:
                if r.reaction == "snapshot":
                    self._resolve_attack(st, {"kind": "shoot", "actor": r.model, "weapon": r.weapon,
                                              "targets": [w["actor"]], "dice": None, "snapshot": True}, None, ev,
                                         then_continue=False)
                else:
                    self._pursue(st, r.model, w["actor"], ev)
                if st.models[r.model].on_table:
                    self._gain(st, r.model, "stunned", ev)
            if st.phase != "over":
                self._continue(st, ev)
        elif kind in ("shoot", "strike"):
            if r is not None and r.reaction == "action_roll":
                st.window = {"kind": "action_roll", "mover": r.model, "resume": w,
                             "allowance": self._move_allowance(st, r.model, ev)}
                st.phase = "move"
                return
            self._resolve_attack(st, w, r, ev)
        else:
            self._resolve_psi(st, w, r, ev)

    def _pursue(self, st, r, target, ev):
        """Pursuit: move as a Move action toward the disengaging model, back into base contact if
        any contact point is within the move, else as far along the shortest path as it goes."""
        allowance = self._move_allowance(st, r, ev) * MM
        pts = self._contact_moves_to(st, r, target, allowance)
        if pts:
            self._place(st, r, pts[0].x, pts[0].y)
            ev.append(Event(f"{self.names[r]} pursues {self.names[target]} into contact", "move"))
            return
        m, t = st.models[r], st.models[target]
        others = self.bases(st, (r,))
        table = self.tbl(st)
        path = table.find_path((m.x, m.y), (t.x, t.y), self.profile[r].base_mm / 2,
                                    [o for o in others if o.id != target])
        if path is None:
            ev.append(Event(f"{self.names[r]} finds no way to pursue", "move"))
            return
        x, y, _ = table.walk(path, allowance, self.profile[r].base_mm / 2, others)
        self._place(st, r, x, y)
        ev.append(Event(f"{self.names[r]} pursues {self.names[target]}", "move"))

    def _contact_moves_to(self, st, mid, e, allowance_mm):
        m, me = st.models[mid], st.models[e]
        r, re_ = self.profile[mid].base_mm / 2, self.profile[e].base_mm / 2
        space = self._move_space(st, mid, allowance_mm)
        base_ang = math.atan2(m.y - me.y, m.x - me.x)
        for k in range(12):
            a = base_ang + (k + 1) // 2 * (0.5 if k % 2 else -0.5)
            c = MoveTo(mid, round(me.x + (r + re_ + 0.3) * math.cos(a), 2), round(me.y + (r + re_ + 0.3) * math.sin(a), 2))
            if space.check(c) is None:
                return [c]
        return []

    # ---------------------------------------------------------------- attacks
    def _attack_check(self, st, attacker, target, kind, weapon, pool=None, snapshot=False):
        """Roll the attack check of one attack; returns (check, damage per success)."""
        a = st.act
        am = st.models[attacker]
        active = a is not None and attacker in a.members
        if kind == "shoot":
            wpn = self.armoury.shooting_weapon(weapon)
            diff, explode = self._shot_params(st, attacker, weapon, target)
            # the Aim is used up by the whole Shoot action (_resolve_attack), not by this check:
            # every share of a split shot is the same instance of the action
            bonus = a.assist.pop(attacker, 0) if active else 0
            ability = self.zap(st, attacker) if pool is None else pool
            ch = ability_check(st.rng, ability, diff, explode_on=explode, bonus_dice=bonus if pool is None else 0,
                               options=self.opt, automatic_zero=conditions.zap_auto_zero(am.conditions))
            return ch, wpn.damage
        if kind == "strike":
            wpn = self.armoury.striking_weapon(weapon)
            diff, explode = self._strike_params(st, attacker, weapon, target)
            bonus = a.dog_pile.pop(target, 0) if active else 0
            ability = self.grit(st, attacker) if pool is None else pool
            ch = ability_check(st.rng, ability, diff, explode_on=explode, bonus_dice=bonus,
                               options=self.opt)
            return ch, wpn.damage
        raise AssertionError(kind)

    def _resolve_attack(self, st, w, reaction, ev, then_continue=True):
        """Shoot / Strike (with split targets) and the simultaneous Return-fire / Counterstrike:
        every attack check first, then every Defense check and damage together."""
        actor, kind = w["actor"], w["kind"]
        am = st.models[actor]
        specs = []
        dice = w.get("dice")
        for i, t in enumerate(w["targets"]):
            if not st.models[t].on_table:
                continue
            if kind == "shoot" and not (self._shootable(st, actor, t, self.armoury.shooting_weapon(w["weapon"]).range,
                                                        snapshot=w.get("snapshot", False))):
                ev.append(Event(f"{self.names[actor]} no longer has a shot at {self.names[t]}", "attack"))
                continue
            specs.append((actor, t, kind, w["weapon"], dice[i] if dice else None))
        if reaction is not None and reaction.reaction in ("return_fire", "counterstrike") and am.on_table:
            specs.append((reaction.model, actor, kind, reaction.weapon, None))
        parry = {reaction.model: self.grit(st, reaction.model)} if reaction is not None and reaction.reaction == "parry" else {}
        rolled = []
        for (att, t, k, wid, pool) in specs:
            ch, dmg = self._attack_check(st, att, t, k, wid, pool, snapshot=w.get("snapshot", False))
            raw = attacks.raw_damage(ch.successes, dmg)
            cov = self.cover(st, att, t) if k == "shoot" else "none"
            verb = "shoots" if k == "shoot" else "strikes"
            ev.append(Event(f"{self.names[att]} {verb} {self.names[t]} with the {self._wname(k, wid)}: {ch.describe()} "
                            f"→ {raw} raw damage", "dice", {"dice": list(ch.values)}))
            wpn = self.armoury.shooting_weapon(wid) if k == "shoot" else self.armoury.striking_weapon(wid)
            rolled.append((t, raw, k, cov, ch.successes, wpn))
        # Aim lowers 'the next Zap check' of the activation; a split shot's checks are 'a single
        # instance of the respective action', so every share used it and now it is spent
        a = st.act
        if kind == "shoot" and a is not None and actor in a.aimed and any(s[0] == actor for s in specs):
            a.aimed.remove(actor)
        for (t, raw, k, cov, hits, wpn) in rolled:
            tokens = self._damage(st, t, raw, k, cov, parry.get(t, 0), ev) if raw and st.models[t].on_table else 0
            self._inflict(st, t, wpn.inflicts, hits, tokens, wpn.name, ev)
        if reaction is not None and reaction.reaction in ("return_fire", "counterstrike", "parry", "action_roll"):
            if st.models[reaction.model].on_table:
                self._gain(st, reaction.model, "stunned", ev)
        st.window = None
        self._check_end(st, ev)
        if then_continue and st.phase != "over":
            self._continue(st, ev)

    def _wname(self, kind, wid) -> str:
        if kind == "shoot":
            return self.armoury.shooting_weapon(wid).name
        return self.armoury.striking_weapon(wid).name

    def _damage(self, st, mid, raw, kind, cov, parry_grit, ev) -> int:
        """Defense check and damage tokens; returns the tokens given."""
        m = st.models[mid]
        pool = damage.defense_pool(self.profile[mid].defense, cover=cov, attack=kind, parry_grit=parry_grit,
                                   options=self.opt)
        d = damage.defense_check(st.rng, pool, self.opt)
        tokens = damage.tokens_from(raw, d.successes)
        before = damage.Wounds(m.tokens, m.down, m.stable, m.casualty)
        after = damage.apply_tokens(before, tokens, self.profile[mid].mettle, self.opt)
        self._set_wounds(st, mid, after)
        cv = f", {cov} cover" if cov != "none" and damage.cover_applies(kind, self.opt) else ""
        what = ("a casualty" if after.casualty else "Down" if damage.newly_down(before, after)
                else f"{after.tokens} token(s)")
        ev.append(Event(f"{self.names[mid]} Defense {d.describe()}{cv}: {tokens} token(s) — {what}", "damage",
                        {"model": mid, "tokens": tokens, "dice": list(d.values)}))
        return tokens

    def _set_wounds(self, st, mid, w):
        m = st.models[mid]
        was_down = m.down
        m.tokens, m.down, m.stable = w.tokens, w.down, w.stable
        if w.casualty and not m.casualty:
            m.casualty = True
            st.casualties[m.player].append([mid, self.hero(mid)])
            if st.leader[m.player] == mid:
                st.leader_lost[m.player] = True
            if mid in st.veiled:
                st.veiled.remove(mid)
        elif w.down and not was_down:
            m.gain("prone")

    def _gain(self, st, mid, condition, ev) -> bool:
        """``mid`` gains ``condition`` unless an ability makes it immune (said in the log)."""
        ab = abilities.immune_to(self.abilities[mid], condition)
        if ab is not None:
            ev.append(Event(f"{self.names[mid]} is {ab.name}: not {conditions.NAMES[condition]}", "effect"))
            return False
        st.models[mid].gain(condition)
        return True

    def _inflict(self, st, mid, inflicts, successes, tokens, source, ev) -> None:
        """A weapon's or enigma's own rule: the condition after the damage (``data.Inflicts``)."""
        if inflicts is None or not st.models[mid].on_table:
            return
        if (successes if inflicts.when == "hit" else tokens) <= 0:
            return
        if st.models[mid].has(inflicts.condition):
            return
        if self._gain(st, mid, inflicts.condition, ev):
            ev.append(Event(f"The {source} leaves {self.names[mid]} {conditions.NAMES[inflicts.condition]}",
                            "effect", {"model": mid, "condition": inflicts.condition}))

    def _shot_params(self, st, mid, wid, target) -> tuple[int, int]:
        """(difficulty, explode-on) of ``mid`` shooting ``target`` with weapon ``wid`` now."""
        a = st.act
        am, tm = st.models[mid], st.models[target]
        aimed = a is not None and mid in a.members and mid in a.aimed
        diff = attacks.shoot_difficulty(self.dist(st, mid, target), aimed=aimed, target_marked=tm.has("marked"),
                                        shooter_panicked=am.has("panic"),
                                        long_difficulty=abilities.long_shot_difficulty(self.abilities[mid]),
                                        options=self.opt)
        return diff, self.armoury.shooting_weapon(wid).explode_on

    def _strike_params(self, st, mid, wid, target) -> tuple[int, int]:
        """(difficulty, explode-on) of ``mid`` striking ``target`` with weapon ``wid`` now."""
        am, tm = st.models[mid], st.models[target]
        diff = attacks.grit_difficulty(self.grit(st, mid), self.grit(st, target), target_down=tm.down,
                                       attacker_prone=am.has("prone"), target_prone=tm.has("prone") or tm.down,
                                       attacker_panicked=am.has("panic"), options=self.opt)
        return diff, abilities.strike_explode_on(self.armoury.striking_weapon(wid).explode_on, self.abilities[mid])

    def _knack(self, st, mid):
        bonus = st.act.boost.pop(mid, 0) if st.act is not None else 0
        return ability_check(st.rng, self.profile[mid].knack, self.opt.knack_difficulty, bonus_dice=bonus,
                             options=self.opt)

    def _skill(self, st, mid, action, target, ev):
        ch = self._knack(st, mid)
        t = st.models[target]
        before = damage.Wounds(t.tokens, t.down, t.stable)
        if damage.can_heal(action, self.gear_kinds(mid), self.profile[target].kind) and t.tokens >= 1:
            after = damage.heal(before, ch.successes, self.profile[target].mettle, self.opt)
            what = "heals"
        else:
            after = damage.stabilize(before, ch.successes)
            what = "stabilises"
        self._set_wounds(st, target, after)
        ev.append(Event(f"{self.names[mid]} {what} {self.names[target]} ({act_mod.ACTIONS[action].name}): "
                        f"{ch.describe()} → {after.tokens} token(s){', Down' if after.down else ''}"
                        f"{', Stable' if after.stable else ''}", "dice"))
        self._continue(st, ev)

    def _throw(self, st, c, ev):
        mid, t = c.model, c.target
        am, tm = st.models[mid], st.models[t]
        diff = attacks.throw_difficulty(self.grit(st, mid), self.grit(st, t), target_down=tm.down,
                                        attacker_prone=am.has("prone"), target_prone=tm.has("prone") or tm.down,
                                        attacker_panicked=am.has("panic"), options=self.opt)
        ch = ability_check(st.rng, self.grit(st, mid), diff, options=self.opt)
        ev.append(Event(f"{self.names[mid]} Throws {self.names[t]}: {ch.describe()}", "dice"))
        if ch.success:
            self._straight(st, t, c.heading, attacks.throw_distance(ch.successes), self.profile[mid].size, ev, thrown=True)
        self._check_end(st, ev)
        if st.phase != "over":
            self._continue(st, ev)

    def _resolve_psi(self, st, w, reaction, ev):
        actor = w["actor"]
        en = self.enigma(actor, w["weapon"])
        ability = attacks.psi_ability(self.zap(st, actor), self.grit(st, actor), self.profile[actor].knack, self.opt)
        ch = ability_check(st.rng, ability, en.difficulty, options=self.opt)
        result = ch.successes
        ev.append(Event(f"{self.names[actor]} channels {en.name}: {ch.describe()}", "dice", {"dice": list(ch.values)}))
        if reaction is not None:
            r = reaction.model
            ra = attacks.psi_ability(self.zap(st, r), self.grit(st, r), self.profile[r].knack, self.opt)
            dch = ability_check(st.rng, ra, self.opt.knack_difficulty, options=self.opt)
            cancels = attacks.disperse_cancels(dch.successes, result)
            ev.append(Event(f"{self.names[r]} Disperses: {dch.describe()}" + (" — the enigma fizzles" if cancels else " — not enough"), "dice"))
            if cancels:
                result = 0
            self._gain(st, r, "stunned", ev)
        t = w["targets"][0]
        if result and st.models[t].on_table:
            if en.action == "psi_strike":
                raw = attacks.raw_damage(result, en.damage)
                tokens = self._damage(st, t, raw, "psi", "none", 0, ev) if raw else 0
                self._inflict(st, t, en.inflicts, result, tokens, en.name, ev)
            elif en.craft == "veil":
                if t not in st.veiled:
                    st.veiled.append(t)
                ev.append(Event(f"{self.names[t]} is veiled (light cover until Upkeep)", "effect"))
            else:
                tm = st.models[t]
                after = damage.heal(damage.Wounds(tm.tokens, tm.down, tm.stable), 1, self.profile[t].mettle, self.opt)
                self._set_wounds(st, t, after)
                ev.append(Event(f"{self.names[t]} loses a damage token ({after.tokens} left)", "effect"))
        st.window = None
        self._check_end(st, ev)
        if st.phase != "over":
            self._continue(st, ev)

    def _rally(self, st, mid, ev):
        out = panic.rally(st.rng, self.profile[mid].knack, self.opt)
        m = st.models[mid]
        if out.clears_panic:
            m.lose("panic")
            ev.append(Event(f"{self.names[mid]} Rallies: {out.check.describe()} — no longer Panicked", "dice"))
        elif out.may_continue:
            ev.append(Event(f"{self.names[mid]} Rallies: {out.check.describe()} — still Panicked, but acts on", "dice"))
        else:
            ev.append(Event(f"{self.names[mid]} fails to Rally: {out.check.describe()} — flees toward the evac point", "dice"))
            before = self.engagers(st, mid)
            moved = self._flee(st, mid, ev)
            m.gain("spent")
            st.act.members.remove(mid)
            if mid in st.act.to_resolve:
                st.act.to_resolve.remove(mid)
            if moved:
                # the flight is a Move action: it draws the reactions any Move draws (Snapshot,
                # Pursuit); the activation then goes on without the model (_continue)
                self._after_maneuver(st, mid, before, ev)
                return
        self._continue(st, ev)

    def _flee(self, st, mid, ev) -> bool:
        """A failed Rally's Move toward the crew's evac point by the shortest route. Returns
        whether a Move action was made (False only when the crew has no evac point)."""
        p = st.models[mid].player
        if p not in self.evac:
            return False
        m = st.models[mid]
        r = self.profile[mid].base_mm / 2
        allowance = self._move_allowance(st, mid, ev) * MM
        others = self.bases(st, (mid,))
        near = [o for o in others if math.hypot(o.x - m.x, o.y - m.y) <= allowance + 2 * r + o.radius + 1]
        ex, ey = self.evac[p]
        table = self.tbl(st)
        ex = min(max(ex, r), table.width - r)
        ey = min(max(ey, r), table.height - r)
        path = table.find_path((m.x, m.y), (ex, ey), r, near)
        if path is None:
            ev.append(Event(f"{self.names[mid]} finds no way toward the evac point", "move"))
            return True
        x, y, _ = table.walk(path, allowance, r, others)
        self._place(st, mid, x, y)
        ev.append(Event(f"{self.names[mid]} moves toward the evac point", "move", {"model": mid, "to": [x, y]}))
        return True

    # ---------------------------------------------------------------- activation flow
    def _continue(self, st, ev):
        """After an action: drop Down members, finish a group step, end the activation when no
        action is left."""
        if st.phase == "over":
            return
        a = st.act
        st.phase = "act"
        for mid in list(a.members):
            m = st.models[mid]
            if not m.on_table or m.down:
                a.members.remove(mid)
                if mid in a.to_resolve:
                    a.to_resolve.remove(mid)
        if a.group and a.step and not a.to_resolve:
            a.step = ""
        if not a.members:
            self._end_activation(st, ev)
            return
        if a.group and a.step:
            return
        if not self._can_pay_action(st):
            self._end_activation(st, ev)

    def _end_activation(self, st, ev):
        st.act = None
        if not self._check_end(st, ev):
            self._start_activation_phase(st, ev)

    def _check_end(self, st, ev) -> bool:
        if st.phase == "over":
            return True
        alive = [p for p in (1, 2) if self.on_table(st, p)]
        if len(alive) <= 1:
            ev.append(Event("Only one crew is left on the table", "end"))
            self._finish(st, ev)
            return True
        return False

    # ---------------------------------------------------------------- upkeep, panic, end
    def _upkeep(self, st, ev):
        ev.append(Event(f"Upkeep, turn {st.turn}", "phase"))
        for mid in st.order:
            m = st.models[mid]
            if m.on_table and m.has("burning"):
                self._burn(st, mid, ev)
        for mid in st.order:
            m = st.models[mid]
            if not m.on_table:
                continue
            m.conditions = sorted(conditions.upkeep(m.conditions))
            if m.down:
                w = damage.upkeep(damage.Wounds(m.tokens, m.down, m.stable))
                if w.casualty:
                    ev.append(Event(f"{self.names[mid]} was Down and not Stable: removed as a casualty", "damage"))
                self._set_wounds(st, mid, w)
        st.veiled = []
        st.act = None
        st.phase = "dread"
        if self._check_end(st, ev):
            return
        st.queue = [p for p in (1, 2) if st.dread[p] > 0 and st.moxie[p] > 0 and self._leader_up(st, p)]
        if not st.queue:
            self._panic_phase(st, ev)

    def _burn(self, st, mid, ev):
        """Burning: 3 raw damage (Prone +3D Defense, no cover); tokens -> Knack/7 or Panicked;
        no tokens -> the model stops burning."""
        m = st.models[mid]
        pool = damage.burning_defense_pool(self.profile[mid].defense, m.has("prone") or m.down, self.opt)
        d = damage.defense_check(st.rng, pool, self.opt)
        out = damage.burning(d.successes, self.opt)
        w = damage.apply_tokens(damage.Wounds(m.tokens, m.down, m.stable), out.tokens, self.profile[mid].mettle, self.opt)
        self._set_wounds(st, mid, w)
        text = f"{self.names[mid]} burns: Defense {d.describe()} — {out.tokens} token(s)"
        if out.stops_burning:
            m.lose("burning")
            text += ", the flames go out"
        elif out.panic_test and m.on_table:
            ch = ability_check(st.rng, self.profile[mid].knack, self.opt.knack_difficulty, options=self.opt)
            text += f"; Knack {ch.describe()}"
            if ch.failed:
                text += " — Panicked" if self._gain(st, mid, "panic", ev) else " — would panic"
        ev.append(Event(text, "damage"))

    def _leader_up(self, st, p) -> bool:
        lm = st.models[st.leader[p]]
        return lm.on_table and not lm.down

    def _panic_phase(self, st, ev):
        for p in (1, 2):
            cas = st.casualties[p]
            downed = sum(1 for i in self.on_table(st, p) if st.models[i].down)
            gain = panic.dread_gain(downed, len(cas), sum(1 for _, h in cas if h), self.opt)
            st.dread[p] += gain
            n = len(self.on_table(st, p))
            text = f"Player {p}: Dread +{gain} = {st.dread[p]} ({n} models on the table)"
            if panic.panic_test_required(st.dread[p], n):
                fails = []
                for mid in self.on_table(st, p):
                    m = st.models[mid]
                    if m.has("panic"):
                        continue
                    ch = panic.panic_test(st.rng, self.profile[mid].knack, self.opt)
                    if ch.failed and self._gain(st, mid, "panic", ev):
                        fails.append(self.names[mid])
                text += "; Panic tests: " + (", ".join(fails) + " Panicked" if fails else "all hold")
            ev.append(Event(text, "panic"))
        for p in (1, 2):
            if self._leader_up(st, p) and not st.models[st.leader[p]].has("panic"):
                st.held[p] += 1
        if st.turn >= self.opt.turns:
            self._finish(st, ev)
            return
        st.turn += 1
        self._start_turn(st, ev)

    def scores(self, st) -> dict:
        out = {}
        units = {p: self._objective_units(st, p) for p in (1, 2)}
        obj = scoring.objective_scores(self.mission, units)
        for p in (1, 2):
            remaining = scoring.points_remaining(
                scoring.ModelStanding(self.profile[i].points, st.models[i].on_table, st.models[i].down,
                                      st.models[i].has("panic")) for i in st.order if st.models[i].player == p)
            basis = self.crews[p].points if self.opt.battle_score_basis == "crew" else None
            battle = scoring.battle_score(remaining, basis, self.opt)
            out[p] = {"remaining": remaining, "battle": battle, "objective": obj[p],
                      "mission": scoring.mission_score(obj[p], battle), "units": units[p]}
        return out

    def _objective_units(self, st, p) -> dict:
        u = {}
        for o in self.mission.objectives:
            if o.kind == "control_markers":
                n = 0
                for mk, (x, y) in self.markers.items():
                    if o.markers and mk not in o.markers:
                        continue
                    counts = {q: sum(1 for i in self.on_table(st, q) if not st.models[i].down and
                                     self.table.distance_to_point(self.base(st.models[i]), x, y) <= o.range * MM)
                              for q in (1, 2)}
                    n += scoring.marker_controller(counts) == p
                u[o.id] = n
            elif o.kind == "hack_markers":
                u[o.id] = len(st.hacked[p])
            elif o.kind == "eliminate_leader":
                q = 3 - p
                lm = st.models[st.leader[q]]
                u[o.id] = int(st.leader_lost[q] or not lm.on_table or lm.down)
            elif o.kind == "protect_leader":
                u[o.id] = st.held[p]
            elif o.kind == "extract":
                if p in self.evac:
                    x, y = self.evac[p]
                    u[o.id] = sum(1 for i in self.on_table(st, p) if self.hero(i) and not st.models[i].down
                                  and self.table.distance_to_point(self.base(st.models[i]), x, y) <= o.range * MM)
                else:
                    u[o.id] = 0
        return u

    def _finish(self, st, ev):
        st.phase = "over"
        st.act = None
        st.window = None
        sc = self.scores(st)
        verdict = scoring.degree_of_victory({p: sc[p]["mission"] for p in (1, 2)}, self.opt)
        st.final = {"scores": sc, "winner": verdict.winner, "margin": verdict.margin, "degree": verdict.degree}
        if verdict.winner is None:
            text = f"The game is a draw ({sc[1]['mission']}–{sc[2]['mission']})"
        else:
            text = (f"Player {verdict.winner} wins a {verdict.degree.capitalize()} Victory by {verdict.margin} "
                    f"({sc[1]['mission']}–{sc[2]['mission']})")
        ev.append(Event(text, "end", {"scores": {p: sc[p]["mission"] for p in (1, 2)}}))

    def result(self, st) -> Result | None:
        if st.phase != "over" or st.final is None:
            return None
        f = st.final
        sc = f["scores"]
        reason = (f"{f['degree']} victory by {f['margin']}" if f["winner"] else "draw") + \
                 f" (mission scores {sc[1]['mission']}–{sc[2]['mission']}, {self.mission.name})"
        return Result(f["winner"], reason, {p: sc[p]["mission"] for p in (1, 2)})

    # ---------------------------------------------------------------- view and words
    def view(self, st, player) -> dict:
        return {
            "ruleset": self.id, "turn": st.turn, "phase": st.phase, "active": st.active,
            "mission": self.mission.id, "moxie": dict(st.moxie), "dread": dict(st.dread),
            "leader": dict(st.leader), "passed": list(st.passed),
            "models": {i: {"name": self.names[i], "player": m.player, "x": m.x, "y": m.y, "z": m.z,
                           "tokens": m.tokens, "down": m.down, "stable": m.stable, "casualty": m.casualty,
                           "conditions": list(m.conditions)} for i, m in st.models.items()},
            "activation": None if st.act is None else {"player": st.act.player, "members": list(st.act.members),
                                                       "actions_left": st.act.actions_left, "step": st.act.step},
            "opened_doors": list(st.opened),
            "final": st.final,
            "pieces": [self._piece(st, st.models[i]) for i in st.order],
        }

    def _profile_lines(self, mid: str) -> list[str]:
        """A model's profile in words: static, so worded once per game set-up."""
        cache = self.__dict__.setdefault("_profile_words", {})
        if mid not in cache:
            p = self.profile[mid]
            prof = [f"{p.role} {p.kind}, size {p.size}, {p.base_mm} mm base",
                    f"Move {p.move}  Zap {p.zap}  Grit {p.grit}  Defense {p.defense}  Knack {p.knack}  Mettle {p.mettle}"]
            if p.shooting:
                prof.append("shoots: " + ", ".join(self._wname("shoot", w) for w in p.shooting))
            if p.striking:
                prof.append("strikes: " + ", ".join(self._wname("strike", w) for w in p.striking))
            if p.special:
                prof.append("abilities: " + ", ".join(p.special))
            cache[mid] = prof
        return cache[mid]

    def _piece(self, st, m) -> dict:
        """The model in the shared shape of ``engine.core.board`` (what the client draws)."""
        p, b = self.profile[m.id], self.base(m)
        marks = [f"{m.tokens} damage" if m.tokens else ""] + (["Down"] if m.down else []) \
            + (["Stable"] if m.stable else []) + [c.capitalize() for c in m.conditions]
        if st.leader.get(m.player) == m.id:
            marks.append("Leader")
        prof = self._profile_lines(m.id)
        active = st.act is not None and m.id in st.act.members
        return piece(m.id, m.player, self.names[m.id], m.x, m.y, m.z, b.radius, b.height,
                     out=not m.on_table, health=f"{m.tokens} tokens / Mettle {p.mettle}",
                     markers=[x for x in marks if x], active=active, profile=prof)

    def describe_choice(self, st, c) -> str:
        N = self.names.get
        if isinstance(c, KeepLeader):
            return "keep the leader"
        if isinstance(c, ElectLeader):
            return f"elect {N(c.model)} as leader (1 Moxie)"
        if isinstance(c, ActivateSingle):
            return f"activate {N(c.model)} (1 Moxie)"
        if isinstance(c, ActivateGroup):
            return f"activate the group {', '.join(N(i) for i in c.models)} (2 Moxie)"
        if isinstance(c, PassTurn):
            return "pass the turn"
        if isinstance(c, EndActivation):
            return "end the activation"
        if isinstance(c, GroupAction):
            return f"the group uses {act_mod.ACTIONS[c.action].name}"
        if isinstance(c, MoveTo):
            m = st.models.get(c.model)
            d = math.hypot(c.x - m.x, c.y - m.y) / MM if m else 0
            return f"{N(c.model)} moves {d:.1f}\""
        if isinstance(c, Shoot):
            return self._describe_shot(st, c.model, c.weapon, c.target)
        if isinstance(c, (SplitShoot, SplitStrike)):
            kind = "shoot" if isinstance(c, SplitShoot) else "strike"
            return (f"{N(c.model)} splits {sum(c.dice)} dice with the {self._wname(kind, c.weapon)} between "
                    + " and ".join(f"{N(t)} ({d})" for t, d in zip(c.targets, c.dice)))
        if isinstance(c, Strike):
            return self._describe_strike(st, c.model, c.weapon, c.target)
        if isinstance(c, MoveD5):
            return f"{N(c.model)} moves a d5 (Half-blind)"
        if isinstance(c, Jump):
            return f"{N(c.model)} jumps a d5 toward {c.heading}°"
        if isinstance(c, Throw):
            return f"{N(c.model)} throws {N(c.target)} toward {c.heading}°"
        if isinstance(c, React):
            w = f" with the {self._wname('shoot' if c.reaction in ('return_fire', 'snapshot') else 'strike', c.weapon)}" if c.weapon else ""
            return f"{N(c.model)}: {act_mod.ACTIONS[c.reaction].name}{w} (1 Moxie)"
        if isinstance(c, NoReaction):
            return "no reaction"
        if isinstance(c, DropProne):
            return f"{N(c.model)} {'drops Prone' if c.prone else 'stays on its feet'}"
        if isinstance(c, ReduceDread):
            return f"spend {c.moxie} Moxie to reduce Dread by {c.moxie}"
        simple = {GoProne: "drops Prone", StandUp: "stands up", Rush: "Rushes (d10)", Stay: "stays put",
                  Aim: "Aims", Recover: "Recovers", Rally: "Rallies (Knack/7)", DoNothing: "does nothing"}
        if type(c) in simple:
            return f"{N(c.model)} {simple[type(c)]}"
        if isinstance(c, (Treat, Engineer)):
            return f"{N(c.model)} uses {type(c).__name__} on {N(c.target)} (Knack/7)"
        if isinstance(c, HackMark):
            return f"{N(c.model)} hacks {N(c.target)} with a scanner to Mark it (Knack/7)"
        if isinstance(c, HackTerminal):
            return f"{N(c.model)} hacks the terminal {c.marker} (Knack/7)"
        if isinstance(c, HackDoor):
            return f"{N(c.model)} hacks the {self.table.piece(c.door).label} open (Knack/7)"
        if isinstance(c, (PsiStrike, PsiCraft)):
            return f"{N(c.model)} channels {self.enigma(c.model, c.enigma).name} at {N(c.target)}"
        if isinstance(c, AimAssist):
            return f"{N(c.model)} Aim-Assists {N(c.friend)} (+1D Zap)"
        if isinstance(c, Boost):
            return f"{N(c.model)} Boosts {N(c.friend)} (+1D Knack)"
        if isinstance(c, DogPile):
            return f"{N(c.model)} Dog-piles {N(c.target)} (+1D to the next Strike on it)"
        return c.describe()

    def attack_odds(self, st, c, player):
        """Exact odds of a Shoot, Strike, split attack, Return fire, Snapshot or Counterstrike
        (``attack_odds.attack_odds``); None for any other choice."""
        from . import attack_odds as _attack_odds
        return _attack_odds.attack_odds(self, st, c, player)

    def _pronoun(self, mid):
        return "it" if self.profile[mid].kind == "robot" else "them"

    def _describe_shot(self, st, mid, wid, target) -> str:
        wpn = self.armoury.shooting_weapon(wid)
        a = st.act
        am, tm = st.models[mid], st.models[target]
        diff, explode = self._shot_params(st, mid, wid, target)
        bonus = a.assist.get(mid, 0) if a is not None else 0
        dice = 0 if conditions.zap_auto_zero(am.conditions) else attacks.pool_size(self.zap(st, mid), bonus, self.opt)
        cov = self.cover(st, mid, target)
        ddice = damage.defense_pool(self.profile[target].defense, cover=cov, attack="shoot", options=self.opt)
        p = _attack_chance(dice, diff, wpn.damage, explode, ddice, self.profile[target].mettle,
                           tm.tokens, tm.down)
        goal = "finish " + self._pronoun(target) if tm.down else "put " + self._pronoun(target) + " Down"
        cv = f", {cov} cover" if cov != "none" else ""
        return (f"{self.names[mid]} shoots {self.names[target]} with the {wpn.name} "
                f"(difficulty {diff}{cv}, {p:.0%} to {goal}{self._inflict_odds(wpn.inflicts, dice, diff, explode, tm)})")

    def _describe_strike(self, st, mid, wid, target) -> str:
        wpn = self.armoury.striking_weapon(wid)
        tm = st.models[target]
        diff, explode = self._strike_params(st, mid, wid, target)
        bonus = st.act.dog_pile.get(target, 0) if st.act is not None else 0
        dice = attacks.pool_size(self.grit(st, mid), bonus, self.opt)
        ddice = damage.defense_pool(self.profile[target].defense, attack="strike", options=self.opt)
        p = _attack_chance(dice, diff, wpn.damage, explode, ddice, self.profile[target].mettle,
                           tm.tokens, tm.down)
        goal = "finish " + self._pronoun(target) if tm.down else "put " + self._pronoun(target) + " Down"
        return (f"{self.names[mid]} strikes {self.names[target]} with the {wpn.name} "
                f"(difficulty {diff}, {p:.0%} to {goal}{self._inflict_odds(wpn.inflicts, dice, diff, explode, tm)})")

    def _inflict_odds(self, inflicts, dice, diff, explode, tm) -> str:
        """", 61% to leave it Burning" for a weapon whose rule triggers on a hit (tokens: not shown)."""
        if inflicts is None or inflicts.when != "hit" or tm.has(inflicts.condition):
            return ""
        p_hit = 1.0 - _check_floats(dice, diff, explode)[0] if dice else 0.0
        return f", {p_hit:.0%} to leave {self._pronoun(tm.id)} {conditions.NAMES[inflicts.condition]}"


# ------------------------------------------------------------------------------------ helpers

def _inside(pts, x, y) -> bool:
    inside = False
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


_KINDS = {MoveTo: "move", GoProne: "move", StandUp: "move", Rush: "rush", Jump: "jump", Aim: "aim",
          Shoot: "shoot", SplitShoot: "shoot", Strike: "strike", SplitStrike: "strike", MoveD5: "move", Throw: "throw", PsiStrike: "psi_strike",
          PsiCraft: "psi_craft", Treat: "treat", Engineer: "engineer", HackMark: "hack", HackTerminal: "hack", HackDoor: "hack",
          Recover: "recover", Rally: "rally", AimAssist: "aim_assist", Boost: "boost", DogPile: "dog_pile",
          DoNothing: "do_nothing"}


def _kind_of(c) -> str | None:
    t = c if isinstance(c, type) else type(c)
    return _KINDS.get(t)
