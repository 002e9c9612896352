"""The editor's panels that take input (``game.kit.Panel``): the tool bar, the catalog (palette),
the properties form and the dialogs (a modal). Each owns its pygame_gui elements and turns their
events into values the scene applies in one place (``TableInput.perform``): an ``Edit`` for the
document's stack (or a list of them), or a ``Command(name, arg)`` intent. None of them reads
or changes the document.
"""
from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from game.editor.generate_dialog import GenerateDialog
from game.editor.layout import SYMMETRY_CHOICES
from game.editor.panels import ChoiceDialog, Palette, PropertyForm
from game.kit.intents import Command
from game.kit.panel import TAKEN, Panel

E_ = pygame_gui.elements
OVERLAY_MODES = ("off", "openness", "hidden 1", "hidden 2", "lanes")
DROPDOWNS = ("grid_dd", "sym_dd", "overlay_dd")


def symmetry_label(mode) -> str:
    return next(k for k, v in SYMMETRY_CHOICES.items() if v == mode)


class ToolbarPanel(Panel):
    """The tool bar: buttons (each a ``Command`` of its key) and the grid, symmetry and overlay
    menus (``Command("grid", label)``, ``Command("symmetry", mode)``, ``Command("overlay", mode)``)."""

    # the menus, made from ``items`` by their keys
    grid_dd: pygame_gui.elements.UIDropDownMenu
    sym_dd: pygame_gui.elements.UIDropDownMenu
    overlay_dd: pygame_gui.elements.UIDropDownMenu

    def __init__(self, ui, width: int, grid_labels, grid_now: str, symmetry, overlay: str):
        super().__init__()
        self.ui = ui
        items: list[tuple[str, Any, int, Any]] = [     # key, text (a menu's: its choices), width, tip (a menu's: its choice)
            ("new", "New", 44, "Ctrl+N: a new empty table"), ("open", "Open", 48, "Ctrl+O: open a map file"),
            ("save", "Save", 44, "Ctrl+S: save (validated first)"), ("saveas", "Save as", 62, "Ctrl+Shift+S"),
            ("undo", "Undo", 46, "Ctrl+Z"), ("redo", "Redo", 46, "Ctrl+Y"),
            ("snap", "Snap: on", 72, "G: snap to the grid and 15-degree turns (hold Alt to place freely)"),
            # the menus as wide as their longest choice ('Grid 0.25"', "Symmetry: mirror |")
            ("grid_dd", list(grid_labels), 100, grid_now),
            ("sym_dd", list(SYMMETRY_CHOICES), 160, symmetry_label(symmetry)),
            ("overlay_dd", [f"Overlay: {m}" for m in OVERLAY_MODES], 156, f"Overlay: {overlay}"),
            ("play", "Play", 42, "play this layout: the launcher with this map"),
            ("generate", "Generate", 86, "fill the table toward sight targets, in the background (locked pieces, "
                                         "table, zones and objectives kept; one undo step)"),
            ("balance", "Test balance", 96, "AI games on this layout in the background: the table's effect"),
            ("sheet", "Sheet", 50, "a printable setup sheet (PDF and PNG) of this layout"),
            ("import", "Import", 58, "import a Carltographer layout (JSON)"),
            ("menu", "Menu", 50, "back to the launcher"),
            ("help", "?", 26, "F1: the controls"),
        ]
        # each as wide as its longest text and a margin; one row at 1280 pixels, a second row
        # where the window is too narrow for one (1024 pixels holds about four fifths of it)
        from game.editor.layout import TOOLBAR_ROW

        self.buttons: dict = {}
        x, y = 4, 5
        for key, what, w, extra in items:
            if x + w > width - 4:
                x, y = 4, y + TOOLBAR_ROW
            r = pygame.Rect(x, y, w, 30)
            if key.endswith("_dd"):
                setattr(self, key, E_.UIDropDownMenu(what, extra, r, self.ui))
            else:
                self.buttons[key] = E_.UIButton(r, what, self.ui, tool_tip_text=extra)
            x += w + 4
        self.bottom = y + 35
        self.layout(pygame.Rect(0, 0, width, self.bottom))

    def hush_tips(self) -> None:
        """No button's tooltip while a dialog is open: pygame_gui keeps the tooltip of the button
        under a mouse that has not moved (the one that opened the dialog) and makes it again after
        its delay, drawn over the dialog (issue 58). Called each frame the dialog is open: the
        delay starts again each time, so none is made; once the dialog closes they come back."""
        for b in self.buttons.values():
            if b.tool_tip is not None:
                b.tool_tip.kill()
                b.tool_tip = None
            b.hover_time = 0.0

    def handle(self, ev):
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, b in self.buttons.items():
                if ev.ui_element is b:
                    return Command(key)
        elif ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if ev.ui_element is self.sym_dd:
                return Command("symmetry", SYMMETRY_CHOICES[ev.text])
            if ev.ui_element is self.overlay_dd:
                return Command("overlay", ev.text.split(": ", 1)[1])
            if ev.ui_element is self.grid_dd:
                return Command("grid", ev.text)
        return None

    def show_symmetry(self, mode) -> None:
        """The symmetry menu showing ``mode`` (after the M key changed it)."""
        r = self.sym_dd.relative_rect
        self.sym_dd.kill()
        self.sym_dd = E_.UIDropDownMenu(list(SYMMETRY_CHOICES), symmetry_label(mode), r, self.ui)

    def show_overlay(self, mode: str) -> None:
        r = self.overlay_dd.relative_rect
        self.overlay_dd.kill()
        self.overlay_dd = E_.UIDropDownMenu([f"Overlay: {m}" for m in OVERLAY_MODES], f"Overlay: {mode}", r, self.ui)


