"""Readable refusal of bad data files: the file, the field and the reason."""
from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .strict import json_words


class DataError(Exception):
    """A data file (map, roster, save) was refused.

    ``problems`` holds ``(field, reason)`` pairs; ``str()`` gives one line per problem
    in the form ``file: field: reason`` so a user can fix the file without a traceback.
    """

    def __init__(self, file: str | Path, problems: list[tuple[str, str]]):
        self.file = str(file)
        self.problems = problems
        super().__init__("\n".join(f"{self.file}: {f or '(file)'}: {r}" for f, r in problems))


class UnknownId(DataError, KeyError):
    """A look-up by id that found nothing: ``str()`` names where it looked, the id and the ids
    there are (``armoury: shooting: no shooting weapon 'nope' (there are: pistol, rifle)``).

    A ``DataError``, so the code that lists a bad file with its reason (the launcher, the force
    builder, ``skirmish validate``) lists this one too; a ``KeyError``, as any look-up's miss is.
    It replaces the bare ``StopIteration`` of ``next(...)``, which escaped the launcher (issue 59).
    """

    SHOWN = 12      # the ids named in the message; the rest are counted

    def __init__(self, where: str, field: str, what: str, wanted: Any, known=()):
        self.where, self.field, self.what, self.wanted = where, field, what, wanted
        self.known = tuple(known)
        listed = ", ".join(str(k) for k in self.known[:self.SHOWN]) or "none"
        if len(self.known) > self.SHOWN:
            listed += f" and {len(self.known) - self.SHOWN} more"
        super().__init__(where, [(field, f"no {what} {wanted!r} (there are: {listed})")])

    def __str__(self) -> str:       # not KeyError's, which quotes the message
        return BaseException.__str__(self)

    def __reduce__(self):           # rebuilt from its own arguments (a worker process's error)
        return type(self), (self.where, self.field, self.what, self.wanted, self.known)


def find_id(items, wanted: Any, what: str, where: str, field: str = "", attr: str = "id"):
    """The item of ``items`` whose ``attr`` is ``wanted``; ``UnknownId`` naming ``what`` was
    looked for, ``where`` (and in which ``field``) and what there is, when none is."""
    for x in items:
        if getattr(x, attr) == wanted:
            return x
    raise UnknownId(where, field, what, wanted, [getattr(x, attr) for x in items])


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
        elif e["type"].endswith("_type") and "input" in e:
            # a strict field says what it got beside the type it expected (issue 59):
            # "Input should be a valid integer, not the text '70'"
            msg += f", not {json_words(e['input'])}"
        probs.append((_loc(e["loc"]), msg))
    return probs


M = TypeVar("M", bound=BaseModel)


def parse_data(model: type[M], data: Any, file: str | Path) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise DataError(file, problems_of(err)) from None
    except RecursionError:
        raise DataError(file, [("", "nested too deeply")]) from None


# Deeper than any file this project writes (a save's choice is about six levels down).
MAX_DEPTH = 64
# Longer than any string a data file holds (each schema's fields state their own, smaller bounds,
# engine/data/text.py); this one also covers the free-form parts, such as a save's choices.
MAX_STRING_CHARS = 100_000


class _NotFinite(float):
    """A NaN or infinity read from a file, kept apart so it can be refused with its field."""


def _constant(name: str) -> float:
    return _NotFinite(float(name))


def _number(text: str) -> float:
    v = float(text)
    return _NotFinite(v) if math.isinf(v) else v


