"""Attacks: the attack checks of Shoot and Strike (split or not, with the simultaneous Return fire
or Counterstrike), their difficulties, Defense checks and damage tokens, wounds and conditions
gained, Throw, and Psi Strike / Psi Craft with Disperse.
"""
from __future__ import annotations

from engine.core import Event
from engine.core.rolls import with_rolls

from .. import abilities, attacks, conditions, damage
from ..checks import ability_check


class AttackRules:
    """Shoot, Strike, Throw and Psi checks rolled and resolved: difficulties, Defense, damage tokens,
    the conditions weapons inflict."""

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
                            f"→ {raw} raw damage", "dice", with_rolls({"dice": list(ch.values), "attacker": att, "target": t},
                                ch.record(f"{self.names[att]}: {'Shoot' if k == 'shoot' else 'Strike'}", st.models[att].player))))
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
                        with_rolls({"model": mid, "tokens": tokens, "dice": list(d.values)},
                                   d.record(f"{self.names[mid]}: Defense", st.models[mid].player))))
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

    def _throw(self, st, c, ev):
        mid, t = c.model, c.target
        am, tm = st.models[mid], st.models[t]
        diff = attacks.throw_difficulty(self.grit(st, mid), self.grit(st, t), target_down=tm.down,
                                        attacker_prone=am.has("prone"), target_prone=tm.has("prone") or tm.down,
                                        attacker_panicked=am.has("panic"), options=self.opt)
        ch = ability_check(st.rng, self.grit(st, mid), diff, options=self.opt)
        ev.append(Event(f"{self.names[mid]} Throws {self.names[t]}: {ch.describe()}", "dice",
                        with_rolls({}, ch.record(f"{self.names[mid]}: Throw", st.models[mid].player))))
        if ch.success:
            # 'On a success, choose a direction and move the target by the Check result in
            # inches': the direction is asked now, the distance known (phase "throw")
            inches = attacks.throw_distance(ch.successes)
            st.window = {"kind": "throw", "thrower": mid, "target": t, "inches": inches}
            st.phase = "throw"
            ev.append(Event(f"{self.names[t]} will fly {inches}\": {self.names[mid]} chooses the direction", "dice"))
            return
        self._check_end(st, ev)
        if st.phase != "over":
            self._continue(st, ev)

    def _resolve_psi(self, st, w, reaction, ev):
        actor = w["actor"]
        en = self.enigma(actor, w["weapon"])
        ability = attacks.psi_ability(self.zap(st, actor), self.grit(st, actor), self.profile[actor].knack, self.opt)
        ch = ability_check(st.rng, ability, en.difficulty, options=self.opt)
        result = ch.successes
        ev.append(Event(f"{self.names[actor]} channels {en.name}: {ch.describe()}", "dice",
                        with_rolls({"dice": list(ch.values)}, ch.record(f"{self.names[actor]}: {en.name}",
                                                                      st.models[actor].player))))
        if reaction is not None:
            r = reaction.model
            ra = attacks.psi_ability(self.zap(st, r), self.grit(st, r), self.profile[r].knack, self.opt)
            dch = ability_check(st.rng, ra, self.opt.knack_difficulty, options=self.opt)
            cancels = attacks.disperse_cancels(dch.successes, result)
            ev.append(Event(f"{self.names[r]} Disperses: {dch.describe()}" + (" — the enigma fizzles" if cancels else " — not enough"),
                            "dice", with_rolls({}, dch.record(f"{self.names[r]}: Disperse", st.models[r].player))))
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
