"""The AI's turns on the game screen: the agent thinks while the scene keeps drawing; its answer
is submitted like a click, after the last glide and shot have been seen, at the speed the player
set (+ / -); its one-line reason floats over the model it used, and while it thinks the table
says for how long ("AI hard thinking, 0.5 of 0.8 s").

An owned part of the game screen (``game/scenes/play.py``): the screen's ``update`` calls ``step``
every frame. An agent that thinks by the clock (a search agent's time budget) runs in a process
of its own (``game/controllers/ai_process.py``), started with the scene so it is usually ready
by the AI's first turn; the others run on a thread (``AIWorker``), and so does a clock-bound
agent asked before its process is ready (its first second or so), with the same wall-clock
budget. While a thread thinks the scene asks the table nothing (``busy``): pymunk spaces are
not shared between threads.
"""
from __future__ import annotations

import logging

from game.controllers import AIWorker
from game.controllers.ai_process import STARTS, AIProcess, ProcessJob, thinks_by_clock

log = logging.getLogger("skirmish.ai")     # each answer's time (INFO; shown when logging is set up)


class AITurns:
    """Starting the AI, taking its answer, showing its reason. Given the state, the answering part
    (the AI's answer is submitted as a click's is) and ``showing`` (whether the game screen is the
    one shown: no AI starts under another screen)."""

    def __init__(self, state, answering, showing):
        self.state = state
        self.answering = answering
        self.showing = showing

    def step(self) -> None:
        """Each frame: take a finished worker's answer (if the decision is still the one it was
        asked), or start a worker when the AI is to move and nothing is still being shown."""
        st = self.state
        s = st.session
        self.host_for_seats()
        if st.ai_host is not None and st.worker is None:
            st.ai_host.pump()
            st.ai_host.sync(s)             # the replica plays each decision as it is made
        if st.worker is not None:
            if st.worker.done:
                w, st.worker = st.worker, None
                if w.error is not None:
                    if isinstance(w, ProcessJob) and not w.host.alive and st.ai_deaths < STARTS:
                        st.ai_deaths += 1
                        self.end_host()              # started again on the next frame
                        st.say(f"the AI's process stopped; starting it again ({w.error})", error=True)
                        return
                    st.say(f"the AI failed: {w.error!r}", error=True)
                    st.ai_wait = 1e9       # stop the AI; the game stays as it was
                    return
                if s.pending() is not None and s.pending().seq == w.seq:
                    log.info("%s answered decision %d in %.2f s on screen (agent CPU %.2f s, %s, budget %s)",
                             st.names.get(w.player), w.seq, w.elapsed(), w.cpu or 0.0,
                             "a process" if isinstance(w, ProcessJob) else "a thread", w.budget)
                    self.answering.submit(w.choice)
                    st.ai_wait = st.t + 0.35 / st.speed
                    self.show_reason(w)
            return
        following = st.speed < 2 and st.effects.busy(st.t)      # let a shot be seen landing
        if st.ai_enabled and s.ai_to_move() and not st.anim and not following and st.t >= st.ai_wait \
                and self.showing():
            d, host = s.pending(), st.ai_host
            if host is not None and host.ready_at is not None and thinks_by_clock(s.agents[d.player]):
                st.worker = host.ask(s)
            else:       # an agent that answers at once, or the process is still starting
                st.worker = AIWorker(s)

    def host_for_seats(self) -> None:
        """Start the AI's process as soon as a seat needs one, so its start-up (about a second)
        passes while the player looks at the table; one found dead is started again."""
        st = self.state
        host = st.ai_host
        if host is not None and st.worker is None and not host.alive:
            st.ai_deaths += 1
            self.end_host()
        if st.ai_host is None and st.ai_enabled and st.think_apart and st.ai_deaths < STARTS \
                and not st.session.game.over \
                and any(thinks_by_clock(a) for a in st.session.agents.values()):
            st.ai_host = AIProcess(st.session)

    def end_host(self) -> None:
        if self.state.ai_host is not None:
            self.state.ai_host.close()
            self.state.ai_host = None

    def stop(self) -> None:
        """The screen is left: a thread is let finish (briefly); a process is ended, a question it
        was thinking about forgotten (a screen that comes back starts another)."""
        st = self.state
        if isinstance(st.worker, ProcessJob):
            st.worker = None
        elif st.worker is not None:
            st.worker.wait(5.0)
        self.end_host()

    def thinking_text(self) -> str:
        """What the table says while the AI thinks: who, for how long, of how long."""
        w = self.state.worker
        who = self.state.names.get(w.player, f"Player {w.player}")
        if w.budget:
            return f"{who} thinking, {w.elapsed():.1f} of {w.budget:.1f} s"
        return f"{who} thinking, {w.elapsed():.1f} s"

    def show_reason(self, w) -> None:
        """The AI's one-line reason, floating over the model it moved or acted with."""
        from game.controllers.generic import involved
        st = self.state
        ids = involved(w.choice, {p["id"] for p in st.pieces})
        if w.reason and ids and st.tray.animate:
            st.effects.add_reason(ids[0], w.reason, st.t + 0.3 / st.speed)   # before the next answer replaces it

    def busy(self) -> bool:
        """An agent thinks on a thread: ask the table nothing (see controllers/ai.py)."""
        return isinstance(self.state.worker, AIWorker)
