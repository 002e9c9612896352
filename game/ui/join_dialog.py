"""The launcher's Join dialog (network play, issue 50): the host's address, the seat and its code,
and the player's name (issue 58: what the other player sees instead of "Player N").

A modal panel (``game.kit.Panel``) over a pygame_gui window. ``handle`` returns
``Command("join", (address, seat, code, name))`` on Join (Enter too), ``Command("join", None)`` on
Cancel, Esc or the window's close button, and ``TAKEN`` for everything else while it is open.
``problem`` says why a Join was not taken (shown in the dialog).
"""
from __future__ import annotations

import pygame
import pygame_gui

from game.kit import TAKEN, Command, Panel
from game.names import NAME_MAX, clean_name

E_ = pygame_gui.elements


class JoinDialog(Panel):
    modal = True

    def __init__(self, ui, screen_size, address: str = "", seat: int = 2, code: str = "", name: str = ""):
        super().__init__()
        self.ui = ui
        sw, sh = screen_size
        r = pygame.Rect(0, 0, 460, 340)
        r.center = (sw // 2, sh // 2)
        self.rect = r
        self.window = E_.UIWindow(r, ui, window_display_title="Join a network game", resizable=False)
        self.window.set_blocking(True)
        c = self.window
        iw, ih = c.get_container().get_rect().size
        E_.UILabel(pygame.Rect(10, 6, iw - 20, 24), "The host's address, your seat, its code and your name:", ui,
                   container=c)
        y = 38
        self.entries = {}
        for key, label, value in (("address", "Address", address or "HOST:8765"), ("seat", "Seat", str(seat)),
                                  ("code", "Code", code), ("name", "Your name", clean_name(name))):
            E_.UILabel(pygame.Rect(10, y, 90, 30), label, ui, container=c)
            e = E_.UITextEntryLine(pygame.Rect(104, y, iw - 120, 30), ui, container=c)
            e.set_text(value)
            self.entries[key] = e
            y += 38
        self.entries["seat"].set_allowed_characters(["1", "2"])
        self.entries["seat"].set_text_length_limit(1)
        self.entries["code"].set_text_length_limit(32)
        self.entries["name"].set_text_length_limit(NAME_MAX)      # what the other player sees
        self.problem = E_.UILabel(pygame.Rect(10, y, iw - 20, 26), "", ui, container=c)
        self.cancel_b = E_.UIButton(pygame.Rect(iw - 230, ih - 46, 105, 36), "Cancel", ui, container=c)
        self.join_b = E_.UIButton(pygame.Rect(iw - 115, ih - 46, 105, 36), "Join", ui, container=c)

    def say(self, text: str) -> None:
        self.problem.set_text(text[:90])

    def values(self):
        seat = self.entries["seat"].get_text().strip()
        return (self.entries["address"].get_text().strip(), int(seat) if seat in ("1", "2") else 0,
                self.entries["code"].get_text().strip(), clean_name(self.entries["name"].get_text()))

    def close(self) -> None:
        if self.window.alive():
            self.window.kill()

    def handle(self, ev):
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.close()
            return Command("join", None)
        if ev.type == pygame_gui.UI_WINDOW_CLOSE and ev.ui_element is self.window:
            return Command("join", None)
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            if ev.ui_element is self.cancel_b:
                self.close()
                return Command("join", None)
            if ev.ui_element is self.join_b:
                return self._join()
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_RETURN:
            return self._join()
        return TAKEN

    def _join(self):
        address, seat, code, name = self.values()
        if not address or not seat or not code:
            self.say("give the address (HOST:PORT), your seat (1 or 2) and its code")
            return TAKEN
        return Command("join", (address, seat, code, name))
