"""matplotlib plots of an experiment (the ``workshop`` extra)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .stats import ranked  # noqa: E402


def plot_summary(summary: dict, records: list[dict], out: Path) -> list[Path]:
    out = Path(out)
    rs = ranked(summary)
    names = [s["map"] for s in rs]
    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(names) + 2), 4))
    keys = [("side1_win_of_decisive", "seat 1 wins (decisive)"), ("first_player_win_of_decisive", "first player wins (decisive)"),
            ("p1_agent_win", "p1 agent wins (all)"), ("draw", "draws (all)")]
    width = 0.8 / len(keys)
    for k, (key, label) in enumerate(keys):
        xs, ys, lo, hi = [], [], [], []
        for i, s in enumerate(rs):
            r = s[key]
            if r["rate"] is None:
                continue
            xs.append(i + (k - (len(keys) - 1) / 2) * width)
            ys.append(r["rate"])
            lo.append(r["rate"] - r["low"])
            hi.append(r["high"] - r["rate"])
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=label)
    ax.axhline(0.5, color="k", lw=0.8, ls="--")
    ax.set_xticks(range(len(names)), names)
    ax.set_ylim(0, 1.22)
    ax.set_yticks([0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0])
    ax.set_ylabel("share (95% Wilson interval)")
    ax.set_title("Balance by map (most balanced left)")
    ax.legend(fontsize=8, loc="upper center", ncol=2, frameon=False)
    fig.tight_layout()
    p1 = out / "balance.png"
    fig.savefig(p1, dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.6))
    for name in names:
        t = [r["turns"] for r in records if r["map"] == name and r.get("turns") is not None]
        if t:
            ax.hist(t, bins=range(min(t), max(t) + 2), alpha=0.5, label=name, align="left")
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    ax.legend(fontsize=8)
    fig.tight_layout()
    p2 = out / "length.png"
    fig.savefig(p2, dpi=110)
    plt.close(fig)
    return [p1, p2]
