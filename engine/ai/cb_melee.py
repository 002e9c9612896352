"""Hand to hand for the Counterblast policy (a mixin of ``CounterblastPolicy``): charging into
base contact to Strike, and Throw.

A Throw ("move the target by the Check result in inches as though it Jumped ... It lands Prone")
does no damage, and no Counterstrike or Parry answers it (those answer a Strike). Its one use that
a Strike does not serve better here is to take an enemy off a marker in the game's last turn: the
markers are scored at the end ("2 points for each objective marker the crew controls"), and a
model thrown out of the 3" range no longer counts, Down or not. It is priced as the chance of a
Grit result at least the inches that carry the target out of range, thrown straight away from
the marker (``odds.check_dist``; the flight from the table's ``straight_move``), against the best
attack's chance to put it Down.

A charge is a Move into base contact (the rules offer one per enemy within the Move: the
``MoveTo`` options of an activated model's decision) followed by a Strike, so it needs two
actions. Its price is the Strike's chance to put the target Down, by the engine's chain with the
numbers the rules would use once in contact (``Odds.best_strike``: Grit against Grit, Prone,
Down, the weapon's damage and explosions, the target's Defense), less half the target's own
chance with a Counterstrike (a reaction it may pay for). It is taken when it beats the best shot
the model has (Aimed when two actions are left) by a clear margin: a model in contact is Engaged
and cannot shoot, and neither can the enemy it engages.
"""
from __future__ import annotations

import math

from engine.rulesets.common import MoveTo
from engine.rulesets.counterblast.checks import pool_size
from engine.rulesets.counterblast.scoring import marker_controller

from .cb_host import CounterblastHost
from .cb_odds import aim_numbers, at_least

MM = 25.4
CHARGE_MIN = 0.25      # a charge's net chance to put the target Down, at least
CHARGE_MARGIN = 0.10   # and by this much more than the best shot
COUNTER = 0.5          # the weight of the target's Counterstrike (it may not react)
THROW_MARGIN = 0.10    # a Throw off a marker must beat the best attack's chance by this much


