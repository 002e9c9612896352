"""Pieces every ruleset shares: the continuous "move this model to a point" choice.

The space asks the table whether a destination is legal (position, route, cost) so that
rulesets, the client and the random agent all use the one check.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from engine.core.errors import SetupError
from engine.core.protocol import Choice, ChoiceSpace
from engine.data.errors import DataError
from engine.table.measure import length_words


def memo_get(memo: dict, key, build, limit: int):
    """``memo[key]``, built by ``build()`` when missing; the memo is emptied when it passes
    ``limit`` entries (an agent may look at many points or states of one game)."""
    if key in memo:
        return memo[key]
    if len(memo) > limit:
        memo.clear()
    value = memo[key] = build()
    return value


_R = TypeVar("_R")


def roster_of(roster, shipped: Callable[[], Mapping[str, _R]], read: Callable[[dict], _R], *,
              unknown: str, listed: str = "shipped", refused: str = "", kinds: str,
              catch: type[Exception] = DataError) -> _R:
    """A player's roster: the shipped one ``roster`` names (an id), or ``read(roster)`` for a roster
    object (a dict); anything else is refused with a ``SetupError`` in the ruleset's words:
    ``unknown`` begins the refusal of an id not shipped ("player 1: no posse"; the ``listed`` ids
    follow), ``refused`` that of an object that does not read (its reasons follow), ``kinds``
    that of another type; ``catch``: what a failed read raises. ``shipped`` is asked only for an id."""
    if isinstance(roster, str):
        known = shipped()
        if roster not in known:
            raise SetupError(f"{unknown} {roster!r} ({listed}: {', '.join(sorted(known))})")
        return known[roster]
    if isinstance(roster, dict):
        try:
            return read(roster)
        except catch as err:  # DataError names the field
            raise SetupError(f"{refused}{err}") from None
    raise SetupError(f"{kinds}, not {type(roster).__name__}")


def copied_piece(owner, key, build) -> dict:
    """A view's piece entry, built once per look of the model (``key`` holds every field the
    build reads) and copied out: a view is the caller's to change, so each gets its own dict
    and lists."""
    d = memo_get(owner.__dict__.setdefault("_pieces", {}), key, build, 4096)
    out = dict(d)
    out["markers"], out["profile"] = list(d["markers"]), list(d["profile"])
    return out

INCH = 25.4
_MISSING = object()


@dataclass(frozen=True)
class MoveTo(Choice):
    """Move ``model`` to the point (x, y) in table millimetres, by the shortest legal path."""
    tag = "common.MoveTo"
    model: str
    x: float
    y: float


class MoveSpace(ChoiceSpace):
    """Any point a base can reach by a legal path costing at most ``allowance`` mm
    (horizontal plus vertical; difficult ground counted ``difficult_factor`` times).

    A ruleset adds its own restrictions (a Panicked model may not close in, say) by overriding
    ``problem``; ``check`` and ``sample`` apply them."""

    choice_type = MoveTo

    def __init__(self, table, base, allowance: float, others=(), difficult_factor: float = 1.0,
                 label: str = "", unit: str = "in"):
        self.table, self.base, self.allowance = table, base, allowance
        self.others = tuple(o for o in others if o.id != base.id)
        self.difficult_factor = difficult_factor
        self.unit = unit              # the ruleset's unit, for the lengths its refusals speak of
        self.label = label or f"move {base.id} up to {self.words(allowance)}"

    def words(self, mm: float) -> str:
        return length_words(mm, self.unit)

    @property
    def actor(self) -> str:
        return self.base.id

    def at_point(self, x: float, y: float) -> tuple[MoveTo, ...]:
        return (MoveTo(self.base.id, round(float(x), 2), round(float(y), 2)),)

    def cost(self, path) -> float:
        return path.length + (self.difficult_factor - 1.0) * path.difficult

    def path_to(self, x: float, y: float):
        # the cost is at least the length, so no path longer than the allowance can do
        return self.table.find_path((self.base.x, self.base.y), (x, y), self.base.radius, self.others,
                                    max_length=self.allowance)

    def problem(self, c: MoveTo) -> str | None:
        """A ruleset's own restriction on where this model may end its move (None: none)."""
        return None

    def straight_cost(self, x: float, y: float) -> float | None:
        """The cost of going straight there, or None when the straight route is blocked. A legal
        route within the allowance makes the move legal, whether or not it is the shortest."""
        b = self.base
        if not self.table.segment_clear((b.x, b.y), (x, y), b.radius, self.others):
            return None
        if type(self).cost is MoveSpace.cost:
            # the same numbers as path_of's length and difficult run, without building the Path
            length, difficult = self.table.straight_run((b.x, b.y), (x, y))
            return length + (self.difficult_factor - 1.0) * difficult
        return self.cost(self.table.path_of([(b.x, b.y), (x, y)]))

    def _basic(self, c: MoveTo) -> str | None:
        if c.model != self.base.id:
            return f"this move is for {self.base.id}, not {c.model}"
        if not (math.isfinite(c.x) and math.isfinite(c.y)):
            return "not a point"
        straight = math.hypot(c.x - self.base.x, c.y - self.base.y)
        if straight > self.allowance + 1e-6:  # no path is shorter than the straight line
            return f"it is {self.words(straight)} away, more than the {self.words(self.allowance)} allowed"
        return self.table.position_problem(c.x, c.y, self.base.radius, self.others) or self.problem(c)

    def signature(self) -> tuple:
        """Everything ``check`` reads, as a key: two spaces with equal signatures accept the same
        points (the table is immutable, so the table object stands for its terrain). A subclass
        whose ``problem`` reads more adds it (``extra_signature``)."""
        return (type(self), self.table, self.base, self.allowance, self.others, self.difficult_factor,
                self.extra_signature())

    def extra_signature(self) -> tuple:
        return ()

    def _checked(self) -> dict:
        """choice -> ``check``'s answer. A space is a snapshot (its base, allowance and others
        never change, the table is immutable), so an answer found once stands: ``Game.check``
        then finds the point the agent drew and tested without testing it again."""
        memo = self.__dict__.get("_check_memo")
        if memo is None:
            memo = self._check_memo = {}
        return memo

    def quick(self, c: MoveTo) -> str | None:
        """Legality by the straight route alone: None when going straight there is legal."""
        reason = self._basic(c)
        if reason:
            return reason
        cost = self.straight_cost(c.x, c.y)
        if cost is None:
            return "no straight route"
        if cost > self.allowance + 1e-6:
            return f"the straight route costs {self.words(cost)}, more than the {self.words(self.allowance)} allowed"
        if type(self).check is MoveSpace.check:
            # check runs the same _basic and accepts the same straight cost first: also None
            self._checked()[c] = None
        return None

    def quick_all(self, moves) -> list[bool]:
        """``[self.quick(c) is None for c in moves]``: an agent's candidate points tested in one
        pass, the other bases for all points at once (``engine/table/bases_batch.py``), the
        terrain by the table's kept answers, the ruleset's ``problem`` per point. The same
        answers as ``quick`` point for point (tests/test_quick_all.py), and the same ``check``
        memo entries for the points it accepts. A space that changes any step of ``quick`` is
        asked point by point."""
        cls = type(self)
        if (cls.quick is not MoveSpace.quick or cls._basic is not MoveSpace._basic
                or cls.straight_cost is not MoveSpace.straight_cost or len(moves) < 4):
            return [self.quick(c) is None for c in moves]
        from engine.table.bases_batch import blocking, overlapping

        b, table = self.base, self.table
        r, bx, by = b.radius, float(b.x), float(b.y)
        lim = self.allowance + 1e-6
        ok = [False] * len(moves)
        # the table's kept terrain answers read here directly, by the keys its methods use (a
        # point not asked before goes through the method, which works it out and keeps it)
        kept = getattr(table, "_terrain_answers", {})
        cand = []
        for k, c in enumerate(moves):       # _basic's own tests, then the terrain under the base
            if (c.model == b.id and math.isfinite(c.x) and math.isfinite(c.y)
                    and not math.hypot(c.x - b.x, c.y - b.y) > lim):
                at = kept.get(("at", c.x, c.y, r), _MISSING)
                if at is _MISSING:
                    at = table.position_problem(c.x, c.y, r)
                if at is None:
                    cand.append(k)
        # the other bases: only those within the allowance's reach of the mover can overlap an
        # accepted point or stand in its straight route (1 mm spare)
        others = [o for o in self.others if math.hypot(o.x - bx, o.y - by) <= lim + r + o.radius + 1.0]
        if cand and others:
            xs = np.array([moves[k].x for k in cand], float)
            ys = np.array([moves[k].y for k in cand], float)
            bad = overlapping(xs, ys, r, others) | blocking(bx, by, xs, ys, r, others)
            cand = [k for k, no in zip(cand, bad.tolist()) if not no]
        plain_cost = cls.cost is MoveSpace.cost
        own_problem = cls.problem is not MoveSpace.problem
        memo = self._checked() if cls.check is MoveSpace.check else None
        a = (bx, by)
        for k in cand:
            c = moves[k]
            if own_problem and self.problem(c) is not None:
                continue
            cx, cy = float(c.x), float(c.y)
            clear = kept.get(("clear", a, (cx, cy), r))
            if clear is None:
                clear = table.segment_clear(a, (cx, cy), r)
            if not clear:
                continue
            if plain_cost:
                run = kept.get(("run", bx, by, cx, cy))
                length, difficult = run if run is not None else table.straight_run(a, (cx, cy))
                cost = length + (self.difficult_factor - 1.0) * difficult
            else:
                cost = self.cost(table.path_of([a, (c.x, c.y)]))
            if cost > lim:
                continue
            ok[k] = True
            if memo is not None:
                memo[c] = None      # as quick leaves it: check would accept the same straight cost
        return ok

    def check(self, c: MoveTo) -> str | None:
        return memo_get(self._checked(), c, lambda: self._check(c), 8192)

    def _check(self, c: MoveTo) -> str | None:
        reason = self._basic(c)
        if reason:
            return reason
        cost = self.straight_cost(c.x, c.y)
        if cost is not None and cost <= self.allowance + 1e-6:
            return None
        path = self.path_to(c.x, c.y)
        if path is None:
            return f"no path of {self.words(self.allowance)} or less leads there"
        cost = self.cost(path)
        if cost > self.allowance + 1e-6:
            return f"the path costs {self.words(cost)}, more than the {self.words(self.allowance)} allowed"
        return None

    def route(self, c: MoveTo) -> tuple[list, float] | None:
        """The route the rules count for ``c``, found as ``check`` finds it: the straight line
        when it is clear and within the allowance, else the shortest path; ``(points, cost)``
        in mm, or None where ``check`` refuses. The client's preview draws exactly this."""
        if self.check(c) is not None:
            return None
        b = self.base
        cost = self.straight_cost(c.x, c.y)
        if cost is not None and cost <= self.allowance + 1e-6:
            return [(b.x, b.y), (c.x, c.y)], cost
        path = self.path_to(c.x, c.y)
        return [tuple(p[:2]) for p in path.points], self.cost(path)

    # the bases the path finder steers round (None: ``others``), and whether a clear straight
    # route is the only one tried (Doubles' path cache); ``reach`` follows ``path_to`` with them
    path_others = None
    detour_when_straight_clear = True

    def _reach_query(self):
        """The reach question of this space (``engine/table/reach.py``), kept: its path graph is
        worked out once for the raster and the shading's refinement (a space never changes)."""
        q = self.__dict__.get("_reach_q")
        if q is None:
            from engine.table.reach import Query
            q = self._reach_q = Query(self.table, self.base, self.allowance, self.others, self.difficult_factor,
                                      self.path_others, self.detour_when_straight_clear)
        return q

    def reach(self, cell_mm: float = 6.35):
        """The reach preview: a ``Reach`` raster (engine/table/reach.py) of the cells whose centre
        ``check`` accepts, with the ruleset's ``problem`` applied to each reachable cell."""
        from engine.table.reach import reach

        r = reach(self.table, self.base, self.allowance, self.others, cell_mm, self.difficult_factor,
                  path_others=self.path_others, detour_when_straight_clear=self.detour_when_straight_clear,
                  query=self._reach_query())
        xs, ys = r.centres()
        own = type(self).problem is not MoveSpace.problem
        # a route the raster found round another base may be one find_path misses: check decides
        ask = r.mask & r.unsure if r.unsure is not None else np.zeros_like(r.mask)
        for j, i in zip(*(r.mask if own else ask).nonzero()):
            x, y = float(xs[i]), float(ys[j])
            if (own and self.problem(MoveTo(self.base.id, x, y)) is not None) or \
                    (ask[j, i] and self.check(self.choice_type(self.base.id, x, y)) is not None):
                r.mask[j, i] = False
                if r.cost is not None:
                    r.cost[j, i] = math.inf
        return r

    def accepts(self, P) -> np.ndarray:
        """``check``'s verdicts at many points P (N, 2) at once: the reach raster's own tests
        there (``engine/table/reach.py``, ``reach_at``), the ruleset's ``problem`` per point, and
        ``check`` itself where the raster's route is one ``find_path`` may miss (``unsure``)."""
        from engine.table.reach import reach_at

        P = np.asarray(P, float).reshape(-1, 2)
        ok, _, unsure = reach_at(self.table, self.base, self.allowance, self.others, P, self.difficult_factor,
                                 path_others=self.path_others,
                                 detour_when_straight_clear=self.detour_when_straight_clear,
                                 query=self._reach_query())
        own = type(self).problem is not MoveSpace.problem
        for k in (ok if own else ok & unsure).nonzero()[0]:
            c = self.choice_type(self.base.id, float(P[k, 0]), float(P[k, 1]))
            if (own and self.problem(c) is not None) or (unsure[k] and self.check(c) is not None):
                ok[k] = False
        return ok

    def shading(self, cell_mm: float = 6.35, fine_mm: float = 0.5):
        """What the client shades for this move: ``reach(cell_mm)`` refined along its boundary on
        a grid of about ``fine_mm`` (``engine/table/reach_shading.py``), so that every point
        shaded is one ``check`` accepts (issue 58)."""
        from engine.table.reach_shading import refine

        sub = max(1, math.ceil(cell_mm / fine_mm - 1e-9))
        return refine(self.reach(cell_mm), sub, self.accepts)

    def sample(self, rng, tries: int = 30) -> MoveTo | None:
        """Random points in the allowance's disc: the first reachable in a straight line, else
        (rarely) the first two candidates asked of the path finder."""
        b = self.base
        cands = []
        for _ in range(tries):
            a = rng.uniform(0, 2 * math.pi)
            r = self.allowance * math.sqrt(rng.random())
            c = self.choice_type(b.id, round(b.x + r * math.cos(a), 2), round(b.y + r * math.sin(a), 2))
            if self.quick(c) is None:
                return c
            cands.append(c)
        for c in cands[:2]:
            if self.check(c) is None:
                return c
        return None
