"""Build a layout in the real editor window the way hands do, then play it, test its balance and
print its sheet; keep a screenshot per step.

    python tools/window_edit.py [--out DIR] [--turns N] [--games N]

Runs ``skirmish edit`` on a new empty table in a real window on an X display (starts its own Xvfb
when DISPLAY is unset) and drives it from a second thread with xdotool (``tools/xwindow.py``):
palette clicks, clicks on the table, drags (with a screenshot in the middle of one, to show the
guides and the ruler), keys (M for the symmetry mode, R to turn, O for the overlay, Ctrl+S), Generate (its dialog,
the background run, the result), the Sheet and Test balance buttons, then Play: the launcher with the layout, Start, and a game against
the AI (the human side's clicks as ``tools/window_play.py`` makes them). Needs xvfb, xdotool and
imagemagick.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from window_play import Driver  # noqa: E402
from xwindow import drive, fresh_dir, x_display, xdo  # noqa: E402


class EditHands(Driver):
    """The layout built by hand, then the game on it played as ``window_play`` does."""

    crop_to_window = True           # the window only (not the whole screen of the display)

    def __init__(self, app, out: Path, turns: int, games: int):
        super().__init__(app, out, turns, 1)
        self.games = games

    def table(self, x, y):
        """Window pixels of map point (x, y)."""
        return self.app.scene.to_screen(x, y)

    def palette(self, text):
        sc = self.app.scene
        lst = sc.catalog_panel.palette.list
        for _ in range(80):
            for item in lst.item_list:
                el = item.get("button_element")
                if item["text"] == text and el is not None and lst.rect.contains(el.rect):
                    self.click(el.rect.center)
                    return
            self.move(lst.rect.center)
            xdo("click", 5)                       # the wheel scrolls the list
            time.sleep(0.15)
        raise RuntimeError(f"{text!r} not found in the palette")

    def run(self):
        try:
            self._run()
        except Exception as err:  # noqa: BLE001 - say what went wrong, keep the evidence
            import traceback
            self.say(f"the hands stopped: {err!r}\n{traceback.format_exc()}")
            self.shot("stopped")
        self.done = True

    def _run(self):
        from game.scenes.launcher import LauncherScene
        from game.scenes.play import PlayScene

        time.sleep(2.0)
        sc = self.app.scene
        self.shot("empty-table")
        for _ in range(3):                          # off -> mirror | -> mirror - -> point
            self.key("m")
        self.say(f"symmetry: {sc.state.doc.stack.symmetry}")
        placed = [("Ruin with walls", (16, 30)), ("Ruin with walls", (26, 12)), ("Building with a yard", (14, 14)),
                  ("Forest", (24, 34)), ("Container stack", (30, 22.0)), ("Crate pile", (8, 24)),
                  ("Fence run", (36, 8))]
        for text, at in placed:
            self.palette(text)
            self.click(self.table(*at))
            self.say(f"placed {text} at {at}: {len(sc.state.doc.map.pieces)} pieces")
        self.shot("placed-point-symmetric")
        # drag a ruin with the ruler showing, half way, then drop
        a = self.table(26, 12)
        b = self.table(24.3, 9.6)
        self.move(a)
        xdo("mousedown", 1)
        self.move(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        self.move(b)
        time.sleep(0.4)
        self.shot("dragging-guides-ruler")
        xdo("mouseup", 1)
        time.sleep(0.5)
        self.key("r")                               # turn it by 15 degrees
        self.say(f"turned: {sc.state.messages[-1][0] if sc.state.messages else ''}")
        self.wait_for(lambda: sc.state.live is not None and sc.state.live.version == sc.state.doc.stack.version and not sc.state.live.coarse)
        self.key("o")                               # the openness overlay
        time.sleep(0.6)
        self.shot("overlay-openness")
        self.key("o")
        self.key("o")
        time.sleep(0.6)
        self.shot("overlay-hidden-side-2")
        for _ in range(2):                          # hidden 2 -> lanes -> off
            self.key("o")
        self.key("ctrl+s")
        self.say(f"save: {sc.state.messages[-1][0] if sc.state.messages else ''}")
        # Generate: the dialog, its Generate button, the child process's progress, the result
        self.click(sc.toolbar.buttons["generate"].rect.center)
        self.wait_for(lambda: sc.dialogs.dialog is not None, 10)
        time.sleep(0.6)
        self.shot("generate-dialog")
        self.click(sc.dialogs.dialog.go.rect.center)
        self.wait_for(lambda: sc.state.generating is not None, 10)
        time.sleep(2.0)
        self.shot("generate-running")
        ok = self.wait_for(lambda: sc.state.generating is None, timeout=600, step=1.0)
        self.say(f"generate {'ended' if ok else 'still running after 10 min'}: {len(sc.state.doc.map.pieces)} pieces; "
                 f"{sc.state.generate_lines}")
        self.wait_for(lambda: sc.state.live is not None and sc.state.live.version == sc.state.doc.stack.version and not sc.state.live.coarse, 60)
        time.sleep(0.6)
        self.shot("generated-layout")
        last = sc.state.messages[-1] if sc.state.messages else None
        self.click(sc.toolbar.buttons["sheet"].rect.center)
        # the sheet is drawn in the window's own thread (seconds): wait for its message
        self.wait_for(lambda: (sc.state.messages[-1] if sc.state.messages else None) is not last, 60)
        self.say(f"sheet: {sc.state.messages[-1][0] if sc.state.messages else ''}")
        from game.editor import balance
        balance.BALANCE_GAMES = self.games
        self.click(sc.toolbar.buttons["balance"].rect.center)
        self.wait_for(lambda: sc.state.balance is not None, 30)   # started, before waiting for its end
        time.sleep(3)
        self.shot("balance-running")
        ok = self.wait_for(lambda: sc.state.balance is None, timeout=900, step=1.0)
        self.say(f"balance test {'done' if ok else 'still running after 15 min'}: {sc.state.balance_lines}")
        time.sleep(0.5)
        self.shot("balance-result")
        self.click(sc.toolbar.buttons["play"].rect.center)
        self.wait_for(lambda: isinstance(self.app.scene, LauncherScene), 10)
        time.sleep(1.0)
        self.shot("launcher-with-the-layout")
        launcher = self.app.scene
        self.say(f"launcher: map {launcher.settings.map}, {launcher.settings.ruleset}, seats {launcher.settings.seats}")
        self.click(launcher.start.rect.center)
        self.wait_for(lambda: isinstance(self.app.scene, PlayScene), 20)
        time.sleep(1.0)
        self.shot("game-on-the-layout")
        super().run()                               # the game, clicked as window_play does


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="/tmp/window-edit")
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--games", type=int, default=40)
    args = ap.parse_args(argv)
    out = fresh_dir(Path(args.out))
    with x_display(out):
        import pygame

        from game.app import App
        from game.editor.document import new_map
        from game.scenes.editor import EditorScene
        from game.settings import Settings

        s = Settings.load()
        s.ruleset, s.seats = "frontier", ["human", "ai:easy"]
        s.save()
        app = App((1280, 720))
        app.switch(EditorScene(app, new_map(48.0, 36.0)))
        hands = EditHands(app, out, args.turns, args.games)
        drive(app, hands)
        crashed = [repr(e) for e in app.crashes]
        print(f"crashes: {crashed or 'none'}; screenshots in {out}")
        if app.scene is not None:
            app.scene.close()
        pygame.quit()
        return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
