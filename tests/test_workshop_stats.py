"""The experiment statistics against numbers worked by hand, and the verdicts they lead to."""
from __future__ import annotations

import math

import pytest

from engine.workshop.stats import (
    cluster_share,
    effects,
    logistic_effects,
    ranked,
    report_markdown,
    summarize,
    verdict,
    wilson,
)

pytest.importorskip("statsmodels")

Z = 1.959963984540054


def expit(x):
    return 1 / (1 + math.exp(-x))


def test_wilson_interval():
    p, lo, hi = wilson(5, 10)
    assert p == 0.5 and lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    p, lo, hi = wilson(0, 20)
    assert p == 0 and lo == 0 and hi == pytest.approx(0.1611, abs=1e-4)
    assert wilson(0, 0) == (None, None, None)


def test_cluster_share_by_hand():
    # Three blocks of two games, won 2, 0 and 1 times: p = 3/6 = 1/2.
    # Cluster-robust variance: G/(G-1) * sum (k_g - p n_g)^2 / N^2 = 3/2 * (1 + 1 + 0) / 36 = 1/12;
    # binomial variance p(1-p)/N = 1/24; design effect 2, effective n = 6/2 = 3.
    # Wilson at n = 3, p = 1/2: centre 1/2, half-width z sqrt(1/12 + z^2/36) / (1 + z^2/3)
    #   = 1.95996 * sqrt(0.083333 + 0.106706) / 2.280494 = 0.374665 -> [0.125335, 0.874665].
    s = cluster_share([2, 0, 1], [2, 2, 2])
    assert s["share"] == 0.5 and s["n_eff"] == pytest.approx(3.0)
    assert s["low"] == pytest.approx(0.125335, abs=1e-5) and s["high"] == pytest.approx(0.874665, abs=1e-5)
    # blocks that split 1-1 have no spread between them: the design effect is floored at 1, so the
    # interval is the plain Wilson one of 6 games, never narrower
    s = cluster_share([1, 1, 1], [2, 2, 2])
    assert (s["low"], s["high"]) == pytest.approx(wilson(3, 6)[1:])
    # a share of 1 has no variance: the effective n is the number of blocks
    s = cluster_share([2, 2, 2], [2, 2, 2])
    assert s["share"] == 1 and s["n_eff"] == 3 and s["low"] == pytest.approx(wilson(3, 3)[1])


def test_logistic_intercept_only_by_hand():
    # Four blocks of two games; zone 1 wins [1,1], [0,0], [1,0], [1,0]: p = 4/8 = 1/2, b0 = logit(1/2) = 0.
    # Sandwich: bread = N p (1-p) = 2; block scores sum(y - p) = 1, -1, 0, 0, meat = 2; small-sample
    # factor G/(G-1) (N-1)/(N-K) = 4/3 * 7/7. var(b0) = 4/3 * 2 / 2^2 = 2/3, se = 0.816497.
    fit = logistic_effects([1, 1, 0, 0, 1, 0, 1, 0], {}, [0, 0, 1, 1, 2, 2, 3, 3])
    b0, se = fit["const"]
    assert b0 == pytest.approx(0, abs=1e-9) and se == pytest.approx(math.sqrt(2 / 3), abs=1e-6)


def _factorial_records():
    """Four blocks, each one game of every (roster in zone 1, agent in seat 1) cell. Zone 1 wins
    3 of 4 games in cell (A, X), 2 in (A, Y), 2 in (B, X), 1 in (B, Y)."""
    wins = {("A", "X"): [1, 1, 1, 0], ("A", "Y"): [1, 1, 0, 0], ("B", "X"): [0, 0, 1, 1], ("B", "Y"): [1, 0, 0, 0]}
    recs = []
    for b in range(4):
        for (r, a), ys in wins.items():
            w = 1 if ys[b] else 2
            rosters = {"1": r, "2": "B" if r == "A" else "A"}
            agents = {"1": a, "2": "Y" if a == "X" else "X"}
            recs.append({"map": "m", "index": len(recs), "block": b, "winner": w, "first_player": 1, "error": None,
                         "rosters": rosters, "agents": agents, "winner_roster": rosters[str(w)],
                         "winner_agent": agents[str(w)], "ending": "turn_limit", "turns": 6, "decisions": 10,
                         "final_hash": f"h{len(recs)}"})
    return recs


