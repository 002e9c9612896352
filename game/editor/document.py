"""The layout being edited as a file: where it is saved, the edit stack, saving (validated,
atomic), the autosave that guards against a crash, and a new empty table.

No pygame here: the scene calls these and shows what they say.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from engine.core.saves import SaveError, write_atomic
from engine.data.errors import DataError, parse_data
from engine.data.maps import MapFile, Marker, Zone
from engine.paths import MAPS_DIR
from engine.workshop import edits as E

AUTOSAVE_EVERY_S = 20.0
FIELD_ORDER = ("schema_version", "id", "name", "description", "unit", "width", "height", "suits",
               "pieces", "deployment", "objectives", "evac_points")


def map_json(m: MapFile) -> str:
    """The map as the file the editor writes: the schema's fields in a fixed order, unset
    properties left out (they come from the piece's kind)."""
    d = m.model_dump(mode="json", exclude_none=True)
    out = {k: d[k] for k in FIELD_ORDER if k in d}
    return json.dumps(out, indent=1, ensure_ascii=False) + "\n"


def new_map(width: float = 60.0, height: float = 44.0, unit: str = "in", map_id: str = "new-layout") -> MapFile:
    """An empty table with a deployment zone along each short edge and an objective in the
    middle (what a new layout starts from)."""
    d = round(width / 5, 6)
    return MapFile(schema_version=1, id=map_id, name="New layout", unit=unit, width=width, height=height,
                   deployment=[Zone(side=1, points=[(0, 0), (d, 0), (d, height), (0, height)]),
                               Zone(side=2, points=[(width - d, 0), (width, 0), (width, height), (width - d, height)])],
                   objectives=[Marker(id="centre", name="Centre", at=(width / 2, height / 2))])


def is_shipped(path: Path | None) -> bool:
    try:
        return path is not None and path.resolve().parent == MAPS_DIR.resolve()
    except OSError:
        return False


@dataclass
class SaveResult:
    ok: bool
    path: Path
    lines: list[str]              # what to show: "file: field: reason" lines, or "saved to ..."


class Document:
    """The editor's layout: the stack (map, undo, symmetry, locks) and the file it belongs to.
    A shipped map is never written over: its first save goes to the user's maps folder."""

    def __init__(self, mapfile: MapFile, path: Path | None = None, maps_folder: Path | None = None,
                 autosave_path: Path | None = None):
        self.stack = E.EditStack(mapfile)
        self.path = Path(path) if path is not None else None
        self.maps_folder = Path(maps_folder) if maps_folder is not None else None
        self.autosave_path = autosave_path
        self._autosaved_version = self.stack.version
        self._autosaved_at = time.monotonic()
        self.saved_map = mapfile          # the map as last saved or opened (the + / - baseline)

    @property
    def map(self) -> MapFile:
        return self.stack.map

    @property
    def dirty(self) -> bool:
        return self.stack.dirty

    def title(self) -> str:
        where = self.path.name if self.path is not None else "not saved yet"
        return f"{self.map.name} ({where}){' *' if self.dirty else ''}"

    def save_path(self) -> Path:
        """Where Save writes: the file opened, unless it is a shipped map; else the user's maps
        folder under the map's id."""
        if self.path is not None and not is_shipped(self.path):
            return self.path
        folder = self.maps_folder or Path.cwd()
        return folder / f"{self.map.id}.json"

    def save(self, path: Path | None = None) -> SaveResult:
        """Validate, then write atomically and read back. A refused layout or an unwritable
        file leaves the editor as it was; the lines name the file, the field and the reason."""
        path = Path(path) if path is not None else self.save_path()
        m = self.map
        problems = E.save_problems(m)
        if problems:
            return SaveResult(False, path, [f"{path}: {f or '(map)'}: {r}" for f, r in problems])
        if is_shipped(path):
            return SaveResult(False, path, [f"{path}: (file): a shipped map is not written over; "
                                            "save the layout under another name"])
        try:
            if self.maps_folder is not None and path.parent == self.maps_folder:
                path.parent.mkdir(parents=True, exist_ok=True)     # the user's own folder, made on first use
            write_atomic(path, map_json(m))
            parse_data(MapFile, json.loads(path.read_text(encoding="utf-8")), path)   # it reads back
        except (SaveError, OSError) as err:
            return SaveResult(False, path, [f"{path}: (file): {err.strerror or err}" if isinstance(err, OSError)
                                            and not isinstance(err, SaveError) else f"{path}: (file): {err}"])
        except DataError as err:
            return SaveResult(False, path, str(err).splitlines())
        self.path = path
        self.stack.mark_saved()
        self.saved_map = m
        self.discard_autosave()
        return SaveResult(True, path, [f"saved to {path}"])

    # --- the autosave --------------------------------------------------------------------
    def autosave_due(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        return (self.autosave_path is not None and self.stack.version != self._autosaved_version
                and self.dirty and now - self._autosaved_at >= AUTOSAVE_EVERY_S)

    def autosave(self) -> str | None:
        """Write the draft (whatever its state) and the file it belongs to; None or the error."""
        if self.autosave_path is None:
            return None
        data = {"format": "skirmish-editor-autosave", "path": str(self.path) if self.path else None,
                "map": json.loads(map_json(self.map))}
        try:
            self.autosave_path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.autosave_path, json.dumps(data))
        except OSError as err:
            return str(err)
        self._autosaved_version = self.stack.version
        self._autosaved_at = time.monotonic()
        return None

    def discard_autosave(self) -> None:
        if self.autosave_path is not None:
            try:
                self.autosave_path.unlink()
            except FileNotFoundError:
                pass
            except OSError:
                pass
        self._autosaved_version = self.stack.version


def read_autosave(path: Path) -> tuple[MapFile, Path | None] | None:
    """The draft an editor left behind (its map, the file it belonged to), or None. A draft may
    lack one side's zone, so it is read with the editor's rules, not the file's."""
    from engine.data.errors import DataError, read_text_file

    try:
        # read as any data file is: a named pipe or a folder in its place is refused, not waited on
        data = json.loads(read_text_file(path))
        if data.get("format") != "skirmish-editor-autosave":
            return None
        raw = data["map"]
        sides = {z.get("side") for z in raw.get("deployment", [])}
        missing = [s for s in (1, 2) if s not in sides]
        stub = [{"side": s, "points": [[0, 0], [raw["width"], 0], [raw["width"], raw["height"]]]} for s in missing]
        probe = dict(raw, deployment=list(raw.get("deployment", [])) + stub)
        m = MapFile.model_validate(probe)
        if missing:
            m = m.model_copy(update={"deployment": list(m.deployment)[:len(m.deployment) - len(stub)]})
        return m, (Path(data["path"]) if data.get("path") else None)
    except (DataError, OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None
