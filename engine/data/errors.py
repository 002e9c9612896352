"""Readable refusal of bad data files: the file, the field and the reason."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError


class DataError(Exception):
    """A data file (map, roster, save) was refused.

    ``problems`` holds ``(field, reason)`` pairs; ``str()`` gives one line per problem
    in the form ``file: field: reason`` so a user can fix the file without a traceback.
    """

    def __init__(self, file: str | Path, problems: list[tuple[str, str]]):
        self.file = str(file)
        self.problems = problems
        super().__init__("\n".join(f"{self.file}: {f or '(file)'}: {r}" for f, r in problems))


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def problems_of(err: ValidationError) -> list[tuple[str, str]]:
    probs = []
    for e in err.errors(include_url=False):
        # Tagged unions add the tag name to the location ("shape.polygon.points"): keep it,
        # it tells the reader which variant was checked.
        msg = e["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        probs.append((_loc(e["loc"]), msg))
    return probs


M = TypeVar("M", bound=BaseModel)


def parse_data(model: type[M], data: Any, file: str | Path) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise DataError(file, problems_of(err)) from None


def load_json_file(path: str | Path) -> Any:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(path, [("", "no such file")]) from None
    except (OSError, UnicodeDecodeError) as err:
        raise DataError(path, [("", f"cannot read: {err}")]) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise DataError(path, [("", f"not valid JSON at line {err.lineno} column {err.colno}: {err.msg}")]) from None


def load_model(model: type[M], path: str | Path) -> M:
    return parse_data(model, load_json_file(path), path)
