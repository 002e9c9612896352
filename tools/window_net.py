"""Play a network game through two real windows, the way two people at two machines do.

    python tools/window_net.py [--ruleset frontier] [--turns 2] [--seed S] [--out DIR]

Starts ``skirmish host`` (both seats remote), then two clients, each a real window on an X display
of its own (its own Xvfb), each on ``RemoteSession`` exactly as ``skirmish join`` opens it; in each
window the hands of ``tools/window_play.py`` (xdotool clicks on the options, the models and the
table, chosen by the ``easy`` agent from that window's view) answer that seat's decisions until
the game passes ``--turns`` turns. Each window keeps a screenshot per step in ``OUT/seat1`` and
``OUT/seat2``. Prints, per window, the decisions answered by kind, the answers the window did not
take, the pass screens seen (there must be none: each window shows one player) and any crash.
Needs xvfb, xdotool and imagemagick.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))


def seat_window(port: int, seat: int, code: str, turns: int, out: Path) -> int:
    """One player's window (a child process)."""
    from xwindow import drive, fresh_dir, x_display

    from window_play import Driver

    out = fresh_dir(out)

    class NetDriver(Driver):
        pass_screens = 0

        def shot(self, name: str):
            if name.startswith("pass-to-"):
                self.pass_screens += 1
            return super().shot(name)

    with x_display(out):
        import pygame

        from game.app import App
        from game.net.remote import RemoteSession
        from game.scenes.play import PlayScene

        session = RemoteSession(f"127.0.0.1:{port}", seat, code, name=f"window {seat}").wait_ready(20)
        app = App((1280, 720))
        app.switch(PlayScene(app, session))
        driver = NetDriver(app, out, turns, 10 + seat)
        driver.rng.random = lambda: 1.0          # no Ctrl+Z tries: over the network undo asks the other
        drive(app, driver)
        crashed = [repr(e) for e in app.crashes]
        g = session.game
        print(json.dumps({"seat": seat, "answered": driver.kinds, "not_taken": driver.refused_by_window,
                          "pass_screens": driver.pass_screens, "crashes": crashed,
                          "decisions": len(g.decisions), "turn": g.state.turn}), flush=True)
        session.close()
        pygame.quit()
        return 1 if crashed or driver.pass_screens else 0


def _free_displays(n: int) -> list[str]:
    out = []
    for k in range(80, 120):
        if not Path(f"/tmp/.X11-unix/X{k}").exists() and not Path(f"/tmp/.X{k}-lock").exists():
            out.append(f":{k}")
            if len(out) == n:
                return out
    raise RuntimeError("no free X display numbers")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="frontier", choices=("counterblast", "frontier", "doubles"))
    ap.add_argument("--map")
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="/tmp/window-net")
    ap.add_argument("--seat", type=int, help=argparse.SUPPRESS)     # a child: one window
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--code", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    out = Path(args.out)
    if args.seat:
        return seat_window(args.port, args.seat, args.code, args.turns, out / f"seat{args.seat}")
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SKIRMISH_HOME": str(out / "home")}
    env.pop("DISPLAY", None)
    info = out / "host.json"
    if info.exists():
        info.unlink()
    home = {"counterblast": "outpost", "frontier": "town", "doubles": "prehistoric"}
    host = subprocess.Popen([sys.executable, "-m", "game.cli", "host", "--ruleset", args.ruleset, "--map",
                             args.map or home[args.ruleset], "--seed", str(args.seed), "--port", "0", "--bind",
                             "127.0.0.1", "--info", str(info), "--autosave", str(out / "host-autosave.json")],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        end = time.time() + 60
        while not info.exists():
            assert host.poll() is None and time.time() < end, "the host did not start"
            time.sleep(0.1)
        hi = json.loads(info.read_text())
        displays = _free_displays(2)              # a screen each: the two machines
        xvfbs = [subprocess.Popen(["Xvfb", d, "-screen", "0", "1400x900x24"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL) for d in displays]
        time.sleep(1.5)
        wins = [subprocess.Popen([sys.executable, __file__, "--seat", str(p), "--port", str(hi["port"]), "--code",
                                  hi["codes"][str(p)], "--turns", str(args.turns), "--out", str(out)],
                                 cwd=ROOT, env={**env, "DISPLAY": displays[p - 1]}, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
                 for p in (1, 2)]
        rc = 0
        for w in wins:
            text, _ = w.communicate(timeout=1800)
            print(text.strip())
            rc |= w.returncode
        for x in xvfbs:
            x.terminate()
        return rc
    finally:
        host.terminate()
        try:
            text, _ = host.communicate(timeout=10)
            print("host:", *text.strip().splitlines()[:6], sep="\n  ")
        except subprocess.TimeoutExpired:
            host.kill()


if __name__ == "__main__":
    sys.exit(main())
