"""The presenter's interface and the drawing helpers of the turn bar's tracks."""
from __future__ import annotations

import pygame

from game.render.text import font

GOLD = (250, 210, 90)
DREAD = (220, 70, 60)
TEXT = (236, 228, 210)


def count(d: dict, p):
    """A per-player counter of a view, keyed by int or str."""
    return d.get(p, d.get(str(p), 0)) if isinstance(d, dict) else 0


def pips(img, x, y, n, colour, most=12, r=4) -> int:
    for k in range(min(n, most)):
        pygame.draw.circle(img, colour, (x + r + k * (2 * r + 2), y + r), r)
        pygame.draw.circle(img, (20, 16, 12), (x + r + k * (2 * r + 2), y + r), r, 1)
    x += min(n, most) * (2 * r + 2)
    if n > most:
        t = font(12).render(f"+{n - most}", True, colour)
        img.blit(t, (x + 2, y - 2))
        x += t.get_width() + 4
    return x


def text(img, x, y, words, colour=TEXT, size=13, bold=False) -> int:
    t = font(size, bold).render(words, True, colour)
    img.blit(t, (x, y))
    return x + t.get_width()


class Presenter:
    """A ruleset with nothing of its own to show: override what the ruleset has."""

    id = ""
    title = ""                        # the launcher's name of the ruleset
    short = ""                        # its short name (the legend's "Frontier: ...")
    panels: frozenset = frozenset()   # optional panels of the game screen: "hand" (cards), ...

    def shows(self, panel: str) -> bool:
        return panel in self.panels

    def counters(self, view: dict, names: dict) -> tuple[list[str], list[str]]:
        """The turn bar's words after turn and phase: (those on the title line, the sides' line)."""
        return [], []

    def draw_tracks(self, img, rect, view: dict, names: dict) -> bool:
        """The ruleset's tracks drawn in ``rect`` of ``img``; False when it draws none."""
        return False

    def track_key(self, view: dict):
        """What the drawn tracks depend on (the bar is redrawn when it changes)."""
        return None

    def side_name(self, view: dict, player: int, who: str) -> str:
        """A side's short name from the seat's word (``who``)."""
        return who

    def hand_line(self, view: dict, player: int | None) -> str | None:
        """The player's own hand in words, where the ruleset has one."""
        return None
