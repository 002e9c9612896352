"""2.5D table geometry: terrain from a map, positions, paths, sight, cover, arcs, heatmaps.

All lengths in millimetres, angles in degrees (0 = +x, counter-clockwise, y up).
The engine never imports pygame.
"""
from .bases import Base
from .geometry import CirclePart, ConvexPart
from .heatmap import openness_heatmap
from .movement import Path, StraightMove
from .sight import Sight, sight_reference
from .table import Table
from .terrain import COVER_CODE, COVER_NAME, TablePiece

__all__ = [
    "Base", "Table", "TablePiece", "Path", "StraightMove", "Sight", "ConvexPart", "CirclePart",
    "openness_heatmap", "sight_reference", "COVER_CODE", "COVER_NAME",
]
