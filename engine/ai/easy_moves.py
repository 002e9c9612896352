"""Candidate destinations for a move, measured from the table: walking distance to a goal,
which enemies each spot sees (to shoot), which enemies see it (threat) and its cover.

The candidates come from the table, not from chance: a ring of points round the mover at its
allowance and fractions of it, straight lines toward each goal, the point its allowance reaches
along the walking route round the terrain toward each goal, and any points a ruleset adds
(contact points, markers). A candidate is kept only if the move space accepts it."""
from __future__ import annotations

import marshal
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.rulesets.common import MoveSpace, MoveTo
from engine.table import Base

from .geo import INF, WalkGrid, legal_moves, ring_points, toward


@dataclass
class Spot:
    move: MoveTo
    base: Base
    goal: float = 0.0                 # walking distance (mm) to the goal field from here
    sees: np.ndarray = field(default_factory=lambda: np.zeros(0))     # visible fraction of each enemy from here
    seen: np.ndarray = field(default_factory=lambda: np.zeros(0))     # visible fraction of this spot from each enemy
    cover: np.ndarray = field(default_factory=lambda: np.zeros(0))    # cover code this spot has against each enemy
    score: float = 0.0
    parts: dict = field(default_factory=dict)     # the score's terms (goal, shot, threat), for a reason


def candidate_moves(space: MoveSpace, grid: WalkGrid, goal_fields: Sequence[np.ndarray] = (),
                    goal_points: Sequence[tuple[float, float]] = (), extra: Sequence[tuple[float, float]] = (),
                    directions: int = 12, stop_short: float = 0.0, enter: bool = False,
                    frame=None) -> list[MoveTo]:
    """``enter``: follow the walking route from a model whose own grid cell holds no base (at the
    table's edge, on a container) through the cell it is measured by (``WalkGrid.downhill``,
    ties as ``frame`` faces the table)."""
    b = space.base
    pts = ring_points(b.x, b.y, space.allowance, directions)
    for gx, gy in goal_points:
        t = toward(b.x, b.y, gx, gy, space.allowance, stop_short)
        if t is not None:
            pts.append(t)
    pts += list(extra)
    exact = []
    for f in goal_fields:
        for frac in (0.97, 0.75, 0.5, 0.3):
            p = grid.downhill(f, b.x, b.y, space.allowance * frac, enter=enter, frame=frame)
            if p is not None and math.hypot(p[0] - b.x, p[1] - b.y) > 1.0:
                exact.append(p)
                dx, dy = p[0] - b.x, p[1] - b.y
                n = math.hypot(dx, dy)
                for side in (1, -1):   # beside the route, when a friend stands on it
                    off = 2.2 * b.radius * side
                    exact.append((p[0] - dy / n * off, p[1] + dx / n * off))
    return legal_moves(space, pts, exact, max_exact=4)


def measure(table, mover: Base, moves: Sequence[MoveTo], enemies: Sequence[Base], others: Sequence[Base],
            field_: np.ndarray | None = None, grid: WalkGrid | None = None, sight: bool = True,
            sees_within: Sequence[float] | None = None, seen_within: Sequence[float] | None = None) -> list[Spot]:
    """One Spot per move (plus nothing else): goal distance by the field, sight both ways.
    ``others``: every model that may block sight, the mover's own base excluded.
    ``sees_within`` / ``seen_within``: per enemy, the edge-to-edge distance (mm) beyond which the
    caller never reads that enemy's ``sees`` / ``seen`` and ``cover`` (a negative one: never);
    those pairs are not measured and read NaN (``sight_matrix``'s ``pairs``). None: all pairs."""
    spots = []
    for c in moves:
        z = table.surface_height(c.x, c.y)
        spots.append(Spot(c, mover.moved(c.x, c.y, z=z)))
    if field_ is not None and grid is not None:
        for s in spots:
            s.goal = grid.dist(field_, s.base.x, s.base.y)
    if sight and enemies and spots:
        bases = [s.base for s in spots]
        blockers = [o for o in others if o.id != mover.id]
        sees_pairs = _within(bases, enemies, sees_within)
        seen_pairs = _within(bases, enemies, seen_within)
        # both ways in one batch (spots and enemies as viewers, enemies and spots as targets,
        # only the spot -> enemy and enemy -> spot pairs): one call's fixed cost instead of two,
        # the same answers (each pair's is independent of the batch, and the blockers are the
        # same models: every spot, enemy and blocker, one per id)
        n, e = len(bases), len(enemies)
        pairs = np.zeros((n + e, e + n), dtype=bool)
        pairs[:n, :e] = True if sees_pairs is None else sees_pairs
        pairs[n:, e:] = True if seen_pairs is None else seen_pairs.T
        vis, cov_all = table.sight_matrix(bases + list(enemies), list(enemies) + bases, blockers, pairs=pairs)
        sees, seen, cov = vis[:n, :e], vis[n:, e:], cov_all[n:, e:]
        for k, s in enumerate(spots):
            s.sees = sees[k]
            s.seen = seen[:, k]
            s.cover = cov[:, k]
    return spots


