"""What the editor's buttons, menus, property form and keys do: each ends in an edit on the
document's stack (or undo, redo, the clipboard, Play, the setup sheet).

A part of ``EditorScene`` (``game/scenes/editor.py``): it reads the scene's widgets
(``buttons``, ``form``, the drop-downs) and state and changes the map only through ``apply``.
"""
from __future__ import annotations

import pygame
import pygame_gui

from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop import snapping as SN
from game.editor.layout import SYMMETRY_CHOICES


class CommandsMixin:
    """The toolbar, the form's fields and menus, and the keys of ``EditorScene``."""

    # --- the property form's fields and the menus ---------------------------------------------
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

    # --- buttons and keys ---------------------------------------------------------------------
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
                self.cancel_drag()
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
            self.select.hover(self._world(self.mouse), self.mouse)
            self.tool_key(self.select, k, ev.mod)
        elif k == pygame.K_INSERT:
            if self.table_rect.collidepoint(self.mouse):
                self.select.hover(self._world(self.mouse), self.mouse)
                self.tool_key(self.select, k, pygame.key.get_mods())
        elif k == pygame.K_ESCAPE:
            if self.show_help:
                self.show_help = False
            elif self.escape_tool():
                pass
            elif self.vertex_mode:
                self.vertex_mode = False
            else:
                self.selection = []
                self._refresh_form()
        elif k == pygame.K_RETURN and self.tool is not None:
            self.tool_key(self.tool, k, ev.mod)
        elif k == pygame.K_r:
            step = -SN.ANGLE_STEP if shift else SN.ANGLE_STEP
            if self.tool is not None:
                self.tool_key(self.tool, k, ev.mod)
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

    # --- play, sheet --------------------------------------------------------------------------
    def play(self) -> None:
        problems = E.save_problems(self.map)
        if problems:
            self.save_lines = [f"{self.map.id}: {f or '(map)'}: {r}" for f, r in problems]
            self.say("this layout cannot be played yet: " + self.save_lines[0], error=True)
            return
        from game.scenes.launcher import LauncherScene

        self.app.switch(LauncherScene(self.app, extra_map=self.map, editor=self))

    def make_sheet(self) -> None:
        from game.editor.balance import write_sheet

        for line in write_sheet(self.map):
            self.say(line)
