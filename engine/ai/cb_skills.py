"""Skills for the Counterblast policy (a mixin of ``CounterblastPolicy``): Hack to Mark before a
shot, the psifers' choice between Psi Strike and Psi Craft, and healing a friend that stands.

Hack with a scanner Marks an enemy on a Knack/7 success, and "any zap checks targeting a model
with this condition have their difficulty reduced by 1" until Upkeep: the marker's own shot and
every friend's. An Aim lowers only the aimer's next Zap check, always. So with two actions and a
shot, Hack then Shoot is worth more than Aim then Shoot when the friends still to act this turn
that have the same target in range and in sight gain enough from it. Each chance is the engine's
(``cb_odds``): the Knack check, and each shot's chain at its difficulty with and without the Mark.

A psifer picks its enigma and target by worth in models put Down: a Psi Strike by the engine's
chain (and a condition it inflicts by the chance of a hit times what the condition takes from the
target); Veil (light cover until Upkeep) by how much it lowers the chances of the enemy guns
that see the friend now; Deep Toast (a token off) by whether it brings a Down friend back.
"""
from __future__ import annotations

from engine.rulesets.counterblast import damage
from engine.rulesets.counterblast.checks import pool_size
from engine.rulesets.counterblast.choices import Engineer, HackMark, PsiCraft, PsiStrike, Treat

from .cb_host import CounterblastHost
from .cb_odds import aim_numbers, at_least, cover_from_sight

FRIEND_SHOOTS = 0.5      # a friend still to act shoots this target about half the time
MARK_MARGIN = 0.02
GROUP_MARK_MIN = 0.15     # a group gives up its Move for a Mark worth this much
PSI_MIN = 0.05            # a psi option worth less than this is not worth the action
# what a condition a Psi Strike inflicts takes from the target, in models put Down: Blind (Zap 0,
# Grit 1D, Move 2" until it Recovers) nearly an activation of it; Half-blind (Zap and Grit 1D,
# Move a d5) less
TOKEN_NEAR_DOWN = 0.15    # a token off a friend a token or two from going Down, in models
TOKEN_WORTH = 0.05        # a token off a friend further from it
HEAL_MIN = 0.15           # a heal worth less is not worth the action
CONDITION_WORTH = {"blind": 0.4, "half_blind": 0.25, "pinned": 0.3, "burning": 0.15}


