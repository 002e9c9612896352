"""The layout editor: build and change a table with the mouse and see what it does to sight and
balance as you go.

Every change goes through the document's edit stack (``engine.workshop.edits``): undo and redo,
symmetry twins and locks live there, not here. This scene turns the mouse and keys into edits,
draws the table (``TableRenderer``; the pieces being dragged are left out of its cached image and
drawn on top, so a drag frame is a blit and a few sprites), and shows the live analysis (a worker
process; a coarse grid while dragging, the full grid once the piece drops).

Layout: a tool bar on top, the palette on the left, the table, the property form and the
analysis on the right, a status line under the table.

The scene holds the editor's state (``game/editor/state.py``: every field with the part that
owns it), its widgets, and the parts it builds, each in its own file under ``game/editor/``:
``files`` (save, open, import), ``runs`` (balance test and generator in the background),
``discard`` (the question before work is lost), ``input`` (what the panels return, applied),
``analysis`` (the live analysis). The named commands are plain functions in one table
(``commands.COMMANDS``).
"""
from __future__ import annotations

import time
from pathlib import Path

import pygame

from engine.workshop import edits as E
from engine.workshop import snapping as SN
from engine.workshop.catalog import load_catalog, mission_edit
from game.editor import commands, selection, view
from game.editor.analysis import Analysis
from game.editor.control_panels import CatalogPanel, DialogPanel, PropertiesPanel, ToolbarPanel
from game.editor.dialogs import DiscardQuestion
from game.editor.document import Document, new_map
from game.editor.files import Files
from game.editor.keymap import KeysPanel
from game.editor.layout import FORM_H, PALETTE_W, PANEL_W, STATUS_H
from game.editor.overlay import Overlay
from game.editor.pointer import TablePanel, item_at
from game.editor.runs import Runs
from game.editor.side_panels import AnalysisPanel, AnalysisView, HelpPanel, StatusPanel, TextCache, status_parts
from game.editor.state import EditorState
from game.editor.table_input import TableInput
from game.editor.table_view import TableView
from game.editor.worker import AnalysisRunner
from game.kit.edit_tool import EditContext
from game.kit.panel import Router
from game.render.table_view import TableRenderer
from game.userdirs import catalog_dir, editor_autosave_file, maps_dir

from .base import Scene


