"""Benchmark of the table renderer alone: still, pan and wheel-zoom frames.

Run: python bench/table_render.py [--map maps/town.json] [--size 1280x720] [--repeats 3]
                                  [--before DIR [--rounds K]]

Draws into an off-screen Surface (no window, no UI) with ``TableRenderer.draw`` as the game
does every frame, with a scripted camera:

- still: the same camera frame after frame (fit to the table, then zoomed in 2x);
- pan: a right-drag of a few pixels per frame, around a loop, at the fit zoom and at 2x and 4x;
- pan (4x, fast): 24 px a frame, which leaves the cached region (re-rendered then);
- zoom: wheel notches (1.15x each, one per frame at 60 Hz, about the cursor) in bursts of 4,
  then still frames until the renderer has settled (150 ms); the frames where the scale
  changed are "zoom" frames, the still frames that follow them, including the one that
  re-renders crisply, are "settle" frames;
- zoom (no now): the same wheel frames drawn with ``draw(surface, cam)`` (a caller that does not
  pass the time: every frame exact);
- rebuilds: the frames, among all of the above, in which the table was rendered (a new scale
  settled, or a pan left the cached region); only the new renderer counts them.

Figures are CPU time per frame (``time.process_time``), in ms: median, p95 and max, the best
of ``--repeats`` runs for each (by median). The renderer is given the frame time through
``draw(..., now=t)`` when it accepts it (older renderers are called as ``draw(surface, cam)``).
With ``--before DIR`` the same frames are drawn by DIR's renderer and by this checkout's,
alternately, and a table gives both sides' medians and 95th percentiles (``bench/compare.py``).
"""
from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import add_arguments, alternate, code_root, med, table  # noqa: E402

ROOT = code_root()
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from engine.data.maps import load_map  # noqa: E402
from game.render.table_view import TableRenderer  # noqa: E402

DT = 1 / 60


class Driver:
    def __init__(self, m, size):
        self.r = TableRenderer(m)
        self.surf = pygame.Surface(size)
        self.size = size
        self.t = 1000.0
        self.timed = "now" in inspect.signature(self.r.draw).parameters
        self.rebuild_ms: list[float] = []      # frames that rendered the table (new renderer)

    def frame(self, cam, timed: bool = True) -> float:
        n = getattr(self.r, "rebuilds", None)
        c0 = time.process_time()
        if self.timed and timed:
            self.r.draw(self.surf, cam, now=self.t)
        else:
            self.r.draw(self.surf, cam)
        c1 = time.process_time()
        self.t += DT
        ms = (c1 - c0) * 1000
        if n is not None and self.r.rebuilds != n:
            self.rebuild_ms.append(ms)
        return ms

    def settle(self, cam, frames=30) -> list[float]:
        return [self.frame(cam) for _ in range(frames)]


def run_still(d: Driver, zoom: float) -> list[float]:
    cam = d.r.fit_camera(d.size, margin_px=44)
    cam.zoom_at(zoom, d.size[0] / 2, d.size[1] / 2)
    d.settle(cam, 12)
    return [d.frame(cam) for _ in range(120)]


def run_pan(d: Driver, zoom: float, step: int = 6, frames: int = 40) -> list[float]:
    cam = d.r.fit_camera(d.size, margin_px=44)
    cam.zoom_at(zoom, d.size[0] / 2, d.size[1] / 2)
    d.settle(cam, 12)
    out = []
    # a drag around a square loop: 4 legs of ``frames`` frames, ``step`` px a frame
    for dx, dy in ((step, 0), (0, step * 5 // 6), (-step, 0), (0, -step * 5 // 6)):
        for _ in range(frames):
            cam.pan(dx, dy)
            out.append(d.frame(cam))
    return out


def run_zoom(d: Driver, timed: bool = True) -> tuple[list[float], list[float]]:
    cam = d.r.fit_camera(d.size, margin_px=44)
    d.settle(cam, 12)
    zoom, settle = [], []
    # cursor spots over the table; bursts of 4 notches in, then 4 out, repeated
    spots = [(640, 360), (420, 260), (900, 480), (560, 420), (760, 300)]
    for _rep in range(3):
        for mx, my in spots:
            mx, my = mx * d.size[0] / 1280, my * d.size[1] / 720
            for sign in (1, -1):
                for _ in range(4):
                    cam.zoom_at(1.15 ** sign, mx, my)
                    zoom.append(d.frame(cam, timed))
                settle.extend(d.settle(cam, 14))   # 233 ms: the settle happens inside
    return zoom, settle


def stats(xs: list[float]) -> tuple[float, float, float]:
    s = sorted(xs)
    return statistics.median(s), s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))], s[-1]


