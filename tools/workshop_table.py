"""Markdown tables of the sight analysis of every map in a folder (the tables in docs/workshop.md).

    PYTHONPATH=. python tools/workshop_table.py [FOLDER] [--eye 27] [--footprints-block]
    PYTHONPATH=. python tools/workshop_table.py [FOLDER] --readings

FOLDER defaults to the team's shared layouts, ``../shared/layouts`` beside the project (not part
of a checkout: give another folder, e.g. ``maps`` or ``tests/data/layouts``, where it is absent).
``--readings`` puts our reading (obscuring footprints see-through) beside the 40k reading
(footprints block) and beside Carltographer's published definition of overall line of sight
(pieces of 4" or more block, footprints block, visible share of the whole table) computed with
our grid, with the rank agreement (Spearman) between them.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from engine.data.maps import load_map  # noqa: E402
from engine.table import Table  # noqa: E402
from engine.table.heatmap import DEFAULT_EYE_MM  # noqa: E402
from engine.workshop.analysis import analyse  # noqa: E402

SHARED_LAYOUTS = ROOT.parent / "shared" / "layouts"
CARLTO_BLOCKING_MM = 4 * 25.4 - 0.01      # its default: a piece of 4" or more blocks (ours: taller than the eye)


def _f(v) -> str:
    return "–" if v is None else f"{v:.0f}"


def ranks(values) -> np.ndarray:
    """Ranks 1..n, ties sharing their mean rank."""
    v = np.asarray(values, float)
    order = np.argsort(v, kind="stable")
    r = np.empty(len(v))
    r[order] = np.arange(1, len(v) + 1)
    for x in np.unique(v):
        tie = v == x
        r[tie] = r[tie].mean()
    return r


def spearman(a, b) -> float:
    ra, rb = ranks(a), ranks(b)
    return float(np.corrcoef(ra, rb)[0, 1])


def figures_table(files, eye_mm: float, footprints_block: bool) -> None:
    print("| layout | cover % | LOS % | DZ hideable % (1 / 2) | DZ exposure % (1 / 2) | hidden on the table % (1 / 2) "
          "| objectives hidable % (1 / 2) | longest lane | zone-to-zone lanes | unmatched under the sides' symmetry % |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    los = []
    for f in files:
        m = load_map(f)
        s = analyse(Table(m), eye_mm=eye_mm, footprints_block=footprints_block).metrics
        h, e, o, hid = s["dz_hideability_pct"], s["dz_exposure_pct"], s["objective_hidability_pct"], s["hiding"]
        u = '"' if m.unit == "in" else f" {m.unit}"
        z2z = sum(1 for ln in s["lanes"] if ln["zone_to_zone"])
        sym = s["symmetry"]
        sym_txt = f"{sym['unmatched_pct']:.1f} ({sym['fair_symmetry']})" if sym["fair_symmetry"] else "no symmetry swaps the zones"
        los.append(s["overall_los_pct"])
        print(f"| {f.stem} | {s['coverage_pct']:.0f} | {s['overall_los_pct']:.1f} | {_f(h['1'])} / {_f(h['2'])} "
              f"| {_f(e['1'])} / {_f(e['2'])} | {_f(hid['1']['open_pct'])} / {_f(hid['2']['open_pct'])} "
              f"| {_f(o['1'])} / {_f(o['2'])} | {s['longest_lane_in']:.0f}{u} | {z2z} of {len(s['lanes'])} | {sym_txt} |")
    if los:
        print(f"\n{len(los)} layouts; overall line of sight from {min(los):.1f}% to {max(los):.1f}% "
              f"(mean {sum(los) / len(los):.1f}%).")


def readings_table(files, eye_mm: float) -> None:
    print("| layout | LOS % ours | LOS % 40k | rank ours / 40k | DZ hideable % ours / 40k | objectives hidable % ours / 40k "
          "| LOS % ours, 4\" eye | Carltographer's definition % |")
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for f in files:
        t = Table(load_map(f))
        ours = analyse(t, eye_mm=eye_mm).metrics
        k40 = analyse(t, eye_mm=eye_mm, footprints_block=True).metrics
        tall = analyse(t, eye_mm=CARLTO_BLOCKING_MM).metrics
        ct = analyse(t, eye_mm=CARLTO_BLOCKING_MM, footprints_block=True)
        carl = 100 * float(np.nanmean(ct.seen_share_of_table()))
        rows.append((f.stem, ours, k40, carl, tall))
    r_ours = ranks([-r[1]["overall_los_pct"] for r in rows])        # rank 1: the most open table
    r_k40 = ranks([-r[2]["overall_los_pct"] for r in rows])
    for (name, ours, k40, carl, tall), a, b in zip(rows, r_ours, r_k40):
        ho, hk = ours["dz_hideability_pct"], k40["dz_hideability_pct"]
        oo, ok = ours["objective_hidability_pct"], k40["objective_hidability_pct"]
        print(f"| {name} | {ours['overall_los_pct']:.1f} | {k40['overall_los_pct']:.1f} | {a:g} / {b:g} "
              f"| {_f(ho['1'])} / {_f(hk['1'])} | {_f(oo['1'])} / {_f(ok['1'])} | {tall['overall_los_pct']:.1f} | {carl:.1f} |")
    if len(rows) < 3:
        return
    lo, lk, lc = ([r[1]["overall_los_pct"] for r in rows], [r[2]["overall_los_pct"] for r in rows],
                  [r[3] for r in rows])
    lt = [r[4]["overall_los_pct"] for r in rows]
    ho = [r[1]["dz_hideability_pct"]["1"] for r in rows]
    hk = [r[2]["dz_hideability_pct"]["1"] for r in rows]
    moved = sorted(zip([abs(a - b) for a, b in zip(r_ours, r_k40)], [r[0] for r in rows], r_ours, r_k40), reverse=True)[:5]
    print(f"\n{len(rows)} layouts. Rank agreement (Spearman): LOS ours v 40k {spearman(lo, lk):.2f}; "
          f"ours v Carltographer's definition {spearman(lo, lc):.2f}; 40k v Carltographer's definition "
          f"{spearman(lk, lc):.2f}; ours with a 4\" eye v Carltographer's definition {spearman(lt, lc):.2f}; "
          f"DZ hideable (side 1) ours v 40k {spearman(ho, hk):.2f}.")
    print(f"Mean LOS: ours {np.mean(lo):.1f}%, 40k {np.mean(lk):.1f}%, Carltographer's definition {np.mean(lc):.1f}%; "
          f"mean DZ hideable (side 1): ours {np.mean(ho):.1f}%, 40k {np.mean(hk):.1f}%.")
    print("Moved most in the LOS ranking (ours -> 40k): "
          + "; ".join(f"{n} {a:g} -> {b:g}" for _, n, a, b in moved) + ".")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=str(SHARED_LAYOUTS))
    ap.add_argument("--eye", type=float, default=DEFAULT_EYE_MM, help="eye height, mm")
    ap.add_argument("--footprints-block", action="store_true", help="the 40k reading of obscuring and ruin footprints")
    ap.add_argument("--readings", action="store_true", help="our reading beside the 40k one and Carltographer's definition")
    args = ap.parse_args()
    folder = Path(args.folder)
    files = sorted(folder.glob("*.json"))
    if not files:
        print(f"no maps in {folder}" + (" (the team's shared folder is not beside this checkout)"
                                        if folder == SHARED_LAYOUTS else ""), file=sys.stderr)
        return 2
    if args.readings:
        readings_table(files, args.eye)
    else:
        figures_table(files, args.eye, args.footprints_block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
