"""The editor's question before unsaved work is lost (new, open, import, menu, quit). The open
dialog is a modal panel (``control_panels.DialogPanel``) that returns its answer as an intent
(``Command("answer", (kind, answer))``).

A part ``EditorScene`` owns (``DiscardQuestion(editor)``): it writes nothing of the editor's
state; an answer goes on to the files (save, the file dialog, a new table) or leaves.
"""
from __future__ import annotations

from game.editor.panels import ChoiceDialog
from game.kit.transitions import Quit, Switch


class DiscardQuestion:
    def __init__(self, editor):
        self.ed = editor

    def confirm(self, then: str) -> None:
        ed = self.ed
        doc = ed.state.doc
        if not doc.dirty:
            self._after_discard(then)
            return
        ed.dialogs.open(ChoiceDialog(ed.ui, ed.table_rect.center, "Unsaved changes",
                                     f"{doc.title()} has changes that are not saved.",
                                     ["Save", "Discard", "Cancel"]), f"discard:{then}")

    def answer(self, kind: str, answer: str) -> None:
        if kind.startswith("discard:"):
            then = kind.split(":", 1)[1]
            if answer == "Cancel":
                return
            if answer == "Save" and not self.ed.files.save():
                return                       # refused: stay, the reasons are shown
            if answer == "Discard":
                self.ed.state.doc.discard_autosave()
            self._after_discard(then)

    def _after_discard(self, then: str) -> None:
        ed = self.ed
        if then == "new":
            ed.files.new_document()
        elif then in ("open", "import"):
            ed.files.open_file_dialog(then)
        elif then == "menu":
            ed.go_to(Switch("launcher"))
        elif then == "quit":
            ed.state.doc.discard_autosave() if not ed.state.doc.dirty else None
            ed.runs.stop_children()
            ed.go_to(Quit())

    def quit_now(self) -> bool:
        """The window's close: True when nothing would be lost, else the question is asked."""
        if not self.ed.state.doc.dirty:
            return True
        if self.ed.dialogs.dialog is None:
            self.confirm("quit")
        return False
