"""Fit ``hard``'s state evaluation by self-play (issue 61, item 3; ``engine/ai/fitted.py``).

Run:  python bench/fit_eval.py collect --ruleset doubles --games 400 [--seed 1] [--first 0] \
          --out data/experiments/2026-12-07-hard-eval/doubles_selfplay.jsonl.gz
      python bench/fit_eval.py fit FILE.jsonl.gz [more...] --ruleset doubles [--write engine/ai/eval_weights.json]

``collect`` plays easy v easy games (no search: about a second a game) on the ruleset's home map,
game seeds ``engine.simulate.game_seed(seed, i)``, and at every activation end (the search's own
``segment_key``) records seat 1's features (``fitted.FEATURES``, mine minus theirs) and the
hand-weighted utility's value of the state; at the end, the result. One gzip JSON line per game.

``fit`` fits ``P(seat wins) = sigmoid(w . f)`` by logistic regression (scipy's L-BFGS, a small L2
penalty, no intercept: each row enters from both seats, ``(f, y)`` and ``(-f, 1 - y)``, so the
model is symmetric; a draw is y = 0.5). It holds out the last quarter of the games and prints the
held-out log loss and accuracy of the fitted model beside the hand-weighted utility's (its value
through a fitted ``sigmoid(a x)``), so the fit is kept only when it predicts the results better.
``--write`` puts the weights, with the data they came from, into the weights file (atomically).
"""
from __future__ import annotations

import gzip
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(Path(__file__).resolve().parent))   # beside this file, also when a test imports it by path (last: bench/engine.py must not hide the package)
from subcommands import commands, run  # noqa: E402


def collect_one(ruleset: str, seed: int, index: int) -> dict:
    from engine.ai import make_agent
    from engine.ai.easy import policy_class
    from engine.ai.fitted import FEATURES
    from engine.ai.search import segment_key
    from engine.core import Game, Setup
    from engine.core.rules import get_rules
    from engine.data.maps import load_map
    from engine.paths import resolve_map
    from engine.simulate import game_seed

    s = game_seed(seed, index)
    g = Game(Setup(ruleset, load_map(resolve_map(get_rules(ruleset).home_map)), (), {}, s))
    agents = {p: make_agent("easy", p, s ^ (p * 0x9E3779B1)) for p in (1, 2)}
    for a in agents.values():
        a.attach(g.table, g.rules)
    pol = agents[1].policy({"ruleset": ruleset})
    util = policy_class(g.rules).Utility(g.rules, g.table, pol, 0.3)
    feats = FEATURES[ruleset]
    rows = []
    key = None
    n = 0
    while (d := g.pending()) is not None and n < 50_000:
        k = segment_key(g.state)
        if d.kind != "deploy" and k != key:
            key = k
            f = feats(util, g.state, 1)
            rows.append({"turn": g.state.turn, "f": {a: round(b, 5) for a, b in f.items()},
                         "hand": round(util.value(g.state, 1), 5)})
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player, drawing=False)))
        n += 1
    r = g.result()
    return {"ruleset": ruleset, "seed": seed, "index": index, "game_seed": s,
            "winner": None if r is None else r.winner, "decisions": n, "rows": rows}


