"""What ``skirmish balance`` writes beside its experiments: the balanced map, the changes (in
words and as edit commands), the history (data and plot) and a summary page."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.data.maps import MapFile

from . import edits as E
from .balance import Outcome, _pct
from .balance_stats import within
from .stats import bar_extents


def balanced_map(outcome: Outcome) -> MapFile:
    m, start = outcome.final, outcome.start
    if not outcome.state["edits"]:
        return m
    mid = start.id if start.id.endswith("-balanced") else f"{start.id}-balanced"[:64]
    base = start.name.removesuffix(" (balanced)").removesuffix(" (rebalanced, not confirmed)")
    # the name claims "balanced" only when the confirmation on fresh seeds says so
    confirmed = outcome.state.get("verdict", "balanced") == "balanced"
    name = f"{base} (balanced)" if confirmed else f"{base} (rebalanced, not confirmed)"
    return m.model_copy(update={"id": mid, "name": name})       # balanced again: marked once


def write_outputs(out: str | Path, outcome: Outcome) -> dict[str, Path]:
    """Every file, by role; the map is checked as ``validate`` checks it before it is written."""
    from engine.core.saves import write_atomic

    out = Path(out)
    st = outcome.state
    m = balanced_map(outcome)
    bad = E.save_problems(m)
    if bad:                       # never: every candidate passed the editor's checks
        raise ValueError("the balanced map does not validate: " + "; ".join(f"{f}: {r}" for f, r in bad[:3]))
    files = {"map": out / f"{m.id}.json"}
    write_atomic(files["map"], m.model_dump_json(exclude_none=True, indent=1) + "\n")
    files["edits"] = out / "edits.json"
    files["edits"].write_text(json.dumps(st["edits"], indent=1) + "\n")
    files["changes"] = out / "changes.md"
    files["changes"].write_text(changes_markdown(st, outcome))
    files["history"] = out / "history.json"
    files["history"].write_text(json.dumps({k: st.get(k) for k in ("settings", "symmetry", "stopped", "step",
                                                                      "search_seconds", "confirm_seed", "before",
                                                                      "after", "history")}, indent=1) + "\n")
    try:
        files["history_png"] = plot_history(st, out / "history.png")
    except ImportError:        # matplotlib: the workshop extra
        pass
    if st.get("confirmation"):     # the conditions it was confirmed under, beside the map (confirmed.py)
        from . import confirmed as C

        conf = C.Confirmation.model_validate_json(json.dumps({**st["confirmation"], "map": files["map"].name}))
        files["confirmed"] = C.sidecar_of(files["map"])
        C.save(conf, files["confirmed"])
    files["summary"] = out / "summary.md"
    files["summary"].write_text(summary_markdown(st, outcome, m, files))
    return files


def changes_markdown(st: dict, outcome: Outcome) -> str:
    lines = [f"# Changes to {outcome.start.name}", ""]
    if not st["changes"]:
        lines.append("No change was kept: the start map is the result.")
    for i, c in enumerate(st["changes"], 1):
        lines.append(f"{i}. (step {c['step']}, {c['op']}) " + "; ".join(c["words"] or [c["describe"]])
                     + f" - table then {_pct(c['table'])} on the search seeds")
    lines += ["", "Coordinates are the centres of the placements' bounding boxes, in the map's unit, origin at the "
              "lower left. As edit commands (engine/workshop/edits; `edits.json` holds them as data, in order):", ""]
    for i, c in enumerate(st["changes"], 1):
        lines.append(f"{i}. `{c['describe']}`: `{json.dumps(c['edit'], separators=(',', ':'))[:400]}`")
    return "\n".join(lines) + "\n"


def summary_markdown(st: dict, outcome: Outcome, m: MapFile, files: dict) -> str:
    s = st["settings"]
    before, after = st.get("before"), st.get("after")
    hw = s["half_width"]
    stops: dict[Any, str] = {"balanced": f"the incumbent's check interval lay within 50 +- {100 * hw:g}",
                             "budget": "the budget ran out", "steps": "the step limit was reached"}
    stop = stops.get(st.get("stopped"), st.get("stopped"))
    rows = [
        f"# Balancing {outcome.start.name} for {s['ruleset']}",
        "",
        f"{' v '.join(s['agents'])}, rosters {' v '.join(str(r) for r in s['rosters'])}, each from each zone; "
        f"search seed {s['seed']}, {s['search_games']} games a candidate; confirmation seed {st['confirm_seed']}, "
        f"{s['confirm_games']} games (no game seed in common with the search).",
        "",
        "| | games (decisive) | table: zone 1 wins [95%] |",
        "|---|---|---|",
        f"| before (start map, search seeds) | {before['games'] if before else '-'} | {_pct(before)} |",
        f"| after (balanced map, fresh seeds) | {after['games'] if after else '-'} | {_pct(after)} |",
    ]
    a2 = st.get("after2")
    if a2:
        pr = st.get("after2_pairing", {})
        rows.append(f"| after, second pairing ({' v '.join(pr.get('agents', []))}; rosters "
                    f"{' v '.join(str(r) for r in pr.get('rosters', []))}; the same fresh seeds) | {a2['games']} | {_pct(a2)} |")
    sb, sa = st.get("sight_before"), st.get("sight_after")
    if sb or sa:
        def fig(d, k):
            v = (d or {}).get(k)
            if isinstance(v, dict):
                return " / ".join("-" if x is None else f"{x:.0f}" for x in v.values())
            return "-" if v is None else f"{v:.0f}"
        lim = f"hide difference <= {s.get('hide_diff_max')}, objective-access difference <= {s.get('obj_diff_max')}"
        rows += ["", f"Sight, held as constraints beside the played share ({lim}; the search's coarse grid, and the 1\" grid):", "",
                 "| | zone hideable % (1 / 2) | difference | objectives hidable % (1 / 2) | difference |",
                 "|---|---|---|---|---|",
                 f"| before | {fig(sb, 'hide')} | {fig(sb, 'hide_diff')} | {fig(sb, 'objectives')} | {fig(sb, 'obj_diff')} |",
                 f"| after | {fig(sa, 'hide')} | {fig(sa, 'hide_diff')} | {fig(sa, 'objectives')} | {fig(sa, 'obj_diff')} |"]
        fb, fa = (sb or {}).get("full"), (sa or {}).get("full")
        if fb or fa:
            rows += [f"| before, 1\" grid (`analyze-map`) | {fig(fb, 'hide')} | {fig(fb, 'hide_diff')} | "
                     f"{fig(fb, 'objectives')} | {fig(fb, 'obj_diff')} |",
                     f"| after, 1\" grid (`analyze-map`) | {fig(fa, 'hide')} | {fig(fa, 'hide_diff')} | "
                     f"{fig(fa, 'objectives')} | {fig(fa, 'obj_diff')} |"]
            broken = (sa or {}).get("limits_broken")
            if broken is not None:
                rows += ["", "Sight limits on the 1\" grid after: " + ("met." if not broken else
                         "NOT met (" + "; ".join(broken) + "): a start already past a limit may keep its figure "
                         "during the search, but it does not meet the limit.")]
    rows += [
        "",
        f"Search: {st['step']} steps, {sum(len(h.get('tested', [])) for h in st['history'])} candidates played, "
        f"{len(st['changes'])} kept; stopped because {stop}; {st['search_seconds'] / 60:.1f} min of search.",
        "",
    ]
    checks = [h for h in st["history"] if h["kind"] == "check"]
    if checks:
        c = checks[-1]
        rows += [f"Last stop check (search seeds, the incumbent of step {c['step']}): table {_pct(c['table'])} over "
                 f"{c['table']['games']} decisive games.", ""]
    if after:
        ok = within(after, hw)
        band = f"50 +- {100 * hw:g}"
        rows.append(f"**Verdict: {'balanced' if ok else 'not balanced'}** (the confirmation on fresh seeds: zone 1 wins "
                    f"{_pct(after)} over {after['games']} decisive games; balanced only when the interval lies "
                    f"within {band}).")
        rows.append("")
    rows += [f"- balanced map: `{files['map'].name}`", "- changes: `changes.md` (words and edit commands), `edits.json`",
             "- before: `before/report.md` (the start map's experiment), after: `after/report.md` (the confirmation)",
             "- history: `history.json`, `history.png`"]
    for extra in ("before.png", "after.png"):
        if (files["map"].parent / extra).exists():
            rows.append(f"- `{extra}`: the map's sight analysis")
    return "\n".join(rows) + "\n"


def plot_history(st: dict, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.2), dpi=110)
    hw = st["settings"]["half_width"]
    ax.axhspan(50 - 100 * hw, 50 + 100 * hw, color="#dddddd", zorder=0, label=f"50 +- {100 * hw:g}")
    ax.axhline(50, color="#888888", lw=0.8, zorder=1)
    xs, ys, lo, hi = [], [], [], []
    for h in st["history"]:
        t = h["table"]
        if h["kind"] in ("start", "search") and t and t.get("share") is not None:
            xs.append(h["step"])
            ys.append(100 * t["share"])
            lo.append(100 * t["low"])
            hi.append(100 * t["high"])
        for c in h.get("tested", []):
            ct = c["table"]
            if ct.get("share") is not None:
                kept = c["label"] == h.get("kept")
                ax.plot(h["step"] + 0.12, 100 * ct["share"], "o", ms=4, color="#2a7" if kept else "#bbb", zorder=2)
        if h["kind"] == "check" and t.get("share") is not None:
            ax.errorbar(h["step"] + 0.25, 100 * t["share"], yerr=[[v] for v in bar_extents(t, 100)],
                        fmt="s", color="#d80", capsize=3, zorder=3)
        if h["kind"] == "confirm" and t.get("share") is not None:
            ax.errorbar(h["step"] + 0.5, 100 * t["share"], yerr=[[v] for v in bar_extents(t, 100)],
                        fmt="D", color="#c22", capsize=3, zorder=3, label="confirmation (fresh seeds)")
    if xs:
        import numpy as np

        y = np.array(ys)
        ax.errorbar(xs, ys, yerr=[np.maximum(0, y - np.array(lo)), np.maximum(0, np.array(hi) - y)], fmt="-o",
                    color="#246", capsize=3,
                    zorder=3, label="incumbent (search seeds)")
    ax.plot([], [], "o", color="#bbb", ms=4, label="candidates tested")
    ax.plot([], [], "o", color="#2a7", ms=4, label="candidate kept")
    ax.plot([], [], "s", color="#d80", label="stop check")
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("step")
    ax.set_ylabel("table: zone 1 wins (%)")
    ax.set_ylim(0, 100)
    ax.set_title(f"balance: {st['settings']['ruleset']}, table effect per step (95% intervals)")
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
