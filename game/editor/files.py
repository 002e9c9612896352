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
            self.save_lines = str(err).splitlines()
            self.say(f"cannot open {path}: {self.save_lines[0]}", error=True)
            return False
        self._replace_document(Document(m, path, maps_dir(), editor_autosave_file()), f"opened {path}")
        return True

    def import_path(self, path: Path) -> bool:
        from engine.data.errors import DataError

        try:
            from engine.workshop.carltographer import import_layout
            m, notes = import_layout(path)
        except DataError as err:
            self.save_lines = str(err).splitlines()
            self.say(f"cannot import {path}: {self.save_lines[0]}", error=True)
            return False
        self._replace_document(Document(m, None, maps_dir(), editor_autosave_file()), f"imported {path.name}")
        for n in notes[:3]:
            self.say(n)
        self.doc.stack.saved_version = -1          # not saved anywhere yet
        return True

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
