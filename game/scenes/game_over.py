"""The end of a game: who won, why, and the score breakdown as the ruleset reports it."""
from __future__ import annotations

import json

import pygame
import pygame_gui

from game.render.text import font

from .base import Scene


def score_lines(result, names) -> list[str]:
    lines = []
    for k, v in (result.scores or {}).items():
        try:
            who = names.get(int(k), f"Player {k}")
        except (TypeError, ValueError):
            who = str(k)
        if isinstance(v, dict):
            v = ", ".join(f"{a.replace('_', ' ')} {b}" for a, b in v.items())
        lines.append(f"{who}: {v if not isinstance(v, (list, tuple)) else json.dumps(v)}")
    return lines


class GameOverScene(Scene):
    def __init__(self, app, session, play=None):
        super().__init__(app)
        self.session, self.play = session, play
        self.result = session.game.result()
        w, h = app.size
        self.b_table = pygame_gui.elements.UIButton(pygame.Rect(w // 2 - 330, h - 120, 200, 44), "Look at the table", self.ui)
        self.b_new = pygame_gui.elements.UIButton(pygame.Rect(w // 2 - 100, h - 120, 200, 44), "New game", self.ui)
        self.b_quit = pygame_gui.elements.UIButton(pygame.Rect(w // 2 + 130, h - 120, 200, 44), "Quit", self.ui)

    def handle(self, ev) -> None:
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            if ev.ui_element is self.b_new:
                from .launcher import LauncherScene
                self.app.switch(LauncherScene(self.app))
            elif ev.ui_element is self.b_quit:
                self.app.quit()
            elif ev.ui_element is self.b_table and self.play is not None:
                self.play.refresh(rebuild_log=True)
                self.play.game_over_seen = True
                self.app.switch(self.play)

    def draw(self, screen) -> None:
        screen.fill((22, 18, 14))
        w, h = screen.get_size()
        names = self.play.names if self.play else {1: "Player 1", 2: "Player 2"}
        r = self.result
        if r is None:
            title = "The game ended"
        elif r.winner is None:
            title = "A draw"
        else:
            who = names.get(r.winner, f"Player {r.winner}")
            title = f"{who[:1].upper()}{who[1:]} won"
        y = 110
        t = font(48, True).render(title, True, (250, 220, 130))
        screen.blit(t, t.get_rect(center=(w // 2, y)))
        y += 60
        g = self.session.game
        sub = f"{g.rules.name} on {g.setup.map.name}, seed {g.setup.seed}, {len(g.decisions)} decisions, turn {g.state.turn}"
        for line in ([r.reason] if r else []) + [sub, ""] + (score_lines(r, names) if r else []):
            img = font(22).render(line, True, (230, 222, 204))
            screen.blit(img, img.get_rect(center=(w // 2, y)))
            y += 32
