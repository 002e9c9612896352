"""Greedy play for Doubles (d6 duels; 6 turns; points for enemies taken out of action).

Utility, in order of what a fighter does with its AP: stand up when down; take a relic or pick up
a better weapon in reach; strike when engaged; charge when the charge and its strikes are worth
more than the throws it gives up; throw at the target the engine's odds favour when the throw is
worth it (``doubles_odds.py``: the ruleset's pools and ``odds.duel_odds``); else move to the
spot that best trades walking distance to the nearest enemy (round the terrain), a shot from
there (range and sight from the table) and the threat of enemies that see the spot. In a duel:
AP dice by role, keep the best pair (a double when it costs at most one pip), effects chosen
against the current results, reroll the opponent's best kept die, set aside the die that leaves
the opponent the worst keep. In a mission, moves also weigh the walk to what the mission asks
(``mission_goal``: a stone no friend holds, a relic on the ground, an enemy carrying one)."""
from __future__ import annotations

import math

from engine.rulesets.common import MoveSpace, MoveTo
from engine.rulesets.doubles import duel as dl
from engine.rulesets.doubles import shooting as sh
from engine.rulesets.doubles.rules import (
    BASE_RADIUS_MM,
    MODEL_HEIGHT_MM,
    Announce,
    ChooseEffect,
    DiscardDie,
    DisengageSpace,
    DoublesRules,
    EndActivation,
    Face,
    KeepDice,
    MeleeAttack,
    PickTarget,
    PickUp,
    RerollDie,
    Shoot,
    StandUp,
    TakeRelic,
)
from engine.table import Base, Table

from .doubles_odds import OUT_BONUS, DuelPricer
from .easy import Policy, fallback
from .easy_moves import kept_spots, spot_key, view_key
from .geo import INF, walk_grid
from .utility import DoublesUtility

BAND_SCORE = {"short": 1.0, "medium": 0.0, "long": -1.0}


