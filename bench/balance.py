"""Every pairing of a ruleset's default forces, crossed, through the workshop's experiment.

    python bench/balance.py play --ruleset doubles --games 400 --out data/experiments/balance/doubles-easy
    python bench/balance.py table data/experiments/balance/doubles-easy [--markdown]

``play`` runs one ``skirmish experiment`` per pair of the rosters the launcher lists
(``get_rules(r).roster_ids()``), on the ruleset's home map and a second map it accepts, into
``OUT/<A>--<B>/`` (each with its games.jsonl, summary and report; ``--resume`` extends one).
``table`` reads those summaries and prints the roster effect of every pairing on every map with
its 95% interval and half-width (the logistic model of ``engine.workshop.stats``), the draws and
the table effect, and flags a pairing whose interval is not inside 45-55%; then, per map, how
much of the distance from even is the forces' strengths (what a change to one force can even
out) and how much is matchups between two forces (``engine.workshop.matchups``).
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# the ruleset's home map first, then a second map it accepts
MAPS = {"counterblast": ("outpost", "quarry"), "frontier": ("town", "field"), "doubles": ("prehistoric", "town")}
FAIR = (0.45, 0.55)


def pairs(ruleset: str, only: list[str] | None = None) -> list[tuple[str, str]]:
    from engine.core.rules import get_rules

    ids = list(get_rules(ruleset).roster_ids())
    out = list(itertools.combinations(ids, 2))
    if only:
        want = {tuple(p.split(",")) for p in only}
        out = [p for p in out if p in want or p[::-1] in want]
    return out


def play(args) -> int:
    from engine.workshop.experiment import Config, run

    maps = tuple(args.maps or MAPS[args.ruleset])
    for a, b in pairs(args.ruleset, args.pairs):
        cfg = Config(args.ruleset, maps, args.games, args.p1, args.p2, rosters=(a, b), seed=args.seed)
        out = Path(args.out) / f"{a}--{b}"
        resume = out.exists() and (out / "config.json").exists()
        info = run(cfg, out, workers=args.workers, resume=resume, progress=False)
        cpu = sum(r.get("cpu_seconds") or 0 for r in info.records)
        print(f"{args.ruleset} {a} v {b}: {info.played} new games of {info.total} planned ({len(maps)} maps), "
              f"{info.seconds:.0f} s wall, {cpu:.0f} s of game CPU in all", flush=True)
    return 0


def rows(folder: Path) -> list[dict]:
    out = []
    for d in sorted(p for p in folder.iterdir() if (p / "summary.json").exists() or (p / "manifest.json").exists()):
        if (d / "summary.json").exists():
            s = json.loads((d / "summary.json").read_text())
        else:                                   # a kept experiment: its manifest holds the summary
            m = json.loads((d / "manifest.json").read_text())
            s = {"config": m["config"], "maps": m["summary"]}
        for label in s["config"]["labels"]:
            m = s["maps"].get(label)
            if m is None:
                continue
            r = m["roster"] or {}
            out.append({"pair": d.name, "a": m["rosters"][0], "b": m["rosters"][1], "map": label,
                        "games": m["distinct_games"], "decisive": m["decisive"], "method": m["method"],
                        "share": r.get("share"), "low": r.get("low"), "high": r.get("high"),
                        "draw": m["draw"]["share"], "table": m["table"], "first": m["first_player"],
                        "endings": m["endings"], "losers": m["losers_by_ending"], "turns": m["mean_turns"]})
    return out


def _p(x) -> str:
    return "–" if x is None else f"{100 * x:.0f}"


def table(args) -> int:
    for folder in args.folders:
        rs = rows(Path(folder))
        print(f"\n{folder}\n")
        print("| pairing (A v B) | map | distinct games (decisive) | A wins [95%] | ± | fair? | draws | table: zone 1 "
              "wins | first player wins |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in rs:
            if r["share"] is None:
                eff, hw, fair = "–", "–", "–"
            else:
                eff = f"{_p(r['share'])}% [{_p(r['low'])}–{_p(r['high'])}]"
                hw = f"{100 * max(r['share'] - r['low'], r['high'] - r['share']):.1f}"
                fair = "yes" if FAIR[0] <= r["low"] and r["high"] <= FAIR[1] else (
                    "no" if r["low"] > FAIR[1] or r["high"] < FAIR[0] or r["low"] > 0.5 or r["high"] < 0.5
                    else "unclear")
            t, f = r["table"] or {}, r["first"] or {}
            tt = f"{_p(t.get('share'))}% [{_p(t.get('low'))}–{_p(t.get('high'))}]" if t.get("share") is not None else "–"
            ft = f"{_p(f.get('share'))}% [{_p(f.get('low'))}–{_p(f.get('high'))}]" if f.get("share") is not None else "–"
            print(f"| {r['a']} v {r['b']} | {r['map']} | {r['games']} ({r['decisive']}) | {eff} | {hw} | {fair} | "
                  f"{_p(r['draw'])}% | {tt} | {ft} |")
        print(strengths(rs))
    return 0


def strengths(rs: list[dict]) -> str:
    """Each map's table split into the forces' strengths and the matchups left."""
    from engine.workshop.matchups import Cell, markdown, split

    by_map: dict[str, list] = {}
    for r in rs:
        if r["share"] is not None:
            by_map.setdefault(r["map"], []).append(Cell(r["a"], r["b"], r["share"], r["low"], r["high"]))
    splits = {}
    for label, cells in by_map.items():
        try:
            splits[label] = split(cells)
        except ValueError as err:
            return f"\n(no strengths for {label}: {err})"
    return markdown(splits) if splits else ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--ruleset", required=True, choices=sorted(MAPS))
    p.add_argument("--games", type=int, default=400, help="games per map and pairing (whole blocks)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--p1", default="easy")
    p.add_argument("--p2", default="easy")
    p.add_argument("--maps", nargs="+")
    p.add_argument("--pairs", nargs="+", help="only these pairs, A,B")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", required=True)
    t = sub.add_parser("table")
    t.add_argument("folders", nargs="+")
    args = ap.parse_args(argv)
    return play(args) if args.cmd == "play" else table(args)


if __name__ == "__main__":
    sys.exit(main())
