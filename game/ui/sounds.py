"""Optional sounds (off by default; M toggles, a setting): dice as they fall, a card turned over.
The files are the project's own (tools/make_sounds.py, assets/LICENSES.md). No sound device, or
no file, means silence, never an error."""
from __future__ import annotations

from typing import Literal

import pygame

_CACHE: dict[str, pygame.mixer.Sound | Literal[False]] = {}     # False: no such sound


def play(name: str) -> None:
    try:
        if not pygame.mixer.get_init():
            pygame.mixer.init()
        snd = _CACHE.get(name)
        if snd is None:
            from game.assets import assets_dir
            path = assets_dir() / "sounds" / f"{name}.wav"
            snd = _CACHE[name] = pygame.mixer.Sound(str(path)) if path.is_file() else False
        if snd:
            snd.play()
    except (pygame.error, OSError):
        _CACHE[name] = False                  # no device: stay quiet from now on
