"""Where the client's files are, and the widget manager built on them: a leaf of ``game/`` (it
imports nothing of the client), so the fonts, the sounds and every scene read it from below."""
from __future__ import annotations

from pathlib import Path


def assets_dir() -> Path:
    """The assets folder: installed as ``skirmish_assets``, or beside the packages in a checkout."""
    from engine.paths import data_dir
    return data_dir("skirmish_assets", "assets")


def new_manager(size):
    """A pygame_gui manager with the client's theme and its fonts preloaded."""
    import pygame_gui

    theme = assets_dir() / "theme.json"
    m = pygame_gui.UIManager(size, str(theme) if theme.exists() else None)
    # the theme loads its own fonts; HTML text in boxes also asks for these
    m.preload_fonts([{"name": "noto_sans", "point_size": 14, "style": st, "antialiased": "1"}
                     for st in ("italic", "bold_italic")]
                    + [{"name": "noto_sans", "point_size": 15, "style": "regular", "antialiased": "1"}])
    return m
