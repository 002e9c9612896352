"""How long a searched decision takes in the window against headless, at the same budget (issue 46).

Run: python bench/ai_window.py [--ruleset R ...] [--decisions N] [--agent hard] [--seed 4]
                               [--load K] [--where headless window] [--thread]

Per ruleset on its home map (Counterblast on the outpost, Frontier on the town, Doubles on the
prehistoric map), ``easy`` on seat 1 and the agent (``hard``) on seat 2, seed 4:

- **headless**: a ``GameSession`` answered in a loop, as a simulation does; the time of the
  agent's ``choose`` (wall and its own CPU) on each of its first N decisions that have more
  than one answer.
- **window**: the same seats in the client (``PlayScene`` in ``App``) with a real frame loop
  (``clock.tick(60)``, ``App.step``, ``display.flip``: a real window when DISPLAY is set, else
  SDL's dummy driver); the time from the moment the scene starts the AI on a decision to the
  frame that takes its answer (what a player waits for), the agent's CPU in that time, and the
  frames drawn per second while it thinks. ``--thread`` runs every agent on a thread in the
  window's process, as the client did before issue 46 (the budget then is the thread's CPU
  time; run it on a checkout before that change for the old figures).

``--load K`` starts K busy loops (``python -c 'while 1: pass'``, normal priority) for the run and
ends them after. Prints one markdown row per ruleset and place (docs/performance.md, "The AI in
the window").
"""
from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HOME = {"counterblast": "outpost", "frontier": "town", "doubles": "prehistoric"}


def _searched(d) -> bool:
    return d is not None and (len(d.options) > 1 or bool(d.spaces))


def _session(ruleset: str, agent: str, seed: int):
    from engine.data.maps import load_named_map
    from game.session import GameSession
    return GameSession.new(ruleset, load_named_map(HOME[ruleset]), (), {1: "ai:easy", 2: f"ai:{agent}"}, seed,
                           autosave=False)


def headless(ruleset: str, agent: str, seed: int, n: int) -> dict:
    s = _session(ruleset, agent, seed)
    walls, cpus = [], []
    while len(walls) < n and (d := s.pending()) is not None:
        a = s.agent_for(d)
        t, c = time.perf_counter(), time.thread_time()
        choice = a.choose(d, s.game.view(d.player))
        if d.player == 2 and _searched(d):
            walls.append(time.perf_counter() - t)
            cpus.append(time.thread_time() - c)
        s.submit(d.player, choice)
    return {"wall": walls, "cpu": cpus, "fps": None}


def window(ruleset: str, agent: str, seed: int, n: int, thread: bool, each: bool = False,
           limit: float = 900.0) -> dict:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from game.app import make_app
    app = make_app((1280, 720))
    import pygame

    from game.scenes.play import PlayScene
    s = _session(ruleset, agent, seed)
    scene = PlayScene(app, s, HOME[ruleset])
    if thread:
        scene.state.think_apart = False          # every agent on a thread, as before issue 46
    scene.state.speed = 1e6                      # no pauses between the AI's answers: only thinking is timed
    app.switch(scene)
    last_cpu = {}
    inner = s.agents[2].choose

    def timed_choose(d, v):                # the agent's CPU when it thinks on a thread here
        c = time.thread_time()
        out = inner(d, v)
        last_cpu[d.seq] = time.thread_time() - c
        return out
    s.agents[2].choose = timed_choose
    walls, cpus, frames_thinking, t_thinking = [], [], 0, 0.0
    job, t_job, timed, kind = None, 0.0, False, ""
    t_end = time.perf_counter() + limit
    while len(walls) < n and s.pending() is not None and time.perf_counter() < t_end and app.running:
        dt, _ = frame(app)
        now = time.perf_counter()
        if job is not None and scene.state.worker is not job:          # the answer was taken this frame
            if timed:
                walls.append(now - t_job)
                cpus.append(getattr(job, "cpu", None) or last_cpu.get(job.seq))
                if each:
                    where = "a process" if hasattr(job, "host") else "a thread"
                    print(f"    {ruleset} decision {job.seq} ({kind}): {walls[-1]:.2f} s on screen, agent CPU "
                          f"{cpus[-1] or 0:.2f} s, on {where}", flush=True)
            job = None
        if job is None and scene.state.worker is not None:
            job, t_job = scene.state.worker, now
            timed = job.player == 2 and _searched(s.pending())
            kind = s.pending().kind
        elif job is not None and timed:
            frames_thinking += 1
            t_thinking += dt
        if isinstance(app.scene, PlayScene) is False:             # game over
            break
    scene.close()
    pygame.quit()
    return {"wall": walls, "cpu": [c for c in cpus if c is not None],
            "fps": frames_thinking / t_thinking if t_thinking else None}


