"""The table's tools (``game.kit.Tool``): pan and zoom (right or middle drag, the wheel), the
tape measure (a left drag) and select (a left press that does not move: a model or a point,
read by the generic controller into ``Submit`` / ``Say``).

A tool reads the camera, the table's rect and the pieces through the ``TableFrame`` it is given,
keeps its own state and returns an intent or None; it never reads the session.
"""
from __future__ import annotations

import math

from game.kit import TAKEN, Command, Say, Submit, Tool
from game.render import overlays as ov
from game.render import piece_tokens as pt


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
        self.tape: tuple | None = None         # ((x, y) mm, (x, y) mm, from piece, to piece)

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
        self.tape = (a, b, pt.piece_at(pieces, {}, *a), pt.piece_at(pieces, {}, *b))

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
        self.select = SelectTool(frame)


class SelectTool(Tool):
    """A left click on the table, read against the decision through the generic controller: a
    model selected, picked or targeted (Shift: a friend into or out of the group), or a point
    answered (a move, a placement; Shift: the other reading, a jump or a throw). Its intents:
    ``Submit`` (the engine's choice), ``Say`` (the controller's refusal, as a warning) and
    ``Command("options", fill)`` (the prompt and options follow the new selection)."""
    name = "select"
    cursor_hint = "click a model, then the table"

    def __init__(self, frame: TableFrame):
        self.frame = frame
        self.ctrl = None               # the generic controller while the viewer answers
        self.player = None             # who decides
        self.why_not = None            # the engine's reason for refusing a choice (a callable)

    def show(self, ctrl, player, why_not) -> None:
        self.ctrl, self.player, self.why_not = ctrl, player, why_not

    def draw_preview(self, surf, camera, xy, shift: bool, unit: str):
        """The tool's own preview at table point ``xy`` (mm) for the selected model: the engine's
        route (its colour says whether the engine allows it), a jump's flight, a cross where the
        answer would be refused. Returns the controller's preview, whose cost and reason the
        screen's tooltip reads, or None."""
        ctrl = self.ctrl
        if ctrl is None or ctrl.selected is None:
            return None
        pv = ctrl.preview(xy[0], xy[1], alternate=shift)
        if pv is None:
            return None
        if pv.path:
            ov.draw_path(surf, camera, pv.path, pv.legal)
        if pv.flight is not None:                # a Jump's heading and where it may land
            ov.draw_flight(surf, camera, pv.flight, pv.legal, unit)
        if not pv.legal:
            ov.draw_cross(surf, ov.mm_to_screen(camera, xy[0], xy[1]))
        return pv

    def click(self, pos, shift: bool):
        ctrl = self.ctrl
        if ctrl is None:
            return None
        x, y = self.frame.mm(pos)
        p = pt.piece_at(self.frame.pieces(), {}, x, y)
        if p is not None and shift and ctrl.selected and ctrl.groups_of(ctrl.selected) and p["player"] == self.player:
            out = ctrl.add_to_group(p["id"], self.why_not)    # Shift+click: a friend in or out of the group
            return (Command("options", True),) + ((Say(out.refusal, warn=True),) if out.refusal else ())
        stale = ()
        if p is not None and p["id"] == ctrl.selected and not shift and ctrl.decision.kind == "move" \
                and ctrl.actors() == {p["id"]}:
            # a move window of one model (a Rush's 2", an Action roll's move) has one thing to do:
            # a click on its own base is a point to move to, as short moves land there
            out = ctrl.click_table(x, y)
            if out.choice is not None:
                return (Command("options", False), Submit(out.choice))
        if p is not None and (p["id"] in ctrl.actors() or ctrl.selected is not None):
            out = ctrl.click_model(p["id"])
            stale = (Command("options", False),)
            if out.choice is not None:
                return stale + (Submit(out.choice),)
            if out.selected == p["id"] or out.selected == ctrl.selected and p["id"] != ctrl.selected:
                stale = (Command("options", True),)
                if out.refusal is None:
                    return stale
            if out.refusal and not ctrl.spaces_for(ctrl.selected):
                return stale + (Say(out.refusal, warn=True),)
        out = ctrl.click_table(x, y, alternate=shift)
        if out.choice is not None:
            return stale + (Submit(out.choice),)
        if out.refusal:
            return stale + (Say(out.refusal, warn=True),)
        return stale
