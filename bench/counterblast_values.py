"""Measure what a Counterblast model is worth: games between random crews, then a fit.

    python bench/counterblast_values.py play --pairs 1652 --seed 1 --out runs/round1.jsonl
    python bench/counterblast_values.py play --values points --models 4 12 --pairs 600 --seed 2 --out runs/round2.jsonl
    python bench/counterblast_values.py fit round*.jsonl.gz   # the kept records: git show 8177ce7:bench/results/counterblast-values/roundN.jsonl.gz

``play`` draws pairs of random crews (``random_crew``: 4-10 models, a hero, character or psifer
leader, 0-3 more heroes, characters or psifers and lackeys in one or two entries with a count;
abilities, Mettle and Move over and around the shipped crews' range; weapons, gear and
characters' abilities drawn from the shipped armoury) and plays each pair twice on one seed,
each crew from each zone, ``easy`` against ``easy`` on the outpost (the home map, its default
mission, Salvage Rights, and the default deployment). It appends one JSON line per game: the two
crews, who won, the scores, how the game ended and the commit. Resumable: pairs already in
``--out`` are skipped.

What a model "costs" matters in play, since the battle score counts the points still standing
against the game's 500: ``--values equal`` (the measurement) gives every model of a crew the same
share of 500 points (``500 // models``), so the battle score counts models, and plays with the
``points_formula`` option off so those stated points stand; ``--values points`` leaves ``points``
out, so the formula (``engine.rulesets.counterblast.points``) prices and scores every model, as
the shipped crews do, and draws only crews the formula prices at 300-500 points, legal at the
standard size (a check of the formula in play, where it matters). ``--models LOW HIGH`` sets the
crews' sizes (default 4-10).

``fit`` fits logistic models of "zone 1's crew wins" (decisive games, errors clustered by pair)
on the difference of the two crews' summed features (``points.features``), prints the fitted
weights with their 95% intervals, the calibration of the predictions by bins, and the scale that
puts the shipped crews near 500 points.
"""
from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))   # beside this file, also when a test imports it by path (last: bench/engine.py must not hide the package)
from subcommands import commands, run  # noqa: E402

MAP = "outpost"
NAMES = ("Ash Brix Cato Dace Edda Fenn Gris Hale Ives Juno Kite Lark Mace Nim Orla Pike Quin Rusk Sable "
         "Tarn Ursa Vex Wren Yara Zeke").split()
SIZES = {1: (25, 30.0), 2: (30, 40.0), 3: (40, 50.0)}       # size: (base mm, height mm)


def _armoury():
    from engine.rulesets.counterblast.data import load_armoury

    return load_armoury()


def random_profile(rng: random.Random, name: str, role: str, arm) -> dict:
    """One model: abilities over and around the shipped range (shipped: Move 4-6, Zap 1-5, Grit 1-6,
    Defense 2-5, Knack 1-6, Mettle 2-5), 0-2 guns, one striking weapon, gear and abilities by role."""
    size = rng.choice([1, 2, 2, 2, 3])
    base, height = SIZES[size]
    p = {"name": name, "role": role, "kind": rng.choice(["living", "living", "robot", "cyberform"]),
         "size": size, "base_mm": base, "height_mm": height, "move": rng.randint(3, 7),
         "zap": rng.randint(0, 6), "grit": rng.randint(0, 7), "defense": rng.randint(1, 6),
         "knack": rng.randint(0, 7), "mettle": rng.randint(1, 6)}
    p["shooting"] = rng.sample([w.id for w in arm.shooting], k=rng.choice([0, 1, 1, 1, 2]))
    p["striking"] = [rng.choice([w.id for w in arm.striking])]
    support = [g.id for g in arm.gear if g.kind != "psi_focus"]
    gear = rng.sample(support, k=rng.choice([0, 0, 0, 1, 1, 2]))
    if role == "psifer":
        gear = [rng.choice([g.id for g in arm.gear if g.kind == "psi_focus"])] + gear[:1]
    p["gear"] = gear
    p["special"] = ([rng.choice([a.id for a in arm.abilities])] if role == "character" and rng.random() < 0.85
                    else [])
    return p


