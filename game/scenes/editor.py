"""The layout editor: build and change a table with the mouse and see what it does to sight and
balance as you go.

Every change goes through the document's edit stack (``engine.workshop.edits``): undo and redo,
symmetry twins and locks live there, not here. This scene turns the mouse and keys into edits,
draws the table (``TableRenderer``; the pieces being dragged are left out of its cached image and
drawn on top, so a drag frame is a blit and a few sprites), and shows the live analysis (a worker
process; a coarse grid while dragging, the full grid once the piece drops).

Layout: a tool bar on top, the palette on the left, the table, the property form and the
analysis on the right, a status line under the table.

The scene holds the state and wires the widgets; what it does is in parts under
``game/editor/``, mixed into the one scene class: ``pointer`` (picking and drags), ``tools``
(placing, runs, corners), ``commands`` (buttons, form, keys, clipboard, undo), ``dialogs``
(event routing, the discard question), ``files`` (save, open, import), ``runs`` (balance test
and generator in the background) and ``drawing``.
"""
from __future__ import annotations

import time
from pathlib import Path

import pygame
import pygame_gui

from engine.workshop import edits as E
from engine.workshop import snapping as SN
from engine.workshop.catalog import load_catalog, mission_edit
from game.editor.commands import CommandsMixin
from game.editor.dialogs import DialogsMixin
from game.editor.document import Document, new_map
from game.editor.drawing import DrawingMixin
from game.editor.files import FilesMixin
from game.editor.layout import FORM_H, PALETTE_W, PANEL_W, STATUS_H, SYMMETRY_CHOICES, TOOLBAR_ROW
from game.editor.overlay import Overlay
from game.editor.panels import Palette, PropertyForm
from game.editor.drag_tools import SelectTool
from game.editor.pointer import PointerMixin
from game.editor.runs import RunsMixin
from game.editor.worker import AnalysisRunner
from game.render.table_view import TableRenderer
from game.userdirs import catalog_dir, editor_autosave_file, maps_dir

from .base import Scene


