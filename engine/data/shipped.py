"""The files a ruleset ships (crews, warbands, posses, missions, armoury), read through one loader.

They are parsed once per process rather than at every game's set-up (a balance run sets up
thousands): the models are frozen, so sharing them is safe. A file changed on disk (its
modification time or size), added or removed is read again, and only the newest reading of each
``what`` is kept. A folder's files are keyed by a field of what they hold; a second file with the
same key is refused (``DataError`` naming the file, the field and why), never silently dropped.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from .errors import DataError

_CACHE: dict[str, tuple[tuple, Any]] = {}


def _stamps(paths) -> tuple:
    return tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in paths)


def cached(what: str, paths, read: Callable[[], Any]) -> Any:
    """``read()``, or what it returned the last time ``paths`` stood as they stand now."""
    key = _stamps(paths)
    got = _CACHE.get(what)
    if got is None or got[0] != key:
        got = _CACHE[what] = (key, read())
    return got[1]


def read_folder(paths, load: Callable[[Path], Any], field: str, again: Callable[[Any], str]) -> dict:
    """Each of ``paths`` read with ``load``, by its ``field``; ``again(key)`` says why a second file
    with a key already read is refused."""
    out: dict = {}
    for path in paths:
        item = load(path)
        key = getattr(item, field)
        if key in out:
            raise DataError(path, [(field, again(key))])
        out[key] = item
    return out


def shipped_folder(what: str, folder: str | Path, load: Callable[[Path], Any], field: str = "id",
                   again: Callable[[Any], str] | None = None, also=()) -> dict:
    """Every ``*.json`` in ``folder`` (``read_folder``), read again only when one of them or of the
    files in ``also`` (what ``load`` reads beside them) has changed; a new dict each call."""
    paths = sorted(Path(folder).glob("*.json"))
    if again is None:
        again = lambda key: f"{field} {key!r} is used by another file"  # noqa: E731
    return dict(cached(f"{what}:{Path(folder).resolve()}", list(also) + paths,
                       lambda: read_folder(paths, load, field, again)))