def _ms(xs) -> str:
    if not xs:
        return "-"
    q = statistics.quantiles(xs, n=10, method="inclusive")[-1] if len(xs) > 1 else xs[0]
    return f"{statistics.median(xs):.2f} / {q:.2f} / {max(xs):.2f}"


def row(ruleset: str, where: str, r: dict, budget: float) -> str:
    w = r["wall"]
    within = sum(x <= 1.5 * budget for x in w)
    fps = f"{r['fps']:.0f}" if r["fps"] else "-"
    return (f"| {ruleset}, {HOME[ruleset]} | {where} | {len(w)} | {_ms(w)} | {_ms(r['cpu'])} | "
            f"{within} of {len(w)} | {fps} |")


def frame(app, events=None) -> tuple[float, float]:
    """One frame of the window's loop, as the client runs it: ``clock.tick(60)``, ``App.step`` (its
    dt capped at 0.1 s), ``display.flip``. Returns the tick's dt and the seconds spent in step and flip."""
    import pygame
    dt = app.clock.tick(60) / 1000.0
    t = time.perf_counter()
    app.step(min(dt, 0.1), events)
    pygame.display.flip()
    return dt, time.perf_counter() - t


def busy_loops(k: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(k)]


@contextlib.contextmanager
def under_load(k: int, settle: float = 0.0):
    """``k`` busy loops beside the measure, ended after it even when it fails; the load average at
    the end printed after a measure that finished. ``settle``: seconds to wait for the loops to run."""
    loops = busy_loops(k)
    try:
        time.sleep(settle if loops else 0)
        yield
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
    finally:
        for p in loops:
            p.kill()
            p.wait()


def print_table(columns: list[str], rows) -> None:
    """A markdown table; each row printed as soon as it is measured (``rows`` is lazy)."""
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for r in rows:
        print(r, flush=True)


def parser(doc: str) -> argparse.ArgumentParser:
    """The options a window measure shares: the rulesets, the agent timed, the seed, the busy loops."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--ruleset", nargs="*", default=list(HOME))
    ap.add_argument("--agent", default="hard")
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--load", type=int, default=0, help="busy loops to run beside the measure")
    return ap


def agent_budget(agent: str, seat: int) -> float:
    from engine.ai import make_agent
    return getattr(make_agent(agent, seat, 0), "budget", 0.0)


def machine(load: int) -> str:
    """The head of a run's first line: when, the cores, the load average and the busy loops beside it."""
    return (f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores, load average "
            f"{os.getloadavg()[0]:.1f} at the start, {load} busy loops")


def main(argv=None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--decisions", type=int, default=12)
    ap.add_argument("--where", nargs="*", default=["headless", "window"], choices=["headless", "window"])
    ap.add_argument("--each", action="store_true", help="print every timed decision of the window")
    ap.add_argument("--thread", action="store_true", help="agents on a thread in the window (the old way)")
    args = ap.parse_args(argv)
    budget = agent_budget(args.agent, 2)
    with under_load(args.load, settle=0.5):
        print(f"{machine(args.load)}, agent {args.agent} (budget {budget} s), seed {args.seed}, "
              f"display {os.environ.get('DISPLAY') or 'dummy'}{', agents on a thread' if args.thread else ''}")
        print_table(["ruleset, map", "where", "decisions", "wall s: median / p90 / max",
                     "agent CPU s: median / p90 / max", "within 1.5x budget", "frames/s while thinking"],
                    (row(rs, where, headless(rs, args.agent, args.seed, args.decisions) if where == "headless"
                         else window(rs, args.agent, args.seed, args.decisions, args.thread, args.each), budget)
                     for rs in args.ruleset for where in args.where))
    return 0


if __name__ == "__main__":
    sys.exit(main())
