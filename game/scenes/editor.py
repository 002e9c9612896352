"""The layout editor: build and change a table with the mouse and see what it does to sight and
balance as you go.

Every change goes through the document's edit stack (``engine.workshop.edits``): undo and redo,
symmetry twins and locks live there, not here. This scene turns the mouse and keys into edits,
draws the table (``TableRenderer``; the pieces being dragged are left out of its cached image and
drawn on top, so a drag frame is a blit and a few sprites), and shows the live analysis (a worker
process; a coarse grid while dragging, the full grid once the piece drops).

Layout: a tool bar on top, the palette on the left, the table, the property form and the
analysis on the right, a status line under the table.
"""
from __future__ import annotations

import math
import time
from dataclasses import replace
from pathlib import Path

import pygame
import pygame_gui

from engine.data.maps import Marker, Piece, PolygonShape, WallShape, Zone
from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop import snapping as SN
from engine.workshop.catalog import load_catalog, mission_edit, place_template
from game.editor.document import Document, new_map
from game.editor.figures import diff_text, rows as figure_rows, symmetry_line
from game.editor.generate_dialog import GenerateDialog
from game.editor.overlay import Overlay
from game.editor.panels import ChoiceDialog, Palette, PropertyForm
from game.editor.worker import AnalysisRunner
from game.render.table_view import TableRenderer
from game.render.text import font
from game.userdirs import catalog_dir, editor_autosave_file, maps_dir

from .base import Scene

TOP = 40
PALETTE_W = 200
PANEL_W = 340
STATUS_H = 24
FORM_H = 372
HANDLE_PX = 7
PICK_PX = 7
COARSE_EVERY_S = 0.3          # a coarse analysis of the dragged layout at most this often
SYMMETRY_CHOICES = {"Symmetry: off": None, "Symmetry: mirror |": "mirror_x", "Symmetry: mirror -": "mirror_y",
                    "Symmetry: point": "point"}
GRID_CHOICES = (0.25, 0.5, 1.0, 2.0)
MIRROR_DELTA = {"mirror_x": (-1, 1), "mirror_y": (1, -1), "point": (-1, -1)}
HELP = [
    "Layout editor",
    "Click a palette item, then the table to place it (Shift: keep placing); R turns the item to place",
    "Click a piece to select it (its group with it); Shift+click adds or removes; drag on the table to box-select",
    "Drag a selection to move it (grid and alignment snapping; hold Alt to place freely); arrows nudge",
    "Drag the round handle to turn (15-degree steps), the square one to scale; R / Shift+R turn by 15 degrees",
    "V: edit the corners of the selected piece (Insert adds one under the pointer, Backspace removes it)",
    "Del: delete   Ctrl+C / Ctrl+V / Ctrl+D: copy, paste at the pointer, duplicate   Ctrl+G: group   L: lock",
    "Ctrl+Z / Ctrl+Y: undo, redo   Ctrl+S: save   Ctrl+Shift+S: save as   Ctrl+O: open   Ctrl+N: new",
    "M: symmetry mode   G: snapping   O: overlay (openness, hidden ground, lanes)   F: fit   F1: this help",
    "Right drag: pan   Wheel: zoom   Esc: cancel, deselect",
]


class Drag:
    """A drag in progress: what it does, where it started, and what it needs each frame."""

    def __init__(self, kind: str, start_world, start_pos, **kw):
        self.kind = kind                    # move, box, rotate, scale, vertex, pan
        self.start_world = start_world
        self.start_pos = start_pos
        self.active = kind in ("rotate", "scale", "vertex", "pan")
        self.dx = self.dy = 0.0
        self.guides: list = []
        self.measures: list = []
        self.preview = None                 # the map a rotate, scale or vertex drag would give
        self.value = None
        self.__dict__.update(kw)