def json_problems(data: Any) -> list[tuple[str, str]]:
    """What no data file may hold, wherever it is: NaN, infinity (including a number too large
    for a float, which reads as infinity), nesting deeper than ``MAX_DEPTH`` and a string (or a
    key) longer than ``MAX_STRING_CHARS``."""
    probs: list[tuple[str, str]] = []
    stack: list[tuple[Any, tuple[Any, ...], int]] = [(data, (), 0)]
    while stack and len(probs) < 20:
        v, loc, depth = stack.pop()
        if depth > MAX_DEPTH:
            probs.append((_loc(loc), f"nested more than {MAX_DEPTH} levels deep"))
            continue
        if isinstance(v, float) and not math.isfinite(v):
            probs.append((_loc(loc), f"{v} is not a finite number"))
        elif isinstance(v, str) and len(v) > MAX_STRING_CHARS:
            probs.append((_loc(loc), f"a text of {len(v):,} characters, longer than any this file may hold "
                                     f"({MAX_STRING_CHARS:,})"))
        elif isinstance(v, dict):
            long_key = next((k for k in v if len(k) > MAX_STRING_CHARS), None)
            if long_key is not None:
                probs.append((_loc(loc), f"a key of {len(long_key):,} characters, longer than any this file may hold "
                                         f"({MAX_STRING_CHARS:,})"))
                continue
            stack.extend((x, loc + (k,), depth + 1) for k, x in reversed(list(v.items())))
        elif isinstance(v, list):
            stack.extend((x, loc + (i,), depth + 1) for i, x in reversed(list(enumerate(v))))
    return probs


# Far larger than any map, roster or save (a long game's save is well under 1 MB).
MAX_FILE_BYTES = 64 * 1024 * 1024


def open_regular_file(path: Path) -> int:
    """A descriptor of ``path`` opened for reading without waiting for a writer (non-blocking: a
    named pipe cannot block the open); ``DataError`` (the file, the reason) when it cannot be
    opened. The caller checks what was opened (``os.fstat``) before reading it."""
    try:
        return os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise DataError(path, [("", "no such file")]) from None
    except OSError as err:
        raise DataError(path, [("", f"cannot read: {err.strerror or err}")]) from None


def read_text_file(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The text of a regular file. A named pipe, a device or a folder is refused, not read: the
    open does not wait for a writer (non-blocking), and what was opened is checked before
    reading (so a pipe swapped in after a check cannot block either)."""
    path = Path(path)
    fd = open_regular_file(path)
    m, size = (st := os.fstat(fd)).st_mode, st.st_size
    why = None
    if not stat.S_ISREG(m):
        why = "is " + ("a folder" if stat.S_ISDIR(m) else "a named pipe" if stat.S_ISFIFO(m)
                       else "a device" if stat.S_ISCHR(m) or stat.S_ISBLK(m) else "a socket or other special file")
        why += ", not a regular file"
    elif size > max_bytes:
        what = "data file" if max_bytes == MAX_FILE_BYTES else "such file"
        why = f"is {size:,} bytes, larger than any {what} ({max_bytes:,})"
    if why:
        os.close(fd)
        raise DataError(path, [("", why)])
    with os.fdopen(fd, "rb") as f:
        try:
            return f.read().decode("utf-8-sig")  # a byte-order mark is allowed
        except (OSError, UnicodeDecodeError) as err:
            raise DataError(path, [("", f"cannot read: {err}")]) from None


def load_json_file(path: str | Path) -> Any:
    path = Path(path)
    return parse_json_text(read_text_file(path), path)


def parse_json_text(text: str, path: str | Path, where: str = "") -> Any:
    """JSON text as data; ``DataError`` (the file, ``where`` in it, the reason) when it is not
    JSON or holds what no data file may (``json_problems``: NaN, infinity, too deep, too long)."""
    at = f"{where}: " if where else ""
    try:
        data = json.loads(text, parse_constant=_constant, parse_float=_number)
    except json.JSONDecodeError as err:
        pos = f"line {err.lineno} column {err.colno}" if not where else f"column {err.colno}"
        raise DataError(path, [(where, f"not valid JSON at {pos}: {err.msg}")]) from None
    except RecursionError:
        raise DataError(path, [(where, "not readable: nested too deeply")]) from None
    except ValueError as err:  # e.g. an integer with more digits than Python converts
        raise DataError(path, [(where, f"not readable: {err}")]) from None
    probs = json_problems(data)
    if probs:
        raise DataError(path, [((at + f) if f else where, r) for f, r in probs])
    return data


def load_model(model: type[M], path: str | Path) -> M:
    return parse_data(model, load_json_file(path), path)
