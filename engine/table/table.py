"""The Table: a map's terrain in millimetres and every geometric question the rules ask."""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from pathlib import Path as FsPath
from typing import TypeVar

import numpy as np
import pymunk

from engine.data.errors import find_id
from engine.data.maps import MM_PER, MapFile, load_map

from . import measure, movement
from . import reach as reach_mod
from . import sight as sight_mod
from .bases import Base
from .terrain import (
    CAT_ANY,
    CAT_CLIMBABLE,
    TablePiece,
    build_piece,
    build_space,
    build_swept_space,
    piece_arrays,
    piece_part_arrays,
)

_MISSING = object()
_T = TypeVar("_T")


class Table:
    """Immutable after construction and shared by every clone of a game (``copy``/``deepcopy``
    return the same object; pickling rebuilds it from the map). Caches (path graphs per base
    radius, the sight kernel, coverage) fill lazily and never change answers."""

    def __init__(self, mapfile: MapFile):
        self.mapfile = mapfile
        self.unit = mapfile.unit
        k = MM_PER[self.unit]
        self.width = float(mapfile.width) * k
        self.height = float(mapfile.height) * k
        self.pieces: tuple[TablePiece, ...] = tuple(build_piece(i, p, self.unit) for i, p in enumerate(mapfile.pieces))
        self.space = build_space(self.pieces)
        self._props = piece_arrays(self.pieces) if self.pieces else dict(
            height=np.zeros(0), blocks=np.zeros(0, bool), obscures=np.zeros(0, bool),
            cover=np.zeros(0, np.int8), climbable=np.zeros(0, bool))
        self._climb_arrays = piece_part_arrays(self.pieces, lambda p: p.climbable and p.height > 0)
        self._difficult_arrays = piece_part_arrays(self.pieces, lambda p: p.difficult)
        self._kernel: sight_mod.SightKernel | None = None
        self._pair = None
        self._swept: dict[float, pymunk.Space] = {}
        self._graphs: dict[float, movement.NavGraph] = {}
        self._paths: dict[tuple, movement.Path | None] = {}   # find_path's answers (see there)
        self._coverage: float | None = None
        # the terrain's half of the legality tests a move space runs on each candidate point
        # (may a base stand there, is the straight route clear of hard pieces, its length and
        # difficult run), kept per exact coordinates: pure functions of the terrain, while agents
        # ask the same points again and again with the other bases elsewhere (a search's
        # look-aheads start from the same positions in every sampled world; easy asks the same
        # ring of points round a model that has not moved)
        self._terrain_answers: dict = {}
        self._edges: dict = {}
        # re-entrant: a lazy build may ask for another lazy build (the path graph needs the swept
        # space), so the builds are safe to call in any order and from several threads
        self._lock = threading.RLock()

    @classmethod
    def load(cls, path: str | FsPath) -> Table:
        return cls(load_map(path))

    # immutable: share, do not copy
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (Table, (self.mapfile,))

    def __repr__(self) -> str:
        return f"Table({self.mapfile.id!r}, {self.width:.0f}x{self.height:.0f} mm, {len(self.pieces)} pieces)"

    # ------------------------------------------------------------------ units
    def to_mm(self, value: float, unit: str) -> float:
        return float(value) * MM_PER[unit]

    def from_mm(self, mm: float, unit: str) -> float:
        return float(mm) / MM_PER[unit]

    # ------------------------------------------------------------------ terrain
    def piece(self, piece_id: str) -> TablePiece:
        return find_id(self.pieces, piece_id, "piece", f"map {self.mapfile.id!r}", "pieces")

    def pieces_at(self, x: float, y: float) -> list[TablePiece]:
        hits = self.space.point_query((x, y), 0.0, pymunk.ShapeFilter(mask=CAT_ANY))
        idx = sorted({h.shape.piece_index for h in hits if h.distance <= 0})
        return [self.pieces[i] for i in idx]

    def surface_height(self, x: float, y: float) -> float:
        """Top of the highest climbable piece under the point, else 0."""
        hits = self.space.point_query((x, y), 0.0, pymunk.ShapeFilter(mask=CAT_CLIMBABLE))
        return max([self.pieces[h.shape.piece_index].height for h in hits if h.distance <= 0] + [0.0])

    def coverage(self) -> float:
        if self._coverage is None:
            self._coverage = measure.coverage(self)
        return self._coverage

    # ------------------------------------------------------------------ measuring
    def distance(self, a: Base, b: Base) -> float:
        return measure.distance(a, b)

    def distance_to_point(self, a: Base, x: float, y: float) -> float:
        return measure.distance_to_point(a, x, y)

    def distance_to_piece(self, a: Base, piece_id: str) -> float:
        """Base edge to the piece's footprint, 0 when they touch or overlap."""
        idx = self.piece(piece_id).index
        d = min(s.point_query((a.x, a.y)).distance for s in self.space.shapes if s.piece_index == idx)
        return max(0.0, d - a.radius)

    # ------------------------------------------------------------------ movement
    def position_problem(self, x, y, radius, others: Sequence[Base] = (), ignore=()) -> str | None:
        """``movement.position_problem``, the terrain's half kept (``_terrain_answers``)."""
        key = ("at", x, y, radius)
        prob = self._terrain_answers.get(key, _MISSING)
        if prob is _MISSING:
            prob = self._keep(key, movement.terrain_problem(self, x, y, radius))
        return prob or movement.bases_problem(x, y, radius, others, ignore)

    def find_path(self, start, goal, radius, others: Sequence[Base] = (), ignore=(), max_length=None):
        """``movement.find_path``, its answers kept: the table never changes and a path depends
        only on these arguments (Paths are frozen), while search agents ask the same question
        many times over, from the same positions in each look-ahead."""
        key = (float(start[0]), float(start[1]), float(goal[0]), float(goal[1]), float(radius), tuple(others),
               tuple(ignore), None if max_length is None else float(max_length))
        paths = self._paths
        if key in paths:
            return paths[key]
        p = movement.find_path(self, start, goal, radius, others, ignore, max_length)
        if len(paths) > 4096:
            paths.clear()
        paths[key] = p
        return p

    def clearance_candidates(self, x, y, radius, others: Sequence[Base] = (), reach=math.inf):
        return movement.clearance_candidates(self, x, y, radius, others, reach)

    def segment_clear(self, a, b, radius, others: Sequence[Base] = (), ignore=()) -> bool:
        """``movement.segment_clear``, the terrain's half kept (``_terrain_answers``)."""
        a = (float(a[0]), float(a[1]))
        b = (float(b[0]), float(b[1]))
        if not movement.bases_clear(a, b, radius, others, ignore):
            return False
        key = ("clear", a, b, radius)
        ok = self._terrain_answers.get(key)
        if ok is None:
            ok = self._keep(key, movement._clear(self, a, b, radius))
        return ok

    def node_free(self, x: float, y: float, radius: float) -> bool:
        """``movement._node_free`` (may a path turn there), kept (``_terrain_answers``): the path
        finder asks it for the ring of points round every model in the way, again and again."""
        key = ("node", x, y, radius)
        ok = self._terrain_answers.get(key)
        if ok is None:
            ok = self._keep(key, movement._node_free(self, x, y, radius))
        return ok

    def straight_run(self, a, b) -> tuple[float, float]:
        """``movement.straight_run`` (length, difficult run of the segment a -> b), kept."""
        key = ("run", float(a[0]), float(a[1]), float(b[0]), float(b[1]))
        got = self._terrain_answers.get(key)
        if got is None:
            got = self._keep(key, movement.straight_run(self, a, b))
        return got

    def _edge_costs(self, radius: float) -> dict:
        """The path finder's terrain cost (or None) per candidate edge (end points) for bases of
        ``radius``: see ``movement.find_path``. Emptied when it passes 100,000 edges."""
        got = self._edges.get(radius)
        if got is None or len(got) >= 100_000:
            got = self._edges[radius] = {}
        return got

    def _keep(self, key, value):
        answers = self._terrain_answers
        if len(answers) >= 100_000:      # a bound on memory (tens of MB); refilled as asked
            answers.clear()
        answers[key] = value
        return value

    def path_of(self, points) -> movement.Path:
        """The Path (lengths, climbing, difficult run) of a given polyline of (x, y) points."""
        return movement.make_path(self, points)

    def walk(self, path, allowance, radius, others: Sequence[Base] = (), ignore=()):
        return movement.walk(self, path, allowance, radius, others, ignore)

    def straight_move(self, base: Base, heading_deg, distance, others: Sequence[Base] = (), max_climb=0.0):
        return movement.straight_move(self, base, heading_deg, distance, others, max_climb)

    def reach(self, base: Base, allowance_mm: float, others: Sequence[Base] = (), cell_mm: float = 6.35,
              difficult_factor: float = 1.0, **kw) -> reach_mod.Reach:
        """Raster of every point ``base`` may move to within ``allowance_mm`` (the reach preview):
        see ``engine/table/reach.py``. It agrees with ``MoveSpace.check`` cell by cell."""
        return reach_mod.reach(self, base, allowance_mm, others, cell_mm, difficult_factor, **kw)

    def _per_radius(self, cache: dict[float, _T], radius: float, build: Callable[[float], _T]) -> _T:
        """``cache``'s entry for ``radius`` (rounded to a micrometre), built on first use; looked up
        again under the lock so that two threads asking at once build it once."""
        key = round(float(radius), 6)
        got = cache.get(key)
        if got is None:
            with self._lock:
                got = cache.get(key)
                if got is None:
                    got = cache[key] = build(key)
        return got

    def _nav_graph(self, radius: float) -> movement.NavGraph:
        return self._per_radius(self._graphs, radius, lambda r: movement.NavGraph(self, r))

    # ------------------------------------------------------------------ sight
    def _swept_space(self, radius: float) -> pymunk.Space:
        """The impassable pieces inflated by ``radius`` (rounded corners), cached per radius.

        A swept circle of radius r along a segment touches a piece exactly when the bare segment
        touches the piece grown by r. Query this space with radius 0 instead of the terrain
        space with radius r: Chipmunk's tree walk tests only the centre line against the
        pieces' bounding boxes, so a radius query misses a piece the centre line passes beside
        (a base sliding along a wall, a corridor between two pieces)."""
        return self._per_radius(self._swept, radius, lambda r: build_swept_space(self.space, r))

    def _pair_sight(self):
        if self._pair is None:
            from .sight_pair import PairSight

            self._pair = PairSight(self._sight_kernel())
        return self._pair

    def _sight_kernel(self) -> sight_mod.SightKernel:
        if self._kernel is None:
            self._kernel = sight_mod.SightKernel(self)
        return self._kernel

    def sight(self, viewer: Base, target: Base, others: Sequence[Base] = (), h_samples=5, v_samples=3,
              models_block=True) -> sight_mod.Sight:
        return sight_mod.sight_one(self, viewer, target, others, h_samples, v_samples, models_block)

    def sight_matrix(self, viewers, targets, others: Sequence[Base] = (), h_samples=5, v_samples=3,
                     models_block=True, pairs=None):
        return sight_mod.sight_matrix(self, viewers, targets, others, h_samples, v_samples, models_block,
                                      pairs=pairs)

    def visible_grid(self, viewers, cell_mm: float = 25.4, probe_radius: float = 12.5, probe_height: float = 30.0):
        """The cells of the table that any of ``viewers`` can see a model standing in
        (``engine.table.visibility``): the client's sight and threat shading."""
        from .visibility import visible_grid
        return visible_grid(self, viewers, cell_mm, probe_radius, probe_height)

    def in_arc(self, watcher: Base, x, y, arc_deg) -> bool:
        return sight_mod.in_arc(watcher, x, y, arc_deg)

    def path_in_arc(self, watcher: Base, arc_deg, points, mover_radius=0.0, require_sight=False,
                    mover_height=30.0) -> bool:
        return sight_mod.path_in_arc(watcher, arc_deg, points, mover_radius, self, require_sight, mover_height)