def kept_spots(memo: dict, space: MoveSpace, grid: WalkGrid, table, here: MoveTo, mover: Base,
               enemies: Sequence[Base], others: Sequence[Base], field_: np.ndarray | None,
               goal_fields: Sequence[np.ndarray] = (), goal_points: Sequence[tuple[float, float]] = (),
               extra: Sequence[tuple[float, float]] = (), stop_short: float = 0.0,
               sees_within: Sequence[float] | None = None, seen_within: Sequence[float] | None = None,
               limit: int = 128) -> list[Spot]:
    """``measure(table, mover, [here] + candidate_moves(space, grid, goal_fields, goal_points,
    extra, stop_short=stop_short), enemies, others, field_, grid, ...)``, its geometry kept in
    ``memo`` per everything the two read: an easy agent's move answer is kept per its whole
    question (``Policy.kept_move``: every model's entry, action points and wounds too), but the
    candidate points and what they see depend on the bases alone, so a question that differs only
    in those numbers (a search meets many) finds them here. Both are pure functions of their
    arguments (the space by its ``signature``, the table immutable); the grid, the table and the
    walking fields are named by identity and held by the entry, so an identity cannot be reused
    while it stands. Each call gets its own Spots (the caller scores them). Doubles asks through
    it (in a search 43% of its move geometry repeated so); Counterblast and Frontier do not: 5%
    and 8% repeats there, and the key cost more than they saved (docs/performance.md)."""
    key = (space.signature(), id(grid), id(table), tuple(map(id, goal_fields)), tuple(goal_points), tuple(extra),
           stop_short, here, mover, tuple(enemies), tuple(others), id(field_),
           None if sees_within is None else tuple(sees_within), None if seen_within is None else tuple(seen_within))
    got = memo.get(key)
    if got is None:
        moves = candidate_moves(space, grid, goal_fields, goal_points, extra, stop_short=stop_short)
        spots = measure(table, mover, [here] + moves, enemies, others, field_, grid,
                        sees_within=sees_within, seen_within=seen_within)
        if len(memo) >= limit:
            memo.clear()
        # kept as a few flat sequences, not Spots: fewer objects for the collector to walk
        memo[key] = ((grid, table, tuple(goal_fields), field_), tuple(s.move for s in spots),
                     tuple(s.base for s in spots), tuple(s.goal for s in spots),
                     tuple((s.sees, s.seen, s.cover) for s in spots) if spots and enemies else None)
        return spots
    _, ms, bs, gs, sight = got
    if sight is None:
        return [Spot(m, b, g) for m, b, g in zip(ms, bs, gs)]
    return [Spot(m, b, g, *v) for m, b, g, v in zip(ms, bs, gs, sight)]


def _within(bases: Sequence[Base], enemies: Sequence[Base], within: Sequence[float] | None):
    """(spots, enemies) bool: the spot's base within ``within[j]`` mm of enemy j, edge to edge,
    with 1 mm to spare (the callers measure the same distance their own way)."""
    if within is None:
        return None
    sx = np.array([b.x for b in bases])[:, None]
    sy = np.array([b.y for b in bases])[:, None]
    sr = np.array([b.radius for b in bases])[:, None]
    ex = np.array([e.x for e in enemies])[None, :]
    ey = np.array([e.y for e in enemies])[None, :]
    er = np.array([e.radius for e in enemies])[None, :]
    lim = np.array([float(w) for w in within])[None, :]
    return (np.hypot(sx - ex, sy - ey) - sr - er <= lim + 1.0) & (lim >= 0)


