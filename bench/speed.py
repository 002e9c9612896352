"""The speed users feel (issue 28): python bench/speed.py [--games N] [--iters N] [--searched M]
[--callgrind G] [--before DIR [--rounds K]] | --split [--games N]

Per ruleset on its home map (Counterblast on the outpost, Frontier on the town, Doubles on the
prehistoric map), with the default rosters:

- **easy v easy games per CPU second**: ``--games`` games (seeds as ``bench/engine.py``: game
  ``i`` has seed ``game_seed(1, i)``), each timed from ``Game(...)`` to its result, after one
  untimed game of another seed that builds what a process builds once per map (the table, path
  graphs and walking grids per base radius, the sight kernel: about a second for Counterblast,
  which would otherwise be a third of four games' time): a balance run plays many games on one
  map. That warm game's own CPU is reported apart. Process time, so other jobs on the machine
  count less.
- **hard: CPU per searched decision at fixed rounds**: ``hard:iters=N`` (seat 1) against easy,
  CPU of the agent's ``choose`` at each decision it searched, until it has searched ``--searched``
  decisions (a fixed number of rounds makes the answers deterministic, so both sides of a
  comparison search the same decisions when their hashes agree).
- **random instructions per decision** (``--callgrind G``, when valgrind is installed): G random
  games under ``valgrind --tool=callgrind``, less a run that does the same set-up (imports, maps,
  a warm table per ruleset) and plays nothing, divided by the decisions played. Instructions do
  not move with the machine's load, so this is the steady figure.

- **where an easy game's CPU goes** (``--split``, this checkout only): the agents' ``choose``
  against the engine's ``pending``, ``view`` and ``submit``, and the gain a free agent would give.

Every game's final state hash is printed (hashes compared between the sides: a speed-up must
leave them identical; checkouts that differ by rule changes differ in their hashes too, and
then the figures compare different games).

``--before DIR``: the same measures on DIR's code, in child processes alternating with this
checkout's (``bench/compare.py``); the gain is the median of the rounds' ratios. The issue's
baseline is ``594f8a5`` (``git worktree add /tmp/before28 594f8a5``).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import THIS, add_arguments, alternate, code_root  # noqa: E402

ROOT = code_root()

from engine.ai import make_agent  # noqa: E402
from engine.core import Game, Setup  # noqa: E402
from engine.data.maps import load_map  # noqa: E402
from engine.paths import resolve_map  # noqa: E402
from engine.simulate import game_seed, play  # noqa: E402

HOME = (("counterblast", "outpost"), ("frontier", "town"), ("doubles", "prehistoric"))


def _agents(g: Game, names: tuple[str, str], seed: int) -> dict:
    """The agents as bench/engine.py and bench/ai.py seed them (this works on older checkouts too),
    given the table and the rules, search agents bound to the game's sampled worlds (``play``
    does the same again for the games it plays: harmless)."""
    agents = {p: make_agent(names[p - 1], p, seed ^ (p * 0x9E3779B1)) for p in (1, 2)}
    for p, a in agents.items():
        a.attach(g.table, g.rules)
        if hasattr(a, "bind_worlds"):
            a.bind_worlds(lambda rng, p=p: g.sample_world(p, rng))
    return agents


def easy_games(ruleset: str, m, games: int, seed: int = 1) -> dict:
    cpu, decisions, hashes = 0.0, 0, []
    for i in range(games):
        s = game_seed(seed, i)
        t0 = time.process_time()
        g = Game(Setup(ruleset, m, (), {}, s))
        n = play(g, _agents(g, ("easy", "easy"), s)).decisions     # the simulator's own loop
        cpu += time.process_time() - t0
        decisions += n
        hashes.append(g.state_hash()[:16])
    return {"games": games, "cpu": cpu, "rate": games / cpu, "per_game": decisions / games, "hashes": hashes}


def split_games(ruleset: str, m, games: int, seed: int = 1) -> dict:
    """Where an easy v easy game's CPU goes: the agents' ``choose`` against the engine's own
    steps (``pending``, ``view``, ``submit``) and the set-up, each timed around its call inside
    the simulator's own loop (``play``, wrapped, not copied). The engine's share bounds what any
    agent change can gain: with agents that cost nothing, a game would be ``1 / (1 - agents'
    share)`` times faster."""
    parts = dict.fromkeys(("setup", "pending", "view", "choose", "submit"), 0.0)
    pt = time.process_time

    def timed(name, fn):
        def call(*a, **k):
            t = pt()
            try:
                return fn(*a, **k)
            finally:
                parts[name] += pt() - t
        return call

    hashes = []
    for i in range(games):
        s = game_seed(seed, i)
        t = pt()
        g = Game(Setup(ruleset, m, (), {}, s))
        agents = _agents(g, ("easy", "easy"), s)
        parts["setup"] += pt() - t
        for name in ("pending", "view", "submit"):
            setattr(g, name, timed(name, getattr(g, name)))
        for a in agents.values():
            a.choose = timed("choose", a.choose)
        play(g, agents)
        hashes.append(g.state_hash()[:16])
    return {"parts": parts, "hashes": hashes}


def _md_table(head: list[str], rows: list[list[str]]) -> None:
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(r) + " |")


def split_one(ruleset: str, games: int) -> dict:
    """Both split measures for one ruleset on its home map (a child process's job)."""
    m = load_map(resolve_map(dict(HOME)[ruleset]))
    split_games(ruleset, m, 1, seed=2)
    parts = split_games(ruleset, m, games)["parts"]
    shares, funcs = layer_shares(ruleset, m, games)
    return {"parts": parts, "shares": shares, "funcs": funcs}


def split_table(games: int) -> None:
    """Each ruleset in its own process: one played after another in a process would pay the
    collector's passes over the first one's kept answers (issue 28 measured Doubles' easy games
    about 20% slower after the others'), and a balance run's worker plays one ruleset."""
    got = {}
    for ruleset, _ in HOME:
        res = subprocess.run([sys.executable, __file__, "--split-one", ruleset, "--games", str(games)],
                             check=True, capture_output=True, text=True)
        got[ruleset] = json.loads(res.stdout.strip().splitlines()[-1])
    print(f"\nwhere an easy v easy game's CPU goes ({games} games per ruleset after a warm one, each ruleset "
          "in its own process, process time around each call)")
    rows = []
    for ruleset, mapname in HOME:
        p = got[ruleset]["parts"]
        share = {k: v / sum(p.values()) for k, v in p.items()}
        rows.append([f"{ruleset}, {mapname}", f"{sum(p.values()) / games:.3f}"]
                    + [f"{100 * share[k]:.0f}%" for k in ("setup", "pending", "view", "choose", "submit")]
                    + [f"{1 / (1 - share['choose']):.2f}x"])
    _md_table(["ruleset, map", "CPU s a game", "set-up", "pending", "view", "choose (the agents)", "submit",
               "gain with free agents"], rows)
    print(f"\nown CPU by layer under cProfile ({games} other games, seeds game_seed(3, i); a library or built-in "
          "call counts for its caller)")
    rows = []
    for ruleset, mapname in HOME:
        sh = got[ruleset]["shares"]
        rows.append([f"{ruleset}, {mapname}"]
                    + [f"{100 * sh[k]:.0f}%" for k in ("geometry", "agents", "rules and protocol", "other")]
                    + [f"{1 / (1 - sh['geometry']):.2f}x"])
    _md_table(["ruleset, map", "geometry (engine/table)", "agents (engine/ai)", "rules and protocol", "other",
               "gain with free geometry"], rows)
    print("\neach layer's largest functions (share of the game's own CPU)")
    for ruleset, _ in HOME:
        for layer, fs in got[ruleset]["funcs"].items():
            top = sorted(fs.items(), key=lambda kv: -kv[1])[:4]
            print(f"  {ruleset:12s} {layer:18s} " + ", ".join(f"{k} {100 * v:.1f}%" for k, v in top))


LAYERS = (("engine/table/", "geometry"), ("engine/ai/", "agents"), ("engine/", "rules and protocol"))


def _layer(filename: str) -> str | None:
    """The layer a profiled function belongs to by its file, None for the interpreter's own
    functions and the libraries' (their time is counted where they were called from)."""
    f = filename.replace("\\", "/")
    if f.startswith(("~", "<")):
        return None
    for part, name in LAYERS:
        if "/" + part in f:      # a checkout or an installed engine alike
            return name
    return None


def layer_shares(ruleset: str, m, games: int, seed: int = 3) -> tuple[dict, dict]:
    """Own CPU of easy v easy games (cProfile) by layer: geometry (engine/table), agents
    (engine/ai), rules and protocol (the rest of engine/); and per layer its functions' shares.
    A built-in or a library function (math.hypot, numpy, pymunk, dataclasses) counts for the
    function that called it, from cProfile's per-caller times: one level up, which is where
    nearly all of them are called from. Under the profiler, so the shares are approximate (it
    weighs many small calls more). Games of their own seeds: a game played again in one process
    finds answers its first play left in the process's caches (the same deployment, the same
    first moves) and would show less geometry than a balance run's distinct games do. The caller
    has played a warm game on ``m`` (``split_one``)."""
    import cProfile
    import pstats
    prof = cProfile.Profile()
    prof.enable()
    easy_games(ruleset, m, games, seed=seed)      # the simulator's loop, no timers of ours
    prof.disable()
    got = dict.fromkeys([name for _, name in LAYERS] + ["other"], 0.0)
    funcs: dict = {}
    for (fname, line, func), (_, _, tt, _, callers) in pstats.Stats(prof).stats.items():
        own = _layer(fname)
        mine = [((fname, line, func), own, tt)] if own is not None else [
            (c, _layer(c[0]), ctt) for c, (_, _, ctt, _) in callers.items()]
        for (f, ln, fn), layer, t in mine:
            got[layer or "other"] += t
            if layer is not None:
                key = f"{f.replace(chr(92), '/').split('/engine/')[-1]}:{ln} {fn}"
                funcs.setdefault(layer, {})
                funcs[layer][key] = funcs[layer].get(key, 0.0) + t
    tot = sum(got.values())
    return ({k: v / tot for k, v in got.items()},
            {layer: {k: v / tot for k, v in fs.items()} for layer, fs in funcs.items()})


def hard_decisions(ruleset: str, m, iters: int, searched: int) -> dict:
    """hard:iters=N in seat 1 against easy, games of seeds game_seed(1, i), until ``searched``
    decisions were searched: their CPU each."""
    costs, hashes = [], []
    i = 0
    while len(costs) < searched and i < 20:
        s = game_seed(1, i)
        g = Game(Setup(ruleset, m, (), {}, s))
        agents = _agents(g, (f"hard:iters={iters}", "easy"), s)
        hard = agents[1]
        while (d := g.pending()) is not None and len(costs) < searched:
            v = g.view(d.player)
            before = hard.stats["searched"]
            t0 = time.process_time()
            c = agents[d.player].choose(d, v)
            dt = time.process_time() - t0
            if d.player == 1 and hard.stats["searched"] > before:
                costs.append(dt)
            g.submit(d.player, c)
        hashes.append(g.state_hash()[:16])
        i += 1
    return {"searched": len(costs), "cpu_per": sum(costs) / len(costs), "median": statistics.median(costs),
            "hashes": hashes}


def measure(games: int, iters: int, searched: int) -> dict:
    out = {}
    for ruleset, mapname in HOME:
        m = load_map(resolve_map(mapname))
        # warm: one untimed easy game (another seed) builds what a process builds once per map
        # (the table, its path graphs and walking grids per base radius, the sight kernel):
        # the timed games are the steady state of a long balance run
        warm = time.process_time()
        easy_games(ruleset, m, 1, seed=2)
        warm = time.process_time() - warm
        out[ruleset] = {"easy": easy_games(ruleset, m, games), "warm_game_cpu": warm,
                        "hard": hard_decisions(ruleset, m, iters, searched) if searched else None}
    return out


def random_games(ruleset: str | None, games: int) -> dict:
    """What the callgrind runs execute: the set-up of every ruleset (maps, a warm table), then
    ``games`` random games of ``ruleset`` (none for the set-up run)."""
    maps = {}
    for rs, mapname in HOME:
        maps[rs] = load_map(resolve_map(mapname))
        Game(Setup(rs, maps[rs], (), {}, 0))
    decisions, hashes = 0, []
    for i in range(games if ruleset else 0):
        s = game_seed(1, i)
        g = Game(Setup(ruleset, maps[ruleset], (), {}, s))
        decisions += play(g, _agents(g, ("random", "random"), s)).decisions
        hashes.append(g.state_hash()[:16])
    return {"decisions": decisions, "hashes": hashes}


def instructions(root: Path, ruleset: str | None, games: int) -> tuple[int, dict]:
    """Instructions (callgrind's Ir) of ``random_games`` run on ``root``'s code, and its answer."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
               "--ir", ruleset or "none", "--games", str(games), "--json", "--root", str(root)]
        env = dict(os.environ, PYTHONHASHSEED="0")
        res = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
        total = next(int(line.split()[1]) for line in out.read_text().splitlines()
                     if line.startswith(("summary:", "totals:")))
    return total, json.loads(res.stdout.strip().splitlines()[-1])


def callgrind_table(before: str | None, games: int) -> None:
    if shutil.which("valgrind") is None:
        print("\nrandom instructions per decision: valgrind is not installed here, not measured")
        return
    sides = ([("before", Path(before))] if before else []) + [("now", THIS)]
    got: dict = {}
    for name, root in sides:
        base, _ = instructions(root, None, 0)
        for ruleset, _ in HOME:
            ir, ans = instructions(root, ruleset, games)
            got[(name, ruleset)] = ((ir - base) / max(1, ans["decisions"]), ans)
        print(f"callgrind runs of {name} done", flush=True)
    print(f"\nrandom v random, {games} games per ruleset under callgrind, instructions per decision "
          "(the set-up run subtracted)")
    if before:
        print("| ruleset | decisions before / now | before | now | change | same hashes |")
        print("|---|---|---|---|---|---|")
    for ruleset, mapname in HOME:
        ir, ans = got[("now", ruleset)]
        if before:
            ir0, ans0 = got[("before", ruleset)]
            print(f"| {ruleset}, {mapname} | {ans0['decisions']} / {ans['decisions']} | {ir0 / 1e6:.3f} M "
                  f"| {ir / 1e6:.3f} M | {100 * (ir / ir0 - 1):+.1f}% | {_same(ans0['hashes'], ans['hashes'])} |")
        else:
            print(f"{ruleset:12s} {ans['decisions']} decisions  {ir / 1e6:.3f} M instructions per decision  "
                  f"hashes {' '.join(ans['hashes'])}")


def _same(a: list, b: list) -> str:
    return "yes" if a == b else f"no ({sum(x != y for x, y in zip(a, b))} of {len(a)} differ)"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4, help="easy v easy games per ruleset")
    ap.add_argument("--iters", type=int, default=2, help="hard's fixed rounds per searched decision")
    ap.add_argument("--searched", type=int, default=30, help="searched decisions of hard per ruleset (0: none)")
    ap.add_argument("--callgrind", type=int, default=0, metavar="G",
                    help="also count instructions over G random games per ruleset (valgrind)")
    ap.add_argument("--no-timing", action="store_true", help="only the callgrind figures")
    ap.add_argument("--split", action="store_true",
                    help="only where an easy game's CPU goes (agents v engine), on this checkout")
    ap.add_argument("--split-one", choices=[rs for rs, _ in HOME], help=argparse.SUPPRESS)   # a --split child
    ap.add_argument("--ir", help=argparse.SUPPRESS)     # a callgrind child: random_games(ruleset)
    add_arguments(ap, rounds=3)
    args = ap.parse_args()
    if args.ir:
        print(json.dumps(random_games(None if args.ir == "none" else args.ir, args.games)))
        return
    if args.json:
        print(json.dumps(measure(args.games, args.iters, args.searched)))
        return
    if args.split_one:
        print(json.dumps(split_one(args.split_one, args.games)))
        return
    if args.split:
        split_table(args.games)
        return
    if not args.no_timing:
        timing(args)
    if args.callgrind:
        callgrind_table(args.before, args.callgrind)


def timing(args) -> None:
    argv = ["--games", str(args.games), "--iters", str(args.iters), "--searched", str(args.searched)]
    if not args.before:
        got = measure(args.games, args.iters, args.searched)
        for ruleset, mapname in HOME:
            e, h = got[ruleset]["easy"], got[ruleset]["hard"]
            line = (f"{ruleset:12s} {mapname:11s} easy v easy {e['rate']:.2f} games per CPU s "
                    f"({e['per_game']:.0f} decisions a game)")
            if h:
                line += (f"  hard:iters={args.iters} {1000 * h['cpu_per']:.0f} ms CPU per searched decision "
                         f"(median {1000 * h['median']:.0f}, {h['searched']} decisions)")
            print(line)
            print(f"{'':24s} hashes easy {' '.join(e['hashes'])}" + (f"  hard {' '.join(h['hashes'])}" if h else ""))
        return
    old, new = alternate(__file__, args.before, argv, args.rounds)

    def gain(part, key, invert=False):
        r = [(n[rs][part][key] / o[rs][part][key]) for o, n in zip(old, new)]
        return statistics.median([1 / x for x in r] if invert else r)

    print(f"\n{args.games} easy v easy games and {args.searched} searched decisions of hard:iters={args.iters} "
          f"per ruleset, {args.rounds} alternating rounds, medians (before: {args.before})")
    print("| ruleset, map | easy v easy games per CPU s: before | now | gain | decisions a game before / now "
          "| same hashes | hard, CPU per searched decision: before | now | gain | same hashes |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for rs, mapname in HOME:
        eb = statistics.median(o[rs]["easy"]["rate"] for o in old)
        ea = statistics.median(n[rs]["easy"]["rate"] for n in new)
        row = (f"| {rs}, {mapname} | {eb:.2f} | {ea:.2f} | {gain('easy', 'rate'):.2f}x "
               f"| {old[0][rs]['easy']['per_game']:.0f} / {new[0][rs]['easy']['per_game']:.0f} "
               f"| {_same(old[0][rs]['easy']['hashes'], new[0][rs]['easy']['hashes'])} ")
        if args.searched:
            hb = statistics.median(o[rs]["hard"]["cpu_per"] for o in old)
            ha = statistics.median(n[rs]["hard"]["cpu_per"] for n in new)
            row += (f"| {1000 * hb:.0f} ms | {1000 * ha:.0f} ms | {gain('hard', 'cpu_per', invert=True):.2f}x "
                    f"| {_same(old[0][rs]['hard']['hashes'], new[0][rs]['hard']['hashes'])} |")
        else:
            row += "| - | - | - | - |"
        print(row)
    for k, (o, n) in enumerate(zip(old, new)):
        print(f"round {k + 1}: " + "  ".join(
            f"{rs} easy {o[rs]['easy']['rate']:.2f} -> {n[rs]['easy']['rate']:.2f}"
            + (f", hard {1000 * o[rs]['hard']['cpu_per']:.0f} -> {1000 * n[rs]['hard']['cpu_per']:.0f} ms"
               if args.searched else "") for rs, _ in HOME))


if __name__ == "__main__":
    main()
