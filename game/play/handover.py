"""Hot-seat privacy and the end of the game: after every change, the game-over screen or, before
anything private of another player could be drawn, the pass screen, as ``next_screen``
(``game/play/flow.py``) decides.

A part of ``PlayScene`` (``game/scenes/play.py``). The invariant has three parts: this check
runs after every answer and at the start of every frame (``update``), ``draw`` draws nothing
while ``GameSession.pass_due()`` names a player, and ``refresh`` gives a controller only to the
deciding human whose eyes the screen shows. A replay overrides ``_check_flow`` (no pass screens).
"""
from __future__ import annotations

from game.play.flow import next_screen


class HandoverMixin:
    """The game-over and pass screens of ``PlayScene``: pushed over it (it stays under them)."""

    def _check_flow(self) -> bool:
        """Game over, or a pass screen before anything private of another player is drawn.
        True when the scene was left (nothing more may be drawn or answered here)."""
        t = next_screen(self.session, getattr(self, "game_over_seen", False))
        if t is None:
            return False
        if self.app.scene is self:
            self.go_to(t)
        return True
