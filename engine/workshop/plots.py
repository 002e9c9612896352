"""matplotlib plots of an experiment (the ``workshop`` extra)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .stats import BALANCED, bar_extents, ranked  # noqa: E402

EFFECTS = (("table", "table: zone 1 wins"), ("roster", "roster: {ra} wins"), ("agent", "agent: {a1} wins"),
           ("first_player", "first player wins"))


def plot_summary(summary: dict, records: list[dict], out: Path) -> list[Path]:
    out = Path(out)
    rs = ranked(summary)
    names = [s["map"] for s in rs]
    ra, a1 = rs[0]["rosters"][0], rs[0]["agents"][0]
    shown = [(k, t.format(ra=ra, a1=a1)) for k, t in EFFECTS if any(s[k] for s in rs)]
    fig, axes = plt.subplots(1, len(shown), figsize=(3.0 * len(shown) + 1.4, 0.55 * len(names) + 1.6),
                             sharey=True, squeeze=False)
    for ax, (key, title) in zip(axes[0], shown):
        ax.axvspan(*BALANCED, color="0.92", zorder=0)
        ax.axvline(0.5, color="k", lw=0.8, ls="--")
        for i, s in enumerate(rs):
            e = s[key]
            if not e or e.get("share") is None:
                continue
            clear = e["low"] > 0.5 or e["high"] < 0.5
            colour = "tab:red" if clear else "tab:blue"
            below, above = bar_extents(e)
            ax.errorbar([e["share"]], [i], xerr=[[below], [above]], fmt="o",
                        color=colour, capsize=3)
            ax.annotate(f"{e['share'] * 100:.0f}%", (min(max(e["share"], 0.05), 0.95), i),   # kept inside the axes
                        textcoords="offset points", xytext=(0, 6), ha="center", fontsize=7)
        ax.set_xlim(0, 1)
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0], ["0", "25", "50", "75", "100%"])
        ax.set_title(title, fontsize=9)
    axes[0][0].set_yticks(range(len(names)), names)
    axes[0][0].set_ylim(len(names) - 0.5, -0.7)
    fig.suptitle("Effects per map, 95% intervals (red: excludes 50%; grey band: 40–60%)", fontsize=9)
    fig.tight_layout()
    p1 = out / "balance.png"
    fig.savefig(p1, dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 3.6))
    for name in names:
        t = [r["turns"] for r in records if r["map"] == name and r.get("turns") is not None and not r.get("error")]
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
