"""Scenes and the one loop that runs them.

A scene owns one screen (launcher, game, pass, game over): its own pygame_gui manager, its
input and its drawing. ``App`` holds the window and the current scene and runs one loop;
``App.step`` runs one frame from given events so tests can drive the client without a screen.
"""
from __future__ import annotations

import os
from pathlib import Path

import pygame

MIN_SIZE = (1024, 600)     # a small laptop's screen; the scenes lay out for it and up
FPS = 60


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
    def __init__(self, app: "App"):
        self.app = app
        self.ui = new_manager(app.size)

    def handle(self, ev) -> None:
        """One event (the manager has already seen it)."""

    def update(self, dt: float) -> None:
        pass

    def draw(self, screen) -> None:
        pass

    def resize(self, size) -> None:
        self.ui.set_window_resolution(size)

    def close(self) -> None:
        """The scene is being left."""

    def request_quit(self) -> bool:
        """The window is being closed: True to let it close; a scene with something unsaved
        (the layout editor) returns False and asks first."""
        return True


class App:
    def __init__(self, size=MIN_SIZE, resizable: bool = True, fit_desktop: bool = False):
        """``fit_desktop``: a window on a screen opens no larger than the desktop; a picture
        rendered headless keeps the size asked for."""
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        pygame.init()
        from game.render.text import reset_fonts
        reset_fonts()              # fonts of an earlier pygame session are dead
        flags = pygame.RESIZABLE if resizable else 0
        self.size = fit_to_desktop(size, desktop_size() if fit_desktop else None)
        self.screen = pygame.display.set_mode(self.size, flags)
        pygame.display.set_caption("Skirmish")
        icon = assets_dir() / "icon.png"
        if icon.exists():
            try:
                pygame.display.set_icon(pygame.image.load(str(icon)))
            except pygame.error:
                pass
        self.scene: Scene | None = None
        self.running = True
        self.clock = pygame.time.Clock()
        self.frames = 0
        self.crashes: list[BaseException] = []

    def switch(self, scene: Scene) -> None:
        if self.scene is not None:
            try:
                self.scene.close()
            except Exception:  # noqa: BLE001 - a scene that cannot close must not stop the switch
                pass
        self.scene = scene

    def quit(self) -> None:
        self.running = False

    def step(self, dt: float, events=None) -> None:
        """One frame: events (from the queue unless given), update, draw. An unexpected error
        in a scene never closes the window with the game lost: the game is saved, a crash report
        written, and the crash screen offers to go on from the save (``game.crash``)."""
        try:
            self._step(dt, events)
        except Exception as err:  # noqa: BLE001 - any bug: keep the game, say where it is
            from game.crash import CrashScene, report_crash
            if isinstance(self.scene, CrashScene):
                raise                     # the crash screen itself failed: nothing left to save
            self.crashes.append(err)      # tests assert none happened
            self.switch(CrashScene(self, report_crash(self.scene, err)))

    def _step(self, dt: float, events=None) -> None:
        for ev in (pygame.event.get() if events is None else events):
            if ev.type == pygame.QUIT:
                if self.scene is not None and not self.scene.request_quit():
                    continue
                self.quit()
                if self.scene is not None:
                    self.scene.close()
                return
            if ev.type == pygame.VIDEORESIZE:
                w, h = max(MIN_SIZE[0], ev.w), max(MIN_SIZE[1], ev.h)
                self.size = (w, h)
                # asking for the size again keeps the window at MIN_SIZE or more, and gives a
                # display surface of exactly that size whatever the platform did
                self.screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
                self.scene.resize(self.size)
                continue
            scene = self.scene
            if scene.ui.process_events(ev) and ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEWHEEL):
                continue                  # a press on a widget or window is not a press on the table
            scene.handle(ev)
        scene = self.scene
        scene.ui.update(dt)
        scene.update(dt)
        if self.scene is not scene:      # the update switched scenes: draw the new one next frame
            return
        scene.draw(self.screen)
        scene.ui.draw_ui(self.screen)
        self.frames += 1

    def run(self, max_frames: int | None = None, screenshot: str | None = None) -> None:
        if screenshot and max_frames is None:   # a picture is taken after a few frames (it waited for ever)
            from game.cli_args import SCREENSHOT_FRAMES

            max_frames = SCREENSHOT_FRAMES
        while self.running:
            dt = self.clock.tick(FPS) / 1000.0
            self.step(min(dt, 0.1))
            pygame.display.flip()
            if max_frames is not None and self.frames >= max_frames:
                break
        if screenshot:
            save_png(self.screen, screenshot)
        pygame.quit()


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
