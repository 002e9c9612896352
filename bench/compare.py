"""Before/after columns for the bench scripts (``--before DIR``).

The figures of two days, or of two loads of this shared machine, cannot be set side by side, so a
bench given ``--before DIR`` measures DIR's code and this checkout's at the same time: each round
runs the bench once on each, each in a child process (this script, importing the other
checkout's ``engine`` and ``game`` through ``--root``), alternating, and the table gives the
median of the rounds for each side. The checkout the speed issue was filed on is commit 87f79e2
(``git worktree add /tmp/before 87f79e2``).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

THIS = Path(__file__).resolve().parent.parent


def code_root() -> Path:
    """The checkout whose code a bench measures: ``--root DIR`` (a child measuring another
    checkout), else this one. Put on ``sys.path`` first, before the bench imports ``engine``."""
    root = THIS
    if "--root" in sys.argv:
        root = Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
    sys.path.insert(0, str(root))
    return root


def add_arguments(ap, rounds: int) -> None:
    """The arguments every bench with before/after columns takes."""
    ap.add_argument("--before", help="another checkout to measure against, alternately (bench/compare.py)")
    ap.add_argument("--rounds", type=int, default=rounds, help="alternating rounds with --before")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)   # a child's answer
    ap.add_argument("--root", help=argparse.SUPPRESS)                        # (code_root)


def child(script: str, root: Path, argv: list[str]) -> dict:
    """Run ``script`` (a bench of this checkout) on ``root``'s code; its last line is JSON."""
    cmd = [sys.executable, script, *argv, "--json", "--root", str(root)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def alternate(script: str, before: str, argv: list[str], rounds: int) -> tuple[list[dict], list[dict]]:
    """``rounds`` of (before, now), alternating; each side's results in round order."""
    old, new = [], []
    for k in range(rounds):
        old.append(child(script, Path(before), argv))
        new.append(child(script, THIS, argv))
        print(f"round {k + 1} of {rounds} done", flush=True)
    return old, new


def med(runs: list[dict], *keys) -> float:
    """The median over the rounds of the figure at ``runs[i][k1][k2]...``."""
    vals = []
    for r in runs:
        for k in keys:
            r = r[k]
        vals.append(r)
    return statistics.median(vals)


def table(title: str, rows: list[tuple[str, float, float, str]]) -> None:
    """A markdown table: (what, before, now, unit) rows; the gain is before / now (times, lower
    is better)."""
    print(f"\n{title}")
    print("| what | before | now | gain |")
    print("|---|---|---|---|")
    for what, b, a, unit in rows:
        gain = f"{b / a:.1f}x" if a > 0 else "-"
        print(f"| {what} | {b:.2f} {unit} | {a:.2f} {unit} | {gain} |")