class EditorScene(Scene):
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
        self.tool = None                    # ("template", id) | ("marker", group) | ("zone", side) | ("run", kind)
        self.tool_angle = 0.0
        self.run_points: list = []
        self.drag: Drag | None = None
        self.vertex_mode = False
        self.mouse = (-1, -1)
        self.t = 0.0
        self.messages: list[tuple[str, float, bool]] = []
        self.save_lines: list[str] = []     # a refused save's file / field / reason lines
        self.dialog = None                  # ChoiceDialog | UIFileDialog
        self.dialog_kind = ""
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
        self._ghost_cache = None
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
        self.table_rect = pygame.Rect(PALETTE_W, TOP, w - PALETTE_W - PANEL_W, h - TOP - STATUS_H)
        self.panel_rect = pygame.Rect(w - PANEL_W, TOP, PANEL_W, h - TOP)
        self.status_rect = pygame.Rect(PALETTE_W, h - STATUS_H, w - PALETTE_W - PANEL_W, STATUS_H)
        E_ = pygame_gui.elements
        self.buttons = {}
        x = 4
        for key, text, width, tip in [
            ("new", "New", 50, "Ctrl+N: a new empty table"), ("open", "Open", 56, "Ctrl+O: open a map file"),
            ("save", "Save", 52, "Ctrl+S: save (validated first)"), ("saveas", "Save as", 70, "Ctrl+Shift+S"),
            ("undo", "Undo", 54, "Ctrl+Z"), ("redo", "Redo", 54, "Ctrl+Y"),
            ("snap", "Snap: on", 72, "G: snap to the grid and 15-degree turns (hold Alt to place freely)"),
        ]:
            self.buttons[key] = E_.UIButton(pygame.Rect(x, 5, width, 30), text, self.ui, tool_tip_text=tip)
            x += width + 4
        self.grid_dd = E_.UIDropDownMenu([self._grid_label(g) for g in self._grid_options()], self._grid_label(self.grid),
                                         pygame.Rect(x, 5, 88, 30), self.ui)
        x += 92
        sym_now = next(k for k, v in SYMMETRY_CHOICES.items() if v == self.doc.stack.symmetry)
        self.sym_dd = E_.UIDropDownMenu(list(SYMMETRY_CHOICES), sym_now, pygame.Rect(x, 5, 146, 30), self.ui)
        x += 150
        self.overlay_dd = E_.UIDropDownMenu([f"Overlay: {m}" for m in ("off", "openness", "hidden 1", "hidden 2", "lanes")],
                                            f"Overlay: {self.overlay.mode}", pygame.Rect(x, 5, 140, 30), self.ui)
        x += 144
        for key, text, width, tip in [
            ("play", "Play", 50, "play this layout: the launcher with this map"),
            ("generate", "Generate", 78, "fill the table toward sight targets, in the background (locked pieces, "
                                         "table, zones and objectives kept; one undo step)"),
            ("balance", "Test balance", 98, "AI games on this layout in the background: the table's effect"),
            ("sheet", "Sheet", 56, "a printable setup sheet (PDF and PNG) of this layout"),
            ("import", "Import", 60, "import a Carltographer layout (JSON)"),
            ("menu", "Menu", 54, "back to the launcher"),
            ("help", "?", 30, "F1: the controls"),
        ]:
            self.buttons[key] = E_.UIButton(pygame.Rect(x, 5, width, 30), text, self.ui, tool_tip_text=tip)
            x += width + 4
        self.toolbar_width = x
        self.palette = Palette(self.ui, pygame.Rect(0, TOP, PALETTE_W, h - TOP), self.catalog)
        self.form = PropertyForm(self.ui, pygame.Rect(self.panel_rect.x, TOP, PANEL_W, FORM_H), self.catalog.missions)
        self.analysis_rect = pygame.Rect(self.panel_rect.x, TOP + FORM_H, PANEL_W, h - TOP - FORM_H)
        self.progress = self.gen_progress = None
        if self.balance is not None:
            self.buttons["balance"].set_text("Cancel test")
        if self.generating is not None:
            self.buttons["generate"].set_text("Cancel gen.")
        self._refresh_form(force=True)

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

    def _dialog_event(self, ev) -> None:
        d = self.dialog
        if isinstance(d, GenerateDialog):
            if not d.alive():
                self.dialog = None
                return
            a = d.answer(ev)
            if a is not None:
                self.dialog = None
                if a[0] == "generate":
                    self.start_generate(a[1])
            elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                d.kill()
                self.dialog = None
            return
        if isinstance(d, ChoiceDialog):
            if not d.alive():
                self.dialog = None
                return
            a = d.answer(ev)
            if a is not None:
                self.dialog = None
                self._answer(self.dialog_kind, a)
            elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                d.kill()
                self.dialog = None
            return
        # a file dialog
        if ev.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            self.dialog = None
            self._file_picked(self.dialog_kind, Path(ev.text))
        elif (ev.type == pygame_gui.UI_WINDOW_CLOSE and ev.ui_element is d) or \
                (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
            if d.alive():
                d.kill()
            self.dialog = None
        elif not d.alive():
            self.dialog = None

    def _check_field(self, el) -> None:
        name = self.form.fields[el]
        try:
            edit = self.form.edit_for_text(name, el.get_text())
            if edit is not None:
                self.stack.preview(edit)
            self.form.problem = ""
        except (ValueError, E.EditRefused) as err:
            self.form.problem = f"{name.split('.')[-1]}: {err}"

    def _commit_field(self, el) -> None:
        name = self.form.fields[el]
        try:
            edit = self.form.edit_for_text(name, el.get_text())
        except ValueError as err:
            self.form.problem = f"{name.split('.')[-1]}: {err}"
            return
        if edit is None:
            return
        before = self.map
        if self.apply(edit) and name == "id":
            new = el.get_text().strip()
            self.selection = [("piece", new) if k == ("piece", self.form.keys[0][1]) else k for k in self.selection]
            self._refresh_form(force=True)
        elif self.map is before:
            self.form.problem = self.messages[-1][0] if self.messages else ""
        if name.startswith("marker.") and self.map is not before:
            grp = self.selection[0][0]
            self.selection = [(grp, el.get_text().strip())] if name == "marker.id" else self.selection
            self._refresh_form(force=True)

    def _commit_focused_field(self) -> None:
        """A click elsewhere applies what was typed, if it is valid."""
        f = self.form.focused_entry()
        if f is None:
            return
        el, name = f
        if not self.form.problem:
            self._commit_field(el)

    def _dropdown(self, ev) -> None:
        if ev.ui_element is self.sym_dd:
            self.set_symmetry(SYMMETRY_CHOICES[ev.text])
        elif ev.ui_element is self.overlay_dd:
            self.overlay.mode = ev.text.split(": ", 1)[1]
        elif ev.ui_element is self.grid_dd:
            for g in self._grid_options():
                if self._grid_label(g) == ev.text:
                    self.grid = g
        elif ev.ui_element in self.form.dropdowns:
            what = self.form.edit_for_choice(self.form.dropdowns[ev.ui_element], ev.text)
            if what is not None:
                self.apply(what)
                self._refresh_form(force=True)

    def command(self, key: str) -> None:
        if key == "new":
            self.confirm_discard("new")
        elif key == "open":
            self.confirm_discard("open")
        elif key == "save":
            self.save()
        elif key == "saveas":
            self.open_file_dialog("saveas")
        elif key == "undo":
            self.undo()
        elif key == "redo":
            self.redo()
        elif key == "snap":
            self.snap_on = not self.snap_on
            self.buttons["snap"].set_text(f"Snap: {'on' if self.snap_on else 'off'}")
        elif key == "play":
            self.play()
        elif key == "balance":
            self.test_balance()
        elif key == "generate":
            self.generate()
        elif key == "sheet":
            self.make_sheet()
        elif key == "import":
            self.confirm_discard("import")
        elif key == "menu":
            self.confirm_discard("menu")
        elif key == "help":
            self.show_help = not self.show_help

    def set_symmetry(self, mode) -> None:
        self.stack.symmetry = mode
        if mode:
            left = E.unmatched(self.map, mode)
            self.say(f"symmetry {mode.replace('_', ' ')}: every edit keeps its counterpart in step"
                     + (f"; {len(left)} items have none yet" if left else ""))
        else:
            self.say("symmetry off")

    def _key(self, ev) -> None:
        if self.drag is not None and self.drag.active and self.drag.kind != "pan":
            if ev.key == pygame.K_ESCAPE:          # cancel the drag: nothing changes
                self.drag = None
                self.renderer.set_map(self.map)
                self.say("drag cancelled")
            return                                  # no other key while a drag is under way
        ctrl = ev.mod & pygame.KMOD_CTRL
        shift = ev.mod & pygame.KMOD_SHIFT
        k = ev.key
        if ctrl and k == pygame.K_z:
            self.redo() if shift else self.undo()
        elif ctrl and k == pygame.K_y:
            self.redo()
        elif ctrl and k == pygame.K_s:
            self.open_file_dialog("saveas") if shift else self.save()
        elif ctrl and k == pygame.K_o:
            self.confirm_discard("open")
        elif ctrl and k == pygame.K_n:
            self.confirm_discard("new")
        elif ctrl and k == pygame.K_c:
            self.copy()
        elif ctrl and k == pygame.K_v:
            self.paste(self._world(self.mouse) if self.table_rect.collidepoint(self.mouse) else None)
        elif ctrl and k == pygame.K_d:
            self.duplicate()
        elif ctrl and k == pygame.K_g:
            ids = [i for kind, i in self.selection if kind == "piece"]
            if ids:
                self.apply(E.ungroup(ids) if shift else ("group", ids))
        elif ctrl and k == pygame.K_a:
            self.selection = [("piece", p.id) for p in self.map.pieces]
            self._refresh_form()
        elif k in (pygame.K_DELETE,) or (k == pygame.K_BACKSPACE and not self.vertex_mode):
            self.delete_selection()
        elif k == pygame.K_BACKSPACE and self.vertex_mode:
            self._delete_vertex_at(self.mouse)
        elif k == pygame.K_INSERT:
            self._insert_vertex_at(self.mouse)
        elif k == pygame.K_ESCAPE:
            if self.show_help:
                self.show_help = False
            elif self.run_points:
                self.run_points = []
            elif self.tool:
                self._end_tool()
            elif self.vertex_mode:
                self.vertex_mode = False
            else:
                self.selection = []
                self._refresh_form()
        elif k == pygame.K_RETURN and self.tool and self.tool[0] == "run":
            self._finish_run()
        elif k == pygame.K_r:
            step = -SN.ANGLE_STEP if shift else SN.ANGLE_STEP
            if self.tool:
                self.tool_angle = (self.tool_angle + step) % 360
                self._ghost_cache = None
            elif self.selection:
                self.apply(E.Rotate(tuple(self.selection), step))
        elif k == pygame.K_l:
            ids = [i for kind, i in self.selection if kind == "piece"]
            if ids:
                on = not all(E.get_piece(self.map, i).locked for i in ids)
                self.apply(E.lock(ids, on))
        elif k == pygame.K_v:
            self.vertex_mode = not self.vertex_mode
            self.say("corner editing " + ("on: drag a corner; Insert adds one, Backspace removes one" if self.vertex_mode else "off"))
        elif k == pygame.K_m:
            modes = list(SYMMETRY_CHOICES.values())
            mode = modes[(modes.index(self.stack.symmetry) + 1) % len(modes)]
            self.set_symmetry(mode)
            r = self.sym_dd.relative_rect
            self.sym_dd.kill()
            sym_now = next(k for k, v in SYMMETRY_CHOICES.items() if v == self.stack.symmetry)
            self.sym_dd = pygame_gui.elements.UIDropDownMenu(list(SYMMETRY_CHOICES), sym_now, r, self.ui)
        elif k == pygame.K_g:
            self.command("snap")
        elif k == pygame.K_o:
            self.overlay.cycle()
            self.say(f"overlay: {self.overlay.mode}")
            r = self.overlay_dd.relative_rect
            self.overlay_dd.kill()
            self.overlay_dd = pygame_gui.elements.UIDropDownMenu(
                [f"Overlay: {m}" for m in ("off", "openness", "hidden 1", "hidden 2", "lanes")],
                f"Overlay: {self.overlay.mode}", r, self.ui)
        elif k in (pygame.K_f, pygame.K_HOME):
            self.cam = self.renderer.fit_camera(self.table_rect.size, margin_px=24)
        elif k == pygame.K_F1:
            self.show_help = not self.show_help
        elif k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN) and self.selection:
            step = self.grid * (5 if shift else 1)
            dx = {pygame.K_LEFT: -step, pygame.K_RIGHT: step}.get(k, 0.0)
            dy = {pygame.K_DOWN: -step, pygame.K_UP: step}.get(k, 0.0)
            self.apply(E.Move(tuple(self.selection), dx, dy), quiet=True)

    # --- coordinates and picking -----------------------------------------------------------
    def _local(self, pos):
        return pos[0] - self.table_rect.x, pos[1] - self.table_rect.y

    def _world(self, pos):
        return self.cam.to_world(*self._local(pos))

    def to_screen(self, x, y):
        """Map units to window pixels (for tests: where to click)."""
        sx, sy = self.cam.to_screen(x, y)
        return round(sx) + self.table_rect.x, round(sy) + self.table_rect.y

    def _px(self, n: float) -> float:
        """``n`` screen pixels in map units."""
        return n / self.cam.scale

    def item_at(self, world):
        x, y = world
        r = max(20.0 / self.map.mm_per_unit, self._px(PICK_PX))
        for grp, lst in (("objective", self.map.objectives), ("evac", self.map.evac_points)):
            for mk in lst:
                if math.dist(mk.at, (x, y)) <= r:
                    return (grp, mk.id)
        g = self.renderer.piece_at(x, y)
        if g is not None:
            return ("piece", g.piece.id)
        tol = self._px(PICK_PX)
        for i, z in enumerate(self.map.deployment):
            pts = z.points
            for j in range(len(pts)):
                d, _ = SN.seg_point((x, y), pts[j], pts[(j + 1) % len(pts)])
                if d <= tol:
                    return ("zone", i)
        return None

    def with_groups(self, keys) -> list:
        out = list(dict.fromkeys(keys))
        groups = {E.get_piece(self.map, k[1]).group for k in out if k[0] == "piece"} - {None}
        if groups:
            for p in self.map.pieces:
                if p.group in groups and ("piece", p.id) not in out:
                    out.append(("piece", p.id))
        return out

    def _handles(self):
        """Screen positions of the turn and scale handles of the selection, or None."""
        b = self._selection_box()
        if b is None:
            return None
        x0, y0 = self.cam.to_screen(b[0], b[3])
        x1, y1 = self.cam.to_screen(b[2], b[1])
        turn = ((x0 + x1) / 2 + self.table_rect.x, y0 - 22 + self.table_rect.y)
        scale = (x1 + 8 + self.table_rect.x, y1 + 8 + self.table_rect.y)
        return turn, scale

    def _selection_box(self):
        if not self.selection:
            return None
        try:
            return E.selection_bounds(self.map, self.selection)
        except E.EditRefused:
            return None

    def _vertex_target(self):
        """(key, vertices) whose corners can be dragged: one selected piece in corner mode, or a
        selected zone."""
        if len(self.selection) != 1:
            return None
        k = self.selection[0]
        if k[0] == "zone":
            return k, list(E.geometry(self.map, k))
        if k[0] == "piece" and self.vertex_mode:
            return k, S.vertices(E.geometry(self.map, k))
        return None

    def _vertex_at(self, pos):
        vt = self._vertex_target()
        if vt is None:
            return None
        k, pts = vt
        for i, p in enumerate(pts):
            sx, sy = self.to_screen(*p)
            if math.dist((sx, sy), pos) <= HANDLE_PX + 2:
                return k, i
        return None

    # --- the mouse --------------------------------------------------------------------------
    def _mouse(self, ev) -> None:
        if ev.type == pygame.MOUSEWHEEL:
            if self.table_rect.collidepoint(self.mouse):
                self.cam.zoom_at(1.15 ** ev.y, *self._local(self.mouse))
            return
        pos = ev.pos
        self.mouse = pos
        mods = pygame.key.get_mods()
        if ev.type == pygame.MOUSEMOTION:
            if self.drag is not None:
                self._drag_to(pos, mods)
            return
        inside = self.table_rect.collidepoint(pos)
        if ev.type == pygame.MOUSEBUTTONDOWN:
            if not inside:
                return
            w = self._world(pos)
            if ev.button in (2, 3):
                if ev.button == 3 and self.tool and self.tool[0] == "run" and self.run_points:
                    self._finish_run()
                    return
                self.drag = Drag("pan", w, pos)
                return
            if ev.button != 1:
                return
            if self.tool:
                self._tool_click(w, mods)
                return
            v = self._vertex_at(pos)
            if v is not None:
                self._start_drag(Drag("vertex", w, pos, key=v[0], index=v[1]))
                return
            hd = self._handles()
            if hd is not None:
                if math.dist(hd[0], pos) <= HANDLE_PX + 3:
                    self._start_drag(Drag("rotate", w, pos, centre=E.selection_centre(self.map, self.selection)))
                    return
                if math.dist(hd[1], pos) <= HANDLE_PX + 3:
                    self._start_drag(Drag("scale", w, pos, centre=E.selection_centre(self.map, self.selection)))
                    return
            hit = self.item_at(w)
            if hit is None:
                self.drag = Drag("box", w, pos, add=bool(mods & pygame.KMOD_SHIFT))
                return
            if mods & pygame.KMOD_SHIFT:
                grp = self.with_groups([hit])
                if hit in self.selection:
                    self.selection = [k for k in self.selection if k not in grp]
                else:
                    self.selection += [k for k in grp if k not in self.selection]
                self._refresh_form()
                return
            if hit not in self.selection:
                self.selection = self.with_groups([hit])
                self._refresh_form()
            self.drag = Drag("move", w, pos)
            return
        if ev.type == pygame.MOUSEBUTTONUP and self.drag is not None:
            d, self.drag = self.drag, None
            self._end_drag(d, pos, mods)

    def _start_drag(self, d: Drag) -> None:
        self.drag = d
        self._begin(d)

    def _begin(self, d: Drag) -> None:
        """The drag starts moving: what moves (with its symmetry twins) is left out of the table
        image and drawn on top; a lock (or a twin's) refuses the drag before anything moves."""
        d.active = True
        keys = (d.key,) if d.kind == "vertex" else tuple(self.selection)
        # a move along both axes: a piece on a mirror line may still slide along it
        probe = {"move": lambda: E.Move(keys, 1e-3, 1e-3), "rotate": lambda: E.Rotate(keys, 180.0),
                 "scale": lambda: E.Scale(keys, 1.001),
                 "vertex": lambda: E.MoveVertex(d.key, d.index, self._vertex_pos(d.key, d.index))}[d.kind]()
        try:
            moving = self.stack.expand(probe).geometry_keys(self.map)
            locked = sorted(k[1] for k in moving if k[0] == "piece" and E.get_piece(self.map, k[1]).locked)
            if locked:
                raise E.EditRefused(f"{', '.join(locked)} {'is' if len(locked) == 1 else 'are'} locked (unlock first)")
        except E.EditRefused as err:
            self.say(f"refused: {err}", error=True)
            self.drag = None
            return
        d.keys, d.moving = keys, moving
        mode = self.stack.symmetry
        d.prim, d.twin, d.selfs = E.twins_of(self.map, keys, mode) if mode else (list(keys), {}, set())
        d.box = E.selection_bounds(self.map, keys)
        others = [p for p in self.map.pieces if ("piece", p.id) not in moving]
        d.other_boxes = [S.bounds(p.shape) for p in others]
        d.neighbours = [(p.label(), p.shape) for p in others]
        d.floating = [E.get_piece(self.map, k[1]) for k in moving if k[0] == "piece"]
        self.renderer.set_map(_without(self.map, moving))

    def _vertex_pos(self, key, index):
        g = E.geometry(self.map, key)
        pts = list(g) if key[0] == "zone" else S.vertices(g)
        return pts[index]

    def _drag_to(self, pos, mods) -> None:
        d = self.drag
        w = self._world(pos)
        if d.kind == "pan":
            self.cam.pan(pos[0] - d.start_pos[0], pos[1] - d.start_pos[1])
            d.start_pos = pos
            return
        if not d.active:
            if math.dist(pos, d.start_pos) < 4:
                return
            if d.kind == "box":
                d.active = True
            else:
                self._begin(d)
                if self.drag is None:
                    return
        free = bool(mods & pygame.KMOD_ALT) or not self.snap_on
        if d.kind == "box":
            d.end_world = w
            return
        if d.kind == "move":
            rdx, rdy = w[0] - d.start_world[0], w[1] - d.start_world[1]
            sn = SN.snap_move(d.box, rdx, rdy, None if free else self.grid, self.map.width, self.map.height,
                              () if free else d.other_boxes, 0.0 if free else self._px(6))
            d.dx, d.dy, d.guides = sn.dx, sn.dy, sn.guides
            moved = [S.translate(E.geometry(self.map, k), d.dx, d.dy) for k in d.prim if k[0] == "piece"]
            d.measures = SN.ruler(moved, self.map.width, self.map.height, d.neighbours) if moved else []
            if self.t - self._coarse_at >= COARSE_EVERY_S and not self.analysis.busy:
                self._coarse_preview(E.Move(d.keys, d.dx, d.dy))
            return
        if d.kind == "rotate":
            c = d.centre
            a0 = math.degrees(math.atan2(d.start_world[1] - c[1], d.start_world[0] - c[0]))
            a1 = math.degrees(math.atan2(w[1] - c[1], w[0] - c[0]))
            ang = ((a1 - a0 + 180) % 360) - 180
            if not free:
                ang = SN.snap_angle(ang)
            self._preview(d, E.Rotate(d.keys, ang, c), ang)
        elif d.kind == "scale":
            c = d.centre
            r0 = max(1e-9, math.dist(d.start_world, c))
            f = max(0.05, math.dist(w, c) / r0)
            if not free and d.box is not None:
                width = d.box[2] - d.box[0]
                if width > 0:
                    f = max(self.grid, SN.snap(width * f, self.grid)) / width
            self._preview(d, E.Scale(d.keys, f, None, c), f)
        elif d.kind == "vertex":
            to = w if free else (SN.snap(w[0], self.grid), SN.snap(w[1], self.grid))
            self._preview(d, E.MoveVertex(d.key, d.index, to), to)

    def _preview(self, d: Drag, edit, value) -> None:
        if value == d.value:
            return
        try:
            d.preview = self.stack.preview(edit)
            d.value = value
            d.edit = edit
            d.problem = ""
        except E.EditRefused as err:
            d.problem = str(err)
            return
        d.floating = [p for p in d.preview.pieces if ("piece", p.id) in d.moving]
        if self.t - self._coarse_at >= COARSE_EVERY_S and not self.analysis.busy:
            self._request_analysis(coarse=True, mapfile=d.preview)

    def _coarse_preview(self, edit) -> None:
        try:
            m = self.stack.preview(edit)
        except E.EditRefused:
            return
        self._request_analysis(coarse=True, mapfile=m)

    def _end_drag(self, d: Drag, pos, mods) -> None:
        if d.kind == "pan":
            return
        if d.kind == "box":
            if d.active:
                self._box_select(d, getattr(d, "end_world", d.start_world))
            else:
                if not d.add:
                    self.selection = []
                    self._refresh_form()
            return
        if not d.active:
            return                           # a click on an item: it is selected
        edit = None
        if d.kind == "move":
            if d.dx or d.dy:
                edit = E.Move(d.keys, d.dx, d.dy)
        elif getattr(d, "edit", None) is not None:
            edit = d.edit
        if edit is None or not self.apply(edit, quiet=d.kind == "move"):
            self.renderer.set_map(self.map)  # refused or nothing: the table as it was

    def _box_select(self, d: Drag, end) -> None:
        x0, x1 = sorted((d.start_world[0], end[0]))
        y0, y1 = sorted((d.start_world[1], end[1]))
        hits = []
        for k in E.keys_of(self.map):
            if k[0] == "zone":
                continue
            b = E.geometry_bounds(k, E.geometry(self.map, k))
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                hits.append(k)
        hits = self.with_groups(hits)
        self.selection = (self.selection + [k for k in hits if k not in self.selection]) if d.add else hits
        self._refresh_form()

    # --- tools: placing, drawing runs ---------------------------------------------------------
    def _pick_palette(self, text: str) -> None:
        action = self.palette.action_of(text)
        if action is None:
            self.palette.clear()
            return
        if action[0] == "mission":
            self.apply(("mission", action[1]))
            self.palette.clear()
            return
        self.tool = action
        self.tool_angle = 0.0
        self.run_points = []
        self._ghost_cache = None
        words = {"template": "click the table to place it (R turns it; Shift keeps placing; Esc stops)",
                 "marker": "click the table to place it", "zone": "click the table: a zone as wide as one grid "
                 "square and a fifth of the table (drag its corners to shape it)",
                 "run": "click point by point; Enter or a right click ends the run; Esc stops"}
        self.say(f"{text}: {words[action[0]]}")

    def _end_tool(self) -> None:
        self.tool = None
        self.run_points = []
        self._ghost_cache = None
        self.palette.clear()

    def _snap_point(self, w, mods):
        if mods & pygame.KMOD_ALT or not self.snap_on:
            return w
        return (SN.snap(w[0], self.grid), SN.snap(w[1], self.grid))

    def place_template(self, tid: str, at, degrees: float = 0.0) -> bool:
        t, unit = self.catalog.template(tid)
        pieces = place_template(t, unit, self.map, at, degrees)
        if self.apply(E.AddPieces(pieces)):
            self.selection = self.with_groups([("piece", pieces[0].id)])
            self._refresh_form()
            return True
        return False

    def _tool_click(self, w, mods) -> None:
        kind = self.tool[0]
        at = self._snap_point(w, mods)
        keep = bool(mods & pygame.KMOD_SHIFT)
        if kind == "template":
            self.place_template(self.tool[1], at, self.tool_angle)
        elif kind == "marker":
            grp = self.tool[1]
            lst = self.map.objectives if grp == "objective" else self.map.evac_points
            mid = E.new_id({m.id for m in lst}, "objective" if grp == "objective" else "evac")
            if self.apply(E.AddMarkers(grp, (Marker(id=mid, at=at),))):
                self.selection = [(grp, mid)]
                self._refresh_form()
        elif kind == "zone":
            side = self.tool[1]
            wdt, hgt = self.map.width / 5, self.map.height / 5
            x0, y0 = min(max(0.0, at[0]), self.map.width - wdt), min(max(0.0, at[1]), self.map.height - hgt)
            z = Zone(side=side, points=S.rect(x0, y0, x0 + wdt, y0 + hgt))
            if self.apply(E.AddZones((z,))):
                self.selection = [("zone", len(self.map.deployment) - 1)]
                self._refresh_form()
        elif kind == "run":
            if self.run_points and math.dist(self.run_points[-1], at) < 1e-9:
                self._finish_run()
                return
            self.run_points.append(at)
            return
        if not keep:
            self._end_tool()

    def _finish_run(self) -> None:
        pts = self.run_points
        self.run_points = []
        if len(pts) < 2:
            self._end_tool()
            return
        kind = self.tool[1]
        thick = {"wall": 0.5, "fence": 0.2, "hedge": 0.8, "barricade": 0.6}[kind] * 25.4 / self.map.mm_per_unit
        taken = {p.id for p in self.map.pieces}
        grp = E.new_id({p.group for p in self.map.pieces if p.group}, f"{kind}-run")
        pieces = []
        for a, b in zip(pts, pts[1:]):
            if math.dist(a, b) <= 0:
                continue
            pid = E.new_id(taken, kind)
            taken.add(pid)
            pieces.append(Piece(id=pid, kind=kind, name=f"{kind.title()} run", group=grp if len(pts) > 2 else None,
                                shape=WallShape(a=a, b=b, thickness=round(thick, 4))))
        if pieces and self.apply(E.AddPieces(tuple(pieces))):
            self.selection = [("piece", p.id) for p in pieces]
            self._refresh_form()
        self._end_tool()

    # --- editing commands ---------------------------------------------------------------------
    def undo(self) -> None:
        e = self.stack.undo()
        if e is None:
            self.say("nothing to undo")
            return
        self.say(f"undone: {e.describe()[:140]}")
        self._map_changed()

    def redo(self) -> None:
        e = self.stack.redo()
        if e is None:
            self.say("nothing to redo")
            return
        self.say(f"redone: {e.describe()[:140]}")
        self._map_changed()

    def delete_selection(self) -> None:
        if not self.selection:
            return
        parts = []
        ids = tuple(k[1] for k in self.selection if k[0] == "piece")
        if ids:
            parts.append(E.DeletePieces(ids))
        marks = tuple(k for k in self.selection if k[0] in ("objective", "evac"))
        if marks:
            parts.append(E.DeleteMarkers(marks))
        zones = tuple(k[1] for k in self.selection if k[0] == "zone")
        if zones:
            parts.append(E.DeleteZones(zones))
        if self.apply(E.Compound(tuple(parts), f"delete {len(self.selection)} item(s)")):
            self.selection = []
            self._refresh_form()

    def copy(self) -> None:
        self.clipboard = [E.get_piece(self.map, k[1]) for k in self.selection if k[0] == "piece"]
        self.say(f"copied {len(self.clipboard)} piece(s)" if self.clipboard else "select pieces to copy", not self.clipboard)

    def paste(self, at=None, offset=None) -> bool:
        if not self.clipboard:
            self.say("nothing to paste", error=True)
            return False
        b = S.bounds_of(S.bounds(p.shape) for p in self.clipboard)
        if offset is not None:
            dx, dy = offset
        elif at is not None:
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            tx, ty = self._snap_point(at, pygame.key.get_mods())
            dx, dy = tx - cx, ty - cy
            if self.snap_on:                 # the lower left corner on the grid
                dx = SN.snap(b[0] + dx, self.grid) - b[0]
                dy = SN.snap(b[1] + dy, self.grid) - b[1]
        else:
            dx = dy = 2 * self.grid
        taken = {p.id for p in self.map.pieces}
        groups = {}
        gtaken = {p.group for p in self.map.pieces if p.group}
        new = []
        for p in self.clipboard:
            pid = E.new_id(taken, p.id)
            taken.add(pid)
            upd = {"id": pid, "shape": S.translate(p.shape, dx, dy), "locked": None}
            if p.group:
                if p.group not in groups:
                    groups[p.group] = E.new_id(gtaken, p.group)
                    gtaken.add(groups[p.group])
                upd["group"] = groups[p.group]
            new.append(p.model_copy(update=upd))
        if self.apply(E.AddPieces(tuple(new))):
            self.selection = [("piece", p.id) for p in new]
            self._refresh_form()
            return True
        return False

    def duplicate(self) -> None:
        saved = self.clipboard
        self.clipboard = [E.get_piece(self.map, k[1]) for k in self.selection if k[0] == "piece"]
        if self.clipboard:
            self.paste(offset=(2 * self.grid, -2 * self.grid))
        self.clipboard = saved

    def _insert_vertex_at(self, pos) -> None:
        if len(self.selection) != 1 or not self.table_rect.collidepoint(pos):
            return
        k = self.selection[0]
        g = E.geometry(self.map, k)
        if not (k[0] == "zone" or isinstance(g, PolygonShape)):
            self.say("only polygons and zones take new corners", error=True)
            return
        pts = list(g) if k[0] == "zone" else [tuple(p) for p in g.points]
        w = self._world(pos)
        best = min(range(len(pts)), key=lambda i: SN.seg_point(w, pts[i], pts[(i + 1) % len(pts)])[0])
        self.apply(E.InsertVertex(k, best + 1, self._snap_point(w, pygame.key.get_mods())))

    def _delete_vertex_at(self, pos) -> None:
        v = self._vertex_at(pos)
        if v is not None:
            self.apply(E.DeleteVertex(*v))

    # --- files --------------------------------------------------------------------------------
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
            self.app.quit()

    def request_quit(self) -> bool:
        if not self.doc.dirty:
            return True
        if self.dialog is None:
            self.confirm_discard("quit")
        return False

    def leave(self) -> None:
        from .launcher import LauncherScene

        self.app.switch(LauncherScene(self.app))

    # --- play, balance, sheet -------------------------------------------------------------------
    def play(self) -> None:
        problems = E.save_problems(self.map)
        if problems:
            self.save_lines = [f"{self.map.id}: {f or '(map)'}: {r}" for f, r in problems]
            self.say("this layout cannot be played yet: " + self.save_lines[0], error=True)
            return
        from .launcher import LauncherScene

        self.app.switch(LauncherScene(self.app, extra_map=self.map, editor=self))

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

    def make_sheet(self) -> None:
        from game.editor.balance import write_sheet

        for line in write_sheet(self.map):
            self.say(line)

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
        self.messages = [m for m in self.messages if m[1] > self.t]

    def draw(self, screen) -> None:
        t0 = time.perf_counter()
        screen.fill((28, 24, 20))
        tsurf = screen.subsurface(self.table_rect)
        self.renderer.draw(tsurf, self.cam, now=self.t)
        local_rect = self._table_screen_rect()
        self.overlay.draw(tsurf, local_rect, self.live, self.cam.to_screen)
        self._draw_drag(tsurf)
        self._draw_selection(tsurf)
        self._draw_tool(tsurf)
        self._draw_status(screen)
        self._draw_analysis(screen)
        if self.show_help:
            self._draw_help(screen)
        self.frame_ms.append((time.perf_counter() - t0) * 1000)
        if len(self.frame_ms) > 600:
            del self.frame_ms[:300]

    def _table_screen_rect(self) -> pygame.Rect:
        x0, y0 = self.cam.to_screen(0, self.map.height)
        x1, y1 = self.cam.to_screen(self.map.width, 0)
        return pygame.Rect(round(x0), round(y0), max(1, round(x1 - x0)), max(1, round(y1 - y0)))

    def _draw_drag(self, surf) -> None:
        d = self.drag
        if d is None or not d.active:
            return
        cam = self.cam
        if d.kind == "box":
            end = getattr(d, "end_world", d.start_world)
            a, b = cam.to_screen(*d.start_world), cam.to_screen(*end)
            r = pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(a[0] - b[0]), abs(a[1] - b[1]))
            pygame.draw.rect(surf, (255, 230, 150), r, 1)
            return
        if d.kind == "pan":
            return
        if d.kind == "move":
            mode = self.stack.symmetry
            fx, fy = MIRROR_DELTA.get(mode, (1, 1))
            twins = set(d.twin.values())
            pdx, pdy = E.project_move(mode, d.dx, d.dy) if mode else (d.dx, d.dy)
            groups: dict = {}
            for p in d.floating:
                k = ("piece", p.id)
                off = (d.dx * fx, d.dy * fy) if k in twins else (pdx, pdy) if k in d.selfs else (d.dx, d.dy)
                groups.setdefault(off, []).append(p)
            for (ox, oy), ps in groups.items():
                self.renderer.draw_floating(surf, cam, ps, ox, oy)
            for k in d.moving:
                if k[0] == "piece":
                    continue
                off = (d.dx * fx, d.dy * fy) if k in twins else (d.dx, d.dy)
                self._draw_item_ghost(surf, k, off)
            for axis, v in d.guides:
                if axis == "x":
                    x = cam.to_screen(v, 0)[0]
                    pygame.draw.line(surf, (80, 220, 255), (x, 0), (x, surf.get_height()), 1)
                else:
                    y = cam.to_screen(0, v)[1]
                    pygame.draw.line(surf, (80, 220, 255), (0, y), (surf.get_width(), y), 1)
            self._draw_measures(surf, d.measures)
        else:
            if d.floating:
                self.renderer.draw_floating(surf, cam, d.floating)
            if d.preview is not None:
                for k in d.moving:
                    if k[0] != "piece":
                        self._draw_item_ghost(surf, k, (0, 0), d.preview)
            if getattr(d, "problem", ""):
                lab = font(15).render(d.problem[:90], True, (255, 150, 130))
                surf.blit(lab, (10, 10))
            if d.kind == "rotate" and d.value is not None:
                lab = font(17, True).render(f"{d.value:+.1f}\u00b0", True, (255, 240, 190))
                surf.blit(lab, (self.mouse[0] - self.table_rect.x + 14, self.mouse[1] - self.table_rect.y - 10))
            elif d.kind == "scale" and d.value is not None:
                lab = font(17, True).render(f"x{d.value:.2f}", True, (255, 240, 190))
                surf.blit(lab, (self.mouse[0] - self.table_rect.x + 14, self.mouse[1] - self.table_rect.y - 10))

    def _draw_item_ghost(self, surf, k, off, m=None) -> None:
        g = E.geometry(m or self.map, k)
        if k[0] == "zone":
            pts = [self.cam.to_screen(x + off[0], y + off[1]) for x, y in g]
            pygame.draw.polygon(surf, (255, 240, 180), pts, 2)
        else:
            self._draw_marker(surf, (g[0] + off[0], g[1] + off[1]), k[0])

    def _draw_marker(self, surf, at, group: str) -> None:
        c = self.cam.to_screen(*at)
        r = max(7.0, 20.0 / self.map.mm_per_unit * self.cam.scale)
        pygame.draw.circle(surf, (236, 190, 60) if group == "objective" else (70, 190, 110), c, r)
        pygame.draw.circle(surf, (40, 30, 10), c, r, 2)

    def _draw_measures(self, surf, measures) -> None:
        unit = '"' if self.map.unit == "in" else f" {self.map.unit}"
        for ms in measures:
            a, b = self.cam.to_screen(*ms.a), self.cam.to_screen(*ms.b)
            col = (255, 255, 255) if ms.what == "edge" else (255, 210, 120)
            pygame.draw.line(surf, (0, 0, 0), a, b, 3)
            pygame.draw.line(surf, col, a, b, 1)
            txt = f"{ms.length:.1f}{unit}"
            lab = self._text(txt, 14, True, col)
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            back = pygame.Rect(0, 0, lab.get_width() + 6, lab.get_height() + 2)
            back.center = mid
            pygame.draw.rect(surf, (20, 16, 12), back, border_radius=3)
            surf.blit(lab, lab.get_rect(center=mid))

    def _draw_selection(self, surf) -> None:
        cam = self.cam
        moving = self.drag.moving if (self.drag is not None and self.drag.active and hasattr(self.drag, "moving")) else set()
        for p in self.map.pieces:
            if p.locked and ("piece", p.id) not in moving:
                c = cam.to_screen(*S.centre(p.shape))
                lab = self._text("\u25a0 locked", 12, True, (255, 200, 120))
                surf.blit(lab, lab.get_rect(center=c))
        if not self.selection or (moving and self.drag.kind == "move"):
            return
        geoms = {q.piece.id: q for q in self.renderer.geoms}
        for k in self.selection:
            if k in moving:
                continue
            g = E.geometry(self.map, k)
            if k[0] == "piece":
                if k[1] in geoms:
                    self.renderer.outline(surf, cam, geoms[k[1]], (255, 225, 120), 2)
            elif k[0] == "zone":
                pygame.draw.polygon(surf, (255, 240, 180), [cam.to_screen(*p) for p in g], 3)
            else:
                r = max(7.0, 20.0 / self.map.mm_per_unit * cam.scale) + 4
                pygame.draw.circle(surf, (255, 225, 120), cam.to_screen(*g), r, 2)
        b = self._selection_box()
        if b is None or (self.drag is not None and self.drag.active and self.drag.kind in ("rotate", "scale", "vertex")):
            return
        x0, y0 = cam.to_screen(b[0], b[3])
        x1, y1 = cam.to_screen(b[2], b[1])
        r = pygame.Rect(round(x0) - 3, round(y0) - 3, round(x1 - x0) + 6, round(y1 - y0) + 6)
        _dashed_rect(surf, (255, 240, 190), r)
        turn = ((x0 + x1) / 2, y0 - 22)
        pygame.draw.line(surf, (255, 240, 190), turn, ((x0 + x1) / 2, y0 - 3), 1)
        pygame.draw.circle(surf, (40, 30, 20), turn, HANDLE_PX)
        pygame.draw.circle(surf, (255, 220, 120), turn, HANDLE_PX - 2)
        sq = pygame.Rect(0, 0, 2 * HANDLE_PX, 2 * HANDLE_PX)
        sq.center = (x1 + 8, y1 + 8)
        pygame.draw.rect(surf, (40, 30, 20), sq)
        pygame.draw.rect(surf, (255, 220, 120), sq.inflate(-4, -4))
        vt = self._vertex_target()
        if vt is not None:
            for p in vt[1]:
                c = cam.to_screen(*p)
                pygame.draw.circle(surf, (20, 20, 20), c, HANDLE_PX - 1)
                pygame.draw.circle(surf, (120, 230, 255), c, HANDLE_PX - 3)

    def _draw_tool(self, surf) -> None:
        if not self.tool or not self.table_rect.collidepoint(self.mouse):
            return
        w = self._world(self.mouse)
        at = self._snap_point(w, pygame.key.get_mods())
        kind = self.tool[0]
        if kind == "template":
            key = (self.tool[1], self.tool_angle, id(self.map.unit))
            if self._ghost_cache is None or self._ghost_cache[0] != key:
                t, unit = self.catalog.template(self.tool[1])
                self._ghost_cache = (key, place_template(t, unit, self.map, (0.0, 0.0), self.tool_angle))
            self.renderer.draw_floating(surf, self.cam, self._ghost_cache[1], at[0], at[1])
        elif kind == "marker":
            self._draw_marker(surf, at, self.tool[1])
        elif kind == "run":
            pts = self.run_points + [at]
            if len(pts) >= 2:
                pygame.draw.lines(surf, (255, 230, 160), False, [self.cam.to_screen(*p) for p in pts], 3)
            for p in self.run_points:
                pygame.draw.circle(surf, (255, 230, 160), self.cam.to_screen(*p), 4)
        c = self.cam.to_screen(*at)
        pygame.draw.line(surf, (255, 255, 255), (c[0] - 6, c[1]), (c[0] + 6, c[1]))
        pygame.draw.line(surf, (255, 255, 255), (c[0], c[1] - 6), (c[0], c[1] + 6))

    def _text(self, text, size=15, bold=False, colour=(236, 228, 210)):
        key = ("t", text, size, bold, colour)
        s = self._memo.get(key)
        if s is None:
            if len(self._memo) > 400:
                self._memo.clear()
            s = self._memo[key] = font(size, bold).render(text, True, colour)
        return s

    def _wrap(self, lines, size, width) -> list[str]:
        """``lines`` broken at spaces to fit ``width`` pixels (kept per text: drawn every frame)."""
        key = ("wrap", tuple(lines), size, width)
        got = self._memo.get(key)
        if got is None:
            f = font(size)
            got = []
            for line in lines:
                cur = ""
                words = []
                for word in line.split(" "):
                    while f.size(word)[0] > width and len(word) > 8:    # a path longer than the panel
                        k = max(8, int(len(word) * width / f.size(word)[0]) - 1)
                        words.append(word[:k])
                        word = word[k:]
                    words.append(word)
                for word in words:
                    cand = f"{cur} {word}".strip()
                    if cur and f.size(cand)[0] > width:
                        got.append(cur)
                        cur = word
                    else:
                        cur = cand
                got.append(cur)
            self._memo[key] = got
        return got

    def _draw_status(self, screen) -> None:
        r = self.status_rect
        pygame.draw.rect(screen, (22, 18, 15), r)
        m = self.map
        sym = self.stack.symmetry
        score = symmetry_line(self.live.metrics, sym) if (self.live and self.live.metrics) else "..."
        parts = [self.doc.title(), f"{m.width:g}x{m.height:g} {m.unit}, {len(m.pieces)} pieces",
                 f"symmetry: {score}"]
        if self.table_rect.collidepoint(self.mouse):
            x, y = self._world(self.mouse)
            parts.append(f"({x:.1f}, {y:.1f})")
        screen.blit(self._text("   |   ".join(parts), 14), (r.x + 8, r.y + 4))
        y = self.table_rect.bottom - 8
        for text, until, err in reversed(self.messages):
            lab = self._text(text[:150], 15, False, (255, 160, 140) if err else (240, 232, 214))
            back = pygame.Rect(self.table_rect.right - lab.get_width() - 20, y - lab.get_height() - 4,
                               lab.get_width() + 12, lab.get_height() + 4)
            pygame.draw.rect(screen, (30, 22, 16), back, border_radius=4)
            screen.blit(lab, (back.x + 6, back.y + 2))
            y = back.y - 3

    def _draw_analysis(self, screen) -> None:
        r = self.analysis_rect
        pygame.draw.rect(screen, (36, 30, 25), r)
        x, y = r.x + 10, r.y + 6
        if self.form.problem:
            screen.blit(self._text(self.form.problem[:52], 14, True, (255, 150, 130)), (x, y))
            y += 20
        for line in self._wrap(self.save_lines[:3], 13, PANEL_W - 20)[:6]:
            screen.blit(self._text(line, 13, False, (255, 150, 130)), (x, y))
            y += 17
        lv = self.live
        busy = " (updating...)" if self.analysis.busy else ""
        if lv is None:
            screen.blit(self._text("Sight analysis" + (busy or ": waiting"), 15, True), (x, y))
            return
        head = f"Sight, {'2' if lv.coarse else '1'}\" grid{busy}"
        screen.blit(self._text(head, 15, True), (x, y))
        y += 20
        if lv.error:
            screen.blit(self._text(lv.error[:56], 13, False, (255, 150, 130)), (x, y))
            return
        if lv.metrics.get("missing_sides"):
            screen.blit(self._text(f"no zone for side {lv.metrics['missing_sides'][0]} yet", 13, False,
                                   (255, 190, 120)), (x, y))
            y += 17
        base = self.baseline.metrics if self.baseline is not None else None
        screen.blit(self._text("side 1 / side 2, and since the last save", 12, False, (180, 170, 150)), (x, y))
        y += 17
        for label, a, b, d in figure_rows(lv.metrics, base):
            screen.blit(self._text(label, 14), (x, y))
            val = a if not b else f"{a} / {b}"
            screen.blit(self._text(val, 14, True), (x + 160, y))
            dt = diff_text(d)
            if dt:
                col = (255, 170, 80) if d > 0 else (120, 180, 255)
                screen.blit(self._text(dt, 14, True, col), (x + 270, y))
            y += 18
        y += 4
        # the generator's lines, then the balance test's, above whichever progress bars show
        floor = min((b.rect.top for b in (self.progress, self.gen_progress) if b is not None), default=r.bottom) - 4
        for lines, col in ((self.generate_lines[:5], (200, 225, 250)), (self.balance_lines[:4], (220, 235, 200))):
            for line in self._wrap(lines, 13, PANEL_W - 20)[:8]:
                if y + 17 > floor:
                    return
                screen.blit(self._text(line, 13, False, col), (x, y))
                y += 17

    def _draw_help(self, screen) -> None:
        w = 760
        h = 26 * len(HELP) + 20
        box = pygame.Surface((w, h), pygame.SRCALPHA)
        box.fill((20, 16, 12, 235))
        for i, line in enumerate(HELP):
            box.blit(font(17 if i == 0 else 14, i == 0).render(line, True, (240, 232, 214)), (14, 10 + 26 * i))
        screen.blit(box, box.get_rect(center=self.table_rect.center))

    def close(self) -> None:
        if self.doc.dirty:
            self.doc.autosave()          # leaving for the launcher or a game: keep the draft
        self.analysis.close()
        if not self.app.running:         # the window is closing (Play comes back: its run goes on)
            self.stop_children()

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