class DoublesPolicy(Policy):
    Utility = DoublesUtility
    # built by ``policy_class`` only once ``attach`` gave both: this ruleset's rules and a table
    rules: DoublesRules
    table: Table

    priced_charges = True     # False: charge only when no shot is worth taking (before; for the bench)
    priced_shots = 0.25       # the throw by the engine's odds, taken when worth this much (0: the old score, for the bench)

    def __init__(self, agent):
        super().__init__(agent)
        self.grid = walk_grid(self.table, BASE_RADIUS_MM)
        self.pricer = DuelPricer(self.rules)

    # -------------------------------------------------------------- static facts
    def sheet(self, key: str):
        side, fid = key.split(".", 1)
        return self.rules.warbands[int(side)].fighter(fid)

    def chars(self, key: str):
        return self.sheet(key).characteristics

    def weapon_bonus(self, key: str, wid) -> int:
        if wid is None:
            return 0
        side = int(key.split(".", 1)[0])
        return self.rules.warbands[side].weapon(wid).bonus

    def melee_bonus(self, f: dict) -> int:
        side = f["side"]
        wb = self.rules.warbands[side]
        return max([wb.weapon(w).bonus for w in f["weapons"] if wb.weapon(w).use in ("melee", "both")] + [0])

    @staticmethod
    def base(f: dict) -> Base:
        return Base(f["key"], f["x"], f["y"], BASE_RADIUS_MM, MODEL_HEIGHT_MM, f["facing"], f["z"])

    # -------------------------------------------------------------- decisions
    def choose(self, d, v):
        fs = {f["key"]: f for f in v["fighters"]}
        self.fs = fs
        if d.kind == "action":
            return self.action(d, v, fs)
        if d.kind in ("announce attack", "announce defence"):
            return self.announce(d, v, fs)
        if d.kind == "keep":
            return self.keep(d, v)
        if d.kind == "double effect":
            return self.effect(d, v)
        if d.kind in ("manoeuvre", "discard"):
            return self.opponent_die(d, v)
        if d.kind == "face":
            return next(o for o in d.options if isinstance(o, Face) and o.turn)
        if d.kind == "pick target":
            mine = [o for o in d.options if isinstance(o, PickTarget) and fs[o.fighter]["side"] != self.player]
            return (mine or list(d.options))[0]
        return fallback(d, self.agent.rng)

    def action(self, d, v, fs):
        me = fs[v["acting"]]
        opts = d.options
        enemies = [f for f in fs.values() if f["side"] != self.player and not f["out"]]
        for o in opts:
            if isinstance(o, StandUp):
                return o
        relics = [o for o in opts if isinstance(o, TakeRelic)]     # Relic Hunt: a relic in reach is taken
        if relics:
            win = self.winning_shot(me, opts, enemies, fs)
            return win if win is not None else min(relics, key=lambda o: o.relic)
        pick = self.pick_up(me, opts)
        if pick is not None:
            return pick
        melee = [o for o in opts if isinstance(o, MeleeAttack)]
        if melee:
            return min(melee, key=lambda o: (fs[o.target]["health"] - (2 if fs[o.target]["on_ground"] else 0), o.target))
        shots = [o for o in opts if isinstance(o, Shoot)]
        charges = [o for o in opts if isinstance(o, MoveTo)]
        if self.priced_charges and charges and me["ap"] >= 2 and enemies:
            # a charge and strikes against the shots it gives up, priced alike (the engine's odds)
            charge, worth = max(((o, self.charge_worth(me, o, enemies)) for o in charges),
                                key=lambda x: (x[1], -math.hypot(x[0].x - me["x"], x[0].y - me["y"])))
            if worth > self.shot_plan_worth(me, shots, fs) + 0.25:
                return charge
        if shots and self.priced_shots:
            worth = {o: self.shot_worth(me, fs[o.target], o, fs) for o in shots}
            best = max(shots, key=lambda o: (worth[o], o.target, str(o.weapon)))
            if worth[best] >= self.priced_shots:
                return best
        elif shots:
            best = max(shots, key=lambda o: (self.shot_value(me, fs[o.target], o), o.target, str(o.weapon)))
            if self.shot_value(me, fs[best.target], best) > -1.5:
                return best
        if charges and me["ap"] >= 2:
            def cval(o):
                t = min(enemies, key=lambda e: math.hypot(e["x"] - o.x, e["y"] - o.y))
                return (-t["health"] + (2 if t["on_ground"] else 0), -math.hypot(o.x - me["x"], o.y - me["y"]))
            return max(charges, key=cval)
        spaces = [s for s in d.spaces if isinstance(s, MoveSpace) and not isinstance(s, DisengageSpace)]
        if spaces and enemies:
            mv = self.best_move(spaces[0], me, enemies, fs, v.get("mission"))
            if mv is not None:
                return mv
        if shots:
            return max(shots, key=lambda o: (self.shot_value(me, fs[o.target], o), o.target, str(o.weapon)))
        end = [o for o in opts if isinstance(o, EndActivation)]
        return end[0] if end else fallback(d, self.agent.rng)

    def winning_shot(self, me, opts, enemies, fs):
        """With one AP left and the enemy down to one fighter, a shot likelier than not to put it
        out of action wins the game at once: it comes before a relic (an AP for a point a turn)."""
        if me["ap"] != 1 or len(enemies) != 1:
            return None
        shots = [o for o in opts if isinstance(o, Shoot) and not o.aimed]
        if not shots:
            return None
        c, t = self.chars(me["key"]), enemies[0]
        dist = max(0.0, math.hypot(me["x"] - t["x"], me["y"] - t["y"]) - 2 * BASE_RADIUS_MM) / 10.0
        best = max(shots, key=lambda o: (self.weapon_bonus(me["key"], o.weapon), str(o.weapon)))
        o = self.pricer.shot_odds(me, t, throw=c.throw, defence=self.chars(t["key"]).defence,
                                  weapon_bonus=None if best.weapon is None else self.weapon_bonus(me["key"], best.weapon),
                                  dist_cm=dist, visible=self.sight_fraction(me, t, fs), defence_ap=self.defence_ap(t))
        return best if o is not None and o.out >= 0.5 else None

    def pick_up(self, me, opts):
        """(thrown_weapon="dropped") A weapon of ours lying within reach is picked up when it is
        better than what the fighter holds for its use (a thrower's knife back in hand), and the
        AP it costs leaves one for an attack or there is no attack to make."""
        picks = [o for o in opts if isinstance(o, PickUp)]
        if not picks:
            return None
        wb = self.rules.warbands[me["side"]]

        def held(use):
            return max([wb.weapon(w).bonus for w in me["weapons"] if wb.weapon(w).use in (use, "both")] + [-1])

        def gain(o):
            w = wb.weapon(o.weapon)
            return max(w.bonus - held(u) for u in ("thrown", "melee") if w.use in (u, "both"))
        best = max(picks, key=lambda o: (gain(o), o.weapon))
        attacks = any(isinstance(o, (Shoot, MeleeAttack)) for o in opts)
        if gain(best) > 0 and (me["ap"] >= 2 or not attacks):
            return best
        return None

    def shot_value(self, me, t, o: Shoot) -> float:
        c = self.chars(me["key"])
        dist_cm = max(0.0, math.hypot(me["x"] - t["x"], me["y"] - t["y"]) - 2 * BASE_RADIUS_MM) / 10.0
        band = sh.range_band(c.throw, dist_cm)
        val = BAND_SCORE.get(band, -3.0)
        val += 0.5 * self.weapon_bonus(me["key"], o.weapon)
        val += 0.3 * (c.throw - self.chars(t["key"]).defence)
        val += 0.4 * (self.chars(t["key"]).health - t["health"]) + (1.0 if t["on_ground"] else 0.0)
        if o.aimed:
            val -= 1.5
        if me["moved"]:
            val -= 0.5
        return val

    # -------------------------------------------------------------- charge or shoot (doubles_odds.py)
    @staticmethod
    def defence_ap(t: dict) -> int:
        """The AP dice a defender adds, as easy's own announce does."""
        return t["ap"] if t["activated"] else min(t["ap"], 1)

    def sight_fraction(self, me: dict, t: dict, fs) -> float:
        others = tuple(self.base(f) for f in fs.values() if not f["out"] and f["key"] not in (me["key"], t["key"]))
        key = (self.base(me), self.base(t), others)
        kept = self.__dict__.setdefault("_sights", {})
        got = kept.get(key)
        if got is None:
            if len(kept) > 4096:
                kept.clear()
            got = kept[key] = float(self.table.sight(key[0], key[1], list(others)).visible_fraction)
        return got

    def charge_worth(self, me: dict, o: MoveTo, enemies) -> float:
        """A charge into contact, then a strike with each AP left (capped at the target's life)."""
        t = min(enemies, key=lambda e: (math.hypot(e["x"] - o.x, e["y"] - o.y), e["key"]))
        strikes = me["ap"] - 1
        c, ct = self.chars(me["key"]), self.chars(t["key"])
        one = self.pricer.strike(me, t, combat=c.combat, defence=ct.defence, weapon_bonus=self.melee_bonus(me),
                                 defence_ap=self.defence_ap(t))
        return min(strikes * one, t["health"] + OUT_BONUS)

    def shot_worth(self, me: dict, t: dict, o: Shoot, fs) -> float:
        """A throw's worth by the engine's odds (``DuelPricer.shot``)."""
        c = self.chars(me["key"])
        dist = max(0.0, math.hypot(me["x"] - t["x"], me["y"] - t["y"]) - 2 * BASE_RADIUS_MM) / 10.0
        w = self.pricer.shot(me, t, throw=c.throw, defence=self.chars(t["key"]).defence,
                             weapon_bonus=None if o.weapon is None else self.weapon_bonus(me["key"], o.weapon),
                             dist_cm=dist, visible=self.sight_fraction(me, t, fs), aimed=o.aimed,
                             defence_ap=self.defence_ap(t))
        return w - (0.3 if o.aimed else 0.0)      # an aimed shot costs an AP more

    def shot_plan_worth(self, me: dict, shots, fs) -> float:
        """The best unaimed shot, taken with each shot left this turn (capped likewise)."""
        left = min(2 - me["shots_taken"], me["ap"])
        return max([min(left * self.shot_worth(me, fs[o.target], o, fs), fs[o.target]["health"] + OUT_BONUS)
                    for o in shots if not o.aimed] + [0.0])

    def best_move(self, space, me, enemies, fs, mission=None):
        """The move to make, or None; kept per question (a search meets the same position in
        many worlds): the key is the move space, every fighter's whole entry and the mission's
        entry of the view (None in the fight)."""
        key = (space.signature(), me["key"], tuple(e["key"] for e in enemies), view_key(fs),
               None if mission is None else view_key(mission))
        return self.kept_move(key, lambda: self._best_move(space, me, enemies, fs, mission))

    def mission_goal(self, me, fs, mission) -> tuple | None:
        """What a mission asks of ``me``: (points to walk to, reach (mm from its base edge), weight
        per move of walking, bonus for being within reach), or None (the fight, or nothing to do).
        Standing Stones: the stones no other fighter of ours on its feet is near (the warband
        spreads over them; one the enemy holds is worth contesting). Relic Hunt: a relic on the
        ground; with none left, an enemy carrying one; a carrier of ours keeps its relic (none)."""
        if not mission:
            return None
        mine = [f for f in fs.values() if f["side"] == self.player and not f["out"] and not f["on_ground"]
                and f["key"] != me["key"]]
        r = BASE_RADIUS_MM
        if mission["id"] == "standing-stones":
            reach = mission["distance_mm"]
            pts = tuple((k["x"], k["y"]) for k in mission["markers"]
                        if not any(math.hypot(f["x"] - k["x"], f["y"] - k["y"]) - r <= reach for f in mine))
            return (pts, reach, 0.6, 2.0) if pts else None
        relics = mission.get("relics") or {}
        if any(x["carrier"] == me["key"] for x in relics.values()):
            return None
        lying = tuple((x["x"], x["y"]) for _, x in sorted(relics.items()) if not x["carrier"])
        if lying:
            return lying, mission["reach_mm"], 0.6, 2.5
        theirs = tuple((fs[x["carrier"]]["x"], fs[x["carrier"]]["y"]) for _, x in sorted(relics.items())
                       if x["carrier"] in fs and fs[x["carrier"]]["side"] != self.player)
        return (theirs, 2.0, 0.6, 0.0) if theirs else None

    def _best_move(self, space, me, enemies, fs, mission=None):
        c = self.chars(me["key"])
        mover = self.base(me)
        ebases = [self.base(e) for e in enemies]
        field_ = self.grid.field([(e["x"], e["y"]) for e in enemies])
        others = [self.base(f) for f in fs.values() if not f["out"] and f["key"] != me["key"]]
        here = MoveTo(me["key"], me["x"], me["y"])
        rng_mm = sh.max_range_cm(c.throw) * 10.0
        ap_after = me["ap"] - 1
        can_shoot_after = ap_after >= 1 and me["shots_taken"] < 2 and c.throw > 0
        # only the pairs the scores below read: a shot within my range, a threat within the
        # enemy's range plus its move
        threat_mm = [sh.max_range_cm(self.chars(e["key"]).throw) * 10.0 + self.chars(e["key"]).movement * 10.0
                     for e in enemies]
        mgoal = self.mission_goal(me, fs, mission)
        goal_fields, goal_points = [field_], [(e["x"], e["y"]) for e in enemies]
        if mgoal is not None:          # a mission's stone, relic or carrier: walked to round the terrain too
            mfield = self.grid.field(mgoal[0])
            goal_fields.append(mfield)
            goal_points += sorted(mgoal[0], key=lambda q: (math.hypot(q[0] - me["x"], q[1] - me["y"]), q))[:3]
        spots = kept_spots(self.__dict__.setdefault("_spots", {}), space, self.grid, self.table, here, mover,
                           ebases, others, field_, goal_fields, goal_points,
                           stop_short=2 * BASE_RADIUS_MM + 2.0,
                           sees_within=[rng_mm if can_shoot_after else -1.0] * len(enemies), seen_within=threat_mm)
        step = max(1.0, space.allowance)
        for k, s in enumerate(spots):
            goal = s.goal if s.goal < INF else 5 * step
            u = -goal / step
            s.parts = {"goal": u}
            if can_shoot_after:
                best = 0.0
                for j, e in enumerate(enemies):
                    dist = max(0.0, math.hypot(s.base.x - e["x"], s.base.y - e["y"]) - 2 * BASE_RADIUS_MM)
                    if dist <= rng_mm and s.sees[j] >= 0.1:
                        band = sh.range_band(c.throw, dist / 10.0)
                        best = max(best, 1.5 + 0.5 * BAND_SCORE.get(band, -3) + (0.5 if s.sees[j] >= 0.9 else 0))
                u += best
                s.parts["shot"] = best
            threat = 0.0
            for j, e in enumerate(enemies):
                dist = max(0.0, math.hypot(s.base.x - e["x"], s.base.y - e["y"]) - 2 * BASE_RADIUS_MM)
                if dist <= threat_mm[j] and s.seen[j] >= 0.1:
                    threat += 0.25 * s.seen[j]
            u -= threat
            s.parts["threat"] = -threat
            if mgoal is not None:
                pts, reach, weight, bonus = mgoal
                gd = self.grid.dist(mfield, s.base.x, s.base.y)
                obj = -weight * (gd if gd < INF else 5 * step) / step
                if any(math.hypot(s.base.x - x, s.base.y - y) - BASE_RADIUS_MM <= reach for x, y in pts):
                    obj += bonus
                u += obj
                s.parts["objective"] = obj
            s.score = u - (0.0 if k else 0.35)   # staying must be clearly better: moving costs nothing but AP
        here_spot, rest = spots[0], spots[1:]
        if not rest:
            return None
        key = spot_key(self.frame)       # ties as the player faces the table (docs/ai.md)
        best = max(rest, key=key)
        if best.score <= here_spot.score + 0.35 + 0.05:
            return None
        if space.check(best.move) is not None:   # every chosen point passes the space's check
            ok = [s for s in rest if space.check(s.move) is None]
            if not ok:
                return None
            best = max(ok, key=key)
        self.note_reason(spots, best.move)
        return best.move

    # -------------------------------------------------------------- the duel
    def announce(self, d, v, fs):
        opts = [o for o in d.options if isinstance(o, Announce)]
        f = fs[opts[0].fighter]
        ap = f["ap"]
        at = v.get("attack") or {}
        if d.kind == "announce attack":
            more = (at.get("kind") == "shoot" and f["shots_taken"] < 1) or at.get("kind") == "melee"
            n = ap - 1 if (more and ap >= 2) else ap
            if at.get("kind") == "melee" and ap >= 2:
                n = max(1, ap - 1)
        else:
            n = ap if f["activated"] or v.get("acting") is None else min(ap, 1)
        n = max(0, min(n, ap))
        cands = [o for o in opts if o.ap == n] or opts
        adv = [o for o in cands if o.back == "advantage"]
        return (adv or cands)[0]

    def keep(self, d, v):
        opts = [o for o in d.options if isinstance(o, KeepDice)]
        total = lambda o: sum(o.values)       # noqa: E731
        best = max(total(o) for o in opts)
        doubles = [o for o in opts if dl.make_keep(o.values, o.penalty_values, self.rules.opts).is_double
                   and total(o) >= best - 1]
        if doubles:
            return max(doubles, key=total)
        return max(opts, key=lambda o: (total(o), o.values))

    def _results(self, v):
        at = v.get("attack") or {}
        dice = at.get("dice") or {}
        out = {}
        for role in ("attacker", "defender"):
            side = dice.get(role) or {}
            vals = {i: val for i, val, _pen in side.get("dice", [])}
            kept = side.get("kept") or []
            out[role] = sum(vals.get(i, 0) for i in kept) if kept else None
        return out

    def effect(self, d, v):
        opts = [o.effect for o in d.options if isinstance(o, ChooseEffect)]
        who = d.options[0].fighter
        at = v.get("attack") or {}
        role = "attacker" if who == at.get("attacker") else "defender"
        res = self._results(v)
        mine, theirs = res[role], res["defender" if role == "attacker" else "attacker"]
        if role == "attacker":
            if dl.FORCE_ATTACK in opts:
                pref = [dl.FORCE_ATTACK]
            elif theirs is None:
                pref = [dl.PRECISE_ATTACK, dl.FLAW]
            elif mine is not None and mine > theirs:
                pref = [dl.FLAW]
            elif mine is not None and mine == theirs:
                pref = [dl.TACTICAL_ADVANTAGE, dl.MANOEUVRE]
            else:
                pref = [dl.MANOEUVRE, dl.PRECISE_ATTACK]
        else:
            if theirs is None:
                pref = [dl.AGGRESSIVENESS, dl.COVER]
            elif mine is not None and mine > theirs:
                pref = [dl.INTIMIDATION, dl.AGGRESSIVENESS]
            elif mine is not None and mine == theirs:
                pref = [dl.MANOEUVRE, dl.AGGRESSIVENESS]
            else:
                pref = [dl.MANOEUVRE, dl.AGGRESSIVENESS]
            pref.append(dl.LOW_AMMUNITION)
        for e in pref:
            if e in opts:
                return next(o for o in d.options if isinstance(o, ChooseEffect) and o.effect == e)
        non = [o for o in d.options if isinstance(o, ChooseEffect) and o.effect != dl.NO_EFFECT]
        return (non or list(d.options))[0]

    def opponent_die(self, d, v):
        if d.kind == "discard":
            return self.discard(d, v)
        return self.reroll(d, v)

    def discard(self, d, v):
        """(penalty_rule="opponent_discards") Set aside the die that leaves the opponent the worst
        keep, as easy keeps (its best pair, or a double within a pip of it): the lowest result,
        a double counting a pip and a half more (its effect)."""
        at = v.get("attack") or {}
        dice = at.get("dice") or {}
        fs = {f["key"]: f for f in v["fighters"]}
        att = fs.get(at.get("attacker"))
        # the dice set aside are the other side's: the defender's when we attack, else the attacker's
        role = "defender" if att is not None and att["side"] == d.player else "attacker"
        owner = (dice.get(role) or {}).get("dice", [])
        opts = [o for o in d.options if isinstance(o, DiscardDie)]
        if not owner:
            return self.reroll(d, v)

        def left(o):
            rest = [dl.Die(i, val, bool(pen)) for i, val, pen in owner if i != o.die]
            keeps = dl.legal_keeps(rest, self.rules.opts)
            if not keeps:
                return (0.0, -o.die)
            best = max(k.total for k in keeps)
            doubles = [k.total for k in keeps if k.is_double and k.total >= best - 1]
            return (max([best] + [x + 1.5 for x in doubles]), -o.die)
        return min(opts, key=left)

    def reroll(self, d, v):
        at = v.get("attack") or {}
        dice = at.get("dice") or {}
        vals, kept = {}, set()
        for role in ("attacker", "defender"):
            side = dice.get(role) or {}
            for i, val, _pen in side.get("dice", []):
                vals[i] = val
            kept |= set(side.get("kept") or [])
        opts = [o for o in d.options if isinstance(o, (RerollDie, DiscardDie))]
        return max(opts, key=lambda o: (o.die in kept, vals.get(o.die, 0), -o.die))
