"""Frame times of the game screen: python bench/render.py [--before DIR [--rounds K]]

The heaviest shipped map (the town, 131 pieces) at 1280x720 with 20 bases on the table (the
Frontier posses' 12 models plus 8 copies placed beside them), one model selected with the
reach preview and the sight shading on and the mouse over the table (the live path preview).
Prints the median and 95th percentile of a whole frame (update + draw + widgets), then of pan
frames and wheel-zoom frames, in CPU time (``time.process_time``: other jobs on the shared machine
count less than in wall time; with the dummy driver there is no waiting on a display, so on a quiet
machine the two agree). Headless (SDL dummy driver): software rendering, as on a screen.
With ``--before DIR`` the same frames run on DIR's client and on this one, alternately, and a
table gives both (``bench/compare.py``; DIR must have the game screen, so not the commit the speed
issue was filed on).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import add_arguments, alternate, code_root, med, table  # noqa: E402

code_root()

import pygame  # noqa: E402

from engine.core import Game, Setup  # noqa: E402
from engine.data.maps import load_map  # noqa: E402
from engine.paths import resolve_map  # noqa: E402

try:
    from game.app import App  # noqa: E402
except ImportError:            # a checkout from before the client's rebuild (issue 48), for --before
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
        t = time.process_time()
        app.step(1 / 60, events=[])
        out.append((time.process_time() - t) * 1000)
    return out


FRAMES = ("still mouse", "mouse moving (path preview)", "pan", "wheel zoom", "pan (3x)", "wheel zoom (3x)",
          "tray + hand + animation")


def measure() -> dict:
    os.environ.setdefault("SKIRMISH_HOME", "/tmp/skirmish-bench")
    app = App((1280, 720))
    g = Game(Setup("frontier", load_map(resolve_map("town")), (), {"deployment": "automatic"}, 1))   # in play, forces placed
    session = GameSession(g, {1: "human", 2: "human"}, autosave=False)
    if hasattr(session, "confirm_eyes"):                  # the player at the screen took the device
        session.confirm_eyes(g.pending().player)
    scene = PlayScene(app, session, "town")
    app.switch(scene)
    # the screen's state and its selection (issue 63: ``scene.state``, ``scene.pointer``; before it,
    # the scene itself: --before runs this on older checkouts too)
    st, ptr = getattr(scene, "state", scene), getattr(scene, "pointer", scene)
    extra = [dict(p, id=p["id"] + "-copy", x=p["x"] + 60.0) for p in st.pieces[:8]]
    mover = next(s.actor for s in st.decision.spaces)
    ptr.select(mover)
    st.toggles.update(reach=True, sight=True)
    base = next(p for p in st.pieces if p["id"] == mover)
    real_refresh = scene.refresh

    def refresh(*a, **k):
        real_refresh(*a, **k)
        st.pieces = st.pieces + extra
    scene.refresh = refresh
    st.pieces = st.pieces + extra
    assert len(st.pieces) == 20
    from game.render import overlays as ov
    sx, sy = ov.mm_to_screen(st.cam, base["x"] + (80 if base["x"] < 600 else -80), base["y"] + 30)
    st.mouse = (int(sx), int(sy) + st.table_rect.y)
    timed(app, 20)                                        # warm: reach, shading, sprites
    still = timed(app, 300)

    def wiggle(i):                                        # the mouse moves 3 px a frame
        st.mouse = (int(sx) + (i % 40) * 3, int(sy) + st.table_rect.y)
    moving = timed(app, 300, wiggle)
    pan = timed(app, 200, lambda i: st.cam.pan(3 if i % 80 < 40 else -3, 0))
    zoom = timed(app, 120, lambda i: st.cam.zoom_at(1.02 if i % 60 < 30 else 1 / 1.02, 400, 300))
    # zoomed in three times about the selected model, as a player looking closely would be
    cx, cy = ov.mm_to_screen(st.cam, base["x"], base["y"])
    st.cam.zoom_at(3.0, cx, cy)
    timed(app, 30)                                        # settle at the new scale
    pan3 = timed(app, 200, lambda i: st.cam.pan(3 if i % 80 < 40 else -3, 0))
    zoom3 = timed(app, 120, lambda i: st.cam.zoom_at(1.02 if i % 60 < 30 else 1 / 1.02, 400, 300))
    busy = []
    if hasattr(st, "tray"):                            # issue 31: dice rolling in the tray, the
        st.cam = st.renderer.fit_camera(st.table_rect.size, margin_px=30)   # Frontier hand
        timed(app, 10)                                    # fanned, a model gliding, a shot landing
        from engine.core.rolls import roll_record
        from game.ui.effects import Effect
        dice = [roll_record("Ranger 2: Shoot", 10, [9, 2, 10, 7, 4, 8, 1], [["success"], [], ["success", "explode"],
                                                                          ["success"], [], ["success"], []], target=7,
                            result="4 successes", player=1),
                roll_record("Unit Zero: Defense", 10, [6, 3, 8, 1, 9], target=7, result="2 successes", player=2)]
        other = next(p for p in st.pieces if p["player"] != base["player"])

        def busy_frame(i):
            if i % 36 == 0:                               # a new roll, a glide and a shot every 36 frames
                st.tray.add("a shot", dice, st.t)
                a = (base["x"], base["y"])
                st.anim[base["id"]] = ([a, (a[0] + 60, a[1] + 40)], st.t, 0.5)
                st.effects.effects.append(Effect("line", base["id"], other["id"], "", (255, 226, 120), st.t))
                st.effects.effects.append(Effect("float", other["id"], None, "-2 wounds", (255, 120, 100), st.t))
            st.mouse = (int(sx) + (i % 40) * 3, int(sy) + st.table_rect.y)
        busy = timed(app, 300, busy_frame)
    pygame.quit()
    frames = (still, moving, pan, zoom, pan3, zoom3, busy)
    return {name: (statistics.median(xs), pct(xs, 0.95)) for name, xs in zip(FRAMES, frames) if xs}


def main() -> None:
    ap = argparse.ArgumentParser()
    add_arguments(ap, rounds=3)
    args = ap.parse_args()
    if args.json:
        print(json.dumps(measure()))
        return
    if args.before:
        old, new = alternate(__file__, args.before, [], args.rounds)
        rows = []
        for name in FRAMES:
            rows += [(f"{name}, median", med(old, name, 0), med(new, name, 0), "ms"),
                     (f"{name}, p95", med(old, name, 1), med(new, name, 1), "ms")]
        table(f"game screen, town, 1280x720, 20 bases, reach + sight shading on, CPU ms per frame; "
              f"{args.rounds} alternating rounds, medians (before: {args.before})", rows)
        return
    got = measure()
    print(f"town, 1280x720, 20 bases, reach + sight shading on, {os.cpu_count()} cores, CPU time per frame")
    for name, (m50, p95) in got.items():
        print(f"  {name:30s} median {m50:6.2f} ms   p95 {p95:6.2f} ms")


if __name__ == "__main__":
    main()
