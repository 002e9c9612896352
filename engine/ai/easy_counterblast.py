"""Greedy play for Counterblast (d10 pools, Moxie; six turns; mission score = objectives + battle).

- The mission drives movement: for Salvage Rights each model is given a marker (nearest by
  walking distance, spreading the crew over the markers) and walks there round the terrain;
  Headhunters sends the crew at the enemy leader; Data Heist at the terminals and, late, the
  heroes to their evac point. A model near its marker stays within the control range.
- Attacks: the engine's own odds, as each Shoot/Strike option states them ("24% to put it
  Down"), pick the attack; Aim first when the shot is poor and a free action is left.
- Moves: candidates from the table scored by the mission goal, a shot from there (range, sight
  at least a third), the threat of enemies that see the spot and its cover.
- Activations: the model with the most to do (a shot now, the farthest from its goal); Moxie
  for reactions when there is some to spare; all spare Moxie against Dread at Upkeep.

The rest of the game's mechanics, each priced with the engine's odds fed with numbers from the
view (``cb_odds``), live in mixins: which model or group to activate (``cb_activation``), group
activations and team actions (``cb_groups``), charges and Throw (``cb_melee``), Hack to Mark, Psi
Strike v Psi Craft and heals (``cb_skills``), split attacks (``cb_splits``), Prone and Jump
(``cb_maneuvers``). docs/ai.md says where each is taken and why."""
from __future__ import annotations

import math
import re

from engine.core.tables import table_without
from engine.rulesets.common import MoveSpace, MoveTo, memo_get
from engine.rulesets.counterblast.choices import (
    Aim,
    ElectLeader,
    EndActivation,
    Engineer,
    GroupAction,
    HackMark,
    HackTerminal,
    KeepLeader,
    NoReaction,
    Rally,
    React,
    Recover,
    ReduceDread,
    Rush,
    Shoot,
    SplitShoot,
    SplitStrike,
    StandUp,
    Stay,
    Strike,
    Treat,
)
from engine.rulesets.counterblast.conditions import effective_move
from engine.rulesets.counterblast.flow.movement import CBMoveSpace
from engine.rulesets.counterblast.rules import MM, PRONE_HEIGHT_MM
from engine.table import Base

from .cb_activation import ActivationPlay
from .cb_groups import GroupPlay
from .cb_maneuvers import ManeuverPlay
from .cb_melee import CHARGE_MARGIN, CHARGE_MIN, THROW_MARGIN, MeleePlay
from .cb_odds import Odds
from .cb_skills import SkillPlay
from .cb_splits import SPLIT_MARGIN, SplitPlay
from .easy import Policy, fallback
from .easy_moves import best_spot, candidate_moves, measure
from .geo import INF, walk_grid
from .utility import CounterblastUtility

ODDS = re.compile(r"(\d+)% to (?:put|finish)")
REACTION_PREF = {"return_fire": 3, "counterstrike": 3, "snapshot": 2, "pursuit": 1, "parry": 2, "disperse": 2}


