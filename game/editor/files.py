"""The editor's files: save (validated by the document first), save as, open, import a
Carltographer layout, a new table; each opened file becomes a new ``Document``.

A part of ``EditorScene`` (``game/scenes/editor.py``): it replaces the scene's ``doc`` and
``renderer`` and asks for the analyses again.
"""
from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui

from engine.workshop import snapping as SN
from game.editor.document import Document, new_map
from game.render.table_view import TableRenderer
from game.userdirs import editor_autosave_file, maps_dir


class FilesMixin:
    """Saving and loading of ``EditorScene``."""

    def save(self, path: Path | None = None) -> bool:
        res = self.doc.save(path)
        if res.ok:
            self.save_lines = []
            self.say(res.lines[0])
            self.baseline = self.live_full if (self.live_full and self.live_full.version == self.stack.version) else None
            if self.baseline is None:
                self._request_baseline()
            return True
        self.save_lines = res.lines
        self.say("not saved: " + res.lines[0], error=True)
        return False

    def open_file_dialog(self, kind: str) -> None:
        from game.userdirs import maps_dir

        folder = maps_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass
        start = str(self.doc.save_path()) if kind == "saveas" else str(folder)
        titles = {"saveas": "Save the layout as", "open": "Open a map", "import": "Import a Carltographer layout"}
        r = pygame.Rect(0, 0, 640, 480)
        r.center = self.table_rect.center
        self.dialog = pygame_gui.windows.UIFileDialog(r, self.ui, window_title=titles[kind], initial_file_path=start,
                                                      allow_existing_files_only=kind != "saveas")
        self.dialog_kind = kind
        self.file_dialog = (self.dialog, kind)

    def _file_picked(self, kind: str, path: Path) -> None:
        if kind == "saveas":
            self.save(path)
        elif kind == "open":
            self.open_path(path)
        elif kind == "import":
            self.import_path(path)

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
                self.say(f"{path.name} is a Skirmish map, not a Carltographer layout: opened it as it is")
            return True
        self._replace_document(Document(m, None, maps_dir(), editor_autosave_file()), f"imported {path.name}")
        for n in notes[:3]:
            self.say(n)
        self.doc.stack.saved_version = -1          # not saved anywhere yet
        return True

    def _refused(self, what: str, err) -> None:
        """A file refused: the first reason in the message, every reason (field and why) in the
        panel."""
        self.save_lines = [f"{f}: {r}" if f else r for f, r in err.problems] or str(err).splitlines()
        self.say(f"{what}: {self.save_lines[0]}", error=True)

    def _replace_document(self, doc: Document, note: str) -> None:
        old_sym = self.stack.symmetry
        self.doc = doc
        self.doc.stack.symmetry = old_sym
        self.selection = []
        self.live = self.live_full = self.baseline = None
        self.grid = SN.grid_step(doc.map.unit)
        self.renderer = TableRenderer(doc.map)
        self._layout()
        self.cam = self.renderer.fit_camera(self.table_rect.size, margin_px=24)
        self._map_changed()
        self._request_baseline()
        self.say(note)

    def new_document(self) -> None:
        self._replace_document(Document(new_map(), None, maps_dir(), editor_autosave_file()), "a new empty table")
