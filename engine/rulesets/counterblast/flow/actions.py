"""Actions: what a model (or a group step) may do now, listed as options and spaces (Move, Rush,
Jump, Aim, Shoot and split shots, Strike, Throw, Psi, Treat, Engineer, Hack, Recover, Rally, the
team actions), and the resolution of the chosen action. Movement, attacks, reactions and the
Rally have their own modules; this one dispatches to them.
"""
from __future__ import annotations

from itertools import combinations, islice

from engine.core import Event
from engine.core.protocol import ChoiceSpace
from engine.core.rolls import roll_record, with_rolls
from engine.rulesets.common import MoveSpace, MoveTo

from .. import actions as act_mod
from .. import attacks, conditions, damage, movement
from ..checks import ability_check
from ..choices import (
    Aim,
    AimAssist,
    Boost,
    DogPile,
    DoNothing,
    EndActivation,
    Engineer,
    GoProne,
    GroupAction,
    HackDoor,
    HackMark,
    HackTerminal,
    Jump,
    MoveD5,
    PsiCraft,
    PsiStrike,
    Rally,
    Recover,
    Rush,
    Shoot,
    SplitShoot,
    SplitStrike,
    StandUp,
    Strike,
    Throw,
    Treat,
)
from .common import CONTACT_MM, MM, TEAM_FOR, _kind_of


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
            targets, dice = tuple(c.targets), tuple(c.dice)
        except TypeError:
            return "targets and dice must be lists"
        if any(type(d) is not int for d in dice):   # never int(): 1.5, "2" and True are not shares
            return "every share of dice is a whole number"
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


