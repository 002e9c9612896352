"""Going Prone and getting up, and Jumping, for the Counterblast policy (a mixin of
``CounterblastPolicy``).

003, Prone: "A prone models uses its base, and only its base, for the purposes of LoS ... prone
models automatically benefit from light cover. A prone models increases the difficulty of its own
Grit checks by 1, while Grit checks against a Prone model reduce the difficulty by 1", and "Prone
models may not Rush or Jump"; a Move may end Prone, and a Prone model may stand up "in lieu of
moving". A Prone model may still Move (it crawls, and stays Prone).

What it is worth: the drop in the enemy guns' chances to put the model Down (each gun in range
that sees a third of it: its best chance standing, and lying down, when a base-high silhouette
may hide it altogether or leave it light cover), half of them taken as the guns that will shoot
it, less the rise in the best Strike an enemy within reach of a charge would make on it. Lying
down costs the Rush (no Rush while Prone) and, to see over low cover again, a Move to stand: so
only a model already where its mission wants it lies down, and only with nothing better to do
with the action (``go_prone``), or as its last move ends there (``move_prone``). A Prone model
stands up when it has no shot lying down and would have one standing (``stand_for_shot``).

Jump ("rolls a d5 ... in a straight line ... jumping over models of its own size or smaller and any
terrain no more than 1 inch higher"; it spends the model and forbids the Rush) is weighed where
the model would Rush toward a far goal: the mean progress along the walking route of the d5's
landings (the table's ``straight_move``) against what the Rush would gain (``jump_choice``).
"""
from __future__ import annotations

import math

from engine.rulesets.counterblast.choices import GoProne, Jump, MoveProne, Shoot, StandUp
from engine.rulesets.counterblast.rules import PRONE_HEIGHT_MM
from engine.table import Base

from .cb_host import CounterblastHost
from .cb_odds import cover_from_sight
from .geo import walk_grid

MM = 25.4
PRONE_MIN = 0.05      # the gain (in models put Down) that is worth lying down for
GUNS_SHOOT = 0.5      # half of the guns that could shoot the model will
JUMP_MARGIN = 1.0     # inches of mean progress a Jump must gain over the Rush it forgoes