def random_crew(rng: random.Random, ident: str, arm=None, models: tuple[int, int] = (4, 10)) -> dict:
    """A valid crew of ``models`` (lowest, highest) models (without points: ``with_values`` states them)."""
    arm = arm or _armoury()
    n = rng.randint(*models)
    heroes = rng.randint(1, min(4, n))
    names = rng.sample(NAMES, k=heroes + 2)
    entries = []
    for i in range(heroes):
        role = rng.choice(["hero", "hero", "character", "psifer"])
        entries.append({"id": f"h{i}", "profile": random_profile(rng, f"{names[i]} {ident}{i}", role, arm)})
    lackeys = n - heroes
    if lackeys:
        split = [lackeys] if lackeys < 2 or rng.random() < 0.5 else [k := rng.randint(1, lackeys - 1), lackeys - k]
        for j, c in enumerate(split):
            e = {"id": f"l{j}", "profile": random_profile(rng, f"{names[heroes + j]} Lackey", "lackey", arm)}
            if c > 1:
                e["count"] = c
            entries.append(e)
    return {"schema_version": 1, "id": f"crew-{ident.lower()}", "name": f"Crew {ident}", "points_limit": 500,
            "leader": "h0", "models": entries}


def crude_strength(crew: dict, arm=None) -> float:
    """Sum over models of sqrt(offence x durability), offence from the best gun or blade: only to
    draw closer pairs."""
    arm = arm or _armoury()
    tot = 0.0
    for e in crew["models"]:
        p = e["profile"]
        gun = max((arm.shooting_weapon(w).damage for w in p["shooting"]), default=0)
        blade = max((arm.striking_weapon(w).damage for w in p["striking"]), default=0)
        off = 1 + p["zap"] * gun + 0.5 * p["grit"] * blade
        tot += e.get("count", 1) * math.sqrt(off * (p["defense"] + 1) * p["mettle"])
    return tot


def with_values(crew: dict, how: str) -> dict:
    out = json.loads(json.dumps(crew))
    n = sum(e.get("count", 1) for e in out["models"])
    for e in out["models"]:
        if how == "equal":
            e["profile"]["points"] = 500 // n
        else:
            e["profile"].pop("points", None)
    return out


def commit() -> str:
    """The commit the games are played on (``BENCH_COMMIT`` when run from an exported copy)."""
    import os

    if os.environ.get("BENCH_COMMIT"):
        return os.environ["BENCH_COMMIT"]
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parents[1]).stdout.strip()
    except OSError:
        return ""


def play_pair(job: tuple) -> list[dict]:
    k, seed, values, a, b, head = job
    from engine.core import Game, Setup
    from engine.data.maps import load_map
    from engine.paths import resolve_map
    from engine.simulate import make_agents, play

    mf = load_map(resolve_map(MAP))
    options = {"points_formula": False} if values == "equal" else {}
    out = []
    for cell, rosters in enumerate(((a, b), (b, a))):
        t = time.process_time()
        base = {"pair": k, "cell": cell, "seed": seed, "map": MAP, "values": values, "commit": head,
                "zone1": rosters[0], "zone2": rosters[1]}
        try:
            g = Game(Setup("counterblast", mf, rosters, options, seed))
            p = play(g, make_agents(seed, ("easy", "easy")))
            rec = {**base, "winner": p.result.winner, "ending": p.result.ending,
                   "scores": {str(s): v for s, v in (p.result.scores or {}).items()}, "turns": g.state.turn,
                   "decisions": p.decisions, "error": None}
        except Exception as err:  # noqa: BLE001 - recorded
            rec = {**base, "winner": None, "error": f"{type(err).__name__}: {err}"}
        rec["cpu_s"] = round(time.process_time() - t, 3)
        out.append(rec)
    return out


def legal_crew(rng: random.Random, ident: str, arm, models: tuple[int, int], low: int = 300) -> dict:
    """A random crew the formula prices between ``low`` and 500 points (drawn until one is)."""
    from engine.rulesets.counterblast.data import Crew
    from engine.rulesets.counterblast.points import crew_points

    while True:
        c = random_crew(rng, ident, arm, models)
        if low <= crew_points(Crew.model_validate(c), arm) <= 500:
            return c


def jobs_for(args) -> list[tuple]:
    arm = _armoury()
    rng = random.Random(args.seed)
    head = commit()
    models = tuple(args.models)
    draw = ((lambda ident: legal_crew(rng, ident, arm, models)) if args.values == "points"
            else (lambda ident: random_crew(rng, ident, arm, models)))
    jobs = []
    for k in range(args.pairs):
        a = draw("A")
        if k % 2:   # every other pair: the closest of five draws by a crude strength, for closer games
            target = crude_strength(a, arm)
            b = min((draw("B") for _ in range(5)), key=lambda w: abs(crude_strength(w, arm) - target))
        else:
            b = draw("B")
        jobs.append((k, (args.seed * 1_000_003 + k * 7_919) % 2**31, args.values,
                     with_values(a, args.values), with_values(b, args.values), head))
    return jobs


