"""The game screen's table points and its selection: a model selected by id (Tab, tests), which
model stays selected as the decisions change, the engine's reason for refusing a choice, where a
model or a table point is on the screen. (Clicks, the tape, panning and zooming are the table's
tools, ``game/play/tools.py``.)

An owned part of the game screen (``game/scenes/play.py``): it reads the state's ``ctrl``,
``pieces``, ``decision``, ``cam`` and ``table_rect``, writes the selection kept across decisions
(``last_selected``, ``actors_before``) and answers through the answering part.
"""
from __future__ import annotations

import pygame

from game.render import overlays as ov


def table_pos(state, pos):
    """A window point in the table's own pixels."""
    return pos[0] - state.table_rect.x, pos[1] - state.table_rect.y


def mm(state, pos):
    """A window point on the table (mm)."""
    return ov.screen_to_mm(state.cam, *table_pos(state, pos))


class Pointer:
    """Selection by id, the kept selection and screen points. Given the state, the answering part,
    the options part (the list follows the selection) and the table's tools."""

    def __init__(self, state, answering, options, tools):
        self.state = state
        self.submit = answering.submit
        self.options = options
        self.tools = tools

    def reselect(self, ctrl, decision) -> None:
        """A new controller (the view read again): the model that just acted stays selected (its
        next action, its odds on hover); one model that must answer on the table (a reaction's
        move, a Rush) is selected at once, with no click to find it; else a group's next member."""
        st = self.state
        if ctrl is None:
            return
        actors = ctrl.actors()
        if st.last_selected in actors:
            ctrl.selected = st.last_selected
        elif len(actors) == 1 and ctrl.spaces_for(next(iter(actors))):
            ctrl.selected = next(iter(actors))
        else:
            ctrl.selected = ctrl.next_member(st.actors_before.get(decision.player, frozenset()), st.last_selected)
        st.actors_before[decision.player] = frozenset(actors)

    def remember(self, old_selected) -> None:
        """The selection before the view is read again, kept across the other side's decisions."""
        self.state.last_selected = old_selected or self.state.last_selected

    def deselect(self) -> None:
        """Esc: the selection dropped (not kept for the next decision either)."""
        if self.state.ctrl:
            self.state.ctrl.deselect()
            self.state.last_selected = None

    def select(self, mid) -> None:
        ctrl = self.state.ctrl
        if ctrl:
            out = ctrl.click_model(mid)
            self.options.stale()
            if out.choice is not None:
                self.submit(out.choice)
            else:
                self.options.fill()

    def pick(self, index: int) -> None:
        """A row of the options list clicked: its choice (or the row selects a model)."""
        if self.state.ctrl:
            out = self.state.ctrl.pick(index)
            if out.choice is not None:
                self.submit(out.choice)

    def hotkey(self, n: int) -> None:
        """1-9: the listed option of that number."""
        if self.state.ctrl:
            out = self.state.ctrl.hotkey(n)
            if out.choice is not None:
                self.submit(out.choice)

    def why_not(self, choice) -> str | None:
        """The engine's reason for refusing ``choice`` now, in the rules' words (None: taken)."""
        from engine.core.errors import GameError
        d = self.state.decision
        try:
            self.state.session.game.check(d.player, choice, d.seq)
        except GameError as err:
            return "; ".join(getattr(err, "reasons", ())) or getattr(err, "what", str(err))
        return None

    def screen_pos_of(self, mid: str) -> tuple[int, int]:
        """Where a model is drawn in the window (for tests and screenshots)."""
        st = self.state
        p = next(q for q in st.pieces if q["id"] == mid)
        return self.screen_of_mm(p["x"], p["y"])

    def screen_of_mm(self, x: float, y: float) -> tuple[int, int]:
        """Where a table point (mm) is drawn in the window."""
        st = self.state
        sx, sy = ov.mm_to_screen(st.cam, x, y)
        return round(sx) + st.table_rect.x, round(sy) + st.table_rect.y

    def tape_length(self) -> tuple[float, tuple, tuple] | None:
        """Length (mm) of the tape and its ends (the tape tool's, ``game/play/tools.py``)."""
        return self.tools.tape.length()

    def click(self, pos):
        """A left click on the table at ``pos``: the select tool's intents (to be applied)."""
        return self.tools.select.click(pos, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
