"""The pieces on the table in one shape for every ruleset, for the client and the agents.

Each ruleset's ``view`` carries a ``pieces`` list built with ``piece()``: where each model
stands (table millimetres), how big it is, its facing where the ruleset uses one, whether it is
out of the game, and its state in player words (``health``, ``markers``, ``profile`` lines).
A client draws and explains the table from this list alone, whatever the ruleset.
"""
from __future__ import annotations


def piece(id: str, player: int, name: str, x: float, y: float, z: float, radius: float, height: float,
          *, facing: float | None = None, out: bool = False, health: str | None = None,
          markers=(), active: bool = False, profile=()) -> dict:
    return {"id": id, "player": player, "name": name, "x": x, "y": y, "z": z, "radius": radius,
            "height": height, "facing": facing, "out": out, "health": health,
            "markers": list(markers), "active": active, "profile": list(profile)}
