"""Runs an agent off the main loop so the window never freezes while the computer thinks.

Agents that answer at once (``random``, ``easy``) think on a thread here: the worker gets the
decision and the agent's own view (copied before it starts) and hands back a choice; the scene
submits it through the same ``GameSession.submit`` a click uses. While a thread worker runs, the
scene asks the table nothing (the geometry is shared and pymunk's spaces are not meant for two
threads at once). Agents that think by the clock run in a process of their own
(``ai_process.py``); when one runs here instead, its budget is counted in wall time too.
"""
from __future__ import annotations

import threading
import time


class AIWorker:
    def __init__(self, session):
        d = session.pending()
        self.seq = d.seq
        self.player = d.player
        self._agent = session.agent_for(d)      # seeded for this decision
        self._decision = d
        self._view = session.game.view(d.player)
        self.asked = time.monotonic()
        self.budget: float | None = getattr(self._agent, "budget", None)
        if hasattr(self._agent, "time_from"):   # the window's promise is wall time
            self._agent.time_from(self.asked)
        self.choice = None
        self.reason = ""
        self.cpu: float | None = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="skirmish-ai", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        c0 = time.thread_time()
        try:
            self.choice = self._agent.choose(self._decision, self._view)
            self.reason = getattr(self._agent, "reason", "")
        except BaseException as err:  # reported by the scene; the game stays as it was
            self.error = err
        self.cpu = time.thread_time() - c0

    def elapsed(self) -> float:
        return time.monotonic() - self.asked

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)
