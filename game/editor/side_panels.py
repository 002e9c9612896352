"""The editor's panels that only show (``game.kit.Panel``): the live analysis at the right, the
status line under the table with the messages over it, and the help. Each draws from what the
scene gives it (``show(...)``: values, never the scene or the document) and takes no input.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from engine.workshop.live import LiveResult
from game.editor.figures import diff_text, symmetry_line
from game.editor.figures import rows as figure_rows
from game.editor.layout import PANEL_W
from game.kit.panel import Panel
from game.render.text import font
from game.ui.toasts import clear_of, scale_bar_on_screen, toast

HELP = [
    "Layout editor",
    "Click a palette item, then the table to place it (Shift: keep placing); R turns the item to place",
    "Click a piece to select it (its group with it); Shift+click adds or removes; drag on the table to box-select",
    "Drag a selection to move it (grid and alignment snapping; hold Alt to place freely); arrows nudge",
    "Drag the round handle to turn (15-degree steps), the square one to scale; R / Shift+R turn by 15 degrees",
    "V: edit the corners of the selected piece (Insert adds one under the pointer, Backspace removes it)",
    "Del: delete   Ctrl+C / Ctrl+V / Ctrl+D: copy, paste at the pointer, duplicate   Ctrl+G: group   L: lock",
    "Ctrl+Z / Ctrl+Y: undo, redo   Ctrl+S: save   Ctrl+Shift+S: save as   Ctrl+O: open   Ctrl+N: new",
    "M: symmetry mode   G: snapping   O: overlay (openness, hidden ground, lanes)   F: fit   F1: this help",
    "Right drag: pan   Wheel: zoom   Esc: cancel, deselect",
]


class TextCache:
    """Rendered text and wrapped lines, kept per text (drawn every frame)."""

    def __init__(self):
        self.memo: dict = {}

    def text(self, text, size=15, bold=False, colour=(236, 228, 210)):
        key = ("t", text, size, bold, colour)
        s = self.memo.get(key)
        if s is None:
            if len(self.memo) > 400:
                self.memo.clear()
            s = self.memo[key] = font(size, bold).render(text, True, colour)
        return s

    def wrap(self, lines, size, width) -> list[str]:
        """``lines`` broken at spaces to fit ``width`` pixels."""
        key = ("wrap", tuple(lines), size, width)
        got = self.memo.get(key)
        if got is None:
            f = font(size)
            got = []
            for line in lines:
                cur = ""
                words = []
                for word in line.split(" "):
                    while f.size(word)[0] > width and len(word) > 8:    # a path longer than the panel
                        k = max(8, int(len(word) * width / f.size(word)[0]) - 1)
                        words.append(word[:k])
                        word = word[k:]
                    words.append(word)
                for word in words:
                    cand = f"{cur} {word}".strip()
                    if cur and f.size(cand)[0] > width:
                        got.append(cur)
                        cur = word
                    else:
                        cur = cand
                got.append(cur)
            self.memo[key] = got
        return got


@dataclass
class AnalysisView:
    """What the analysis panel shows: the field being typed's problem, a refused save's lines,
    the newest analysis (``live``) against the saved map's (``baseline``), and the generator's
    and balance test's lines above their progress bars (``floor``: the bars' top)."""
    problem: str = ""
    save_lines: list = field(default_factory=list)
    live: LiveResult | None = None
    baseline: LiveResult | None = None
    busy: bool = False
    generate_lines: list = field(default_factory=list)
    balance_lines: list = field(default_factory=list)
    floor: int | None = None


class AnalysisPanel(Panel):
    """The live sight analysis: side 1 / side 2 figures and their change since the last save."""

    def __init__(self, rect, texts: TextCache):
        super().__init__(rect)
        self.t = texts
        self.view = AnalysisView()

    def show(self, view: AnalysisView) -> None:
        self.view = view

    def draw(self, screen) -> None:
        r, v, T = self.rect, self.view, self.t.text
        pygame.draw.rect(screen, (36, 30, 25), r)
        x, y = r.x + 10, r.y + 6
        if v.problem:
            screen.blit(T(v.problem[:52], 14, True, (255, 150, 130)), (x, y))
            y += 20
        for line in self.t.wrap(v.save_lines[:3], 13, PANEL_W - 20)[:6]:
            screen.blit(T(line, 13, False, (255, 150, 130)), (x, y))
            y += 17
        lv = v.live
        busy = " (updating...)" if v.busy else ""
        if lv is None:
            screen.blit(T("Sight analysis" + (busy or ": waiting"), 15, True), (x, y))
            return
        screen.blit(T(f"Sight, {'2' if lv.coarse else '1'}\" grid{busy}", 15, True), (x, y))
        y += 20
        if lv.error:
            screen.blit(T(lv.error[:56], 13, False, (255, 150, 130)), (x, y))
            return
        if lv.metrics.get("missing_sides"):
            screen.blit(T(f"no zone for side {lv.metrics['missing_sides'][0]} yet", 13, False, (255, 190, 120)), (x, y))
            y += 17
        base = v.baseline.metrics if v.baseline is not None else None
        screen.blit(T("side 1 / side 2, and since the last save", 12, False, (180, 170, 150)), (x, y))
        y += 17
        for label, a, b, d in figure_rows(lv.metrics, base):
            screen.blit(T(label, 14), (x, y))
            screen.blit(T(a if not b else f"{a} / {b}", 14, True), (x + 160, y))
            dt = diff_text(d)
            if dt:
                screen.blit(T(dt, 14, True, (255, 170, 80) if d is not None and d > 0 else (120, 180, 255)), (x + 270, y))
            y += 18
        y += 4
        # the generator's lines, then the balance test's, above whichever progress bars show
        floor = (v.floor if v.floor is not None else r.bottom) - 4
        for lines, col in ((v.generate_lines[:5], (200, 225, 250)), (v.balance_lines[:4], (220, 235, 200))):
            for line in self.t.wrap(lines, 13, PANEL_W - 20)[:8]:
                if y + 17 > floor:
                    return
                screen.blit(T(line, 13, False, col), (x, y))
                y += 17


class StatusPanel(Panel):
    """The status line (the file, the table, the symmetry score, the pointer's table point) and
    the messages over the table's foot, newest lowest (``rects``: where they were drawn)."""

    def __init__(self, rect, table_rect, texts: TextCache):
        super().__init__(rect)
        self.table_rect = pygame.Rect(table_rect)
        self.t = texts
        self.parts: list[str] = []
        self.messages: list = []
        self.renderer = None
        self.rects: list = []

    def show(self, parts, messages, renderer) -> None:
        self.parts, self.messages, self.renderer = parts, messages, renderer

    def draw(self, screen) -> None:
        r = self.rect
        pygame.draw.rect(screen, (22, 18, 15), r)
        screen.blit(self.t.text("   |   ".join(self.parts), 14), (r.x + 8, r.y + 4))
        # each message fitted to the table's width (a long path wraps), kept clear of the scale bar
        tr = self.table_rect
        bar = scale_bar_on_screen(self.renderer, tr)
        y = tr.bottom - 8
        self.rects = []
        memo = self.t.memo
        for text, _until, err in reversed(self.messages):
            key = ("toast", text, err, tr.w)
            lab = memo.get(key)
            if lab is None:
                lab = memo[key] = toast(text, 15, tr.w - 28, (255, 160, 140) if err else (240, 232, 214),
                                        (30, 22, 16, 235))
            rr = clear_of(lab.get_rect(bottomright=(tr.right - 8, y)), bar)
            screen.blit(lab, rr)
            self.rects.append(rr)
            y = rr.top - 3


def status_parts(doc, live, symmetry, pointer_world) -> list[str]:
    m = doc.map
    score = symmetry_line(live.metrics, symmetry) if (live and live.metrics) else "..."
    parts = [doc.title(), f"{m.width:g}x{m.height:g} {m.unit}, {len(m.pieces)} pieces", f"symmetry: {score}"]
    if pointer_world is not None:
        parts.append(f"({pointer_world[0]:.1f}, {pointer_world[1]:.1f})")
    return parts


class HelpPanel(Panel):
    """The controls, over the table's centre (F1 or the ? button; Esc closes it)."""

    def __init__(self, rect):
        super().__init__(rect)
        self.visible = False

    def draw(self, screen) -> None:
        w, h = 760, 26 * len(HELP) + 20
        box = pygame.Surface((w, h), pygame.SRCALPHA)
        box.fill((20, 16, 12, 235))
        for i, line in enumerate(HELP):
            box.blit(font(17 if i == 0 else 14, i == 0).render(line, True, (240, 232, 214)), (14, 10 + 26 * i))
        screen.blit(box, box.get_rect(center=self.rect.center))

    def contains(self, pos) -> bool:
        return False