def test_logistic_factorial_by_hand():
    # The cell shares 3/4, 1/2, 1/2, 1/4 have log-odds ln3, 0, 0, -ln3: exactly additive in the
    # +-1/2 codes, so the fit reproduces them: b0 = 0, b_roster = b_agent = ln 3.
    # Table effect expit(0) = 1/2; roster A's share on an even table expit(ln3 / 2) = sqrt3/(1+sqrt3).
    # se(b0): the bread's intercept row is sum w = 4 (3/16 + 1/4 + 1/4 + 3/16) = 3.5 and its
    # cross terms with the +-1/2 codes vanish (sum w x = 0), so var(b0) = c * meat00 / 3.5^2.
    # Block residual sums (y - p over the four cells): block 0: .25 + .5 - .5 + .75 = 1;
    # block 1: .25 + .5 - .5 - .25 = 0; block 2: .25 - .5 + .5 - .25 = 0; block 3: -.75 - .5 + .5 - .25 = -1.
    # meat00 = 2; c = G/(G-1) (N-1)/(N-K) = 4/3 * 15/13; var(b0) = 0.251177, se = 0.501176.
    recs = _factorial_records()
    eff = effects(recs, ("A", "B"), ("X", "Y"))
    assert eff["method"] == "logistic"
    assert eff["roster"]["coef"] == pytest.approx(math.log(3), abs=1e-6)
    assert eff["agent"]["coef"] == pytest.approx(math.log(3), abs=1e-6)
    assert eff["roster"]["share"] == pytest.approx(math.sqrt(3) / (1 + math.sqrt(3)), abs=1e-6)
    se = math.sqrt(4 / 3 * 15 / 13 * 2 / 3.5 ** 2)
    assert eff["table"]["share"] == pytest.approx(0.5, abs=1e-9)
    assert eff["table"]["se"] == pytest.approx(se, abs=1e-6)
    assert eff["table"]["low"] == pytest.approx(expit(-Z * se), abs=1e-6)
    assert eff["table"]["high"] == pytest.approx(expit(Z * se), abs=1e-6)
    # the first player never changes (always zone 1): left out, and said so
    assert eff["first_player"] is None and "always made the first decision" in eff["notes"][0]


