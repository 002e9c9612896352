"""The game screen's clicks on the table: selecting and clicking models, clicking a point for a
space (a move, a throw); where a model or a table point is on the screen. (The tape, panning and
zooming are the table's tools, ``game/play/tools.py``; the table panel turns a left click into
``Click``, which ``PlayScene.apply`` gives to ``click`` here.)

A part of ``PlayScene`` (``game/scenes/play.py``): it reads the scene's ``ctrl``, ``pieces``,
``decision``, ``cam`` and ``table_rect`` and answers through the scene's ``submit``.
"""
from __future__ import annotations

import pygame

from game.render import overlays as ov


class PointerMixin:
    """Clicks, drags and the tape of ``PlayScene``."""

    def select(self, mid) -> None:
        if self.ctrl:
            out = self.ctrl.click_model(mid)
            self._last_prompt = None
            if out.choice is not None:
                self.submit(out.choice)
            else:
                self._fill_options()

    def _why_not(self, choice) -> str | None:
        """The engine's reason for refusing ``choice`` now, in the rules' words (None: taken)."""
        from engine.core.errors import GameError
        try:
            self.session.game.check(self.decision.player, choice, self.decision.seq)
        except GameError as err:
            return "; ".join(getattr(err, "reasons", ())) or getattr(err, "what", str(err))
        return None

    def screen_pos_of(self, mid: str) -> tuple[int, int]:
        """Where a model is drawn in the window (for tests and screenshots)."""
        p = next(q for q in self.pieces if q["id"] == mid)
        x, y = ov.mm_to_screen(self.cam, p["x"], p["y"])
        return round(x) + self.table_rect.x, round(y) + self.table_rect.y

    def screen_of_mm(self, x: float, y: float) -> tuple[int, int]:
        """Where a table point (mm) is drawn in the window."""
        sx, sy = ov.mm_to_screen(self.cam, x, y)
        return round(sx) + self.table_rect.x, round(sy) + self.table_rect.y

    def _table_pos(self, pos):
        return pos[0] - self.table_rect.x, pos[1] - self.table_rect.y

    def _mm(self, pos):
        return ov.screen_to_mm(self.cam, *self._table_pos(pos))

    def tape_length(self) -> tuple[float, tuple, tuple] | None:
        """Length (mm) of the tape and its ends (the tape tool's, ``game/play/tools.py``)."""
        return self.tools.tape.length()

    def click(self, pos) -> None:
        """A left click on the table: a model (select, pick, target) or a point (a space)."""
        if self.ctrl is None:
            return
        x, y = self._mm(pos)
        p = ov.piece_at(self.pieces, {}, x, y)
        shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        if p is not None and shift and self.ctrl.selected and self.ctrl.groups_of(self.ctrl.selected) \
                and p["player"] == self.decision.player:
            out = self.ctrl.add_to_group(p["id"], self._why_not)   # Shift+click: a friend in or out of the group
            self._last_prompt = None
            self._fill_options()
            if out.refusal:
                self.say(out.refusal, error=True)
            return
        if p is not None and (p["id"] in self.ctrl.actors() or self.ctrl.selected is not None):
            out = self.ctrl.click_model(p["id"])
            self._last_prompt = None
            if out.choice is not None:
                self.submit(out.choice)
                return
            if out.selected == p["id"] or out.selected == self.ctrl.selected and p["id"] != self.ctrl.selected:
                self._fill_options()
                if out.refusal is None:
                    return
            if out.refusal and not self.ctrl.spaces_for(self.ctrl.selected):
                self.say(out.refusal, error=True)
                return
        out = self.ctrl.click_table(x, y, alternate=bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
        if out.choice is not None:
            self.submit(self._with_facing(out.choice))
        elif out.refusal:
            self.say(out.refusal, error=True)
