"""Runs an agent off the main loop so the window never freezes while the computer thinks.

The worker gets the decision and the agent's own view (copied before it starts) and hands back
a choice; the scene submits it through the same ``GameSession.submit`` a click uses. While a
worker runs, the scene asks the table nothing (the geometry is shared and pymunk's spaces are
not meant for two threads at once).
"""
from __future__ import annotations

import threading


class AIWorker:
    def __init__(self, session):
        d = session.pending()
        self.seq = d.seq
        self.player = d.player
        self._agent = session.agent_for(d)      # seeded for this decision
        self._decision = d
        self._view = session.game.view(d.player)
        self.choice = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="skirmish-ai", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.choice = self._agent.choose(self._decision, self._view)
        except BaseException as err:  # reported by the scene; the game stays as it was
            self.error = err

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)
