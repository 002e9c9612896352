"""The editor's dialogs: asking before unsaved work is lost (new, open, import, menu, quit), and
a path picked in a file dialog. The open dialog is a modal panel (``control_panels.DialogPanel``)
that returns its answer as an intent.

A part of ``EditorScene`` (``game/scenes/editor.py``): an answer goes on to its ``save`` or
``_file_picked``.
"""
from __future__ import annotations

from pathlib import Path

import pygame_gui

from game.editor.panels import ChoiceDialog
from game.kit.transitions import Quit, Switch


class DialogsMixin:
    """The discard question and the picked paths of ``EditorScene``."""

    def picked_path(self, ev) -> bool:
        """A path picked in the file dialog this scene opened: act on it. pygame_gui posts the
        path and closes the dialog in one step, so the event arrives after the dialog is gone
        (and ``dialog`` already cleared): it is matched by the dialog that sent it, not by
        whether a dialog is open."""
        if ev.type != pygame_gui.UI_FILE_DIALOG_PATH_PICKED or self.file_dialog is None \
                or ev.ui_element is not self.file_dialog[0]:
            return False
        kind = self.file_dialog[1]
        self.file_dialog = None
        if self.dialog is ev.ui_element:
            self.dialog = None
        self._file_picked(kind, Path(ev.text))
        return True

    # --- asking before losing work ------------------------------------------------------------
    def confirm_discard(self, then: str) -> None:
        if not self.doc.dirty:
            self._after_discard(then)
            return
        self.dialog = ChoiceDialog(self.ui, self.table_rect.center, "Unsaved changes",
                                   f"{self.doc.title()} has changes that are not saved.",
                                   ["Save", "Discard", "Cancel"])
        self.dialog_kind = f"discard:{then}"

    def _answer(self, kind: str, answer: str) -> None:
        if kind.startswith("discard:"):
            then = kind.split(":", 1)[1]
            if answer == "Cancel":
                return
            if answer == "Save" and not self.save():
                return                       # refused: stay, the reasons are shown
            if answer == "Discard":
                self.doc.discard_autosave()
            self._after_discard(then)

    def _after_discard(self, then: str) -> None:
        if then == "new":
            self.new_document()
        elif then in ("open", "import"):
            self.open_file_dialog(then)
        elif then == "menu":
            self.leave()
        elif then == "quit":
            self.doc.discard_autosave() if not self.doc.dirty else None
            self.stop_children()
            self.go_to(Quit())

    def request_quit(self) -> bool:
        if not self.doc.dirty:
            return True
        if self.dialog is None:
            self.confirm_discard("quit")
        return False

    def leave(self) -> None:
        self.go_to(Switch("launcher"))