class CounterblastPolicy(ActivationPlay, GroupPlay, MeleePlay, SkillPlay, SplitPlay, ManeuverPlay, Policy):
    Utility = CounterblastUtility

    def __init__(self, agent):
        super().__init__(agent)
        self.price = Odds(self.rules)
        self.markers = dict(self.rules.markers)
        self.kinds = [o.kind for o in self.rules.mission.objectives]
        self.activated: dict = {}   # turn -> models this agent activated (its own memory)
        self.ctrl_range = max([o.range for o in self.rules.mission.objectives if o.kind == "control_markers"]
                              + [self.rules.opt.objective_control_range]) * MM

    # -------------------------------------------------------------- static facts and geometry
    def table_now(self, v):
        opened = tuple(v.get("opened_doors") or ())
        return table_without(self.table.mapfile, opened) if opened else self.table

    def base(self, mid, m) -> Base:
        p = self.rules.profile[mid]
        h = PRONE_HEIGHT_MM if (m["down"] or "prone" in m["conditions"]) else p.height_mm
        return Base(mid, m["x"], m["y"], p.base_mm / 2, h, 0.0, m["z"])

    def on_table(self, m) -> bool:
        return not m["casualty"] and not m.get("gone", False)

    def live(self, v, player):
        return {i: m for i, m in v["models"].items() if m["player"] == player and self.on_table(m)}

    def gun_range(self, mid) -> float:
        """The model's longest gun range (mm): static (its profile, the armoury), and asked for
        every candidate spot and enemy, so worked out once per model."""
        ranges = self.__dict__.setdefault("_gun_ranges", {})
        got = ranges.get(mid)
        if got is None:
            got = ranges[mid] = max([self.rules.armoury.shooting_weapon(w).range
                                     for w in self.rules.profile[mid].shooting] + [0.0]) * MM
        return got

    # -------------------------------------------------------------- goals
    def goals(self, v):
        """Each of my models' goal point (mm), from the mission; kept per positions (a decision
        asks several times, a search meets the same positions in many worlds, and walking fields
        are dear)."""
        key = (v["turn"], tuple(v.get("opened_doors") or ()),
               tuple(sorted((str(k), str(x)) for k, x in v["leader"].items())),
               tuple((i, m["player"], m["x"], m["y"], m["down"], m["casualty"], m.get("gone", False))
                     for i, m in v["models"].items()))
        return dict(memo_get(self.__dict__.setdefault("_goals_kept", {}), key, lambda: self._goals(v), 1024))

    def _goals(self, v):
        mine = {i: m for i, m in self.live(v, self.player).items() if not m["down"]}
        enemies = {i: m for i, m in self.live(v, 3 - self.player).items()}
        out = {}
        if "control_markers" in self.kinds and self.markers:
            table = self.table_now(v)
            load = {k: 0 for k in self.markers}
            # markers as the player faces the table (left first): an equal cost goes to the
            # player's left on either side of a symmetric table
            fr = self.frame
            order = sorted(self.markers.items(), key=lambda kv: ([-t for t in fr.tie_key(*kv[1])], kv[0])) \
                if fr is not None else sorted(self.markers.items())
            for mid in sorted(mine):
                m = mine[mid]
                g = walk_grid(table, self.rules.profile[mid].base_mm / 2)
                best = None
                for k, (x, y) in order:
                    d = g.dist(g.field([(x, y)]), m["x"], m["y"])
                    d = d if d < INF else math.hypot(x - m["x"], y - m["y"]) * 2
                    cost = round(d + 10 * MM * load[k], 6)
                    if best is None or cost < best[0]:
                        best = (cost, k)
                load[best[1]] += 1
                out[mid] = self.markers[best[1]]
            return out
        if "hack_markers" in self.kinds and self.markers:
            pts = list(self.markers.values())
            for mid, m in mine.items():
                if "extract" in self.kinds and v["turn"] >= 5 and self.rules.hero(mid) and self.player in self.rules.evac:
                    out[mid] = self.rules.evac[self.player]
                else:
                    out[mid] = min(pts, key=lambda p: math.hypot(p[0] - m["x"], p[1] - m["y"]))
            return out
        target = None
        if "eliminate_leader" in self.kinds:
            lid = v["leader"].get(str(3 - self.player), v["leader"].get(3 - self.player))
            if lid in enemies:
                target = (enemies[lid]["x"], enemies[lid]["y"])
        for mid, m in mine.items():
            if target is not None:
                out[mid] = target
            elif enemies:
                e = min(enemies.values(), key=lambda e: math.hypot(e["x"] - m["x"], e["y"] - m["y"]))
                out[mid] = (e["x"], e["y"])
        return out

    # -------------------------------------------------------------- decisions
    def choose(self, d, v):
        k = d.kind
        if k == "elect a leader":
            lid = v["leader"].get(self.player, v["leader"].get(str(self.player)))
            lm = v["models"].get(lid)
            if lm is None or lm["down"] or not self.on_table(lm):
                el = [o for o in d.options if isinstance(o, ElectLeader)]
                if el:
                    return el[0]
            return next(o for o in d.options if isinstance(o, KeepLeader))
        if k == "reduce dread":
            return max(d.options, key=lambda o: o.moxie if isinstance(o, ReduceDread) else -1)
        if k == "throw direction":
            return self.throw_direction(d, v)
        if k == "react":
            return self.react(d, v)
        if k == "activate":
            return self.activate(d, v)
        if k == "act":
            return self.act(d, v)
        if k == "move":
            sp = next((s for s in d.spaces if isinstance(s, MoveSpace)), None)
            mv = self.rolled_move(sp, v) if isinstance(sp, CBMoveSpace) else None
            if mv is not None:
                return mv
            return next((o for o in d.options if isinstance(o, Stay)), d.options[0])
        return fallback(d, self.agent.rng)

    def throw_direction(self, d, v):
        """Send the thrown model off the marker whose control it decides, the way that needs the
        fewest inches (``throw_plan``), else straight away from the thrower (the heading from the
        thrower's centre through the target's); the nearest shortcut when that point is refused."""
        sp = d.spaces[0] if d.spaces else None
        if sp is not None:
            o = next((o for o in d.options if hasattr(o, "target")), None)
            if o is not None:
                me, t = v["models"][o.model], v["models"][o.target]
                held = self.held_marker(v, o.target)
                plan = self.throw_plan(v, o.model, o.target, *held) if held is not None else None
                if plan is not None:         # off the marker it decides, the shortest way
                    h = math.radians(plan[1])
                    pts = [(t["x"] + 100 * math.cos(h), t["y"] + 100 * math.sin(h))]
                else:
                    pts = [(t["x"] + (t["x"] - me["x"]) * 4, t["y"] + (t["y"] - me["y"]) * 4)]
                for c in sp.at_point(*pts[0]):
                    if sp.check(c) is None:
                        return c
        return fallback(d, self.agent.rng)

    def moxie(self, v) -> int:
        mx = v["moxie"]
        return mx.get(self.player, mx.get(str(self.player), 0))

    def react(self, d, v):
        reacts = [o for o in d.options if isinstance(o, React)]
        none = next((o for o in d.options if isinstance(o, NoReaction)), d.options[0])
        if not reacts or self.moxie(v) < 2:
            return none
        best = max(reacts, key=lambda o: (REACTION_PREF.get(o.reaction, 0), o.model, o.weapon))
        return best if REACTION_PREF.get(best.reaction, 0) > 0 else none

    def odds(self, d, o) -> float:
        try:
            label = d.labels[d.options.index(o)]
        except (ValueError, IndexError):
            return 0.0
        m = ODDS.search(label)
        return int(m.group(1)) / 100.0 if m else 0.0

    def rush_pays(self, v, mid, after=None) -> bool:
        """Would a Rush get the model anywhere: from where it stands (or from ``after``, the
        Move that opens the Rush), a move of a d10's mean (5.5") must gain (``rolled_move``).
        Without this the model stepped aside and Rushed toward a far goal it could not get
        closer to (boxed in by friends at the table's edge or on a container), and then stayed
        where it was: two actions for nothing."""
        m = v["models"][mid]
        mean = (self.rules.opt.rush_die + 1) / 2
        at = (after.x, after.y) if after is not None else (m["x"], m["y"])
        return self.rolled_move(self.view_move_space(v, mid, allowance=mean * MM, at=at), v) is not None

    def rolled_move(self, sp, v):
        """The move to make with a rolled allowance (a Rush's d10, an Action roll), or None to
        stay: the best move of the whole roll when it gains, else of a plain Move's allowance,
        else of half of it. A point a shorter allowance reaches the roll reaches too, but the
        candidates are spread over the allowance asked, so a long roll alone passed between
        the short steps out of a packed crew that a plain Move found."""
        mid = sp.base.id
        walk = self.rules.profile[mid].move * MM
        mean = (self.rules.opt.rush_die + 1) / 2 * MM       # what ``rush_pays`` weighed
        tried = []
        for allowance in (sp.allowance, mean, walk, walk / 2):
            if allowance > sp.allowance + 1e-9 or any(abs(allowance - t) < 0.1 * t for t in tried):
                continue
            tried.append(allowance)
            s = sp if allowance == sp.allowance else CBMoveSpace(
                sp.table, sp.base, allowance, sp.others, sp.enemies, no_closer=sp.no_closer)
            mv, gain = self.best_move(s, v, mid, actions_after=0)
            if mv is not None and gain > 0 and sp.check(mv) is None:
                return mv
        return None

    def rush_progress(self, v, mid) -> float:
        """How much nearer its goal (walking distance, mm) a Rush of the d10's mean takes ``mid``
        (``rolled_move``'s answer), 0 if it stays."""
        mean = (self.rules.opt.rush_die + 1) / 2
        mv = self.rolled_move(self.view_move_space(v, mid, allowance=mean * MM), v)
        g = self.goals(v).get(mid)
        if mv is None or g is None:
            return 0.0
        grid = walk_grid(self.table_now(v), self.rules.radius[mid])
        f = grid.field([g])
        m = v["models"][mid]
        return max(0.0, grid.dist(f, m["x"], m["y"]) - grid.dist(f, mv.x, mv.y))

    def far_from_goal(self, v, mid) -> bool:
        """Far enough from its goal that ``act`` would Rush after a Move."""
        g = self.goals(v).get(mid)
        m = v["models"][mid]
        return g is not None and math.hypot(g[0] - m["x"], g[1] - m["y"]) > self.ctrl_range + 4 * MM

    def view_move_space(self, v, mid, allowance: float | None = None, at=None) -> CBMoveSpace:
        """The Move action's space as the engine offers it once the model is activated, built from
        the view (positions, postures, Panic) and the public profile: to weigh an activation
        before paying for it. ``allowance`` (mm) and ``at`` (x, y) weigh another move from
        another place: a Rush after the Move that opens it."""
        m = v["models"][mid]
        table = self.table_now(v)
        others = [self.base(i, o) for i, o in v["models"].items() if self.on_table(o) and i != mid]
        enemies = [self.base(i, o) for i, o in self.live(v, 3 - self.player).items()]
        move = effective_move(self.rules.profile[mid].move, m["conditions"], self.rules.opt) * MM
        me = self.base(mid, m)
        if at is not None:
            me = me.moved(at[0], at[1], z=table.surface_height(*at))
        return CBMoveSpace(table, me, move if allowance is None else allowance, others,
                           enemies, no_closer="panic" in m["conditions"])

    def act(self, d, v):
        opts = d.options
        a = v.get("activation") or {}
        left = a.get("actions_left", 0)
        if a.get("step"):               # a member's part of its group's action
            return self.group_step(d, v)
        if any(isinstance(o, GroupAction) for o in opts):
            return self.group_action(d, v)
        for o in opts:
            if isinstance(o, Rally):
                return o
        attacks = [o for o in opts if isinstance(o, (Shoot, Strike))]
        best_att, best_p = None, 0.0
        for o in attacks:
            p = self.odds(d, o)
            if p > best_p:
                best_att, best_p = o, p
        split = self.best_split(d, v)
        if split is not None and split[1] > best_p + SPLIT_MARGIN:
            best_att, best_p = split        # dice shared over targets: more expected Downs
        throw = self.best_throw(d, v)
        if throw is not None and throw[1] > best_p + THROW_MARGIN:
            return throw[0]                 # the last turn: off the marker it decides
        aims = [o for o in opts if isinstance(o, Aim)]
        if left <= 0:   # extra actions cost Moxie: only for a good attack
            if best_att is not None and best_p >= 0.35 and self.moxie(v) >= 3:
                return best_att
            return next(o for o in opts if isinstance(o, EndActivation))
        for o in opts:
            if isinstance(o, Recover):
                return o
        up = self.stand_for_shot(d, v)      # Prone, no shot lying down and one standing
        if up is not None:
            return up
        heal = [o for o in opts if isinstance(o, (Treat, Engineer))]
        if heal:
            downs = [o for o in heal if v["models"][o.target]["down"]]
            if downs:
                return downs[0]
        # late in the game a model away from its marker walks first (the mission scores more)
        actor = (a.get("members") or [None])[0]
        far = False
        if actor in v["models"] and "control_markers" in self.kinds and v["turn"] >= 3:
            g = self.goals(v).get(actor)
            m = v["models"][actor]
            far = g is not None and math.hypot(g[0] - m["x"], g[1] - m["y"]) > self.ctrl_range * 0.9
        spaces = [s for s in d.spaces if isinstance(s, MoveSpace)]
        charge = self.best_charge(d, v, left)
        if charge is not None:        # into base contact, to Strike with the second action
            alt = self.shot_alternative(d, v, best_att, best_p, left)
            if charge[2] >= max(CHARGE_MIN, alt + CHARGE_MARGIN) and (not far or charge[2] >= 0.45):
                return charge[0]
        if far and spaces and (best_att is None or best_p < 0.45 or left >= 2):
            sp = spaces[0]
            mv, gain = self.best_move(sp, v, sp.base.id, actions_after=left - 1)
            if mv is not None and gain > 0.05:
                return self.move_prone(d, mv, v, left - 1)
        if best_att is not None and (best_p >= 0.12 or isinstance(best_att, (Strike, SplitStrike))):
            if aims and left >= 2 and isinstance(best_att, (Shoot, SplitShoot)) and best_p < 0.5 and not far:
                return self.mark_before_shot(d, v, best_att, left) or aims[0]
            return best_att
        hack = [o for o in opts if isinstance(o, HackTerminal)]
        if hack:
            return hack[0]
        psi = self.psi_choice(d, v)         # the best Psi Strike or Psi Craft by its worth
        if psi is not None:
            return psi
        mend = self.heal_choice(d, v)       # tokens off a friend near going Down (medkit, tools)
        if mend is not None:
            return mend
        stand = [o for o in opts if isinstance(o, StandUp)]
        if spaces:
            sp = spaces[0]
            mv, gain = self.best_move(sp, v, sp.base.id, actions_after=left - 1)
            if mv is not None and gain > 0.05:
                return self.move_prone(d, mv, v, left - 1)     # the last move may end Prone
            if mv is not None and gain > -0.25 and left >= 2 and self.far_from_goal(v, sp.base.id) \
                    and self.rush_pays(v, sp.base.id, mv):
                return mv      # a step that opens a Rush (which needs a Move first) toward the goal
        elif stand:
            return stand[0]
        rush = [o for o in opts if isinstance(o, Rush)]
        mid = rush[0].model if rush else actor
        g = self.goals(v).get(mid)
        m = v["models"].get(mid)
        if g is not None and m is not None and math.hypot(g[0] - m["x"], g[1] - m["y"]) > self.ctrl_range + 4 * MM:
            pays = bool(rush) and self.rush_pays(v, mid)
            jump = self.jump_choice(d, v, self.rush_progress(v, mid) if pays else 0.0)
            if jump is not None:            # a Jump that gets further than the Rush would
                return jump
            if pays:
                return rush[0]
        if best_att is not None and best_p > 0:
            return best_att
        if aims and attacks:
            return aims[0]
        hm = [o for o in opts if isinstance(o, HackMark)]
        if hm:
            return hm[0]
        prone = self.go_prone(d, v)        # nothing better to do with the action: lie down, if it shields
        if prone is not None:
            return prone
        return next((o for o in opts if isinstance(o, EndActivation)), fallback(d, self.agent.rng))

    # -------------------------------------------------------------- moves
    def best_move(self, space, v, mid, actions_after: int):
        """(the best move, its gain over staying), kept per question: a search plays the same
        position in many worlds that differ only in dice and hidden cards, which this answer
        never reads. The key holds all it reads: the move space (``signature``), the models'
        places, postures and whether they are in play, the mover's goal and the actions left."""
        key = (space.signature(), mid, actions_after, self.goals(v).get(mid),
               tuple((i, m["x"], m["y"], m["z"], m["down"], "prone" in m["conditions"], self.on_table(m))
                     for i, m in v["models"].items()))
        return self.kept_move(key, lambda: self._best_move(space, v, mid, actions_after))

    def _best_move(self, space, v, mid, actions_after: int):
        table = space.table
        r = space.base.radius
        grid = walk_grid(table, r)
        goal = self.goals(v).get(mid)
        enemies = {i: e for i, e in self.live(v, 3 - self.player).items()}
        eids = sorted(enemies)
        ebases = [self.base(i, enemies[i]) for i in eids]
        field_ = grid.field([goal]) if goal is not None else None
        mover = space.base
        extra = []
        if goal is not None:
            for k in range(8):   # the control ring round the marker
                a = 2 * math.pi * k / 8
                rr = max(0.0, self.ctrl_range * 0.6)
                extra.append((goal[0] + rr * math.cos(a), goal[1] + rr * math.sin(a)))
        moves = candidate_moves(space, grid, [field_] if field_ is not None else [],
                                [goal] if goal is not None else [], extra, enter=True, frame=self.frame)
        here = MoveTo(mid, mover.x, mover.y)
        others = [self.base(i, o) for i, o in v["models"].items() if self.on_table(o) and i != mid]
        rng = self.gun_range(mid)
        # the pairs the scores below read: a shot needs the enemy within this model's gun range,
        # a threat this spot within the enemy's
        live = [not enemies[i]["down"] for i in eids]
        sees_within = [rng if (actions_after >= 1 and rng and ok) else -1.0 for ok in live]
        seen_within = [(self.gun_range(i) or -1.0) if ok else -1.0 for i, ok in zip(eids, live)]
        spots = measure(table, mover, [here] + moves, ebases, others, field_, grid,
                        sees_within=sees_within, seen_within=seen_within)
        step = max(1.0, space.allowance)
        for s in spots:
            u = 0.0
            if goal is not None:
                gd = s.goal if s.goal < INF else math.hypot(goal[0] - s.base.x, goal[1] - s.base.y) * 1.5
                if "control_markers" in self.kinds:
                    gd = max(0.0, gd - self.ctrl_range * 0.7)
                u -= gd / step
            shot = 0.0
            threat = 0.0
            for j, eid in enumerate(eids):
                e = enemies[eid]
                eb = ebases[j]
                dist = max(0.0, math.hypot(s.base.x - eb.x, s.base.y - eb.y) - eb.radius - r)
                if actions_after >= 1 and rng and dist <= rng and s.sees[j] >= 1 / 3 and not e["down"]:
                    shot = max(shot, 1.2 if dist <= self.rules.opt.short_range * MM else 0.8)
                erng = self.gun_range(eid)
                if not e["down"] and s.seen[j] >= 1 / 3 and erng and dist <= erng:
                    threat += 0.2 * (1.0 - 0.5 * int(s.cover[j]))
            s.score = u + shot - threat
            s.parts = {"goal": u, "shot": shot, "threat": -threat}
        got = best_spot(spots, space, self.frame)
        self.note_reason(spots, got[0])
        return got
