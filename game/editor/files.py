"""The editor's files: save (validated by the document first), save as, open, import a
Carltographer layout, a new table (each opened file becomes a new ``Document``), and the path
picked in a file dialog.

A part ``EditorScene`` owns (``Files(editor)``): it writes ``doc``, ``renderer``, ``save_lines``
and ``file_dialog`` of the editor's state (``state.py``); a new document is laid out and analysed
again through the editor.
"""
from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui

from game.editor import selection, view
from game.editor.document import Document, new_map
from game.render.table_view import TableRenderer
from game.userdirs import editor_autosave_file, maps_dir


class Files:
    def __init__(self, editor):
        self.ed = editor
        self.state = editor.state

    def save(self, path: Path | None = None) -> bool:
        st = self.state
        res = st.doc.save(path)
        if res.ok:
            st.save_lines = []
            self.ed.say(res.lines[0])
            self.ed.analysis.saved()
            return True
        st.save_lines = res.lines
        self.ed.say("not saved: " + res.lines[0], error=True)
        return False

    def show_lines(self, lines: list[str]) -> None:
        """Lines for the panel (a file refused, a layout that cannot be played); [] clears them."""
        self.state.save_lines = list(lines)

    def open_file_dialog(self, kind: str) -> None:
        folder = maps_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass
        start = str(self.state.doc.save_path()) if kind == "saveas" else str(folder)
        titles = {"saveas": "Save the layout as", "open": "Open a map", "import": "Import a Carltographer layout"}
        r = pygame.Rect(0, 0, 640, 480)
        r.center = self.ed.table_rect.center
        dialog = pygame_gui.windows.UIFileDialog(r, self.ed.ui, window_title=titles[kind], initial_file_path=start,
                                                 allow_existing_files_only=kind != "saveas")
        self.ed.dialogs.open(dialog, kind)
        self.state.file_dialog = (dialog, kind)

    def picked_path(self, ev) -> bool:
        """A path picked in the file dialog this editor opened: act on it. pygame_gui posts the
        path and closes the dialog in one step, so the event arrives after the dialog is gone
        (and the open dialog already cleared): it is matched by the dialog that sent it, not by
        whether a dialog is open."""
        st = self.state
        if ev.type != pygame_gui.UI_FILE_DIALOG_PATH_PICKED or st.file_dialog is None \
                or ev.ui_element is not st.file_dialog[0]:
            return False
        kind = st.file_dialog[1]
        st.file_dialog = None
        if self.ed.dialogs.dialog is ev.ui_element:
            self.ed.dialogs.close()
        path = Path(ev.text)
        if kind == "saveas":
            self.save(path)
        elif kind == "open":
            self.open_path(path)
        elif kind == "import":
            self.import_path(path)
        return True

    def open_path(self, path: Path) -> bool:
        from engine.data.errors import DataError
        from engine.data.maps import load_map

        try:
            m = load_map(path)
        except DataError as err:
            self._refused(f"cannot open {path.name}", err)
            return False
        self._replace_document(Document(m, path, maps_dir(), editor_autosave_file()), f"opened {path}")
        return True

    def import_path(self, path: Path) -> bool:
        """Import a Carltographer layout; a Skirmish map offered here is opened instead (saying
        so); anything else is refused with the file, field and reason."""
        from engine.data.errors import DataError
        from engine.data.maps import load_map
        from engine.workshop.carltographer import import_layout

        try:
            m, notes = import_layout(path)
        except DataError as err:
            try:
                load_map(path)
            except DataError:
                self._refused(f"cannot import {path.name}", err)
                return False
            if self.open_path(path):
                self.ed.say(f"{path.name} is a Skirmish map, not a Carltographer layout: opened it as it is")
            return True
        self._replace_document(Document(m, None, maps_dir(), editor_autosave_file()), f"imported {path.name}")
        for n in notes[:3]:
            self.ed.say(n)
        self.state.doc.stack.saved_version = -1          # not saved anywhere yet
        return True

    def _refused(self, what: str, err) -> None:
        """A file refused: the first reason in the message, every reason (field and why) in the
        panel."""
        st = self.state
        st.save_lines = [f"{f}: {r}" if f else r for f, r in err.problems] or str(err).splitlines()
        self.ed.say(f"{what}: {st.save_lines[0]}", error=True)

    def _replace_document(self, doc: Document, note: str) -> None:
        st, ed = self.state, self.ed
        old_sym = st.doc.stack.symmetry
        st.doc = doc
        doc.stack.symmetry = old_sym
        selection.choose(ed, [])
        ed.analysis.forget()
        view.reset_grid(ed)
        st.renderer = TableRenderer(doc.map)
        ed.layout()
        view.fit(ed)
        ed.map_changed()
        ed.analysis.request_baseline()
        ed.say(note)

    def new_document(self) -> None:
        self._replace_document(Document(new_map(), None, maps_dir(), editor_autosave_file()), "a new empty table")