def measure(a) -> dict:
    """Per kind of frame, the best run by median: (median, p95, max, frames)."""
    size = tuple(int(v) for v in a.size.split("x"))
    pygame.font.init()
    m = load_map(a.map)
    results: dict[str, list] = {}
    for _ in range(a.repeats):
        runs = {}
        d = Driver(m, size)
        runs["still (fit)"] = run_still(d, 1.0)
        runs["still (2x)"] = run_still(d, 2.0)
        runs["pan (fit)"] = run_pan(d, 1.0)
        runs["pan (2x)"] = run_pan(d, 2.0)
        runs["pan (4x)"] = run_pan(d, 4.0)
        runs["pan (4x, fast)"] = run_pan(d, 4.0, step=24, frames=60)   # leaves a cached region
        d2 = Driver(m, size)
        runs["zoom"], runs["settle"] = run_zoom(d2)
        # the same wheel bursts from a caller that does not pass now= (every frame exact)
        runs["zoom (no now)"], _ = run_zoom(Driver(m, size), timed=False)
        # the frames (of all the above) in which the new renderer rendered the table
        runs["rebuilds"] = d.rebuild_ms + d2.rebuild_ms
        for k, v in runs.items():
            if v:
                results.setdefault(k, []).append(stats(v) + (len(v),))
    out = {k: list(min(rs, key=lambda r: r[0])) + [statistics.median(r[0] for r in rs)] for k, rs in results.items()}
    out["_timed"] = Driver(m, size).timed
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--map", default=None, help="a map file (default: the town of the checkout measured)")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--repeats", type=int, default=3)
    add_arguments(ap, rounds=2)
    a = ap.parse_args()
    a.map = a.map or str(ROOT / "maps" / "town.json")
    if a.json:
        print(json.dumps(measure(a)))
        return
    if a.before:
        argv = ["--size", a.size, "--repeats", str(a.repeats)]
        old, new = alternate(__file__, a.before, argv, a.rounds)
        rows = []
        for k in ("still (fit)", "pan (fit)", "pan (2x)", "pan (4x)", "pan (4x, fast)", "zoom", "settle"):
            if k in old[0] and k in new[0]:
                rows += [(f"{k}, median", med(old, k, 0), med(new, k, 0), "ms"),
                         (f"{k}, p95", med(old, k, 1), med(new, k, 1), "ms")]
        table(f"{Path(a.map).name} at {a.size}, renderer only, CPU ms per frame; {a.rounds} alternating rounds, "
              f"medians of the rounds' best of {a.repeats} (before: {a.before}); goal: pan and zoom "
              f"frames median <= 4 ms", rows)
        return
    out = measure(a)
    print(f"{Path(a.map).name} at {a.size}, renderer only, CPU ms per frame "
          f"(best of {a.repeats} runs by median; median of the run medians in brackets); "
          f"draw(now=) {'used' if out.pop('_timed') else 'not available'}")
    print(f"{'frames':<12} {'n':>4} {'median':>16} {'p95':>8} {'max':>8}")
    for k, (m50, p95, mx, n, med_of_meds) in out.items():
        print(f"{k:<12} {n:>4} {m50:>7.2f} [{med_of_meds:>6.2f}] {p95:>8.2f} {mx:>8.2f}")


if __name__ == "__main__":
    main()
