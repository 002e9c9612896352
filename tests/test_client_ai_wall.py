"""Issue 46, item 2: a search agent's budget is a wall-clock promise in the window.

A clock-bound agent (``hard``) answers from a process of its own (``game/controllers/
ai_process.py``) that keeps a replica of the game; its budget counts wall time from the moment
the window asked; the table says how long it has thought ("AI hard thinking, 0.5 of 0.8 s"); the
window keeps drawing meanwhile. Margins are generous: these run on a loaded 2-core machine.
"""
from __future__ import annotations

import re
import time

import pygame
from client_helpers import app_fixture

from engine.ai import make_agent
from engine.core import Game, Setup, replay
from engine.data.maps import load_named_map
from game.session import GameSession

app = app_fixture(close_scene=True)      # the AI's process is stopped at the end

MARGIN = 2.5          # seconds past 1.5x the budget a loaded CI may add (the goal is 1.5x itself)


def _counterblast_at_activation(seat2: str) -> GameSession:
    """Counterblast on the outpost (seed 4) played by easy until side 2 chooses which of its
    models to activate (many options: the search runs its whole course)."""
    g = Game(Setup("counterblast", load_named_map("outpost"), (), {}, 4))
    agents = {p: make_agent("easy", p, p) for p in (1, 2)}
    for a in agents.values():
        a.attach(g.table, g.rules)
    while not ((d := g.pending()).player == 2 and d.kind == "activate" and len(d.options) > 10):
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    return GameSession(g, {1: "human", 2: seat2}, ai_seed=4, autosave=False)


def _frames(app, until, timeout: float) -> list[float]:
    """The window's own loop (60 frames a second at most, real time) until ``until()``; the
    moment each frame ended."""
    stamps: list[float] = []
    end = time.monotonic() + timeout
    while not until() and time.monotonic() < end:
        dt = app.clock.tick(60) / 1000.0
        app.step(min(dt, 0.1))
        pygame.display.flip()
        stamps.append(time.monotonic())
    return stamps


def _ready_scene(app, session):
    """The game scene with its AI process started and ready (its start-up, about a second on
    a quiet machine, passes while the player looks at the table: not part of the promise)."""
    from game.scenes.play import PlayScene
    scene = PlayScene(app, session, "outpost")
    scene.state.speed = 1e6
    scene.state.ai_wait = 1e9               # hold the AI back until its process is ready
    app.switch(scene)

    def ready():
        if scene.state.ai_host is not None:
            scene.state.ai_host.pump()
        return scene.state.ai_host is not None and scene.state.ai_host.ready_at is not None
    _frames(app, ready, 90.0)
    assert ready(), "the AI's process did not start"
    assert scene.state.ai_host.pygame_loaded is False          # the process never imports pygame
    scene.state.ai_wait = 0.0
    return scene


def test_hard_answers_within_its_budget_with_progress_shown_and_frames_coming(app, monkeypatch):
    from game.controllers.ai_process import ProcessJob
    from game.play import frame as frame_module
    drawn: list[str] = []
    real_plate = frame_module.plate

    def plate(text, *a, **k):
        drawn.append(text)
        return real_plate(text, *a, **k)
    monkeypatch.setattr(frame_module, "plate", plate)

    session = _counterblast_at_activation("ai:hard")
    scene = _ready_scene(app, session)
    n0 = len(session.game.decisions)
    _frames(app, lambda: scene.state.worker is not None, 10.0)
    job, t0 = scene.state.worker, time.monotonic()
    assert isinstance(job, ProcessJob) and job.budget == 0.8
    texts: list[str] = []

    def answered():
        if scene.state.worker is not None:
            texts.append(scene.ai.thinking_text())
        return len(session.game.decisions) > n0
    stamps = _frames(app, answered, 30.0)
    took = time.monotonic() - t0
    assert len(session.game.decisions) == n0 + 1 and session.game.decisions[-1][0] == 2
    assert job.error is None and took <= 1.5 * 0.8 + MARGIN, f"hard took {took:.2f} s in the window"
    # the table says who thinks and for how long, of how long, and it was drawn
    assert texts and all(re.fullmatch(r"AI hard thinking, \d+\.\d of 0\.8 s", t) for t in texts), texts[:3]
    assert any(t.startswith("AI hard thinking") for t in drawn)
    seconds = [float(t.split(", ")[1].split(" of ")[0]) for t in texts]
    assert seconds == sorted(seconds)
    # never frozen: frames kept coming while it thought
    gaps = [b - a for a, b in zip([t0] + stamps, stamps)]
    assert len(stamps) >= 5 and max(gaps) < 0.5, f"{len(stamps)} frames, longest gap {max(gaps):.2f} s"


