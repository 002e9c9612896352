"""The scene: one screen (launcher, game, pass, game over), with its own pygame_gui manager, its
input and its drawing.

A scene never builds or imports another scene: it says where to go with a transition value
(``game.kit.transitions``: ``Switch``, ``Push``, ``Pop``, ``Quit``), returned from ``update`` or
handed over with ``go`` when a button is pressed, and the app (``game/app.py``: the window, the
loop and the registry of screens by name) resolves it at once.
"""
from __future__ import annotations

from pathlib import Path

import pygame

from game.assets import new_manager

MIN_SIZE = (1024, 600)     # a small laptop's screen; the scenes lay out for it and up
FPS = 60


def fit_to_desktop(wanted, desktop) -> tuple[int, int]:
    """The window's size: ``wanted``, but no larger than the desktop it opens on (a window
    larger than the screen opens partly off it, SDL centring it at negative coordinates), and no
    smaller than ``MIN_SIZE``, what the scenes lay out for. ``desktop`` None (unknown): ``wanted``."""
    w, h = wanted
    if desktop:
        w, h = min(w, desktop[0]), min(h, desktop[1])
    return max(MIN_SIZE[0], w), max(MIN_SIZE[1], h)


def desktop_size():
    """The size of the desktop the window opens on (the first display), or None if unknown."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return None
    return tuple(sizes[0]) if sizes else None


class Scene:
    def __init__(self, app):
        self.app = app
        self.ui = new_manager(app.size)

    def go_to(self, transition) -> None:
        """Leave for another screen: ``transition`` (a ``Switch``, ``Push``, ``Pop`` or ``Quit``)
        is resolved by the app now, through its registry of screens by name."""
        self.app.go(transition)

    def handle(self, ev) -> None:
        """One event (the manager has already seen it)."""

    def update(self, dt: float):
        """One frame's time; may return a transition for the app to resolve (or None)."""
        return None

    def draw(self, screen) -> None:
        pass

    def resize(self, size) -> None:
        self.ui.set_window_resolution(size)

    def close(self) -> None:
        """The scene is being left."""

    def caption(self) -> str:
        """The window's title while this scene shows (the app sets it when it changes)."""
        return "Skirmish"

    def request_quit(self) -> bool:
        """The window is being closed: True to let it close; a scene with something unsaved
        (the layout editor) returns False and asks first."""
        return True


class PictureError(OSError):
    """A picture could not be written where it was asked to go (the reason is pygame's or the system's)."""


def save_png(surface, path) -> Path:
    """Write ``surface`` as a PNG; a place it cannot be written raises ``PictureError``, never
    pygame's own error (the command line turns it into a message and exit code 1)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(path))
    except (OSError, pygame.error) as err:
        raise PictureError(getattr(err, "strerror", None) or str(err)) from None
    return path
