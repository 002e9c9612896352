"""When the client meets an unexpected error: keep the game, write a report, offer to go on.

``report_crash`` saves the game in play (to the autosave) and writes a crash report (the
traceback, the version, the ruleset, map and seed, and where the save is) to the user's data
folder; ``CrashScene`` says where both are and offers to continue from the save or return to
the launcher. Nothing here may raise: a report that cannot be written still leaves a screen.
"""
from __future__ import annotations

import platform
import sys
import traceback
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pygame
import pygame_gui

from game.kit.transitions import Switch
from game.render.text import font

from .scenes.base import Scene
from .userdirs import _base, autosave_file


@dataclass
class CrashReport:
    error: str
    report: Path | None        # the report file, or None when it could not be written
    save: Path | None          # the game saved at the crash, or None (no game, or no write)
    problems: list[str]        # what could not be written, and why


def crash_dir() -> Path:
    return _base("data") / "crashes"


def _session_of(scene):
    """The game session a scene shows (the game, pass and game-over screens hold one; the game
    screen in its state)."""
    for obj in (scene, getattr(scene, "play", None)):
        s = getattr(obj, "session", None) or getattr(getattr(obj, "state", None), "session", None)
        if s is not None and hasattr(s, "game"):
            return s
    return None


def report_crash(scene, err: BaseException) -> CrashReport:
    from engine.core.saves import save_game

    problems: list[str] = []
    session = _session_of(scene)
    save = None
    if session is not None:
        try:
            autosave_file().parent.mkdir(parents=True, exist_ok=True)
            save_game(session.game, autosave_file(), session.client_data())
            save = autosave_file()
        except Exception as e:  # noqa: BLE001
            problems.append(f"the game could not be saved: {e}")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    lines = [f"Skirmish crash report, {datetime.now().isoformat(timespec='seconds')}",
             f"version: {_version()}; Python {platform.python_version()} on {platform.platform()}",
             f"scene: {type(scene).__name__}"]
    if session is not None:
        s = session.game.setup
        lines += [f"game: {s.ruleset} on {s.map.id}, seed {s.seed}, {len(session.game.decisions)} decisions, "
                  f"seats {session.seats}", f"saved to: {save or 'not saved'}"]
    lines += ["", "".join(traceback.format_exception(type(err), err, err.__traceback__))]
    report = None
    try:
        crash_dir().mkdir(parents=True, exist_ok=True)
        report = crash_dir() / f"crash-{stamp}.txt"
        report.write_text("\n".join(lines), encoding="utf-8")
    except Exception as e:  # noqa: BLE001
        problems.append(f"the report could not be written: {e}")
        report = None
    print("\n".join(lines), file=sys.stderr)
    return CrashReport(f"{type(err).__name__}: {err}", report, save, problems)


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("skirmish")
    except Exception:  # noqa: BLE001
        return "unknown"


class CrashScene(Scene):
    def __init__(self, app, crash: CrashReport):
        super().__init__(app)
        self.crash = crash
        self.message = ""
        w, h = app.size
        E = pygame_gui.elements
        self.b_continue = E.UIButton(pygame.Rect(w // 2 - 230, h - 160, 220, 46), "Continue from the save", self.ui)
        if crash.save is None:
            self.b_continue.disable()
        self.b_launcher = E.UIButton(pygame.Rect(w // 2 + 10, h - 160, 220, 46), "Back to the launcher", self.ui)

    def handle(self, ev) -> None:
        if ev.type != pygame_gui.UI_BUTTON_PRESSED:
            return
        if ev.ui_element is self.b_continue and self.crash.save is not None:
            self.resume()
        elif ev.ui_element is self.b_launcher:
            self.go_to(Switch("launcher"))

    def resume(self) -> None:
        from engine.data.errors import DataError

        from .session import GameSession
        try:
            session = GameSession.load(self.crash.save)
        except DataError as err:
            self.message = f"the save does not load: {str(err).splitlines()[0]}"
            return
        self.go_to(Switch("play", {"session": session}))

    def draw(self, screen) -> None:
        screen.fill((26, 18, 16))
        w, _ = screen.get_size()
        lines = [("Something went wrong, and the game stopped.", 34, (250, 200, 130)),
                 (self.crash.error[:150], 18, (255, 160, 140)), ("", 18, (0, 0, 0))]
        if self.crash.save:
            lines.append((f"Your game is saved: {self.crash.save}", 20, (226, 220, 206)))
        if self.crash.report:
            lines.append((f"A report for the developers: {self.crash.report}", 20, (226, 220, 206)))
        lines += [(p, 18, (255, 160, 140)) for p in self.crash.problems]
        if self.message:
            lines.append((self.message, 18, (255, 160, 140)))
        y = 110
        for text, size, colour in lines:
            img = font(size, size > 30).render(text, True, colour)
            screen.blit(img, img.get_rect(midtop=(w // 2, y)))
            y += img.get_height() + 12
