"""The AI's turns on the game screen: an ``AIWorker`` thread thinks while the scene keeps
drawing; its answer is submitted like a click, after the last glide and shot have been seen, at
the speed the player set (+ / -); its one-line reason floats over the model it used.

A part of ``PlayScene`` (``game/scenes/play.py``): the scene's ``update`` calls ``_ai_step``
every frame. While a worker runs the scene asks the table nothing (``_busy``): pymunk spaces
are not shared between threads.
"""
from __future__ import annotations

from game.controllers import AIWorker


class AITurnsMixin:
    """Starting the AI, taking its answer, showing its reason, for ``PlayScene``."""

    def _ai_step(self) -> None:
        """Each frame: take a finished worker's answer (if the decision is still the one it was
        asked), or start a worker when the AI is to move and nothing is still being shown."""
        s = self.session
        if self.worker is not None:
            if self.worker.done:
                w, self.worker = self.worker, None
                if w.error is not None:
                    self.say(f"the AI failed: {w.error!r}", error=True)
                    self.ai_wait = 1e9     # stop the AI; the game stays as it was
                    return
                if s.pending() is not None and s.pending().seq == w.seq:
                    self.submit(w.choice)
                    self.ai_wait = self.t + 0.35 / self.speed
                    self._show_reason(w.player, w.choice)
            return
        following = self.speed < 2 and self.effects.busy(self.t)      # let a shot be seen landing
        if self.ai_enabled and s.ai_to_move() and not self.anim and not following and self.t >= self.ai_wait \
                and self.app.scene is self:
            self.worker = AIWorker(s)

    def _show_reason(self, player: int, choice) -> None:
        """The AI's one-line reason, floating over the model it moved or acted with."""
        from game.controllers.generic import involved
        why = getattr(self.session.agents.get(player), "reason", "")
        ids = involved(choice, {p["id"] for p in self.pieces})
        if why and ids and self.tray.animate:
            self.effects.add_reason(ids[0], why, self.t + 0.3 / self.speed)   # before the next answer replaces it

    def _busy(self) -> bool:
        """The AI is thinking: ask the table nothing (see controllers/ai.py)."""
        return self.worker is not None
