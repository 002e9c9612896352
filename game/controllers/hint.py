"""The player's hint (issue 61, item 5): the strongest agent's answer to the player's own decision,
thought in a process of its own from that player's world and nothing else.

What the agent is given is one ``HintAsk``: the asking player's *world* (``world_of``: the state
``Rules.redact`` leaves for that player, as the JSON a network game's server sends a seat: no
unseen card, no unseen placement, not the dice to come), the log lines that player may read, who
decided each past decision (public), the decision's number and kind, the agent's name and its
seed. The process builds a ``WorldGame`` on it (``engine/core/worlds.py``, the network seat's own
game) and asks the agent there, with its sampled worlds drawn from that world: the agent sees
exactly what an AI seat sees (``Game.view(player)``, ``sample_world``) and the process never holds
more, so no bug in an agent could read the other seat's hand. A network seat's window asks the
same way from its own world, which holds nothing of the other seat's.

Like the AI seat's process (``ai_process.py``), the budget counts wall time from the moment the
window asked (``SearchAgent.time_from``), and the window keeps its interpreter while the agent
thinks. The window starts the process ahead of the first press (``HintWarm``: the same player's
world, no question), so its start and warm-up (2-3 s on a loaded machine) are not the player's wait. The process never imports pygame. ``HintThinker`` is the thinking itself: the process runs
it, and the tests call it in the window's process (``InlineHints``) to be quick and exact.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from .ai_process import ChildProcess

HINT_AGENT = "hard"          # the strongest agent, at its default budget (0.8 s, as an AI seat)
HINT_SALT = 0x48494E54        # the hint's seeds are not the AI seat's (its own RNG)


@dataclass(frozen=True)
class HintAsk:
    """Everything the hint's agent is given (see the module's doc)."""
    job: int
    player: int
    seq: int
    kind: str
    deciders: tuple            # who decided each past decision (public; None where not known)
    world: object              # ``world_of(game, player)``: JSON-friendly data
    log: tuple                 # the log lines ``player`` may read (``event_to_json``)
    agent: str
    seed: int
    asked: float               # ``time.monotonic()`` when the player asked


@dataclass(frozen=True)
class HintWarm:
    """Sent ahead of the first press: one player's world (as an ask gives it: ``world_of``, the
    log lines that player may read) for the process to build its game and warm up on; no question.
    ``decider`` and ``kind``: the pending decision's (it may be the other seat's; None: none)."""
    player: int
    seq: int
    decider: int | None
    kind: str
    deciders: tuple
    world: object
    log: tuple
    agent: str


@dataclass(frozen=True)
class HintAnswer:
    job: int
    choice: object = None      # the agent's answer (None with ``error``)
    reason: str = ""
    cpu: float = 0.0
    error: str = ""


def hint_ask(session, job: int, agent: str = HINT_AGENT, asked: float | None = None) -> HintAsk:
    """The ask for ``session``'s pending decision, from its player's world (a local game's or a
    network seat's alike)."""
    from engine.core.worlds import event_to_json, world_of
    from game.session import decision_seed

    g = session.game
    d = session.pending()
    p = d.player
    return HintAsk(job, p, d.seq, d.kind, tuple(q for q, _ in g.decisions), world_of(g, p),
                   tuple(event_to_json(e) for e in g.log if e.visible(p)), agent,
                   decision_seed(session.ai_seed ^ HINT_SALT, p, d.seq),
                   time.monotonic() if asked is None else asked)


def hint_warm(session, player: int, agent: str = HINT_AGENT) -> HintWarm:
    """What the process warms up on for ``player`` (a seat this window may ask for): that player's
    world only, whoever decides now."""
    from engine.core.worlds import event_to_json, world_of

    g = session.game
    d = session.pending()
    return HintWarm(player, len(g.decisions) if d is None else d.seq, None if d is None else d.player,
                    "" if d is None else d.kind, tuple(q for q, _ in g.decisions), world_of(g, player),
                    tuple(event_to_json(e) for e in g.log if e.visible(player)), agent)


def public_setup(setup):
    """The setup less its seed (the seed would tell the dice to come): the map, the rosters and
    the options, as a network seat knows them."""
    from engine.core import Setup
    return Setup(setup.ruleset, setup.map, tuple(setup.rosters), dict(setup.options), 0)


class HintThinker:
    """The agent's side: one ``WorldGame`` per asking player on one table; each ask puts the
    player's world in it and asks a fresh agent (``agent.attach``, ``bind_worlds`` on that world)."""

    def __init__(self, setup, table=None, warm: bool = False):
        self.setup = public_setup(setup)
        self.table = table
        self.games: dict = {}
        self.warm = warm                     # warm the table up on the first world (the process)
        self.ready = time.monotonic()        # the budget never counts time before this
        self.agents: list = []               # the agents asked, newest last (the tests read them)

    def _world(self, player: int):
        from engine.core.worlds import WorldGame
        if player not in self.games:
            w = WorldGame(self.setup, player, table=self.table)
            self.table = w.table
            self.games[player] = w
        return self.games[player]

    def warm_up(self, world, player: int) -> None:
        """Build what a process builds once per map (sight, paths, walking grids) on a sampled
        world of the first ask, before the budget's clock starts (``ai_process.warm_up``)."""
        from .ai_process import warm_up
        warm_up(world.sample_world(player, random.Random(0)))
        self.warm, self.ready = False, time.monotonic()
        if self.on_ready is not None:
            self.on_ready(self.ready)

    on_ready: Callable[[float], object] | None = None   # called with the moment the thinker is ready (the process says so)

    def prepare(self, warm: HintWarm) -> None:
        """Ahead of the first ask: build ``warm.player``'s game on their world, load the agent's
        modules and warm the table up (what the first ask would otherwise wait for)."""
        from engine.ai import make_agent
        from engine.core.worlds import decode_state, event_from_json
        try:
            w = self._world(warm.player)
            w.update(decode_state(warm.world), warm.seq, None if warm.decider is None else (warm.decider, warm.kind),
                     list(warm.deciders), log=[event_from_json(e) for e in warm.log])
            make_agent(warm.agent, warm.player, 0).attach(w.table, w.rules)
            if self.warm:
                self.warm_up(w, warm.player)
        except Exception:  # noqa: BLE001 - a warm-up that fails costs only the time it saved: the
            return         # first ask builds and warms again, and says why if it cannot

    def answer(self, ask: HintAsk) -> HintAnswer:
        from engine.ai import make_agent
        from engine.core.worlds import decode_state, event_from_json
        try:
            w = self._world(ask.player)
            w.update(decode_state(ask.world), ask.seq, (ask.player, ask.kind), list(ask.deciders),
                     log=[event_from_json(e) for e in ask.log])
            d = w.pending()
            if self.warm:
                self.warm_up(w, ask.player)
            agent = make_agent(ask.agent, ask.player, ask.seed)
            self.agents = (self.agents + [agent])[-4:]
            agent.attach(w.table, w.rules)
            bind = getattr(agent, "bind_worlds", None)
            if bind is not None:
                bind(lambda rng: w.sample_world(ask.player, rng))
            if hasattr(agent, "time_from"):
                agent.time_from(max(ask.asked, self.ready))
            c0 = time.thread_time()
            choice = agent.choose(d, w.view(ask.player))
            return HintAnswer(ask.job, choice, getattr(agent, "reason", "") or "", time.thread_time() - c0)
        except Exception as err:  # noqa: BLE001 - a hint is an aid: the window says why there is none
            return HintAnswer(ask.job, error=f"{type(err).__name__}: {err}")


def serve(conn, setup) -> None:
    """The hint's process: answer each ask until the window goes."""
    thinker = HintThinker(setup, warm=True)
    thinker.on_ready = lambda t: conn.send(("ready", t))     # after the warm-up on the first ask
    while True:
        try:
            ask = conn.recv()
        except (EOFError, OSError):
            return
        if isinstance(ask, HintWarm):
            thinker.prepare(ask)
            continue
        if not isinstance(ask, HintAsk):
            return
        conn.send(thinker.answer(ask))


class HintProcess(ChildProcess):
    """The window's side of the hint's process: started ahead of the first ask (or on it), asked,
    read."""

    def __init__(self, setup):
        super().__init__(serve, "skirmish-hint", public_setup(setup))
        self.ready_at: float | None = None
        self.answers: dict[int, HintAnswer] = {}

    def warm(self, warm: HintWarm) -> None:
        try:
            self.conn.send(warm)
        except (OSError, ValueError):
            pass                    # a dead process: the first ask says so

    def ask(self, ask: HintAsk) -> None:
        try:
            self.conn.send(ask)
        except (OSError, ValueError) as err:
            self.answers[ask.job] = HintAnswer(ask.job, error=f"the hint's process is gone ({err})")

    def pump(self) -> None:
        """Read what has come (answers, the "ready" word), never waiting."""
        try:
            while self.conn.poll(0):
                msg = self.conn.recv()
                if isinstance(msg, HintAnswer):
                    self.answers[msg.job] = msg
                elif msg[0] == "ready":
                    self.ready_at = msg[1]
        except (EOFError, OSError):
            pass

    def answer(self, job: int) -> HintAnswer | None:
        """The answer to ``job`` once it has come (an error one if the process died)."""
        self.pump()
        got = self.answers.pop(job, None)
        for old in [k for k in self.answers if k < job]:      # questions cancelled or gone stale
            del self.answers[old]
        if got is None and not self.proc.is_alive():
            return HintAnswer(job, error=f"the hint's process stopped (exit code {self.proc.exitcode})")
        return got

class InlineHints:
    """The same face as ``HintProcess``, thinking in the caller's process when asked (the tests:
    quick, and an agent with ``iters`` answers exactly). It shares the window's table, which is
    safe only because nothing else asks it meanwhile (one thread)."""

    def __init__(self, setup, table=None):
        self.thinker = HintThinker(setup, table=table)
        self.ready_at = time.monotonic()
        self.answers: dict[int, HintAnswer] = {}
        self.asks: list[HintAsk] = []        # what was sent (the tests read it)
        self.alive = True

    def warm(self, warm: HintWarm) -> None:
        self.thinker.prepare(warm)

    def pump(self) -> None:
        pass

    def ask(self, ask: HintAsk) -> None:
        self.asks.append(ask)
        self.answers[ask.job] = self.thinker.answer(ask)

    def answer(self, job: int) -> HintAnswer | None:
        return self.answers.pop(job, None)

    def close(self) -> None:
        self.alive = False