class SkillPlay(CounterblastHost):
    def friends_to_act(self, v, exclude=()) -> list[str]:
        """Friends that may still act this turn: on the table, not Down, not Spent, not activated
        by this agent this turn (its memory)."""
        done = self.activated.get(v["turn"], {})
        return [i for i, m in self.live(v, self.player).items()
                if i not in exclude and not m["down"] and "spent" not in m["conditions"] and not done.get(i)]

    def mark_gain_for(self, v, shooter, target) -> float:
        """How much a Mark on ``target`` raises ``shooter``'s best chance to put it Down with a
        shot from where it stands (0 if it has none: out of range, under a third in sight)."""
        m = v["models"][shooter]
        if not self.rules.profile[shooter].shooting or "marked" in v["models"][target]["conditions"]:
            return 0.0
        me, tb = self.base(shooter, m), self.base(target, v["models"][target])
        dist = self.price.dist_in(v, shooter, target)
        guns = [w for w in self.rules.profile[shooter].shooting
                if dist <= self.rules.armoury.shooting_weapon(w).range + 1e-9]
        if not guns or self.engaged_in_view(self.live(v, 3 - self.player), me):
            return 0.0
        table = self.table_now(v)
        others = [self.base(i, o) for i, o in v["models"].items() if self.on_table(o) and i not in (shooter, target)]
        if table.sight(me, tb, others).visible_fraction < 1 / 3:
            return 0.0
        t = v["models"][target]
        cov = cover_from_sight(table, me, tb, others, prone=t["down"] or "prone" in t["conditions"],
                               options=self.rules.opt)
        best = 0.0
        for w in guns:
            d0 = self.price.shot_difficulty(v, shooter, target, marked=False)
            d1 = self.price.shot_difficulty(v, shooter, target, marked=True)
            best = max(best, self.price.shot(v, shooter, w, target, cover=cov, diff=d1)[2]
                       - self.price.shot(v, shooter, w, target, cover=cov, diff=d0)[2])
        return best

    def mark_before_shot(self, d, v, best_att, left: int):
        """The HackMark to take before ``best_att`` (a Shoot) instead of an Aim, or None."""
        nums = aim_numbers(d, best_att, left)
        if nums is None:
            return None
        hack = next((o for o in d.options if isinstance(o, HackMark) and o.model == best_att.model
                     and o.target == best_att.target), None)
        if hack is None:
            return None
        diff, cover = nums
        mid, t, w = best_att.model, best_att.target, best_att.weapon
        p_now = self.price.shot(v, mid, w, t, cover=cover, diff=diff)[2]
        p_less = self.price.shot(v, mid, w, t, cover=cover, diff=diff - self.rules.opt.marked_bonus)[2]
        p_mark = self.price.knack(mid)
        aim = p_less                                   # an Aim: the same difficulty off, for certain
        mark = p_mark * p_less + (1 - p_mark) * p_now
        friends = sum(self.mark_gain_for(v, f, t) for f in self.friends_to_act(v, exclude=(mid,)))
        mark += p_mark * FRIEND_SHOOTS * friends
        return hack if mark > aim + MARK_MARGIN else None

    def group_mark(self, v, members):
        """(marker, target, gain) for a group whose members all have a shot: the member with a
        scanner, and the enemy within 12" and a third in sight whose Mark raises the members'
        shots the most (the Knack check's chance times the sum of their gains), or None when
        that is under ``GROUP_MARK_MIN`` of a model put Down."""
        best = None
        for mk in members:
            m = v["models"][mk]
            if "scanner" not in self.rules.gear_kinds(mk) or "spent" in m["conditions"]:
                continue
            me = self.base(mk, m)
            if self.engaged_in_view(self.live(v, 3 - self.player), me):
                continue
            table = self.table_now(v)
            for t, e in self.live(v, 3 - self.player).items():
                if e["down"] or "marked" in e["conditions"] or self.price.dist_in(v, mk, t) > 12 + 1e-9:
                    continue
                others = [self.base(i, o) for i, o in v["models"].items() if self.on_table(o) and i not in (mk, t)]
                if table.sight(me, self.base(t, e), others).visible_fraction < 1 / 3:
                    continue
                gain = self.price.knack(mk) * sum(self.mark_gain_for(v, s, t) for s in members)
                if best is None or gain > best[2] + 1e-9:
                    best = (mk, t, gain)
        return best if best is not None and best[2] >= GROUP_MARK_MIN else None

    # -------------------------------------------------------------- psi: Psi Strike and Psi Craft
    def psi_strike_value(self, v, o) -> float:
        """A Psi Strike's worth in models put Down: its chance to put the target Down (the
        engine's chain), and for an enigma that inflicts a condition on a hit, the chance of a hit
        times what the condition takes from the target (``CONDITION_WORTH``)."""
        en = self.rules.enigma(o.model, o.enigma)
        t = v["models"][o.target]
        hit, _, down, _ = self.price.psi(v, o.model, o.enigma, o.target)
        val = down if en.damage else 0.0
        if en.inflicts is not None and en.inflicts.condition not in t["conditions"]:
            val += hit * CONDITION_WORTH.get(en.inflicts.condition, 0.0)
        return val

    def veil_value(self, v, friend) -> float:
        """What light cover until Upkeep is worth to ``friend``: for each enemy not yet Spent with
        a gun in range and a third of it in sight, the drop in that gun's chance to put it Down
        (the engine's chain, its cover now and with light cover), half of them taken."""
        f = v["models"][friend]
        if f["down"]:
            return 0.0
        fb = self.base(friend, f)
        total = 0.0
        for eid, guns, cov in self.guns_that_see(v, self.table_now(v), friend, fb, "prone" in f["conditions"],
                                                 ready_only=True):
            veiled = damage.best_cover(cov, "light")
            if veiled == cov:
                continue
            total += max(self.price.shot(v, eid, w, friend, cover=cov)[2] - self.price.shot(v, eid, w, friend, cover=veiled)[2]
                         for w in guns)
        return FRIEND_SHOOTS * total

    def toast_value(self, v, friend) -> float:
        """One token off ``friend`` (never the last): a Down friend it brings back below its
        Mettle is worth a model; one a token from going Down, a fifth; else a tenth."""
        f = v["models"][friend]
        mettle = self.rules.profile[friend].mettle
        if f["down"]:
            return 1.0 if f["tokens"] - 1 < mettle else 0.3
        return 0.2 if f["tokens"] >= mettle - 1 else 0.1

    def psi_choice(self, d, v):
        """The best Psi Strike or Psi Craft option by worth (``psi_strike_value``; a Psi Craft's
        worth times its check's chance), or None when none is worth ``PSI_MIN``."""
        best = None
        for o in d.options:
            if isinstance(o, PsiStrike):
                val = self.psi_strike_value(v, o)
            elif isinstance(o, PsiCraft):
                en = self.rules.enigma(o.model, o.enigma)
                worth = self.veil_value(v, o.target) if en.craft == "veil" else self.toast_value(v, o.target)
                val = self.price.psi_success(v, o.model, o.enigma) * worth
            else:
                continue
            if best is None or val > best[0] + 1e-9:
                best = (val, o)
        if best is None or best[0] < PSI_MIN:
            return None
        o = best[1]
        if isinstance(o, PsiCraft) and self.rules.enigma(o.model, o.enigma).craft == "veil":
            self.__dict__.setdefault("_veiled", {}).setdefault(v["turn"], set()).add(o.target)
        return o

    def craft_in_view(self, v, mid) -> bool:
        """Would ``psi_choice`` find a Psi Craft worth its action once ``mid`` is activated? A
        friend within the enigma's range and in sight (itself included) worth ``PSI_MIN``; a
        friend this agent has already tried to Veil this turn is left out (the view does not say
        who is veiled, and the rules offer no second Veil)."""
        crafts = self.rules.enigmas(mid, "psi_craft")
        m = v["models"][mid]
        if not crafts or m["down"] or any(c in m["conditions"] for c in ("panic", "pinned", "blind")):
            return False
        if self.engaged_in_view(self.live(v, 3 - self.player), self.base(mid, m)):
            return False
        tried = self.__dict__.get("_veiled", {}).get(v["turn"], set())
        table = self.table_now(v)
        me = self.base(mid, m)
        for en in crafts:
            for f, fm in self.live(v, self.player).items():
                if f != mid and self.price.dist_in(v, mid, f) > en.range + 0.04:
                    continue
                if en.craft == "veil" and f in tried:
                    continue
                if en.craft != "veil" and fm["tokens"] <= 1:
                    continue
                if f != mid:
                    others = [self.base(i, o) for i, o in v["models"].items() if self.on_table(o) and i not in (mid, f)]
                    if table.sight(me, self.base(f, fm), others).visible_fraction <= 0:
                        continue
                worth = self.veil_value(v, f) if en.craft == "veil" else self.toast_value(v, f)
                if self.price.psi_success(v, mid, en.id) * worth >= PSI_MIN:
                    return True
        return False

    # -------------------------------------------------------------- healing a friend that stands
    def heal_value(self, v, o) -> float:
        """A Treat or Engineer that heals a standing friend (the gear's "one token per success,
        never below one"): the expected tokens off, by the Knack check's distribution, each worth
        ``TOKEN_NEAR_DOWN`` of a model when the friend is a token or two from going Down, else
        ``TOKEN_WORTH``. 0 for a friend the action would only stabilise (handled apart)."""
        f = v["models"][o.target]
        action = "treat" if isinstance(o, Treat) else "engineer"
        if f["down"] or f["tokens"] <= 1 or not damage.can_heal(action, self.rules.gear_kinds(o.model),
                                                                self.rules.profile[o.target].kind):
            return 0.0
        n = pool_size(self.rules.profile[o.model].knack, 0, self.rules.opt)
        off = sum(at_least(n, self.rules.opt.knack_difficulty, k) for k in range(1, f["tokens"]))
        near = f["tokens"] >= self.rules.profile[o.target].mettle - 2
        return off * (TOKEN_NEAR_DOWN if near else TOKEN_WORTH)

    def heal_choice(self, d, v):
        """The best heal of a standing friend worth ``HEAL_MIN``, or None."""
        best = None
        for o in d.options:
            if isinstance(o, (Treat, Engineer)):
                val = self.heal_value(v, o)
                if val >= HEAL_MIN and (best is None or val > best[0] + 1e-9):
                    best = (val, o)
        return best[1] if best is not None else None
