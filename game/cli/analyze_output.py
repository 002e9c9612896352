"""What ``analyze-map`` prints and draws: a map's sight figures, two maps compared, a picture's write error."""
from __future__ import annotations

from game.cli.args import fail


def _draw(what: str, path: str, fn) -> int:
    """Run a drawing; 0, or 1 with the reason when the file cannot be written."""
    try:
        fn()
    except OSError as err:
        return fail(f"skirmish analyze-map: cannot write {path}: {err}", 1)
    except Exception as err:  # pygame.error: it cannot save there
        if type(err).__name__ != "error":
            raise
        return fail(f"skirmish analyze-map: cannot write {path}: {err}", 1)
    return 0


def _compare(args, maps, infos, sights) -> int:
    import json

    a, b = maps
    if not sights:
        return fail("skirmish analyze-map: comparing needs the sight analysis", 2)
    from engine.workshop.compare import compare

    cmp = compare(sights[0], sights[1], map_a=a, map_b=b)
    if args.png:
        from game.render.analysis_compare_png import save_compare_png

        code = _draw("compare", args.png, lambda: save_compare_png(a, b, sights[0], sights[1], cmp, args.png))
        if code:
            return code
    if args.json:
        print(json.dumps({"a": infos[0], "b": infos[1], "comparison": cmp, **({"png": str(args.png)} if args.png else {})}))
        return 0
    from game.render.analysis_compare_png import FIGURE_LABELS

    print(f"A: {a.name} ({a.id})   B: {b.name} ({b.id})")
    print(f"  {'figure':34s} {'A':>8} {'B':>8} {'B - A':>8}")
    for row in cmp["figures"]:
        f = lambda v: "-" if v is None else f"{v:.1f}"  # noqa: E731
        d = "-" if row["diff"] is None else f"{row['diff']:+.1f}"
        print(f"  {FIGURE_LABELS.get(row['figure'], row['figure']):34s} {f(row['a']):>8} {f(row['b']):>8} {d:>8}")
    if cmp["same_grid"]:
        if cmp.get("aligned_by"):
            from engine.workshop.symmetry import TRANSFORMS

            print(f"  B matches A read through the {TRANSFORMS[cmp['aligned_by']]}: compared up to that symmetry")
        for mv in cmp.get("moved_pieces", []):
            print(f"  moved: {mv['id']} from ({mv['from'][0]:g}, {mv['from'][1]:g}) to ({mv['to'][0]:g}, {mv['to'][1]:g})")
        oc = cmp["openness_change"]
        print(f"  openness: {oc['opened_points']} points see more of the table in B, {oc['closed_points']} less "
              f"(by 5 points or more); terrain cells added {oc['terrain_added_cells']}, removed {oc['terrain_removed_cells']}")
        u = '"' if b.unit == "in" else f" {b.unit}"
        for key, text in (("closed_in_b", "A's lanes closed in B"), ("opened_in_b", "B's lanes A had closed")):
            lanes = cmp[key]
            print(f"  {text}: " + ("none" if not lanes else "; ".join(
                f"{ln['index']}: {ln['length']:.1f}{u} ({ln['from'][0]:g}, {ln['from'][1]:g})-({ln['to'][0]:g}, {ln['to'][1]:g})"
                for ln in lanes)))
    else:
        print("  the tables differ in size or grid: figures only, no point-by-point change")
    if args.png:
        print(f"  drawn to {args.png}")
    return 0


def print_sight(s: dict, unit: str) -> None:
    u = '"' if unit == "in" else f" {unit}"
    f = lambda v: "-" if v is None else f"{v:.1f}%"  # noqa: E731
    fp = ", footprints block sight (40k reading)" if s.get("footprints_block") else ""
    print(f"  sight (eye {s['eye_mm']:g} mm, {s['observer_points']} observer points{fp}): overall line of sight "
          f"{s['overall_los_pct']:.1f}%")
    print(f"  deployment zones hideable from the enemy zone: side 1 {f(s['dz_hideability_pct']['1'])}, "
          f"side 2 {f(s['dz_hideability_pct']['2'])}; exposure to the enemy's half: side 1 "
          f"{f(s['dz_exposure_pct']['1'])}, side 2 {f(s['dz_exposure_pct']['2'])}; zone-to-zone sight "
          f"{f(s['zone_to_zone_sight_pct'])}")
    for side in ("1", "2"):
        h = s["hiding"][side]
        print(f"  side {side} can stand hidden from the enemy zone on {f(h['open_pct'])} of the open table "
              f"({h['points']} points): {f(h['own_half_pct'])} of its own half, {f(h['enemy_half_pct'])} of the enemy's")
    print(f"  objectives hidable in control range: side 1 {f(s['objective_hidability_pct']['1'])}, "
          f"side 2 {f(s['objective_hidability_pct']['2'])}")
    for o in s["objectives"]:
        by = o.get("hidable_by", [])
        who = "both sides" if len(by) == 2 else f"side {by[0]} only" if by else "neither side"
        print(f"    {o['id']}{(' (' + o['name'] + ')') if o.get('name') else ''}: {who} can hold it unseen; "
              f"side 1 at {o['hidden_points_side1']}, side 2 at {o['hidden_points_side2']} of {o['points']} points in range")
    for i, ln in enumerate(s["lanes"], 1):
        print(f"  lane {i}: {ln['length']:.1f}{u} from ({ln['from'][0]:g}, {ln['from'][1]:g}) to "
              f"({ln['to'][0]:g}, {ln['to'][1]:g}){'  zone to zone' if ln['zone_to_zone'] else ''}")
    sym = s.get("symmetry")
    if sym:
        from engine.workshop.symmetry import TRANSFORMS

        parts = []
        for name, r in sym["transforms"].items():
            swaps = r["zone_mismatch_pct"] is not None and r["zone_mismatch_pct"] < 1.0
            parts.append(f"{name} {r['unmatched_pct']:.1f}%{' (swaps zones)' if swaps else ''}")
        best = sym["fair_symmetry"]
        print("  symmetry, share of terrain with no counterpart: " + ", ".join(parts)
              + (f"; the sides' symmetry: {TRANSFORMS[best]}" if best else "; no symmetry swaps the zones"))
        diffs = {k: v for k, v in s["side_difference"].items() if v is not None}
        print("  side 1 minus side 2: " + ", ".join(f"{k} {v:+.1f}" for k, v in diffs.items()))
