"""A scrolling game log: each line rendered once, only the visible rows blitted.

pygame_gui's text box re-lays out its whole text on every append (TOOLCHAIN-NOTES: 134 ms at
500 lines), so the log keeps a list of pre-rendered line surfaces instead.
"""
from __future__ import annotations

import pygame

from game.names import named
from game.render.text import font, wrap  # noqa: F401 - wrap lives in render/text.py; kept here for old importers

PRIVATE = (200, 170, 250)          # lines only this player sees
KIND_COLOURS = {"dice": (250, 220, 130), "cards": (250, 220, 130), "card": (250, 220, 130),
                "result": (140, 240, 160), "error": (255, 120, 110), "turn": (160, 200, 255)}


class LogPanel:
    _bg: pygame.Surface | None = None     # the panel's background, made at its size when drawn

    def __init__(self, rect: pygame.Rect, size: int = 16):
        self.rect = pygame.Rect(rect)
        self.size = size
        self.rows: list[pygame.Surface] = []
        self.row_entry: list[int] = []     # row -> index of its entry
        self.texts: list[str] = []
        self.kinds: list[str] = []
        self.payloads: list = []           # per entry: what a click on it shows again (a roll), or None
        self.private: list[bool] = []      # per entry: seen by this player only
        self.repeats: list[int] = []       # per entry: how many times it came in a row
        self.scroll = 0            # rows scrolled up from the bottom
        self.clicked = None        # the payload of the line last clicked
        self.names: dict[int, str] = {}    # players' names read for "Player N" (a network game)

    def clear(self) -> None:
        self.rows.clear()
        self.row_entry.clear()
        self.texts.clear()
        self.kinds.clear()
        self.payloads.clear()
        self.private.clear()
        self.repeats.clear()
        self.scroll = 0

    def add(self, text: str, kind: str = "info", payload=None, private: bool = False) -> None:
        """A line; ``private``: only this player sees it (shown apart, marked). The same line
        again at once is one line with a count ("forfeits a card x7")."""
        if self.texts and self.texts[-1] == text and self.kinds[-1] == kind and payload is None \
                and self.payloads[-1] is None and self.private[-1] == private:
            self.repeats[-1] += 1
            n = len(self.texts) - 1
            while self.row_entry and self.row_entry[-1] == n:        # render the entry again
                self.rows.pop()
                self.row_entry.pop()
            self._render(n)
            return
        self.texts.append(text)
        self.kinds.append(kind)
        self.payloads.append(payload)
        self.private.append(private)
        self.repeats.append(1)
        self._render(len(self.texts) - 1)
        if self.scroll:
            self.scroll += 1        # keep the reader's place when scrolled back

    def shown(self, n: int) -> str:
        """Entry ``n`` as the log shows it: each named seat's "Player N" read as its name (the
        entry itself, ``texts[n]``, keeps the engine's words)."""
        return named(self.texts[n], self.names)

    def set_names(self, names: dict[int, str]) -> None:
        """The players' names (a network game: they come as the players join): every line is
        drawn again with them, none lost (the client's own lines stay)."""
        names = dict(names or {})
        if names == self.names:
            return
        self.names = names
        self.rows.clear()
        self.row_entry.clear()
        for n in range(len(self.texts)):
            self._render(n)

    def _render(self, n: int) -> None:
        f = font(self.size)
        colour = PRIVATE if self.private[n] else KIND_COLOURS.get(self.kinds[n], (226, 220, 206))
        text = ("\u25b8 only you: " if self.private[n] else "") + self.shown(n) \
            + (f"  \u00d7{self.repeats[n]}" if self.repeats[n] > 1 else "")
        for line in wrap(text, f, self.rect.w - 14):
            self.rows.append(f.render(line, True, colour))
            self.row_entry.append(n)

    def set_rect(self, rect) -> None:
        rect = pygame.Rect(rect)
        if rect.w != self.rect.w:   # re-wrap for the new width
            entries = list(zip(self.texts, self.kinds, self.payloads, self.private, self.repeats))
            self.rect = rect
            self.clear()
            for t, k, p, priv, n in entries:
                for _ in range(n):
                    self.add(t, k, p, priv)
        self.rect = rect

    def handle(self, ev, mouse=None) -> bool:
        """The wheel scrolls; a click on a line with a payload (a roll) sets ``clicked``."""
        pos = mouse if mouse is not None else pygame.mouse.get_pos()
        if ev.type == pygame.MOUSEWHEEL and self.rect.collidepoint(pos):
            self.scroll = max(0, min(len(self.rows) - 1, self.scroll + ev.y * 3))
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.rect.collidepoint(ev.pos):
            row = self._row_at(ev.pos[1])
            if row is not None and self.payloads[self.row_entry[row]] is not None:
                self.clicked = self.payloads[self.row_entry[row]]
            return True
        return False

    def _row_at(self, y: int) -> int | None:
        line_h = font(self.size).get_linesize()
        n = max(1, (self.rect.h - 8) // line_h)
        end = len(self.rows) - self.scroll
        shown = list(range(max(0, end - n), end))
        top = self.rect.bottom - 4 - len(shown) * line_h
        k = (y - top) // line_h
        return shown[k] if 0 <= k < len(shown) else None

    def draw(self, screen) -> None:
        if self._bg is None or self._bg.get_size() != self.rect.size:
            self._bg = pygame.Surface(self.rect.size)
            self._bg.fill((18, 15, 12))
        screen.blit(self._bg, self.rect)
        pygame.draw.rect(screen, (120, 100, 70), self.rect, 1)
        line_h = font(self.size).get_linesize()
        n = max(1, (self.rect.h - 8) // line_h)
        end = len(self.rows) - self.scroll
        rows = self.rows[max(0, end - n):end]
        y = self.rect.bottom - 4 - len(rows) * line_h
        clip = screen.get_clip()
        screen.set_clip(self.rect)
        for s in rows:
            screen.blit(s, (self.rect.x + 7, y))
            y += line_h
        screen.set_clip(clip)
        if self.scroll:
            tag = font(14).render(f"scrolled back {self.scroll} lines - wheel down", True, (250, 220, 130))
            screen.blit(tag, (self.rect.right - tag.get_width() - 6, self.rect.y + 3))
