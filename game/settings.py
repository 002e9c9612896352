"""The launcher's remembered choices: a small JSON file in the user's config folder.

Settings are a convenience, never a reason not to start. A missing file gives the defaults. A
file that cannot be read as settings (not JSON, or the wrong shape: the schema below) is set
aside as ``settings.json.bad-<time>`` so nothing the player wrote is lost, the defaults are used,
and ``Settings.notice`` says what happened (the launcher shows it). Values the schema accepts
but this build does not offer (a ruleset or map it does not ship) are the launcher's to replace.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core.game import MAX_SEED
from engine.core.saves import write_atomic
from engine.data.errors import DataError, problems_of, read_text_file

from .userdirs import settings_file

# The opponent a new game gets unless the player picks another: a search agent worth playing
# (``random`` only wanders), quick enough to answer in a fraction of a second (docs/ai.md).
DEFAULT_OPPONENT = "ai:normal"

Name = Annotated[str, Field(min_length=1, max_length=200)]


class SettingsFile(BaseModel):
    """The file's shape. Keys this build does not know are ignored (a newer build may add some)."""
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    ruleset: Name = Field("frontier", description="ruleset id")
    map: Name = Field("town", description="shipped map id")
    rosters: dict[Name, Annotated[list[Name], Field(min_length=2, max_length=2)]] = Field(
        default_factory=dict, max_length=100, description="ruleset id -> [roster id of side 1, of side 2]")
    seats: list[Name] = Field(default_factory=lambda: ["human", DEFAULT_OPPONENT], min_length=2, max_length=2,
                              description="who plays each side: human or ai:AGENT")
    seed: int = Field(1, ge=-MAX_SEED - 1, le=MAX_SEED, description="the game's seed (a signed 64-bit number)")
    ai_speed: float = Field(1.0, gt=0, le=100, description="speed factor of AI animations")
    animations: bool = Field(True, description="dice that roll, moves that glide, shots drawn on the table")
    sound: bool = Field(False, description="dice and card sounds (off unless asked for)")
    deployment: Literal["alternate", "groups", "hidden", "automatic"] = Field(
        "alternate", description="how the forces deploy (docs/rules/deployment.md)")
    missions: dict[Name, Name] = Field(default_factory=dict, max_length=100,
                                       description="ruleset id -> the mission last chosen for it")
    house_rules: dict[Name, Annotated[dict[Name, Any], Field(max_length=500)]] = Field(
        default_factory=dict, max_length=100,
        description="ruleset id -> the options changed in the Options dialog (field -> value; the "
                    "ruleset's options model checks them when they are used)")
    player_name: str = Field("", max_length=200, description="the name last given to join a network game (the "
                             "other player sees it; made a name the protocol accepts when it is used)")


@dataclass
class Settings:
    ruleset: str = "frontier"
    map: str = "town"
    rosters: dict = field(default_factory=dict)   # ruleset -> [roster of side 1, of side 2]
    seats: list = field(default_factory=lambda: ["human", DEFAULT_OPPONENT])
    seed: int = 1
    ai_speed: float = 1.0
    animations: bool = True
    sound: bool = False
    deployment: str = "alternate"
    missions: dict = field(default_factory=dict)      # ruleset -> mission id last chosen
    house_rules: dict = field(default_factory=dict)   # ruleset -> {option: value} changed from the defaults
    player_name: str = ""                             # the name a network game's other player sees
    # what happened to the file when it was read (a bad one set aside), for the launcher to show
    notice: str = field(default="", compare=False)

    @classmethod
    def load(cls) -> Settings:
        path = settings_file()
        if not path.exists() and not path.is_symlink():
            return cls()
        try:
            data = json.loads(read_text_file(path))
            checked = SettingsFile.model_validate(data)
        except DataError as err:
            return cls(notice=_set_aside(path, "; ".join(f"{f + ': ' if f else ''}{r}" for f, r in err.problems)))
        except (ValueError, RecursionError) as err:   # not JSON, or not the settings' shape
            why = ("; ".join(f"{f}: {r}" for f, r in problems_of(err)[:3]) if isinstance(err, ValidationError)
                   else f"not readable ({type(err).__name__}: {str(err)[:120]})")
            return cls(notice=_set_aside(path, why))
        return cls(**checked.model_dump())

    def save(self) -> None:
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "notice"}
        try:
            settings_file().parent.mkdir(parents=True, exist_ok=True)  # the client's own folder
            write_atomic(settings_file(), json.dumps(data, indent=1))
        except OSError:
            pass  # not being able to remember choices must not stop a game


def _set_aside(path: Path, why: str) -> str:
    """Rename a bad settings file out of the way (kept for the player to look at); the message."""
    kept = path.with_name(f"{path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.name}.bad-{time.strftime('%Y%m%d-%H%M%S')}-{n}")
    try:
        path.rename(kept)
    except OSError as err:
        return f"The settings file {path} could not be read ({why}) nor set aside ({err.strerror or err}); defaults used."
    return f"The settings file could not be read ({why}): it was set aside as {kept} and defaults used."


__all__ = ["DEFAULT_OPPONENT", "Settings", "SettingsFile"]
