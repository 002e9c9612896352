"""The end of a game: which side won (its number, roster and who played it), why (the engine's
``Result``: Counterblast's degree of victory is in it), the ruleset's scoreboard (the mission,
each line per side, the notes: ``game/ui/score_board.py``) and each side's score as the result
reports it."""
from __future__ import annotations

import json

import pygame
import pygame_gui

from game.kit.transitions import Pop, Quit, Switch
from game.names import named
from game.render.text import fit_lines, font
from game.ui.score_board import ScoreCard, breakdown_lines
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


def game_over_text(game, seats, names=None) -> tuple[str, list[str]]:
    """The title ("Side 2 (The Diamond Gang, AI easy) wins", "A draw") and the lines under it:
    the engine's reason for the ending, the game, and each side's score. ``names``: the players'
    names of a network game (``game.net.names``)."""
    r = game.result()
    titles = {p: side_title(game, p, seats, names) for p in (1, 2)}
    if r is None:
        return "The game ended", []
    title = "A draw" if r.winner is None else f"{titles.get(r.winner, f'Side {r.winner}')} wins"
    reason = named(r.reason, names)
    why = reason[:1].upper() + reason[1:]               # the engine's words for how it ended
    sub = (f"{game.rules.name} on {game.setup.map.name}, seed {game.setup.seed}, {len(game.decisions)} decisions, "
           f"turn {game.state.turn}")
    return title, [why, sub, ""] + score_lines(r, titles)


def score_breakdown(game, seats, names=None) -> tuple[object, list[str]]:
    """The ruleset's scoreboard at the end (None where it keeps none) and its breakdown in lines:
    the mission, one line per side with each of its values, the notes the result's reason does
    not already give."""
    board = game.rules.scoreboard(game.state)
    if board is None:
        return None, []
    r = game.result()
    titles = {p: side_title(game, p, seats, names) for p in (1, 2)}
    return board, breakdown_lines(board, titles, skip_notes=r.reason if r is not None else "")


class GameOverScene(Scene):
    """Pushed over the game screen (``play``): "Look at the table" pops back to it."""

    def __init__(self, app, session, play=None):
        super().__init__(app)
        self.session, self.play = session, play
        self.result = session.game.result()
        names = getattr(session, "names", None)          # a network game's players' names
        self.title, self.lines = game_over_text(session.game, session.seats, names)
        self.board, self.breakdown = score_breakdown(session.game, session.seats, names)
        self.titles = {p: side_title(session.game, p, session.seats, names) for p in (1, 2)}
        self._card = None
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
                self.play.state.game_over_seen = True
                self.go_to(Pop())

    def card(self, width: int, small: bool) -> ScoreCard | None:
        """The scoreboard drawn as on the game screen, larger (None: no scoreboard)."""
        if self.board is None:
            return None
        if self._card is None or self._card.width != width:
            reason = self.result.reason if self.result is not None else ""
            self._card = ScoreCard(self.board, self.titles, width, size=17 if small else 19, skip_notes=reason,
                                   wins_lines=3, pad=10, label_share=0.34)
        return self._card

    def draw(self, screen) -> None:
        screen.fill((22, 18, 14))
        w, h = screen.get_size()
        small = h < 700
        room = w - 80
        size = 48 if not small else 40               # the title as large as fits the window's width
        while size > 24 and font(size, True).size(self.title)[0] > room:
            size -= 2
        y = 80 if not small else 34
        for line in fit_lines(self.title, font(size, True), room, 2):
            t = font(size, True).render(line, True, (250, 220, 130))
            screen.blit(t, t.get_rect(midtop=(w // 2, y)))
            y += t.get_height() + 4
        y += 24 if not small else 12
        bottom = h - 140                              # above the buttons
        line_h = 30 if not small else 26
        body = font(22 if not small else 20)
        card = self.card(min(room, 820), small)
        # the engine's reason and the game; then the scoreboard; then each side's score
        head, rest = (self.lines[:2], self.lines[2:]) if card is not None else (self.lines, [])
        y = _centred_lines(screen, head, body, room, y, line_h, bottom)
        if y is None:
            return
        if card is not None:
            y += 6
            card.draw(screen, (w // 2 - card.width // 2, y), bottom - y)
            y += card.height + 10
        _centred_lines(screen, rest, body, room, y, line_h, bottom)


def _centred_lines(screen, texts, body, room: int, y: int, line_h: int, bottom: int) -> int | None:
    """``texts`` drawn centred from ``y``, each fitted to ``room`` in at most 2 lines; the ``y``
    below them, or None where the room above ``bottom`` ran out (nothing further is drawn)."""
    w = screen.get_width()
    for text in texts:
        for line in fit_lines(text, body, room, 2):
            if y + line_h - 2 > bottom:
                return None
            img = body.render(line, True, (230, 222, 204))
            screen.blit(img, img.get_rect(midtop=(w // 2, y)))
            y += line_h
    return y
