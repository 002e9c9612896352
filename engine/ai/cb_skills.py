"""Skills for the Counterblast policy (a mixin of ``CounterblastPolicy``): Hack to Mark before a shot.

Hack with a scanner Marks an enemy on a Knack/7 success, and "any zap checks targeting a model
with this condition have their difficulty reduced by 1" until Upkeep: the marker's own shot and
every friend's. An Aim lowers only the aimer's next Zap check, always. So with two actions and a
shot, Hack then Shoot is worth more than Aim then Shoot when the friends still to act this turn
that have the same target in range and in sight gain enough from it. Each chance is the engine's
(``cb_odds``): the Knack check, and each shot's chain at its difficulty with and without the Mark.
"""
from __future__ import annotations

from engine.rulesets.counterblast.choices import HackMark

from .cb_odds import cover_from_sight, label_numbers

FRIEND_SHOOTS = 0.5      # a friend still to act shoots this target about half the time
MARK_MARGIN = 0.02
GROUP_MARK_MIN = 0.15     # a group gives up its Move for a Mark worth this much


class SkillPlay:
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
        if best_att is None or type(best_att).__name__ != "Shoot" or left < 2:
            return None
        hack = next((o for o in d.options if isinstance(o, HackMark) and o.model == best_att.model
                     and o.target == best_att.target), None)
        if hack is None:
            return None
        try:
            nums = label_numbers(d.labels[d.options.index(best_att)])
        except (ValueError, IndexError):
            nums = None
        if nums is None:
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