def cmd_play(args) -> int:
    from pair_runs import run_pairs

    jobs = jobs_for(args)
    played, seconds = run_pairs(jobs, Path(args.out), play_pair, args.workers, chunksize=2, every=20)
    print(f"done: {played} pairs in {seconds:.0f} s", flush=True)
    return 0


# --- the fit -----------------------------------------------------------------------------
from pair_runs import load  # noqa: E402  (the fit reads the runs as the doubles bench does)


def crew_features(crew: dict, arm, names=None) -> dict[str, float]:
    """The crew's summed features (each entry's times its count), from the file's dict."""
    from engine.rulesets.counterblast import points as pts
    from engine.rulesets.counterblast.data import Profile

    tot: dict[str, float] = {}
    for e in crew["models"]:
        prof = dict(e["profile"])
        prof.pop("points", None)
        x = pts.features(Profile.model_validate(prof), arm)
        for k, v in x.items():
            tot[k] = tot.get(k, 0.0) + v * e.get("count", 1)
    return tot


def _glm(y, X, groups):
    import statsmodels.api as sm

    return sm.GLM(y, X, family=sm.families.Binomial()).fit(cov_type="cluster", cov_kwds={"groups": groups})


BINS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def calibration(p, y) -> list[tuple[str, float, float, int]]:
    """(bin, mean predicted, observed share, games) by bins of the predicted zone-1 win chance."""
    import numpy as np

    edges = (0.0,) + BINS + (1.0,)
    b = np.digitize(p, BINS)
    out = []
    for i in range(len(edges) - 1):
        m = b == i
        if m.any():
            out.append((f"{edges[i]:.1f}-{edges[i + 1]:.1f}", float(p[m].mean()), float(y[m].mean()), int(m.sum())))
    return out


