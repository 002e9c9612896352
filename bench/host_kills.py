"""The host killed at random moments (issue 59): is the loaded game ever behind what a seat was told?

    python bench/host_kills.py --kills 200 --out data/experiments/DATE-host-kills

A real ``skirmish host`` process (127.0.0.1 only) serves a game; two seats of the project's test
client (``tests/net_helpers.py``: ``RemoteSession`` played by the ``random`` agent) answer
through the protocol; the host is SIGKILLed at a random moment (uniform over ``--max-delay``
seconds after the seats are in), the seats read what had reached them, and the host's autosave
(with its journal) is loaded here, as ``skirmish host --load`` loads it. Then it is started again
with ``--load`` on the same port and new seats play on, to the next kill; a game that ends is
followed by a new one (the rulesets in turn).

Each kill is checked: the loaded game holds at least every decision a seat had been sent (the
highest ``seq`` of any ``state`` message that reached a seat) and its decisions are the first of
the same agents' local game (``local_game``: the network game plays the same decisions), so its
state hash is that game's at that count. A kill lands anywhere: while an answer is handled, while
the journal or the snapshot is written, between games. Every loop is bounded in time and count.
Prints one line a kill and a summary; ``--out`` keeps them (``kills.jsonl``, ``summary.json``).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

GAMES = (("frontier", "town"), ("doubles", "prehistoric"), ("counterblast", "outpost"))


def told(sessions) -> int:
    """The highest decision count any seat was sent in a ``state`` message."""
    best = 0
    for s in sessions.values():
        for raw in s.wire or ():
            try:
                m = json.loads(raw)
            except ValueError:
                continue
            if isinstance(m, dict) and m.get("type") == "state" and isinstance(m.get("seq"), int):
                best = max(best, m["seq"])
    return best


def _play_until_dead(proc, sessions, timeout: float) -> int:
    """The seats answer (as ``net_helpers.play_out``) until the host process is gone; decisions sent."""
    from net_helpers import answer_each

    n = 0
    end = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < end:
        for s in sessions.values():
            s.pump()
        moved = answer_each(sessions, timeout=5.0)
        n += moved
        if not moved:
            for s in sessions.values():
                s.pump(wait=0.02)
    return n


def _drain(proc, sessions, timeout: float = 3.0) -> None:
    """After the kill: take in whatever the host had sent before it died (until each link is down)."""
    proc.wait(10)
    for f in (proc.stdout, proc.stderr):
        if f is not None:
            f.close()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for s in sessions.values():
            s.pump(wait=0.02)
        if all(not s.up for s in sessions.values()):
            break
    for s in sessions.values():
        s.pump()


def kill_run(tmp: Path, kills: int, seed: int = 1, max_delay: float = 1.0, agent: str = "random",
             timeout: float = 1800.0, report=print) -> dict:
    """``kills`` kills of one host, its autosave loaded after each; the records and a summary."""
    from net_helpers import local_game, seat, start_host

    from engine.core import Setup
    from engine.data.maps import load_named_map
    from game.net.host import GameHost

    tmp = Path(tmp)
    tmp.mkdir(parents=True, exist_ok=True)
    auto = tmp / "autosave.json"
    rng = random.Random(seed)
    end = time.monotonic() + timeout
    records: list[dict] = []
    games = 0
    proc = None
    ref = None

    def new_game():
        nonlocal proc, ref, games
        ruleset, mapname = GAMES[games % len(GAMES)]
        games += 1
        gseed = rng.randrange(1, 2 ** 31)
        ref = local_game(Setup(ruleset, load_named_map(mapname), (), {}, gseed), agent)
        proc, info = start_host(tmp, "--ruleset", ruleset, "--map", mapname, "--seed", str(gseed),
                                port=port)
        return info

    port = 0
    info = new_game()
    port = info["port"]
    try:
        for k in range(kills):
            assert time.monotonic() < end, f"out of time after {k} kills"
            codes = info["codes"]
            sessions = {p: seat(port, p, codes[str(p)], agent, wire=True) for p in (1, 2)}
            delay = rng.uniform(0.0, max_delay)
            timer = threading.Timer(delay, proc.kill)       # SIGKILL, from another thread: any moment
            timer.start()
            try:
                sent = _play_until_dead(proc, sessions, timeout=delay + 60.0)
                assert proc.poll() is not None or proc.wait(max_delay + 10) is not None
                _drain(proc, sessions)
            finally:
                timer.cancel()
                for s in sessions.values():
                    s._link.stopping.set()
                    s.close()
            seen = told(sessions)
            loaded = GameHost.load(auto).game
            n = len(loaded.decisions)
            same = [(p, c.to_json()) for p, c in loaded.decisions] == [(p, c.to_json()) for p, c in ref.decisions[:n]]
            rec = {"kill": k, "ruleset": loaded.setup.ruleset, "delay": round(delay, 3), "answers": sent,
                   "told": seen, "loaded": n, "lost": max(0, seen - n), "same_game": same, "over": loaded.over}
            records.append(rec)
            report(json.dumps(rec))
            if loaded.over:
                info = new_game()
            else:
                proc, info = start_host(tmp, "--load", str(auto), port=port)
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(10)
    lost = [r["lost"] for r in records]
    summary = {"kills": len(records), "games": games, "kills_losing": sum(1 for x in lost if x),
               "decisions_lost": sum(lost), "worst": max(lost, default=0),
               "diverged": sum(1 for r in records if not r["same_game"]),
               "answers": sum(r["answers"] for r in records),
               "loaded_ahead": sum(1 for r in records if r["loaded"] > r["told"]),   # killed between the line and the telling
               "max_delay": max_delay, "seed": seed}
    return {"records": records, "summary": summary}


def main(argv=None) -> int:
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kills", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-delay", type=float, default=1.0, help="a kill lands 0 to this many seconds after the seats join")
    ap.add_argument("--out", help="keep kills.jsonl and summary.json here")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="host-kills-") as tmp:
        run = kill_run(Path(tmp), args.kills, args.seed, args.max_delay)
    run["summary"]["seconds"] = round(time.monotonic() - t0, 1)
    print(json.dumps(run["summary"]))
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "kills.jsonl").write_text("".join(json.dumps(r) + "\n" for r in run["records"]))
        (out / "summary.json").write_text(json.dumps(run["summary"], indent=1) + "\n")
    s = run["summary"]
    return 0 if s["decisions_lost"] == 0 and s["diverged"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
