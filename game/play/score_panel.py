"""The game screen's score panel: the ruleset's scoreboard as a ``ScoreCard``, S to show or hide it."""
from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.kit import TAKEN, Command, Hover
from game.kit.panel import POINTER_EVENTS
from game.play.panels import PlayPanel

if TYPE_CHECKING:
    from game.ui.score_board import ScoreCard


class ScorePanel(PlayPanel):
    """The score (``game/ui/score_board.py``): the mission, what wins, the turn of the limit and
    each side's lines under its title, in its colour, from ``Shown.scoreboard`` and the sides'
    titles only (nothing of a player's view: it is the same for both players in hot-seat). S
    shows or hides it; the screen then lays its column out again (``Command("layout")``), the
    log taking the room back. The pointer over it is a ``Hover`` (a card whose words were cut
    shows whole beside it); a click or the wheel over it is taken. A ruleset that keeps no score (None) shows nothing and takes no
    room."""

    def __init__(self, titles: dict, pointer=lambda: (0, 0)):
        super().__init__(pointer)
        self.titles = dict(titles)
        self.open = True
        self.small = False                 # a short window: what wins in at most three lines
        self._card: ScoreCard | None = None
        self._card_small: bool | None = None   # whether the card kept was laid out small

    def set_titles(self, titles: dict) -> None:
        """The sides' titles again (a network game's player named as it joins): cards made anew."""
        if dict(titles) != self.titles:
            self.titles = dict(titles)
            self._card = None
            self.__dict__.pop("_hover", None)

    @property
    def board(self):
        return self.shown.scoreboard

    @property
    def showing(self) -> bool:
        return self.open and self.board is not None

    def card(self, width: int):
        """The scoreboard laid out for ``width`` pixels (made again when it or the width changes):
        on a short window smaller, what wins in two lines and a note in one (all of it on hover)."""
        from game.ui.score_board import ScoreCard
        c = self._card
        if c is None or c.board != self.board or c.width != width or self._card_small != self.small:
            c = self._card = (ScoreCard(self.board, self.titles, width, size=12, wins_lines=2, note_lines=1)
                              if self.small else ScoreCard(self.board, self.titles, width, size=14, wins_lines=4))
            self._card_small = self.small
        return c

    def hover_card(self):
        """The whole scoreboard, wider, for the pointer over a card whose words were cut."""
        from game.ui.score_board import ScoreCard
        c = self.__dict__.get("_hover")
        if c is None or c.board != self.board:
            c = self._hover = ScoreCard(self.board, self.titles, 440, size=14, wins_lines=12, note_lines=4)
        return c

    def height_for(self, width: int) -> int:
        """The room the panel wants at ``width`` (0 when hidden or when there is no score)."""
        return self.card(width).height if self.showing else 0

    @property
    def texts(self) -> list[str]:
        """Every string the panel draws now (none when hidden)."""
        return self.card(self.rect.w).texts if self.showing and self.rect.w > 0 else []

    def sees(self, ev, pointer) -> bool:
        if ev.type == pygame.KEYDOWN:
            return ev.key == pygame.K_s and not ev.mod & pygame.KMOD_CTRL
        return ev.type in POINTER_EVENTS and self.showing and self.rect.collidepoint(pointer)

    def handle(self, ev):
        if ev.type == pygame.KEYDOWN:
            self.open = not self.open
            return Command("layout", "score")
        if ev.type == pygame.MOUSEMOTION:
            return Hover(ev.pos)          # where the pointer is: over the score, its whole card (``draw_hover``)
        return TAKEN                      # a click or the wheel over the score does nothing to what is under it

    def draw(self, surface) -> None:
        if self.showing and self.rect.h > 0:
            self.card(self.rect.w).draw(surface, self.rect.topleft, self.rect.h)

    def draw_hover(self, surface) -> None:
        """With the pointer over a card that could not show all its words (a short window), the
        whole of it beside the panel, over the table's edge (as an option's card)."""
        if not (self.showing and self.rect.h > 0 and self.rect.collidepoint(self.pointer())):
            return
        c = self.card(self.rect.w)
        if not (c.elided or c.height > self.rect.h):
            return
        full = self.hover_card()
        y = max(4, min(self.rect.y, surface.get_height() - full.height - 4))
        full.draw(surface, (self.rect.x - 8 - full.width - 6, y))
