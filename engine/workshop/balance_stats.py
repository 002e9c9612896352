"""The balancer's statistics and seeds (``balance.py``): the table's estimate, the paired change
of a candidate and the keep rule, the screen's ridge fit, and the search and confirmation seeds."""
from __future__ import annotations

import math

# The prior slope of the table's log-odds on each screen figure (hide_diff, walk_diff): hiding helps
# the side that hides (50 points of difference ~ 73%); a longer walk to the objectives hurts the side
# that walks (5" ~ 56%). Each prior is worth WEIGHT squared units of evidence.
PRIOR = (0.02, -0.05)
WEIGHT = (400.0, 25.0)


# ----------------------------------------------------------------------------- statistics

def _logit(p: float) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return math.log(p / (1 - p))


def _expit(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def decisive(records: list[dict]) -> list[dict]:
    from .stats import unique_games

    ok, _ = unique_games([r for r in records if not r.get("error")])
    return [r for r in ok if r["winner"] is not None]


def table_estimate(records: list[dict], rosters: tuple, agents: tuple) -> dict:
    """The table effect of these games: share, 95% interval, log-odds and its standard error."""
    from .stats import Z95, effects

    dec = decisive(records)
    if not dec:
        return {"share": None, "low": None, "high": None, "coef": 0.0, "se": math.inf, "games": 0, "method": "none"}
    t = effects(dec, tuple(rosters), tuple(agents))["table"]
    coef, se = t.get("coef"), t.get("se")
    if coef is None:                 # the plain share: its log-odds, an se from the interval's width
        coef = _logit(t["share"])
        se = max((_logit(t["high"]) - _logit(t["low"])) / (2 * Z95), 1e-6)
    return {"share": t["share"], "low": t["low"], "high": t["high"], "coef": coef, "se": se,
            "games": len(dec), "method": t.get("method", "shares")}


def paired_change(incumbent: list[dict], candidate: list[dict], rosters: tuple, agents: tuple) -> tuple | None:
    """(d, se): the change of the table's log-odds from the incumbent's games to the candidate's,
    on the same seeds: one logistic model over both (a candidate indicator, the roster and first
    player factors), cluster-robust by seed block, so a block's games on both maps are one cluster.
    None when the model cannot be fitted."""
    import numpy as np

    from .stats import logistic_effects

    rows = [(r, 0.0) for r in decisive(incumbent)] + [(r, 1.0) for r in decisive(candidate)]
    if not rows:
        return None
    if _outcomes(incumbent) == _outcomes(candidate):
        return 0.0, 0.0      # every game ended the same (the change never came into play): no change
    y = [1 if r["winner"] == 1 else 0 for r, _ in rows]
    fac = {"candidate": [c for _, c in rows]}
    if rosters[0] != rosters[1]:
        fac["roster"] = [0.5 if r["rosters"]["1"] == rosters[0] else -0.5 for r, _ in rows]
    if agents[0] != agents[1]:
        fac["agent"] = [0.5 if r["agents"]["1"] == agents[0] else -0.5 for r, _ in rows]
    fp = [0.5 if r.get("first_player") == 1 else -0.5 for r, _ in rows]
    if len(set(fp)) > 1:
        X = np.column_stack([np.ones(len(rows))] + [np.asarray(v) for v in fac.values()] + [np.asarray(fp)])
        if np.linalg.matrix_rank(X) == X.shape[1]:
            fac["first_player"] = fp
    groups = [r.get("block", r.get("index")) for r, _ in rows]
    fit = logistic_effects(y, fac, groups)
    if fit is None or "candidate" not in fit:
        return None
    return fit["candidate"]


def _outcomes(records: list[dict]) -> dict:
    return {int(r["index"]): r.get("winner") for r in records if not r.get("error")}


def gain_z(b: float, d: float | None, se_d: float | None) -> float | None:
    """The gain toward 50% in standard errors of the paired change (None: no estimate or no spread)."""
    if d is None or not se_d or not math.isfinite(se_d):
        return None
    return gain_of(b, d) / se_d


def gain_of(b: float, d: float) -> float:
    """How much nearer 0 (50%) the log-odds ``b`` come with the change ``d``."""
    return abs(b) - abs(b + d)


def decide(b: float, tested: list[dict], keep_z: float) -> int | None:
    """The index of the tested candidate to keep, or None. ``tested``: dicts with ``d`` and
    ``se_d`` (None when no paired estimate). Keep the candidate with the largest gain in standard
    errors when that is at least ``keep_z`` (and the gain is positive)."""
    best, best_z = None, -math.inf
    for i, t in enumerate(tested):
        if t.get("d") is None or not t.get("se_d") or not math.isfinite(t["se_d"]):
            continue
        g = gain_of(b, t["d"])
        z = g / t["se_d"]
        if g > 0 and z >= keep_z and z > best_z:
            best, best_z = i, z
    return best


def within(est: dict, half_width: float) -> bool:
    """The interval lies within 50% +- half_width (and so holds 50% only if it is that narrow)."""
    return est.get("low") is not None and est["low"] >= 0.5 - half_width and est["high"] <= 0.5 + half_width


def slope(data: list, prior=PRIOR, weight=WEIGHT):
    """Log-odds per unit of each screen figure: a ridge fit through the origin of the
    (figure changes, paired change of log-odds) of the candidates played, shrunk toward ``prior``
    with ``weight`` squared units of pseudo-evidence per figure."""
    import numpy as np

    n = len(prior)
    A = np.diag(np.asarray(weight, float))
    v = A @ np.asarray(prior, float)
    for dphi, d in data:
        x = np.zeros(n)
        x[:len(dphi)] = dphi
        A += np.outer(x, x)
        v += x * d
    return tuple(float(k) for k in np.linalg.solve(A, v))


def predict(b: float, k, phi, phi0) -> float:
    return b + sum(kj * (a - a0) for kj, a, a0 in zip(k, phi, phi0))


# ----------------------------------------------------------------------------- seeds

def search_seeds(seed: int, blocks: int) -> set[int]:
    from engine.simulate import game_seed

    return {game_seed(seed, b) for b in range(blocks)}


def confirm_seed(search_seed: int, search_blocks: int, confirm_blocks: int, first: int | None = None) -> int:
    """An experiment seed whose first ``confirm_blocks`` game seeds share none with the first
    ``search_blocks`` of ``search_seed`` (agents are seeded from the game seed, so they differ
    too). Starts from ``first`` (default: a seed far from the search's) and moves on until the
    sets are disjoint."""
    used = search_seeds(search_seed, search_blocks)
    s = search_seed + 1_000_003 if first is None else first
    while search_seeds(s, confirm_blocks) & used:
        s += 1
    return s


