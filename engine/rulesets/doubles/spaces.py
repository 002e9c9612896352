"""Doubles: the continuous choices, moves and shots at a point of empty ground.

A move (``_CachedMoveSpace``) goes to any point reached by a legal path whose cost is at most the
fighter's Movement, taking the straight line whenever it is clear (interpretation 26); a
disengagement (``DisengageSpace``) must also end out of contact with every enemy. A shot at the
ground (``GroundShotSpace``) may land on any point of empty ground within the thrower's range and
line of sight (interpretation 25). ``SpacesMixin`` gives ``DoublesRules`` the cached paths and the
sight to a point that these spaces check with.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from engine.core import ChoiceSpace
from engine.rulesets.common import MoveSpace, memo_get
from engine.table import Base

from . import shooting as sh
from . import turn as tn
from .choices import ShootAt

if TYPE_CHECKING:
    from .rules import DoublesRules
    from .state import FighterState

PROBE_RADIUS_MM = 2.5      # a projectile lying on the ground: the probe for sight to a point
PROBE_HEIGHT_MM = 5.0


class _CachedMoveSpace(MoveSpace):
    """MoveSpace whose paths are remembered by the rules (pure function of the inputs), so that
    apply() reuses the path the check found."""

    # rules._path takes the straight line whenever it is clear, climbing or not (MoveSpace.reach)
    detour_when_straight_clear = False

    def __init__(self, rules: DoublesRules, base, allowance, others, difficult_factor, label=""):
        super().__init__(rules.table, base, allowance, others, difficult_factor, label,
                         unit=getattr(rules, "unit", "cm"))
        self.rules = rules

    def path_to(self, x, y):
        return self.rules._path(self.base, (x, y), self.others, self.allowance)

    def _checked(self) -> dict:
        # check's answers kept by the rules, per space inputs (the kind, base, allowance, others,
        # factor and, for a disengagement, enemies: all check reads, with the immutable table and
        # options), so that apply's fresh space finds what pending's space already checked
        memo = self.__dict__.get("_check_memo")
        if memo is None:
            if not hasattr(self.rules, "_memo"):   # a stand-in for the rules (tests): this space's own
                return super()._checked()
            memo = self._check_memo = self.rules._memo("move", self.signature())
        return memo


class DisengageSpace(_CachedMoveSpace):
    """A move that must end out of contact with every enemy (2 AP by default)."""

    def __init__(self, rules, base, allowance, others, difficult_factor, enemies, label=""):
        super().__init__(rules, base, allowance, others, difficult_factor, label)
        self.enemies = tuple(enemies)

    def extra_signature(self) -> tuple:
        return (self.enemies,)

    def problem(self, c):
        moved = self.base.moved(c.x, c.y)
        for e in self.enemies:
            if tn.is_engaged(self.rules.table.distance(moved, e) / 10.0, self.rules.opts):
                return f"it would still be in contact with {self.rules._names.get(e.id, e.id)}"
        return None


class GroundShotSpace(ChoiceSpace):
    """A shot at a point of empty ground: on the table, not on a model nor on impassable terrain,
    within the thrower's range (edge of its base to the point, at most the end of the long band)
    and in its line of sight (a small probe lying at the point is not hidden). ``weapons`` are the
    things it may throw (weapon ids, or None for a stone picked up)."""

    choice_type = ShootAt

    def __init__(self, rules: DoublesRules, st, f: FighterState, weapons, label: str = ""):
        self.rules, self.key = rules, f.key
        self.shooter = rules.base(f)
        self.others = tuple(rules.others(st, f.key))
        self.throw = rules.chars(f).throw
        self.reach_mm = sh.max_range_cm(self.throw) * 10.0
        self.weapons = tuple(weapons)
        self.label = label or f"throw at a point of empty ground up to {self.reach_mm / 10:.0f} cm away"

    @property
    def actor(self) -> str:
        return self.key

    def at_point(self, x: float, y: float) -> tuple[ShootAt, ...]:
        return tuple(ShootAt(self.key, round(float(x), 2), round(float(y), 2), w) for w in self.weapons)

    def check(self, c) -> str | None:
        # answers kept by the rules per shooter, others, throw and weapons (all check reads,
        # with the immutable table and options): apply's fresh space reuses pending's answers
        memo = self.__dict__.get("_check_memo")
        if memo is None:
            memo = self._check_memo = self.rules._memo(
                "ground", (self.key, self.shooter, self.others, self.throw, self.weapons))
        return memo_get(memo, c, lambda: self._check(c), 8192)

    def _check(self, c) -> str | None:
        if not isinstance(c, ShootAt):
            return "not a shot at a point"
        if c.shooter != self.key:
            return f"this shot is for {self.key}, not {c.shooter}"
        if c.weapon not in self.weapons:
            return f"{self.key} holds no {c.weapon!r} to throw"
        x, y = float(c.x), float(c.y)
        if not (math.isfinite(x) and math.isfinite(y)):
            return "not a point"
        b = self.shooter
        if math.hypot(x - b.x, y - b.y) < b.radius + PROBE_RADIUS_MM:
            return "on the shooter's own base"
        cm = self.rules.table.distance_to_point(b, x, y) / 10.0
        if sh.range_band(self.throw, cm) == "out_of_range":
            return f"{cm:.1f} cm away, beyond the {self.reach_mm / 10:.0f} cm range"
        problem = self.rules.table.position_problem(x, y, PROBE_RADIUS_MM, self.others)
        if problem:
            return f"not empty ground: {problem}"
        if self.rules.point_sight(b, x, y, self.others) == "hidden":
            return "not in the shooter's line of sight"
        return None

    def sample(self, rng, tries: int = 30) -> ShootAt | None:
        b = self.shooter
        for _ in range(tries):
            a = rng.uniform(0, 2 * math.pi)
            r = (b.radius + self.reach_mm) * math.sqrt(rng.random())
            w = self.weapons[rng.randrange(len(self.weapons))]
            c = ShootAt(self.key, round(b.x + r * math.cos(a), 2), round(b.y + r * math.sin(a), 2), w)
            if self.check(c) is None:
                return c
        return None


class SpacesMixin:
    """The paths and sight the spaces use (part of ``DoublesRules``): ``_path`` is cached per
    rules object in ``self._paths``."""

    def point_sight(self, shooter: Base, x: float, y: float, others) -> str:
        """The sight word from ``shooter`` to a small probe lying at (x, y)."""
        probe = Base("probe", float(x), float(y), PROBE_RADIUS_MM, PROBE_HEIGHT_MM, 0.0,
                     self.table.surface_height(float(x), float(y)))
        s = self.table.sight(shooter, probe, [o for o in others if o.id != shooter.id])
        return sh.visibility(min(1.0, max(0.0, s.visible_fraction)), self.opts)


    def _memo(self, kind: str, sig) -> dict:
        """A dict of check answers for one space's inputs ``sig`` (kept across decisions and
        clones: the answers are a pure function of the inputs, the table and the options)."""
        memos = self.__dict__.setdefault("_check_memos", {})
        key = (kind, sig)
        memo = memos.get(key)
        if memo is None:
            if len(memos) > 512:   # a decision makes two or three spaces: room for many decisions
                memos.clear()
            memo = memos[key] = {}
        return memo

    def _path(self, base: Base, goal, others, max_length: float):
        key = (round(base.x, 6), round(base.y, 6), round(goal[0], 6), round(goal[1], 6), base.radius, max_length,
               tuple(sorted((o.id, round(o.x, 6), round(o.y, 6), o.radius) for o in others)))
        p = self._paths.get(key, False)
        if p is False:
            if len(self._paths) > 20000:
                self._paths.clear()
            if self._straight_clear((base.x, base.y), goal, base.radius, others):
                # nothing hard and no model in the way: the straight line is the shortest run
                p = self.table.path_of([(base.x, base.y), (float(goal[0]), float(goal[1]))])
            else:
                p = self.table.find_path((base.x, base.y), goal, base.radius, others, max_length=max_length)
            self._paths[key] = p
        return p

    def _straight_clear(self, a, b, r, others) -> bool:
        """May the base stand at ``b`` and slide straight there from ``a``: the table's own swept
        test (``Table.segment_clear``, which the reach shading asks too). Until issue 58 this
        queried the terrain with pymunk's radius query, whose tree walk tests only the centre line
        against the pieces' bounding boxes: a base could slide through the edge of a hut that
        the centre line passed beside, and the shading (the swept test) was short of ``check``."""
        if self.table.position_problem(b[0], b[1], r, others) is not None:
            return False
        return self.table.segment_clear(a, b, r, others)
