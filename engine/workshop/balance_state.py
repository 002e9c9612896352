"""The balancer's ``state.json``: written after every step, read back by ``--resume``.

What ``--resume`` reads is checked first, the way a data file is: a truncated or not-JSON file,
``[]`` or ``{}``, a field of the wrong shape, a NaN, a folder or a named pipe in its place is
refused with the file, the field and the reason (``DataError``), and nothing in the run's folder
is changed, so the games already played are never lost (issue 47). The shapes below are those
the run and its reports read; anything else a state holds is kept as it is.
"""
from __future__ import annotations

import json
import math
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engine.data.errors import DataError, load_json_file, problems_of

STATE = "state.json"
VERSION = 1
SETTINGS_KEYS = ("ruleset", "map", "rosters", "agents", "seed", "search_games", "check_games", "confirm_games",
                 "proposals", "tests", "half_width", "near", "max_steps")


class _Shape(BaseModel):
    # strict: a step of "3" or a share of "0.5" is damage, not a number
    model_config = ConfigDict(extra="allow", strict=True)


class Estimate(_Shape):
    """A table effect as ``table_estimate`` gives it (infinities written as null)."""
    share: float | None = Field(None, ge=0, le=1, description="zone 1's share of decisive games")
    low: float | None = Field(None, ge=0, le=1, description="the 95% interval's low end")
    high: float | None = Field(None, ge=0, le=1, description="the 95% interval's high end")
    coef: float = Field(ge=-1e6, le=1e6, description="the table's log-odds")
    se: float | None = Field(None, ge=0, le=1e12, description="its standard error")
    games: int = Field(0, ge=0, le=10 ** 9, description="decisive games")

    @model_validator(mode="after")
    def _interval(self) -> Estimate:
        ends = (self.share, self.low, self.high)
        if any(v is None for v in ends) and any(v is not None for v in ends):
            raise ValueError("share, low and high are given together or not at all")
        if (self.share is not None and self.low is not None and self.high is not None
                and not self.low - 1e-9 <= self.share <= self.high + 1e-9):
            raise ValueError(f"the share {self.share} lies outside its interval [{self.low}, {self.high}]")
        return self


class Tested(_Shape):
    label: str = Field(max_length=100)
    table: Estimate


class Entry(_Shape):
    step: int = Field(ge=0, le=10 ** 6)
    kind: Literal["start", "search", "check", "confirm"]
    table: Estimate | None = None
    tested: list[Tested] = Field(default_factory=list, max_length=100)
    kept: str | None = Field(None, max_length=100)


class Change(_Shape):
    step: int = Field(ge=0, le=10 ** 6)
    op: str = Field(max_length=100)
    words: list[str] = Field(max_length=100)
    describe: str = Field(max_length=10_000)
    edit: dict
    table: Estimate


class Incumbent(_Shape):
    map: dict                                     # checked as a map by ``load_state``
    folder: str = Field(max_length=1000, description="its experiment's folder, inside the run's")
    label: str = Field(max_length=100)
    paths: list[str] = Field(min_length=1, max_length=100)
    labels: list[str] = Field(min_length=1, max_length=100)
    table: Estimate
    check: Estimate | None = None
    templates: dict[str, str] | None = None

    @field_validator("folder")
    @classmethod
    def _inside(cls, v: str) -> str:
        p = PurePosixPath(v)
        if not v or p.is_absolute() or ".." in p.parts:
            raise ValueError(f"{v[:80]!r} is not a folder inside the run's")
        return v

    @model_validator(mode="after")
    def _labels(self) -> Incumbent:
        if len(self.paths) != len(self.labels) or self.label not in self.labels:
            raise ValueError("its paths, labels and label do not go together")
        return self


class BalanceState(_Shape):
    version: Literal[1] = Field(description=f"the state's version; this build reads {VERSION}")
    settings: dict[str, Any]
    phase: Literal["start", "search", "confirm", "done"]
    step: int = Field(ge=0, le=10 ** 6)
    symmetry: str | None = Field(None, max_length=40)
    incumbent: Incumbent | None = None
    edits: list[dict] = Field(max_length=10 ** 6)
    changes: list[Change] = Field(max_length=10 ** 6)
    history: list[Entry] = Field(max_length=10 ** 6)
    # [change of the screen figures (a number in states written before the walk figure), paired change]
    slope_data: list[Annotated[list[list[float] | float], Field(min_length=2, max_length=2)]] = Field(max_length=10 ** 6)
    search_seconds: float = Field(ge=0, le=1e9)
    checked: list[str] = Field(max_length=10 ** 6)
    stopped: str | None = Field(None, max_length=100)
    confirm_seed: int = Field(ge=-2 ** 63, le=2 ** 63)
    held: list[str] = Field(default_factory=list, max_length=10 ** 6)
    before: Estimate | None = None
    after: Estimate | None = None

    @field_validator("slope_data")
    @classmethod
    def _pairs(cls, v: list) -> list:
        bad = next((i for i, (_, d) in enumerate(v) if not isinstance(d, float)), None)
        if bad is not None:
            raise ValueError(f"[{bad}]: the paired change is a number")
        return v

    @model_validator(mode="after")
    def _phase(self) -> BalanceState:
        if self.phase != "start" and self.incumbent is None:
            raise ValueError(f"a run in its {self.phase} phase has an incumbent")
        missing = [k for k in SETTINGS_KEYS if k not in self.settings]
        if missing:
            raise ValueError(f"settings: not a balance run's settings (no {', '.join(missing)})")
        return self


def _finite(v):
    """``v`` with every non-finite float written as None (JSON has no NaN; a reader refuses it)."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_finite(x) for x in v]
    return v


def save_state(out: Path, state: dict) -> None:
    tmp = Path(out) / (STATE + ".tmp")
    tmp.write_text(json.dumps(_finite(state), indent=1, allow_nan=False) + "\n")
    tmp.replace(Path(out) / STATE)


def load_state(out: str | Path) -> dict | None:
    """The saved state (None when there is none), checked; ``DataError`` when it is damaged."""
    from engine.data.maps import MapFile

    p = Path(out) / STATE
    if not p.exists() and not p.is_symlink():
        return None
    data = load_json_file(p)               # a folder, a pipe, bad JSON, a NaN: refused here
    if not isinstance(data, dict):
        raise DataError(p, [("", f"a balance run's state is a JSON object, not {type(data).__name__}")])
    try:
        BalanceState.model_validate(data)
        if data.get("incumbent") is not None:
            MapFile.model_validate(data["incumbent"]["map"])
    except ValidationError as err:
        where = "" if "incumbent" not in data or err.title != "MapFile" else "incumbent.map."
        raise DataError(p, [(where + f, r) for f, r in problems_of(err)][:8]) from None
    return data
