"""Hot-seat privacy: a blank screen that asks to pass the device before a hand is shown."""
from __future__ import annotations

import pygame
import pygame_gui

from game.render.text import font

from .base import Scene


class PassScene(Scene):
    def __init__(self, app, play, player: int):
        super().__init__(app)
        self.play, self.player = play, player
        w, h = app.size
        self.button = pygame_gui.elements.UIButton(pygame.Rect(w // 2 - 130, h // 2 + 30, 260, 48),
                                                   f"I am player {player}: show my table", self.ui)

    def handle(self, ev) -> None:
        if (ev.type == pygame_gui.UI_BUTTON_PRESSED and ev.ui_element is self.button) or \
                (ev.type == pygame.KEYDOWN and ev.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER)):
            self.play.refresh(rebuild_log=True)
            self.app.switch(self.play)

    def resize(self, size) -> None:
        super().resize(size)
        self.button.set_relative_position((size[0] // 2 - 130, size[1] // 2 + 30))
        self.play.resize(size)

    def draw(self, screen) -> None:
        screen.fill((20, 16, 13))
        name = self.play.names.get(self.player, f"Player {self.player}")
        t1 = font(40, True).render(f"Pass to player {self.player}", True, (250, 220, 130))
        t2 = font(22).render(f"{name}: the other player looks away; hidden cards are on the next screen.",
                             True, (226, 220, 206))
        w, h = screen.get_size()
        screen.blit(t1, t1.get_rect(center=(w // 2, h // 2 - 50)))
        screen.blit(t2, t2.get_rect(center=(w // 2, h // 2 - 10)))
