"""The game screen's frame around the table: the turn bar (title, tracks or the sides' words),
the side panel's background with the options, tray and log, the "is thinking" label, the option
card on hover and the help box. Text surfaces are made once per content (``_memo``).

A part of ``PlayScene`` (``game/scenes/play.py``), whose ``draw`` calls these.
"""
from __future__ import annotations

import pygame

from game.play.keys import HELP
from game.play.layout import BAR_H
from game.render.text import font, plate
from game.ui.status import status_line


class FrameMixin:
    """The bar, the panel and the boxes drawn over them, for ``PlayScene``."""

    def _memo(self, key, make):
        """Surfaces made from text (the bar, the panel) are drawn once per content."""
        memo = self.__dict__.setdefault("_memo_d", {})
        if key not in memo:
            if len(memo) > 64:
                memo.clear()
            memo[key] = make()
        return memo[key]

    def _draw_option_card(self, screen, index: int) -> None:
        """The option under the mouse: what it does, what it costs, its odds, the rule's source."""
        from game.ui.help_panels import option_card
        d = self.decision
        if d is None or not 0 <= index < len(d.options):
            return
        card = option_card(self.session.game.setup.ruleset, self._with_odds(index, d.labels[index]), d.options[index])
        r = self.options.rect_of_row(index) if hasattr(self.options, "rect_of_row") else None
        y = r.y if r is not None else self.options.rect.y
        y = max(4, min(y, screen.get_height() - card.get_height() - 4))
        screen.blit(card, (self.panel_rect.x - card.get_width() - 6, y))

    def _draw_bar(self, screen) -> None:
        bar = pygame.Rect(0, 0, self.table_rect.w, BAR_H)
        top, sides = status_line(self.view, self.names)
        title = f"{self.session.game.rules.name} on {self.mapfile.name}   |   {top}"
        track_key = repr(self.presenter.track_key(self.view))
        screen.blit(self._memo(("bar", bar.size, title, sides, track_key),
                               lambda: self._bar_image(bar, title, sides, self.view, self.names)), bar)

    @staticmethod
    def _bar_image(bar, title, sides, view, names) -> pygame.Surface:
        from game.ui.tracks import draw_tracks
        img = pygame.Surface(bar.size)
        img.fill((34, 28, 22))
        pygame.draw.line(img, (120, 100, 70), (0, bar.h - 1), (bar.w, bar.h - 1))
        t = font(18).render(title, True, (240, 232, 214))
        if t.get_width() > bar.w - 16:
            t = font(15).render(title, True, (240, 232, 214))
        img.blit(t, (8, 3))
        row = pygame.Rect(8, 5 + t.get_height(), bar.w - 16, bar.h - t.get_height() - 7)
        if not draw_tracks(img, row, view, names):      # a ruleset with no tracks drawn: its words
            s = font(15).render(sides, True, (250, 220, 130))
            img.blit(s, row.topleft)
        return img

    def _draw_panel(self, screen) -> None:
        key = ("panel", self.panel_rect.size)
        screen.blit(self._memo(key, self._panel_image), self.panel_rect)
        self.options.draw(screen)
        self.score_panel.draw(screen)
        self.tray.draw(screen, self.t)
        self.log.draw(screen)
        if self.worker is not None:
            lab = plate(self._thinking_text(), 16)
            screen.blit(lab, (self.table_rect.x + 10, self.table_rect.y + 8))

    def _panel_image(self) -> pygame.Surface:
        img = pygame.Surface(self.panel_rect.size)
        img.fill((30, 25, 20))
        pygame.draw.line(img, (120, 100, 70), (0, 0), (0, self.panel_rect.h), 2)
        return img

    def _draw_help(self, screen) -> None:
        f = font(18)
        w = max(f.size(t)[0] for t in HELP) + 30
        h = len(HELP) * (f.get_linesize() + 4) + 24
        box = pygame.Surface((w, h), pygame.SRCALPHA)
        box.fill((16, 13, 10, 235))
        y = 12
        for i, t in enumerate(HELP):
            box.blit(font(20, True).render(t, True, (250, 220, 130)) if i == 0 else f.render(t, True, (236, 228, 210)),
                     (15, y))
            y += f.get_linesize() + 4
        screen.blit(box, box.get_rect(center=self.table_rect.center))
