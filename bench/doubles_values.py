"""Measure what a Doubles fighter is worth: games between random warbands, then a fit.

    python bench/doubles_values.py play --matchups 1500 --seed 1 --out data/experiments/DATE-doubles-values/round1.jsonl
    python bench/doubles_values.py fit round*.jsonl.gz   # the kept records: git show 8177ce7:bench/results/doubles-values/roundN.jsonl.gz

``play`` draws pairs of random warbands (2-5 fighters with characteristics, weapons and armour
over and around the shipped warbands' range, ``random_warband``) and plays each pair twice on one
seed, each warband from each zone, ``easy`` against ``easy`` on the prehistoric map (every
``--town-every``-th pair on the town). It appends one JSON line per game: the two warbands, who
won, the scores and how the game ended. ``--values points`` makes each fighter's victory points
its points (``engine.rulesets.doubles.points``), as the shipped warbands score; ``--values one``
counts every fighter as 1 (used before the points existed).

``fit`` fits logistic models of "zone 1's warband wins" (decisive games, errors clustered by
pair) on the difference of the two warbands' strengths under several candidate formulas, and
prints each one's log-likelihood, the calibration of its predictions, and the fitted weights.
"""
from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.append(str(Path(__file__).resolve().parent))   # beside this file, also when a test imports it by path (last: bench/engine.py must not hide the package)
from subcommands import commands, run  # noqa: E402

MATERIALS = ("bone", "wood", "obsidian", "stone", "metal")
NAMES = "Ash Bark Cinder Dusk Ember Flint Gorse Hob Ivo Jet Kael Loam Moss Nettle Ochre Pyre Quill Rook Sedge Tor".split()


def random_fighter(rng: random.Random, i: int, weapons: list[dict], armours: list[dict]) -> dict:
    c = {"combat": rng.randint(1, 5), "throw": rng.choice([0, 1, 2, 2, 3, 3, 4, 5]), "defence": rng.randint(1, 4),
         "aptitude": rng.randint(1, 4), "movement": rng.randint(8, 14), "initiative": rng.randint(0, 4),
         "health": rng.randint(2, 8), "action_points": rng.choice([2, 3, 3, 3, 3, 4])}
    held = rng.sample([w["id"] for w in weapons], k=rng.choice([0, 1, 1, 2])) if weapons else []
    f = {"id": f"f{i}", "name": f"{NAMES[i % len(NAMES)]}{i}", "characteristics": c, "weapons": held}
    if armours and rng.random() < 0.4:
        f["armour"] = rng.choice(armours)["id"]
    return f


def random_warband(rng: random.Random, ident: str) -> dict:
    weapons = []
    for j in range(rng.randint(2, 4)):
        weapons.append({"id": f"w{j}", "name": f"Weapon {j}", "material": rng.choice(MATERIALS),
                        "bonus": rng.choice([0, 1, 1, 2, 2, 3]), "use": rng.choice(["melee", "thrown", "both"])})
    armours = [{"id": f"a{j}", "name": f"Armour {j}", "protection": rng.choice([1, 1, 2]),
                "test_penalty": rng.choice([0, 1, 1, 1, 2])} for j in range(2)]
    n = rng.choice([2, 3, 3, 4, 4, 5])
    fighters = [random_fighter(rng, i, weapons, armours) for i in range(n)]
    return {"schema_version": 1, "id": ident, "name": ident, "weapons": weapons, "armours": armours,
            "fighters": fighters}


def crude_strength(wb: dict) -> float:
    """Sum over fighters of sqrt(health x attack dice x (defence + 1)): only to draw closer pairs."""
    tot = 0.0
    for f in wb["fighters"]:
        c = f["characteristics"]
        tot += math.sqrt(c["health"] * max(c["combat"], c["throw"]) * (c["defence"] + 1) * c["action_points"])
    return tot


def with_values(wb: dict, how: str) -> dict:
    out = json.loads(json.dumps(wb))
    if how == "one":
        for f in out["fighters"]:
            f["value"] = 1
        return out
    from engine.rulesets.doubles.data import parse_warband
    from engine.rulesets.doubles.points import fighter_points

    parsed = parse_warband(wb)
    for f, pf in zip(out["fighters"], parsed.fighters):
        f["value"] = fighter_points(parsed, pf)
    return out