def view_key(x):
    """``frozen(x)``'s job at a sixth of its cost: the value's ``marshal`` bytes (format 2, which
    writes every object out in full, so equal values of equal types give equal bytes, and the
    bytes load back to the value, so equal bytes mean equal values). It tells apart a few values
    ``frozen`` takes as equal (1 and True, 0.0 and -0.0): a kept answer is then worked out again,
    the same answer. A value marshal cannot write falls back on ``frozen``."""
    try:
        return marshal.dumps(x, 2)
    except ValueError:
        return frozen(x)


def frozen(x):
    """A view's value as a hashable key (dicts and lists become tuples): for answers kept per
    position, where the whole entry of each model is the safe key."""
    if isinstance(x, dict):
        return tuple((k, frozen(v)) for k, v in x.items())
    if isinstance(x, (list, tuple)):
        return tuple(frozen(v) for v in x)
    return x


def edge_mm(a: Base, x: float, y: float, r: float) -> float:
    return max(0.0, math.hypot(a.x - x, a.y - y) - a.radius - r)


def nearest(points, x, y):
    return min(points, key=lambda p: math.hypot(p[0] - x, p[1] - y)) if points else None


def finite(d: float, fallback: float) -> float:
    return fallback if d >= INF else d


REASONS = {"goal": "moves toward its goal", "shot": "moves to get a shot", "threat": "moves out of the enemy's sight",
           "objective": "moves for the mission's objective"}


def spot_reason(spots, move) -> str:
    """A move's reason in a player's words: the term of the score it gained most on, against
    standing still (the first spot)."""
    here = spots[0].parts if spots else {}
    chosen = next((s for s in spots if s.move == move), None)
    if chosen is None or not chosen.parts:
        return ""
    gains = {k: v - here.get(k, 0.0) for k, v in chosen.parts.items()}
    best = max(gains, key=lambda k: gains[k])
    return REASONS.get(best, "") if gains[best] > 0.01 else "moves where it does least harm"


def runners_up(spots, move, most: int = 4, apart: float = 25.4) -> tuple:
    """Up to ``most`` other scored destinations, best first, each at least ``apart`` mm (an inch)
    from ``move`` and from every one kept before it: the places easy nearly chose, far enough apart
    to play differently. The first spot (where the model stands) is never one."""
    kept = [move]
    for s in sorted(spots[1:], key=lambda s: -s.score):
        if len(kept) > most:
            break
        if all(math.hypot(s.move.x - k.x, s.move.y - k.y) >= apart for k in kept):
            kept.append(s.move)
    return tuple(kept[1:])


def spot_key(frame=None):
    """The order in which spots are preferred: the score to 1e-9 (float noise is no preference),
    then, on a tie, as the player faces the table (``frame``, engine/table/facing.py: their left,
    then the front), so that two sides on a point-symmetric table choose alike; without a frame,
    the west then the north of the table."""
    if frame is None:
        return lambda s: (round(s.score, 9), -s.move.x, -s.move.y)
    return lambda s: (round(s.score, 9), *frame.tie_key(s.move.x, s.move.y))


def best_spot(spots, space, frame=None):
    """The best scored spot but the first (where the model stands now), as (its move, its gain
    over staying); a spot the space's own ``check`` refuses gives way to the best legal one.
    Spots are ranked by ``spot_key(frame)``."""
    here_spot, rest = spots[0], spots[1:]
    if not rest:
        return None, 0.0
    key = spot_key(frame)
    best = max(rest, key=key)
    if space.check(best.move) is not None:
        ok = [s for s in rest if space.check(s.move) is None]
        if not ok:
            return None, 0.0
        best = max(ok, key=key)
    return best.move, best.score - here_spot.score
