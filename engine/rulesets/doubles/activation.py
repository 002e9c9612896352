"""Doubles: the turn and the activations (interpretations 21, 22, 26).

Each turn every fighter in play goes on the initiative track and gets its action points (less
any lost to intimidation), a fighter low on ammunition tests for a double, and paths restart.
Fighters then activate from the top of the track down, whichever side they belong to, and spend
their AP one action at a time: move or charge, stand up, pick up a dropped weapon, disengage, or
the attacks of ``attacks.py``, until they end the activation or have nothing left to do. The
turn ends when all have activated, and the game at the turn limit or when a side is wiped out
(``turn.victory``). ``ActivationMixin`` gives ``DoublesRules`` this flow.
"""
from __future__ import annotations

import math
from dataclasses import replace

from engine.core import Choice, Decision, Event
from engine.rulesets.common import MoveSpace, MoveTo

from . import shooting as sh
from . import turn as tn
from .choices import EndActivation, MeleeAttack, PickUp, RulesError, Shoot, ShootAt, StandUp, TakeRelic
from .spaces import DisengageSpace, _CachedMoveSpace
from .state import BASE_RADIUS_MM, DoublesState, FighterState
from .views import _cap


class ActivationMixin:
    """Turns, activations and the actions that are not attacks (part of ``DoublesRules``)."""

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

    def _end_turn(self, st: DoublesState, ev: list) -> None:
        for f in st.fighters.values():
            f.status = tn.end_of_turn(f.status)
        if st.mission is not None:              # a mission's scoring (missions.py)
            self._mission_end_of_turn(st, ev)
        v = self._victory(st, turn_over=True)
        ev.append(Event(f"End of turn {st.turn}", "turn"))
        if v.over:
            self._finish(st, v, ev)
            return
        st.turn += 1
        self._start_turn(st, ev)

    def _victory(self, st, turn_over: bool) -> tn.Victory:
        sides = {s: [tn.FighterTally(self.victory_values[(f.side, f.fid)], f.out) for f in st.fighters.values() if f.side == s]
                 for s in (1, 2)}
        v = tn.victory(sides, turn=st.turn, turn_over=turn_over, options=self.opts)
        return v if st.mission is None else self._mission_victory(st, v)

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
        key = (f.ap, bool(self.engaged_with(st, f)), f.on_ground, f.status.shots_taken, c.throw > 0, f.ammo_blocked)
        # allowed_actions is a pure function of these and the (fixed) options: a handful of answers
        memo = self.__dict__.setdefault("_allowed_memo", {})
        a = memo.get(key)
        if a is None:
            a = memo[key] = tn.allowed_actions(ap_left=key[0], engaged=key[1], on_ground=key[2], shots_taken=key[3],
                                               can_throw=key[4], low_ammunition_blocked=key[5], options=self.opts)
        return a

    def _has_actions(self, st, f) -> bool:
        return any(a != "end_activation" for a in self._allowed(st, f)) or bool(self._pick_up_options(st, f)) \
            or (st.mission is not None and bool(self._relic_options(st, f)))

    def _pick_up_options(self, st, f: FighterState) -> list[PickUp]:
        """(thrown_weapon="dropped") a weapon of its warband lying within the engagement distance
        of the fighter's base edge, if it is standing, unengaged and has the AP."""
        if (self.opts.thrown_weapon != "dropped" or not st.dropped or f.on_ground
                or f.ap < self.opts.pick_up_cost_ap or self.engaged_with(st, f)):
            return []
        reach = BASE_RADIUS_MM + self.opts.engagement_distance_cm * 10.0 + 1e-6
        return list(dict.fromkeys(PickUp(f.key, w, x, y) for side, w, x, y in st.dropped
                                  if side == f.side and math.hypot(x - f.x, y - f.y) <= reach))

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

    def _action_decision(self, st: DoublesState) -> Decision:
        """The acting fighter's next action: every action ``turn.allowed_actions`` allows it now."""
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
        if st.mission is not None:
            opts += self._relic_options(st, f)
        if "move" in allowed:
            space = self._move_space(st, f)
            opts += self._charge_options(st, f, space)
            spaces.append(space)
        if "disengage" in allowed:
            spaces.append(self._disengage_space(st, f))
        opts.append(EndActivation(f.key))
        return Decision(f.side, "action", f"{f.name} has {f.ap} AP: choose an action", tuple(opts), tuple(spaces))

    # ------------------------------------------------------------ apply an action
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
        elif isinstance(c, TakeRelic):
            self._take_relic(st, f, c, ev)
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