def play_pair(job: tuple) -> list[dict]:
    k, seed, map_name, a, b = job
    from engine.core import Game, Setup
    from engine.data.maps import load_map
    from engine.paths import resolve_map
    from engine.simulate import make_agents, play

    mf = load_map(resolve_map(map_name))
    out = []
    for cell, rosters in enumerate(((a, b), (b, a))):
        # random warbands of any worth: the game's size (200, issue 49) must not refuse them
        g = Game(Setup("doubles", mf, rosters, {"game_points": 10_000}, seed))
        try:
            p = play(g, make_agents(seed, ("easy", "easy")))
            w = p.result.winner
            rec = {"pair": k, "cell": cell, "seed": seed, "map": map_name, "winner": w, "ending": p.result.ending,
                   "scores": {str(s): v for s, v in (p.result.scores or {}).items()}, "turns": g.state.turn,
                   "zone1": rosters[0], "zone2": rosters[1], "error": None}
        except Exception as err:  # noqa: BLE001 - recorded
            rec = {"pair": k, "cell": cell, "seed": seed, "map": map_name, "winner": None, "zone1": rosters[0],
                   "zone2": rosters[1], "error": f"{type(err).__name__}: {err}"}
        out.append(rec)
    return out


def cmd_play(args) -> int:
    from pair_runs import run_pairs

    rng = random.Random(args.seed)
    jobs = []
    for k in range(args.matchups):
        a = random_warband(rng, "a")
        if k % 2:   # every other pair: the closest of five draws by a crude strength, for closer games
            target = crude_strength(a)
            b = min((random_warband(rng, "b") for _ in range(5)), key=lambda w: abs(crude_strength(w) - target))
        else:
            b = random_warband(rng, "b")
        if args.values != "file":
            a, b = with_values(a, args.values), with_values(b, args.values)
        m = "town" if args.town_every and k % args.town_every == args.town_every - 1 else "prehistoric"
        jobs.append((k, (args.seed * 1_000_003 + k * 7_919) % 2**31, m, a, b))
    run_pairs(jobs, Path(args.out), play_pair, args.workers, chunksize=4, every=100)
    return 0


# --- the fit -----------------------------------------------------------------------------
def load(paths) -> list[dict]:
    """The records of the games that ran to the end (``pair_runs.load``)."""
    from pair_runs import load as load_all

    return [r for r in load_all(paths) if not r.get("error")]


# strength forms from the duel odds, compared against the linear points in ``fit``
REF_ATTACK_DICE, REF_DEFENCE, REF_HEALTH = 4, 2, 5   # Throw or Combat 3 with a +1 weapon; Defence 2; Health 5


def expected_damage(kind: str, attack: tuple[int, int], defence: tuple[int, int], health: int, protection: int) -> float:
    from engine.rulesets.doubles import odds

    o = odds.duel_odds(kind, attack, defence, health=health, protection=protection)
    return float(sum(p * (health if pts is None else min(pts, health)) for pts, p in o.damage.items()))


def odds_features(x: dict) -> dict:
    """Offence (expected damage per AP against the reference fighter, melee and shot) and durability
    (health over the expected damage of one reference attack) from the exact duel odds."""
    pen = x["test_penalty"]
    melee = expected_damage("melee", (x["combat"] + x["melee_bonus"], pen), (REF_DEFENCE, 0), REF_HEALTH, 0)
    shot = (expected_damage("shoot", (x["throw"] + x["throw_bonus"], pen), (REF_DEFENCE, 0), REF_HEALTH, 0)
            if x["throw"] > 0 else 0.0)
    taken = expected_damage("melee", (REF_ATTACK_DICE, 0), (x["defence"], pen), x["health"], x["protection"])
    return {"off": x["action_points"] * (melee + shot) / 2, "dur": x["health"] / max(taken, 1e-6)}


