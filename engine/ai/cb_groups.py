"""Group activations for the Counterblast policy (a mixin of ``CounterblastPolicy``).

The seed: "The crew spends 2 Moxie and chooses one of its un-Spent Hero models and up to 2 of its
un-Spent Lackey models. These models activate and may use two actions this Phase", the group
choosing each action for all ("When the group uses an action, all models in the group use the
chosen action, a team action that enhances the chosen action, or use their action to Do
Nothing").

What it buys: three models act for 2 Moxie instead of 3, and the Moxie kept pays a reaction, wins
more Activation phases (the Moxie check rolls the pool) or lowers Dread at Upkeep; and a member
that cannot use the group's action may help one that can (Aim-Assist, Boost, Dog-pile). What it
costs: the members act in step (all Move, then all Shoot), so a member whose own plan is not a
Move and an attack (a psifer, a medic with a Down friend, a Panicked or Pinned model) is left out.

- Forming: the model with the most to do (the single activation's ranking) leads when it can be
  in a group; the group is it, the hero, and two lackeys, each of which has work of its own
  (``has_work``) and a plan of moving and fighting. Otherwise a single activation, as before. A
  group of two costs what two single activations cost, so only three are formed.
- The group's action: Strike when half the members have an enemy in reach; Hack first when every
  member has a shot and a scanner's Mark on their target is worth it (``cb_skills.group_mark``:
  the members within 1" Boost the check); Shoot first when most members have a shot now, else
  Move first (a member then moves to a spot with a shot, which the move score values); after
  that, Shoot while a member still has a shot, Strike while one has an enemy in reach, Rush
  toward far goals, else the activation ends. Extra actions would cost a Moxie per member: never
  bought.
- Each member's part: its own best option of that kind (the best shot by the engine's odds, a
  split when it beats its singles, its best move), else a team action whose die is worth more to
  a friend still to act than the member's own attack (``team_help``), else Do Nothing.
"""
from __future__ import annotations

from engine.rulesets.common import MoveSpace, MoveTo
from engine.rulesets.counterblast.choices import (
    ActivateGroup,
    AimAssist,
    Boost,
    DogPile,
    DoNothing,
    EndActivation,
    GroupAction,
    Rush,
    Shoot,
    Strike,
)

from .cb_host import CounterblastHost
from .cb_odds import cover_from_sight, label_numbers

NO_GROUP = ("panic", "pinned", "stunned", "blind", "half_blind")
SHOT_MIN = 0.12        # the single activation's own bar for an attack


