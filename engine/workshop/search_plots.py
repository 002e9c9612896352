"""Plots of the generator's and the balancer's searches (matplotlib, the workshop extra)."""
from __future__ import annotations

from pathlib import Path


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_generate_history(history: dict, path: str | Path) -> Path:
    """Score per move of each chain (coloured by temperature), the best so far, and the rounds
    whose best layout was measured on the full grid (its full-grid score: a cross when the targets
    were met)."""
    plt = _plt()
    path = Path(path)
    fig, (ax, bx) = plt.subplots(2, 1, figsize=(9, 6.4), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    rounds = history["trace"]
    temps = history["chains"]
    n = len(temps)
    cmap = plt.get_cmap("coolwarm")
    for i in range(n):
        xs, ys = [], []
        for r in rounds:
            for step, cur, _ in r["chains"][i]:
                xs.append(step)
                ys.append(max(cur, 1e-3))
        ax.plot(xs, ys, lw=0.8, color=cmap(i / max(1, n - 1)), label=f"chain at T={temps[i]['temp']:.2g}")
    best_x, best_y = [], []
    for r in rounds:
        last = [c[-1] for c in r["chains"] if c]
        if last:
            best_x.append(last[0][0])
            best_y.append(max(min(b for _, _, b in last), 1e-3))
    ax.plot(best_x, best_y, "k-", lw=1.6, label="best so far (coarse grid)")
    for c in history.get("checks", []):
        x = next((r["chains"][0][-1][0] for r in rounds if r["round"] == c["round"] and r["chains"][0]), None)
        if x is not None:
            ax.plot([x], [max(c["full_score"], 1e-3)], "x" if c["met"] else "o", color="green" if c["met"] else "black",
                    ms=8, mfc="none")
    ax.set_yscale("log")
    ax.set_ylabel("score (0 = every target exact)")
    ax.set_title(f"{history.get('map', 'layout')}: seed {history.get('seed')}, {history.get('symmetry') or 'no'} symmetry; "
                 + ", ".join(history.get("targets", [])), fontsize=9)
    ax.legend(fontsize=7, loc="upper right")
    ax.grid(alpha=0.3)
    # the figures of each round's best layout (coarse grid, before the full grid's correction)
    for key, label in (("los", "line of sight %"), ("hide_diff", "hideability difference, points"),
                       ("cover", "cover %"), ("lane", "longest zone-to-zone lane")):
        xs = [r["end_step"] for r in history.get("rounds", []) if r.get(key) is not None]
        ys = [r[key] for r in history.get("rounds", []) if r.get(key) is not None]
        if xs:
            bx.plot(xs, ys, marker=".", lw=1, label=label + " (best, coarse)")
    bx.set_xlabel("moves per chain")
    bx.legend(fontsize=7)
    bx.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
