"""AI strength: many games per pairing per ruleset, with the figures docs/ai.md reports.

Run:  python bench/ai_strength.py play --ruleset doubles --pair easy:random --games 200 \
          [--seed 1] [--jobs 2] [--out results.jsonl]
      python bench/ai_strength.py report results.jsonl [more.jsonl.gz ...]
      python bench/ai_strength.py check results.jsonl [...]

``--answers-every N`` (default 50) keeps every answer of each game whose index N divides, and
``check`` plays those games again from their setup and compares the state hash: a search agent
bound by CPU time answers by the machine's load, so its games replay by their answers, not their
seeds (a sample of two games in a hundred, to keep the data small).

``play`` plays the games with the game seeds and seats of ``skirmish simulate --fixed
--swap-sides``, and the agent seeds the simulator used before it seeded agents by name (game seed
XOR a multiple of the seat), so the games of the figures in docs/ai.md repeat, on the
ruleset's home map, and appends one JSON line per game to ``--out`` as it ends: an interrupted
run keeps every finished game, and a second run with ``--skip-done`` plays only the rest.
``--jobs`` plays games in that many processes; ``--first K`` starts at game index K, so two
runs (``--games 100`` and ``--first 100 --games 200``, say) share a pairing's games.
``--rosters A,B`` gives seat 1 and seat 2 those rosters (Frontier's posse ids, for instance)
instead of the ruleset's defaults: with the factions swapped between the seats, a faction's
share can be told from a seat's. Each line names the commit the game was played on.

``report`` reads the lines and prints, per ruleset and pairing: games, each agent's wins, draws,
the first agent's share of decided games with its 95% Wilson interval, the draw share, the mean
game length (turns and decisions), wins by seat, and for each agent the share of its moves
that ended in cover or out of enemy sight.

"In cover or out of sight": after a decision of an agent, each of its models that stands
somewhere else than before is checked against every enemy model still in the game with the
table's sight (``Table.sight``, the other models blocking as usual): the spot counts when no
enemy sees it, or every enemy that sees it sees it through cover (light or heavy). This is the
table's geometry, the same for every ruleset, not a ruleset's own cover rule.
"""
from __future__ import annotations

import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(Path(__file__).resolve().parent))   # beside this file, also when a test imports it by path (last: bench/engine.py must not hide the package)
from subcommands import commands, run  # noqa: E402

from engine.core.rules import get_rules  # noqa: E402

HOME = {r: get_rules(r).home_map for r in ("counterblast", "frontier", "doubles")}   # the engine's home maps


def _commit() -> str:
    """The checkout's commit (the search agents' strength depends on the code's speed)."""
    import subprocess
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
    except Exception:
        return ""


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share k/n (0..1)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def _bases(view: dict):
    from engine.table.bases import Base

    out = {}
    for p in view.get("pieces", ()):
        if p.get("out"):
            continue
        out[p["id"]] = (p["player"], Base(p["id"], p["x"], p["y"], p["radius"], p["height"],
                                          p.get("facing") or 0.0, p.get("z") or 0.0))
    return out


def covered(table, bases: dict, mid: str) -> bool:
    """True when no enemy of ``mid`` sees it, or each that does sees it through cover."""
    player, me = bases[mid]
    others = [b for k, (_, b) in bases.items() if k != mid]
    for k, (q, b) in bases.items():
        if q == player:
            continue
        s = table.sight(b, me, [o for o in others if o.id != k])
        if s.visible and s.cover == "none":
            return False
    return True


def new_game(ruleset: str, map_id: str, rosters, game_seed: int):
    """A game as ``play_one`` sets it up (and ``replay`` again): the map, the rosters (empty: the
    ruleset's own), no options, the game seed."""
    from engine.core import Game, Setup
    from engine.data.maps import load_map
    from engine.paths import resolve_map

    return Game(Setup(ruleset, load_map(resolve_map(map_id)), tuple(rosters), {}, game_seed))