class GroupPlay(CounterblastHost):
    # -------------------------------------------------------------- forming a group
    def group_member_ok(self, v, mid) -> bool:
        """Can ``mid`` follow a group's steps (Move, then an attack) without losing its own plan?"""
        m = v["models"][mid]
        if m["down"] or any(c in m["conditions"] for c in NO_GROUP):
            return False
        p = self.rules.profile[mid]
        if not p.shooting and not p.striking:
            return False
        # a psifer or a healer has a plan of its own (Psi Strike, Treat): it acts alone
        if self.rules.enigmas(mid, "psi_strike") or (self.rules.gear_kinds(mid) & {"medkit", "tools"}):
            return False
        return True

    def group_pick(self, d, v, lead, value, work):
        """The ActivateGroup option led by ``lead``'s group (``lead`` and two lackeys, or its hero
        and another lackey when ``lead`` is a lackey), or None. ``value(mid)`` ranks the models,
        ``work(mid)`` says whether a model would do something once activated."""
        groups = [o for o in d.options if isinstance(o, ActivateGroup) and len(o.models) == 3]
        if not groups or not self.group_member_ok(v, lead) or not work(lead):
            return None
        ok = {i for o in groups for i in o.models if self.group_member_ok(v, i)}
        if lead not in ok:
            return None
        best, best_val = None, None
        for o in groups:
            if lead not in o.models or not all(i in ok for i in o.models):
                continue
            if not all(work(i) for i in o.models):
                continue
            val = sum(value(i) for i in o.models)
            if best is None or val > best_val + 1e-9:
                best, best_val = o, val
        return best

    # -------------------------------------------------------------- the group's action
    def member_shot(self, v, mid) -> float:
        """The best chance (the engine's chain) ``mid`` has to put an enemy Down with a shot from
        where it stands: in range, a third in sight, not Engaged; cover from the table's sight."""
        m = v["models"][mid]
        if "spent" in m["conditions"] or not self.rules.profile[mid].shooting:
            return 0.0
        enemies = {i: e for i, e in self.live(v, 3 - self.player).items()}
        me = self.base(mid, m)
        if self.engaged_in_view(enemies, me):
            return 0.0
        table = self.table_now(v)
        others = [self.base(i, o) for i, o in v["models"].items() if self.on_table(o) and i != mid]
        best = 0.0
        for eid, e in enemies.items():
            eb = self.base(eid, e)
            dist = self.price.dist_in(v, mid, eid)
            for w in self.rules.profile[mid].shooting:
                if dist > self.rules.armoury.shooting_weapon(w).range + 1e-9:
                    continue
                rest = [o for o in others if o.id != eid]
                if table.sight(me, eb, rest).visible_fraction < 1 / 3:
                    break
                cov = cover_from_sight(table, me, eb, rest, prone=e["down"] or "prone" in e["conditions"],
                                       options=self.rules.opt)
                best = max(best, self.price.shot(v, mid, w, eid, cover=cov)[2])
        return best

    def member_reach(self, v, mid) -> bool:
        """An enemy within ``mid``'s striking reach (a Strike it may make now)?"""
        reach = self.rules.reach.get(mid)
        if reach is None or "spent" in v["models"][mid]["conditions"]:
            return False
        return any(not e["down"] and self.price.dist_in(v, mid, i) * 25.4 <= reach * 25.4 + 1.0
                   for i, e in self.live(v, 3 - self.player).items())

    def group_action(self, d, v):
        a = v.get("activation") or {}
        members = [i for i in a.get("members", []) if i in v["models"]]
        kinds = {o.action: o for o in d.options if isinstance(o, GroupAction)}
        end = next((o for o in d.options if isinstance(o, EndActivation)), d.options[0])
        if a.get("actions_left", 0) <= 0:
            return end        # an extra action costs a Moxie per member
        key = (v["turn"], tuple(sorted(members)))
        used = self.__dict__.setdefault("_group_used", {})
        if used.get("key") != key or not members:
            used.clear()
            used.update(key=key, kinds=[])
        done = used["kinds"]
        shooters = [i for i in members if self.member_shot(v, i) >= SHOT_MIN]
        strikers = [i for i in members if self.member_reach(v, i)]
        pick = None
        if "strike" in kinds and "strike" not in done and len(strikers) * 2 >= len(members):
            pick = "strike"
        elif "hack" in kinds and not done and len(shooters) == len(members) and self.group_mark(v, members):
            pick = "hack"     # Mark the target all will shoot (Boosted by those within 1"), then Shoot
        elif "shoot" in kinds and "shoot" not in done and shooters and \
                (len(shooters) * 2 >= len(members) or "move" in done or "move" not in kinds):
            pick = "shoot"
        elif "move" in kinds and "move" not in done and any(self.member_move(v, i, a)[0] is not None for i in members):
            pick = "move"
        elif "shoot" in kinds and "shoot" not in done and shooters:
            pick = "shoot"
        elif "strike" in kinds and "strike" not in done and strikers:
            pick = "strike"
        elif "rush" in kinds and "rush" not in done and "move" in done and \
                any(self.far_from_goal(v, i) and self.rush_pays(v, i) for i in members):
            pick = "rush"
        if pick is None:
            return end
        done.append(pick)
        return kinds[pick]

    def member_move(self, v, mid, a):
        """(the member's best move, gain) with the actions the group has after this one."""
        sp = self.view_move_space(v, mid)
        after = max(0, a.get("actions_left", 0) - 1)
        mv, gain = self.best_move(sp, v, mid, actions_after=after)
        return (mv, gain) if (mv is not None and gain > 0.05) else (None, gain)

    # -------------------------------------------------------------- each member's part
    def group_step(self, d, v):
        a = v.get("activation") or {}
        step = a.get("step")
        opts = d.options
        nothing = [o for o in opts if isinstance(o, DoNothing)]
        left = a.get("actions_left", 0)
        if step == "move":
            best, opener = None, None
            for sp in d.spaces:
                if not isinstance(sp, MoveSpace):
                    continue
                mid = sp.base.id
                mv, gain = self.best_move(sp, v, mid, actions_after=left)
                if mv is not None and gain > 0.05 and (best is None or gain > best[1] + 1e-9):
                    best = (mv, gain)
                elif opener is None and mv is not None and gain > -0.25 and left >= 1 and \
                        self.far_from_goal(v, mid) and self.rush_pays(v, mid, mv):
                    opener = mv      # a step that opens a Rush toward a far goal, as alone
            if best is not None or opener is not None:
                return (best or (opener,))[0]
            return nothing[0] if nothing else self.step_part(d, v)
        if step in ("shoot", "strike"):
            cls = Shoot if step == "shoot" else Strike
            attacks = [(self.odds(d, o), o) for o in opts if isinstance(o, cls)]
            attacks = [(p, o) for p, o in attacks if p > 0]
            split = self.best_split(d, v)
            if split is not None and split[1] > max([p for p, o in attacks if o.model == split[0].model] + [0.0]) \
                    + self.split_margin:
                attacks.append((split[1], split[0]))
            help_ = self.team_help(d, v, attacks)
            if help_ is not None:
                return help_
            if attacks:     # as a single activation would, any chance at all once the step is paid for
                return max(attacks, key=lambda po: (round(po[0], 9), po[1].model,
                                                    str(getattr(po[1], "target", None) or po[1].targets)))[1]
            return nothing[0] if nothing else self.step_part(d, v)
        if step == "hack":
            plan = self.group_mark(v, [i for i in a.get("members", []) if i in v["models"]])
            if plan is not None:
                marker, target, _ = plan
                for o in opts:       # Boosts first: each adds a die to the marker's Knack check
                    if isinstance(o, Boost) and o.friend == marker:
                        return o
                for o in opts:
                    if type(o).__name__ == "HackMark" and o.model == marker and o.target == target:
                        return o
            return nothing[0] if nothing else self.step_part(d, v)
        if step == "rush":
            for o in opts:
                if isinstance(o, Rush) and self.far_from_goal(v, o.model) and self.rush_pays(v, o.model):
                    return o
            return nothing[0] if nothing else self.step_part(d, v)
        return self.step_part(d, v)

    def step_part(self, d, v):
        """A member's part of a step with nothing better: the step's own action (an Aim, a
        Recover...), else Do Nothing."""
        opts = d.options
        part = [o for o in opts if not isinstance(o, (DoNothing, AimAssist, Boost, DogPile))
                and type(o).__name__ not in ("GoProne", "StandUp") and not isinstance(o, MoveTo)]
        return part[0] if part else next(o for o in opts if isinstance(o, DoNothing))

    def team_help(self, d, v, attacks):
        """A team action that gains more than the member's own attack: Aim-Assist (+1D to a
        friend's Zap; "a model may only benefit from one Aim-Assist at a time") for the friend's
        best shot, Dog-pile (+1D to the next Strike on the target; they stack) for the best
        Strike on that target by a friend still to act. Each gain is the engine's chain with and
        without the die; the member's own is its best attack's chance. None when no member
        gains by helping."""
        own, best_by = {}, {}
        for p, o in attacks:
            own[o.model] = max(own.get(o.model, 0.0), p)
            if isinstance(o, (Shoot, Strike)) and p > best_by.get(o.model, (0.0, None))[0]:
                best_by[o.model] = (p, o)
        if not best_by:
            return None
        key = (v["turn"], tuple(sorted((v.get("activation") or {}).get("members", []))))
        memo = self.__dict__.setdefault("_team", {})
        if memo.get("key") != key:
            memo.clear()
            memo.update(key=key, assisted=set(), piles={})
        labels = dict(zip(d.options, d.labels))
        best = None
        for o in d.options:
            gain = 0.0
            if isinstance(o, AimAssist) and o.friend in best_by and o.friend not in memo["assisted"]:
                p, shot = best_by[o.friend]
                nums = label_numbers(labels.get(shot, "")) if isinstance(shot, Shoot) else None
                if nums is not None:
                    gain = self.price.shot(v, shot.model, shot.weapon, shot.target, cover=nums[1], diff=nums[0],
                                           bonus=1)[2] - p
            elif isinstance(o, DogPile):
                strikes = [b for m, b in best_by.items() if m != o.model and isinstance(b[1], Strike)
                           and b[1].target == o.target]
                if strikes:
                    p, st = max(strikes, key=lambda b: b[0])
                    piles = memo["piles"].get(o.target, 0)
                    gain = self.price.strike(v, st.model, st.weapon, st.target, bonus=piles + 1)[2] - \
                        self.price.strike(v, st.model, st.weapon, st.target, bonus=piles)[2]
            else:
                continue
            gain -= own.get(o.model, 0.0)
            if gain > 0.02 and (best is None or gain > best[0] + 1e-9):
                best = (gain, o)
        if best is None:
            return None
        o = best[1]
        if isinstance(o, AimAssist):
            memo["assisted"].add(o.friend)
        else:
            memo["piles"][o.target] = memo["piles"].get(o.target, 0) + 1
        return o
