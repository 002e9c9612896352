"""Save files: a versioned JSON record of a game in progress, written atomically.

A save is the game's replay (ruleset, the map itself, rosters, options, seed, decisions) plus
the state hash and the number of decisions at the time of saving. Loading re-runs the
decisions (a whole game replays in well under a second) and refuses the file if the hash
differs, so a save can never silently load into a different game.
"""
from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.data.errors import DataError, load_json_file, parse_data
from engine.data.maps import MapFile

from .errors import GameError
from .game import Game, Setup, replay
from .protocol import Choice
from .rules import get_rules

SAVE_FORMAT = "skirmish-save"
SAVE_VERSION = 1


class SavedDecision(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: int = Field(ge=1)
    choice: dict


class SaveFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal["skirmish-save"]
    version: Literal[1]
    saved_at: str = ""
    ruleset: str
    map: MapFile
    rosters: list[Any]
    options: dict = Field(default_factory=dict)
    seed: int
    decisions: list[SavedDecision]
    state_hash: str = Field(min_length=8)


def to_save(game: Game) -> dict:
    s = game.setup
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "ruleset": s.ruleset,
        "map": s.map.model_dump(mode="json", exclude_none=True),
        "rosters": list(s.rosters),
        "options": dict(s.options),
        "seed": s.seed,
        "decisions": [{"player": p, "choice": c.to_json()} for p, c in game.decisions],
        "state_hash": game.state_hash(),
    }


def write_atomic(path: str | Path, text: str) -> None:
    """Write through a temporary file in the same folder, then rename over the target:
    a crash leaves either the old file or the new one, never half of one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes the file private; a save is an ordinary document
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def save_game(game: Game, path: str | Path) -> None:
    write_atomic(path, json.dumps(to_save(game), indent=1))


def read_save(path: str | Path) -> SaveFile:
    return parse_data(SaveFile, load_json_file(path), path)


def setup_of(save: SaveFile) -> Setup:
    return Setup(save.ruleset, save.map, tuple(save.rosters), dict(save.options), save.seed)


def load_game(path: str | Path, check: bool = True) -> Game:
    """Load a save back into the identical game; refuse it (DataError) if it does not replay."""
    save = read_save(path)
    try:
        get_rules(save.ruleset)  # registers the ruleset's choice types
    except GameError as err:
        raise DataError(path, [("ruleset", str(err))]) from None
    decisions = []
    for i, d in enumerate(save.decisions):
        try:
            decisions.append((d.player, Choice.from_json(d.choice)))
        except ValueError as err:
            raise DataError(path, [(f"decisions[{i}].choice", str(err))]) from None
    try:
        game = replay(setup_of(save), decisions)
    except GameError as err:
        raise DataError(path, [("decisions", f"does not replay: {err}")]) from None
    if check and game.state_hash() != save.state_hash:
        raise DataError(path, [("state_hash", f"replaying the decisions gives {game.state_hash()}, "
                                              f"the file says {save.state_hash}: it was saved by other rules")])
    return game