def play_one(ruleset: str, pair: tuple[str, str], seed: int, index: int, swap_sides: bool = True,
             rosters: tuple[str, ...] = (), keep_answers: bool = False) -> dict:
    """One game; with ``keep_answers`` its line keeps every answer (``answers``: [player, choice]),
    so that ``check`` can play it again: a search agent bound by CPU time answers by the load, not
    by the seed alone."""
    from engine.ai import make_agent
    from engine.simulate import game_seed, play, seats

    s = game_seed(seed, index)
    g = new_game(ruleset, HOME[ruleset], rosters, s)
    order = seats(index, swap_sides)
    players = {p: make_agent(pair[order[p - 1]], p, s ^ (p * 0x9E3779B1)) for p in (1, 2)}
    moves = {1: [0, 0], 2: [0, 0]}           # per seat: moves, moves ending covered
    think = {1: 0.0, 2: 0.0}

    def wrap(p, agent):
        inner = agent.choose

        def choose(d, v):
            t = time.perf_counter()
            c = inner(d, v)
            think[p] += time.perf_counter() - t
            return c
        agent.choose = choose

    for p, a in players.items():
        wrap(p, a)
    before: dict = {}

    def on_step(game):
        nonlocal before
        p = last[0]   # the player of the decision just answered: its models that moved are scored
        now = _bases(game.view(1))
        for mid, (q, b) in now.items():
            if q != p or mid not in before:
                continue
            ob = before[mid][1]
            if math.hypot(b.x - ob.x, b.y - ob.y) > 1.0:
                moves[p][0] += 1
                moves[p][1] += covered(game.table, now, mid)
        before = now

    last = [1]
    orig_pending = g.pending

    def pending():
        d = orig_pending()
        if d is not None:
            last[0] = d.player
        return d
    g.pending = pending
    before = _bases(g.view(1))
    t0 = time.perf_counter()
    err = None
    try:
        played = play(g, players, on_step=on_step)
        winner, decisions = played.result.winner, played.decisions
    except Exception as e:  # counted: the harness reports errors, it does not stop on them
        winner, decisions, err = None, len(g.decisions), f"{type(e).__name__}: {e}"
    rec = {"ruleset": ruleset, "map": HOME[ruleset], "pair": list(pair), "rosters": list(rosters),
            "seed": seed, "index": index,
            "game_seed": s, "order": list(order), "winner_seat": winner,
            "winner_agent": None if winner is None else order[winner - 1],
            "turns": g.state.turn, "decisions": decisions,
            "moves": {str(order[p - 1]): moves[p] for p in (1, 2)},
            "think_s": {str(order[p - 1]): round(think[p], 3) for p in (1, 2)},
            # a search agent's own counts (decisions searched, rounds, changed from easy's pick...)
            "stats": {str(order[p - 1]): {k: (round(v, 3) if isinstance(v, float) else v)
                                          for k, v in getattr(players[p], "stats", {}).items()} for p in (1, 2)},
            "seconds": round(time.perf_counter() - t0, 2), "error": err,
            "hash": g.state_hash(), "commit": _commit()}
    if keep_answers:
        rec["answers"] = [[p, c.to_json()] for p, c in g.decisions]
    return rec


def replay(rec: dict) -> str:
    """The state hash reached by playing a line's kept answers again from its setup (its ruleset,
    home map, rosters and game seed)."""
    from engine.core.protocol import Choice

    g = new_game(rec["ruleset"], rec["map"], rec.get("rosters", ()), rec["game_seed"])
    for player, choice in rec["answers"]:
        g.submit(int(player), Choice.from_json(choice))
    return g.state_hash()


def read_lines(path: str) -> list[dict]:
    """A results file's lines, plain or gzip (``.gz``, as kept under data/experiments/), read as a
    manifest is (``engine.manifest.read_text``: a folder, a pipe or a damaged file refused); a line
    that is not a JSON object is refused too. ``DataError`` says the file and the reason."""
    from engine.data.errors import DataError
    from engine.manifest import read_text

    rows = []
    for n, x in enumerate(read_text(Path(path)).splitlines(), 1):
        if not x.strip():
            continue
        try:
            row = json.loads(x)
        except ValueError as err:
            raise DataError(path, [(f"line {n}", f"not JSON: {err}")]) from None
        if not isinstance(row, dict):
            raise DataError(path, [(f"line {n}", "not a game's line (a JSON object)")])
        rows.append(row)
    return rows


