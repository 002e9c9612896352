"""The Generate dialog: symmetry, the two sight targets and the seed, checked before anything
starts (``generation.settings_from_texts``: the command's own reasons)."""
from __future__ import annotations

import pygame
import pygame_gui

from game.editor.generation import GenerateSettings, settings_from_texts

E_ = pygame_gui.elements
SYMMETRY_TEXTS = {"none": None, "mirror | (left-right)": "mirror_x", "mirror - (top-bottom)": "mirror_y",
                  "point (180-degree turn)": "point"}
KEPT = ("A search fills the table with the catalog's templates toward these sight targets. It keeps "
        "the locked pieces, the table's size and unit, the zones and the objectives, and replaces the "
        "other pieces in one step (Ctrl+Z undoes it).")


class GenerateDialog:
    """``answer(ev)``: None while open; ("generate", settings) or ("cancel", None) once answered."""

    def __init__(self, ui, centre, settings: GenerateSettings):
        r = pygame.Rect(0, 0, 480, 424)
        r.center = centre
        self.window = pygame_gui.elements.UIWindow(r, ui, window_display_title="Generate a layout")
        w = self.window.get_container().get_rect().width
        c = self.window
        E_.UITextBox(KEPT, pygame.Rect(8, 6, w - 16, 124), ui, container=c)
        y = 136
        sym = next(k for k, v in SYMMETRY_TEXTS.items() if v == settings.symmetry)
        E_.UILabel(pygame.Rect(8, y, 170, 30), "Symmetry", ui, container=c)
        self.symmetry = E_.UIDropDownMenu(list(SYMMETRY_TEXTS), sym, pygame.Rect(184, y, w - 192, 30), ui, container=c)
        y += 38
        E_.UILabel(pygame.Rect(8, y, 170, 30), "Line of sight %", ui, container=c)
        self.los = E_.UITextEntryLine(pygame.Rect(184, y, 80, 30), ui, container=c, initial_text=f"{settings.los:g}")
        E_.UILabel(pygame.Rect(268, y, 30, 30), "+-", ui, container=c)
        self.tol = E_.UITextEntryLine(pygame.Rect(302, y, 70, 30), ui, container=c, initial_text=f"{settings.los_tol:g}")
        E_.UILabel(pygame.Rect(376, y, 60, 30), "points", ui, container=c)
        y += 38
        E_.UILabel(pygame.Rect(8, y, 170, 30), "Zones' hideable %", ui, container=c)
        E_.UILabel(pygame.Rect(184, y, 110, 30), "apart at most", ui, container=c)
        self.hide = E_.UITextEntryLine(pygame.Rect(302, y, 70, 30), ui, container=c,
                                       initial_text=f"{settings.hide_within:g}")
        E_.UILabel(pygame.Rect(376, y, 60, 30), "points", ui, container=c)
        y += 38
        E_.UILabel(pygame.Rect(8, y, 170, 30), "Seed", ui, container=c)
        self.seed = E_.UITextEntryLine(pygame.Rect(184, y, 110, 30), ui, container=c, initial_text=str(settings.seed))
        y += 36
        self.problem = E_.UILabel(pygame.Rect(8, y, w - 16, 26), "", ui, container=c,
                                  object_id="#reason")
        inner_h = self.window.get_container().get_rect().height
        bw = (w - 24) // 2
        self.go = E_.UIButton(pygame.Rect(8, inner_h - 46, bw, 36), "Generate", ui, container=c)
        self.cancel = E_.UIButton(pygame.Rect(16 + bw, inner_h - 46, bw, 36), "Cancel", ui, container=c)
        self.base = settings

    def alive(self) -> bool:
        return self.window.alive()

    def symmetry_mode(self) -> str | None:
        sel = self.symmetry.selected_option
        text = sel[0] if isinstance(sel, tuple) else sel
        return SYMMETRY_TEXTS.get(text)

    def settings(self) -> GenerateSettings:
        """The fields as settings, or ValueError with the field and the reason."""
        return settings_from_texts(self.symmetry_mode(), self.los.get_text(), self.tol.get_text(),
                                   self.hide.get_text(), self.seed.get_text())

    def answer(self, ev):
        if ev.type == pygame_gui.UI_BUTTON_PRESSED and ev.ui_element is self.cancel:
            self.window.kill()
            return ("cancel", None)
        go = (ev.type == pygame_gui.UI_BUTTON_PRESSED and ev.ui_element is self.go) or \
            (ev.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and ev.ui_element in (self.los, self.tol, self.hide, self.seed))
        if not go:
            return None
        try:
            s = self.settings()
        except ValueError as err:
            self.problem.set_text(str(err)[:90])
            return None
        self.window.kill()
        return ("generate", s)

    def kill(self) -> None:
        self.window.kill()
