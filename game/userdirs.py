"""Where the client keeps the player's things: settings, autosaves and saves.

``SKIRMISH_HOME`` overrides everything (tests point it at a temporary folder); otherwise the
XDG folders on Linux, ``%APPDATA%`` on Windows and ``~/Library/Application Support`` on macOS.
"""
from __future__ import annotations

import os
import sys
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


def settings_file() -> Path:
    return _base("config") / "settings.json"


def saves_dir() -> Path:
    return _base("data") / "saves"


def autosave_file() -> Path:
    return _base("data") / "autosave.json"


def host_autosave_file() -> Path:
    """Where a network game's server (``skirmish host``) keeps its game after every decision."""
    return _base("data") / "host-autosave.json"


def maps_dir() -> Path:
    """Where the layout editor saves new maps."""
    return _base("data") / "maps"


def catalog_dir() -> Path:
    """The user's own catalog files (templates and missions) for the layout editor."""
    return _base("config") / "catalog"


def editor_autosave_file() -> Path:
    return _base("data") / "editor-autosave.json"


def sheets_dir() -> Path:
    return _base("data") / "sheets"


def balance_dir() -> Path:
    """Where the editor's balance tests keep their games and reports."""
    return _base("data") / "balance"


def generated_dir() -> Path:
    """Where the editor's Generate runs keep their input, layouts and search records."""
    return _base("data") / "generated"


def forces_dir(ruleset: str | None = None) -> Path:
    """Where the force builder saves the player's forces: ``forces/<ruleset>/<id>.json``."""
    base = _base("data") / "forces"
    return base / ruleset if ruleset else base
