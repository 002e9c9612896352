"""Save files: a versioned JSON record of a game in progress, written atomically.

A save is the game's replay (ruleset, rules version, the map itself, rosters, options, seed,
decisions) plus the state hash at the time of saving and (version 2) a hash of each of those
parts and one over them all (``setup_hash``). Loading checks the parts' hashes (naming any part
that was changed), re-runs the decisions (a whole game replays in well under a second) and
refuses the file if the state hash differs, so a save can never silently load into a different
game. Version-1 saves (no setup check) are still read; only their state hash is checked.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.data.errors import DataError, load_json_file, parse_data
from engine.data.maps import MapFile
from engine.data.text import HASH_CHARS, ID_CHARS, IdText
from engine.version import __version__

from .errors import GameError
from .game import MAX_SEED, Game, Setup
from .protocol import Choice
from .rules import get_rules

SAVE_FORMAT = "skirmish-save"
SAVE_VERSION = 2
# The parts of a save its setup check covers; each has its own hash so a refusal says which changed.
CHECKED_PARTS = ("ruleset", "rules_version", "map", "rosters", "options", "seed", "decisions")


class SaveError(OSError):
    """A save could not be written where it was asked to go (the reason says why)."""


class SavedDecision(BaseModel):
    # strict types, as every data file (engine/data/strict.py): a seed of "5" is refused, not read as 5
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True)
    player: int = Field(ge=1, le=8, description="who decided (no ruleset has more than 8 players)")
    choice: dict


class SaveFile(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True)
    format: Literal["skirmish-save"]
    version: Literal[1, 2] = Field(description="save format version; this build reads 1 and 2, writes 2")
    saved_at: str = Field("", max_length=64, description="when it was written (ISO 8601)")
    written_by: str | None = Field(None, max_length=ID_CHARS, description="the Skirmish that wrote it, "
                                   "e.g. 'skirmish 0.2.0' (saves before 0.2.0 do not say)")
    ruleset: IdText
    rules_version: str | None = Field(None, max_length=ID_CHARS, description="the rules' version it was played under")
    map: MapFile
    rosters: list[Any]
    options: dict = Field(default_factory=dict)
    seed: int = Field(ge=-MAX_SEED - 1, le=MAX_SEED, description="the game's seed (a signed 64-bit number)")
    decisions: list[SavedDecision]
    state_hash: str = Field(min_length=8, max_length=HASH_CHARS, description="the final state's hash")
    # version 2: the hash of each checked part, and one hash over them all
    part_hashes: dict[IdText, Annotated[str, Field(max_length=HASH_CHARS)]] | None = Field(
        None, max_length=len(CHECKED_PARTS), description="the hash of each checked part")
    setup_hash: str | None = Field(None, max_length=HASH_CHARS, description="one hash over the parts' hashes")
    # what the client needs to go on (who sits where, the AI's seed); not part of the game, so
    # outside the setup check: a save without it loads with the client's defaults
    client: dict | None = None

    @model_validator(mode="after")
    def _checks(self) -> SaveFile:
        if self.version >= 2:
            missing = [f for f in ("rules_version", "part_hashes", "setup_hash") if getattr(self, f) is None]
            if missing:
                raise ValueError(f"a version-2 save carries {', '.join(missing)}")
        return self


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return hashlib.blake2b(text.encode("ascii"), digest_size=16).hexdigest()


def part_hashes(data: dict) -> dict[str, str]:
    """The hash of each checked part of a save, from its JSON form (as written, as read)."""
    return {k: _digest(data.get(k)) for k in CHECKED_PARTS}


def setup_hash(parts: dict[str, str]) -> str:
    """One hash over the parts' hashes: the whole setup and the decisions."""
    return _digest([parts.get(k) for k in CHECKED_PARTS])


def rules_version(ruleset: str) -> str:
    return str(getattr(get_rules(ruleset), "version", "1"))


def to_save(game: Game) -> dict:
    s = game.setup
    data = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "written_by": f"skirmish {__version__}",
        "ruleset": s.ruleset,
        "rules_version": rules_version(s.ruleset),
        "map": s.map.model_dump(mode="json", exclude_none=True),
        "rosters": list(s.rosters),
        "options": dict(s.options),
        "seed": s.seed,
        "decisions": [{"player": p, "choice": c.to_json()} for p, c in game.decisions],
        "state_hash": game.state_hash(),
    }
    # hash what will be read back: the JSON form, not the Python objects
    data["part_hashes"] = part_hashes(json.loads(json.dumps(data)))
    data["setup_hash"] = setup_hash(data["part_hashes"])
    return data


