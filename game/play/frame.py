"""The game screen's frame around the table: the turn bar (title, tracks or the sides' words),
the side panel's background with the options, tray and log, the "is thinking" label, the option
card on hover and the help box. Text surfaces are made once per content (``_memo``).

A part of ``PlayScene`` (``game/scenes/play.py``), whose ``draw`` calls these.
"""
from __future__ import annotations

import pygame

from game.play.keys import HELP
from game.play.layout import BAR_H
from game.render.text import elide, font, plate
from game.ui.status import setup_words, status_line


def net_banner(session, viewer: int) -> str | None:
    """A network game's standing line while play cannot go on: this window's connection is down,
    or the other player is away (issue 50: "the other player sees 'waiting for player 2'").
    None in a local game or when everyone is there."""
    if not getattr(session, "remote", False):
        return None
    if not session.up:
        return "connection to the server lost: connecting again"
    away = sorted(p for p, on in session.connected.items() if not on and p != viewer)
    if away:       # "to join" for a seat never at the table yet, "to come back" for one that dropped
        return "; ".join(session.waiting_words(p) for p in away) + " (the game is kept on the host)"
    return None


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

    def _setup_words(self) -> str:
        """The header's first words: the ruleset, the map, the mission (the scoreboard's, else the
        one the options name) and the house rules that are not the ruleset's defaults."""
        g = self.session.game
        rules_cls = type(g.rules)
        board = getattr(self, "scoreboard", None)
        mission = board.mission if board is not None else None
        if mission is None and g.setup.options.get("mission"):
            m = rules_cls.missions().get(g.setup.options["mission"])
            mission = m.name if m is not None else str(g.setup.options["mission"])
        model = rules_cls.options_model()
        defaults = {k: f.default for k, f in model.model_fields.items()} if model is not None else None
        return setup_words(g.rules.name, self.mapfile.name, mission, g.setup.options, defaults)

    def _draw_bar(self, screen) -> None:
        bar = pygame.Rect(0, 0, self.table_rect.w, BAR_H)
        top, sides = status_line(self.view, self.names)
        if not hasattr(self, "_header"):
            self._header = self._setup_words()
        title = (self._header, top)
        track_key = repr(self.presenter.track_key(self.view))
        screen.blit(self._memo(("bar", bar.size, title, sides, track_key),
                               lambda: self._bar_image(bar, title, sides, self.view, self.names)), bar)

    @staticmethod
    def bar_title(setup: str, top: str, width: int):
        """The header's line and its font: the set-up's words, then the turn and phase, at 18 px,
        else 15; where even that is too wide, the set-up's words are cut with "…" (the turn and
        phase are kept whole)."""
        whole = f"{setup}   |   {top}"
        for f in (font(18), font(15)):
            if f.size(whole)[0] <= width:
                return whole, f
        f = font(15)
        tail = f"   |   {top}"
        return elide(setup, f, max(40, width - f.size(tail)[0])) + tail, f

    @classmethod
    def _bar_image(cls, bar, title, sides, view, names) -> pygame.Surface:
        from game.ui.tracks import draw_tracks
        img = pygame.Surface(bar.size)
        img.fill((34, 28, 22))
        pygame.draw.line(img, (120, 100, 70), (0, bar.h - 1), (bar.w, bar.h - 1))
        words, f = cls.bar_title(*title, bar.w - 16)
        t = f.render(words, True, (240, 232, 214))
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
        self.thinking_rect = None          # where "AI … thinking" was drawn (None: not drawn)
        if self.worker is not None:
            lab = plate(self._thinking_text(), 16)
            # the table's top left corner, or under the deployment tray while it shows (it was
            # drawn over the tray's words, issue 58)
            top = self.deploy_tray.rect.bottom + 4 if self.deploy_tray.active else self.table_rect.y + 8
            self.thinking_rect = screen.blit(lab, (self.table_rect.x + 10, top))
        banner = net_banner(self.session, self.viewer)
        if banner:      # stays while it is true, unlike a message that fades; above the scale bar
            lab = plate(banner, 18, fg=(255, 214, 120), bg=(40, 22, 12, 225), pad=(10, 5), bold=True)
            screen.blit(lab, lab.get_rect(midbottom=(self.table_rect.centerx, self.table_rect.bottom - 44)))

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
