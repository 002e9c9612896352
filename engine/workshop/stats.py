"""Per-map balance statistics of an experiment's game records.

A game's luck is shared by its seed block (``engine.simulate``: the block crosses rosters over
zones and agents over seats on one seed), so a block is one **cluster**: intervals never treat
the games of a block as independent.

- **Effects** (``effects``): a logistic model of "the zone-1 side wins" over the decisive games,
  with the factors coded -1/2 / +1/2: the roster in zone 1 (A or B), the agent in seat 1 (the
  ``--p1`` agent or the ``--p2`` one) and which side made the first decision; cluster-robust
  (sandwich) standard errors by block, statsmodels' small-sample factor G/(G-1) (N-1)/(N-K).
  Each effect is given as a win share on an even footing, the others held at their midpoint:
  the table effect is zone 1's share ``expit(b0)``; the roster effect is roster A's share against
  B ``expit(b_roster / 2)`` (likewise agent and first player). A 95% interval is the estimate's
  +-1.96 standard errors, mapped through the same function.
- **Shares** (``cluster_share``): plain shares (draws, who won) with a Wilson interval whose n is
  the effective number of games, n / design effect, the design effect from the cluster-robust
  variance of the share and never below 1. When the model cannot be fitted (a factor that wins
  every game, too few games), the effects fall back to these shares of the raw outcomes, and
  the table gets no verdict: when one roster wins every game, the games say nothing of the table.
"""
from __future__ import annotations

import math
from collections import defaultdict

Z95 = 1.959963984540054
BALANCED = (0.40, 0.60)   # the table is "balanced" when the interval of zone 1's share lies within


def wilson(k: float, n: float, z: float = Z95) -> tuple[float | None, float | None, float | None]:
    """(share, low, high): the 95% Wilson score interval of k successes in n trials (n may be an
    effective, fractional number of trials)."""
    if n <= 0:
        return None, None, None
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / d
    # at k = 0 (or k = n) the end is exactly 0 (or 1); in floats c - h came out 5.6e-17 above
    # a share of 0, and a plot's error bar from the share down to it was negative
    lo = 0.0 if k <= 0 else min(p, max(0.0, c - h))
    hi = 1.0 if k >= n else max(p, min(1.0, c + h))
    return p, lo, hi


def bar_extents(e: dict, scale: float = 1.0) -> tuple[float, float]:
    """(below, above): how far an interval reaches from its estimate, never negative (a plot's
    error bar; an interval that ends at its estimate, as at 0% or 100%, has a zero side)."""
    return max(0.0, e["share"] - e["low"]) * scale, max(0.0, e["high"] - e["share"]) * scale


def cluster_share(wins: list[int], games: list[int]) -> dict:
    """The share sum(wins) / sum(games) over clusters (wins[g] of games[g] in cluster g), with its
    95% interval: Wilson at the effective n = N / deff, where deff = the cluster-robust variance
    G/(G-1) sum_g (k_g - p n_g)^2 / N^2 over the binomial one p(1-p)/N, floored at 1 (never
    narrower than independent games). A share of 0 or 1 has no variance: n_eff = G then."""
    pairs = [(k, n) for k, n in zip(wins, games) if n > 0]
    N = sum(n for _, n in pairs)
    K = sum(k for k, _ in pairs)
    G = len(pairs)
    if N == 0:
        return {"k": 0, "n": 0, "clusters": 0, "share": None, "low": None, "high": None, "n_eff": 0}
    p = K / N
    if 0 < p < 1 and G > 1:
        v_cl = G / (G - 1) * sum((k - p * n) ** 2 for k, n in pairs) / N ** 2
        deff = max(1.0, v_cl / (p * (1 - p) / N))
        n_eff = N / deff
    else:
        n_eff = float(G)
    _, lo, hi = wilson(p * n_eff, n_eff)
    return {"k": K, "n": N, "clusters": G, "share": p, "low": lo, "high": hi, "n_eff": n_eff}


def _by_cluster(recs: list[dict], hit) -> tuple[list[int], list[int]]:
    k: dict = defaultdict(int)
    n: dict = defaultdict(int)
    for r in recs:
        b = r.get("block", r.get("index"))
        n[b] += 1
        k[b] += 1 if hit(r) else 0
    keys = sorted(n)
    return [k[b] for b in keys], [n[b] for b in keys]


def share_of(recs: list[dict], hit) -> dict:
    return cluster_share(*_by_cluster(recs, hit))