def cmd_fit(args) -> int:
    import numpy as np
    import statsmodels.api as sm

    from engine.rulesets.counterblast import points as pts
    from engine.rulesets.counterblast.data import DATA_DIR, Profile

    arm = _armoury()
    recs = load(args.files)
    errors = [r for r in recs if r.get("error")]
    recs = [r for r in recs if not r.get("error")]
    dec = [r for r in recs if r["winner"] is not None]
    cpu = sum(r.get("cpu_s", 0) for r in recs)
    print(f"{len(recs)} games ({len(errors)} errors), {len(dec)} decisive, "
          f"{len({(r['seed'], r['pair']) for r in recs})} pairs; draws {1 - len(dec) / max(1, len(recs)):.1%}; "
          f"{cpu / max(1, len(recs)):.2f} s CPU a game")
    if errors:
        print("  first error:", errors[0]["error"])
    cache: dict = {}

    def feats(crew):
        key = json.dumps(crew, sort_keys=True)
        if key not in cache:
            cache[key] = crew_features(crew, arm)
        return cache[key]

    y = np.array([1 if r["winner"] == 1 else 0 for r in dec])
    groups = np.array([hash((r["seed"], r["pair"])) % 2**31 for r in dec])
    F1 = [feats(r["zone1"]) for r in dec]
    F2 = [feats(r["zone2"]) for r in dec]
    print(f"zone 1 wins {y.mean():.1%} of decisive games")

    def fit(names, label):
        D = np.array([[a[n] - b[n] for n in names] for a, b in zip(F1, F2)])
        m = _glm(y, sm.add_constant(D), groups)
        print(f"\n{label}: {len(names)} features, llf {m.llf:.1f}, zone 1 {m.params[0]:+.3f} ± {1.96 * m.bse[0]:.3f}")
        for n, c, e in zip(names, m.params[1:], m.bse[1:]):
            print(f"    {n:10s} {c:+.4f} ± {1.96 * e:.4f}")
        return m, D

    m, D = fit(["one"], "models only")
    if "points" in (args.compare or []):      # how well the points as they stand predict these games
        s = np.array([pts.strength(a) - pts.strength(b) for a, b in zip(F1, F2)])
        mm = _glm(y, sm.add_constant(s), groups)
        print(f"\nthe points as they stand: slope {mm.params[1]:.3f} ± {1.96 * mm.bse[1]:.3f} (1 = as fitted)")
        print("  their own scale, no refit (bin: predicted / observed zone-1 wins (games)):")
        for row in calibration(1 / (1 + np.exp(-s)), y):
            print(f"    {row[0]}: {row[1]:.2f} / {row[2]:.2f} ({row[3]})")
    names = list(pts.FEATURES)
    if args.variants:     # what the points leave out: size, weapons' own rules, Zap and Grit on their own
        def extra(crew):
            out = {"size": 0.0, "rules": 0.0, "zap": 0.0, "grit": 0.0}
            for e in crew["models"]:
                p, c = e["profile"], e.get("count", 1)
                ws = [arm.shooting_weapon(w) for w in p["shooting"]] + [arm.striking_weapon(w) for w in p["striking"]]
                out["size"] += c * p["size"]
                out["rules"] += c * sum(1 for w in ws if w.explode_on < 10 or w.inflicts is not None)
                out["zap"] += c * p["zap"]
                out["grit"] += c * p["grit"]
            return out

        for r, a, b in zip(dec, F1, F2):
            a.update(extra(r["zone1"]))
            b.update(extra(r["zone2"]))
        fit(names + ["size", "rules", "zap", "grit"], "the points model and what it leaves out")
    m, D = fit(names, "the points model")
    print("    WEIGHTS = {" + ", ".join(f'"{n}": {c:.4f}' for n, c in zip(names, m.params[1:])) + "}")
    print("  calibration (bin: predicted / observed zone-1 wins (games)):")
    for row in calibration(m.predict(sm.add_constant(D)), y):
        print(f"    {row[0]}: {row[1]:.2f} / {row[2]:.2f} ({row[3]})")
    # held-out check: fit on even pairs, predict odd ones
    odd = np.array([(r["pair"] // 2) % 2 == 1 for r in dec])   # half the pairs of each kind
    mh = _glm(y[~odd], sm.add_constant(D[~odd]), groups[~odd])
    ph = mh.predict(sm.add_constant(D[odd]))
    print("  held out (fit on half the pairs, predict the other half):")
    for row in calibration(ph, y[odd]):
        print(f"    {row[0]}: {row[1]:.2f} / {row[2]:.2f} ({row[3]})")
    # the range each feature covered, a model at a time (points.MEASURED)
    lo: dict = {}
    hi: dict = {}
    for crew in {json.dumps(c, sort_keys=True): c for r in recs for c in (r["zone1"], r["zone2"])}.values():
        for e in crew["models"]:
            prof = {k: v for k, v in e["profile"].items() if k != "points"}

            for k, v in pts.features(Profile.model_validate(prof), arm).items():
                lo[k], hi[k] = min(lo.get(k, v), v), max(hi.get(k, v), v)
    print("    MEASURED = {" + ", ".join(f'"{k}": ({lo[k]:g}, {hi[k]:g})' for k in names if k != "one") + "}")
    # the shipped crews on these weights: the scale that puts them near 500
    w = dict(zip(names, m.params[1:]))
    sums = {}
    for path in sorted((DATA_DIR / "crews").glob("*.json")):
        crew = json.loads(path.read_text())
        per = []
        for e in crew["models"]:
            prof = {k: v for k, v in e["profile"].items() if k != "points"}
            x = pts.features(Profile.model_validate(prof), arm)
            per.append((e["profile"]["name"], sum(w[n] * x[n] for n in names), e.get("count", 1)))
        sums[crew["name"]] = sum(v * c for _, v, c in per)
        print(f"  {crew['name']}: {sums[crew['name']]:.3f} log-odds summed; per model: "
              + ", ".join(f"{nm} {v:.3f}" + (f" x{c}" if c > 1 else "") for nm, v, c in per))
    print(f"  points a log-odds for the shipped crews at 500 on average: {500 * len(sums) / sum(sums.values()):.0f}; "
          f"for the dearest at 500: {500 / max(sums.values()):.0f}")
    return 0


def main(argv=None) -> int:
    cmds = {"play": cmd_play, "fit": cmd_fit}
    ap, sub = commands(__doc__, cmds)
    p, f = sub["play"], sub["fit"]
    p.add_argument("--pairs", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--values", choices=["equal", "points"], default="equal")
    p.add_argument("--models", type=int, nargs=2, default=[4, 10], metavar=("LOW", "HIGH"),
                   help="models in a crew (default 4 10)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", required=True)
    f.add_argument("files", nargs="+")
    f.add_argument("--compare", nargs="*", help="'points': also check the points as they stand")
    f.add_argument("--variants", action="store_true", help="also fit with size, weapons' own rules, Zap and Grit added")
    return run(ap, argv, cmds)


if __name__ == "__main__":
    sys.exit(main())