class CatalogPanel(Panel):
    """The catalog (``panels.Palette``): a pick returns ``Command("tool", (action, text))`` for a
    placing tool, or the mission's edit (``("mission", id)``); a dropped pick ``Command("end_tool")``."""

    def __init__(self, ui, rect, catalog):
        super().__init__(rect)
        self.palette = Palette(ui, pygame.Rect(rect), catalog)

    def handle(self, ev):
        if getattr(ev, "ui_element", None) is not self.palette.list:
            return None
        if ev.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            action = self.palette.action_of(ev.text)
            if action is None:
                self.palette.clear()
                return TAKEN
            if action[0] == "mission":
                self.palette.clear()
                return [("mission", action[1])]
            return Command("tool", (action, ev.text))
        if ev.type == pygame_gui.UI_SELECTION_LIST_DROPPED_SELECTION:
            return Command("end_tool")
        return None


class PropertiesPanel(Panel):
    """The properties (inspector) form of the selection (``panels.PropertyForm``): a field is
    checked as it is typed (``preview``: the stack's, read only) and returns
    ``Command("commit_field", element)`` when finished; a menu's choice ``Command("form_choice",
    edit)``; a button its edit. While a field has the keyboard, keys are the field's (Esc:
    ``Command("refresh_form")``, back to what it showed)."""

    wants_keys = True

    def __init__(self, ui, rect, missions, preview):
        super().__init__(rect)
        self.form = PropertyForm(ui, pygame.Rect(rect), missions)
        self.preview = preview

    def handle(self, ev):
        form = self.form
        if ev.type == pygame.KEYDOWN:
            if form.focused_entry() is None:
                return None
            return Command("refresh_form") if ev.key == pygame.K_ESCAPE else TAKEN
        el = getattr(ev, "ui_element", None)
        if ev.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and el in form.fields:
            self.check(el)
            return TAKEN
        if ev.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and el in form.fields:
            return Command("commit_field", el)
        if ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and el in form.dropdowns:
            what = form.edit_for_choice(form.dropdowns[el], ev.text)
            return Command("form_choice", what) if what is not None else TAKEN
        if ev.type == pygame_gui.UI_BUTTON_PRESSED and el in form.buttons:
            return [form.edit_for_button(form.buttons[el])]
        return None

    def check(self, el) -> None:
        """The field's text as an edit, previewed: its problem shown as it is typed."""
        from engine.workshop import edits as E

        name = self.form.fields[el]
        try:
            edit = self.form.edit_for_text(name, el.get_text())
            if edit is not None:
                self.preview(edit)
            self.form.problem = ""
        except (ValueError, E.EditRefused) as err:
            self.form.problem = f"{name.split('.')[-1]}: {err}"


class DialogPanel(Panel):
    """The open dialog, a modal (Unsaved changes, Generate, a file dialog for Open, Import and
    Save as): while one is open it takes every event. An answer returns
    ``Command("answer", (kind, answer))`` or ``Command("start_generate", settings)``; a dialog
    closed by its window's button or by Esc is dropped unanswered."""

    modal = True

    def __init__(self):
        super().__init__()
        self.dialog = None
        self.kind = ""
        self.visible = False

    def open(self, dialog, kind: str) -> None:
        self.dialog, self.kind = dialog, kind
        self.visible = dialog is not None

    def close(self) -> None:
        self.dialog = None
        self.visible = False

    def handle(self, ev):
        d = self.dialog
        if d is None:
            return None
        if isinstance(d, (GenerateDialog, ChoiceDialog)):
            a = self._answer(d, ev)
            if a is None:
                return TAKEN
            if isinstance(d, ChoiceDialog):
                return Command("answer", (self.kind, a))
            return Command("start_generate", a[1]) if a[0] == "generate" else TAKEN
        # a file dialog (its path arrives through the editor's ``files.picked_path``, open or not)
        if (ev.type == pygame_gui.UI_WINDOW_CLOSE and ev.ui_element is d) or \
                (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
            if d.alive():
                d.kill()
            self.close()
        elif not d.alive():
            self.close()
        return TAKEN

    def _answer(self, d, ev):
        if not d.alive():
            self.close()
            return None
        a = d.answer(ev)
        if a is not None:
            self.close()
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            d.kill()
            self.close()
        return a
