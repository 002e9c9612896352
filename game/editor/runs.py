"""The editor's background runs: Test balance (a ``skirmish experiment`` child) and Generate (a
``skirmish generate`` child), their progress bars, their end (the generated layout put in place
as one undo step) and their cancelling.

A part ``EditorScene`` owns (``Runs(editor)``): it writes ``balance``, ``balance_lines``,
``generating``, ``generate_lines``, ``generate_settings``, ``generate_from``, ``progress`` and
``gen_progress`` of the editor's state (``state.py``); the editor's ``update`` calls ``poll``
every frame.
"""
from __future__ import annotations

from dataclasses import replace

import pygame
import pygame_gui

from game.editor import selection
from game.editor.generate_dialog import GenerateDialog
from game.editor.layout import PANEL_W


class Runs:
    """The balance test and the generator of the layout editor."""

    def __init__(self, editor):
        self.ed = editor
        self.state = editor.state

    def laid_out(self) -> None:
        """The widgets were made again: no bar yet (the next frame's progress makes it), and the
        buttons say Cancel while their run goes on."""
        st = self.state
        st.progress = st.gen_progress = None
        if st.balance is not None:
            self.ed.toolbar.buttons["balance"].set_text("Cancel test")
        if st.generating is not None:
            self.ed.toolbar.buttons["generate"].set_text("Cancel gen.")

    def test_balance(self) -> None:
        from game.editor.balance import start_balance

        if self.state.balance is not None and self.state.balance.running:
            self.state.balance.cancel()
            self.state.balance = None
            self.state.balance_lines = ["balance test cancelled"]
            self._set_progress(None)
            return
        run, lines = start_balance(self.ed)
        self.state.balance_lines = lines
        if run is not None:
            self.state.balance = run
            self.ed.toolbar.buttons["balance"].set_text("Cancel test")
            self._set_progress(0.0)

    def _set_progress(self, value, which: str = "progress", words: str | None = None) -> None:
        """The balance test's bar (``progress``, at the panel's foot) or the generator's
        (``gen_progress``, above it, saying ``words``); None removes it."""
        bar = getattr(self.state, which)
        if value is None:
            if bar is not None:
                bar.kill()
                setattr(self.state, which, None)
            return
        if bar is None:
            up = 30 if which == "progress" else 58
            r = pygame.Rect(self.ed.analysis_rect.x + 8, self.ed.analysis_rect.bottom - up, PANEL_W - 16, 22)
            bar = (WordsBar if words is not None else pygame_gui.elements.UIProgressBar)(r, self.ed.ui)
            setattr(self.state, which, bar)
        if words and words != bar.words:
            bar.words = words
            bar.status_changed = True
        bar.set_current_progress(100 * value)

    def poll(self) -> None:
        """Each frame: a running balance test's or generator's progress, or its end."""
        if self.state.balance is not None:
            out = self.state.balance.poll()
            if out is None:
                self._set_progress(self.state.balance.progress())
            else:
                self.state.balance_lines = out.lines
                self.state.balance = None
                self.ed.toolbar.buttons["balance"].set_text("Test balance")
                self._set_progress(None)
        if self.state.generating is not None:
            rc = self.state.generating.poll()
            if rc is None:
                self._set_progress(self.state.generating.progress(), "gen_progress", self._rounds_words(self.state.generating))
            else:
                self._generate_ended(rc)

    # --- generate ---------------------------------------------------------------------------------
    def generate(self) -> None:
        """The Generate button: the dialog, or Cancel while a generator runs."""
        if self.state.generating is not None:
            self.cancel_generate()
            return
        from game.editor.generation import GenerateSettings

        last = self.state.generate_settings or GenerateSettings()
        ed = self.ed
        ed.dialogs.open(GenerateDialog(ed.ui, ed.table_rect.center, replace(last, symmetry=ed.stack.symmetry)),
                        "generate")

    def start_generate(self, settings) -> bool:
        from game.editor.generation import start_generate

        self.state.generate_settings = settings
        run, lines = start_generate(self.ed.map, settings)
        self.state.generate_lines = lines
        if run is None:
            self.ed.say(lines[0], error=True)
            return False
        self.state.generating = run
        self.state.generate_from = (self.state.doc, self.ed.map)
        self.ed.toolbar.buttons["generate"].set_text("Cancel gen.")
        self._set_progress(0.0, "gen_progress", self._rounds_words(run))
        self.ed.say("generating in the background: the editor stays usable; Cancel gen. stops it")
        return True

    @staticmethod
    def _rounds_words(run) -> str:
        done = run.rounds_done()
        return f"round {done} of at most {run.rounds}" if done else "placing the first pieces"

    def cancel_generate(self) -> None:
        if self.state.generating is None:
            return
        self.state.generating.cancel()
        self._end_generate(["generation cancelled: the layout is as it was"])

    def _end_generate(self, lines) -> None:
        self.state.generating = None
        self.state.generate_from = None
        self.state.generate_lines = lines
        self.ed.toolbar.buttons["generate"].set_text("Generate")
        self._set_progress(None, "gen_progress")

    def _generate_ended(self, returncode: int) -> None:
        """Put the generated layout in place (one undo step), or say why not."""
        from game.editor.generation import frame_problem, read_generated, replace_edit

        run, (doc, start), s = self.state.generating, self.state.generate_from, self.state.generate_settings
        out = read_generated(run.out, returncode, s)
        if not out.ok:
            self._end_generate(out.lines + ["the layout is as it was"])
            self.ed.say(out.lines[0], error=True)
            return
        assert out.map is not None            # a layout read whole (ok) has its map
        why = ("another layout was opened while the generator ran" if doc is not self.state.doc
               else frame_problem(start, self.ed.map, out.map))
        if why:
            self._end_generate(out.lines[:1] + [why, f"the layout found is in {run.out / 'result'}"])
            self.ed.say(why, error=True)
            return
        ed = self.ed
        n_old = sum(1 for p in ed.map.pieces if not p.locked)
        kept = {p.id for p in ed.map.pieces if p.locked}
        new = [p for p in out.map.pieces if p.id not in kept]
        twins = sum(1 for p in new if p.locked)          # mirror images of lone locked pieces (symmetry)
        what = _count(len(new) - twins, "generated piece") + (f" and {_count(twins, 'locked mirror image')}" if twins else "")
        what += f" in place of {_count(n_old, 'piece')}"
        edit = replace_edit(ed.map, out.map, f"generate (seed {s.seed}): {what}")
        if edit is None:
            self._end_generate(out.lines + ["the generator kept the layout as it was"])
            return
        mode, ed.stack.symmetry = ed.stack.symmetry, None    # the result is whole: no twins to add
        try:
            done = ed.apply(edit, quiet=True)
        finally:
            ed.stack.symmetry = mode
        if not done:
            self._end_generate(out.lines[:1] + ["not put in place: " + self.state.messages[-1][0]])
            return
        selection.choose(ed, [])
        self._end_generate(out.lines + [f"{what}; Ctrl+Z brings the old layout back"])
        self.ed.say(f"generated layout in place (seed {s.seed}): {'targets met' if out.met else 'targets NOT met'}")

    def stop_children(self) -> None:
        """End a running generator or balance test (a child of its own session would outlive
        the window)."""
        if self.state.generating is not None:
            self.state.generating.cancel()
            self.state.generating = None
        if self.state.balance is not None:
            self.state.balance.cancel()
            self.state.balance = None


class WordsBar(pygame_gui.elements.UIProgressBar):
    """A progress bar that says what it counts ("round 12 of at most 60") instead of "20.0/100.0"."""
    words = "..."        # never empty: pygame_gui loads the bar's font only for a bar with text

    def status_text(self):
        return self.words


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"
