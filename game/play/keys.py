"""The game screen's keys and buttons: each key or button to the scene's command, and the help
box's list of them (kept beside the keys so the two stay the same).

A part of ``PlayScene`` (``game/scenes/play.py``).
"""
from __future__ import annotations

import pygame

HELP = [
    "Controls",
    "Left click a model: select it (its options fill the list); a second click activates it if that is all it can do",
    "Left click the table with a model selected: move there if the engine allows (Shift+click: jump or throw toward there)",
    "Left drag: tape measure (from a model: base edge to base edge)",
    "Right or middle drag: pan    Wheel: zoom    F: fit the table",
    "1-9: pick the listed option    Tab: next model that may act    Esc: deselect, close a dialog",
    "R: reach preview    V: what the selected model sees    T: threat (what enemies see)",
    "Ctrl+Z: undo (not past dice, a card shown or the other side)    Ctrl+S: save    Ctrl+O: load",
    "Hover an option: what it does and the rule    F2: rules glossary    L: legend    G: suggestions",
    "P: moves end Prone (Counterblast)    H: the game's history    + / -: AI speed    A: animations    M: sound    F1: this help",
]


class KeysMixin:
    """The buttons' commands and the keys of ``PlayScene``."""

    def toggle_help(self) -> None:
        """F1 (or "?"): the controls, drawn over an open glossary or legend (the newest box is on top)."""
        self.show_help = not self.show_help
        self.help_on_top = self.show_help

    def command(self, key: str) -> None:
        if key == "undo":
            self.undo()
        elif key == "save":
            self.save()
        elif key == "load":
            self.open_load()
        elif key == "help":
            self.toggle_help()
        elif key in self.toggles:
            self.toggles[key] = not self.toggles[key]
            self.message = (f"{key} view {'on' if self.toggles[key] else 'off'}", self.t + 2.5)   # not the log
            self._show_toggles()
        elif key == "menu":
            self.confirm_leave()

    def _key(self, ev) -> None:
        ctrl = ev.mod & pygame.KMOD_CTRL
        if ctrl and ev.key == pygame.K_z:
            self.undo()
        elif ctrl and ev.key == pygame.K_s:
            self.save()
        elif ctrl and ev.key == pygame.K_o:
            self.open_load()
        elif ev.key == pygame.K_F1:
            self.toggle_help()
        elif ev.key == pygame.K_F2:
            self.open_reference("glossary")
        elif ev.key == pygame.K_l and not ctrl:
            self.open_reference("legend")
        elif ev.key == pygame.K_h and not ctrl and self.ai_enabled:
            self.open_history()
        elif ev.key == pygame.K_g and not ctrl:
            self.suggest = not self.suggest
            self._last_prompt = None
            self._fill_options()
            self.message = (f"suggestions {'on: the easy agent’s pick is starred, in the list or on the table' if self.suggest else 'off'} (G)",
                            self.t + 3.0)
        elif ev.key in (pygame.K_f, pygame.K_HOME):
            self.cam = self.renderer.fit_camera(self.table_rect.size, margin_px=30)
        elif ev.key == pygame.K_ESCAPE:
            if self.show_help and (self.help_on_top or self.reference is None):
                self.show_help = False              # Esc closes the box drawn on top first
            elif self.reference is not None:
                self.reference = None
            elif self.ctrl:
                self.ctrl.deselect()
                self._last_selected = None
                self._last_prompt = None
                self._fill_options()
            self.tape = None
        elif ev.key == pygame.K_r:
            self.command("reach")
        elif ev.key == pygame.K_v:
            self.command("sight")
        elif ev.key == pygame.K_t:
            self.command("threat")
        elif ev.key == pygame.K_a and not ctrl:
            self.set_animations(not self.tray.animate)
        elif ev.key == pygame.K_m and not ctrl:
            self.set_sound(not self.sound)
        elif ev.key == pygame.K_p and not ctrl:
            self.prone_moves = not self.prone_moves
            if self.ctrl:
                self.ctrl.prone = self.prone_moves
            self.message = (f"moves end {'Prone' if self.prone_moves else 'standing'} (P)", self.t + 3.0)
        elif ev.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.speed = min(8.0, self.speed * 1.5)
            self.say(f"AI speed x{self.speed:.1f}")
        elif ev.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.speed = max(0.25, self.speed / 1.5)
            self.say(f"AI speed x{self.speed:.1f}")
        elif ev.key == pygame.K_TAB and self.ctrl:
            actors = sorted(self.ctrl.actors())
            if actors:
                cur = self.ctrl.selected
                nxt = actors[(actors.index(cur) + 1) % len(actors)] if cur in actors else actors[0]
                self.select(nxt)
        elif pygame.K_1 <= ev.key <= pygame.K_9 and self.ctrl:
            out = self.ctrl.hotkey(ev.key - pygame.K_0)
            if out.choice is not None:
                self.submit(out.choice)
