"""An experiment's folder as ``--resume`` reads it back: ``games.jsonl`` (one game a line) and
``config.json``, each checked before anything is played or written.

A damaged folder (a truncated or not-JSON file, ``[]`` or ``{}``, a row of the wrong shape, a
NaN, a folder or a named pipe in place of a file) is refused with the file, the line or field
and the reason (``DataError``), and nothing in it is changed: the games already played stay
where they are for the user to mend (issue 47). The one damage a run makes itself, the last
line cut short by a kill, is dropped and that game played again.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.data.errors import DataError, parse_json_text, problems_of, read_text_file

RECORDS = "games.jsonl"
CONFIG = "config.json"
# games.jsonl grows by about 700 bytes a game: this is some three million games
MAX_RECORDS_BYTES = 2 * 1024 ** 3
MAX_SEED = 2 ** 64

Side = Literal["1", "2"]


class GameRecord(BaseModel):
    """The fields of a game's record that the summary, the balancer and ``--resume`` read (a
    record holds more: they are kept as they are)."""
    model_config = ConfigDict(extra="allow", strict=True)
    map: str = Field(min_length=1, max_length=4096, description="the map's label in the experiment")
    index: int = Field(ge=0, le=10 ** 9, description="the game's number on its map")
    block: int = Field(ge=0, le=10 ** 9, description="its seed block (the cluster of the intervals)")
    seed: int = Field(ge=-MAX_SEED, le=MAX_SEED, description="the game's seed")
    rosters: dict[Side, str | None] = Field(min_length=2, max_length=2, description="zone -> roster")
    agents: dict[Side, str] = Field(min_length=2, max_length=2, description="seat -> agent")
    first_player: Literal[1, 2] | None = None
    winner: Literal[1, 2] | None = None
    winner_roster: str | None = Field(None, max_length=200)
    winner_agent: str | None = Field(None, max_length=200)
    turns: int | None = Field(None, ge=0, le=10 ** 9, description="turns played")
    decisions: int | None = Field(None, ge=0, le=10 ** 9, description="decisions made")
    ending: str | None = Field(None, max_length=200)
    final_hash: str | None = Field(None, max_length=200)
    error: str | None = Field(None, max_length=100_000)

    @model_validator(mode="after")
    def _played(self) -> GameRecord:
        if self.error is None and self.decisions is None:
            raise ValueError("a game played without an error records its number of decisions")
        return self


def read_records(out: str | Path) -> tuple[list[dict], bool]:
    """(the records of ``out/games.jsonl``, whether its last line was cut short and dropped);
    ``DataError`` when the file is damaged anywhere else."""
    path = Path(out) / RECORDS
    if not path.exists() and not path.is_symlink():
        return [], False
    text = read_text_file(path, max_bytes=MAX_RECORDS_BYTES)
    lines = text.split("\n")
    recs: list[dict] = []
    cut = False
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        last = n == len(lines)          # no newline after it: the line a kill may have cut
        try:
            data = parse_json_text(line, path, f"line {n}")
        except DataError:
            if last:
                cut = True
                continue
            raise
        if not isinstance(data, dict):
            raise DataError(path, [(f"line {n}", f"a game's record is a JSON object, not {type(data).__name__}")])
        try:
            GameRecord.model_validate(data)
        except ValidationError as err:
            raise DataError(path, [(f"line {n}: {f}", r) for f, r in problems_of(err)][:5]) from None
        recs.append(data)
    return recs, cut


CONFIG_KEYS = ("ruleset", "maps", "games", "p1", "p2", "rosters", "seed")


def read_config(out: str | Path) -> dict | None:
    """``out/config.json`` as data (None when there is none); ``DataError`` when it cannot be
    read as an experiment's configuration."""
    from engine.data.errors import load_json_file

    path = Path(out) / CONFIG
    if not path.exists() and not path.is_symlink():
        return None
    data = load_json_file(path)
    if not isinstance(data, dict):
        raise DataError(path, [("", f"an experiment's configuration is a JSON object, not {type(data).__name__}")])
    missing = [k for k in CONFIG_KEYS if k not in data]
    if missing:
        raise DataError(path, [("", f"not an experiment's configuration: no {', '.join(missing)}")])
    return data