def test_a_search_agent_budget_counts_wall_time_from_when_it_was_asked():
    """Time that costs the agent no CPU (here each look-ahead sleeps 0.2 s: a window drawing, a
    loaded machine) still counts against a budget given by ``time_from``; by its own CPU time
    the same search ran for seconds."""
    session = _counterblast_at_activation("ai:hard:budget=0.3")
    d = session.pending()
    agent = session.agent_for(d)
    real = agent._playout

    def slow_playout(*a, **k):
        time.sleep(0.2)
        return real(*a, **k)
    agent._playout = slow_playout
    asked = time.monotonic()
    agent.time_from(asked)
    time.sleep(0.1)                      # the request's way to the agent counts too
    agent.choose(d, session.game.view(2))
    assert time.monotonic() - asked <= 0.3 * 1.5 + 0.2 + MARGIN
    assert agent.stats["searched"] <= 1


def test_the_ai_process_answers_as_the_window_would_and_follows_an_undo():
    """The replica: the same setup, decisions, seats and AI seed, so an agent that does not
    think by the clock gives in the process exactly the window's own answer; after decisions
    are taken back (undo, load) it replays and answers the decision now pending."""
    from game.controllers.ai_process import AIProcess
    g = Game(Setup("doubles", load_named_map("prehistoric"), (), {}, 3))
    seat = "ai:hard:iters=1,k=2,steps=6"
    s = GameSession(g, {1: seat, 2: seat}, ai_seed=5, autosave=False)
    host = AIProcess(s)
    try:
        for _ in range(8):
            job = host.ask(s)
            job.wait(120.0)
            assert job.done and job.error is None
            player, choice = s.ai_choose()
            assert (job.player, job.seq, job.choice) == (player, s.pending().seq, choice)
            s.submit(player, choice)
        s.game = replay(s.game.setup, s.game.decisions[:-3], table=s.game.table)
        job = host.ask(s)
        job.wait(120.0)
        assert job.error is None and job.seq == len(s.game.decisions)
        s.submit(job.player, job.choice)             # the window takes it like a click
        assert host.pygame_loaded is False
    finally:
        host.close()
    assert not host.alive


def test_a_dead_ai_process_is_started_again_and_the_game_goes_on(app):
    session = _counterblast_at_activation("ai:hard:budget=0.3")
    scene = _ready_scene(app, session)
    n0 = len(session.game.decisions)
    _frames(app, lambda: scene.state.worker is not None, 10.0)
    first = scene.state.ai_host
    first.proc.kill()
    _frames(app, lambda: len(session.game.decisions) > n0, 120.0)
    assert len(session.game.decisions) == n0 + 1
    assert scene.state.ai_host is not first and any("starting it again" in t for t in scene.state.log.texts)


def test_a_scene_left_and_come_back_to_starts_its_process_again(app):
    """The history view (H) and the game-over screen leave the scene: its process ends with
    it and starts again when the scene comes back, however often (only deaths are counted)."""
    session = _counterblast_at_activation("ai:hard")
    scene = _ready_scene(app, session)
    for _ in range(4):
        first = scene.state.ai_host
        scene.close()
        assert scene.state.ai_host is None and not first.alive
        app.switch(scene)
        _frames(app, lambda: scene.state.ai_host is not None, 5.0)
        assert scene.state.ai_host is not None and scene.state.ai_host is not first
    scene.state.ai_host.proc.kill()
    scene.state.ai_host.proc.join(5.0)
    dead = scene.state.ai_host
    scene.state.ai_wait = 1e9
    _frames(app, lambda: scene.state.ai_host is not dead and scene.state.ai_host is not None, 10.0)
    assert scene.state.ai_host is not dead and scene.state.ai_deaths == 1
