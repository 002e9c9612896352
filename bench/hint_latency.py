"""How long the player waits for the hint (issue 61, item 5), the first press and the next ones.

Run: python bench/hint_latency.py [--ruleset R ...] [--start press ahead] [--look 4] [--presses 3]
                                  [--agent hard] [--seed 4] [--skip 60] [--load K]

Per ruleset on its home map (Counterblast on the outpost, Frontier on the town, Doubles on the
prehistoric map), a human on seat 1 and ``easy`` on seat 2, seed 4: ``easy`` plays both seats
until seat 1 has a decision with more than one answer after ``--skip`` decisions (Counterblast's
``act``, Frontier's ``attack card``, Doubles' ``action``: ``KIND``); then the game
screen (``PlayScene`` in ``App``, SDL's dummy driver unless DISPLAY is set) is shown with a real
frame loop (``clock.tick(60)``, ``App.step``, ``display.flip``), G is pressed ``--look`` seconds
later (the player looking at the table first), and the time from the press to the frame that
shows the hint is measured; then G hides it and G asks again, ``--presses`` asks in all.

``--start press``: the hint's process starts on the first press (as before the pre-warm);
``--start ahead``: it starts as soon as the screen is shown and warms up on the player's world
(``HintPart.get_ready``). The longest ``get_ready`` before the press (the frame's share that
started it) beside the median frame says whether starting it ahead blocked the window. After the screen is closed the process must be gone.

``--load K`` starts K busy loops for the run and ends them after. Prints one markdown row per
ruleset and start (docs/ai.md, "The player's hint").
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# beside this file (the script's folder is on the path)
from ai_window import HOME, agent_budget, frame, machine, parser, print_table, under_load  # noqa: E402

# the decision pressed on, per ruleset: one the search thinks about (not left to easy)
KIND = {"counterblast": "act", "frontier": "attack card", "doubles": "action"}


def _position(ruleset: str, seed: int, skip: int):
    """A session at seat 1's first decision of the ruleset's ``KIND`` with more than one answer
    after ``skip`` decisions."""
    from engine.ai import make_agent
    from engine.data.maps import load_named_map
    from game.session import GameSession
    s = GameSession.new(ruleset, load_named_map(HOME[ruleset]), (), {1: "human", 2: "ai:easy"}, seed,
                        autosave=False)
    g = s.game
    agents = {p: make_agent("easy", p, seed + p) for p in (1, 2)}
    for a in agents.values():
        a.attach(g.table, g.rules)
    while (d := g.pending()) is not None:
        if d.player == 1 and len(g.decisions) >= skip and d.kind == KIND[ruleset] and (len(d.options) > 1 or d.spaces):
            return s
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    raise RuntimeError(f"{ruleset}: the game ended before seat 1 had a {KIND[ruleset]} decision after {skip}")


def measure(ruleset: str, agent: str, seed: int, skip: int, start: str, look: float, presses: int,
            limit: float = 60.0) -> dict:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from game.app import make_app
    from game.play.hint import HintPart
    from game.scenes.play import PlayScene
    s = _position(ruleset, seed, skip)
    kind = s.pending().kind
    app = make_app((1280, 720))
    scene = PlayScene(app, s, HOME[ruleset])
    scene.state.ai_wait = 1e9                    # the AI seat holds back: only the hint thinks
    scene.state.hint = hint = HintPart(agent, apart=True, ahead=start == "ahead")
    app.switch(scene)
    ready_calls = []                             # the window's time in each get_ready (the start's frame)
    real_ready = hint.get_ready

    def timed_ready(*a, **k):
        t = time.perf_counter()
        real_ready(*a, **k)
        ready_calls.append(time.perf_counter() - t)
    hint.get_ready = timed_ready
    g_key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g, mod=0, unicode="g", scancode=0)

    def step(events=None) -> float:
        return frame(app, events)[1]

    shown_at = time.perf_counter()
    frames = []
    while time.perf_counter() - shown_at < look:
        frames.append(step())
    ready_before = getattr(hint.thinker, "ready_at", None) is not None
    waits, errors, proc = [], [], None
    for _ in range(presses):
        if hint.shown is not None:
            step([g_key])                        # hide the last one
        t = time.perf_counter()
        step([g_key])
        proc = getattr(hint.thinker, "proc", proc)
        while hint.job is not None and time.perf_counter() - t < limit:
            step()
        waits.append(time.perf_counter() - t)
        if hint.shown is None:
            errors.append(hint.failed[1] if hint.failed else "no answer in time")
        for _ in range(10):                      # a moment between presses
            step()
    scene.close()
    if proc is not None:
        proc.join(2.0)
    gone = proc is None or not proc.is_alive()
    pygame.quit()
    return {"kind": kind, "waits": waits, "errors": errors, "ready_before": ready_before,
            "frame": statistics.median(frames[5:] or frames), "start": max(ready_calls, default=0.0), "gone": gone}


def row(ruleset: str, start: str, look: float, r: dict) -> str:
    w = r["waits"]
    nxt = f"{statistics.median(w[1:]):.2f} / {max(w[1:]):.2f}" if len(w) > 1 else "-"
    errs = f" ({len(r['errors'])} without a hint: {r['errors'][0]})" if r["errors"] else ""
    return (f"| {ruleset}, {HOME[ruleset]} | {r['kind']} | {start} | {look:.0f} | "
            f"{'yes' if r['ready_before'] else 'no'} | {w[0]:.2f}{errs} | {nxt} | {r['frame'] * 1000:.0f} / {r['start'] * 1000:.0f} | "
            f"{'yes' if r['gone'] else 'NO'} |")


def main(argv=None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--start", nargs="*", default=["press", "ahead"], choices=["press", "ahead"])
    ap.add_argument("--look", type=float, default=4.0, help="seconds between the screen shown and the first G")
    ap.add_argument("--presses", type=int, default=3)
    ap.add_argument("--skip", type=int, default=60, help="decisions played before seat 1's")
    args = ap.parse_args(argv)
    budget = agent_budget(args.agent, 1)
    with under_load(args.load):
        print(f"{machine(args.load)}, hint agent {args.agent} (budget {budget} s, 1.5x = {1.5 * budget:.2f} s), "
              f"seed {args.seed}, display {os.environ.get('DISPLAY') or 'dummy'}")
        print_table(["ruleset, map", "decision", "process started", "G after s", "ready at G",
                     "first G: s to the hint", "next G: median / max s",
                     "before G, ms: median frame / longest get_ready", "process gone after"],
                    (row(rs, start, args.look, measure(rs, args.agent, args.seed, args.skip, start, args.look,
                                                       args.presses))
                     for rs in args.ruleset for start in args.start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