class ActionRules:
    """The actions a model may take now, and what each one does when taken."""

    def _action_options(self, st):
        # listing reads the state only: its sight table is looked up once (``_sight_table``)
        self._listing = (st, self._sight_table(st))
        try:
            return self._list_actions(st)
        finally:
            self._listing = None

    def _list_actions(self, st):
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
                    o, s = self._model_actions(st, mid, skip=frozenset(kinds), kinds_only=True)
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

    def _model_actions(self, st, mid, only: str | None = None, skip=frozenset(), kinds_only=False):
        """The actions model ``mid`` may use now (enumerated choices and move spaces); ``only``
        keeps one kind of action, ``skip`` leaves kinds out (a group already knows it can use them).
        ``kinds_only``: the caller wants only which kinds of action are open (a group's choice of
        action), so each kind stops at its first option (one target, no split offers, no charge
        points: the move space already opens Move)."""
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
        first = 1 if kinds_only else None      # islice bound: the first of each kind, or all
        # maneuvers
        if ok("move"):
            if m.has("prone"):
                opts.append(StandUp(mid))
            else:
                opts.append(GoProne(mid))
            if m.has("half_blind"):
                opts.append(MoveD5(mid))
            else:
                spaces += self._move_spaces(st, mid, self.move_in(st, mid) * MM)
                if not kinds_only:
                    opts += self._contact_moves(st, mid, self.move_in(st, mid) * MM)
        if ok("rush") and movement.can_rush(used, conds)[0]:
            opts.append(Rush(mid))
        if ok("jump") and movement.can_jump(used, conds)[0]:
            js = self._jump_space(st, mid)
            if js.any_legal():
                spaces.append(js)
                if not kinds_only:
                    opts += js.shortcuts()
        # combat
        if ok("aim") and self.profile[mid].shooting and "aim" not in used:
            opts.append(Aim(mid))
        if ok("shoot") and not engaged:
            for w in self.profile[mid].shooting:
                wpn = self.armoury.shooting_weapon(w)
                ts = list(islice((e for e in enemies if self._shootable(st, mid, e, wpn.range)), first))
                opts += [Shoot(mid, w, e) for e in ts]
                n = 0 if kinds_only else self._zap_pool(st, mid)
                if n >= 2 and len(ts) >= 2:
                    ts = sorted(ts, key=lambda e: (self.dist(st, mid, e), e))
                    opts += [SplitShoot(mid, w, tt, dd) for tt, dd in split_offers(ts, n, self.opt.split_offer_targets)]
                    spaces.append(SplitSpace(SplitShoot, mid, w, ts, n))
        if ok("strike"):
            for w in self.profile[mid].striking:
                wpn = self.armoury.striking_weapon(w)
                ts = list(islice((e for e in enemies if self.within(st, mid, e, wpn.reach)
                                  and self.valid_target(st, mid, e)), first))
                opts += [Strike(mid, w, e) for e in ts]
                n = 0 if kinds_only else attacks.pool_size(self.grit(st, mid), 0, self.opt)
                if n >= 2 and len(ts) >= 2:
                    ts = sorted(ts, key=lambda e: (self.dist(st, mid, e), e))
                    opts += [SplitStrike(mid, w, tt, dd) for tt, dd in split_offers(ts, n, self.opt.split_offer_targets)]
                    spaces.append(SplitSpace(SplitStrike, mid, w, ts, n))
        if ok("throw"):
            for e in enemies:
                if (attacks.can_throw(self.profile[mid].size, self.profile[e].size)
                        and self.within(st, mid, e, self.opt.throw_range) and self.valid_target(st, mid, e)):
                    opts.append(Throw(mid, e))
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
                        if self.within(st, mid, f, 1) and self._skill_useful(st, mid, action, f) \
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
                for door in self.doors:
                    if door not in st.opened and \
                            self._door_distance(st, m, door) <= self.opt.hack_door_reach * MM + CONTACT_MM:
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

    def _door_distance(self, st, m, door) -> float:
        """``tbl(st).distance_to_piece(base(m), door)``, cached: it depends on the table (the
        doors opened), the base's centre and radius only, all in the key."""
        key = (tuple(st.opened), door, m.x, m.y, self.profile[m.id].base_mm)
        cache = self.__dict__.setdefault("_door_distances", {})
        d = cache.get(key)
        if d is None:
            if len(cache) > 4096:
                cache.clear()
            d = cache[key] = self.tbl(st).distance_to_piece(self.base(m), door)
        return d

    def _zap_pool(self, st, mid) -> int:
        if conditions.zap_auto_zero(st.models[mid].conditions):
            return 0
        from ..checks import pool_size
        return pool_size(self.zap(st, mid), st.act.assist.get(mid, 0), self.opt)

    def _shootable(self, st, mid, e, rng_in, snapshot=False) -> bool:
        return (self.within(st, mid, e, rng_in) and self.valid_target(st, mid, e)
                and act_mod.shoot_target_allowed(self.in_melee_with_friend(st, mid, e), snapshot=snapshot))

    def _skill_useful(self, st, mid, action, f) -> bool:
        t = st.models[f]
        return damage.skill_useful(action, self.gear_kinds(mid), self.profile[f].kind, t.down, t.stable, t.tokens)

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
        # Engaged models may not Aim-Assist or Boost (Dog-pile they may): the rule lives in actions.py
        if not act_mod.engaged_allows(team) and self.engaged(st, mid):
            return []
        out = []
        if team == "aim_assist" and attacks.can_assist(self.zap(st, mid)):
            out = [AimAssist(mid, f) for f in st.act.to_resolve
                   if f != mid and self.within(st, mid, f, 1) and self.seen(st, mid, f) > 0]
        elif team == "boost" and attacks.can_assist(self.profile[mid].knack):
            out = [Boost(mid, f) for f in st.act.to_resolve
                   if f != mid and self.within(st, mid, f, 1) and self.seen(st, mid, f) > 0]
        elif team == "dog_pile" and attacks.can_assist(self.grit(st, mid)):
            reach = max((self.armoury.striking_weapon(w).reach for w in self.profile[mid].striking), default=None)
            if reach is not None:
                out = [DogPile(mid, e) for e in self.enemies(st, mid)
                       if self.within(st, mid, e, reach) and self.valid_target(st, mid, e)]
        return out

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
            self._end_prone(st, mid, c, ev)
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
            ev.append(Event(f"{n} Rushes: d10 = {d}\"", "dice",
                            with_rolls({"dice": [d]}, roll_record(f"{n}: Rush", 10, [d], result=f'{d}"', player=m.player))))
            st.window = {"kind": "rush", "mover": mid, "allowance": float(d), "before": self.engagers(st, mid)}
            st.phase = "move"
        elif isinstance(c, Jump):
            before = self.engagers(st, mid)
            d = movement.jump_distance(st.rng, self.opt)
            ev.append(Event(f"{n} Jumps {d}\" (d5)", "dice",
                            with_rolls({"dice": [d]}, roll_record(f"{n}: Jump", 5, [d], result=f'{d}"', player=m.player))))
            self._straight(st, mid, float(c.heading), d, self.profile[mid].size, ev)
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
                            f"{'Marked' if ch.success else 'no lock'}", "dice",
                            with_rolls({}, ch.record(f"{n}: Hack", m.player))))
            self._continue(st, ev)
        elif isinstance(c, HackDoor):
            ch = self._knack(st, mid)
            label = self.table.piece(c.door).label
            if ch.success:
                st.opened = sorted(set(st.opened) | {c.door})
            ev.append(Event(f"{n} Hacks the {label}: {ch.describe()} — "
                            f"{'it slides open' if ch.success else 'still locked'}", "dice",
                            with_rolls({"door": c.door, "opened": ch.success}, ch.record(f"{n}: Hack", m.player))))
            self._continue(st, ev)
        elif isinstance(c, HackTerminal):
            ch = self._knack(st, mid)
            if ch.success and c.marker not in st.hacked[m.player]:
                st.hacked[m.player].append(c.marker)
            ev.append(Event(f"{n} Hacks the terminal {c.marker}: {ch.describe()} — "
                            f"{'cracked' if ch.success else 'locked out'}", "dice",
                            with_rolls({}, ch.record(f"{n}: Hack", m.player))))
            self._continue(st, ev)
        elif isinstance(c, Recover):
            ch = None
            if any(m.has(c) for c in conditions.RECOVER_CHECK):
                ch = ability_check(st.rng, self.profile[mid].knack, self.opt.knack_difficulty, options=self.opt)
            before = set(m.conditions)
            m.conditions = sorted(conditions.recover(m.conditions, ch.successes if ch else None))
            gone = ", ".join(conditions.NAMES[c] for c in sorted(before - set(m.conditions)))
            ev.append(Event(f"{n} Recovers" + (f": Knack {ch.describe()}" if ch else "")
                            + (f" — no longer {gone}" if gone else " — no change"), "action",
                            with_rolls({}, ch.record(f"{n}: Recover", m.player)) if ch else {}))
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
                        f"{', Stable' if after.stable else ''}", "dice",
                        with_rolls({}, ch.record(f"{self.names[mid]}: {act_mod.ACTIONS[action].name}",
                                                 st.models[mid].player))))
        self._continue(st, ev)
