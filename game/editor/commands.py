"""What the ``Command`` intents the editor's panels return do (``command(name, arg)`` calls
``cmd_<name>``): the tool bar's buttons and menus, the form's fields, the keys (``keymap``), the
dialogs' answers; each ends in an edit on the document's stack (or undo, redo, the clipboard,
Play, the setup sheet).

A part of ``EditorScene`` (``game/scenes/editor.py``): it changes the map only through ``apply``.
"""
from __future__ import annotations

import pygame

from engine.workshop import edits as E
from engine.workshop import shapes as S
from engine.workshop import snapping as SN
from game.editor.layout import SYMMETRY_CHOICES


class CommandsMixin:
    """The toolbar, the form's fields and menus, and the keys of ``EditorScene``."""

    # --- the property form's fields and the menus ---------------------------------------------
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

    # --- the commands the panels return (``Command(name, arg)``) --------------------------------
    def command(self, key: str, arg=None) -> None:
        """Do the command a panel returned (a button, a menu, a key, the table's drag events)."""
        getattr(self, "cmd_" + key)(arg)

    def cmd_new(self, _):
        self.confirm_discard("new")

    def cmd_open(self, _):
        self.confirm_discard("open")

    def cmd_import(self, _):
        self.confirm_discard("import")

    def cmd_menu(self, _):
        self.confirm_discard("menu")

    def cmd_save(self, _):
        self.save()

    def cmd_saveas(self, _):
        self.open_file_dialog("saveas")

    def cmd_undo(self, _):
        self.undo()

    def cmd_redo(self, _):
        self.redo()

    def cmd_snap(self, _):
        self.snap_on = not self.snap_on
        self.buttons["snap"].set_text(f"Snap: {'on' if self.snap_on else 'off'}")

    def cmd_play(self, _):
        self.play()

    def cmd_balance(self, _):
        self.test_balance()

    def cmd_generate(self, _):
        self.generate()

    def cmd_sheet(self, _):
        self.make_sheet()

    def cmd_help(self, _):
        self.show_help = not self.show_help

    def cmd_symmetry(self, mode):
        self.set_symmetry(mode)

    def cmd_overlay(self, mode):
        self.overlay.mode = mode

    def cmd_grid(self, label):
        for g in self._grid_options():
            if self._grid_label(g) == label:
                self.grid = g

    def cmd_tool(self, arg):
        from game.editor.place_tools import tool_for

        action, text = arg
        self.tool = tool_for(action, self.catalog, self.context())
        self.say(f"{text}: {self.tool.hint}")

    def cmd_end_tool(self, _):
        self._end_tool()

    def cmd_commit_field(self, el):
        self._commit_field(el)

    def cmd_form_choice(self, what):
        self.apply(what)
        self._refresh_form(force=True)

    def cmd_refresh_form(self, _):
        self._refresh_form(force=True)

    def cmd_answer(self, arg):
        self._answer(*arg)

    def cmd_start_generate(self, settings):
        self.start_generate(settings)

    # --- keys (``keymap.command_for_key``) ------------------------------------------------------
    def cmd_copy(self, _):
        self.copy()

    def cmd_paste(self, _):
        self.paste(self._world(self.mouse) if self.table_rect.collidepoint(self.mouse) else None)

    def cmd_duplicate(self, _):
        self.duplicate()

    def cmd_group(self, ungroup):
        ids = [i for kind, i in self.selection if kind == "piece"]
        if ids:
            self.apply(E.ungroup(ids) if ungroup else ("group", ids))

    def cmd_select_all(self, _):
        self.selection = [("piece", p.id) for p in self.map.pieces]
        self._refresh_form()

    def cmd_delete(self, _):
        self.delete_selection()

    def cmd_backspace(self, _):
        if not self.vertex_mode:
            self.delete_selection()
        else:
            self.select.hover(self._world(self.mouse), self.mouse)
            self.tool_key(self.select, pygame.K_BACKSPACE, pygame.key.get_mods())

    def cmd_insert_vertex(self, _):
        if self.table_rect.collidepoint(self.mouse):
            self.select.hover(self._world(self.mouse), self.mouse)
            self.tool_key(self.select, pygame.K_INSERT, pygame.key.get_mods())

    def cmd_escape(self, _):
        if self.show_help:
            self.show_help = False
        elif self.escape_tool():
            pass
        elif self.vertex_mode:
            self.vertex_mode = False
        else:
            self.selection = []
            self._refresh_form()

    def cmd_enter(self, _):
        if self.tool is not None:
            self.tool_key(self.tool, pygame.K_RETURN, 0)

    def cmd_turn(self, back):
        if self.tool is not None:
            self.tool_key(self.tool, pygame.K_r, pygame.KMOD_SHIFT if back else 0)
        elif self.selection:
            self.apply(E.Rotate(tuple(self.selection), -SN.ANGLE_STEP if back else SN.ANGLE_STEP))

    def cmd_lock(self, _):
        ids = [i for kind, i in self.selection if kind == "piece"]
        if ids:
            on = not all(E.get_piece(self.map, i).locked for i in ids)
            self.apply(E.lock(ids, on))

    def cmd_vertex_mode(self, _):
        self.vertex_mode = not self.vertex_mode
        self.say("corner editing " + ("on: drag a corner; Insert adds one, Backspace removes one" if self.vertex_mode else "off"))

    def cmd_cycle_symmetry(self, _):
        modes = list(SYMMETRY_CHOICES.values())
        self.set_symmetry(modes[(modes.index(self.stack.symmetry) + 1) % len(modes)])
        self.toolbar.show_symmetry(self.stack.symmetry)

    def cmd_cycle_overlay(self, _):
        self.overlay.cycle()
        self.say(f"overlay: {self.overlay.mode}")
        self.toolbar.show_overlay(self.overlay.mode)

    def cmd_fit(self, _):
        self.cam = self.renderer.fit_camera(self.table_rect.size, margin_px=24)

    def cmd_nudge(self, arg):
        sx, sy, n = arg
        if self.selection:
            step = self.grid * n
            self.apply(E.Move(tuple(self.selection), sx * step, sy * step), quiet=True)

    def set_symmetry(self, mode) -> None:
        self.stack.symmetry = mode
        if mode:
            left = E.unmatched(self.map, mode)
            self.say(f"symmetry {mode.replace('_', ' ')}: every edit keeps its counterpart in step"
                     + (f"; {len(left)} items have none yet" if left else ""))
        else:
            self.say("symmetry off")

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
        from game.kit.transitions import Switch

        self.go_to(Switch("launcher", {"extra_map": self.map, "editor": self}))

    def make_sheet(self) -> None:
        from game.editor.balance import write_sheet

        for line in write_sheet(self.map):
            self.say(line)