class EditorScene(Scene):
    """The editor's state, widgets and event wiring; what it does is in the parts it owns."""

    def __init__(self, app, mapfile=None, path: Path | str | None = None, inline_analysis: bool = False,
                 note: str = ""):
        super().__init__(app)
        self.catalog = load_catalog([catalog_dir()])
        doc = Document(mapfile or new_map(), Path(path) if path else None, maps_dir(), editor_autosave_file())
        self.state = EditorState(doc=doc, renderer=TableRenderer(doc.map), grid=SN.grid_step(doc.map.unit),
                                 layout_unit=doc.map.unit)
        self.analysis = Analysis(self.state, AnalysisRunner(inline=inline_analysis))
        self.overlay = Overlay()
        self.table = TablePanel(pygame.Rect(0, 0, 1, 1), self.context)   # the camera, the tools, the pan
        self.dialogs = DialogPanel()        # the open dialog (a modal)
        self.help = HelpPanel(pygame.Rect(0, 0, 1, 1))
        self.texts = TextCache()
        self.view = TableView(self.texts)   # what the table's drawing (and the tools' previews) read
        self.files = Files(self)
        self.runs = Runs(self)
        self.discard = DiscardQuestion(self)
        self.input = TableInput(self)
        self.layout()
        view.fit(self)
        self.analysis.request(coarse=False)
        self.analysis.request_baseline()
        if note:
            self.say(note)
        if self.catalog.refused:
            for err in self.catalog.refused:
                self.say(f"catalog refused: {str(err).splitlines()[0]}", error=True)

    # --- layout and widgets -------------------------------------------------------------
    def layout(self) -> None:
        """The panels in their places (on every resize, and when another file is opened: the
        widgets are made again); the router asks them in the reverse of this order."""
        w, h = self.app.size
        self.ui.clear_and_reset()
        self.toolbar = ToolbarPanel(self.ui, w, [view.grid_label(self, g) for g in view.grid_options(self)],
                                    view.grid_label(self, self.state.grid), self.stack.symmetry, self.overlay.mode)
        top = self.toolbar.bottom
        self.table_rect = pygame.Rect(PALETTE_W, top, w - PALETTE_W - PANEL_W, h - top - STATUS_H)
        self.table.layout(self.table_rect)
        panel_x = w - PANEL_W
        self.status_rect = pygame.Rect(PALETTE_W, h - STATUS_H, w - PALETTE_W - PANEL_W, STATUS_H)
        self.catalog_panel = CatalogPanel(self.ui, pygame.Rect(0, top, PALETTE_W, h - top), self.catalog)
        self.properties = PropertiesPanel(self.ui, pygame.Rect(panel_x, top, PANEL_W, FORM_H),
                                          self.catalog.missions, lambda e: self.stack.preview(e))
        self.analysis_rect = pygame.Rect(panel_x, top + FORM_H, PANEL_W, h - top - FORM_H)
        self.analysis_panel = AnalysisPanel(self.analysis_rect, self.texts)
        self.status = StatusPanel(self.status_rect, self.table_rect, self.texts)
        self.help.layout(self.table_rect)
        self.router = Router([KeysPanel(), self.table, self.toolbar, self.catalog_panel, self.properties,
                              self.status, self.analysis_panel, self.help, self.dialogs])
        self.runs.laid_out()
        self.refresh_form(force=True)

    def resize(self, size) -> None:
        super().resize(size)
        self.layout()
        view.fit(self)

    # --- what the parts read ------------------------------------------------------------
    @property
    def map(self):
        return self.state.doc.map

    @property
    def stack(self):
        return self.state.doc.stack

    def context(self):
        """What a tool may read, now."""
        st, cam = self.state, self.table.cam
        return EditContext(map=self.map, stack=self.stack, selection=tuple(st.selection), grid=st.grid,
                           snap_on=st.snap_on, scale=cam.scale, to_screen=self.table.screen,
                           pick=self.item_at, vertex_mode=st.vertex_mode, t=st.clock)

    def world(self, pos):
        """A window pixel in map units."""
        return self.table.world(pos)

    def to_screen(self, x, y):
        """Map units to window pixels (for tests: where to click)."""
        sx, sy = self.table.cam.to_screen(x, y)
        return round(sx) + self.table_rect.x, round(sy) + self.table_rect.y

    def item_at(self, world):
        return item_at(self.map, self.state.renderer, world, self.table.cam.scale)

    # --- messages -----------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        st = self.state
        st.messages.append((text, st.clock + (8.0 if error else 4.0), error))
        st.messages = st.messages[-4:]

    # --- applying edits and commands ------------------------------------------------------
    def apply(self, edit, quiet: bool = False) -> bool:
        """Do ``edit`` on the stack (or a catalog mission's, ``("mission", id)``); a refusal is
        said and changes nothing."""
        if isinstance(edit, tuple):
            if edit[0] != "mission":
                return False
            edit = mission_edit(self.catalog.mission(edit[1]), self.map)
        try:
            done = self.stack.do(edit)
        except E.EditRefused as err:
            self.say(f"refused: {err}", error=True)
            return False
        if not quiet:
            self.say(done.describe()[:160])
        self.map_changed()
        return True

    def apply_all(self, items) -> bool:
        """Edits and intents in order (``TableInput.apply_all``); False if an edit was refused."""
        return self.input.apply_all(items)

    def command(self, name: str, arg=None) -> None:
        """Do the named command a panel returned (``commands.COMMANDS``)."""
        commands.run(self, name, arg)

    def map_changed(self) -> None:
        """After any change of the map (edit, undo, redo, open): redraw, re-analyse, refresh."""
        st = self.state
        m = self.map
        r = st.renderer.map
        unit_changed = m.unit != r.unit or (m.width, m.height) != (r.width, r.height)
        st.renderer.set_map(m)
        if unit_changed:
            # another unit (or table size): the camera's scale is per unit, the grid menu's steps too
            view.fit(self)
            if m.unit != st.layout_unit:
                view.reset_grid(self)
                self.layout()
        st.layout_unit = m.unit
        selection.keep_present(self)
        view.keep_grid(self)
        self.refresh_form()
        self.analysis.request(coarse=False)
        self.files.show_lines([])

    def refresh_form(self, force: bool = False) -> None:
        self.properties.form.show(self.map, self.state.selection, force=force)

    # --- input ----------------------------------------------------------------------------
    def handle(self, ev) -> None:
        """Route the event to the panel it belongs to and apply what comes back, in one place."""
        if self.files.picked_path(ev):
            return
        if hasattr(ev, "pos") and ev.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.table.mouse = ev.pos
            if ev.type == pygame.MOUSEBUTTONDOWN and self.dialogs.dialog is None:
                selection.commit_focused_field(self)     # a click elsewhere applies what was typed
        self.input.perform(self.router.route(ev))

    def request_quit(self) -> bool:
        return self.discard.quit_now()

    # --- the frame ------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        st = self.state
        st.clock += dt
        if self.dialogs.dialog is not None:
            self.toolbar.hush_tips()        # the button that opened it keeps no tooltip over it
        self.analysis.poll()
        if st.doc.autosave_due():
            err = st.doc.autosave()
            if err:
                self.say(f"autosave failed: {err}", error=True)
        self.runs.poll()
        st.messages = [m for m in st.messages if m[1] > st.clock]

    def draw(self, screen) -> None:
        t0 = time.perf_counter()
        st = self.state
        cam, mouse = self.table.cam, self.table.mouse
        screen.fill((28, 24, 20))
        tsurf = screen.subsurface(self.table_rect)
        st.renderer.draw(tsurf, cam, now=st.clock)
        v = self.view
        v.show(cam, self.map, self.stack.symmetry, st.renderer, st.selection, self.input.selection_box(),
               self.table.select.sub, self.input.vertex_target() if len(st.selection) == 1 else None,
               self.table.local(mouse))
        self.overlay.draw(tsurf, v.table_screen_rect(), st.live, cam.to_screen)
        self.table.select.draw(tsurf, v)              # the drag's preview (the tool draws it)
        v.draw_selection(tsurf)
        self.table.draw_ghost(tsurf, v)               # the placing tool's ghost
        inside = self.table_rect.collidepoint(mouse)
        self.status.show(status_parts(st.doc, st.live, self.stack.symmetry, self.world(mouse) if inside else None),
                         st.messages, st.renderer)
        floor = min((b.rect.top for b in (st.progress, st.gen_progress) if b is not None), default=None)
        self.analysis_panel.show(AnalysisView(self.properties.form.problem, st.save_lines, st.live, st.baseline,
                                              self.analysis.runner.busy, st.generate_lines, st.balance_lines, floor))
        self.router.draw(screen)
        st.frame_ms.append((time.perf_counter() - t0) * 1000)
        if len(st.frame_ms) > 600:
            del st.frame_ms[:300]

    def close(self) -> None:
        if self.state.doc.dirty:
            self.state.doc.autosave()    # leaving for the launcher or a game: keep the draft
        self.analysis.runner.close()
        if not self.app.running:         # the window is closing (Play comes back: its run goes on)
            self.runs.stop_children()
