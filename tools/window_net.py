"""Play a network game through two real windows, the way two people at two machines do.

    python tools/window_net.py [--ruleset frontier] [--turns 2] [--seed S] [--out DIR] [--undo-check]

Starts ``skirmish host`` (both seats remote), then two clients, each a real window on an X display
of its own (its own Xvfb), each on ``RemoteSession`` exactly as ``skirmish join`` opens it; in each
window the hands of ``tools/window_play.py`` (xdotool clicks on the options, the models and the
table, chosen by the ``easy`` agent from that window's view) answer that seat's decisions until
the game passes ``--turns`` turns. Each window keeps a screenshot per step in ``OUT/seat1`` and
``OUT/seat2``. Prints, per window, the decisions answered by kind, the answers the window did not
take, the pass screens seen (there must be none: each window shows one player) and any crash.
The players join with names (seat 1 "Bob", seat 2 "Alice"), which the other window shows.

``--undo-check`` (issue 58): seat 2's window opens a few seconds after seat 1's (whose first
screenshot then shows "waiting for player 2 to join"); seat 1's hands hover one of seat 2's models
(its card names Alice); seat 2's hands click Undo twice after a decision of theirs that reveals
nothing, and seat 1's hands answer the question with a click on Allow, then on Cancel. Each window
prints what happened (and keeps screenshots "undo-*"): the first undo must be agreed (the decision
taken back in both windows), the second refused.
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


NAMES = {1: "Bob", 2: "Alice"}


def seat_window(port: int, seat: int, code: str, turns: int, out: Path, undo_check: bool = False) -> int:
    """One player's window (a child process)."""
    from window_play import Driver
    from xwindow import drive, fresh_dir, x_display

    out = fresh_dir(out)

    class NetDriver(Driver):
        pass_screens = 0
        undo_asks = 2 if undo_check and seat == 2 else 0          # seat 2 asks twice
        undo_answers = ["Allow", "Cancel"] if undo_check and seat == 1 else []
        hovered = not (undo_check and seat == 1)
        undo_results: list = []
        tried: set = set()

        def shot(self, name: str):
            if name.startswith("pass-to-"):
                self.pass_screens += 1
            return super().shot(name)

        def settle(self, timeout=30.0):
            super().settle(timeout)
            if undo_check:
                self._hover_other()
                self._answer_undo()
                self._ask_undo()

        def _hover_other(self):
            """Seat 1: the pointer over one of seat 2's models (its card names its player)."""
            sc = self.scene()
            theirs = [p for p in getattr(getattr(sc, "state", None), "pieces", []) if p["player"] == 2 and not p["out"]]
            if self.hovered or not theirs or sc.state.names.get(2) != NAMES[2]:
                return
            self.hovered = True
            self.move(sc.pointer.screen_pos_of(theirs[0]["id"]))
            time.sleep(2.0)
            self.shot("hover-other")

        def _answer_undo(self):
            """Seat 1: the other player's question answered by a click on its button."""
            sc = self.scene()
            dlg = getattr(getattr(getattr(sc, "panels", None), "dialogs", None), "undo_dialog", None)
            if dlg is None or not dlg.alive() or not self.undo_answers:
                return
            time.sleep(0.5)
            self.shot("undo-question")
            answer = self.undo_answers.pop(0)
            n = len(sc.state.session.game.decisions)
            self.click((dlg.confirm_button if answer == "Allow" else dlg.cancel_button).rect.center)
            self.wait_for(lambda: sc.panels.dialogs.undo_dialog is None and len(sc.state.session.game.decisions) != n
                          if answer == "Allow" else sc.panels.dialogs.undo_dialog is None, 15)
            time.sleep(1.0)
            self.shot(f"undo-{answer.lower()}-clicked")
            self.undo_results.append({"clicked": answer, "decisions": [n, len(sc.state.session.game.decisions)],
                                      "message": sc.state.message[0] if sc.state.message else ""})
            self.say(f"seat 1 clicked {answer}: decisions {n} -> {len(sc.state.session.game.decisions)}; "
                     f"said {sc.state.message[0] if sc.state.message else ''!r}")

        def _ask_undo(self):
            """Seat 2: Undo clicked after a decision of its own whose next decision is its own too
            (the other player has not answered since). A seat does not know what revealed dice
            (its world does not say): where the host answers "nothing of yours to take back", that
            try does not count and the hands try again after a later decision."""
            sc = self.scene()
            s = getattr(getattr(sc, "state", None), "session", None)
            d = getattr(getattr(sc, "state", None), "decision", None)
            if not self.undo_asks or d is None or d.player != seat or s.undo_target() is None \
                    or d.kind == "deploy" or len(s.game.decisions) in self.tried:
                return
            n = len(s.game.decisions)
            self.tried.add(n)
            s.asks.last_undo = None       # the remote session's asks own it (issue 63)
            self.click(sc.panels.buttons.buttons["undo"].rect.center)
            asked = sc.state.message[0] if sc.state.message else ""
            self.shot("undo-asked")
            self.wait_for(lambda: s.last_undo is not None or (sc.state.message and "refused" in sc.state.message[0]), 30)
            time.sleep(1.0)
            r = s.last_undo
            if r is None:                    # refused by the host: not a question asked of seat 1
                self.say(f"seat 2's Undo at decision #{n - 1}: {sc.state.message[0] if sc.state.message else 'no answer'}")
                return
            self.undo_asks -= 1
            self.shot("undo-" + ("agreed" if r is not None and r.accepted else "refused"))
            self.undo_results.append({"asked": asked, "accepted": None if r is None else r.accepted,
                                      "reason": None if r is None else r.reason,
                                      "decisions": [n, len(s.game.decisions)]})
            self.say(f"seat 2 asked to undo decision #{n - 1}: "
                     f"{'no answer' if r is None else ('agreed' if r.accepted else 'refused: ' + r.reason)}; "
                     f"decisions {n} -> {len(s.game.decisions)}")

    with x_display(out):
        import pygame

        from game.app import App
        from game.net.remote import RemoteSession
        from game.scenes.play import PlayScene

        session = RemoteSession(f"127.0.0.1:{port}", seat, code, name=NAMES[seat]).wait_ready(20)
        app = App((1280, 720))
        app.switch(PlayScene(app, session))
        driver = NetDriver(app, out, turns, 10 + seat)
        driver.rng.random = lambda: 1.0          # no Ctrl+Z tries: over the network undo asks the other
        drive(app, driver)
        crashed = [repr(e) for e in app.crashes]
        g = session.game
        undo_ok = True
        if undo_check:      # seat 2: agreed then refused; seat 1: Allow then Cancel clicked
            got = [r.get("accepted", r.get("clicked")) for r in driver.undo_results]
            undo_ok = got == ([True, False] if seat == 2 else ["Allow", "Cancel"])
        from xwindow import xdo
        # the title the X server holds for the window (``search --name`` misses a title with "—")
        titles = [xdo("getwindowname", w) for w in xdo("search", "--classname", ".").split()]
        x_title = next((t for t in titles if t.startswith("Skirmish")), None)
        print(json.dumps({"seat": seat, "name": NAMES[seat], "caption": pygame.display.get_caption()[0],
                          "x_title": x_title,
                          "other_named": app.scene.state.names.get(3 - seat) if hasattr(app.scene, "state") else None,
                          "answered": driver.kinds, "not_taken": driver.refused_by_window,
                          "pass_screens": driver.pass_screens, "crashes": crashed, "undo": driver.undo_results,
                          "decisions": len(g.decisions), "turn": g.state.turn}), flush=True)
        session.close()
        pygame.quit()
        return 1 if crashed or driver.pass_screens or not undo_ok else 0


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
    ap.add_argument("--undo-check", action="store_true", help="seat 2 asks to undo twice; seat 1 clicks Allow, "
                                                                "then Cancel (issue 58)")
    ap.add_argument("--seat", type=int, help=argparse.SUPPRESS)     # a child: one window
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--code", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    out = Path(args.out)
    if args.seat:
        return seat_window(args.port, args.seat, args.code, args.turns, out / f"seat{args.seat}", args.undo_check)
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
        wins = []
        for p in (1, 2):
            if p == 2 and args.undo_check:
                time.sleep(12)                # seat 1 waits for player 2 to join (its first screenshot)
            wins.append(subprocess.Popen([sys.executable, __file__, "--seat", str(p), "--port", str(hi["port"]),
                                          "--code", hi["codes"][str(p)], "--turns", str(args.turns), "--out", str(out)]
                                         + (["--undo-check"] if args.undo_check else []),
                                         cwd=ROOT, env={**env, "DISPLAY": displays[p - 1]}, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True))
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
