"""The launcher's remembered choices: a small JSON file in the user's config folder.

A missing, unreadable or outdated file just gives the defaults: settings are a convenience,
never a reason not to start.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields

from engine.core.saves import write_atomic

from .userdirs import settings_file


# The opponent a new game gets unless the player picks another: a search agent worth playing
# (``random`` only wanders), quick enough to answer in a fraction of a second (docs/ai.md).
DEFAULT_OPPONENT = "ai:normal"


@dataclass
class Settings:
    ruleset: str = "frontier"
    map: str = "town"
    rosters: dict = field(default_factory=dict)   # ruleset -> [roster of side 1, of side 2]
    seats: list = field(default_factory=lambda: ["human", DEFAULT_OPPONENT])
    seed: int = 1
    ai_speed: float = 1.0

    @classmethod
    def load(cls) -> "Settings":
        try:
            data = json.loads(settings_file().read_text(encoding="utf-8-sig"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        s = cls()
        for f in fields(cls):
            v = data.get(f.name)
            if v is not None and isinstance(v, type(getattr(s, f.name))):
                setattr(s, f.name, v)
        return s

    def save(self) -> None:
        try:
            settings_file().parent.mkdir(parents=True, exist_ok=True)  # the client's own folder
            write_atomic(settings_file(), json.dumps(asdict(self), indent=1))
        except OSError:
            pass  # not being able to remember choices must not stop a game
