"""The force builder's lists: ``Row`` (wrapped text, buttons, a check box), ``RowsPanel`` (titled, scrolled), colours."""
from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from game.kit import TAKEN, Panel
from game.render.text import font, wrap

PAD = 8
GAP = 4
BG = (24, 20, 16)
ROW_BG = (44, 37, 30)
ROW_SEL = (92, 74, 44)
ROW_HOVER = (200, 160, 100)
BORDER = (120, 100, 70)
TEXT = (240, 232, 216)
DIM = (178, 166, 146)
GOLD = (250, 210, 90)
GREEN = (120, 210, 120)
RED = (235, 95, 80)
BUTTON = (70, 58, 44)


@dataclass
class Row:
    """One row of a list: a line of text (wrapped), a smaller line under it, a figure on the
    right, small buttons (label, intent), a check box (None: none), and what a click on the row
    does. A header row is a title between rows."""
    text: str
    sub: str = ""
    right: str = ""
    intent: object = None
    buttons: list = field(default_factory=list)
    check: bool | None = None
    header: bool = False
    selected: bool = False
    colour: tuple | None = None
    big: bool = False
    name: str = ""               # a handle for tests and tours ("add:<template>", "gear:<key>")


class RowsPanel(Panel):
    """A titled, scrolled list of ``Row``s."""

    title = ""

    def __init__(self, rect=None):
        super().__init__(rect)
        self.rows: list[Row] = []
        self.scroll = 0
        self.hover: int | None = None
        self._laid: list[tuple[pygame.Rect, list[pygame.Rect], pygame.Surface]] = []
        self._key = None

    # --- content and layout ---------------------------------------------------------------
    def set_rows(self, rows: list[Row]) -> None:
        self.rows = rows
        self._key = None
        self._layout()

    def layout(self, rect) -> None:
        super().layout(rect)
        self._key = None
        self._layout()

    @property
    def list_top(self) -> int:
        return self.rect.y + (PAD + font(16, True).get_linesize() + 4 if self.title else PAD)

    @property
    def list_h(self) -> int:
        return max(0, self.rect.bottom - PAD - self.list_top)

    def _render(self, row: Row, width: int) -> tuple[pygame.Surface, list[pygame.Rect]]:
        """The row's picture and its buttons' rects (in the picture)."""
        if row.header:
            f = font(14, True)
            lines = wrap(row.text, f, width - 4)
            img = pygame.Surface((width, f.get_linesize() * len(lines) + 6), pygame.SRCALPHA)
            for k, line in enumerate(lines):
                img.blit(f.render(line, True, row.colour or GOLD), (2, 4 + k * f.get_linesize()))
            return img, []
        f = font(19 if row.big else 15, row.big)
        fs = font(12)
        bw = [max(26, fs.size(lab)[0] + 14) for lab, _ in row.buttons]
        right_w = (f.size(row.right)[0] + 10) if row.right else 0
        check_w = 20 if row.check is not None else 0
        text_w = max(40, width - 12 - check_w - right_w - sum(b + 4 for b in bw))
        lines = wrap(row.text, f, text_w)
        # the line under keeps clear of the buttons (they reach below the first line)
        subs = wrap(row.sub, fs, width - 12 - check_w - sum(b + 4 for b in bw)) if row.sub else []
        h = 6 + f.get_linesize() * len(lines) + fs.get_linesize() * len(subs) + 4
        h = max(h, 28)
        img = pygame.Surface((width, h), pygame.SRCALPHA)
        img.fill((*ROW_SEL, 255) if row.selected else (*ROW_BG, 255))
        x = 6
        if row.check is not None:
            box = pygame.Rect(x, 7, 13, 13)
            pygame.draw.rect(img, TEXT, box, 1)
            if row.check:
                pygame.draw.lines(img, GREEN, False, [(box.x + 2, box.y + 7), (box.x + 5, box.bottom - 3),
                                                      (box.right - 2, box.y + 2)], 2)
            x += check_w
        colour = row.colour or TEXT
        for k, line in enumerate(lines):
            img.blit(f.render(line, True, colour), (x, 4 + k * f.get_linesize()))
        y = 4 + f.get_linesize() * len(lines)
        for k, line in enumerate(subs):
            img.blit(fs.render(line, True, DIM), (x, y + k * fs.get_linesize()))
        bx = width - 6
        rects = []
        for lab, w in reversed(list(zip([b[0] for b in row.buttons], bw))):
            r = pygame.Rect(bx - w, 4, w, 20)
            pygame.draw.rect(img, BUTTON, r, border_radius=4)
            pygame.draw.rect(img, BORDER, r, 1, border_radius=4)
            t = fs.render(lab, True, TEXT)
            img.blit(t, t.get_rect(center=r.center))
            rects.append(r)
            bx -= w + 4
        rects.reverse()
        if row.right:
            t = f.render(row.right, True, colour)
            img.blit(t, (bx - t.get_width() - 4, 4))
        return img, rects

    def _layout(self) -> None:
        width = max(60, self.rect.w - 2 * PAD - 8)
        key = (tuple((r.text, r.sub, r.right, tuple(b[0] for b in r.buttons), r.check, r.header, r.selected,
                      r.colour, r.big) for r in self.rows), width)
        if key != self._key:
            self._key = key
            self._images = [self._render(r, width) for r in self.rows]
        self.scroll = max(0, min(self.scroll, max(0, self.content_h - self.list_h)))
        x, y = self.rect.x + PAD, self.list_top - self.scroll
        self._laid = []
        for img, brects in self._images:
            r = pygame.Rect(x, y, img.get_width(), img.get_height())
            self._laid.append((r, [b.move(r.topleft) for b in brects], img))
            y += r.h + GAP

    @property
    def content_h(self) -> int:
        return sum(img.get_height() + GAP for img, _ in getattr(self, "_images", []))

    # --- where things are (tests, tours) --------------------------------------------------
    def row_rect(self, name: str) -> pygame.Rect | None:
        """The rect of the row named ``name``, scrolled into view first."""
        for i, row in enumerate(self.rows):
            if row.name == name:
                self._scroll_into_view(i)
                return self._laid[i][0].copy()
        return None

    def button_rect(self, name: str, label: str) -> pygame.Rect | None:
        for i, row in enumerate(self.rows):
            if row.name == name:
                self._scroll_into_view(i)
                for (lab, _), r in zip(row.buttons, self._laid[i][1]):
                    if lab == label:
                        return r.copy()
        return None

    def _scroll_into_view(self, i: int) -> None:
        r = self._laid[i][0]
        if r.top < self.list_top:
            self.scroll -= self.list_top - r.top
        elif r.bottom > self.list_top + self.list_h:
            self.scroll += r.bottom - (self.list_top + self.list_h)
        self._layout()

    # --- input ----------------------------------------------------------------------------
    def _at(self, pos):
        if not self.rect.collidepoint(pos) or not (self.list_top <= pos[1] <= self.list_top + self.list_h):
            return None, None
        for i, (r, brects, _) in enumerate(self._laid):
            if r.collidepoint(pos):
                for (_lab, intent), b in zip(self.rows[i].buttons, brects):
                    if b.collidepoint(pos):
                        return i, intent
                return i, self.rows[i].intent
        return None, None

    def handle(self, ev):
        if ev.type == pygame.MOUSEWHEEL:
            self.scroll -= ev.y * 40
            self._layout()
            return TAKEN
        if ev.type == pygame.MOUSEMOTION:
            self.hover = self._at(ev.pos)[0]
            return None
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            i, intent = self._at(ev.pos)
            if intent is not None:
                return intent
            return TAKEN
        return None

    # --- drawing --------------------------------------------------------------------------
    def draw(self, surface) -> None:
        pygame.draw.rect(surface, BG, self.rect)
        pygame.draw.rect(surface, BORDER, self.rect, 1)
        if self.title:
            surface.blit(font(16, True).render(self.title, True, GOLD), (self.rect.x + PAD, self.rect.y + PAD - 2))
        clip = surface.get_clip()
        area = pygame.Rect(self.rect.x + 1, self.list_top, self.rect.w - 2, self.list_h)
        surface.set_clip(area)
        for i, (r, _, img) in enumerate(self._laid):
            if r.bottom < area.top or r.top > area.bottom:
                continue
            surface.blit(img, r)
            row = self.rows[i]
            if i == self.hover and not row.header and (row.intent is not None or row.buttons):
                pygame.draw.rect(surface, ROW_HOVER, r, 1, border_radius=3)
        surface.set_clip(clip)
        if self.content_h > self.list_h > 0:         # how much is below, and a bar
            bar_h = max(20, int(self.list_h * self.list_h / self.content_h))
            top = self.list_top + int((self.list_h - bar_h) * self.scroll / max(1, self.content_h - self.list_h))
            pygame.draw.rect(surface, (40, 34, 28), (self.rect.right - 8, self.list_top, 5, self.list_h), border_radius=2)
            pygame.draw.rect(surface, (160, 130, 90), (self.rect.right - 8, top, 5, bar_h), border_radius=2)
