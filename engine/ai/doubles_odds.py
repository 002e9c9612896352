"""A Doubles attack priced with the engine's own pools and odds (issue 61, item 2), for
``easy_doubles``: a shot against a charge and strike, the same measure for both.

The pools are the ruleset's pure functions (``shooting.shot_modifiers`` / ``shot_pools``,
``turn.melee_pools``) fed with numbers from the view and the warbands' sheets (range band from
the distance, the sight word from the table's visible fraction, moved, on the ground, cover dice,
armour); the odds are ``odds.duel_odds``, the exact odds the client shows. Nothing the view does
not show is read: armour lost to flaws is not in the view, so a sheet's armour counts whole.
"""
from __future__ import annotations

from engine.rulesets.doubles import damage as dmg
from engine.rulesets.doubles import odds
from engine.rulesets.doubles import shooting as sh
from engine.rulesets.doubles import turn as tn

OUT_BONUS = 2.0     # a fighter put out of action is worth this much more than its damage points


class DuelPricer:
    def __init__(self, rules):
        self.rules = rules
        self.opts = rules.opts

    def _armour(self, key: str):
        side, fid = key.split(".", 1)
        wb = self.rules.warbands[int(side)]
        return wb.armour_of(wb.fighter(fid))

    def test_penalty(self, key: str) -> int:
        return dmg.armour_test_penalty(self._armour(key))

    def protection(self, key: str) -> int:
        a = self._armour(key)
        return a.protection if a else 0

    def odds(self, kind: str, att, dfs, t: dict):
        (na, pa), (nd, pd) = att.counts(self.opts), dfs.counts(self.opts)
        return odds.duel_odds(kind, (na, pa), (nd, pd), health=t["health"], protection=self.protection(t["key"]),
                              target_on_ground=t["on_ground"], aggressiveness_this_turn=t["aggressiveness"],
                              options=self.opts)

    def worth(self, kind: str, att, dfs, t: dict) -> float:
        """Expected damage points (capped at the target's health) plus ``OUT_BONUS`` times the
        chance to put it out of action."""
        if att is None:
            return 0.0
        o = self.odds(kind, att, dfs, t)
        h = t["health"]
        e = sum(float(p) * (h if pts is None else min(pts, h)) for pts, p in o.damage.items())
        return e + OUT_BONUS * float(o.out)

    def shot(self, me: dict, t: dict, **kw) -> float:
        """A shot's worth, or 0 when it cannot be made (out of range, hidden)."""
        att, dfs = self.shot_pools(me, t, **kw)
        return self.worth("shoot", att, dfs, t)

    def shot_odds(self, me: dict, t: dict, **kw):
        """A shot's ``odds.DuelOdds``, or None when it cannot be made."""
        att, dfs = self.shot_pools(me, t, **kw)
        return None if att is None else self.odds("shoot", att, dfs, t)

    def shot_pools(self, me: dict, t: dict, *, throw: int, defence: int, weapon_bonus: int | None, dist_cm: float,
                   visible: float, aimed: bool = False, attack_ap: int = 0, defence_ap: int = 0):
        band = sh.range_band(throw, dist_cm)
        if band == "out_of_range":
            return None, None
        sight = sh.visibility(min(1.0, max(0.0, visible)), self.opts)
        if sight == "hidden":
            return None, None
        mods = sh.shot_modifiers(band=band, sight=sight, moved_before=me["moved"], aimed_in_melee=aimed,
                                 target_on_ground=t["on_ground"], shooter_test_penalty=self.test_penalty(me["key"]),
                                 target_test_penalty=self.test_penalty(t["key"]), target_cover_dice=t["cover"],
                                 options=self.opts)
        return sh.shot_pools(throw=throw, weapon_bonus=sh.thrown_weapon_bonus(weapon_bonus, self.opts),
                             defence=defence, mods=mods, attack_ap=attack_ap, defence_ap=defence_ap)

    def strike(self, me: dict, t: dict, *, combat: int, defence: int, weapon_bonus: int,
               attack_ap: int = 0, defence_ap: int = 0) -> float:
        att, dfs = tn.melee_pools(combat=combat, weapon_bonus=weapon_bonus, defence=defence, attack_ap=attack_ap,
                                  defence_ap=defence_ap, attacker_test_penalty=self.test_penalty(me["key"]),
                                  defender_test_penalty=self.test_penalty(t["key"]),
                                  defender_on_ground=t["on_ground"], options=self.opts)
        return self.worth("melee", att, dfs, t)