def cmd_collect(args) -> int:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with gzip.open(out, "at") as fh:
        for i in range(args.first, args.games):
            r = collect_one(args.ruleset, args.seed, i)
            fh.write(json.dumps(r) + "\n")
            fh.flush()
            if i % 20 == 0:
                print(f"game {i}: winner {r['winner']}, {len(r['rows'])} rows, "
                      f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


def _read(files) -> list[dict]:
    games = []
    for f in files:
        with gzip.open(f, "rt") as fh:
            try:
                for x in fh:
                    if x.strip():
                        games.append(json.loads(x))
            except (EOFError, ValueError):
                pass   # a file still being written (each game is flushed): the games so far
    return games


def _matrix(games, names):
    X, y, h = [], [], []
    for gm in games:
        res = 0.5 if gm["winner"] is None else (1.0 if gm["winner"] == 1 else 0.0)
        for r in gm["rows"]:
            x = [r["f"].get(n, 0.0) for n in names]
            X += [x, [-v for v in x]]
            y += [res, 1.0 - res]
            h += [r["hand"], -r["hand"]]
    return np.array(X, float), np.array(y, float), np.array(h, float)


def _logit_fit(X, y, l2=1e-3):
    from scipy.optimize import minimize

    def loss(w):
        z = X @ w
        # log(1 + e^z) - y z, stable
        val = np.mean(np.logaddexp(0.0, z) - y * z) + l2 * w @ w
        p = 1.0 / (1.0 + np.exp(-z))
        grad = X.T @ (p - y) / len(y) + 2 * l2 * w
        return val, grad
    res = minimize(loss, np.zeros(X.shape[1]), jac=True, method="L-BFGS-B")
    return res.x


def _scores(z, y):
    p = np.clip(1.0 / (1.0 + np.exp(-z)), 1e-9, 1 - 1e-9)
    ll = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    decided = y != 0.5
    acc = np.mean((p[decided] > 0.5) == (y[decided] > 0.5)) if decided.any() else float("nan")
    return ll, acc


def cmd_fit(args) -> int:
    from engine.ai.fitted import FEATURE_NAMES

    games = [g for g in _read(args.files) if g["ruleset"] == args.ruleset]
    # a feature the games never moved (a mission's, in games without one) gets no weight: the
    # fitted utility then leaves such states to the hand-weighted one (``fitted.py``)
    names = [n for n in FEATURE_NAMES[args.ruleset]
             if any(r["f"].get(n, 0.0) != 0.0 for g in games for r in g["rows"])]
    games.sort(key=lambda g: (g["seed"], g["index"]))
    cut = (3 * len(games)) // 4
    Xtr, ytr, htr = _matrix(games[:cut], names)
    Xte, yte, hte = _matrix(games[cut:], names)
    w = _logit_fit(Xtr, ytr)
    a = _logit_fit(htr[:, None], ytr)[0]
    ll_f, acc_f = _scores(Xte @ w, yte)
    ll_h, acc_h = _scores(hte * a, yte)
    print(f"{args.ruleset}: {len(games)} games ({cut} fit, {len(games) - cut} held out), "
          f"{len(ytr) // 2} / {len(yte) // 2} rows")
    print(f"held out: fitted log loss {ll_f:.4f}, accuracy {acc_f:.3f}; "
          f"hand utility (sigmoid({a:.4f} x)) log loss {ll_h:.4f}, accuracy {acc_h:.3f}")
    wall = _logit_fit(*_matrix(games, names)[:2])
    for n, v, v_tr in zip(names, wall, w):
        print(f"  {n:16s} {v:+.4f}   (fit part only: {v_tr:+.4f})")
    if args.write:
        path = Path(args.write)
        data = json.loads(path.read_text()) if path.exists() else {"rulesets": {}}
        data.setdefault("rulesets", {})[args.ruleset] = {
            "weights": {n: round(float(v), 5) for n, v in zip(names, wall)},
            "fitted": {"script": "bench/fit_eval.py", "data": [str(Path(f)) for f in args.files],
                       "games": len(games), "rows": int(len(_matrix(games, names)[1]) // 2),
                       "held_out_log_loss": {"fitted": round(float(ll_f), 4), "hand": round(float(ll_h), 4)},
                       "held_out_accuracy": {"fitted": round(float(acc_f), 4), "hand": round(float(acc_h), 4)}}}
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            json.dump(data, fh, indent=1, sort_keys=True)
            fh.write("\n")
        os.replace(tmp, path)
        print(f"written: {path}")
    return 0


def main(argv=None) -> int:
    cmds = {"collect": cmd_collect, "fit": cmd_fit}
    ap, sub = commands(__doc__.splitlines()[0], cmds)
    c, f = sub["collect"], sub["fit"]
    c.add_argument("--ruleset", choices=("doubles", "frontier"), required=True)
    c.add_argument("--games", type=int, default=400)
    c.add_argument("--first", type=int, default=0)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--out", required=True)
    f.add_argument("files", nargs="+")
    f.add_argument("--ruleset", choices=("doubles", "frontier"), required=True)
    f.add_argument("--write", default="")
    return run(ap, argv, cmds)


if __name__ == "__main__":
    sys.exit(main())
