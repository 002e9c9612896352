"""Models standing on the table: upright cylinders."""
from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Base:
    """A model on the table. Lengths in mm, facing in degrees (0 = +x, counter-clockwise).

    ``z`` is the height of the surface it stands on (0 on the ground, a roof's height on a roof);
    ``height`` is the model's own height above that surface.
    """
    id: str
    x: float
    y: float
    radius: float
    height: float
    facing: float = 0.0
    z: float = 0.0

    def moved(self, x: float, y: float, z: float | None = None, facing: float | None = None) -> Base:
        return replace(self, x=float(x), y=float(y),
                       z=self.z if z is None else float(z),
                       facing=self.facing if facing is None else float(facing))

    @property
    def top(self) -> float:
        return self.z + self.height

    @property
    def eye(self) -> float:
        """Eye height used for sight: 90% of the model's height above its surface."""
        return self.z + 0.9 * self.height
