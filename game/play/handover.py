"""Hot-seat privacy and the end of the game: after every change, the game-over screen or, before
anything private of another player could be drawn, the pass screen, as ``next_screen``
(``game/play/flow.py``) decides.

An owned part of the game screen (``game/scenes/play.py``). The invariant has three parts: this
check runs after every answer and at the start of every frame (``update``), ``draw`` draws nothing
while ``GameSession.pass_due()`` names a player, and ``refresh`` gives a controller only to the
deciding human whose eyes the screen shows. A replay's source has no flow (no pass screens and no
game-over screen: ``source.flows``).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.play.flow import next_screen

if TYPE_CHECKING:
    from game.play.source import LiveSource


@dataclass(eq=False)          # a part of the game screen: one each, known by identity
class Handover:
    """The game-over and pass screens, pushed over the game screen (it stays under them).
    ``go_to``: the screen's way to another; ``showing``: whether the game screen is the one shown."""

    state: Any                   # the PlayState (Any: its made-once fields are typed object)
    source: LiveSource
    go_to: Callable
    showing: Callable[[], bool]

    def check(self) -> bool:
        """Game over, or a pass screen before anything private of another player is drawn.
        True when the screen was left (nothing more may be drawn or answered here)."""
        if not self.source.flows:
            return False
        t = next_screen(self.state.session, self.state.game_over_seen)
        if t is None:
            return False
        if self.showing():
            self.go_to(t)
        return True
