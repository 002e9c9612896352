"""How long a legal answer takes to come back as the new state, and what keeping a decision costs (issue 59).

    python bench/host_latency.py                      # this checkout's host
    python bench/host_latency.py --root /work/main    # another checkout's host (before/after)

A real ``skirmish host`` process (127.0.0.1, both seats remote, its autosave in a temporary
folder on the machine's disk) is sent, over two plain WebSocket connections, the decisions of
the same game played beforehand by ``random`` agents (so no agent thinks during the timing).
The latency of a decision is from sending the seat's answer to that seat receiving the ``state``
with the next decision number: the host's whole work for one legal answer (checking it, playing
it, keeping it, every seat's view and world) and the loopback round trip. The other seat's
state is read after the clock stops. ``--games`` games per ruleset, each a new host.

``--client`` times the project's client instead (``RemoteSession.submit``: its own check of the
answer, the round trip and taking the state in), the ``random`` agent choosing off the clock.

``--journal N`` also times ``game.net.host_journal.Journal``'s append of a decision line (one
``write`` and ``fdatasync``) N times in the same folder, alone, if this checkout has it.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAMES = (("frontier", "town"), ("doubles", "prehistoric"), ("counterblast", "outpost"))


def _host(root: Path, tmp: Path, ruleset: str, mapname: str, seed: int):
    info = tmp / f"info-{time.monotonic_ns()}.json"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
               SKIRMISH_HOME=str(tmp / "home"), PYTHONPATH=str(root))
    cmd = [sys.executable, "-m", "game.cli", "host", "--ruleset", ruleset, "--map", mapname, "--seed", str(seed),
           "--port", "0", "--bind", "127.0.0.1", "--info", str(info), "--autosave", str(tmp / "autosave.json"),
           "--quiet"]
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 60
    while not info.exists():
        if proc.poll() is not None:
            raise SystemExit(f"the host exited {proc.returncode}: {proc.stderr.read()}")
        if time.monotonic() > end:
            proc.kill()
            raise SystemExit("the host did not start")
        time.sleep(0.05)
    time.sleep(0.1)
    return proc, json.loads(info.read_text())


def _recv_state(ws, seq: int, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while True:
        m = json.loads(ws.recv(timeout=max(0.01, end - time.monotonic())))
        if m.get("type") == "state" and m.get("seq") == seq:
            return
        if m.get("type") == "refused":
            raise SystemExit(f"refused at decision {seq - 1}: {m.get('reason')}")


def one_game(root: Path, ruleset: str, mapname: str, seed: int) -> list[float]:
    """The latency of each decision of one game (seconds)."""
    from websockets.sync.client import connect

    from engine.core import Game, Setup
    from engine.data.maps import load_named_map
    from game.session import GameSession

    s = GameSession(Game(Setup(ruleset, load_named_map(mapname), (), {}, seed)), {1: "ai:random", 2: "ai:random"},
                    ai_seed=1, autosave=False)
    while s.pending() is not None:
        s.submit(*s.ai_choose())
    decisions = s.game.decisions
    out = []
    with tempfile.TemporaryDirectory(prefix="host-latency-", dir=os.environ.get("BENCH_TMP")) as t:
        proc, info = _host(root, Path(t), ruleset, mapname, seed)
        try:
            ws = {}
            for p in (1, 2):
                ws[p] = connect(f"ws://127.0.0.1:{info['port']}", max_size=2 ** 24)
                ws[p].send(json.dumps({"version": 1, "type": "hello", "seat": p, "code": info["codes"][str(p)]}))
            for p in (1, 2):
                _recv_state(ws[p], 0)
            for i, (p, choice) in enumerate(decisions):
                text = json.dumps({"version": 1, "type": "answer", "seq": i, "choice": choice.to_json()})
                t0 = time.perf_counter()
                ws[p].send(text)
                _recv_state(ws[p], i + 1)
                out.append(time.perf_counter() - t0)
                _recv_state(ws[3 - p], i + 1)
            for w in ws.values():
                w.close()
        finally:
            proc.kill()
            proc.wait(10)
    return out


def one_game_client(root: Path, ruleset: str, mapname: str, seed: int) -> list[float]:
    """The same game through the project's client (``RemoteSession``, the ``random`` agent choosing
    off the clock): the time of ``submit``, its own check of the answer included, as a player sees it."""
    from game.net.remote import RemoteSession

    out = []
    with tempfile.TemporaryDirectory(prefix="host-latency-", dir=os.environ.get("BENCH_TMP")) as t:
        proc, info = _host(root, Path(t), ruleset, mapname, seed)
        seats = {}
        try:
            for p in (1, 2):
                seats[p] = RemoteSession(f"127.0.0.1:{info['port']}", p, info["codes"][str(p)]).wait_ready(20)
                seats[p].agent("random", 1)
            end = time.monotonic() + 600
            while not all(s.game.over for s in seats.values()) and time.monotonic() < end:
                moved = False
                for p, s in seats.items():
                    s.pump()
                    d = s.pending()
                    if d is not None and d.player == p:
                        player, choice = s.ai_choose()
                        t0 = time.perf_counter()
                        s.submit(player, choice, d.seq)
                        out.append(time.perf_counter() - t0)
                        moved = True
                if not moved:
                    for s in seats.values():
                        s.pump(wait=0.01)
        finally:
            for s in seats.values():
                s.close()
            proc.kill()
            proc.wait(10)
    return out


def journal_cost(count: int) -> list[float] | None:
    try:
        from game.net.host_journal import Journal
    except ImportError:
        return None
    from engine.core import Game, Setup
    from engine.data.maps import load_named_map
    from game.session import GameSession

    s = GameSession(Game(Setup("frontier", load_named_map("town"), (), {}, 3)), {1: "ai:random", 2: "ai:random"},
                    ai_seed=1, autosave=False)
    for _ in range(20):
        s.submit(*s.ai_choose())
    p, c = s.game.decisions[-1]
    h = s.game.state_hash()
    times = []
    with tempfile.TemporaryDirectory(prefix="host-journal-", dir=os.environ.get("BENCH_TMP")) as t:
        j = Journal.start(Path(t) / "a.json.journal", "bench")
        try:
            for i in range(count):
                t0 = time.perf_counter()
                j.decision(i, p, c, h)
                times.append(time.perf_counter() - t0)
        finally:
            j.close()
    return times


def _ms(xs: list[float]) -> dict:
    xs = sorted(xs)
    return {"n": len(xs), "median_ms": round(statistics.median(xs) * 1e3, 2),
            "p95_ms": round(xs[int(0.95 * (len(xs) - 1))] * 1e3, 2), "max_ms": round(xs[-1] * 1e3, 2)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose host is timed (default this one)")
    ap.add_argument("--games", type=int, default=1, help="games per ruleset")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--client", action="store_true", help="time RemoteSession.submit instead of raw messages")
    ap.add_argument("--journal", type=int, default=0, help="also time this many journal appends")
    args = ap.parse_args(argv)
    root = Path(args.root).resolve()
    result = {"root": str(root), "how": "client submit" if args.client else "raw answer to state", "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "load": os.getloadavg()[0]}
    every = []
    for ruleset, mapname in GAMES:
        xs = []
        for g in range(args.games):
            xs += (one_game_client if args.client else one_game)(root, ruleset, mapname, args.seed + g)
        every += xs
        result[ruleset] = _ms(xs)
    result["all"] = _ms(every)
    if args.journal:
        j = journal_cost(args.journal)
        result["journal_append"] = None if j is None else _ms(j)
    result["load_after"] = os.getloadavg()[0]
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
