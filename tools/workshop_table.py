"""Markdown table of the sight analysis of every map in a folder (the table in docs/workshop.md).

    PYTHONPATH=. python tools/workshop_table.py /work/shared/layouts [--eye 27] > table.md
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.data.maps import load_map  # noqa: E402
from engine.table import Table  # noqa: E402
from engine.table.heatmap import DEFAULT_EYE_MM  # noqa: E402
from engine.workshop.analysis import analyse  # noqa: E402


def rows(folder: Path, eye_mm: float):
    for f in sorted(folder.glob("*.json")):
        m = load_map(f)
        s = analyse(Table(m), eye_mm=eye_mm).metrics
        yield f.stem, m, s


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--eye", type=float, default=DEFAULT_EYE_MM, help="eye height, mm")
    args = ap.parse_args()
    print("| layout | cover % | LOS % | DZ hideable % (1 / 2) | DZ exposure % (1 / 2) | objectives hidable % (1 / 2) | longest lane | zone-to-zone lanes |")
    print("|---|---|---|---|---|---|---|---|")
    los = []
    for name, m, s in rows(Path(args.folder), args.eye):
        h, e, o = s["dz_hideability_pct"], s["dz_exposure_pct"], s["objective_hidability_pct"]
        f = lambda v: "–" if v is None else f"{v:.0f}"  # noqa: E731
        u = '"' if m.unit == "in" else f" {m.unit}"
        z2z = sum(1 for ln in s["lanes"] if ln["zone_to_zone"])
        los.append(s["overall_los_pct"])
        print(f"| {name} | {s['coverage_pct']:.0f} | {s['overall_los_pct']:.1f} | {f(h['1'])} / {f(h['2'])} "
              f"| {f(e['1'])} / {f(e['2'])} | {f(o['1'])} / {f(o['2'])} | {s['longest_lane_in']:.0f}{u} | {z2z} of {len(s['lanes'])} |")
    if los:
        print(f"\n{len(los)} layouts; overall line of sight from {min(los):.1f}% to {max(los):.1f}% "
              f"(mean {sum(los) / len(los):.1f}%).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
