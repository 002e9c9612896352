"""Frame times of the game screen: python bench/render.py

The heaviest shipped map (the town, 131 pieces) at 1280x720 with 20 bases on the table (the
Frontier posses' 12 models plus 8 copies placed beside them), one model selected with the
reach preview and the sight shading on and the mouse over the table (the live path preview).
Prints the median and 95th percentile of a whole frame (update + draw + widgets), then of pan
frames and wheel-zoom frames. Headless (SDL dummy driver): software rendering, as on a screen.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from engine.core import Game, Setup  # noqa: E402
from engine.data.maps import load_map  # noqa: E402
from engine.paths import resolve_map  # noqa: E402
from game.scenes.base import App  # noqa: E402
from game.scenes.play import PlayScene  # noqa: E402
from game.session import GameSession  # noqa: E402


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def timed(app, n, before=None):
    out = []
    for i in range(n):
        if before:
            before(i)
        t = time.perf_counter()
        app.step(1 / 60, events=[])
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    os.environ.setdefault("SKIRMISH_HOME", "/tmp/skirmish-bench")
    app = App((1280, 720))
    g = Game(Setup("frontier", load_map(resolve_map("town")), (), {}, 1))
    scene = PlayScene(app, GameSession(g, {1: "human", 2: "human"}, autosave=False), "town")
    app.switch(scene)
    extra = [dict(p, id=p["id"] + "-copy", x=p["x"] + 60.0) for p in scene.pieces[:8]]
    mover = next(s.actor for s in scene.decision.spaces)
    scene.select(mover)
    scene.toggles.update(reach=True, sight=True)
    base = next(p for p in scene.pieces if p["id"] == mover)
    real_refresh = scene.refresh

    def refresh(*a, **k):
        real_refresh(*a, **k)
        scene.pieces = scene.pieces + extra
    scene.refresh = refresh
    scene.pieces = scene.pieces + extra
    assert len(scene.pieces) == 20
    from game.render import overlays as ov
    sx, sy = ov.mm_to_screen(scene.cam, base["x"] + (80 if base["x"] < 600 else -80), base["y"] + 30)
    scene.mouse = (int(sx), int(sy) + scene.table_rect.y)
    timed(app, 20)                                        # warm: reach, shading, sprites
    still = timed(app, 300)

    def wiggle(i):                                        # the mouse moves 3 px a frame
        scene.mouse = (int(sx) + (i % 40) * 3, int(sy) + scene.table_rect.y)
    moving = timed(app, 300, wiggle)
    pan = timed(app, 200, lambda i: scene.cam.pan(3 if i % 80 < 40 else -3, 0))
    zoom = timed(app, 120, lambda i: scene.cam.zoom_at(1.02 if i % 60 < 30 else 1 / 1.02, 400, 300))
    print(f"town, 1280x720, 20 bases, reach + sight shading on, {os.cpu_count()} cores")
    for name, xs in (("still mouse", still), ("mouse moving (path preview)", moving), ("pan", pan),
                     ("wheel zoom", zoom)):
        print(f"  {name:30s} median {statistics.median(xs):6.2f} ms   p95 {pct(xs, 0.95):6.2f} ms")
    pygame.quit()


if __name__ == "__main__":
    main()