def _all_lines(files) -> list[dict] | None:
    """Every file's lines, or None after saying on stderr which file was refused and why."""
    from engine.data.errors import DataError
    rows = []
    for f in files:
        try:
            rows += [dict(r, _file=f) for r in read_lines(f)]
        except DataError as err:
            print(f"refused: {err}", file=sys.stderr)
            return None
    return rows


def cmd_play(args) -> int:
    pair = tuple(args.pair.split("/")) if "/" in args.pair else tuple(args.pair.split(":"))
    if len(pair) != 2:
        print("--pair is A:B (or A/B when an agent name has parameters)", file=sys.stderr)
        return 2
    if args.answers_every < 0:
        print("--answers-every is a count of games: 0 (none) or more", file=sys.stderr)
        return 2
    rosters = tuple(x for x in args.rosters.split(",") if x) if args.rosters else ()
    done = set()
    out = Path(args.out)
    if args.skip_done and out.exists():
        for line in out.read_text().splitlines():
            r = json.loads(line)
            if (r["ruleset"] == args.ruleset and tuple(r["pair"]) == pair and r["seed"] == args.seed
                    and tuple(r.get("rosters", ())) == rosters):
                done.add(r["index"])
    todo = [i for i in range(args.first, args.games) if i not in done]
    with ProcessPoolExecutor(max_workers=args.jobs) as ex, out.open("a") as fh:
        futs = [ex.submit(play_one, args.ruleset, pair, args.seed, i, True, rosters,
                          bool(args.answers_every) and i % args.answers_every == 0) for i in todo]
        for n, f in enumerate(as_completed(futs), 1):
            r = f.result()
            fh.write(json.dumps(r) + "\n")
            fh.flush()
            print(f"{n}/{len(todo)} game {r['index']}: winner agent {r['winner_agent']} "
                  f"({r['turns']} turns, {r['seconds']} s){' ERROR ' + r['error'] if r['error'] else ''}",
                  flush=True)
    return 0


def summarise(rows: list[dict]) -> list[dict]:
    groups: dict = {}
    for r in rows:
        groups.setdefault((r["ruleset"], tuple(r["pair"]), tuple(r.get("rosters", ()))), []).append(r)
    out = []
    for (rs, pair, rosters), rr in sorted(groups.items()):
        n = len(rr)
        w = [sum(1 for r in rr if r["winner_agent"] == a) for a in (0, 1)]
        draws = n - w[0] - w[1]
        decided = w[0] + w[1]
        lo, hi = wilson(w[0], decided)
        seat = [sum(1 for r in rr if r["winner_seat"] == s) for s in (1, 2)]
        mv = {a: [sum(r["moves"][str(a)][0] for r in rr), sum(r["moves"][str(a)][1] for r in rr)] for a in (0, 1)}
        dec = [r["decisions"] for r in rr]
        out.append({"ruleset": rs, "map": rr[0]["map"], "pair": pair, "rosters": rosters, "games": n,
                    "seeds": sorted({r["seed"] for r in rr}), "wins": w, "draws": draws,
                    "share": (w[0] / decided) if decided else None, "wilson": (lo, hi),
                    "draw_share": draws / n, "mean_turns": sum(r["turns"] for r in rr) / n,
                    "mean_decisions": sum(dec) / n, "by_seat": seat,
                    "cover": {a: (mv[a][1] / mv[a][0] if mv[a][0] else None, mv[a][0]) for a in (0, 1)},
                    "errors": sum(1 for r in rr if r["error"]),
                    "commits": sorted({r.get("commit") or "?" for r in rr}),
                    "repeats": n - len({(r["seed"], r["index"]) for r in rr}),
                    "mean_seconds": sum(r["seconds"] for r in rr) / n})
    return out