ODDS_FORMS = {
    "sqrt(offence x durability)": lambda o: math.sqrt(o["off"] * o["dur"]),
    "offence x durability": lambda o: o["off"] * o["dur"],
    "offence + durability": lambda o: o["off"] + o["dur"],
}


def _glm(y, X, groups):
    import statsmodels.api as sm

    return sm.GLM(y, X, family=sm.families.Binomial()).fit(cov_type="cluster", cov_kwds={"groups": groups})


def _calibration(p, y) -> str:
    import numpy as np

    bins = np.digitize(p, [0.3, 0.4, 0.45, 0.55, 0.6, 0.7])
    return " ".join(f"{p[bins == b].mean():.2f}/{y[bins == b].mean():.2f}({(bins == b).sum()})"
                    for b in range(7) if (bins == b).any())


def cmd_fit(args) -> int:
    import numpy as np
    import statsmodels.api as sm

    from engine.rulesets.doubles import points as pts
    from engine.rulesets.doubles.data import parse_warband

    recs = load(args.files)
    dec = [r for r in recs if r["winner"] is not None]
    print(f"{len(recs)} games, {len(dec)} decisive, {len({(r['seed'], r['pair']) for r in recs})} pairs; "
          f"draws {1 - len(dec) / len(recs):.1%}")
    cache: dict = {}

    def feats(wb: dict) -> list[dict]:
        key = json.dumps(wb, sort_keys=True)
        if key not in cache:
            w = parse_warband(wb)
            cache[key] = [pts.features(w, f) for f in w.fighters]
        return cache[key]

    y = np.array([1 if r["winner"] == 1 else 0 for r in dec])
    groups = np.array([hash((r["seed"], r["pair"])) % 2**31 for r in dec])
    F1 = [feats(r["zone1"]) for r in dec]
    F2 = [feats(r["zone2"]) for r in dec]

    def one_number(name, strength):
        s = np.array([sum(map(strength, a)) - sum(map(strength, b)) for a, b in zip(F1, F2)])
        m = _glm(y, sm.add_constant(s), groups)
        print(f"{name:32s} llf {m.llf:9.1f}  slope {m.params[1]:.4f} ± {1.96 * m.bse[1]:.4f}  zone 1 {m.params[0]:+.3f}")
        return m, s

    one_number("fighters", lambda f: 1)
    one_number("health", lambda f: f["health"])
    for name, form in ODDS_FORMS.items():
        one_number(name, lambda f, form=form: form(odds_features(f)))
    # the points as they stand: how well do they predict these games?
    m, s = one_number("points (engine, as shipped)", lambda f: sum(w * f[k] for k, w in pts.WEIGHTS.items()))
    print(f"    calibration of the shipped points (predicted/observed zone-1 wins (games)): "
          f"{_calibration(m.predict(sm.add_constant(s)), y)}")
    pred = 1 / (1 + np.exp(-s))
    print(f"    the points' own scale (no refit): {_calibration(pred, y)}")
    # linear in the features, summed over each warband: the weights of the points
    names = list(pts.WEIGHTS)
    D = np.array([[sum(f[n] for f in a) - sum(f[n] for f in b) for n in names] for a, b in zip(F1, F2)])
    m = _glm(y, sm.add_constant(D), groups)
    print(f"{'linear (the points model)':32s} llf {m.llf:9.1f}  zone 1 {m.params[0]:+.4f} ± {1.96 * m.bse[0]:.4f}")
    print("    WEIGHTS = {" + ", ".join(f'"{n}": {c:.4f}' for n, c in zip(names, m.params[1:])) + "}")
    for n, c, e in zip(names, m.params[1:], m.bse[1:]):
        print(f"    {n:14s} {c:+.4f} ± {1.96 * e:.4f}")
    return 0


def main(argv=None) -> int:
    cmds = {"play": cmd_play, "fit": cmd_fit}
    ap, sub = commands(__doc__, cmds)
    p = sub["play"]
    p.add_argument("--matchups", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--values", choices=["one", "points"], default="one")
    p.add_argument("--town-every", type=int, default=4)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", required=True)
    sub["fit"].add_argument("files", nargs="+")
    return run(ap, argv, cmds)


if __name__ == "__main__":
    sys.exit(main())
