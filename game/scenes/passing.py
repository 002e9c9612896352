"""Hot-seat privacy: a blank screen that asks to pass the device before a hand is shown.

Until the player named here confirms, nothing of the table is drawn. The player who just
decided still holds the device, so they may take their decision back from here (Ctrl+Z), as
far as the game allows (``GameSession.undo_target``).
"""
from __future__ import annotations

import pygame
import pygame_gui

from game.kit.transitions import Pop
from game.render.text import font

from .base import Scene


class PassScene(Scene):
    """Pushed over the game screen (``play``, kept under it); confirming pops back to it."""

    def __init__(self, app, play, player: int):
        super().__init__(app)
        self.play, self.player = play, player
        self.message = ""
        self._build(app.size)

    def _build(self, size) -> None:
        w, h = size
        self.ui.clear_and_reset()
        self.button = pygame_gui.elements.UIButton(pygame.Rect(w // 2 - 130, h // 2 + 30, 260, 48),
                                                   f"I am player {self.player}: show my table", self.ui)
        self.undo_button = None
        s = self.play.state.session
        if s.undo_target() is not None and s.game.decisions and s.game.decisions[-1][0] == s.eyes:
            self.undo_button = pygame_gui.elements.UIButton(
                pygame.Rect(w // 2 - 130, h // 2 + 90, 260, 36), f"Player {s.eyes}: take back my move",
                self.ui, tool_tip_text="Ctrl+Z: undo your last decision before passing the device")

    def handle(self, ev) -> None:
        if (ev.type == pygame_gui.UI_BUTTON_PRESSED and ev.ui_element is self.button) or \
                (ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER)):
            self.play.state.session.confirm_eyes(self.player)
            self.play.refresh(rebuild_log=True)
            self.go_to(Pop())
        elif (ev.type == pygame_gui.UI_BUTTON_PRESSED and ev.ui_element is self.undo_button) or \
                (ev.type == pygame.KEYDOWN and ev.key == pygame.K_z and ev.mod & pygame.KMOD_CTRL):
            if self.play.state.session.pass_due() is None or self.play.state.session.undo_target() is None:
                self.message = "nothing to take back: the last decision rolled dice, showed or drew a card, or was not yours"
                return
            self.play.answering.undo()               # the decision goes back to the player holding the device
            if self.play.state.session.pass_due() is None:
                self.go_to(Pop())

    def resize(self, size) -> None:
        super().resize(size)
        self._build(size)

    def draw(self, screen) -> None:
        screen.fill((20, 16, 13))
        name = self.play.state.names.get(self.player, f"Player {self.player}")
        t1 = font(40, True).render(f"Pass to player {self.player}", True, (250, 220, 130))
        t2 = font(22).render(f"{name}: the other player looks away; hidden cards are on the next screen.",
                             True, (226, 220, 206))
        w, h = screen.get_size()
        screen.blit(t1, t1.get_rect(center=(w // 2, h // 2 - 50)))
        screen.blit(t2, t2.get_rect(center=(w // 2, h // 2 - 10)))
        if self.message:
            t3 = font(18).render(self.message, True, (255, 154, 138))
            screen.blit(t3, t3.get_rect(center=(w // 2, h // 2 + 150)))
