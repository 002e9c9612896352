"""Agents that think by the clock answer from a process of their own (issue 46).

A search agent with a time budget (``normal``, ``hard``) on a thread shares the window's
interpreter: measured (docs/performance.md, "The AI in the window"), the frames fell to 16-39
a second while it thought, and on a loaded machine each hand-over of the interpreter between
the two threads waits for the system to run the other one, so the agent's CPU budget took many
times its length in wall time. Here the agent runs in a spawned process, the window keeps its
interpreter to itself, and the budget counts wall time from the moment the window asked
(``SearchAgent.time_from``): the answer is on screen within about its budget, loaded or not
(a loaded machine buys the search fewer rounds, not a longer wait).

The process holds a replica of the session: the same setup with the same decisions replayed,
the same seats and AI seed, in a ``GameSession`` of its own, so its agents are built, seeded
per decision (``decision_seed``) and given sampled worlds exactly as the window's would be, and
each sees only its own player's view. Each request carries the decisions made since the last one
(all of them after an undo or a load: the replica replays them) and the decision's number; the
answer carries the choice, the agent's one-line reason and its CPU time. The scene submits the
choice through the same ``GameSession.submit`` a click uses. The process never imports pygame.
"""
from __future__ import annotations

import multiprocessing as mp
import sys
import time

STARTS = 3          # a process that died is started again at most this often per scene


def thinks_by_clock(agent) -> bool:
    """An agent whose answer waits on a time budget (a search agent not held to ``iters``)."""
    return getattr(agent, "budget", None) is not None and getattr(agent, "iters", 0) <= 0


def serve(conn, setup, decisions, seats, ai_seed) -> None:
    """The process: build the replica, then keep it in step and answer until the window goes."""
    from engine.core import replay
    from game.session import GameSession

    session = GameSession(replay(setup, decisions), seats, ai_seed=ai_seed, autosave=False)
    session.game.keep_labels = False    # nobody here reads an answered decision's labels
    warm_up(session.game)
    ready = time.monotonic()
    conn.send(("ready", ready, "pygame" in sys.modules))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return                          # the window is gone
        if msg[0] not in ("sync", "ask"):
            return
        try:
            reset, news = msg[1], msg[2]
            if reset:
                session.game = replay(session.game.setup, news, table=session.game.table)
                session.game.keep_labels = False
            else:
                for player, choice in news:
                    session.game.submit(player, choice)
        except Exception as err:  # noqa: BLE001 - the window sends everything again next time
            conn.send(("lost", f"{type(err).__name__}: {err}"))
            if msg[0] == "ask":
                conn.send(("error", msg[3], f"the AI's copy of the game fell out of step: {err}"))
            continue
        if msg[0] == "ask":
            job, seq, asked = msg[3:]         # ("ask", reset, news, job, seq, asked)
            reply = answer(session, job, seq, asked, ready=ready)
            conn.send(reply)
            if reply[0] == "answer":          # the window submits it: play it now, not in the
                try:                          # next decision's time (``AIProcess`` counts it known)
                    session.game.submit(session.pending().player, reply[2])  # type: ignore[union-attr]  # the one answered
                except Exception as err:  # noqa: BLE001 - the window sends everything again
                    conn.send(("lost", f"{type(err).__name__}: {err}"))


def warm_up(game, decisions: int = 10, cpu: float = 2.0) -> None:
    """Build what a process builds once per map (sight, paths and walking grids per base
    radius: a third of a second for Counterblast's first activation) before the process says it
    is ready, by letting ``easy`` play a few decisions of a copy of the game; without it the
    first answer took that long again, several times over on a loaded machine."""
    from engine.ai import make_agent

    g = game.clone()
    agents = {p: make_agent("easy", p, 0) for p in (1, 2)}
    for a in agents.values():
        a.attach(g.table, g.rules)
    c0 = time.thread_time()
    try:
        for _ in range(decisions):
            d = g.pending()
            if d is None or time.thread_time() - c0 > cpu:
                return
            g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    except Exception:  # noqa: BLE001 - a warm-up that fails costs only the time it saved
        return


def answer(session, job: int, seq: int, asked: float, ready: float) -> tuple:
    """The replica's agent answers decision ``seq`` (an "answer" or an "error" message)."""
    try:
        d = session.pending()
        if d is None or d.seq != seq:
            raise RuntimeError(f"the AI's copy of the game is at decision {None if d is None else d.seq}, "
                               f"not {seq}")
        agent = session.agent_for(d)
        if hasattr(agent, "time_from"):
            agent.time_from(max(asked, ready))      # the start-up is not the agent's time
        c0 = time.thread_time()
        choice = agent.choose(d, session.game.view(d.player))
        return ("answer", job, choice, getattr(agent, "reason", ""), time.thread_time() - c0)
    except Exception as err:  # noqa: BLE001 - reported in the window; the game stays as it was
        return ("error", job, f"{type(err).__name__}: {err}")


