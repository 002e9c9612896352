"""The player's forces on disk: ``<data folder>/forces/<ruleset>/<id>.json`` (``game.userdirs``).

A force file is the ruleset's own roster file (a Counterblast crew, a Frontier posse, a Doubles
warband), so ``skirmish validate`` and the game read it with the same models. It is written
atomically (``engine.core.saves.write_atomic``: a temporary file, then a rename) and only when
the ruleset's price check finds no problem; it is read back through the ruleset's models
(``Rules.read_force``, ``Rules.price_force``). A file that does not read is listed with its file,
field and reason, never raised out of the launcher or the builder.

The launcher names a player's force ``user:<id>`` beside the shipped roster ids.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from engine.core.forces import ForcePrice
from engine.core.rules import get_rules
from engine.core.saves import SaveError, write_atomic
from engine.data.errors import DataError, load_json_file
from game.userdirs import forces_dir

USER = "user:"
STAR = "* "      # the launcher's mark of a player's force (pygame_gui's font has no star glyph)


@dataclass
class UserForce:
    """One file of the forces folder: its roster and price when it reads, else why not."""
    key: str                   # "user:<id>", as the launcher and the settings name it
    path: Path
    name: str
    roster: dict | None = None
    price: ForcePrice | None = None
    problem: str = ""          # why it does not read ("" when it does)

    @property
    def readable(self) -> bool:
        return self.roster is not None and not self.problem

    @property
    def playable(self) -> bool:
        return self.readable and self.price is not None and self.price.ok


def is_user(key) -> bool:
    return isinstance(key, str) and key.startswith(USER)


def read_force_file(ruleset: str, path: Path) -> UserForce:
    """One force file, checked through the ruleset's models; never raises."""
    path = Path(path)
    key = USER + path.stem
    rules = get_rules(ruleset)
    try:
        data = load_json_file(path)
        if not isinstance(data, dict):
            raise DataError(path, [("", f"a {ruleset} roster is a JSON object, not {type(data).__name__}")])
        rules.read_force(data, str(path))               # the ruleset's models: DataError if it does not read
        price = rules.price_force(data, None, str(path))
    except DataError as err:
        return UserForce(key, path, path.stem, problem=str(err).splitlines()[0] if str(err) else "not readable")
    except (OSError, ValueError, RecursionError) as err:   # a file that cannot be read at all
        return UserForce(key, path, path.stem, problem=f"{path}: {err}")
    except Exception as err:     # noqa: BLE001 - a ruleset's check that fails on a player's file (issue 59:
        # a StopIteration stopped the launcher): the file is listed with it, the launcher still opens
        return UserForce(key, path, path.stem, problem=f"{path}: not readable ({type(err).__name__}: {err})")
    return UserForce(key, path, str(data.get("name") or path.stem), roster=data, price=price)


def list_forces(ruleset: str) -> list[UserForce]:
    """Every force file saved for ``ruleset``, by file name."""
    folder = forces_dir(ruleset)
    try:
        paths = sorted(p for p in folder.glob("*.json") if p.is_file())
    except OSError:
        return []
    return [read_force_file(ruleset, p) for p in paths]


def find(ruleset: str, key: str) -> UserForce | None:
    if not is_user(key):
        return None
    path = forces_dir(ruleset) / f"{key[len(USER):]}.json"
    if not path.is_file():
        return None
    return read_force_file(ruleset, path)


def load_roster(ruleset: str, key: str) -> dict:
    """The roster dict of a saved force; ``DataError`` (file, field, reason) when it is missing or
    does not read."""
    path = forces_dir(ruleset) / f"{key[len(USER):]}.json"
    if not path.is_file():
        raise DataError(path, [("", "no such force (was it deleted?)")])
    f = read_force_file(ruleset, path)
    if not f.readable or f.roster is None:
        raise DataError(path, [("", f.problem)])
    return f.roster


def resolve(ruleset: str, key):
    """A launcher roster choice as ``Setup`` takes it: a shipped id as it is, a player's force
    as its roster dict (``DataError`` when it does not read)."""
    return load_roster(ruleset, key) if is_user(key) else key


def free_id(ruleset: str, wanted: str, mine: str | None = None) -> str:
    """``wanted``, or ``wanted_2``, ``wanted_3``... the first that names no other saved force
    (``mine``: the id this force was loaded from, which it may keep)."""
    folder = forces_dir(ruleset)
    cand, n = wanted, 1
    while cand != mine and (folder / f"{cand}.json").exists():
        n += 1
        cand = f"{wanted}_{n}"
    return cand


def save_force(ruleset: str, roster: dict) -> Path:
    """Write a force the ruleset accepts as ``<id>.json``; ``DataError`` with every problem when
    it does not (nothing is written), ``SaveError`` when the folder cannot be written."""
    rules = get_rules(ruleset)
    folder = forces_dir(ruleset)
    path = folder / f"{roster.get('id')}.json"
    price = rules.price_force(roster, None, str(path))
    if not price.ok:
        raise DataError(path, [(p.field, p.reason) for p in price.problems])
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(roster, indent=1, ensure_ascii=False) + "\n")
    except OSError as err:
        raise SaveError(f"cannot save {path}: {err.strerror or err}") from None
    return path


def roster_choices(ruleset: str, listed: list[UserForce] | None = None) -> dict[str, str]:
    """The launcher's roster list: the shipped rosters (id -> name), then the player's forces
    that read ("user:<id>" -> "* name"; a name two forces share is numbered, "* name (2)").
    ``listed``: the forces folder as ``list_forces`` read it (None: read it now)."""
    out = dict(get_rules(ruleset).roster_ids())
    mine = [f for f in (list_forces(ruleset) if listed is None else listed) if f.readable]
    taken = set(out.values())
    for f in mine:
        label, n = STAR + f.name, 1
        while label in taken:
            n += 1
            label = f"{STAR}{f.name} ({n})"
        taken.add(label)
        out[f.key] = label
    return out


def unreadable_words(listed: list[UserForce]) -> str:
    """What the launcher says of the forces it leaves out of its lists because they do not read:
    each file and its reason ("" when every force reads)."""
    bad = [f for f in listed if not f.readable]
    if not bad:
        return ""
    head = ("A saved force does not read and is not listed: " if len(bad) == 1
            else f"{len(bad)} saved forces do not read and are not listed: ")
    return head + "; ".join(f"{f.path.name} ({f.problem.removeprefix(str(f.path) + ': ')})" for f in bad)


__all__ = ["STAR", "USER", "UserForce", "find", "free_id", "is_user", "list_forces", "load_roster",
           "read_force_file", "resolve", "roster_choices", "save_force", "unreadable_words"]
