"""Hands for the real window: the xdotool driver shared by ``tools/window_play.py`` and
``tools/window_edit.py``.

``x_display`` gives the client an X display (its own Xvfb when DISPLAY is unset), ``Hands``
moves, clicks, drags and types on the window with xdotool and keeps screenshots (``import`` from
ImageMagick), and ``drive`` runs the window while the hands work from a second thread. Needs
xvfb, xdotool and imagemagick.
"""
from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import threading
import time
from pathlib import Path


def xdo(*args) -> str:
    return subprocess.run(["xdotool", *map(str, args)], capture_output=True, text=True).stdout.strip()


def fresh_dir(out: Path) -> Path:
    """``out`` emptied: the screenshots of one run only."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    return out


@contextlib.contextmanager
def x_display(out: Path):
    """A display for a real window: DISPLAY if set, else an Xvfb of our own (ended on the way
    out); the user's files in ``out/home`` unless SKIRMISH_HOME says otherwise."""
    xvfb = None
    if not os.environ.get("DISPLAY"):
        disp = f":{60 + random.randrange(30)}"
        xvfb = subprocess.Popen(["Xvfb", disp, "-screen", "0", "1400x900x24"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        os.environ["DISPLAY"] = disp
        time.sleep(1.5)
    os.environ.pop("SDL_VIDEODRIVER", None)
    os.environ.setdefault("SKIRMISH_HOME", str(out / "home"))
    try:
        yield
    finally:
        if xvfb is not None:
            xvfb.terminate()


class Hands:
    """A person's mouse and keys on the window (positions are window pixels), a numbered
    screenshot per step, and notes printed as they come. ``run`` (in a subclass) does the work
    from a second thread and sets ``done`` when it is over."""

    crop_to_window = False          # screenshots of the whole screen, or of the window only

    def __init__(self, app, out: Path):
        self.app, self.out = app, out
        self.n = 0
        self.notes: list[str] = []
        self.done = False

    def move(self, pos):
        import pygame
        ox, oy = pygame.display.get_window_position()      # the window's corner on the screen
        xdo("mousemove", int(ox + pos[0]), int(oy + pos[1]))
        time.sleep(0.15)

    def click(self, pos, shift=False):
        self.move(pos)
        if shift:
            xdo("keydown", "shift")
        xdo("click", 1)
        if shift:
            xdo("keyup", "shift")
        time.sleep(0.25)

    def drag(self, a, b, button=1):
        self.move(a)
        xdo("mousedown", button)
        self.move(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        self.move(b)
        xdo("mouseup", button)
        time.sleep(0.3)

    def key(self, k):
        xdo("key", k)
        time.sleep(0.3)

    def shot(self, name: str):
        self.n += 1
        path = self.out / f"{self.n:03d}-{name}.png"
        crop = []
        if self.crop_to_window:
            import pygame

            x, y = pygame.display.get_window_position()
            w, h = self.app.size
            crop = ["-crop", f"{w}x{h}+{x}+{y}", "+repage"]
        subprocess.run(["import", "-window", "root", *crop, str(path)], capture_output=True)
        return path

    def say(self, text: str):
        self.notes.append(text)
        print(text, flush=True)

    def wait_for(self, cond, timeout=60.0, step=0.2):
        end = time.time() + timeout
        while time.time() < end:
            if cond():
                return True
            time.sleep(step)
        return False


def drive(app, hands: Hands) -> None:
    """Show the window, let it map, run ``hands.run`` on a second thread while the window steps
    at 30 frames a second, then a few more frames and a last screenshot ("end")."""
    import pygame

    pygame.display.flip()
    for _ in range(20):                  # let the window map before the hands start
        app.step(1 / 30)
        pygame.display.flip()
        time.sleep(0.05)
    t = threading.Thread(target=hands.run, daemon=True)
    t.start()
    while not hands.done and app.running:
        app.step(min(0.1, app.clock.tick(30) / 1000.0))
        pygame.display.flip()
    for _ in range(10):
        app.step(1 / 30)
        pygame.display.flip()
    hands.shot("end")
