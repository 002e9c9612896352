"""How the agents deploy: a spot for each model, scored with what the move scoring knows.

Every candidate spot of the side's zone (a 1" lattice laid out in the side's own frame) gets

- ``hide``: the share of the enemy zone's points (a 3" lattice in the enemy's frame) that cannot
  see a model standing there (the table's own sight, models not blocking: none stand yet);
- ``objective``: how near the nearest objective marker is, against the table's diagonal;
- ``forward``: how far toward the enemy the spot stands in the zone;
- ``crowd``: a penalty for standing within 3" of a friend already placed (spread out, as a
  player would, so one template or one lane does not catch the whole force);

and the best spot by ``WEIGHTS`` is taken, ties broken as the player faces the table. The models
are placed in roster order (the decision lists them so). What it reads is what the player may know:
the table, the zones, the markers, and the decision's own spaces, whose ``others`` are the models
on the table and the player's own unseen placements, never the other side's unseen ones.

Built in each side's fair frame (``engine/rulesets/deployment/zones.py``), so on a symmetric table
two agents deploying the same roster choose each other's images. The lattice's sight is worked
out once per table and side (a few tenths of a second) and kept on the table, which is immutable.
"""
from __future__ import annotations

import math

import numpy as np

from engine.core.protocol import Choice, Decision
from engine.rulesets.deployment import DeployRest, PlaceModel, PlaceSpace
from engine.rulesets.deployment.auto import lattice
from engine.rulesets.deployment.zones import side_frames, zone_polys
from engine.table import Base

INCH = 25.4
WEIGHTS = {"hide": 1.0, "objective": 0.35, "forward": 0.15, "crowd": 0.5}
PROBE_RADIUS, PROBE_HEIGHT = 12.5, 30.0     # the standard model the sight is measured for
CROWD_MM = 3 * INCH


def _lattice_sight(table, player: int):
    """(candidate points (n, 2), hidden share per point, forward 0-1 per point) for ``player``'s
    zone, kept on the table."""
    memo = table.__dict__.setdefault("_deploy_memo", {})
    key = ("ai-lattice", player)
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


def choose_placement(decision: Decision, table, player: int) -> Choice:
    """The agent's answer to a deployment decision: the first model still to place, at its best
    spot (see the module); the automatic placement when no lattice spot is legal."""
    spaces = [s for s in decision.spaces if isinstance(s, PlaceSpace)]
    if not spaces:
        return next((o for o in decision.options if isinstance(o, DeployRest)), decision.options[0])
    space = spaces[0]
    pts, hidden, forward = _lattice_sight(table, player)
    if not len(pts):
        return _fallback(decision)
    objs = [(o.at[0] * table.mapfile.mm_per_unit, o.at[1] * table.mapfile.mm_per_unit)
            for o in table.mapfile.objectives]
    diag = math.hypot(table.width, table.height)
    if objs:
        d = np.min(np.hypot(pts[:, None, 0] - np.array(objs)[None, :, 0],
                            pts[:, None, 1] - np.array(objs)[None, :, 1]), axis=1)
        objective = 1.0 - d / diag
    else:
        objective = np.zeros(len(pts))
    friends = [o for o in space.others
               if any(_inside_zone(o.x, o.y, poly) for poly in zone_polys(table.mapfile, player))]
    crowd = np.zeros(len(pts))
    for f in friends:
        gap = np.hypot(pts[:, 0] - f.x, pts[:, 1] - f.y) - f.radius - space.radius
        crowd += np.clip(1.0 - gap / CROWD_MM, 0.0, 1.0)
    score = (WEIGHTS["hide"] * hidden + WEIGHTS["objective"] * objective + WEIGHTS["forward"] * forward
             - WEIGHTS["crowd"] * crowd)
    frame = side_frames(table)[player]
    order = sorted(range(len(pts)), key=lambda k: (-round(float(score[k]), 9),
                                                   *(-v for v in frame.tie_key(*pts[k]))))
    for k in order:
        c = PlaceModel(space.model, float(pts[k][0]), float(pts[k][1]))
        if space.check(c) is None:
            return c
    return _fallback(decision)


def _inside_zone(x: float, y: float, poly) -> bool:
    from engine.data.maps import point_in_polygon
    return point_in_polygon(x, y, poly)


def _fallback(decision: Decision) -> Choice:
    return next((o for o in decision.options if isinstance(o, DeployRest)), decision.options[0])
