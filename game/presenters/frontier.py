"""Last Hope Frontier's face: the card hand panel, priority and each side's cards in the turn
bar, a side named by its posse."""
from __future__ import annotations

import pygame

from game.render.look import SIDE_COLOURS

from .base import TEXT, Presenter, text
from .registry import register

SUITS = {"S": " Spades", "H": " Hearts", "D": " Diamonds", "C": " Clubs"}  # the bundled font has no suit glyphs


def card_text(code: str) -> str:
    if not isinstance(code, str) or not code:
        return str(code)
    return code[:-1] + SUITS.get(code[-1], code[-1]) if code[-1] in SUITS else code


class Frontier(Presenter):
    id = "frontier"
    short = "Frontier"                 # the legend's name of it
    title = "Last Hope Frontier"
    panels = frozenset({"hand"})

    def counters(self, view, names):
        head, parts = [], []
        pr = view.get("priority")
        if pr:
            head.append(f"priority: {names.get(pr, pr)}")
        for p in ("1", "2"):
            c = view["cards"][p]
            parts.append(f"{names[int(p)]}: {c['hand_size']} in hand, {c['spent']} spent, deck {c['deck']}")
        return head, parts

    def track_key(self, view):
        return (view.get("priority"), {p: (c.get("hand_size"), c.get("spent"), c.get("deck"))
                                       for p, c in (view.get("cards") or {}).items()})

    def draw_tracks(self, img, rect, view, names):
        x, y = rect.x, rect.y + 1
        pr = view.get("priority")
        for p in ("1", "2"):
            c = (view.get("cards") or {}).get(p) or {}
            col = SIDE_COLOURS.get(int(p), TEXT)
            x = text(img, x, y - 1, ("\u2605 " if str(pr) == p else "") + f"{names.get(int(p), p)}:", col, 13, True) + 6
            n = int(c.get("hand_size") or 0)
            for k in range(n):                 # the hand as card backs
                pygame.draw.rect(img, (240, 236, 226), (x + k * 7, y, 10, 14), border_radius=2)
                pygame.draw.rect(img, col, (x + k * 7 + 1, y + 1, 8, 12), border_radius=2)
            x += n * 7 + 8
            x = text(img, x, y - 1, f"{n} in hand, {c.get('spent', 0)} spent, deck {c.get('deck', 0)}") + 22
        return True

    def side_name(self, view, player, who):
        return who + f" ({view['posses'][str(player)]['name']})"

    def hand_line(self, view, player):
        if player is None:
            return None
        c = view["cards"].get(str(player))
        if not c or c.get("hand") is None:
            return None
        return "your hand: " + ", ".join(card_text(x) for x in c["hand"])


register(Frontier())
