"""The launcher's Continue: which game it takes up (issue 58: the button said nothing of it).

Read cheaply from the autosave's header (``read_save``: no replay): the ruleset, the map, the turn
(the client part of the save keeps it; an older save gives its number of decisions instead) and
when it was saved (the file's time, in words). A file that cannot be read is said so, with the
reason, and Continue is not offered for it."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from engine.data.errors import DataError


@dataclass(frozen=True)
class Autosave:
    words: str            # "Counterblast on Kessler Station, turn 3, saved today at 14:05", or why it cannot be read
    readable: bool


def when_words(t: float, now: datetime | None = None) -> str:
    """A file's time as a person says it: "today at 14:05", "yesterday at 09:12", "on 3 March at
    18:40" (this year), "on 3 March 2025 at 18:40"."""
    when = datetime.fromtimestamp(t)
    now = now or datetime.now()
    clock = f"{when:%H:%M}"
    days = (now.date() - when.date()).days
    if days == 0:
        return f"today at {clock}"
    if days == 1:
        return f"yesterday at {clock}"
    day = f"{when.day} {MONTHS[when.month - 1]}" + ("" if when.year == now.year else f" {when.year}")
    return f"on {day} at {clock}"


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")     # the client's words are English whatever the locale (%B is not)

_cache: dict = {}           # (path, mtime_ns, size) -> Autosave: the launcher builds its form often


def autosave_info(path: Path | None = None, now: datetime | None = None) -> Autosave | None:
    """What Continue would take up (None: no autosave). ``path``: the autosave (the user's)."""
    from engine.core.saves import read_save
    from game.launch.choices import RULESETS
    from game.userdirs import autosave_file

    path = Path(path) if path is not None else autosave_file()
    try:
        st = path.stat()
    except OSError:
        return None
    if not path.is_file():
        return Autosave(f"the last game's autosave {path} cannot be read: it is not a file", False)
    key = (str(path), st.st_mtime_ns, st.st_size, (now or datetime.now()).date())
    if key in _cache:
        return _cache[key]
    try:
        sv = read_save(path)
    except DataError as err:
        found = Autosave(f"the last game's autosave cannot be read: {str(err).splitlines()[0]}", False)
    except OSError as err:
        found = Autosave(f"the last game's autosave {path} cannot be read: {err.strerror or err}", False)
    else:
        turn = (sv.client or {}).get("turn")
        when = (f"turn {turn}" if isinstance(turn, int) and not isinstance(turn, bool)
                else f"{len(sv.decisions)} decisions")
        found = Autosave(f"{RULESETS.get(sv.ruleset, sv.ruleset)} on {sv.map.name}, {when}, saved "
                         f"{when_words(st.st_mtime, now)}", True)
    _cache.clear()
    _cache[key] = found
    return found
