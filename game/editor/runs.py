"""The editor's background runs: Test balance (a ``skirmish experiment`` child) and Generate (a
``skirmish generate`` child), their progress bars, their end (the generated layout put in place
as one undo step) and their cancelling.

A part of ``EditorScene`` (``game/scenes/editor.py``): ``balance``, ``generating`` and their
lines are the scene's; the scene's ``update`` calls ``_poll_runs`` every frame.
"""
from __future__ import annotations

from dataclasses import replace

import pygame
import pygame_gui

from game.editor.generate_dialog import GenerateDialog
from game.editor.layout import PANEL_W


class RunsMixin:
    """The balance test and the generator of ``EditorScene``."""

    def test_balance(self) -> None:
        from game.editor.balance import start_balance

        if self.balance is not None and self.balance.running:
            self.balance.cancel()
            self.balance = None
            self.balance_lines = ["balance test cancelled"]
            self._set_progress(None)
            return
        run, lines = start_balance(self)
        self.balance_lines = lines
        if run is not None:
            self.balance = run
            self.buttons["balance"].set_text("Cancel test")
            self._set_progress(0.0)

    def _set_progress(self, value, which: str = "progress", words: str | None = None) -> None:
        """The balance test's bar (``progress``, at the panel's foot) or the generator's
        (``gen_progress``, above it, saying ``words``); None removes it."""
        bar = getattr(self, which)
        if value is None:
            if bar is not None:
                bar.kill()
                setattr(self, which, None)
            return
        if bar is None:
            up = 30 if which == "progress" else 58
            r = pygame.Rect(self.analysis_rect.x + 8, self.analysis_rect.bottom - up, PANEL_W - 16, 22)
            bar = (WordsBar if words is not None else pygame_gui.elements.UIProgressBar)(r, self.ui)
            setattr(self, which, bar)
        if words and words != bar.words:
            bar.words = words
            bar.status_changed = True
        bar.set_current_progress(100 * value)

    def _poll_runs(self) -> None:
        """Each frame: a running balance test's or generator's progress, or its end."""
        if self.balance is not None:
            out = self.balance.poll()
            if out is None:
                self._set_progress(self.balance.progress())
            else:
                self.balance_lines = out.lines
                self.balance = None
                self.buttons["balance"].set_text("Test balance")
                self._set_progress(None)
        if self.generating is not None:
            rc = self.generating.poll()
            if rc is None:
                self._set_progress(self.generating.progress(), "gen_progress", self._rounds_words(self.generating))
            else:
                self._generate_ended(rc)

    # --- generate ---------------------------------------------------------------------------------
    def generate(self) -> None:
        """The Generate button: the dialog, or Cancel while a generator runs."""
        if self.generating is not None:
            self.cancel_generate()
            return
        from game.editor.generation import GenerateSettings

        last = self.generate_settings or GenerateSettings()
        r = self.table_rect
        self.dialog = GenerateDialog(self.ui, r.center, replace(last, symmetry=self.stack.symmetry))
        self.dialog_kind = "generate"

    def start_generate(self, settings) -> bool:
        from game.editor.generation import start_generate

        self.generate_settings = settings
        run, lines = start_generate(self.map, settings)
        self.generate_lines = lines
        if run is None:
            self.say(lines[0], error=True)
            return False
        self.generating = run
        self._generate_from = (self.doc, self.map)
        self.buttons["generate"].set_text("Cancel gen.")
        self._set_progress(0.0, "gen_progress", self._rounds_words(run))
        self.say("generating in the background: the editor stays usable; Cancel gen. stops it")
        return True

    @staticmethod
    def _rounds_words(run) -> str:
        done = run.rounds_done()
        return f"round {done} of at most {run.rounds}" if done else "placing the first pieces"

    def cancel_generate(self) -> None:
        if self.generating is None:
            return
        self.generating.cancel()
        self._end_generate(["generation cancelled: the layout is as it was"])

    def _end_generate(self, lines) -> None:
        self.generating = None
        self._generate_from = None
        self.generate_lines = lines
        self.buttons["generate"].set_text("Generate")
        self._set_progress(None, "gen_progress")

    def _generate_ended(self, returncode: int) -> None:
        """Put the generated layout in place (one undo step), or say why not."""
        from game.editor.generation import frame_problem, read_generated, replace_edit

        run, (doc, start), s = self.generating, self._generate_from, self.generate_settings
        out = read_generated(run.out, returncode, s)
        if not out.ok:
            self._end_generate(out.lines + ["the layout is as it was"])
            self.say(out.lines[0], error=True)
            return
        why = ("another layout was opened while the generator ran" if doc is not self.doc
               else frame_problem(start, self.map, out.map))
        if why:
            self._end_generate(out.lines[:1] + [why, f"the layout found is in {run.out / 'result'}"])
            self.say(why, error=True)
            return
        n_old = sum(1 for p in self.map.pieces if not p.locked)
        kept = {p.id for p in self.map.pieces if p.locked}
        new = [p for p in out.map.pieces if p.id not in kept]
        twins = sum(1 for p in new if p.locked)          # mirror images of lone locked pieces (symmetry)
        what = _count(len(new) - twins, "generated piece") + (f" and {_count(twins, 'locked mirror image')}" if twins else "")
        what += f" in place of {_count(n_old, 'piece')}"
        edit = replace_edit(self.map, out.map, f"generate (seed {s.seed}): {what}")
        if edit is None:
            self._end_generate(out.lines + ["the generator kept the layout as it was"])
            return
        mode, self.stack.symmetry = self.stack.symmetry, None    # the result is whole: no twins to add
        try:
            done = self.apply(edit, quiet=True)
        finally:
            self.stack.symmetry = mode
        if not done:
            self._end_generate(out.lines[:1] + ["not put in place: " + self.messages[-1][0]])
            return
        self.selection = []
        self._refresh_form()
        self._end_generate(out.lines + [f"{what}; Ctrl+Z brings the old layout back"])
        self.say(f"generated layout in place (seed {s.seed}): {'targets met' if out.met else 'targets NOT met'}")

    def stop_children(self) -> None:
        """End a running generator or balance test (a child of its own session would outlive
        the window)."""
        if self.generating is not None:
            self.generating.cancel()
            self.generating = None
        if self.balance is not None:
            self.balance.cancel()
            self.balance = None


class WordsBar(pygame_gui.elements.UIProgressBar):
    """A progress bar that says what it counts ("round 12 of at most 60") instead of "20.0/100.0"."""
    words = "..."        # never empty: pygame_gui loads the bar's font only for a bar with text

    def status_text(self):
        return self.words


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"