class ChildProcess:
    """A spawned process at the end of a pipe (the AI's and the hint's): started, alive, closed."""

    def __init__(self, target, name: str, *args):
        ctx = mp.get_context("spawn")       # never fork a process that runs SDL and threads
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=target, name=name, daemon=True, args=(child, *args))
        self.proc.start()
        child.close()

    @property
    def alive(self) -> bool:
        return self.proc.is_alive()

    def close(self) -> None:
        """End the process (it may be thinking about a question nobody waits for any more)."""
        try:
            self.conn.close()
        except OSError:
            pass
        if self.proc.is_alive():
            self.proc.terminate()
        self.proc.join(1.0)


class AIProcess(ChildProcess):
    """The window's side of one AI process: start it, keep its replica in step, read answers."""

    def __init__(self, session):
        g = session.game
        self.known = list(g.decisions)      # what the replica holds
        self._version = session.version     # the session's version when ``known`` was taken
        super().__init__(serve, "skirmish-ai", g.setup, self.known, dict(session.seats), session.ai_seed)
        self.ready_at: float | None = None  # when it was ready (time.monotonic)
        self.pygame_loaded: bool | None = None
        self.answers: dict[int, tuple] = {}
        self._jobs = 0

    def _news(self, session) -> tuple[bool, list]:
        """What the replica lacks: (True, every decision) after an undo or a load, else (False,
        the decisions made since the last message)."""
        now = list(session.game.decisions)
        k = len(self.known)
        reset = now[:k] != self.known      # taken back, or another game: the replica replays all
        news = now if reset else now[k:]
        self.known, self._version = now, session.version
        return reset, news

    def sync(self, session) -> None:
        """Send the decisions made since the last message, so the replica plays them while the
        player thinks instead of in the AI's time (the scene calls it every frame; cheap when
        nothing changed)."""
        if session.version == self._version or self.ready_at is None:
            return
        reset, news = self._news(session)
        if reset or news:
            try:
                self.conn.send(("sync", reset, news))
            except (OSError, ValueError):
                pass                          # a dead process: the next ask says so

    def ask(self, session) -> ProcessJob:
        """Ask for the answer to ``session``'s pending decision."""
        d = session.pending()
        reset, news = self._news(session)
        self._jobs += 1
        job = ProcessJob(self, self._jobs, d, session.agents[d.player])
        try:
            self.conn.send(("ask", reset, news, job.id, d.seq, job.asked))
        except (OSError, ValueError) as err:
            job.error = RuntimeError(f"the AI's process is gone ({err})")
        return job

    def pump(self, timeout: float = 0.0) -> None:
        """Read what has arrived (waiting up to ``timeout`` for the first message)."""
        try:
            while self.conn.poll(timeout):
                timeout = 0.0
                msg = self.conn.recv()
                if msg[0] == "ready":
                    self.ready_at, self.pygame_loaded = msg[1], msg[2]
                elif msg[0] == "lost":
                    self.known, self._version = [None], -1      # send everything next time
                else:
                    self.answers[msg[1]] = msg
        except (EOFError, OSError):
            pass

class ProcessJob:
    """One decision asked of an ``AIProcess``: the same face as the thread's ``AIWorker``."""

    def __init__(self, host: AIProcess, job: int, decision, agent):
        self.host, self.id = host, job
        self.seq, self.player = decision.seq, decision.player
        self.asked = time.monotonic()
        self.budget: float | None = getattr(agent, "budget", None)
        self.choice = None
        self.reason = ""
        self.cpu: float | None = None
        self.error: BaseException | None = None
        self._done = False

    def elapsed(self) -> float:
        """Seconds of thinking so far, counted as the agent counts its budget."""
        start = self.asked if self.host.ready_at is None else max(self.asked, self.host.ready_at)
        return max(0.0, time.monotonic() - start)

    @property
    def done(self) -> bool:
        if self._done or self.error is not None:
            return True
        self.host.pump()
        return self._take()

    def _take(self) -> bool:
        msg = self.host.answers.pop(self.id, None)
        if msg is None:
            if not self.host.alive:
                self.error = RuntimeError(f"the AI's process stopped (exit code {self.host.proc.exitcode})")
                return True
            return False
        if msg[0] == "answer":
            self.choice, self.reason, self.cpu = msg[2], msg[3], msg[4]
            # the replica has played it; a window that does not submit it (the decision went
            # away) differs from ``known`` there, and the next message sends everything again
            self.host.known = self.host.known + [(self.player, self.choice)]
        else:
            self.error = RuntimeError(msg[2])
            self.host.known = [None]          # whatever went wrong, the next message sends all
        self._done = True
        return True

    def wait(self, timeout: float | None = None) -> None:
        end = None if timeout is None else time.monotonic() + timeout
        while not self.done:
            left = 0.05 if end is None else min(0.05, end - time.monotonic())
            if left <= 0:
                return
            self.host.pump(left)
