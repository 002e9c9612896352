"""Where the client keeps the player's things: settings, autosaves and saves.

``SKIRMISH_HOME`` overrides everything (tests point it at a temporary folder); otherwise the
XDG folders on Linux, ``%APPDATA%`` on Windows and ``~/Library/Application Support`` on macOS.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path


def _base(kind: str) -> Path:
    home = os.environ.get("SKIRMISH_HOME")
    if home:
        return Path(home) / kind
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / "Skirmish" / kind
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Skirmish" / kind
    env = "XDG_CONFIG_HOME" if kind == "config" else "XDG_DATA_HOME"
    default = Path.home() / (".config" if kind == "config" else ".local/share")
    return Path(os.environ.get(env) or default) / "skirmish"


def _place(kind: str, name: str, doc: str = "") -> Callable[[], Path]:
    """A function naming one place in the ``kind`` folder (``config`` or ``data``), read each time it
    is called (``SKIRMISH_HOME`` may change between calls: the tests move it)."""
    def where() -> Path:
        return _base(kind) / name
    where.__doc__ = doc or f"The player's {name} ({kind})."
    return where


# the player's places, a table: the folder kind and the name in it
settings_file = _place("config", "settings.json")
saves_dir = _place("data", "saves")
autosave_file = _place("data", "autosave.json")
host_autosave_file = _place("data", "host-autosave.json",
                            "Where a network game's server (``skirmish host``) keeps its game after every decision.")
maps_dir = _place("data", "maps", "Where the layout editor saves new maps.")
catalog_dir = _place("config", "catalog", "The user's own catalog files (templates and missions) for the layout editor.")
editor_autosave_file = _place("data", "editor-autosave.json")
sheets_dir = _place("data", "sheets")
balance_dir = _place("data", "balance", "Where the editor's balance tests keep their games and reports.")
generated_dir = _place("data", "generated",
                       "Where the editor's Generate runs keep their input, layouts and search records.")


def forces_dir(ruleset: str | None = None) -> Path:
    """Where the force builder saves the player's forces: ``forces/<ruleset>/<id>.json``."""
    base = _base("data") / "forces"
    return base / ruleset if ruleset else base