def cmd_check(args) -> int:
    """Play again every game whose line kept its answers and compare the hash: 0 when all agree,
    1 when one differs, 2 when no line kept answers."""
    checked = differ = 0
    rows = _all_lines(args.files)
    if rows is None:
        return 2
    for rec in rows:
        f = rec["_file"]
        if not isinstance(rec.get("answers"), list):
            continue
        checked += 1
        try:
            got = replay(rec)
        except Exception as err:  # a refused answer: the code no longer plays this game
            got = f"error: {type(err).__name__}: {err}"
        same = got == rec.get("hash")
        differ += not same
        print(f"{f} game {rec.get('index')}: {'same hash' if same else 'DIFFERS: ' + got[:60]}")
    if not checked:
        print("no line kept its answers (play with --answers-every N)", file=sys.stderr)
        return 2
    print(f"{checked} games played again, {differ} differ")
    return 1 if differ else 0


def cmd_report(args) -> int:
    rows = _all_lines(args.files)
    if rows is None:
        return 2
    try:
        summary = summarise(rows)
    except (KeyError, TypeError, IndexError) as err:       # a JSON object that is not a game's line
        print(f"refused: a line lacks what a game's line holds ({type(err).__name__}: {err})", file=sys.stderr)
        return 2
    print("| ruleset, map | pairing (A v B) | games | A wins | B wins | draws | A's share of decided "
          "[95% Wilson] | draw share | mean turns / decisions | by seat (1 / 2) | moves in cover or "
          "unseen: A / B | errors | s per game |")
    print("|" + "---|" * 13)
    for s in summary:
        share = "n/a" if s["share"] is None else f"{100 * s['share']:.0f}% [{100 * s['wilson'][0]:.0f}–{100 * s['wilson'][1]:.0f}%]"
        cov = " / ".join("n/a" if c is None else f"{100 * c:.0f}% ({m})" for c, m in (s["cover"][0], s["cover"][1]))
        where = f"{s['ruleset'].capitalize()}, {s['map']}" + (f" ({' v '.join(s['rosters'])})" if s["rosters"] else "")
        print(f"| {where} | {s['pair'][0]} v {s['pair'][1]} | {s['games']} | "
              f"{s['wins'][0]} | {s['wins'][1]} | {s['draws']} | {share} | {100 * s['draw_share']:.0f}% | "
              f"{s['mean_turns']:.1f} / {s['mean_decisions']:.0f} | {s['by_seat'][0]} / {s['by_seat'][1]} | "
              f"{cov} | {s['errors']} | {s['mean_seconds']:.1f} |")
    for s in summary:
        print(f"\n{s['ruleset']} {s['pair'][0]} v {s['pair'][1]}: played on {', '.join(s['commits'])}"
              + ("" if s["commits"] != ["?"] else " (lines written before the commit was recorded)")
              + (f"; {s['repeats']} game indices appear more than once (runs of different code or "
                 f"seeds put together?)" if s["repeats"] else ""))
    return 0


def main(argv=None) -> int:
    cmds = {"play": cmd_play, "report": cmd_report, "check": cmd_check}
    ap, sub = commands(__doc__.splitlines()[0], cmds)
    p = sub["play"]
    p.add_argument("--ruleset", choices=sorted(HOME), required=True)
    p.add_argument("--pair", required=True, help="A:B, e.g. hard:easy (A/B when names carry parameters)")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", default="ai_strength.jsonl")
    p.add_argument("--skip-done", action="store_true", help="play only the games not yet in --out")
    p.add_argument("--first", type=int, default=0, help="start at this game index (split a run between processes)")
    p.add_argument("--rosters", default="", help="seat 1's and seat 2's roster ids, e.g. outlawmen,sheriffs "
                   "(default: the ruleset's own); they stay with the seats when --swap-sides moves the agents")
    p.add_argument("--answers-every", type=int, default=50, help="keep the answers of every Nth game (index "
                   "divisible by N; 0: none), so that `check` can play it again")
    sub["report"].add_argument("files", nargs="+")
    sub["check"].add_argument("files", nargs="+")
    return run(ap, argv, cmds)


if __name__ == "__main__":
    sys.exit(main())