def _without(m, keys):
    """``m`` without the items ``keys`` (what the table image shows while they are dragged)."""
    gone = {k[1] for k in keys if k[0] == "piece"}
    objs = {k[1] for k in keys if k[0] == "objective"}
    evac = {k[1] for k in keys if k[0] == "evac"}
    zones = {k[1] for k in keys if k[0] == "zone"}
    return m.model_copy(update={
        "pieces": [p for p in m.pieces if p.id not in gone],
        "objectives": [o for o in m.objectives if o.id not in objs],
        "evac_points": [o for o in m.evac_points if o.id not in evac],
        "deployment": [z for i, z in enumerate(m.deployment) if i not in zones]})


def _dashed_rect(surf, colour, r: pygame.Rect, dash: int = 6) -> None:
    for (ax, ay), (bx, by) in (((r.left, r.top), (r.right, r.top)), ((r.right, r.top), (r.right, r.bottom)),
                               ((r.right, r.bottom), (r.left, r.bottom)), ((r.left, r.bottom), (r.left, r.top))):
        L = max(1, int(math.hypot(bx - ax, by - ay)))
        for s in range(0, L, 2 * dash):
            e = min(L, s + dash)
            pygame.draw.line(surf, colour, (ax + (bx - ax) * s / L, ay + (by - ay) * s / L),
                             (ax + (bx - ax) * e / L, ay + (by - ay) * e / L), 1)
