"""What the movement modules share: tolerances and margins (mm), the pymunk filters for hard,
impassable and climbable pieces, and the Path and StraightMove answers. The whole design is in
``movement``'s docstring."""
from __future__ import annotations

import math
from dataclasses import dataclass

import pymunk

from .terrain import CAT_CLIMB_BLOCK, CAT_CLIMBABLE, CAT_HARD

NODE_MARGIN = 0.1    # mm of clearance kept by graph nodes
EDGE_TOL = 0.01      # mm: a base may touch (base contact) but not overlap
POS_TOL = 1e-6
MAX_TURN = math.radians(30.0)
CORNER_TURN = math.radians(150.0)   # a climbable piece's corner: one node unless it is sharper
NEAR_MODELS = 1.0    # a search that meets a model brings in the models within this many radii of its path

HARD = pymunk.ShapeFilter(mask=CAT_HARD)
IMPASSABLE = pymunk.ShapeFilter(mask=CAT_HARD | CAT_CLIMB_BLOCK)
CLIMBABLE = pymunk.ShapeFilter(mask=CAT_CLIMBABLE)


@dataclass(frozen=True, slots=True)
class Path:
    points: tuple[tuple[float, float, float], ...]   # (x, y, z) turning points, z = surface height
    length: float        # horizontal + vertical, mm
    horizontal: float
    vertical: float      # climbing, up and down
    difficult: float     # mm of the horizontal run inside difficult terrain


@dataclass(frozen=True, slots=True)
class StraightMove:
    x: float
    y: float
    z: float
    travelled: float
    stopped_by: str | None   # label of what stopped it ("the table edge", a piece's label, a model id)
