"""The end of a game: which side won (its number, roster and who played it), why (the engine's
``Result``), and each side's score as the ruleset reports it."""
from __future__ import annotations

import json

import pygame
import pygame_gui

from game.kit.transitions import Pop, Quit, Switch
from game.render.text import fit_lines, font
from game.ui.sides import side_title

from .base import Scene


def score_lines(result, titles) -> list[str]:
    """One line per side: its title and its score (a dict of counts in words)."""
    lines = []
    for k, v in (result.scores or {}).items():
        try:
            who = titles.get(int(k), f"Side {k}")
        except (TypeError, ValueError):
            who = str(k)
        if isinstance(v, dict):
            v = ", ".join(f"{a.replace('_', ' ')} {b}" for a, b in v.items())
        lines.append(f"{who}: {v if not isinstance(v, (list, tuple)) else json.dumps(v)}")
    return lines


def game_over_text(game, seats) -> tuple[str, list[str]]:
    """The title ("Side 2 (The Diamond Gang, AI easy) wins", "A draw") and the lines under it:
    the engine's reason for the ending, the game, and each side's score."""
    r = game.result()
    titles = {p: side_title(game, p, seats) for p in (1, 2)}
    if r is None:
        return "The game ended", []
    title = "A draw" if r.winner is None else f"{titles.get(r.winner, f'Side {r.winner}')} wins"
    why = r.reason[:1].upper() + r.reason[1:]           # the engine's words for how it ended
    sub = (f"{game.rules.name} on {game.setup.map.name}, seed {game.setup.seed}, {len(game.decisions)} decisions, "
           f"turn {game.state.turn}")
    return title, [why, sub, ""] + score_lines(r, titles)


class GameOverScene(Scene):
    """Pushed over the game screen (``play``): "Look at the table" pops back to it."""

    def __init__(self, app, session, play=None):
        super().__init__(app)
        self.session, self.play = session, play
        self.result = session.game.result()
        self.title, self.lines = game_over_text(session.game, session.seats)
        w, h = app.size
        self.b_table = pygame_gui.elements.UIButton(pygame.Rect(w // 2 - 330, h - 120, 200, 44), "Look at the table", self.ui)
        self.b_new = pygame_gui.elements.UIButton(pygame.Rect(w // 2 - 100, h - 120, 200, 44), "New game", self.ui)
        self.b_quit = pygame_gui.elements.UIButton(pygame.Rect(w // 2 + 130, h - 120, 200, 44), "Quit", self.ui)

    def handle(self, ev) -> None:
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            if ev.ui_element is self.b_new:
                self.go_to(Switch("launcher"))
            elif ev.ui_element is self.b_quit:
                self.go_to(Quit())
            elif ev.ui_element is self.b_table and self.play is not None:
                self.play.refresh(rebuild_log=True)
                self.play.game_over_seen = True
                self.go_to(Pop())

    def draw(self, screen) -> None:
        screen.fill((22, 18, 14))
        w, h = screen.get_size()
        room = w - 80
        size = 48                                     # the title as large as fits the window's width
        while size > 24 and font(size, True).size(self.title)[0] > room:
            size -= 2
        y = 80
        for line in fit_lines(self.title, font(size, True), room, 2):
            t = font(size, True).render(line, True, (250, 220, 130))
            screen.blit(t, t.get_rect(midtop=(w // 2, y)))
            y += t.get_height() + 4
        y += 24
        bottom = h - 140                              # above the buttons
        for text in self.lines:
            for line in fit_lines(text, font(22), room, 2):
                if y + 28 > bottom:
                    return
                img = font(22).render(line, True, (230, 222, 204))
                screen.blit(img, img.get_rect(midtop=(w // 2, y)))
                y += 30
