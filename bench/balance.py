"""Every pairing of a ruleset's default forces, crossed, through the workshop's experiment.

    python bench/balance.py play --ruleset doubles --games 400 --out data/experiments/balance/doubles-easy
    python bench/balance.py table data/experiments/balance/doubles-easy [--markdown]
    python bench/balance.py predict RUN/history.json ...
    python bench/balance.py false-keep [--reps 2000] [--touch 0.4] [--p 0.5]

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

import itertools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))   # beside this file, also when a test imports it by path (last: bench/engine.py must not hide the package)
from subcommands import commands, run  # noqa: E402

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
    from engine.manifest import load_manifest, manifest_in

    for d in sorted(p for p in folder.iterdir() if (p / "summary.json").exists() or manifest_in(p)):
        if (d / "summary.json").exists():
            s = json.loads((d / "summary.json").read_text())
        else:                                   # a kept experiment: its manifest (gzip) holds the summary
            m = load_manifest(manifest_in(d))
            s = {"config": m.config, "maps": m.summary}
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


def _corr(a: list[float], b: list[float]) -> float | None:
    import numpy as np

    if len(a) < 3 or np.std(a) == 0 or np.std(b) == 0:
        return None
    return float(np.corrcoef(a, b)[0, 1])


def surrogate(points: list[tuple[list[float], float, float]], feats: list[float], ridge: float = 1.0) -> float | None:
    """The surrogate's log-odds for a map with sight figures ``feats``: a ridge regression of the
    measured log-odds on the figures (with an intercept), over every map measured so far, each
    weighted by 1 / se^2 of its estimate. None with fewer than 4 maps."""
    import numpy as np

    if len(points) < 4:
        return None
    X = np.array([[1.0] + list(f) for f, _, _ in points])
    y = np.array([v for _, v, _ in points])
    w = np.array([1 / max(se, 1e-3) ** 2 for _, _, se in points])
    scale = X.std(axis=0)
    scale[0] = 1.0
    scale[scale == 0] = 1.0
    Xs = X / scale
    A = Xs.T @ (Xs * w[:, None]) + ridge * np.diag([0.0] + [float(w.mean())] * (X.shape[1] - 1))
    beta = np.linalg.solve(A, Xs.T @ (w * y))
    return float((np.array([1.0] + list(feats)) / scale) @ beta)


def predict(args) -> int:
    """How well the balancer's screen predicted what the games measured: over every candidate
    played, the correlation of its predicted share with its measured share (search seeds); and the
    same for a surrogate fitted online (each step predicted from the maps measured in earlier
    steps only) on the candidates' own sight figures (hide difference, walk difference and
    objective-access difference) and the incumbent's log-odds."""
    import math

    for path in args.histories:
        h = json.loads(Path(path).read_text())
        pred, meas, sur_p, sur_m, points, games = [], [], [], [], [], 0
        b = 0.0       # the incumbent's log-odds before each step (the start's, then each step's)
        for step in h["history"]:
            tested = [t for t in step.get("tested", []) if (t.get("table") or {}).get("share") is not None]
            for t in tested:
                f = [t.get("x") or 0.0, t.get("walk") or 0.0, t.get("obj_diff") or 0.0, b]
                share = t["table"]["share"]
                pred.append(t["predicted"])
                meas.append(share)
                g = surrogate(points, f)
                if g is not None:
                    sur_p.append(1 / (1 + math.exp(-g)))
                    sur_m.append(share)
                games += t["table"].get("games") or 0
            for t in tested:    # learnt only after the step is played
                e = t["table"]
                points.append(([t.get("x") or 0.0, t.get("walk") or 0.0, t.get("obj_diff") or 0.0, b],
                               e.get("coef", 0.0), e.get("se") or 1.0))
            if step["kind"] in ("start", "search") and (step.get("table") or {}).get("coef") is not None:
                b = step["table"]["coef"]
        r1, r2 = _corr(pred, meas), _corr(sur_p, sur_m)
        r1s = "-" if r1 is None else f"{r1:+.2f}"
        r2s = "-" if r2 is None else f"{r2:+.2f}"
        # the screen over the same candidates the surrogate could predict (its first 4 have no fit)
        r3 = _corr(pred[len(pred) - len(sur_p):], sur_m)
        r3s = "-" if r3 is None else f"{r3:+.2f}"
        print(f"{path}: {len(pred)} candidates ({games} decisive games): screen r = {r1s}; "
              f"online surrogate r = {r2s} over the {len(sur_p)} it could predict (the screen on those: {r3s})")
    return 0


def false_keep(args) -> int:
    """The SPRT keep rule's false-keep rate where no change can help: a table at ``p`` whose
    candidates re-deal a share ``touch`` of the paired games with the same ``p``; each step tests
    ``tests`` candidates in stages of ``stage`` games up to ``top`` (the balancer's defaults)."""
    import random

    from engine.workshop.sequential import Sprt

    rng = random.Random(args.seed)
    test = Sprt(args.alpha, 0.2, 0.6)
    keeps, games = 0, 0
    for _ in range(args.reps):
        kept = False
        for _c in range(args.tests):
            h = u = n = 0
            verdict = None
            while verdict is None and n < args.top:
                for _g in range(args.stage):
                    n += 1
                    if rng.random() < args.touch:
                        a, b = rng.random() < args.p, rng.random() < args.p
                        if a != b:           # the discordant pair helps or hurts with equal chance
                            h, u = (h + 1, u) if b else (h, u + 1)
                verdict = test.decide(h, u, args.tests)
            games += n
            kept |= verdict == "keep"
        keeps += kept
    print(f"false-keep rate per step, {args.tests} candidates, alpha {args.alpha}: {keeps / args.reps:.3f} "
          f"({keeps} of {args.reps} steps; touch {args.touch}, p {args.p}; mean {games / args.reps:.0f} games a step)")
    return 0


def main(argv=None) -> int:
    cmds = {"play": play, "table": table, "predict": predict, "false-keep": false_keep}
    ap, sub = commands(__doc__, cmds)
    p, fk = sub["play"], sub["false-keep"]
    p.add_argument("--ruleset", required=True, choices=sorted(MAPS))
    p.add_argument("--games", type=int, default=400, help="games per map and pairing (whole blocks)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--p1", default="easy")
    p.add_argument("--p2", default="easy")
    p.add_argument("--maps", nargs="+")
    p.add_argument("--pairs", nargs="+", help="only these pairs, A,B")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", required=True)
    sub["table"].add_argument("folders", nargs="+")
    sub["predict"].add_argument("histories", nargs="+")
    fk.add_argument("--reps", type=int, default=2000)
    fk.add_argument("--touch", type=float, default=0.4)
    fk.add_argument("--p", type=float, default=0.5)
    fk.add_argument("--tests", type=int, default=3)
    fk.add_argument("--alpha", type=float, default=0.05)
    fk.add_argument("--stage", type=int, default=100)
    fk.add_argument("--top", type=int, default=600)
    fk.add_argument("--seed", type=int, default=1)
    return run(ap, argv, cmds)


if __name__ == "__main__":
    sys.exit(main())