def write_atomic(path: str | Path, text: str) -> None:
    """Write through a temporary file in the same folder, then rename over the target and sync
    the folder: a crash leaves either the old file or the new one, never half of one. A file
    being replaced keeps its mode. Refused (``SaveError``) into a folder that does not exist
    or through a symbolic link."""
    path = Path(path)
    parent = path.parent
    if not parent.is_dir():
        raise SaveError(f"cannot save {path}: the folder {parent} does not exist")
    if path.is_symlink():
        raise SaveError(f"cannot save {path}: it is a symbolic link (save to the file it points to instead)")
    if path.exists() and not path.is_file():
        raise SaveError(f"cannot save {path}: it is not a regular file")
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o644  # a new save is an ordinary document (mkstemp makes the file private)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _sync_folder(parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the system lets a folder be synced)."""
    try:
        dfd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass  # some file systems (and Windows) cannot sync a folder; the data itself is synced
    finally:
        os.close(dfd)


def save_game(game: Game, path: str | Path, client: dict | None = None) -> None:
    data = to_save(game)
    if client is not None:
        data["client"] = client
    write_atomic(path, json.dumps(data, indent=1, allow_nan=False))


def read_save(path: str | Path) -> SaveFile:
    return parse_data(SaveFile, load_json_file(path), path)


def _raw_save(path: str | Path) -> dict:
    return load_json_file(path)


def setup_of(save: SaveFile) -> Setup:
    return Setup(save.ruleset, save.map, tuple(save.rosters), dict(save.options), save.seed)


def _check_parts(path, raw: dict, save: SaveFile) -> None:
    """A version-2 save: each part must hash as it did when saved, and the parts' hashes must
    give the setup hash. Names what was changed."""
    parts = part_hashes(raw)
    kept = save.part_hashes or {}      # a version-2 save carries them (SaveFile._checks)
    if setup_hash(kept) != save.setup_hash:
        raise DataError(path, [("setup_hash", "does not match the file's part_hashes: the hashes were edited")])
    unknown = sorted(set(kept) - set(CHECKED_PARTS))
    if unknown:
        raise DataError(path, [("part_hashes", f"unknown part(s) {', '.join(unknown)}")])
    changed = [k for k in CHECKED_PARTS if kept.get(k) != parts[k]]
    if changed:
        raise DataError(path, [(k, "was changed after the game was saved (it no longer matches the save's "
                                   "setup check)") for k in changed])


def load_game(path: str | Path, check: bool = True) -> Game:
    """Load a save back into the identical game; refuse it (DataError) if it does not replay,
    if its setup or decisions were changed (version 2), or if its state hash differs."""
    return load_save(path, check)[0]


def load_save(path: str | Path, check: bool = True) -> tuple[Game, SaveFile]:
    """``load_game``'s game and the save it came from, read from the file once (a file being
    replaced meanwhile cannot give the game of one version and the ``client`` of another)."""
    raw = _raw_save(path)
    save = parse_data(SaveFile, raw, path)
    try:
        rules_cls = get_rules(save.ruleset)  # registers the ruleset's choice types
    except GameError as err:
        raise DataError(path, [("ruleset", str(err))]) from None
    players = getattr(rules_cls, "players", 2)
    if len(save.rosters) > players:
        raise DataError(path, [("rosters", f"{len(save.rosters)} rosters for a {players}-player game")])
    decisions = []
    for i, d in enumerate(save.decisions):
        if d.player > players:
            raise DataError(path, [(f"decisions[{i}].player", f"no player {d.player} in a {players}-player game")])
        try:
            decisions.append((d.player, Choice.from_json(d.choice)))
        except (ValueError, TypeError, RecursionError) as err:
            raise DataError(path, [(f"decisions[{i}].choice", str(err))]) from None
    if check and save.version >= 2:
        _check_parts(path, raw, save)
    try:
        game = Game(setup_of(save))
    except GameError as err:
        raise DataError(path, [("rosters", f"the game cannot be set up: {err}")]) from None
    except Exception as err:  # rosters or options the ruleset cannot read
        raise DataError(path, [("rosters", f"the game cannot be set up: {type(err).__name__}: {err}")]) from None
    for i, (player, choice) in enumerate(decisions):
        try:
            game.submit(player, choice)
        except GameError as err:
            raise DataError(path, [(f"decisions[{i}]", f"does not replay: {err}")]) from None
        except Exception as err:
            raise DataError(path, [(f"decisions[{i}]", f"does not replay: {type(err).__name__}: {err}")]) from None
    if check and game.state_hash() != save.state_hash:
        if save.version >= 2:
            now = rules_version(save.ruleset)
            if now != save.rules_version:
                why = f"it was saved by rules version {save.rules_version}; these are version {now}"
            else:
                why = ("the setup and the decisions are as saved, so the state hash in the file was edited "
                       f"(or these rules play differently although both are rules version {now})")
        else:
            why = ("the state hash, the setup or the decisions were edited, or other rules saved it "
                   "(a version-1 save carries no setup check to tell which)")
        raise DataError(path, [("state_hash", f"replaying the decisions gives {game.state_hash()}, "
                                              f"the file says {save.state_hash}: {why}")])
    return game, save
