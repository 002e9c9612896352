"""The dice tray: the last rolls, drawn as dice, newest on top.

Each group is the rolls of one event (``Event.data["rolls"]``, records of
``engine.core.rolls``): a Counterblast Attack pool and the Defense pool that answers it, a
Doubles attacker's throw and what it kept, both players' Moxie checks. A new group rolls for a
moment (dice settle left to right; off with ``animate=False``, cut short by a click). A group can
be shown again (a log line of a roll was clicked).

The tray can also offer dice to pick: a Doubles keep is made by clicking the dice to keep
(``offer``); the scene turns the picked dice into the engine's own option, or its refusal.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from game.names import named
from game.render.dice import dice_row, die_image
from game.render.text import font

ROLL_SECONDS = 0.6
BG = (20, 17, 14)
BORDER = (120, 100, 70)
TITLE = (250, 220, 130)
TEXT = (236, 228, 210)


@dataclass
class Group:
    title: str
    records: list
    t0: float
    seed: int = 0


@dataclass
class Offer:
    """Dice the player may pick: (id, value, penalty) each, how many make a choice."""
    label: str
    dice: list
    picks: int
    player: int | None
    chosen: list = field(default_factory=list)     # ids, in the order clicked
    rects: dict = field(default_factory=dict)      # id -> window rect, set when drawn


class DiceTray:
    def __init__(self, rect: pygame.Rect, keep: int = 8):
        self.rect = pygame.Rect(rect)
        self.keep = keep
        self.groups: list[Group] = []
        self.offer: Offer | None = None
        self.animate = True
        self.now = 0.0
        self.names: dict[int, str] = {}     # players' names read for "Player N" (a network game)

    def set_rect(self, rect) -> None:
        self.rect = pygame.Rect(rect)

    def clear(self) -> None:
        self.groups.clear()

    def add(self, title: str, records: list, now: float, animate: bool | None = None) -> None:
        if not records:
            return
        roll = self.animate if animate is None else animate
        self.groups.append(Group(title, list(records), now if roll else -1e9, len(self.groups) + int(now * 10)))
        del self.groups[:-self.keep]

    def show_again(self, title: str, records: list, now: float) -> None:
        """A log line's roll, back on top of the tray (no tumbling: it is a look back)."""
        self.add(title, records, now, animate=False)

    def settle(self) -> None:
        for g in self.groups:
            g.t0 = -1e9

    def rolling(self, now: float) -> bool:
        return any(now - g.t0 < ROLL_SECONDS for g in self.groups)

    # --- picking dice -------------------------------------------------------------------
    def set_offer(self, offer: Offer | None) -> None:
        if offer is None or self.offer is None or [d[0] for d in offer.dice] != [d[0] for d in self.offer.dice]:
            self.offer = offer

    def handle(self, ev) -> int | None:
        """A click on the tray: the id of an offered die clicked (toggled in ``offer.chosen``),
        or None (a click elsewhere in the tray settles rolling dice)."""
        if ev.type != pygame.MOUSEBUTTONDOWN or ev.button != 1 or not self.rect.collidepoint(ev.pos):
            return None
        if self.offer is not None:
            for did, r in self.offer.rects.items():
                if r.collidepoint(ev.pos):
                    if did in self.offer.chosen:
                        self.offer.chosen.remove(did)
                    else:
                        self.offer.chosen.append(did)
                    return did
        self.settle()
        return None

    # --- drawing ------------------------------------------------------------------------
    def draw(self, screen, now: float) -> None:
        self.now = now
        pygame.draw.rect(screen, BG, self.rect)
        pygame.draw.rect(screen, BORDER, self.rect, 1)
        clip = screen.get_clip()
        screen.set_clip(self.rect.inflate(-2, -2))
        x0, y = self.rect.x + 6, self.rect.y + 4
        if self.offer is not None:
            y = self._draw_offer(screen, x0, y)
        if not self.groups and self.offer is None:
            t = font(14).render("Dice and cards appear here as they fall", True, (150, 140, 124))
            screen.blit(t, (x0, y + 2))
        for g in reversed(self.groups):
            if y > self.rect.bottom - 20:
                break
            left = max(0.0, 1.0 - (now - g.t0) / ROLL_SECONDS)
            if g.records and all("cards" in rec for rec in g.records):   # a reveal: side by side
                y = self._draw_reveal(screen, g.records, x0, y) + 3
                continue
            for rec in g.records:
                if y > self.rect.bottom - 20:
                    break
                if "cards" in rec:                          # cards turned over (Frontier)
                    y = self._draw_cards(screen, rec, x0, y)
                    continue
                head = font(13, True).render(named(rec["label"], self.names), True, TITLE)
                screen.blit(head, (x0, y))
                res = rec.get("result") or ""
                if rec.get("target"):
                    res = f"{res}  (need {rec['target']}+)" if res else f"need {rec['target']}+"
                if res and left <= 0:
                    t = font(13).render(res, True, TEXT)
                    screen.blit(t, (self.rect.right - t.get_width() - 8, y))
                y += head.get_height() + 1
                y = self._draw_dice(screen, dice_row(rec, 22, left, g.seed), x0, y)
            y += 3
        screen.set_clip(clip)

    def _draw_reveal(self, screen, records, x0, y) -> int:
        from game.render.cards import card_image
        x = x0
        for k, rec in enumerate(records):
            if k:
                vs = font(13, True).render("vs", True, TEXT)
                screen.blit(vs, (x + 4, y + 12))
                x += vs.get_width() + 12
            head = font(13, True).render(named(rec["label"], self.names), True, TITLE)
            screen.blit(head, (x, y + 12))
            x += head.get_width() + 6
            for code in rec["cards"]:
                screen.blit(card_image(code, (26, 38)), (x, y))
                x += 24
            x += 6
        return y + 41

    def _draw_cards(self, screen, rec, x0, y) -> int:
        from game.render.cards import card_image
        head = font(13, True).render(named(rec["label"], self.names), True, TITLE)
        screen.blit(head, (x0, y + 8))
        x = x0 + head.get_width() + 8
        for code in rec["cards"]:
            screen.blit(card_image(code, (26, 38)), (x, y))
            x += 24
        if rec.get("result"):
            t = font(13).render(rec["result"], True, TEXT)
            screen.blit(t, (x + 8, y + 8))
        return y + 41

    def _draw_dice(self, screen, images, x0, y) -> int:
        x = x0
        h = 0
        for img in images:
            if x + img.get_width() > self.rect.right - 4:
                x, y = x0, y + h
            screen.blit(img, (x, y))
            x += img.get_width() - 2
            h = img.get_height()
        return y + h

    def _draw_offer(self, screen, x0, y) -> int:
        o = self.offer
        assert o is not None            # drawn only with an offer (draw)
        t = font(13, True).render(o.label, True, (140, 240, 160))
        screen.blit(t, (x0, y))
        y += t.get_height() + 1
        x = x0
        o.rects = {}
        for did, value, penalty in o.dice:
            marks: tuple[str, ...] = ("kept",) if did in o.chosen else ()
            if penalty:
                marks += ("penalty",)
            img = die_image(6, value, o.player, marks, 30)
            if x + img.get_width() > self.rect.right - 4:
                x, y = x0, y + img.get_height()
            screen.blit(img, (x, y))
            o.rects[did] = pygame.Rect(x, y, img.get_width(), img.get_height())
            x += img.get_width() + 2
        return y + 40
