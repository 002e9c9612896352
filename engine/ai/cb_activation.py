"""Which Counterblast model to activate, for the easy policy (a mixin of ``CounterblastPolicy``):
the single activation of the model with the most to do, or the group it leads
(``cb_groups.GroupPlay.group_pick``), or the turn passed when no model would do anything once
activated (``has_work``): a Moxie is never paid for an activation that only ends."""
from __future__ import annotations

import math

from engine.rulesets.counterblast.choices import ActivateGroup, ActivateSingle, Engineer, PassTurn, Treat
from engine.rulesets.counterblast.damage import skill_useful
from engine.rulesets.counterblast.rules import CONTACT_MM, MM
from engine.table import Base

from .cb_host import CounterblastHost
from .cb_skills import HEAL_MIN


def edge(a: Base, b: Base) -> float:
    return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius)


class ActivationPlay(CounterblastHost):
    def activate(self, d, v):
        singles = [o for o in d.options if isinstance(o, ActivateSingle)]
        if not singles:
            groups = [o for o in d.options if isinstance(o, ActivateGroup)]
            if groups:
                return groups[0]
            return next(o for o in d.options if isinstance(o, PassTurn))
        goals = self.goals(v)
        enemies = {i: m for i, m in self.live(v, 3 - self.player).items()}
        table = self.table_now(v)
        others = [self.base(i, m) for i, m in v["models"].items() if self.on_table(m)]

        # sight from each candidate to each enemy within its gun range, in one batch
        eids = list(enemies)
        ebases = [self.base(eid, enemies[eid]) for eid in eids]
        mes = {o.model: self.base(o.model, v["models"][o.model]) for o in singles}
        in_range = {}
        for mid, me in mes.items():
            rng = self.gun_range(mid)
            in_range[mid] = [bool(rng) and max(0.0, math.hypot(eb.x - me.x, eb.y - me.y) - eb.radius - me.radius) <= rng
                             for eb in ebases]
        vis, _ = table.sight_matrix(list(mes.values()), ebases, others, pairs=[in_range[mid] for mid in mes])
        row = {mid: k for k, mid in enumerate(mes)}

        def value(o):
            mid = o.model
            m = v["models"][mid]
            val = 0.0
            me = mes[mid]
            pinned = self.engaged_in_view(enemies, me)
            for j, eid in enumerate(eids):
                e = enemies[eid]
                eb = ebases[j]
                dist = max(0.0, math.hypot(eb.x - me.x, eb.y - me.y) - eb.radius - me.radius)
                if in_range[mid][j] and vis[row[mid], j] >= 1 / 3 and not pinned:
                    val = max(val, 3.0 + (1.0 if e["down"] else 0.0))
                reach = self.rules.reach.get(mid)
                if reach is not None and dist <= (reach + self.rules.profile[mid].move) * MM:
                    val = max(val, 2.5)
            g = goals.get(mid)
            if g is not None:
                val += min(2.0, math.hypot(g[0] - m["x"], g[1] - m["y"]) / (12 * MM))
            if any(c in m["conditions"] for c in ("panic", "pinned", "blind")):
                val -= 1.0
            val -= 4.0 * self.activated.get(v["turn"], {}).get(mid, 0)
            return (round(val, 9), mid)     # float noise is no preference; ties by name
        # the most valuable model that will do something once activated: a Moxie is never paid
        # for an activation that only ends (a model at its marker with nothing in sight, or one
        # that cannot get closer); when none would act, the turn is passed and the Moxie kept
        ranked = sorted(singles, key=value, reverse=True)
        pick = next((o for o in ranked if self.has_work(v, o.model, value(o)[0])), None)
        if pick is None:
            passing = next((o for o in d.options if isinstance(o, PassTurn)), None)
            if passing is not None:
                return passing
            pick = ranked[0]
        else:
            by_model = {o.model: o for o in singles}
            vals = {o.model: value(o)[0] for o in singles}
            works: dict = {}

            def work(mid):
                if mid not in works:
                    works[mid] = mid in by_model and self.has_work(v, mid, vals[mid])
                return works[mid]
            group = self.group_pick(d, v, pick.model, lambda mid: vals.get(mid, 0.0), work)
            if group is not None:
                pick = group
        done = self.activated.setdefault(v["turn"], {})
        for mid in getattr(pick, "models", None) or (pick.model,):
            done[mid] = done.get(mid, 0) + 1
        return pick

    def engaged_in_view(self, enemies: dict, me: Base) -> bool:
        """Might an enemy engage ``me`` (a standing enemy with a striking reach that reaches it)?
        An engaged model is offered no Shoot (docs/rules/counterblast.md): an activation valued for
        a shot it cannot take is paid for and ends unused. Sight is not tested: an engager that
        cannot see it leaves a shot it does not value, a smaller loss than a wasted Moxie."""
        for eid, e in enemies.items():
            reach = self.rules.reach.get(eid)
            if e["down"] or reach is None:
                continue
            eb = self.base(eid, e)
            if max(0.0, math.hypot(eb.x - me.x, eb.y - me.y) - eb.radius - me.radius) <= reach * MM + CONTACT_MM:
                return True
        return False

    def has_work(self, v, mid, val: float) -> bool:
        """Will ``act`` do anything with this model? A shot now (``val``), a condition to shake
        off (Recover, Rally), an enemy within an enigma's range, a Down friend in contact to treat,
        a terminal to hack, or a move worth its action (as ``act`` weighs it), including a step
        that opens a Rush toward a far goal."""
        m = v["models"][mid]
        if val >= 3.0 or m["down"] or any(c in m["conditions"] for c in ("pinned", "panic")):
            return True
        me = self.base(mid, m)
        for obj in self.rules.mission.objectives:       # a terminal within hacking range
            if obj.kind == "hack_markers":
                for mk, (x, y) in self.markers.items():
                    if (not obj.markers or mk in obj.markers) and \
                            math.hypot(x - me.x, y - me.y) - me.radius <= obj.range * MM + 1.0:
                        return True
        reach = max([en.range for en in self.rules.enigmas(mid, "psi_strike")] + [-1.0]) * MM
        if reach >= 0:
            table = self.table_now(v)
            others = [self.base(i, o) for i, o in v["models"].items() if self.on_table(o) and i != mid]
            for i, e in self.live(v, 3 - self.player).items():
                eb = self.base(i, e)
                if not e["down"] and edge(me, eb) <= reach and \
                        table.sight(me, eb, [o for o in others if o.id != i]).visible_fraction >= 1 / 3:
                    return True
        if self.craft_in_view(v, mid):
            return True
        gear = self.rules.gear_kinds(mid)
        if gear & {"medkit", "tools"}:       # a Down friend in contact, in sight, that the rules let it help
            table = self.table_now(v)
            for i, f in self.live(v, self.player).items():
                if i == mid and not f["down"] and max(self.heal_value(v, c(mid, mid)) for c in (Treat, Engineer)) \
                        >= HEAL_MIN:
                    return True
                if i == mid:
                    continue
                fb = self.base(i, f)
                if edge(me, fb) > 1 * MM:
                    continue
                if f["down"]:
                    useful = any(skill_useful(a, gear, self.rules.profile[i].kind, True, f["stable"], f["tokens"])
                                 for a in ("treat", "engineer"))
                else:       # a standing friend worth healing (the heal's own price)
                    useful = max(self.heal_value(v, c(mid, i)) for c in (Treat, Engineer)) >= HEAL_MIN
                if useful:
                    others = [self.base(j, o) for j, o in v["models"].items() if self.on_table(o) and j not in (mid, i)]
                    if table.sight(me, fb, others).visible_fraction > 0:
                        return True
        if self.charge_in_view(v, mid):
            return True
        sp = self.view_move_space(v, mid)
        mv, gain = self.best_move(sp, v, mid, actions_after=1)
        if mv is not None and gain > 0.05:
            return True
        return mv is not None and gain > -0.25 and self.far_from_goal(v, mid) and self.rush_pays(v, mid, mv)