def _strong_roster_records(blocks=200):
    """A mirrored table, the strong roster A winning 3 games of 4 from either zone: per 4 blocks
    (A in zone 1, then B in zone 1) A wins both twice, A wins only from zone 1 once and only from
    zone 2 once. Zone 1 thus wins exactly half, A three quarters. The first player alternates."""
    patterns = [("A", "A"), ("A", "B"), ("A", "A"), ("B", "A")]
    recs = []
    for b in range(blocks):
        for k, zone1 in enumerate(("A", "B")):
            winner_roster = patterns[b % 4][k]
            rosters = {"1": zone1, "2": "B" if zone1 == "A" else "A"}
            w = 1 if rosters["1"] == winner_roster else 2
            recs.append({"map": "mirror", "index": 2 * b + k, "block": b, "winner": w,
                         "first_player": 1 + (b // 4 + k) % 2, "error": None, "rosters": rosters,
                         "agents": {"1": "easy", "2": "easy"}, "winner_roster": winner_roster, "winner_agent": "easy",
                         "ending": "wiped_out" if b % 2 else "turn_limit", "turns": 5, "decisions": 99,
                         "final_hash": f"g{2 * b + k}"})
    return recs


def test_a_mirrored_table_with_a_strong_roster_is_balanced_with_a_roster_effect():
    recs = _strong_roster_records()
    cfg = {"ruleset": "doubles", "maps": ["mirror"], "labels": ["mirror"], "games": 400, "seed": 1, "p1": "easy",
           "p2": "easy", "rosters": ["A", "B"]}
    s = summarize(recs, cfg)["mirror"]
    assert s["method"] == "logistic"
    assert s["table"]["share"] == pytest.approx(0.5, abs=0.01)
    assert s["verdict"] == "balanced", s["verdict_words"]
    assert s["roster"]["low"] > 0.6            # A's advantage is told apart from luck, beside the table
    assert s["agent"] is None                  # the same agent: not crossed, no agent effect
    md = report_markdown({"mirror": s}, cfg)
    assert "balanced" in md and "A wins" in md and "a real difference between the forces" in md
    # the plain share of zone 1 is exactly 1/2 and of roster A 3/4
    assert s["zone1_wins"]["share"] == 0.5 and s["roster_a_wins"]["share"] == 0.75


def test_verdicts_and_ranking_speak_of_the_table():
    lean = {"share": 0.58, "low": 0.52, "high": 0.64, "method": "logistic"}
    wide = {"share": 0.52, "low": 0.35, "high": 0.69, "method": "logistic"}
    even = {"share": 0.49, "low": 0.43, "high": 0.55, "method": "logistic"}
    assert verdict(lean)[0] == "zone 1"
    assert verdict({**lean, "share": 0.42, "low": 0.36, "high": 0.48})[0] == "zone 2"
    assert verdict(wide)[0] == "undecided" and verdict(even)[0] == "balanced"
    assert verdict({**even, "method": "shares"})[0] == "undecided"   # no model: no word on the table
    summ = {m: {"map": m, "imbalance": abs(t["share"] - 0.5)} for m, t in (("a", lean), ("b", even), ("c", wide))}
    assert [s["map"] for s in ranked(summ)] == ["b", "c", "a"]


def test_a_roster_that_wins_everything_leaves_the_table_undecided():
    recs = _strong_roster_records(40)
    for r in recs:   # A wins every game: the roster separates the outcome, no model can be fitted
        r["winner"] = 1 if r["rosters"]["1"] == "A" else 2
        r["winner_roster"] = "A"
    s = summarize(recs, {"rosters": ["A", "B"], "p1": "easy", "p2": "easy"})["mirror"]
    assert s["method"] == "shares" and s["verdict"] == "undecided"
    assert s["roster"]["share"] == 1.0 and s["table"]["share"] == 0.5


def test_repeated_games_count_once_and_draws_and_endings_are_counted():
    recs = _strong_roster_records(8)
    recs[3] = dict(recs[3], winner=None, winner_roster=None, winner_agent=None, ending="turn_limit")
    recs.append(dict(recs[0], index=99))           # the same game again (same final hash and decisions)
    s = summarize(recs, {"rosters": ["A", "B"], "p1": "easy", "p2": "easy"})["mirror"]
    assert s["duplicates"] == 1 and s["distinct_games"] == 16 and s["decisive"] == 15
    assert s["draw"]["k"] == 1 and s["draw"]["n"] == 16
    # odd blocks ended with a side wiped out (8 games), one of them made a drawn turn-limit game above
    assert s["endings"] == {"turn_limit": 9, "wiped_out": 7}
    # who lost them, by roster: blocks 1 and 5 (pattern A-B) lose B then A, blocks 3 and 7 (B-A)
    # lose A then B; block 1's second game is the draw: A lost 3, B lost 4
    assert s["losers_by_ending"]["wiped_out"] == {"A": 3, "B": 4}


def test_an_interval_at_0_or_100_percent_ends_exactly_there_and_plots(tmp_path):
    """Issue 47: with 3 games, c - h came out 5.6e-17 above a share of 0, and the plot's error bar
    from the share down to the interval's end was negative (matplotlib refused it, no report)."""
    for n in (1, 2, 3, 7, 12, 0.3, 2.5):
        p, lo, hi = wilson(0, n)
        assert p == 0 and lo == 0.0 and 0 < hi <= 1
        p, lo, hi = wilson(n, n)
        assert p == 1 and hi == 1.0 and 0 <= lo < 1
    s = cluster_share([0, 0, 0], [4, 4, 4])      # one side never wins: n_eff = G = 3
    assert (s["share"], s["low"]) == (0.0, 0.0) and s["high"] == pytest.approx(wilson(0, 3)[2])
    from engine.workshop.plots import plot_summary
    from engine.workshop.stats import bar_extents

    assert bar_extents({"share": 0.0, "low": 5.6e-17, "high": 0.56}) == (0.0, pytest.approx(0.56))
    never = {"share": 0.0, "low": 5.551115123125783e-17, "high": 0.5615, "method": "shares"}   # as the run wrote it
    even = {"share": 0.5, "low": 0.25, "high": 0.75, "method": "shares"}
    summary = {"m": {"map": "m", "rosters": ["a", "b"], "agents": ["random", "easy"], "table": even, "roster": even,
                     "agent": never, "first_player": None, "draw": s, "verdict": "undecided", "imbalance": None,
                     "decisive": 12,
                     "games": 12, "errors": 0}}
    pngs = plot_summary(summary, [{"map": "m", "turns": 3}], tmp_path)
    assert all(p.stat().st_size > 1000 for p in pngs)
