"""The decision's options: rows that wrap, numbered for the keys 1-9, scrolled with the wheel.

pygame_gui's selection list draws each item on one line and cuts a long one off (a Doubles
double effect, a Frontier card pair, a Counterblast split shot), so the options are drawn here:
each label wrapped to the panel's width, pre-rendered once per set of options. Options that
name no model (end the activation, pass the turn, no reaction) are pinned above the list as
buttons, so they stay in view whichever model is selected and however long the list is.
"""
from __future__ import annotations

import pygame

from game.render.text import font, wrap

PAD = 6
GAP = 3
HINT_H = 14          # the strip under an overflowing list where "more below" is written
BG = (18, 15, 12)
ROW_BG = (40, 33, 27)
ROW_HOVER = (90, 72, 50)
PIN_BG = (58, 46, 34)
BORDER = (120, 100, 70)
TEXT = (240, 232, 216)
NUMBER = (250, 220, 130)


class _Row:
    __slots__ = ("index", "image", "rect", "pinned")

    def __init__(self, index: int, image: pygame.Surface, pinned: bool):
        self.index, self.image, self.pinned = index, image, pinned
        self.rect = pygame.Rect(0, 0, 0, 0)       # in window pixels, set by the layout


class OptionsPanel:
    def __init__(self, rect: pygame.Rect, size: int = 15):
        self.rect = pygame.Rect(rect)
        self.size = size
        self.pinned: list[_Row] = []
        self.rows: list[_Row] = []
        self.scroll = 0                          # pixels of the list scrolled up
        self.hover: int | None = None            # option index under the mouse
        self.mouse: tuple[int, int] | None = None   # where the mouse was last seen moving
        self.more_rect: pygame.Rect | None = None  # where "more below" was drawn last (None: not drawn)
        self._key: tuple | None = None

    # --- content --------------------------------------------------------------------------
    def set(self, general: list[tuple[int, str]], items: list[tuple[int, str]]) -> None:
        """The pinned options and the listed ones, as (option index, label)."""
        key = (tuple(general), tuple(items), self.rect.w)
        if key == self._key:
            return
        keep_scroll = self._key is not None and self._key[1] == key[1]
        self._key = key
        w = self.rect.w - 2 * PAD - 10
        self.pinned = [_Row(i, self._render(None, t, w - 8, PIN_BG), True) for i, t in general]
        self.rows = [_Row(i, self._render(n + 1 if n < 9 else None, t, w, ROW_BG), False)
                     for n, (i, t) in enumerate(items)]
        if not keep_scroll:
            self.scroll = 0
        self._layout()

    def _render(self, number, text: str, width: int, bg) -> pygame.Surface:
        f = font(self.size)
        tag = f"{number}." if number is not None else ""
        tag_w = f.size("9. ")[0] if number is not None else 0
        lines = wrap(text, f, width - tag_w - 8)
        lh = f.get_linesize()
        img = pygame.Surface((width, lh * len(lines) + 6), pygame.SRCALPHA)
        img.fill((*bg, 255))
        if tag:
            img.blit(f.render(tag, True, NUMBER), (4, 3))
        for k, line in enumerate(lines):
            img.blit(f.render(line.strip() if k == 0 else line, True, TEXT), (4 + tag_w, 3 + k * lh))
        return img

    def set_rect(self, rect) -> None:
        rect = pygame.Rect(rect)
        if rect != self.rect:
            self.rect = rect
            if self._key is not None:          # wrap again for the new width
                general, items = list(self._key[0]), list(self._key[1])
                self._key = None
                self.set(general, items)

    # --- layout ---------------------------------------------------------------------------
    def _layout(self) -> None:
        x, y = self.rect.x + PAD, self.rect.y + PAD
        for r in self.pinned:
            r.rect = pygame.Rect(x, y, r.image.get_width(), r.image.get_height())
            y += r.rect.h + GAP
        self.list_top = y + (4 if self.pinned else 0)
        y = self.list_top - self.scroll
        for r in self.rows:
            r.rect = pygame.Rect(x, y, r.image.get_width(), r.image.get_height())
            y += r.rect.h + GAP
        # the rows moved or changed under a mouse that did not: the hover is what is under it now
        self.hover = self.row_at(self.mouse) if self.mouse is not None else None

    @property
    def content_h(self) -> int:
        return sum(r.rect.h + GAP for r in self.rows)

    @property
    def list_h(self) -> int:
        """The rows' height in view: the panel below the pinned options, less a strip at its foot
        for the "more below" hint when the list is longer than that (the hint was drawn over the
        last row in view, issue 58)."""
        room = self.rect.bottom - PAD - self.list_top
        return room - HINT_H if self.content_h > room else room

    @property
    def hint_rect(self) -> pygame.Rect | None:
        """The strip under the rows where "more below" is written; None when the list fits."""
        top = self.list_top + self.list_h
        if top >= self.rect.bottom - PAD:
            return None
        return pygame.Rect(self.rect.x + 1, top, self.rect.w - 2, self.rect.bottom - 1 - top)

    def _clamp(self) -> None:
        self.scroll = max(0, min(self.scroll, max(0, self.content_h - self.list_h)))
        self._layout()

    def scroll_to(self, index: int) -> None:
        """Bring an option's row into view."""
        for r in self.rows:
            if r.index == index:
                if r.rect.top < self.list_top:
                    self.scroll -= self.list_top - r.rect.top
                elif r.rect.bottom > self.list_top + self.list_h:
                    self.scroll += r.rect.bottom - (self.list_top + self.list_h)
                self._clamp()
                return

    def row_at(self, pos) -> int | None:
        """The option index under a window point, or None."""
        if not self.rect.collidepoint(pos):
            return None
        for r in self.pinned:
            if r.rect.collidepoint(pos):
                return r.index
        if pos[1] < self.list_top or pos[1] > self.list_top + self.list_h:
            return None
        for r in self.rows:
            if r.rect.collidepoint(pos):
                return r.index
        return None

    def rect_of_row(self, index: int) -> pygame.Rect | None:
        """Where an option's row is drawn now (no scrolling)."""
        for r in self.pinned + self.rows:
            if r.index == index:
                return r.rect.copy()
        return None

    def rect_of(self, index: int) -> pygame.Rect | None:
        """Where an option's row is drawn (scrolled into view first): for tests and tours."""
        if any(r.index == index for r in self.rows):
            self.scroll_to(index)
        for r in self.pinned + self.rows:
            if r.index == index:
                return r.rect.copy()
        return None

    # --- input and drawing ----------------------------------------------------------------
    def handle(self, ev, mouse=None) -> int | None:
        """A click on a row: that option's index. Wheel over the list (``mouse``: where the
        pointer is, as the scene last saw it): scroll. Else None."""
        if ev.type == pygame.MOUSEMOTION:
            self.mouse = ev.pos
            self.hover = self.row_at(ev.pos)
        elif ev.type == pygame.MOUSEWHEEL:
            if self.rect.collidepoint(mouse if mouse is not None else pygame.mouse.get_pos()):
                self.scroll -= ev.y * 40
                self._clamp()
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            return self.row_at(ev.pos)
        return None

    def draw(self, screen) -> None:
        self.more_rect = None
        pygame.draw.rect(screen, BG, self.rect)
        pygame.draw.rect(screen, BORDER, self.rect, 1)
        for r in self.pinned:
            screen.blit(r.image, r.rect)
            pygame.draw.rect(screen, (200, 160, 100) if r.index == self.hover else BORDER, r.rect, 1,
                             border_radius=3)
        if self.pinned:
            y = self.list_top - 3
            pygame.draw.line(screen, BORDER, (self.rect.x + PAD, y), (self.rect.right - PAD, y))
        clip = screen.get_clip()
        area = pygame.Rect(self.rect.x + 1, self.list_top, self.rect.w - 2, max(0, self.list_h))
        screen.set_clip(area)
        for r in self.rows:
            if r.rect.bottom < area.top or r.rect.top > area.bottom:
                continue
            screen.blit(r.image, r.rect)
            if r.index == self.hover:
                pygame.draw.rect(screen, ROW_HOVER, r.rect, 2, border_radius=3)
        screen.set_clip(clip)
        if self.content_h > self.list_h > 0:       # a scroll bar that says how much is below
            frac = self.list_h / self.content_h
            bar_h = max(20, int(self.list_h * frac))
            top = self.list_top + int((self.list_h - bar_h) * self.scroll / max(1, self.content_h - self.list_h))
            track = pygame.Rect(self.rect.right - 9, self.list_top, 5, self.list_h)
            pygame.draw.rect(screen, (40, 34, 28), track, border_radius=2)
            pygame.draw.rect(screen, (160, 130, 90), (track.x, top, 5, bar_h), border_radius=2)
            strip = self.hint_rect
            if self.scroll < self.content_h - self.list_h and strip is not None:
                more = font(13).render("more below: wheel", True, NUMBER)
                self.more_rect = screen.blit(more, more.get_rect(midright=(self.rect.right - 14, strip.centery)))
