"""The table's tools (``game.kit.Tool``): pan and zoom (right or middle drag, the wheel) and the
tape measure (a left drag; a left press that does not move is a click, which the table panel
turns into ``Click`` for the select-and-space answer, ``PlayScene.click``).

A tool reads the camera, the table's rect and the pieces through the ``TableFrame`` it is given,
keeps its own state and returns an intent or None; it never reads the session.
"""
from __future__ import annotations

import math

from game.kit import TAKEN, Tool
from game.render import overlays as ov


class TableFrame:
    """The table as the tools see it: getters of the camera, the table's rect on the screen and
    the pieces (the scene's, re-read after each change)."""

    def __init__(self, cam, rect, pieces):
        self.cam, self.rect, self.pieces = cam, rect, pieces

    def mm(self, pos):
        r = self.rect()
        return ov.screen_to_mm(self.cam(), pos[0] - r.x, pos[1] - r.y)


class PanZoomTool(Tool):
    name = "pan"
    cursor_hint = "right or middle drag: pan; wheel: zoom"

    def __init__(self, frame: TableFrame):
        self.frame = frame
        self.active = False

    def press(self, xy, pos, button, mods):
        self.active = True

    def drag(self, xy, pos, mods, rel=(0, 0)):
        if self.active:
            self.frame.cam().pan(*rel)

    def release(self, xy, pos, button, mods):
        self.active = False

    def wheel(self, y, pointer):
        r = self.frame.rect()
        self.frame.cam().zoom_at(1.15 ** y, pointer[0] - r.x, pointer[1] - r.y)
        return TAKEN

    def cancel(self):
        self.active = False


class TapeTool(Tool):
    """A left drag measures: base edge to base edge where it starts or ends on a model."""
    name = "tape"
    cursor_hint = "left drag: tape measure"

    def __init__(self, frame: TableFrame):
        self.frame = frame
        self.start = None                      # where the left button went down (screen)
        self.tape = None                       # ((x, y) mm, (x, y) mm, from piece, to piece)

    def press(self, xy, pos, button, mods):
        self.start = pos
        self.tape = None

    def drag(self, xy, pos, mods):
        if self.start is not None and math.dist(self.start, pos) > 6:
            self._measure(self.start, pos)

    def release(self, xy, pos, button, mods):
        """None after a drag (the tape stays on the table); the press's point after a click."""
        if self.start is None:
            return None
        start, self.start = self.start, None
        if math.dist(start, pos) > 6:
            self._measure(start, pos)
            return None
        return start

    def cancel(self):
        self.tape = None

    def _measure(self, start, pos) -> None:
        a, b = self.frame.mm(start), self.frame.mm(pos)
        pieces = self.frame.pieces()
        self.tape = (a, b, ov.piece_at(pieces, {}, *a), ov.piece_at(pieces, {}, *b))

    def length(self):
        """Length (mm) of the tape, and its ends: base edge to base edge where it starts or
        ends on a model (as a player measures), else point to point."""
        if not self.tape:
            return None
        a, b, pa, pb = self.tape
        a = (pa["x"], pa["y"]) if pa else a
        b = (pb["x"], pb["y"]) if pb else b
        d = math.dist(a, b)
        if d < 1e-9:
            return 0.0, a, b
        ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
        ra, rb = (pa["radius"] if pa else 0.0), (pb["radius"] if pb else 0.0)
        length = max(0.0, d - ra - rb)
        return length, (a[0] + ux * ra, a[1] + uy * ra), (b[0] - ux * rb, b[1] - uy * rb)


class TableTools:
    """The game's table tools, all live at once (each answers its own button)."""

    def __init__(self, frame: TableFrame):
        self.frame = frame
        self.pan = PanZoomTool(frame)
        self.tape = TapeTool(frame)
