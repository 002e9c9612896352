"""Tour the launcher's set-up screens in the real window, the way hands do, and keep the evidence.

    python tools/window_launcher.py [--ruleset counterblast] [--out DIR]

Opens the launcher in a real window on an X display (its own Xvfb when DISPLAY is unset) and
drives it with xdotool (``tools/xwindow.py``): opens the Mission list and picks a
mission, opens Options (a screenshot), changes nothing and presses Cancel, opens the force builder
for side 1 and comes back, opens Join… and cancels it, then starts the game and presses S for the
score panel. A screenshot per step in OUT; it prints each step and what the screen then held
(the scene, the mission chosen), and any crash. Needs xvfb, xdotool and imagemagick.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from xwindow import Hands, drive, fresh_dir, x_display  # noqa: E402

HOME = {"counterblast": "outpost", "frontier": "town", "doubles": "prehistoric"}


class Tour(Hands):
    crop_to_window = True

    def scene_name(self) -> str:
        return type(self.app.scene).__name__

    def press(self, element, name: str):
        self.click(element.rect.center)
        self.wait_for(lambda: False, timeout=0.6)
        self.shot(name)

    def run(self):
        try:
            self._run()
        except Exception as err:  # noqa: BLE001 - say it and stop, the window keeps its state
            self.say(f"STOPPED: {err!r}")
        finally:
            self.done = True

    def _run(self):
        la = self.app.scene
        self.shot("launcher")
        # the Mission list: open it, pick the second mission
        dd = la.dd_mission
        self.press(dd, "mission-list-open")
        labels = list(la.mission_labels)
        k = 1 if labels and la.mission_labels[labels[0]] == la.mission else 0     # one not chosen yet
        self.click((dd.rect.x + 30, dd.rect.bottom + 9 + 17 * k))
        self.wait_for(lambda: False, timeout=0.6)
        self.shot("mission-picked")
        self.say(f"mission: {self.app.scene.mission}")
        # Options: look, then Cancel
        la = self.app.scene
        if la.options_b.is_enabled:
            self.press(la.options_b, "options")
            self.say(f"options dialog open: {la.dialog is not None}")
            if la.dialog is not None:
                self.press(la.dialog.cancel_b, "options-cancelled")
        # the force builder for side 1, and back
        la = self.app.scene
        if la.build_b.get(1) is not None and la.build_b[1].is_enabled:
            self.press(la.build_b[1], "builder")
            self.say(f"builder: {self.scene_name()}")
            sc = self.app.scene
            if "back" in getattr(sc, "buttons", {}):
                self.press(sc.buttons["back"], "back-to-launcher")
            self.say(f"back: {self.scene_name()}")
        # Join…: look, then Cancel
        la = self.app.scene
        self.press(la.join_b, "join-dialog")
        if getattr(la, "join_dialog", None) is not None:
            self.press(la.join_dialog.cancel_b, "join-cancelled")
        # Start, then the score panel
        la = self.app.scene
        self.press(la.start, "started")
        self.wait_for(lambda: self.scene_name() == "PlayScene", timeout=30)
        self.wait_for(lambda: False, timeout=2.0)
        self.shot("game")
        self.move((self.app.size[0] // 3, self.app.size[1] // 2))
        self.key("s")
        self.wait_for(lambda: False, timeout=0.5)
        self.shot("score-key")
        self.say(f"in play: {self.scene_name()}; header mission {getattr(self.app.scene.session.game.setup, 'options', {}).get('mission')}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="counterblast", choices=sorted(HOME))
    ap.add_argument("--out", default="/tmp/window-launcher")
    args = ap.parse_args()
    out = fresh_dir(Path(args.out))
    with x_display(out):
        from game.app import App
        from game.kit.transitions import Switch
        from game.settings import Settings

        app = App((1280, 720), fit_desktop=False)
        s = Settings(ruleset=args.ruleset, map=HOME[args.ruleset], seats=["human", "ai:easy"], deployment="automatic")
        app.go(Switch("launcher", {"settings": s}))
        hands = Tour(app, out)
        drive(app, hands)
        if app.crashes:
            print(f"CRASH: {app.crashes[0]!r}")
            return 1
    print(f"{len(list(out.glob('*.png')))} screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
