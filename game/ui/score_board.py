"""A ruleset's scoreboard (``engine.core.Scoreboard``) in words and drawn: the score panel of the
game screen and the breakdown of the game-over screen. It reads the scoreboard, which is public by
its contract (nothing hidden goes in), and the sides' titles (``game/ui/sides.py``); never the
session, never a player's view.

``ScoreCard`` lays a scoreboard out for a width once (its height is known before it is drawn, so
the screen can give it its room): the mission and the turn, what wins, each side's title in its
colour, a table of the lines (a label, then each side's value in its colour), the notes.
"""
from __future__ import annotations

import pygame

from game.render.look import SIDE_COLOURS
from game.render.text import elide, fit_lines, font

GOLD = (250, 220, 130)
TEXT = (236, 228, 210)
DIM = (196, 186, 166)
NOTE = (230, 200, 140)
RULE = (90, 76, 58)


def side_text_colour(player: int) -> tuple[int, int, int]:
    """A side's colour made light enough to read as small text on the dark panel."""
    r, g, b = SIDE_COLOURS.get(player, TEXT)
    return (r + (255 - r) * 2 // 5, g + (255 - g) * 2 // 5, b + (255 - b) * 2 // 5)


def turn_words(board) -> str:
    """"turn 3 of 6" ("turn 3" in a game with no turn limit)."""
    return f"turn {board.turn}" + (f" of {board.turn_limit}" if board.turn_limit else "")


def sides_of(board, titles: dict) -> list[int]:
    """The sides the scoreboard speaks of, in order (those of its lines, else the titles')."""
    found = sorted({p for line in board.lines for p in line.values})
    return found or sorted(titles)


def breakdown_lines(board, titles: dict, skip_notes: str = "") -> list[str]:
    """The scoreboard in plain lines: the mission and turn, what wins, one line per side with each
    of its values ("Side 1 (Reach Rangers, you): Hold the salvage 2 (1 held); ... Mission score 5"),
    then the notes (those already said in ``skip_notes``, e.g. the result's reason, left out)."""
    out = [f"{board.mission}, {turn_words(board)}: {board.wins}"]
    for p in sides_of(board, titles):
        vals = "; ".join(f"{line.label} {line.values[p]}" for line in board.lines if p in line.values)
        out.append(f"{titles.get(p, f'Side {p}')}: {vals}" if vals else str(titles.get(p, f"Side {p}")))
    out += [n for n in board.notes if n.lower() not in skip_notes.lower()]
    return out


class ScoreCard:
    """A scoreboard laid out for ``width`` pixels at text size ``size``: ``items`` (what is drawn
    where, relative to the card's top left), ``height`` and ``texts`` (every string drawn)."""

    def __init__(self, board, titles: dict, width: int, size: int = 13, skip_notes: str = "",
                 wins_lines: int = 4, pad: int = 6, note_lines: int = 2, label_share: float = 0.42):
        self.board, self.width, self.size = board, width, size
        self.elided = False                 # some words did not fit their lines (cut with "…")
        self.items: list[tuple] = []        # ("text", str, font, colour, (x, y)) / ("dot", colour, (x, y), r) / ("rule", y)
        self.height = 0
        if board is None:
            return
        w = width - 2 * pad
        head, body, small = font(size + 2, True), font(size), font(max(10, size - 1))
        bold = font(size, True)
        y = pad
        # the mission and the turn, on one row
        turn = turn_words(board)
        tw = body.size(turn)[0]
        self._text(elide(board.mission, head, max(20, w - tw - 10)), head, GOLD, (pad, y))
        self._text(turn, body, TEXT, (pad + w - tw, y + (head.get_linesize() - body.get_linesize()) // 2))
        y += head.get_linesize() + 1
        for line in self._fit(board.wins, small, w, wins_lines):
            self._text(line, small, DIM, (pad, y))
            y += small.get_linesize()
        y += 3
        sides = sides_of(board, titles)
        # each side's title in its colour
        for p in sides:
            r = max(3, size // 3)
            self.items.append(("dot", SIDE_COLOURS.get(p, TEXT), (pad + r, y + bold.get_linesize() // 2), r))
            self._text(elide(str(titles.get(p, f"Side {p}")), bold, w - 2 * r - 6), bold, side_text_colour(p),
                       (pad + 2 * r + 6, y))
            y += bold.get_linesize()
        # the lines: a label, then each side's value in its colour
        if board.lines:
            self.items.append(("rule", y + 2))
            y += 5
            label_w = int(w * label_share)
            col_w = (w - label_w) // max(1, len(sides))
            for line in board.lines:
                cells = [self._fit(line.label, body, label_w - 6, 2)]
                cells += [self._fit(str(line.values.get(p, "")), body, col_w - 4, 2) for p in sides]
                for k, cell in enumerate(cells):
                    x = pad if k == 0 else pad + label_w + (k - 1) * col_w
                    colour = DIM if k == 0 else side_text_colour(sides[k - 1])
                    for i, t in enumerate(cell):
                        self._text(t, body, colour, (x, y + i * body.get_linesize()))
                y += max(len(c) for c in cells) * body.get_linesize()
        for note in board.notes:
            if skip_notes and note.lower() in skip_notes.lower():
                continue
            for line in self._fit(note, small, w, note_lines):
                self._text(line, small, NOTE, (pad, y))
                y += small.get_linesize()
        self.height = y + pad

    def _fit(self, text, f, width, most) -> list[str]:
        lines = fit_lines(text, f, width, most)
        if lines and lines[-1].endswith("…") and not text.rstrip().endswith("…"):
            self.elided = True
        return lines

    def _text(self, text, f, colour, pos) -> None:
        self.items.append(("text", text, f, colour, pos))

    @property
    def texts(self) -> list[str]:
        return [it[1] for it in self.items if it[0] == "text"]

    def image(self, background=(38, 31, 24)) -> pygame.Surface:
        """The card drawn once (kept: a card is made anew when its scoreboard changes)."""
        if getattr(self, "_image", None) is None:
            img = pygame.Surface((self.width, max(1, self.height)), pygame.SRCALPHA)
            if background is not None:
                pygame.draw.rect(img, background, img.get_rect(), border_radius=6)
                pygame.draw.rect(img, RULE, img.get_rect(), 1, border_radius=6)
            for it in self.items:
                if it[0] == "text":
                    _, t, f, colour, pos = it
                    img.blit(f.render(t, True, colour), pos)
                elif it[0] == "dot":
                    _, colour, pos, r = it
                    pygame.draw.circle(img, colour, pos, r)
                elif it[0] == "rule":
                    pygame.draw.line(img, RULE, (6, it[1]), (self.width - 6, it[1]))
            self._image = img
        return self._image

    def draw(self, surface, topleft, clip_h: int | None = None) -> None:
        """The card at ``topleft`` of ``surface``, at most ``clip_h`` pixels of it (the rest of a
        card taller than its room is not drawn; the screen lays the card out to fit)."""
        if self.board is None or self.height <= 0:
            return
        img = self.image()
        h = self.height if clip_h is None else max(0, min(self.height, clip_h))
        surface.blit(img, topleft, pygame.Rect(0, 0, self.width, h))
