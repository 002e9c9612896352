"""Doubles: shooting and melee attacks, from the declaration through the duel to the damage.

A shot (at a model in range and not hidden, or at a point of empty ground) or a melee attack is
declared and paid for; a shot into a melee rolls the lottery of aptitude tests; the back-shot
test is made against the fighter actually targeted. The attacker then the defender announce their
AP dice, and the duel runs step by step (``duel.next_step``): rolls and single-option keeps are
settled here, the other keeps, double effects, manoeuvres and discards are asked of the player
whose fighter makes them. ``_resolve`` applies the result: damage, out of action, cover,
aggressiveness, low ammunition, intimidation, off-balance, weapon breakage, a dropped weapon, the
victory check, and the chance to turn after a back shot. ``AttackMixin`` gives ``DoublesRules``
all of this.
"""
from __future__ import annotations

import math
from dataclasses import replace

from engine.core import Decision, Event
from engine.core.rolls import roll_record, with_rolls

from . import damage as dmg
from . import duel as dl
from . import shooting as sh
from . import turn as tn
from .choices import (
    Announce,
    ChooseEffect,
    DiscardDie,
    Face,
    KeepDice,
    MeleeAttack,
    PickTarget,
    RerollDie,
    RulesError,
    Shoot,
    ShootAt,
)
from .spaces import GroundShotSpace
from .state import BASE_RADIUS_MM, Attack, FighterState
from .views import _cap

ROLE_WORDS = {"attacker": "attack", "defender": "defence"}


class AttackMixin:
    """Attacks: what may be shot, declaring, announcing, the duel's decisions and the result
    (part of ``DoublesRules``)."""

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

    def _sight_word(self, st, f: FighterState, t: FighterState) -> str:
        # a pure function of the two bases and the others in play (the table and options are
        # fixed): remembered, since the same pair is looked at decision after decision
        fb, tb, others = self.base(f), self.base(t), tuple(self.others(st, f.key, t.key))
        key = (fb, tb, others)
        words = self.__dict__.setdefault("_sight_words", {})
        w = words.get(key)
        if w is None:
            if len(words) > 4096:
                words.clear()
            s = self.table.sight(fb, tb, others)
            w = words[key] = sh.visibility(min(1.0, max(0.0, s.visible_fraction)), self.opts)
        return w

    # ------------------------------------------------------------ the attack's decisions
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

    def _side_of(self, st, at: Attack, role: str) -> int:
        return st.fighters[self._role_key(at, role)].side

    def _duel(self, st) -> dl.Duel:
        return st.attack.duel

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
            kp = dl.make_keep(c.values, c.penalty_values, self.opts)
            at.duel = dl.keep(du, step.role, kp)
            ev.append(Event(f"{nm} {_keeps(kp)}", "keep", with_rolls({"role": step.role, "values": list(kp.values)},
                                                                      _keep_record(nm, kp, self._side_of(st, at, step.role)))))
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
                            with_rolls({"role": foe, "old": old.value, "new": new.value},
                                       roll_record(f"{self.fighter_name(st, self._role_key(at, foe))}: reroll", 6,
                                                   [old.value, new.value], [["set_aside"], ["reroll"]],
                                                   result=f"{old.value} becomes {new.value}",
                                                   player=self._side_of(st, at, foe)))))
        elif isinstance(c, DiscardDie):
            foe = dl.other(step.role)
            gone = du.side(foe).die(c.die)
            at.duel = dl.discard(du, step.role, c.die)
            ev.append(Event(f"{nm} sets aside {self.fighter_name(st, self._role_key(at, foe))}'s {gone.value}", "dice",
                            with_rolls({"role": foe, "value": gone.value},
                                       roll_record(f"{self.fighter_name(st, self._role_key(at, foe))}: set aside", 6,
                                                   [gone.value], [["set_aside"]], result="set aside",
                                                   player=self._side_of(st, at, foe)))))
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
            before, first_new = at.duel.side(step.role), at.duel.next_id
            at.duel = dl.roll(at.duel, step.role, st.rng)
            side = at.duel.side(step.role)
            gone = side.set_aside[len(before.set_aside):]
            rolled = sorted((d for d in side.dice + gone if d.id >= first_new), key=lambda d: d.id)
            ev.append(Event(f"{self.fighter_name(st, self._role_key(at, step.role))} rolls "
                            + " ".join(d.describe() for d in rolled)
                            + (f"; set aside (cancelled by penalty dice): {' '.join(d.describe() for d in gone)}"
                               if gone else ""), "dice",
                            with_rolls({"role": step.role, "dice": [d.value for d in rolled],
                                        "penalty": [d.penalty for d in rolled], "set_aside": [d.value for d in gone]},
                                       roll_record(f"{self.fighter_name(st, self._role_key(at, step.role))}: "
                                                   f"{'attack' if step.role == 'attacker' else 'defence'}", 6,
                                                   [d.value for d in rolled] + [d.value for d in gone],
                                                   [(["penalty"] if d.penalty else []) for d in rolled]
                                                   + [(["penalty"] if d.penalty else []) + ["set_aside"] for d in gone],
                                                   player=self._side_of(st, at, step.role)))))
            return True
        if isinstance(step, dl.KeepStep) and len(step.options) == 1:
            kp = step.options[0]
            at.duel = dl.keep(at.duel, step.role, kp)
            name = self.fighter_name(st, self._role_key(at, step.role))
            ev.append(Event(f"{name} {_keeps(kp)}", "keep",
                            with_rolls({"role": step.role, "values": list(kp.values)},
                                       _keep_record(name, kp, self._side_of(st, at, step.role)))))
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
        data = {"winner": res.winner, "attack": res.attack_score, "defence": res.defence_score,
                "attacker": a.key, "defender": d.key}
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
                            with_rolls({"break_rolls": list(bt.rolls), "broken": bt.broken},
                                       roll_record(f"{a.name}: {w.name} break test", 6, bt.rolls,
                                                   result="breaks" if bt.broken else "holds", player=a.side))))
        if (at.kind == "shoot" and at.weapon is not None and self.opts.thrown_weapon == "dropped"
                and at.weapon in a.weapons):
            # the projectile lands against the defender's base, on the shooter's side
            dist = math.hypot(a.x - d.x, a.y - d.y) or 1.0
            self._drop(st, a, at.weapon, d.x + (a.x - d.x) / dist * BASE_RADIUS_MM,
                       d.y + (a.y - d.y) / dist * BASE_RADIUS_MM, ev, where=f"at {d.name}'s feet")
        if st.mission is not None:
            self._mission_after_hit(st, d, ev)
        v = self._victory(st, turn_over=False)
        if v.over:
            self._finish(st, v, ev)
            return
        if res.hit and at.back is not None and not d.out:
            at.stage = "face"
            return
        st.attack = None


def _keep_record(name: str, kp: dl.Keep, player: int) -> dict:
    """The kept dice for the tray: each kept, a double marked as one."""
    pen = list(kp.penalty_values)
    marks = []
    for v in kp.values:
        m = ["kept"] + (["double"] if kp.is_double else [])
        if v in pen:
            pen.remove(v)
            m.append("penalty")
        marks.append(m)
    return roll_record(f"{name}: keeps", 6, kp.values, marks, result=f"{kp.total}" + (" (a double)" if kp.is_double else ""),
                       player=player)


def _keeps(kp: dl.Keep) -> str:
    """'keeps 6 + 5 = 11' (Keep.describe says 'keep ...')."""
    d = kp.describe()
    return "keeps" + d[4:] if d.startswith("keep ") else d
