"""The AI's turns on the game screen: the agent thinks while the scene keeps drawing; its answer
is submitted like a click, after the last glide and shot have been seen, at the speed the player
set (+ / -); its one-line reason floats over the model it used, and while it thinks the table
says for how long ("AI hard thinking, 0.5 of 0.8 s").

A part of ``PlayScene`` (``game/scenes/play.py``): the scene's ``update`` calls ``_ai_step``
every frame. An agent that thinks by the clock (a search agent's time budget) runs in a process
of its own (``game/controllers/ai_process.py``), started with the scene so it is usually ready
by the AI's first turn; the others run on a thread (``AIWorker``), and so does a clock-bound
agent asked before its process is ready (its first second or so), with the same wall-clock
budget. While a thread thinks the scene asks the table nothing (``_busy``): pymunk spaces are
not shared between threads.
"""
from __future__ import annotations

import logging

from game.controllers import AIWorker
from game.controllers.ai_process import STARTS, AIProcess, ProcessJob, thinks_by_clock

log = logging.getLogger("skirmish.ai")     # each answer's time (INFO; shown when logging is set up)


class AITurnsMixin:
    """Starting the AI, taking its answer, showing its reason, for ``PlayScene``."""

    think_apart = True          # clock-bound agents in their own process (False: all on a thread)
    _ai_host: AIProcess | None = None
    _ai_deaths = 0              # processes that died under this scene (more than STARTS: threads)

    def _ai_step(self) -> None:
        """Each frame: take a finished worker's answer (if the decision is still the one it was
        asked), or start a worker when the AI is to move and nothing is still being shown."""
        s = self.session
        self._ai_host_for_seats()
        if self._ai_host is not None and self.worker is None:
            self._ai_host.pump()
            self._ai_host.sync(s)          # the replica plays each decision as it is made
        if self.worker is not None:
            if self.worker.done:
                w, self.worker = self.worker, None
                if w.error is not None:
                    if isinstance(w, ProcessJob) and not w.host.alive and self._ai_deaths < STARTS:
                        self._ai_deaths += 1
                        self._end_ai_host()          # started again on the next frame
                        self.say(f"the AI's process stopped; starting it again ({w.error})", error=True)
                        return
                    self.say(f"the AI failed: {w.error!r}", error=True)
                    self.ai_wait = 1e9     # stop the AI; the game stays as it was
                    return
                if s.pending() is not None and s.pending().seq == w.seq:
                    log.info("%s answered decision %d in %.2f s on screen (agent CPU %.2f s, %s, budget %s)",
                             self.names.get(w.player), w.seq, w.elapsed(), w.cpu or 0.0,
                             "a process" if isinstance(w, ProcessJob) else "a thread", w.budget)
                    self.submit(w.choice)
                    self.ai_wait = self.t + 0.35 / self.speed
                    self._show_reason(w)
            return
        following = self.speed < 2 and self.effects.busy(self.t)      # let a shot be seen landing
        if self.ai_enabled and s.ai_to_move() and not self.anim and not following and self.t >= self.ai_wait \
                and self.app.scene is self:
            d, host = s.pending(), self._ai_host
            if host is not None and host.ready_at is not None and thinks_by_clock(s.agents[d.player]):
                self.worker = host.ask(s)
            else:       # an agent that answers at once, or the process is still starting
                self.worker = AIWorker(s)

    def _ai_host_for_seats(self) -> None:
        """Start the AI's process as soon as a seat needs one, so its start-up (about a second)
        passes while the player looks at the table; one found dead is started again."""
        host = self._ai_host
        if host is not None and self.worker is None and not host.alive:
            self._ai_deaths += 1
            self._end_ai_host()
        if self._ai_host is None and self.ai_enabled and self.think_apart and self._ai_deaths < STARTS \
                and not self.session.game.over \
                and any(thinks_by_clock(a) for a in self.session.agents.values()):
            self._ai_host = AIProcess(self.session)

    def _end_ai_host(self) -> None:
        if self._ai_host is not None:
            self._ai_host.close()
            self._ai_host = None

    def _stop_ai(self) -> None:
        """The scene is left: a thread is let finish (briefly); a process is ended, a question it
        was thinking about forgotten (a scene that comes back starts another)."""
        if isinstance(self.worker, ProcessJob):
            self.worker = None
        elif self.worker is not None:
            self.worker.wait(5.0)
        self._end_ai_host()

    def _thinking_text(self) -> str:
        """What the table says while the AI thinks: who, for how long, of how long."""
        w = self.worker
        who = self.names.get(w.player, f"Player {w.player}")
        if w.budget:
            return f"{who} thinking, {w.elapsed():.1f} of {w.budget:.1f} s"
        return f"{who} thinking, {w.elapsed():.1f} s"

    def _show_reason(self, w) -> None:
        """The AI's one-line reason, floating over the model it moved or acted with."""
        from game.controllers.generic import involved
        ids = involved(w.choice, {p["id"] for p in self.pieces})
        if w.reason and ids and self.tray.animate:
            self.effects.add_reason(ids[0], w.reason, self.t + 0.3 / self.speed)   # before the next answer replaces it

    def _busy(self) -> bool:
        """An agent thinks on a thread: ask the table nothing (see controllers/ai.py)."""
        return isinstance(self.worker, AIWorker)
