"""Help where the choice is made: a card for the option under the mouse (what it does, what it
costs, its odds, the rule's source), the rules glossary (F2) and the legend of the terrain and
the shadings (L), all from the help files (``game.ui.help_text``)."""
from __future__ import annotations

import functools

import pygame

from game.render.text import font, wrap

from . import help_text

BG = (16, 13, 10, 238)
EDGE = (200, 170, 110)
TITLE = (250, 220, 130)
TEXT = (236, 228, 210)
SOURCE = (160, 150, 132)


def _safe(fn, *a):
    """Help is an aid: a help file that does not read never takes a frame down."""
    try:
        return fn(*a)
    except Exception:  # noqa: BLE001 - a DataError from a damaged file, or anything else
        return None


@functools.lru_cache(maxsize=128)
def option_card(ruleset: str, label: str, tag_key, width: int = 360) -> pygame.Surface:
    """The card for one option: its label (with odds and cost), then the rule in a player's
    words and where it is written. ``tag_key`` is the choice (hashable) help is looked up by."""
    entry = _safe(help_text.help_for, ruleset, tag_key)
    f, fb, fs = font(14), font(15, True), font(12)
    lines = [(w, fb, TITLE) for w in wrap(label, fb, width - 20)]
    if entry is not None:
        lines += [("", f, TEXT)] + [(w, f, TEXT) for w in wrap(entry.text, f, width - 20)]
        if entry.source:
            lines += [(w, fs, SOURCE) for w in wrap("rule: " + entry.source, fs, width - 20)]
    return _box(lines, width)


def _box(lines, width: int) -> pygame.Surface:
    h = sum(fn.get_linesize() for _, fn, _ in lines) + 16
    box = pygame.Surface((width, h), pygame.SRCALPHA)
    pygame.draw.rect(box, BG, box.get_rect(), border_radius=8)
    pygame.draw.rect(box, EDGE, box.get_rect(), 1, border_radius=8)
    y = 8
    for text, fn, colour in lines:
        if text:
            box.blit(fn.render(text, True, colour), (10, y))
        y += fn.get_linesize()
    return box


class ReferencePanel:
    """A scrolled overlay of entries (the glossary, or the legend with colour swatches)."""

    def __init__(self, title: str, entries: list):
        self.title = title
        self.entries = entries or []
        self.scroll = 0
        self._image: pygame.Surface | None = None
        self._width = 0

    def _render(self, width: int) -> pygame.Surface:
        f, fb, fs = font(14), font(15, True), font(12)
        lines = [(self.title, font(20, True), TITLE, None), ("Esc or the same key closes this; the wheel scrolls",
                                                             fs, SOURCE, None), ("", f, TEXT, None)]
        for e in self.entries:
            sw = getattr(e, "colour", None)
            lines.append((e.title, fb, TITLE, sw))
            lines += [(w, f, TEXT, None) for w in wrap(e.text, f, width - 40)]
            if e.source:
                lines += [(w, fs, SOURCE, None) for w in wrap(e.source, fs, width - 40)]
            lines.append(("", fs, TEXT, None))
        h = sum(fn.get_linesize() for _, fn, _, _ in lines) + 20
        img = pygame.Surface((width, h), pygame.SRCALPHA)
        y = 10
        for text, fn, colour, swatch in lines:
            x = 14
            if swatch:
                pygame.draw.rect(img, tuple(swatch[:3]), (x, y + 3, 12, 12))
                pygame.draw.rect(img, (20, 16, 12), (x, y + 3, 12, 12), 1)
                x += 18
            if text:
                img.blit(fn.render(text, True, colour), (x, y))
            y += fn.get_linesize()
        return img

    def handle(self, ev) -> bool:
        if ev.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - ev.y * 40)
            return True
        return False

    def draw(self, screen, area: pygame.Rect) -> None:
        width = min(720, area.w - 40)
        if self._image is None or self._width != width:
            self._image, self._width = self._render(width), width
        r = pygame.Rect(0, 0, width, min(area.h - 40, self._image.get_height()))
        r.center = area.center
        self.scroll = min(self.scroll, max(0, self._image.get_height() - r.h))
        box = pygame.Surface(r.size, pygame.SRCALPHA)
        pygame.draw.rect(box, BG, box.get_rect(), border_radius=10)
        box.blit(self._image, (0, -self.scroll))
        pygame.draw.rect(box, EDGE, box.get_rect(), 1, border_radius=10)
        screen.blit(box, r)


def glossary_panel(ruleset: str, name: str) -> ReferencePanel:
    return ReferencePanel(f"{name}: the rules in short (F2)", _safe(help_text.glossary, ruleset) or [])


def legend_panel(ruleset: str) -> ReferencePanel:
    return ReferencePanel("Legend: terrain, shadings and marks on the table (L)", _safe(help_text.legend, ruleset) or [])


def marker_words(ruleset: str, markers) -> list[str]:
    """Each marker of a piece with what it means, for the piece's card. Help that opens with the
    condition's own name ("Spent: cannot be activated…") is not given the marker's word before
    it again (issue 58: "Spent: Spent: …"); a marker with a number ("aggressiveness 2") keeps
    its word, which says how much, in place of the help's name."""
    out = []
    for m in markers:
        text = _safe(help_text.marker_help, ruleset, m)
        if not text:
            out.append(m)
            continue
        head, sep, rest = text.partition(": ")
        if sep and _same_condition(head, m):
            out.append(f"{m}: {rest}" if any(ch.isdigit() for ch in m) else text)
        else:
            out.append(f"{m}: {text}")
    return out


def _same_condition(head: str, marker: str) -> bool:
    """Whether a help text's opening name ("Panicked", "Aggressiveness", "The crew's leader")
    names the marker ("Panic", "aggressiveness 2", "Leader"): a few words, not a sentence, the
    same as the marker's, numbers aside, or one the start of the other, or ending in them."""
    if len(head.split()) > 4 or any(ch in head for ch in ".;,("):
        return False
    a = help_text._norm("".join(ch for ch in head if not ch.isdigit()))
    b = help_text._norm("".join(ch for ch in marker if not ch.isdigit()))
    return bool(a and b) and (a.startswith(b) or b.startswith(a) or a.endswith(" " + b))
