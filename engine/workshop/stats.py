"""Per-map balance statistics of an experiment's game records (pure Python, no extra packages)."""
from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float | None, float | None, float | None]:
    """(share, low, high): the 95% Wilson score interval of k successes in n trials."""
    if n <= 0:
        return None, None, None
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, max(0.0, c - h), min(1.0, c + h)


def _rate(k: int, n: int) -> dict:
    p, lo, hi = wilson(k, n)
    r = lambda v: None if v is None else round(v, 4)  # noqa: E731
    return {"k": k, "n": n, "rate": r(p), "low": r(lo), "high": r(hi)}


def summarize(records: list[dict]) -> dict[str, dict]:
    """Group records by map. Rates of decisive games use all games as n for the agents' win
    rates (a draw is not a win) and the decisive games as n for the side advantages."""
    by_map: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_map[r["map"]].append(r)
    out = {}
    for m, rs in by_map.items():
        ok = [r for r in rs if not r.get("error")]
        n = len(ok)
        draws = sum(1 for r in ok if r["winner"] is None)
        dec = [r for r in ok if r["winner"] is not None]
        a1 = sum(1 for r in ok if r["winner_agent"] == "p1")
        a2 = sum(1 for r in ok if r["winner_agent"] == "p2")
        seat1 = sum(1 for r in dec if r["winner"] == 1)
        first = [r for r in dec if r.get("first_player") is not None]
        first_w = sum(1 for r in first if r["winner"] == r["first_player"])
        turns = [r["turns"] for r in ok if r.get("turns") is not None]
        side = _rate(seat1, len(dec))
        fp = _rate(first_w, len(first))
        imbalance = max(abs((side["rate"] if side["rate"] is not None else 0.5) - 0.5),
                        abs((fp["rate"] if fp["rate"] is not None else 0.5) - 0.5))
        out[m] = {
            "map": m,
            "games": len(rs),
            "errors": len(rs) - n,
            "agents": rs[0].get("agents"),
            "p1_agent_win": _rate(a1, n),
            "p2_agent_win": _rate(a2, n),
            "draw": _rate(draws, n),
            "side1_win_of_decisive": side,          # deployment-side advantage: seat 1 deploys in zone 1
            "first_player_win_of_decisive": fp,     # the seat that made the game's first decision
            "mean_turns": round(sum(turns) / len(turns), 3) if turns else None,
            "mean_decisions": round(sum(r["decisions"] for r in ok) / n, 1) if n else None,
            "imbalance": round(imbalance, 4),
            # an interval that excludes 0.5 is a side advantage these games can tell apart from luck
            "side_significant": side["low"] is not None and (side["low"] > 0.5 or side["high"] < 0.5),
            "first_significant": fp["low"] is not None and (fp["low"] > 0.5 or fp["high"] < 0.5),
        }
    return out


CSV_FIELDS = ["map", "games", "errors", "p1_agent_win", "p1_agent_low", "p1_agent_high", "p2_agent_win",
              "draw_share", "side1_win", "side1_low", "side1_high", "first_player_win", "first_low",
              "first_high", "mean_turns", "mean_decisions", "imbalance"]


def csv_rows(summary: dict[str, dict]) -> list[list]:
    rows = []
    for s in ranked(summary):
        rows.append([s["map"], s["games"], s["errors"], s["p1_agent_win"]["rate"], s["p1_agent_win"]["low"],
                     s["p1_agent_win"]["high"], s["p2_agent_win"]["rate"], s["draw"]["rate"],
                     s["side1_win_of_decisive"]["rate"], s["side1_win_of_decisive"]["low"],
                     s["side1_win_of_decisive"]["high"], s["first_player_win_of_decisive"]["rate"],
                     s["first_player_win_of_decisive"]["low"], s["first_player_win_of_decisive"]["high"],
                     s["mean_turns"], s["mean_decisions"], s["imbalance"]])
    return rows


def ranked(summary: dict[str, dict]) -> list[dict]:
    """Most balanced first: the smaller of the two side advantages' distance from 50%."""
    return sorted(summary.values(), key=lambda s: (s["imbalance"], s["map"]))


def pct(r: dict) -> str:
    if r["rate"] is None:
        return "–"
    return f"{r['rate'] * 100:.0f}% [{r['low'] * 100:.0f}–{r['high'] * 100:.0f}]"


def report_markdown(summary: dict[str, dict], config: dict) -> str:
    lines = [f"# Experiment: {config['ruleset']}, {config['p1']} vs {config['p2']}", "",
             f"{config['games']} games per map on {', '.join(Path(m).stem if m.endswith('.json') else m for m in config['maps'])}; seed {config['seed']}; "
             "the agents swap seats halfway (game i and game i + games/2 share a seed, seats mirrored). "
             "Rates with 95% Wilson intervals in brackets; side and first-player rates are shares of "
             "the decisive games.", "",
             f"| rank | map | games | seat 1 wins | first player wins | {config['p1']} (p1) wins | draws | mean turns | imbalance |",
             "|---|---|---|---|---|---|---|---|---|"]
    for i, s in enumerate(ranked(summary), 1):
        lines.append(f"| {i} | {s['map']} | {s['games'] - s['errors']}{' (' + str(s['errors']) + ' errors)' if s['errors'] else ''} "
                     f"| {pct(s['side1_win_of_decisive'])} | {pct(s['first_player_win_of_decisive'])} "
                     f"| {pct(s['p1_agent_win'])} "
                     f"| {pct(s['draw'])} | {s['mean_turns']} | {s['imbalance'] * 100:.1f} pts |")
    lines += ["", "Imbalance: the larger distance from 50% of the seat-1 and the first-player win shares; "
              "maps are ranked most balanced first."]
    for s in ranked(summary):
        notes = []
        if s["side_significant"]:
            fav = 1 if s["side1_win_of_decisive"]["rate"] > 0.5 else 2
            notes.append(f"deployment side 1 wins {pct(s['side1_win_of_decisive'])} of decisive games: "
                         f"the interval excludes 50%, a real advantage for side {fav} with these agents")
        if s["first_significant"]:
            adv = "advantage" if s["first_player_win_of_decisive"]["rate"] > 0.5 else "disadvantage"
            notes.append(f"the first player wins {pct(s['first_player_win_of_decisive'])}: a first-move {adv}")
        if not notes:
            notes.append("no side or first-move advantage these games can tell from luck")
        lines.append(f"- **{s['map']}**: " + "; ".join(notes) + ".")
    lines.append("")
    return "\n".join(lines)
