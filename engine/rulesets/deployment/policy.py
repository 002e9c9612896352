"""The one placement policy: where a side's next model stands, for the automatic placement (the
``automatic`` mode and "deploy the rest") and for the agents' own placements (``engine/ai/deploy.py``).

Every candidate spot of the side's zone (a 1" lattice laid out in the side's own frame) gets

- ``hide``: the share of the enemy zone's points (a 3" lattice in the enemy's frame) that cannot
  see a model standing there (the table's own sight, models not blocking: none stand yet);
- ``objective``: how near the nearest objective marker is, against the table's diagonal;
- ``forward``: how far toward the enemy the spot stands in the zone;
- ``crowd``: a penalty for standing within 3" of a friend already placed (spread out, as a
  player would, so one template or one blast does not catch the whole force);

and the best legal spot by ``WEIGHTS`` is taken, ties broken as the player faces the table. The
models are placed in roster order. What it reads is what the player may know: the table, the
zones, the markers and the bases it is given (the models on the table and the side's own unseen
placements, never the other side's unseen ones). It draws nothing at random.

It lives here, beside the automatic placement's lattice, so that the rules and the agents use
the same code without the rules importing the agents (issue 58: "deploy the rest" and the
automatic mode used to fill the lattice nearest the zone's middle first, a knot of bases a few
millimetres apart, while the agents spread out in cover).

Built in each side's fair frame (``zones.py``), so on a symmetric table the two sides placing the
same roster choose each other's images. The lattice's sight is worked out once per table and side
(a few tenths of a second) and kept on the table, which is immutable.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from engine.data.maps import point_in_polygon
from engine.table import Base

from .auto import lattice, nearest_free, placed_base, spot_ok
from .zones import side_frames, zone_polys

INCH = 25.4
WEIGHTS = {"hide": 1.0, "objective": 0.35, "forward": 0.15, "crowd": 0.5}
PROBE_RADIUS, PROBE_HEIGHT = 12.5, 30.0     # the standard model the sight is measured for
CROWD_MM = 3 * INCH


def lattice_sight(table, player: int):
    """(candidate points (n, 2), hidden share per point, forward 0-1 per point) for ``player``'s
    zone, kept on the table."""
    memo = table.__dict__.setdefault("_deploy_memo", {})
    key = ("policy-lattice", player)
    if key not in memo:
        mf = table.mapfile
        frames = side_frames(table)
        own, foe = frames[player], frames[3 - player]
        cands = lattice(own, zone_polys(mf, player), INCH)
        watch = lattice(foe, zone_polys(mf, 3 - player), 3 * INCH)
        pts = np.array(cands, float).reshape(-1, 2)
        if cands and watch:
            tg = [Base(f"t{i}", x, y, PROBE_RADIUS, PROBE_HEIGHT, 0.0, table.surface_height(x, y))
                  for i, (x, y) in enumerate(cands)]
            vw = [Base(f"w{i}", x, y, PROBE_RADIUS, PROBE_HEIGHT, 0.0, table.surface_height(x, y))
                  for i, (x, y) in enumerate(watch)]
            vis, _ = table.sight_matrix(vw, tg, [], models_block=False)
            hidden = 1.0 - (np.nan_to_num(vis) > 0).mean(axis=0)
        else:
            hidden = np.ones(len(cands))
        ahead = np.array([own.ahead(x, y) for x, y in cands]) if cands else np.zeros(0)
        span = float(ahead.max() - ahead.min()) if len(ahead) else 0.0
        forward = (ahead - ahead.min()) / span if span > 0 else np.zeros(len(cands))
        memo[key] = (pts, hidden, forward)
    return memo[key]


def ranked_spots(table, player: int, radius: float, others) -> list[tuple[float, float]]:
    """``player``'s lattice spots, best first, for a base of ``radius`` with ``others`` on the
    table (the friends among them, those standing in the side's zone, crowd it)."""
    pts, hidden, forward = lattice_sight(table, player)
    if not len(pts):
        return []
    objs = [(o.at[0] * table.mapfile.mm_per_unit, o.at[1] * table.mapfile.mm_per_unit)
            for o in table.mapfile.objectives]
    diag = math.hypot(table.width, table.height)
    if objs:
        d = np.min(np.hypot(pts[:, None, 0] - np.array(objs)[None, :, 0],
                            pts[:, None, 1] - np.array(objs)[None, :, 1]), axis=1)
        objective = 1.0 - d / diag
    else:
        objective = np.zeros(len(pts))
    polys = zone_polys(table.mapfile, player)
    friends = [o for o in others if any(point_in_polygon(o.x, o.y, poly) for poly in polys)]
    crowd = np.zeros(len(pts))
    for f in friends:
        gap = np.hypot(pts[:, 0] - f.x, pts[:, 1] - f.y) - f.radius - radius
        crowd += np.clip(1.0 - gap / CROWD_MM, 0.0, 1.0)
    score = (WEIGHTS["hide"] * hidden + WEIGHTS["objective"] * objective + WEIGHTS["forward"] * forward
             - WEIGHTS["crowd"] * crowd)
    frame = side_frames(table)[player]
    order = sorted(range(len(pts)), key=lambda k: (-round(float(score[k]), 9),
                                                   *(-v for v in frame.tie_key(*pts[k]))))
    return [(float(pts[k][0]), float(pts[k][1])) for k in order]


def best_spot(table, player: int, radius: float, others,
              legal: Callable[[float, float], bool]) -> tuple[float, float] | None:
    """The best of ``ranked_spots`` that ``legal`` accepts (the caller's own test: the decision's
    ``PlaceSpace.check`` for an agent, ``auto.spot_ok`` for the automatic placement); None when
    no lattice spot is legal."""
    return next(((x, y) for x, y in ranked_spots(table, player, radius, others) if legal(x, y)), None)


def place_by_policy(rules, player: int, placed, ids) -> list[tuple[str, float, float, float | None]]:
    """The automatic placement of ``ids`` of ``player``'s roster (``rules.deploy_roster``, whose
    order they are placed in) with ``placed`` on the table: (id, x, y, facing) each, at the best
    legal spot (``best_spot``), facing the ruleset's default. A model no lattice spot takes goes
    to the legal spot nearest the zone's middle (``auto.nearest_free``, a 5 mm search, which
    says when the zone has no room)."""
    table = rules.table
    polys = zone_polys(table.mapfile, player)
    facing = rules.deploy_default_facing(player)
    placed = list(placed)
    out = []
    for d in rules.deploy_roster(player):
        if d.id not in ids:
            continue
        spot = best_spot(table, player, d.radius, placed,
                         lambda x, y: spot_ok(table, x, y, d.radius, polys, placed))
        if spot is None:
            spot = nearest_free(table, side_frames(table)[player], polys, 0.0, 0.0, d.radius, placed,
                                what=d.name)
        out.append((d.id, spot[0], spot[1], facing))
        placed.append(placed_base(table, d.id, spot[0], spot[1], d.radius, d.height, facing or 0.0))
    return out
