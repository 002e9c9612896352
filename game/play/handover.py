"""Hot-seat privacy and the end of the game: after every change, the game-over screen or, before
anything private of another player could be drawn, the pass screen (``game/scenes/passing.py``).

A part of ``PlayScene`` (``game/scenes/play.py``). The invariant has three parts: this check
runs after every answer and at the start of every frame (``update``), ``draw`` draws nothing
while ``GameSession.pass_due()`` names a player, and ``refresh`` gives a controller only to the
deciding human whose eyes the screen shows. A replay overrides ``_check_flow`` (no pass screens).
"""
from __future__ import annotations


class HandoverMixin:
    """The game-over and pass screens of ``PlayScene``."""

    def _check_flow(self) -> bool:
        """Game over, or a pass screen before anything private of another player is drawn.
        True when the scene was left (nothing more may be drawn or answered here)."""
        from game.scenes.game_over import GameOverScene
        from game.scenes.passing import PassScene

        s = self.session
        if s.game.over:
            if getattr(self, "game_over_seen", False):
                return False              # the players came back to look at the table
            if self.app.scene is self:
                self.app.switch(GameOverScene(self.app, s, self))
            return True
        due = s.pass_due()
        if due is not None:
            if self.app.scene is self:
                self.app.switch(PassScene(self.app, self, due))
            return True
        return False