class ManeuverPlay(CounterblastHost):
    def exposure(self, v, mid, at=None, prone=False) -> float:
        """The sum, over enemy guns (not Down) in range that see a third of ``mid`` (standing at
        ``at``, or where it stands; lying down with ``prone``), of each gun's best chance to put
        it Down by the engine's chain, its cover from the table's sight."""
        m = v["models"][mid]
        x, y = (at.x, at.y) if at is not None else (m["x"], m["y"])
        table = self.table_now(v)
        h = PRONE_HEIGHT_MM if prone or m["down"] else self.rules.profile[mid].height_mm
        me = Base(mid, x, y, self.rules.radius[mid], h, 0.0, table.surface_height(x, y))
        moved = dict(v, models=dict(v["models"], **{mid: dict(m, x=x, y=y)}))
        total = 0.0
        for eid, guns, cov in self.guns_that_see(moved, table, mid, me, prone):
            total += max(self.price.shot(moved, eid, w, mid, cover=cov)[2] for w in guns)
        return total

    def guns_that_see(self, v, table, mid, me, prone: bool, ready_only: bool = False):
        """(enemy, its guns in range of ``mid``, the cover ``mid`` has from it) for each enemy not
        Down (nor Spent, with ``ready_only``) with a gun in range that sees a third of ``me``,
        ``mid``'s base in the view ``v`` on ``table``: the guns ``exposure`` and ``veil_value`` weigh."""
        for eid, e in self.live(v, 3 - self.player).items():
            if e["down"] or (ready_only and "spent" in e["conditions"]) or not self.rules.profile[eid].shooting:
                continue
            dist = self.price.dist_in(v, eid, mid)
            guns = [w for w in self.rules.profile[eid].shooting if dist <= self.rules.armoury.shooting_weapon(w).range]
            if not guns:
                continue
            eb = self.base(eid, e)
            others = [self.base(i, o) for i, o in v["models"].items() if self.on_table(o) and i not in (eid, mid)]
            if table.sight(eb, me, others).visible_fraction < 1 / 3:
                continue
            yield eid, guns, cover_from_sight(table, eb, me, others, prone=prone, options=self.rules.opt)

    def prone_gain(self, v, mid, at=None) -> float:
        """What lying down (at ``at``, or where it stands) is worth to ``mid``, in models put Down."""
        gain = GUNS_SHOOT * (self.exposure(v, mid, at) - self.exposure(v, mid, at, prone=True))
        m = v["models"][mid]
        x, y = (at.x, at.y) if at is not None else (m["x"], m["y"])
        moved = dict(v, models=dict(v["models"], **{mid: dict(m, x=x, y=y)}))
        worst = 0.0
        for eid, e in self.live(v, 3 - self.player).items():      # a charge it would invite
            if e["down"] or not self.rules.profile[eid].striking:
                continue
            gap = math.hypot(e["x"] - x, e["y"] - y) - self.rules.radius[eid] - self.rules.radius[mid]
            if gap > (self.rules.profile[eid].move + (self.rules.reach.get(eid) or 0) + 1) * MM:
                continue
            for w in self.rules.profile[eid].striking:
                up = self.price.strike(moved, eid, w, mid, target_prone=False)[2]
                down = self.price.strike(moved, eid, w, mid, target_prone=True)[2]
                worst = max(worst, down - up)
        return gain - worst

    def settled(self, v, mid, at=None) -> bool:
        """Is ``mid`` (at ``at``) where its mission wants it: within 70% of the control range of
        its goal, from turn 2 on (the walk there is over)?"""
        g = self.goals(v).get(mid)
        if g is None or v["turn"] < 2:
            return False
        m = v["models"][mid]
        x, y = (at.x, at.y) if at is not None else (m["x"], m["y"])
        return math.hypot(g[0] - x, g[1] - y) - self.rules.radius[mid] <= self.ctrl_range * 0.7

    def go_prone(self, d, v):
        """GoProne with an action left and nothing better to do, for a settled model it shields."""
        o = next((o for o in d.options if isinstance(o, GoProne)), None)
        if o is None or not self.settled(v, o.model) or self.prone_gain(v, o.model) < PRONE_MIN:
            return None
        return o

    def move_prone(self, d, mv, v, actions_after: int):
        """The same move ending Prone, when it ends where the model is settled, lying down shields
        it there, and no action after it is lost to lying down (it is the last free action, or the
        spot has no shot standing either); else ``mv``."""
        if type(mv).__name__ != "MoveTo":
            return mv
        prone = MoveProne(mv.model, mv.x, mv.y)
        sp = next((s for s in d.spaces if getattr(s, "choice_type", None) is MoveProne and s.base.id == mv.model), None)
        if sp is None or sp.check(prone) is not None or not self.settled(v, mv.model, mv):
            return mv
        m = v["models"][mv.model]
        there = dict(v, models=dict(v["models"], **{mv.model: dict(m, x=mv.x, y=mv.y)}))
        if actions_after > 0 and self.member_shot(there, mv.model) > 0:
            return mv
        return prone if self.prone_gain(v, mv.model, mv) >= PRONE_MIN else mv

    def stand_for_shot(self, d, v):
        """StandUp for a Prone model that has no shot lying down and would have one standing."""
        o = next((o for o in d.options if isinstance(o, StandUp)), None)
        if o is None or any(isinstance(c, Shoot) for c in d.options):
            return None
        m = v["models"][o.model]
        up = dict(v, models=dict(v["models"], **{o.model: dict(m, conditions=[c for c in m["conditions"]
                                                                              if c != "prone"])}))
        return o if self.member_shot(up, o.model) >= 0.12 else None

    # -------------------------------------------------------------- Jump
    def jump_progress(self, v, mid, heading, field_, grid) -> float | None:
        """The mean walking distance (mm) to the goal a Jump toward ``heading`` gains over the
        d5's faces, each flight from the table's ``straight_move`` (over models no larger than the
        jumper and terrain up to the clearance above the take-off, stopping short where it must).
        None when a face would carry it over a lower surface (a fall: Prone, Stunned, damage)."""
        m = v["models"][mid]
        me = self.base(mid, m)
        size = self.rules.profile[mid].size
        others = [self.base(i, o) for i, o in v["models"].items() if self.on_table(o) and i != mid]
        blockers = [o for o in others if self.rules.profile[o.id].size > size]
        table = self.table_now(v)
        now = grid.dist(field_, me.x, me.y)
        ux, uy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
        faces = range(1, self.rules.opt.jump_die + 1)
        total = 0.0
        for k in faces:
            sm = table.straight_move(me, heading, k * MM, blockers, self.rules.opt.jump_clearance * MM)
            end = k * MM if sm.stopped_by is None else sm.travelled
            if table.surface_height(me.x + ux * end, me.y + uy * end) < me.z - 1e-6:
                return None           # over empty space: it would fall
            t = sm.travelled          # it lands at the last spot clear of every model (as it flies)
            while t > 0 and table.position_problem(me.x + ux * t, me.y + uy * t, me.radius, others) is not None:
                t = max(0.0, t - 0.5)
            x, y = me.x + ux * t, me.y + uy * t
            if table.surface_height(x, y) < me.z - 1e-6:
                return None
            total += now - min(now, grid.dist(field_, x, y))
        return total / len(faces)

    def jump_choice(self, d, v, rush_gain_mm: float):
        """A Jump (toward the goal, along the walking route, or a compass heading) whose mean
        progress toward the goal beats ``rush_gain_mm`` (what the Rush it forgoes would gain) by
        ``JUMP_MARGIN``, or None. Every obstacle a Jump clears is climbable by a Move (for twice
        its height) and a Rush's d10 outruns the d5, so this is rare (docs/ai.md)."""
        sp = next((s for s in d.spaces if getattr(s, "choice_type", None) is Jump), None)
        if sp is None:
            return None
        mid = sp.actor
        g = self.goals(v).get(mid)
        if g is None:
            return None
        grid = walk_grid(self.table_now(v), self.rules.radius[mid])
        field_ = grid.field([g])
        m = v["models"][mid]
        heads = [o.heading for o in d.options if isinstance(o, Jump) and o.model == mid]
        heads.append(math.degrees(math.atan2(g[1] - m["y"], g[0] - m["x"])) % 360.0)
        step = grid.downhill(field_, m["x"], m["y"], 3 * MM, enter=True, frame=self.frame)
        if step is not None:
            heads.append(math.degrees(math.atan2(step[1] - m["y"], step[0] - m["x"])) % 360.0)
        best = None
        for h in heads:
            c = Jump(mid, round(h, 2) % 360.0)
            if sp.check(c) is not None:
                continue
            got = self.jump_progress(v, mid, c.heading, field_, grid)
            if got is not None and (best is None or got > best[0] + 1e-6):
                best = (got, c)
        if best is None or best[0] < rush_gain_mm + JUMP_MARGIN * MM:
            return None
        return best[1]