# --- the logistic model ----------------------------------------------------------------
def _expit(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def logistic_effects(y: list[int], factors: dict[str, list[float]], groups: list) -> dict[str, tuple[float, float]] | None:
    """Fit logit P(y=1) = b0 + sum_f b_f x_f with cluster-robust errors by ``groups``; return
    {"const" | factor: (coef, se)}, or None when the model cannot be fitted (too few games or
    clusters, or a factor that separates the outcome: an infinite coefficient)."""
    import warnings

    import numpy as np

    try:
        import statsmodels.api as sm
    except ImportError:   # the workshop extra: without it, the shares
        return None
    n = len(y)
    if n < 8 or len(set(groups)) < 3 or len(set(y)) < 2:
        return None
    names = list(factors)
    X = np.column_stack([np.ones(n)] + [np.asarray(factors[f], float) for f in names])
    ids = {g: i for i, g in enumerate(dict.fromkeys(groups))}
    grp = np.asarray([ids[g] for g in groups])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = sm.GLM(np.asarray(y, float), X, family=sm.families.Binomial()).fit(
                cov_type="cluster", cov_kwds={"groups": grp})
    except Exception:  # noqa: BLE001 - perfect separation, a singular design: no model
        return None
    coef, se = np.asarray(res.params), np.asarray(res.bse)
    if not (np.all(np.isfinite(coef)) and np.all(np.isfinite(se))) or np.any(np.abs(coef) > 10) or np.any(se > 10):
        return None   # a coefficient running away: separation, the odds are not estimable
    return {k: (float(coef[i]), float(se[i])) for i, k in enumerate(["const"] + names)}


def _effect(coef: float, se: float, half: bool) -> dict:
    f = (lambda x: _expit(x / 2)) if half else _expit
    return {"share": f(coef), "low": f(coef - Z95 * se), "high": f(coef + Z95 * se),
            "coef": coef, "se": se, "method": "logistic"}


def _share_effect(s: dict) -> dict:
    return {"share": s["share"], "low": s["low"], "high": s["high"], "k": s["k"], "n": s["n"],
            "n_eff": s.get("n_eff"), "method": "shares"}


def family_z(tests: int, alpha: float = 0.05) -> float:
    """The z of a two-sided interval that keeps the chance of *any* false alarm among ``tests``
    intervals within ``alpha`` (Bonferroni: each at 1 - alpha / tests). Eighteen 95% intervals
    miss a true 50% somewhere 60% of the time; eighteen at this z, 5%."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - alpha / (2 * max(1, tests)))


def widened(effect: dict | None, z: float) -> tuple[float | None, float | None]:
    """(low, high) of a table effect's interval at ``z`` instead of 1.96, by the effect's own
    method: the logistic estimate's +-z standard errors, or the Wilson interval at the share's
    effective n."""
    if not effect or effect.get("share") is None:
        return None, None
    if effect.get("method") == "logistic":
        return _expit(effect["coef"] - z * effect["se"]), _expit(effect["coef"] + z * effect["se"])
    n_eff = effect.get("n_eff") or effect.get("n") or 0
    _, lo, hi = wilson(effect["share"] * n_eff, n_eff, z)
    return lo, hi


def effects(dec: list[dict], rosters: tuple, agents: tuple) -> dict:
    """The table, roster, agent and first-player effects over the decisive games ``dec``. A factor
    that the design does not cross (equal rosters or agents), or that never varies, is None; the
    first player is left out (with a note) when it cannot be told apart from the other factors."""
    import numpy as np

    notes = []
    y = [1 if r["winner"] == 1 else 0 for r in dec]
    groups = [r.get("block", r.get("index")) for r in dec]
    fac: dict[str, list[float]] = {}
    if rosters[0] != rosters[1]:
        fac["roster"] = [0.5 if r["rosters"]["1"] == rosters[0] else -0.5 for r in dec]
    if agents[0] != agents[1]:
        fac["agent"] = [0.5 if r["agents"]["1"] == agents[0] else -0.5 for r in dec]
    fac["first_player"] = [0.5 if r.get("first_player") == 1 else -0.5 for r in dec]
    for f in list(fac):
        if len(set(fac[f])) < 2:
            if f == "first_player" and dec:
                who = dec[0].get("first_player")
                notes.append(f"the side in zone {who} always made the first decision: the first move is part of "
                             "the table effect here")
            del fac[f]
    if "first_player" in fac and dec:
        X = np.column_stack([np.ones(len(dec))] + [np.asarray(v) for v in fac.values()])
        if np.linalg.matrix_rank(X) < X.shape[1]:
            notes.append("the first player is tied to another factor here and is left out of the model")
            del fac["first_player"]
    fit = logistic_effects(y, fac, groups)
    out: dict = {"method": "logistic" if fit else "shares", "notes": notes}
    if fit is not None:
        out["table"] = _effect(*fit["const"], half=False)
        for f in ("roster", "agent", "first_player"):
            out[f] = _effect(*fit[f], half=True) if f in fit else None
    else:
        try:
            import statsmodels  # noqa: F401
        except ImportError:
            notes.append("statsmodels is not installed (pip install 'skirmish[workshop]'): plain shares with "
                         "cluster-robust intervals instead of the model")
        else:
            if dec:
                notes.append("the logistic model could not be fitted (too few decisive games, or a factor that "
                             "wins every game): plain shares with cluster-robust intervals instead")
        out["table"] = _share_effect(share_of(dec, lambda r: r["winner"] == 1))
        out["roster"] = (_share_effect(share_of(dec, lambda r: r["winner_roster"] == rosters[0]))
                         if "roster" in fac else None)
        out["agent"] = (_share_effect(share_of(dec, lambda r: r["winner_agent"] == agents[0]))
                        if "agent" in fac else None)
        out["first_player"] = (_share_effect(share_of(dec, lambda r: r["winner"] == r.get("first_player")))
                               if "first_player" in fac else None)
    return out


def verdict(table: dict | None) -> tuple[str, str]:
    """(kind, words) for the table effect: "zone k" when the interval excludes 50%, "balanced"
    when it holds 50% and lies within 40-60%, else "undecided". Only the logistic model gives a
    verdict: when it cannot be fitted, the table's part in the results is not known."""
    if table is None or table.get("share") is None:
        return "undecided", "no decisive game: nothing to tell"
    if table.get("method") != "logistic":
        return "undecided", (f"zone 1 won {pct(table)} of decisive games, but the model could not be fitted, so "
                             "the table cannot be told apart from the other factors (see the notes)")
    lo, hi = table["low"], table["high"]
    if lo > 0.5 or hi < 0.5:
        k = 1 if table["share"] > 0.5 else 2
        return f"zone {k}", f"the table favours zone {k}: zone 1 wins {pct(table)} of decisive games, other things even"
    if BALANCED[0] <= lo and hi <= BALANCED[1]:
        return "balanced", (f"balanced: zone 1 wins {pct(table)} of decisive games, other things even; the interval "
                            "holds 50% and lies within 40–60%")
    return "undecided", (f"no table effect these games can tell from luck, but the interval {pct(table)} is wider "
                         "than 40–60%: play more games to call it balanced")


# --- summary -------------------------------------------------------------------------
def unique_games(recs: list[dict]) -> tuple[list[dict], int]:
    """The records with each game once (same final hash and decisions: the same game), and how
    many repeats were dropped. Records without a hash are kept as they are."""
    seen, out, dup = set(), [], 0
    for r in recs:
        key = (r.get("final_hash"), r.get("decisions"))
        if key[0] is not None and key in seen:
            dup += 1
            continue
        seen.add(key)
        out.append(r)
    return out, dup


def _design_of(recs: list[dict], config: dict | None) -> tuple[tuple, tuple]:
    if config:
        return tuple(config["rosters"]), (config["p1"], config["p2"])
    r0 = recs[0]
    return (r0["rosters"]["1"], r0["rosters"]["2"]), (r0["agents"]["1"], r0["agents"]["2"])


def summarize(records: list[dict], config=None) -> dict[str, dict]:
    """Group records by map; per map the effects, the verdict on the table, draws and endings."""
    cfg = config.to_json() if hasattr(config, "to_json") else config
    by_map: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_map[r["map"]].append(r)
    out = {}
    for m, rs in by_map.items():
        ok_all = [r for r in rs if not r.get("error")]
        ok, dup = unique_games(ok_all)
        rosters, agents = _design_of(rs, cfg)
        dec = [r for r in ok if r["winner"] is not None]
        eff = effects(dec, rosters, agents)
        kind, words = verdict(eff["table"])
        endings: dict = defaultdict(int)
        losers: dict = defaultdict(lambda: defaultdict(int))   # ending -> losing roster -> games
        for r in ok:
            e = r.get("ending") or "unknown"
            endings[e] += 1
            if r["winner"] is not None:
                losers[e][str(r["rosters"][str(3 - r["winner"])])] += 1
        turns = [r["turns"] for r in ok if r.get("turns") is not None]
        table = eff["table"]
        out[m] = {
            "map": m,
            "games": len(rs),
            "errors": len(rs) - len(ok_all),
            "duplicates": dup,
            "distinct_games": len(ok),
            "decisive": len(dec),
            "blocks": len({r.get("block", r.get("index")) for r in ok}),
            "rosters": list(rosters),
            "agents": list(agents),
            "method": eff["method"],
            "table": table,
            "roster": eff["roster"],
            "agent": eff["agent"],
            "first_player": eff["first_player"],
            "notes": eff["notes"],
            "verdict": kind,
            "verdict_words": words,
            "draw": share_of(ok, lambda r: r["winner"] is None),
            # plain shares of the decisive games, for the record beside the model's effects
            "zone1_wins": share_of(dec, lambda r: r["winner"] == 1),
            "roster_a_wins": share_of(dec, lambda r: r["winner_roster"] == rosters[0]) if rosters[0] != rosters[1] else None,
            "agent_p1_wins": share_of(dec, lambda r: r["winner_agent"] == agents[0]) if agents[0] != agents[1] else None,
            "first_player_wins": share_of(dec, lambda r: r["winner"] == r.get("first_player")),
            "endings": dict(sorted(endings.items())),
            "losers_by_ending": {e: dict(sorted(v.items())) for e, v in sorted(losers.items())},
            "mean_turns": round(sum(turns) / len(turns), 3) if turns else None,
            "mean_decisions": round(sum(r["decisions"] for r in ok) / len(ok), 1) if ok else None,
            "imbalance": None if table is None or table["share"] is None else round(abs(table["share"] - 0.5), 4),
        }
    return out


def ranked(summary: dict[str, dict]) -> list[dict]:
    """Most balanced table first: the table effect's distance from 50% (maps with no estimate last)."""
    return sorted(summary.values(), key=lambda s: (s["imbalance"] is None, s["imbalance"] or 0, s["map"]))


def _r(v):
    return None if v is None else round(v, 4)


CSV_FIELDS = ["map", "games", "distinct_games", "decisive", "errors", "duplicates", "blocks", "method",
              "table_zone1", "table_low", "table_high", "verdict",
              "roster_a", "roster_a_share", "roster_low", "roster_high",
              "agent_p1", "agent_share", "agent_low", "agent_high",
              "first_player_share", "first_low", "first_high",
              "draw_share", "draw_low", "draw_high", "endings", "mean_turns", "mean_decisions", "imbalance"]


def csv_rows(summary: dict[str, dict]) -> list[list]:
    rows = []
    for s in ranked(summary):
        e = lambda key: s[key] or {}  # noqa: E731
        rows.append([s["map"], s["games"], s["distinct_games"], s["decisive"], s["errors"], s["duplicates"], s["blocks"],
                     s["method"], _r(e("table").get("share")), _r(e("table").get("low")), _r(e("table").get("high")),
                     s["verdict"], s["rosters"][0], _r(e("roster").get("share")), _r(e("roster").get("low")),
                     _r(e("roster").get("high")), s["agents"][0], _r(e("agent").get("share")), _r(e("agent").get("low")),
                     _r(e("agent").get("high")), _r(e("first_player").get("share")), _r(e("first_player").get("low")),
                     _r(e("first_player").get("high")), _r(s["draw"]["share"]), _r(s["draw"]["low"]),
                     _r(s["draw"]["high"]), " ".join(f"{k}={v}" for k, v in s["endings"].items()),
                     s["mean_turns"], s["mean_decisions"], s["imbalance"]])
    return rows


def pct(r: dict | None) -> str:
    if not r or r.get("share") is None:
        return "–"
    return f"{r['share'] * 100:.0f}% [{r['low'] * 100:.0f}–{r['high'] * 100:.0f}]"


def half_width(r: dict | None) -> float | None:
    """The larger distance from the estimate to an end of its interval, in points."""
    if not r or r.get("share") is None:
        return None
    return 100 * max(r["share"] - r["low"], r["high"] - r["share"])


ENDING_WORDS = {"turn_limit": "turn limit", "wiped_out": "wiped out", "rout": "rout", "unknown": "not said"}


def endings_text(s: dict) -> str:
    parts = []
    for e, n in s["endings"].items():
        lost = s["losers_by_ending"].get(e, {})
        who = ""
        if e in ("wiped_out", "rout") and lost:
            who = " (" + ", ".join(f"{k} lost {v}" for k, v in lost.items()) + ")"
        parts.append(f"{ENDING_WORDS.get(e, e)} {n}{who}")
    return "; ".join(parts) or "–"


def report_markdown(summary: dict[str, dict], config: dict) -> str:
    ra, rb = config["rosters"]
    a1, a2 = config["p1"], config["p2"]
    crossed_r, crossed_a = ra != rb, a1 != a2
    maps = ", ".join(config.get("labels") or config["maps"])
    per_block = (2 if crossed_r else 1) * (2 if crossed_a else 1)
    crossing = [w for w, on in (("each roster from each zone", crossed_r), ("each agent from each seat", crossed_a)) if on]
    same = [w for w, on in ((f"{ra} on both sides", not crossed_r), (f"{a1} in both seats", not crossed_a)) if on]
    factors = ["**table**: zone 1's share with the other factors even"]
    if crossed_r:
        factors.append(f"**roster**: the share of {ra} against {rb} on an even table")
    if crossed_a:
        factors.append(f"**agent**: the share of {a1} against {a2}")
    factors.append("**first player**: the share of the side that made the first decision")
    lines = [f"# Experiment: {config['ruleset']}, {a1} vs {a2}, {ra} vs {rb}", "",
             f"Maps: {maps}; {config['games']} games asked per map, seed {config['seed']}. Crossed design: each "
             f"seed block of {per_block} game{'s' if per_block > 1 else ''} plays "
             + (" and ".join(crossing) or "one game") + (f" ({'; '.join(same)})" if same else "")
             + "; seat k deploys in zone k. A block is one cluster for the intervals.", "",
             "Effects are win shares of decisive games with 95% intervals in brackets, from a logistic model of "
             "\"zone 1 wins\" with the roster, agent and first-player factors and cluster-robust errors by seed "
             "block (docs/workshop.md, \"Reading a report\"): " + "; ".join(factors) + ". Maps are ranked by the "
             "table effect, most balanced first.", ""]
    head = ["rank", "map", "distinct games (decisive)", "table: zone 1 wins", "verdict"]
    if crossed_r:
        head.append(f"roster: {ra} wins")
    if crossed_a:
        head.append(f"agent: {a1} wins")
    head += ["first player wins", "draws", "endings", "mean turns"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, s in enumerate(ranked(summary), 1):
        extra = []
        if s["errors"]:
            extra.append(f"{s['errors']} errors")
        if s["duplicates"]:
            extra.append(f"{s['duplicates']} repeats dropped")
        row = [str(i), s["map"], f"{s['distinct_games']} ({s['decisive']})" + (" – " + ", ".join(extra) if extra else ""),
               pct(s["table"]), s["verdict"]]
        if crossed_r:
            row.append(pct(s["roster"]))
        if crossed_a:
            row.append(pct(s["agent"]))
        row += [pct(s["first_player"]), pct(s["draw"]), endings_text(s), str(s["mean_turns"])]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Verdicts speak of the table only: \"balanced\" when the interval of zone 1's share holds 50% and "
              "lies within 40–60%, \"zone k\" when it excludes 50% (a table advantage these games can tell from "
              "luck), \"undecided\" otherwise. Draws are shares of all distinct games; endings count them by how they "
              "ended, with the roster that lost.", ""]
    for s in ranked(summary):
        bits = [s["verdict_words"]]
        if crossed_r and s["roster"]:
            r = s["roster"]
            real = r["low"] > 0.5 or r["high"] < 0.5
            bits.append(f"roster: {ra} wins {pct(r)} against {rb}"
                        + (" (a real difference between the forces)" if real else " (no difference these games can tell)"))
        if crossed_a and s["agent"]:
            bits.append(f"agent: {a1} wins {pct(s['agent'])} against {a2}")
        if s["first_player"]:
            fp = s["first_player"]
            real = fp["low"] > 0.5 or fp["high"] < 0.5
            bits.append(f"first player wins {pct(fp)}" + (" (a first-move " + ("advantage" if fp["share"] > 0.5 else
                                                                                "disadvantage") + ")" if real else ""))
        plain = [f"zone 1 {pct(s['zone1_wins'])}"]
        if crossed_r and s["roster_a_wins"]:
            plain.append(f"{ra} {pct(s['roster_a_wins'])}")
        if crossed_a and s["agent_p1_wins"]:
            plain.append(f"{a1} {pct(s['agent_p1_wins'])}")
        plain.append(f"the first player {pct(s['first_player_wins'])}")
        bits.append("plain shares of the decisive games, for comparison: " + ", ".join(plain))
        bits += s["notes"]
        lines.append(f"- **{s['map']}**: " + "; ".join(bits) + ".")
    lines.append("")
    return "\n".join(lines)
