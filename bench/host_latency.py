"""How long a legal answer takes to come back as the new state, and what keeping a decision costs (issue 59).

    python bench/host_latency.py                      # this checkout's host
    python bench/host_latency.py --root /work/main    # another checkout's host
    python bench/host_latency.py --before /tmp/base --rounds 3 --games 2   # alternated, before and now

A real ``skirmish host`` process (127.0.0.1, both seats remote, its autosave in a temporary
folder on the machine's disk) is sent, over two plain WebSocket connections, the decisions of
the same game played beforehand by ``random`` agents (so no agent thinks during the timing).
The latency of a decision is from sending the seat's answer to that seat receiving the ``state``
with the next decision number: the host's whole work for one legal answer (checking it, playing
it, keeping it, every seat's view and world) and the loopback round trip. The other seat's
state is read after the clock stops. ``--games`` games per ruleset, each a new host.

``--client`` times the project's client instead (``RemoteSession.submit``: its own check of the
answer, the round trip and taking the state in), the ``random`` agent choosing off the clock.

``--keep GAMES`` also times, in this process, what keeping a decision costs the host (``keep_cost``:
the journal's line written and synced, all of ``HostFiles.keep``, the whole ``receive``), if
this checkout has the journal.
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


def keep_cost(games: int, seed: int) -> dict[str, list[float]] | None:
    """In this process, a ``GameHost`` fed the same games' answers through ``receive`` (both seats
    remote, its autosave and journal in a temporary folder): the time of each decision's journal
    line (``Journal._append``: the write and the ``fdatasync``), of all of ``keep`` (the state
    hash, the line, the snapshot handed to its thread) and of the whole ``receive``."""
    try:
        from game.net.host_journal import Journal
    except ImportError:
        return None
    from engine.core import Game, Setup
    from engine.data.maps import load_named_map
    from game.net.host import GameHost
    from game.session import GameSession

    times = {"journal_line": [], "keep": [], "receive": []}

    def timed(name, fn):
        def wrapper(*a, **kw):
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                times[name].append(time.perf_counter() - t0)
        return wrapper

    real_append, real_keep = Journal._append, GameHost.keep
    Journal._append = timed("journal_line", real_append)
    GameHost.keep = timed("keep", real_keep)
    try:
        for ruleset, mapname in GAMES:
            for g in range(games):
                setup = Setup(ruleset, load_named_map(mapname), (), {}, seed + g)
                s = GameSession(Game(setup), {1: "ai:random", 2: "ai:random"}, ai_seed=1, autosave=False)
                while s.pending() is not None:
                    s.submit(*s.ai_choose())
                with tempfile.TemporaryDirectory(prefix="host-keep-", dir=os.environ.get("BENCH_TMP")) as t:
                    host = GameHost.create(Game(setup), {1: "remote", 2: "remote"}, autosave_path=Path(t) / "a.json")
                    for p in (1, 2):
                        host.receive(p, json.dumps({"version": 1, "type": "hello", "seat": p, "code": host.codes[p]}))
                    assert host.start_journal()
                    for i, (p, choice) in enumerate(s.game.decisions):
                        text = json.dumps({"version": 1, "type": "answer", "seq": i, "choice": choice.to_json()})
                        t0 = time.perf_counter()
                        host.receive(p, text)
                        times["receive"].append(time.perf_counter() - t0)
                    host.flush_autosave()
                    host._journal.close()
    finally:
        Journal._append, GameHost.keep = real_append, real_keep
    return times


def _ms(xs: list[float]) -> dict:
    xs = sorted(xs)
    return {"n": len(xs), "median_ms": round(statistics.median(xs) * 1e3, 2),
            "p95_ms": round(xs[int(0.95 * (len(xs) - 1))] * 1e3, 2), "max_ms": round(xs[-1] * 1e3, 2)}


def measure(root: Path, games: int, seed: int, client: bool) -> dict[str, list[float]]:
    """Each ruleset's latencies (seconds) over ``games`` games of ``root``'s host."""
    play = one_game_client if client else one_game
    return {ruleset: [x for g in range(games) for x in play(root, ruleset, mapname, seed + g)]
            for ruleset, mapname in GAMES}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose host is timed (default this one)")
    ap.add_argument("--before", help="also time this checkout's host, alternated with --root's, round by round")
    ap.add_argument("--rounds", type=int, default=1,
                    help="rounds (with --before: each runs both hosts in turn); 0: none (--keep alone)")
    ap.add_argument("--games", type=int, default=1, help="games per ruleset and round")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--client", action="store_true", help="time RemoteSession.submit instead of raw messages")
    ap.add_argument("--keep", type=int, default=0, metavar="GAMES",
                    help="also time keeping each decision in this process (keep_cost), GAMES games per ruleset")
    args = ap.parse_args(argv)
    roots = {"now": Path(args.root).resolve()}
    if args.before:
        roots = {"before": Path(args.before).resolve(), **roots}
    result = {"how": "client submit" if args.client else "raw answer to state",
              "roots": {k: str(v) for k, v in roots.items()},
              "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load": [os.getloadavg()[0]]}
    pooled = {k: {r: [] for r, _ in GAMES} for k in roots}
    for _ in range(args.rounds):
        for k, root in roots.items():
            for ruleset, xs in measure(root, args.games, args.seed, args.client).items():
                pooled[k][ruleset] += xs
            result["load"].append(os.getloadavg()[0])
    for k, by in pooled.items():
        if not args.rounds:
            break
        result[k] = {**{r: _ms(xs) for r, xs in by.items()}, "all": _ms([x for xs in by.values() for x in xs])}
    if args.keep:
        k = keep_cost(args.keep, args.seed)
        result["keep_cost"] = None if k is None else {name: _ms(xs) for name, xs in k.items()}
    result["load"] = [round(x, 1) for x in result["load"]]
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
