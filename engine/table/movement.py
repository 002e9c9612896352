"""Positions, paths, walking along a path, straight moves.

Paths: a visibility graph for a base of radius r. Its nodes sit outside the convex parts of every
hard piece (impassable, not climbable): around each corner, on the polygon circumscribing the arc
of radius ``d = r + NODE_MARGIN`` (one node per <= 30 degrees of turn, at distance
``d / cos(step / 2)`` from the corner; circles get a ring of 12). Adjacent ring nodes therefore lie
on the piece's edges offset by exactly d, so the graph's paths are legal and at most
``2 tan(15°) / (π/6) - 1 ≈ 2.3%`` longer than the exact shortest path on the rounded-corner arcs
(plus ``NODE_MARGIN`` of clearance): about 0.4 mm for a 25 mm base turning 90° round a corner.
Climbable pieces (walls, fences, crates, hills) are no obstacle to a base, which may overlap them
while it moves: only its centre line pays their height. So the shortest way round one grazes its
corners with the centre: their nodes sit ``NODE_MARGIN`` off each corner (one per corner unless it
turns more than 150°). A node is kept where a base may be mid-move: on the table, overlapping no
hard piece. Only edges tangent to the rings at both ends can lie on a shortest path, so only those
are tested (pymunk ``segment_query_first`` on the hard pieces grown by r - EDGE_TOL: a swept
circle). Nodes and terrain edges are built once per radius per table and cached.

A query (``find_path``) is a lazy A*: the start, the goal and rings round other models are extra
nodes whose edges are pushed with their straight length (a lower bound of their cost) and tested
only when they come off the heap. Other models join as obstacles only when a path meets them: the
search runs with the models on the straight line, and when its path touches another model that
model (and those near the path) join and it runs again; a path found with fewer obstacles is no
longer than one with all of them, so the first that touches no model is the shortest.

Climbing: an edge crossing a climbable piece pays the change of surface height |dz| at each
boundary, up and down, judged along the base's centre line (the surface under the centre is the
top of the highest climbable piece there). Impassable non-climbable pieces and the table edge are
never crossed.

The code is split by what it holds: ``move_common`` (tolerances, filters, the answers),
``placement`` (where a base may stand), ``climbing`` (surface heights and difficult ground along a
centre line), ``paths`` (the graph and the search), ``walking`` (moving along a path, straight
moves). This module names them all, so ``movement.find_path`` and the rest still resolve here.
"""
from __future__ import annotations

from .climbing import (  # noqa: F401 - the names this module has always given
    _difficult_plain,
    _profile,
    difficult_length,
    straight_run,
    surface_profile_one,
    surface_profiles,
)
from .move_common import (  # noqa: F401 - the names this module has always given
    CLIMBABLE,
    CORNER_TURN,
    EDGE_TOL,
    HARD,
    IMPASSABLE,
    MAX_TURN,
    NEAR_MODELS,
    NODE_MARGIN,
    POS_TOL,
    Path,
    StraightMove,
)
from .paths import (  # noqa: F401 - the names this module has always given
    NavGraph,
    _clear,
    _clear_of,
    _model_circles,
    _node_free,
    _ring,
    _search,
    _seg_circle_clear,
    _seg_circle_clear_np,
    _tangent_ok,
    bases_clear,
    find_path,
    make_path,
    seg_circle_ok,
    segment_clear,
)
from .placement import (  # noqa: F401 - the names this module has always given
    _circle_crossings,
    bases_problem,
    clearance_candidates,
    position_problem,
    terrain_problem,
)
from .walking import (  # noqa: F401 - the names this module has always given
    straight_move,
    walk,
)