class MeleePlay(CounterblastHost):
    def contact_target(self, v, mv: MoveTo) -> str | None:
        """The enemy a ready-made contact move ends in base contact with, or None."""
        r = self.rules.radius[mv.model]
        for eid, e in self.live(v, 3 - self.player).items():
            if e["down"]:
                continue
            gap = math.hypot(e["x"] - mv.x, e["y"] - mv.y) - r - self.rules.radius[eid]
            if gap <= 1.0:
                return eid
        return None

    def charge_value(self, v, mid, target) -> float:
        """The net chance a Strike by ``mid`` from base contact puts ``target`` Down."""
        if not self.rules.profile[mid].striking:
            return 0.0
        w, mine = self.price.best_strike(v, mid, target)
        if w is None:
            return 0.0
        back = 0.0
        if self.rules.profile[target].striking:       # the target's Counterstrike against the charger
            back = self.price.best_strike(v, target, mid)[1][2]
        return mine[2] - COUNTER * back

    def best_charge(self, d, v, left: int):
        """(the contact move, its target, net chance) of the best charge this decision offers, or
        None: two actions left (the Move and the Strike), a target it would then see and strike."""
        if left < 2:
            return None
        best = None
        for o in d.options:
            if type(o) is not MoveTo:
                continue
            t = self.contact_target(v, o)
            if t is None:
                continue
            val = self.charge_value(v, o.model, t)
            if best is None or val > best[2] + 1e-9:
                best = (o, t, val)
        return best

    def shot_alternative(self, d, v, best_att, best_p: float, left: int) -> float:
        """The best attack the model has without charging: the label's chance, or with an Aim
        first (two actions left) the same shot a difficulty lower."""
        nums = aim_numbers(d, best_att, left)
        if nums is None:
            return best_p
        diff, cover = nums
        return max(best_p, self.price.shot(v, best_att.model, best_att.weapon, best_att.target, cover=cover,
                                           diff=diff - self.rules.opt.aim_bonus)[2])

    def charge_in_view(self, v, mid) -> bool:
        """Would ``act`` charge once ``mid`` is activated? An enemy within its Move that a contact
        move reaches (the rules' move space from the view), worth a charge by ``charge_value``."""
        if not self.rules.profile[mid].striking or "panic" in v["models"][mid]["conditions"]:
            return False
        sp = None
        m = v["models"][mid]
        for eid, e in self.live(v, 3 - self.player).items():
            if e["down"]:
                continue
            gap = math.hypot(e["x"] - m["x"], e["y"] - m["y"]) - self.rules.radius[mid] - self.rules.radius[eid]
            if gap <= 1.0 or gap > self.rules.profile[mid].move * MM:
                continue
            if self.charge_value(v, mid, eid) < CHARGE_MIN:
                continue
            sp = sp or self.view_move_space(v, mid)
            ang = math.atan2(m["y"] - e["y"], m["x"] - e["x"])
            g = self.rules.radius[mid] + self.rules.radius[eid] + 0.3
            for off in (0.0, 0.6, -0.6, 1.2, -1.2):
                c = MoveTo(mid, round(e["x"] + g * math.cos(ang + off), 2), round(e["y"] + g * math.sin(ang + off), 2))
                if sp.check(c) is None:
                    return True
        return False

    # -------------------------------------------------------------- Throw
    def held_marker(self, v, target):
        """(marker point, range mm) of a control marker ``target`` stands within and whose
        control changes if it leaves (the seed's "more of its models that are not Down within
        3 inches than any other crew"), or None."""
        objs = [o for o in self.rules.mission.objectives if o.kind == "control_markers"]
        if not objs:
            return None
        rng = max(o.range for o in objs) * MM
        for mk, (x, y) in self.markers.items():
            def count(skip=None):
                n = {1: 0, 2: 0}
                for i, m in v["models"].items():
                    if self.on_table(m) and not m["down"] and i != skip and \
                            max(0.0, math.hypot(m["x"] - x, m["y"] - y) - self.rules.radius[i]) <= rng:
                        n[m["player"]] += 1
                return n
            before = count()
            t = v["models"][target]
            if max(0.0, math.hypot(t["x"] - x, t["y"] - y) - self.rules.radius[target]) > rng:
                continue
            if marker_controller(count(target)) != marker_controller(before):
                return (x, y), rng
        return None

    def throw_plan(self, v, thrower, target, point, rng):
        """(inches, heading): the fewest inches of a Throw that carry ``target`` beyond ``rng`` of
        ``point``, and the heading that does it (16 headings tried, the one straight away from the
        point first; the flight from the table's ``straight_move``, over models no larger than
        the thrower and low terrain as the rules fly it), or None when no flight of 1-10" does."""
        t = v["models"][target]
        tb = self.base(target, t)
        size = self.rules.profile[thrower].size
        blockers = [self.base(i, m) for i, m in v["models"].items() if self.on_table(m) and i not in (thrower, target)
                    and self.rules.profile[i].size > size]
        table = self.table_now(v)
        away = math.degrees(math.atan2(t["y"] - point[1], t["x"] - point[0]))
        best = None
        for j in range(16):
            heading = (away + (j + 1) // 2 * (22.5 if j % 2 else -22.5)) % 360.0
            ux, uy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
            for k in range(1, 11 if best is None else best[0]):
                sm = table.straight_move(tb, heading, k * MM, blockers, self.rules.opt.jump_clearance * MM)
                x, y = tb.x + ux * sm.travelled, tb.y + uy * sm.travelled
                if math.hypot(x - point[0], y - point[1]) - tb.radius > rng + 1e-6:
                    best = (k, heading)
                    break
                if sm.stopped_by is not None:
                    break
        return best

    def throw_out_chance(self, v, thrower, target, point, rng) -> float:
        """The chance a Throw takes ``target`` beyond ``rng`` of ``point``: the Grit check's chance
        of a result at least the inches ``throw_plan`` needs (the rules' check distribution)."""
        plan = self.throw_plan(v, thrower, target, point, rng)
        if plan is None:
            return 0.0
        diff = self.price.strike_difficulty(v, thrower, target)
        return at_least(pool_size(self.price.grit(v, thrower), 0, self.rules.opt), diff, plan[0], 10)

    def best_throw(self, d, v):
        """(Throw option, chance) of a Throw that, in the game's last turn, takes an enemy off a
        marker whose control it decides, or None. A Throw does no damage itself; anywhere else a
        Strike by the same model (or a shot) is the better attack (docs/ai.md)."""
        if v["turn"] < self.rules.opt.turns:
            return None
        best = None
        for o in d.options:
            if type(o).__name__ != "Throw":
                continue
            held = self.held_marker(v, o.target)
            if held is None:
                continue
            p = self.throw_out_chance(v, o.model, o.target, *held)
            if best is None or p > best[1] + 1e-9:
                best = (o, p)
        return best