class EditorScene(PointerMixin, CommandsMixin, DialogsMixin, FilesMixin, RunsMixin, DrawingMixin,
                  Scene):
    """The editor's state, widgets and event wiring; what it does is in the mixed-in parts."""

    def __init__(self, app, mapfile=None, path: Path | str | None = None, inline_analysis: bool = False,
                 note: str = ""):
        super().__init__(app)
        self.catalog = load_catalog([catalog_dir()])
        self.doc = Document(mapfile or new_map(), Path(path) if path else None, maps_dir(), editor_autosave_file())
        self.renderer = TableRenderer(self.doc.map)
        self.analysis = AnalysisRunner(inline=inline_analysis)
        self.live = None                    # the newest analysis result
        self.live_full = None               # the newest full-grid one
        self.baseline = None                # the analysis of the map as last saved
        self.selection: list = []
        self.clipboard: list = []
        self.snap_on = True
        self.grid = SN.grid_step(self.doc.map.unit)
        self.overlay = Overlay()
        self.select = SelectTool()          # the default tool (its drags: ``drag``)
        self.tool = None                    # a placing tool chosen in the palette (game/editor/place_tools.py)
        self.pan = None                     # the pointer's last point while the right button pans
        self._lifted = False
        self._coarse_sent = None
        self.vertex_mode = False
        self.mouse = (-1, -1)
        self.t = 0.0
        self.messages: list[tuple[str, float, bool]] = []
        self.toast_rects: list = []         # where the last frame drew them (newest first)
        self.lock_tags: list = []           # (piece id, where its "locked" tag was drawn) last frame
        self.save_lines: list[str] = []     # a refused save's file / field / reason lines
        self.dialog = None                  # ChoiceDialog | UIFileDialog
        self.dialog_kind = ""
        self.file_dialog = None             # (the UIFileDialog opened last, its kind) until its path comes
        self.show_help = False
        self.balance = None                 # worker.BalanceRun
        self.balance_lines: list[str] = []
        self.generating = None              # worker.GenerateRun
        self.generate_lines: list[str] = []
        self.generate_settings = None       # the dialog's last answer (the next one starts from it)
        self._generate_from = None          # the map the running generator started on
        self._coarse_at = 0.0
        self._analysed_version = None
        self._memo: dict = {}
        self.frame_ms: list[float] = []
        self._layout()
        self.cam = self.renderer.fit_camera(self.table_rect.size, margin_px=24)
        self._request_analysis(coarse=False)
        self._request_baseline()
        if note:
            self.say(note)
        if self.catalog.refused:
            for err in self.catalog.refused:
                self.say(f"catalog refused: {str(err).splitlines()[0]}", error=True)

    # --- layout and widgets -------------------------------------------------------------
    def _layout(self) -> None:
        w, h = self.app.size
        self.ui.clear_and_reset()
        top = self._toolbar(w)
        self.table_rect = pygame.Rect(PALETTE_W, top, w - PALETTE_W - PANEL_W, h - top - STATUS_H)
        self.panel_rect = pygame.Rect(w - PANEL_W, top, PANEL_W, h - top)
        self.status_rect = pygame.Rect(PALETTE_W, h - STATUS_H, w - PALETTE_W - PANEL_W, STATUS_H)
        self.palette = Palette(self.ui, pygame.Rect(0, top, PALETTE_W, h - top), self.catalog)
        self.form = PropertyForm(self.ui, pygame.Rect(self.panel_rect.x, top, PANEL_W, FORM_H), self.catalog.missions)
        self.analysis_rect = pygame.Rect(self.panel_rect.x, top + FORM_H, PANEL_W, h - top - FORM_H)
        self.progress = self.gen_progress = None
        if self.balance is not None:
            self.buttons["balance"].set_text("Cancel test")
        if self.generating is not None:
            self.buttons["generate"].set_text("Cancel gen.")
        self._refresh_form(force=True)

    def _toolbar(self, w: int) -> int:
        """The tool bar's buttons and menus (each as wide as its longest text and a margin; one
        row at 1280 pixels), in a second row where the window is too narrow for one (1024 pixels
        holds about four fifths of it); returns where the rest starts."""
        E_ = pygame_gui.elements
        sym_now = next(k for k, v in SYMMETRY_CHOICES.items() if v == self.doc.stack.symmetry)
        items = [
            ("new", "New", 44, "Ctrl+N: a new empty table"), ("open", "Open", 48, "Ctrl+O: open a map file"),
            ("save", "Save", 44, "Ctrl+S: save (validated first)"), ("saveas", "Save as", 62, "Ctrl+Shift+S"),
            ("undo", "Undo", 46, "Ctrl+Z"), ("redo", "Redo", 46, "Ctrl+Y"),
            ("snap", "Snap: on", 72, "G: snap to the grid and 15-degree turns (hold Alt to place freely)"),
            # the menus as wide as their longest choice ('Grid 0.25"', "Symmetry: mirror |")
            ("grid_dd", [self._grid_label(g) for g in self._grid_options()], 100, self._grid_label(self.grid)),
            ("sym_dd", list(SYMMETRY_CHOICES), 160, sym_now),
            ("overlay_dd", [f"Overlay: {m}" for m in ("off", "openness", "hidden 1", "hidden 2", "lanes")], 156,
             f"Overlay: {self.overlay.mode}"),
            ("play", "Play", 42, "play this layout: the launcher with this map"),
            ("generate", "Generate", 86, "fill the table toward sight targets, in the background (locked pieces, "
                                         "table, zones and objectives kept; one undo step)"),
            ("balance", "Test balance", 96, "AI games on this layout in the background: the table's effect"),
            ("sheet", "Sheet", 50, "a printable setup sheet (PDF and PNG) of this layout"),
            ("import", "Import", 58, "import a Carltographer layout (JSON)"),
            ("menu", "Menu", 50, "back to the launcher"),
            ("help", "?", 26, "F1: the controls"),
        ]
        self.buttons = {}
        x, y = 4, 5
        for key, what, width, extra in items:
            if x + width > w - 4:
                x, y = 4, y + TOOLBAR_ROW
            r = pygame.Rect(x, y, width, 30)
            if key.endswith("_dd"):
                setattr(self, key, E_.UIDropDownMenu(what, extra, r, self.ui))
            else:
                self.buttons[key] = E_.UIButton(r, what, self.ui, tool_tip_text=extra)
            x += width + 4
        return y + 35

    def _grid_options(self):
        base = SN.grid_step(self.doc.map.unit)
        return [base * f for f in (0.5, 1, 2, 4)]

    def _grid_label(self, g) -> str:
        unit = '"' if self.doc.map.unit == "in" else f" {self.doc.map.unit}"
        return f"Grid {g:g}{unit}"

    def resize(self, size) -> None:
        super().resize(size)
        self._layout()
        self.cam = self.renderer.fit_camera(self.table_rect.size, margin_px=24)

    # --- messages -----------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        self.messages.append((text, self.t + (8.0 if error else 4.0), error))
        self.messages = self.messages[-4:]

    @property
    def map(self):
        return self.doc.map

    @property
    def stack(self):
        return self.doc.stack

    # --- applying edits -----------------------------------------------------------------
    def apply(self, edit, quiet: bool = False) -> bool:
        """Do ``edit`` on the stack; a refusal is said and changes nothing."""
        if isinstance(edit, tuple):
            return self._apply_special(edit)
        try:
            done = self.stack.do(edit)
        except E.EditRefused as err:
            self.say(f"refused: {err}", error=True)
            return False
        if not quiet:
            self.say(done.describe()[:160])
        self._map_changed()
        return True

    def _apply_special(self, what) -> bool:
        if what[0] == "mission":
            return self.apply(mission_edit(self.catalog.mission(what[1]), self.map))
        if what[0] == "group":
            ids = what[1]
            name = E.new_id({p.group for p in self.map.pieces if p.group}, "group")
            return self.apply(E.group(ids, name))
        return False

    def _map_changed(self) -> None:
        """After any change of the map (edit, undo, redo, open): redraw, re-analyse, refresh."""
        m = self.map
        unit_changed = m.unit != self.renderer.map.unit or (m.width, m.height) != (self.renderer.map.width,
                                                                                   self.renderer.map.height)
        self.renderer.set_map(m)
        if unit_changed:
            # another unit (or table size): the camera's scale is per unit, the grid menu's steps too
            self.cam = self.renderer.fit_camera(self.table_rect.size, margin_px=24)
            if m.unit != getattr(self, "_layout_unit", m.unit):
                self.grid = SN.grid_step(m.unit)
                self._layout()
        self._layout_unit = m.unit
        present = set(E.keys_of(m))
        self.selection = [k for k in self.selection if k in present]
        if self.grid not in self._grid_options():
            self.grid = SN.grid_step(m.unit)
        self._refresh_form()
        self._request_analysis(coarse=False)
        self.save_lines = []

    def _refresh_form(self, force: bool = False) -> None:
        self.form.show(self.map, self.selection, force=force)

    # --- analysis -----------------------------------------------------------------------
    def _request_analysis(self, coarse: bool, mapfile=None) -> None:
        self.analysis.request(mapfile or self.map, self.stack.version, coarse)
        self._coarse_at = self.t

    def _request_baseline(self) -> None:
        self._baseline_version = self.stack.saved_version
        self._baseline_map = self.doc.saved_map
        if self.doc.saved_map is self.map:
            return                       # the live analysis of this very map will do
        self.analysis.request(self.doc.saved_map, -self.stack.saved_version - 1, False)

    def _take_result(self, r) -> None:
        if r.version < 0:
            if -r.version - 1 == self.stack.saved_version and not r.error:
                self.baseline = r
            return
        self.live = r
        if not r.coarse:
            self.live_full = r
            if r.version == self.stack.saved_version and not r.error and self.doc.saved_map == self.map:
                self.baseline = r

    # --- input ----------------------------------------------------------------------------
    def handle(self, ev) -> None:
        if self.picked_path(ev):
            return
        if self.dialog is not None:
            self._dialog_event(ev)
            return
        if ev.type == pygame.KEYDOWN and self.form.focused_entry() is not None:
            if ev.key == pygame.K_ESCAPE:
                self._refresh_form(force=True)
            return                          # typing in a field: keys are the field's
        if ev.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and ev.ui_element in self.form.fields:
            self._check_field(ev.ui_element)
            return
        if ev.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and ev.ui_element in self.form.fields:
            self._commit_field(ev.ui_element)
            return
        if ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            self._dropdown(ev)
            return
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, b in self.buttons.items():
                if ev.ui_element is b:
                    self.command(key)
                    return
            if ev.ui_element in self.form.buttons:
                self.apply(self.form.edit_for_button(self.form.buttons[ev.ui_element]))
            return
        if ev.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and ev.ui_element is self.palette.list:
            self._pick_palette(ev.text)
            return
        if ev.type == pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION and ev.ui_element is self.palette.list:
            self._end_tool()
            return
        if ev.type == pygame.KEYDOWN:
            self._key(ev)
            return
        if ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION, pygame.MOUSEWHEEL):
            if ev.type == pygame.MOUSEBUTTONDOWN:
                self._commit_focused_field()
            self._mouse(ev)

    # --- the frame ------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.t += dt
        while True:
            r = self.analysis.poll()
            if r is None:
                break
            self._take_result(r)
        if self.doc.autosave_due():
            err = self.doc.autosave()
            if err:
                self.say(f"autosave failed: {err}", error=True)
        self._poll_runs()
        self.messages = [m for m in self.messages if m[1] > self.t]

    def draw(self, screen) -> None:
        t0 = time.perf_counter()
        screen.fill((28, 24, 20))
        tsurf = screen.subsurface(self.table_rect)
        self.renderer.draw(tsurf, self.cam, now=self.t)
        local_rect = self._table_screen_rect()
        self.overlay.draw(tsurf, local_rect, self.live, self.cam.to_screen)
        self.select.draw(tsurf, self)
        self._draw_selection(tsurf)
        self._draw_tool(tsurf)
        self._draw_status(screen)
        self._draw_analysis(screen)
        if self.show_help:
            self._draw_help(screen)
        self.frame_ms.append((time.perf_counter() - t0) * 1000)
        if len(self.frame_ms) > 600:
            del self.frame_ms[:300]

    def close(self) -> None:
        if self.doc.dirty:
            self.doc.autosave()          # leaving for the launcher or a game: keep the draft
        self.analysis.close()
        if not self.app.running:         # the window is closing (Play comes back: its run goes on)
            self.stop_children()
