"""The game screen's table points: a model selected by id (Tab, tests), the engine's reason for
refusing a choice, where a model or a table point is on the screen. (Clicks, the tape, panning
and zooming are the table's tools, ``game/play/tools.py``.)

A part of ``PlayScene`` (``game/scenes/play.py``): it reads the scene's ``ctrl``, ``pieces``,
``decision``, ``cam`` and ``table_rect`` and answers through the scene's ``submit``.
"""
from __future__ import annotations

import pygame

from game.render import overlays as ov


class PointerMixin:
    """Selection by id and screen points of ``PlayScene``."""

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
        """A left click on the table at ``pos`` (the select tool's answer, applied)."""
        self.apply(self.tools.select.click(pos, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)))
