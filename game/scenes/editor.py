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

from engine.workshop import edits as E
from engine.workshop import snapping as SN
from engine.workshop.catalog import load_catalog, mission_edit
from game.editor.commands import CommandsMixin
from game.editor.control_panels import CatalogPanel, DialogPanel, PropertiesPanel, ToolbarPanel
from game.editor.dialogs import DialogsMixin
from game.editor.document import Document, new_map
from game.editor.files import FilesMixin
from game.editor.keymap import KeysPanel
from game.editor.layout import FORM_H, PALETTE_W, PANEL_W, STATUS_H
from game.editor.overlay import Overlay
from game.editor.pointer import TablePanel
from game.editor.runs import RunsMixin
from game.editor.side_panels import AnalysisPanel, AnalysisView, HelpPanel, StatusPanel, TextCache, status_parts
from game.editor.table_input import TableInputMixin
from game.editor.table_view import TableView
from game.kit.panel import Router
from game.editor.worker import AnalysisRunner
from game.render.table_view import TableRenderer
from game.userdirs import catalog_dir, editor_autosave_file, maps_dir

from .base import Scene


class EditorScene(TableInputMixin, CommandsMixin, DialogsMixin, FilesMixin, RunsMixin, Scene):
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
        self.table = TablePanel(pygame.Rect(0, 0, 1, 1), self.context)   # the camera, the tools, the pan
        self.dialogs = DialogPanel()        # the open dialog (a modal)
        self.help = HelpPanel(pygame.Rect(0, 0, 1, 1))
        self.texts = TextCache()
        self.view = TableView(self.texts)   # what the table's drawing (and the tools' previews) read
        self._lifted_from = None            # the map when a drag lifted its items off the table image
        self._coarse_sent = None
        self._quiet = False
        self.vertex_mode = False
        self.t = 0.0
        self.messages: list[tuple[str, float, bool]] = []
        self.save_lines: list[str] = []     # a refused save's file / field / reason lines
        self.file_dialog = None             # (the UIFileDialog opened last, its kind) until its path comes
        self.balance = None                 # worker.BalanceRun
        self.balance_lines: list[str] = []
        self.generating = None              # worker.GenerateRun
        self.generate_lines: list[str] = []
        self.generate_settings = None       # the dialog's last answer (the next one starts from it)
        self._generate_from = None          # the map the running generator started on
        self._coarse_at = 0.0
        self._analysed_version = None
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
        """The panels in their places (on every resize, and when another file is opened: the
        widgets are made again); the router asks them in the reverse of this order."""
        w, h = self.app.size
        self.ui.clear_and_reset()
        self.toolbar = ToolbarPanel(self.ui, w, [self._grid_label(g) for g in self._grid_options()],
                                    self._grid_label(self.grid), self.doc.stack.symmetry, self.overlay.mode)
        top = self.toolbar.bottom
        self.table_rect = pygame.Rect(PALETTE_W, top, w - PALETTE_W - PANEL_W, h - top - STATUS_H)
        self.table.layout(self.table_rect)
        self.panel_rect = pygame.Rect(w - PANEL_W, top, PANEL_W, h - top)
        self.status_rect = pygame.Rect(PALETTE_W, h - STATUS_H, w - PALETTE_W - PANEL_W, STATUS_H)
        self.catalog_panel = CatalogPanel(self.ui, pygame.Rect(0, top, PALETTE_W, h - top), self.catalog)
        self.properties = PropertiesPanel(self.ui, pygame.Rect(self.panel_rect.x, top, PANEL_W, FORM_H),
                                          self.catalog.missions, lambda e: self.stack.preview(e))
        self.analysis_rect = pygame.Rect(self.panel_rect.x, top + FORM_H, PANEL_W, h - top - FORM_H)
        self.analysis_panel = AnalysisPanel(self.analysis_rect, self.texts)
        self.status = StatusPanel(self.status_rect, self.table_rect, self.texts)
        self.help.layout(self.table_rect)
        self.router = Router([KeysPanel(), self.table, self.toolbar, self.catalog_panel, self.properties,
                              self.status, self.analysis_panel, self.help, self.dialogs])
        self.progress = self.gen_progress = None
        if self.balance is not None:
            self.buttons["balance"].set_text("Cancel test")
        if self.generating is not None:
            self.buttons["generate"].set_text("Cancel gen.")
        self._refresh_form(force=True)

    # --- the parts' state, under the names the rest of the editor (and its tests) use ------
    palette = property(lambda self: self.catalog_panel.palette)
    form = property(lambda self: self.properties.form)
    buttons = property(lambda self: self.toolbar.buttons)
    grid_dd = property(lambda self: self.toolbar.grid_dd)
    sym_dd = property(lambda self: self.toolbar.sym_dd)
    overlay_dd = property(lambda self: self.toolbar.overlay_dd)
    select = property(lambda self: self.table.select)
    toast_rects = property(lambda self: self.status.rects)
    mouse = property(lambda self: self.table.mouse)
    lock_tags = property(lambda self: self.view.lock_tags)

    @property
    def cam(self):
        return self.table.cam

    @cam.setter
    def cam(self, cam) -> None:
        self.table.cam = cam

    @property
    def tool(self):
        """The placing tool chosen in the catalog, or None (the select tool then)."""
        return self.table.tool

    @tool.setter
    def tool(self, tool) -> None:
        self.table.tool = tool

    @property
    def drag(self):
        """The drag under way (a ``drag_tools.DragTool``), or None; setting None drops it."""
        return self.table.select.sub

    @drag.setter
    def drag(self, d) -> None:
        self.table.select.sub = d

    @property
    def dialog(self):
        return self.dialogs.dialog

    @dialog.setter
    def dialog(self, d) -> None:
        self.dialogs.open(d, self.dialogs.kind)

    @property
    def dialog_kind(self) -> str:
        return self.dialogs.kind

    @dialog_kind.setter
    def dialog_kind(self, kind: str) -> None:
        self.dialogs.kind = kind

    @property
    def show_help(self) -> bool:
        return self.help.visible

    @show_help.setter
    def show_help(self, on: bool) -> None:
        self.help.visible = bool(on)

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
        """Route the event to the panel it belongs to and apply what comes back, in one place."""
        if self.picked_path(ev):
            return
        if hasattr(ev, "pos") and ev.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.table.mouse = ev.pos
            if ev.type == pygame.MOUSEBUTTONDOWN and self.dialog is None:
                self._commit_focused_field()     # a click elsewhere applies what was typed
        self.perform(self.router.route(ev))

    # --- the frame ------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.t += dt
        if self.dialog is not None:
            self.toolbar.hush_tips()        # the button that opened it keeps no tooltip over it
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
        v = self.view
        v.show(self.cam, self.map, self.stack.symmetry, self.renderer, self.selection, self._selection_box(),
               self.drag, self._vertex_target() if len(self.selection) == 1 else None, self.table.local(self.mouse))
        self.overlay.draw(tsurf, v.table_screen_rect(), self.live, self.cam.to_screen)
        self.table.select.draw(tsurf, v)              # the drag's preview (the tool draws it)
        v.draw_selection(tsurf)
        self.table.draw_ghost(tsurf, v)               # the placing tool's ghost
        inside = self.table_rect.collidepoint(self.mouse)
        self.status.show(status_parts(self.doc, self.live, self.stack.symmetry, self._world(self.mouse) if inside else None),
                         self.messages, self.renderer)
        floor = min((b.rect.top for b in (self.progress, self.gen_progress) if b is not None), default=None)
        self.analysis_panel.show(AnalysisView(self.form.problem, self.save_lines, self.live, self.baseline,
                                              self.analysis.busy, self.generate_lines, self.balance_lines, floor))
        self.router.draw(screen)
        self.frame_ms.append((time.perf_counter() - t0) * 1000)
        if len(self.frame_ms) > 600:
            del self.frame_ms[:300]

    def close(self) -> None:
        if self.doc.dirty:
            self.doc.autosave()          # leaving for the launcher or a game: keep the draft
        self.analysis.close()
        if not self.app.running:         # the window is closing (Play comes back: its run goes on)
            self.stop_children()
