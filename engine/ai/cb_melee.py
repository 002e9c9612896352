"""Hand to hand for the Counterblast policy (a mixin of ``CounterblastPolicy``): charging into
base contact to Strike, and Throw.

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

from .cb_odds import label_numbers

MM = 25.4
CHARGE_MIN = 0.25      # a charge's net chance to put the target Down, at least
CHARGE_MARGIN = 0.10   # and by this much more than the best shot
COUNTER = 0.5          # the weight of the target's Counterstrike (it may not react)


class MeleePlay:
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
        if best_att is None or type(best_att).__name__ != "Shoot" or left < 2:
            return best_p
        try:
            nums = label_numbers(d.labels[d.options.index(best_att)])
        except (ValueError, IndexError):
            nums = None
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
