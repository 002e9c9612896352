"""Benchmark of the deployment phase: what it costs to set up a game and to deploy, per ruleset.

Run: python bench/deploy.py [--repeat N] [--ruleset R ...] [--maps M ...]
For each ruleset on its home map (and any ``--maps`` it accepts) prints, as the median of N fresh
tables (the games on a map share one table and its memos, ``engine/core/tables.py``: each repeat
drops them and builds the table again before the clock starts, so the table's own building, the
pymunk space and path caches, is not counted):

- ``automatic``: building the game with ``deployment: automatic`` (both forces placed by the
  engine in their fair frames, the table's symmetry found first);
- ``first AI``: the ``easy`` agent's first deployment decision on a fresh table, which builds the
  side's scored lattice (its sight from the enemy zone) and keeps it on the table;
- ``next AI``: the median of its later deployment decisions (the lattice reused);
- ``whole``: both sides' placements by ``easy`` in ``alternate`` mode, from the game's creation to
  turn 1.
Wall seconds and process CPU seconds (on a busy machine, read the CPU).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.ai import make_agent  # noqa: E402
from engine.core import Game, Setup, tables  # noqa: E402
from engine.core.errors import SetupError  # noqa: E402
from engine.core.rules import get_rules  # noqa: E402
from engine.data.maps import load_map  # noqa: E402
from engine.paths import resolve_map  # noqa: E402

RULESETS = ("counterblast", "frontier", "doubles")


def _clock():
    return time.perf_counter(), time.process_time()


def _since(t):
    w, c = _clock()
    return w - t[0], c - t[1]


def _fresh_table(mf) -> None:
    tables._TABLES.clear()
    tables.table_for(mf)


def measure(ruleset: str, map_name: str, repeat: int) -> dict | None:
    auto, first, later, whole = [], [], [], []
    for i in range(repeat):
        mf = load_map(resolve_map(map_name))
        _fresh_table(mf)
        t = _clock()
        try:
            Game(Setup(ruleset, mf, (), {"deployment": "automatic"}, i + 1))
        except SetupError:
            return None
        auto.append(_since(t))
        _fresh_table(mf)
        t = _clock()
        g = Game(Setup(ruleset, mf, (), {"deployment": "alternate"}, i + 1))
        agents = {p: make_agent("easy", p, p) for p in (1, 2)}
        for a in agents.values():
            a.attach(g.table, g.rules)
        seen = set()
        while g.pending().kind == "deploy":
            d = g.pending()
            view = g.view(d.player, drawing=False)
            tc = _clock()
            choice = agents[d.player].choose(d, view)
            (later if d.player in seen else first).append(_since(tc))
            seen.add(d.player)
            g.submit(d.player, choice)
        whole.append(_since(t))

    def med(xs):
        return (statistics.median(x[0] for x in xs), statistics.median(x[1] for x in xs)) if xs else (0.0, 0.0)

    return {"ruleset": ruleset, "map": map_name, "automatic": med(auto), "first AI": med(first),
            "next AI": med(later), "whole": med(whole)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--ruleset", nargs="+", choices=RULESETS, default=list(RULESETS))
    ap.add_argument("--maps", nargs="*", default=[])
    a = ap.parse_args(argv)
    print(f"{'ruleset':13} {'map':28} " + "  ".join(f"{k:>17}" for k in ("automatic", "first AI", "next AI", "whole"))
          + "   (wall / CPU, s)")
    for rs in a.ruleset:
        for m in [get_rules(rs).home_map, *a.maps]:
            r = measure(rs, m, a.repeat)
            label = Path(m).stem
            if r is None:
                print(f"{rs:13} {label:28} refused by the ruleset")
                continue
            print(f"{rs:13} {label:28} " + "  ".join(f"{r[k][0]:8.3f} / {r[k][1]:6.3f}"
                                                  for k in ("automatic", "first AI", "next AI", "whole")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
