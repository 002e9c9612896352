"""``skirmish analyze-map``: its arguments, the sight analysis of one map or two, Carltographer's figures."""
from __future__ import annotations

from game.cli.analyze_output import _compare, _draw, print_sight
from game.cli.args import err as _err
from game.cli.args import fail


def parse_length_mm(text: str) -> float:
    """'27' (mm), '27mm', '1.1in', '1.1"', '2.7cm' -> mm (ValueError when it is not a number)."""
    t = str(text).strip().lower().replace('"', "in")
    for suffix, k in (("mm", 1.0), ("cm", 10.0), ("in", 25.4)):
        if t.endswith(suffix):
            return float(t[: -len(suffix)]) * k
    return float(t)


def _length(what: str):
    """An argparse type: a positive, finite length no longer than the largest table (100 m);
    anything else is a usage error (exit 2) naming the option's meaning."""
    import argparse
    import math

    from engine.data.maps import MAX_MM

    def parse(text: str) -> float:
        try:
            v = parse_length_mm(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a length: give mm (27) or a number with a unit (27mm, 2.7cm, 1.1in)") from None
        if not math.isfinite(v) or v <= 0:
            raise argparse.ArgumentTypeError(f"{text!r}: the {what} must be a length above zero")
        if v > MAX_MM:
            raise argparse.ArgumentTypeError(f"{text!r}: the {what} cannot be longer than 100 m")
        return v

    return parse


def add_analyze_arguments(am) -> None:
    am.add_argument("--eye", default=None, type=_length("eye height"),
                    help="observers' eye height above the ground (mm, or with a unit: 1.1in, 3cm); default 27 mm")
    am.add_argument("--grid", default="1in", type=_length("grid step"), help="observer grid spacing (default 1in)")
    am.add_argument("--control", default="3in", type=_length("control range"), help="objective control range (default 3in)")
    am.add_argument("--footprints-block", action="store_true",
                    help="the 40k reading: obscuring and ruin footprints block sight through them whatever their "
                         "height (default: they give cover and are see-through, as in our rulesets)")
    am.add_argument("--no-sight", action="store_true", help="skip the sight analysis")
    am.add_argument("--metric", choices=("ours", "carltographer"), default="ours",
                    help="carltographer: its own definitions instead of ours (visibility polygons from an integer "
                         "grid, a 6\" threat zone, 1x1\" hiding squares, a second pass at 2.2\"), figures only")


def add_analyze_parser(sub) -> None:
    am = sub.add_parser("analyze-map", help="terrain coverage, sight analysis and a drawing of a map; "
                                            "two maps: B against A")
    am.add_argument("maps", nargs="+", metavar="MAP",
                    help="a map file or the id of a shipped map; give two to compare B against A")
    am.add_argument("--json", action="store_true")
    am.add_argument("--png", help="draw the openness heatmap, lanes and objectives over the map into this PNG; "
                                  "with two maps, the difference picture")
    am.add_argument("--hiding-png", help="draw where each side can hide from the enemy's deployment zone")
    am.add_argument("--symmetry-png", help="draw the terrain with no counterpart under each symmetry")
    add_analyze_arguments(am)
    am.set_defaults(func=cmd_analyze_map)


def _basic(mapfile, table) -> dict:
    from collections import Counter

    kinds = Counter(p.kind for p in mapfile.pieces)
    return {
        "map": mapfile.id,
        "name": mapfile.name,
        "size": f"{mapfile.width:g}x{mapfile.height:g} {mapfile.unit}",
        "pieces": len(mapfile.pieces),
        "kinds": dict(sorted(kinds.items())),
        "coverage": round(table.coverage(), 4),
        "blocks_sight": sum(1 for p in mapfile.pieces if p.prop("blocks_sight")),
        "deployment_zones": len(mapfile.deployment),
        "objectives": len(mapfile.objectives),
        "evac_points": len(mapfile.evac_points),
        "suits": mapfile.suits,
    }


def _load(name: str):
    """(MapFile, None) or (None, exit code) with the reason printed. A name that is not a
    regular file (a named pipe, a device, a folder) is refused before it is opened: reading a
    FIFO would wait forever for a writer."""
    import os
    import stat

    from engine.data.errors import DataError
    from engine.data.maps import load_named_map
    from engine.paths import resolve_map

    path = resolve_map(name)
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None                          # missing: load_named_map says so with the shipped ids
    if mode is not None and not stat.S_ISREG(mode):
        what = "a folder" if stat.S_ISDIR(mode) else "a named pipe" if stat.S_ISFIFO(mode) else "not a regular file"
        _err(f"skirmish analyze-map: {path}: {what}; give a map file (JSON) or a shipped map id")
        return None, 1
    try:
        return load_named_map(name), None
    except DataError as err:
        _err(str(err))
        return None, 1


def sight_analysis(mapfile, args, table=None):
    """The ``SightAnalysis`` of ``mapfile`` for the analyze-map arguments."""
    from engine.core.tables import table_for
    from engine.table.heatmap import DEFAULT_EYE_MM
    from engine.workshop.analysis import analyse

    eye = DEFAULT_EYE_MM if args.eye is None else args.eye
    if isinstance(eye, str):          # a caller that built args by hand
        eye = parse_length_mm(eye)
    grid = parse_length_mm(args.grid) if isinstance(args.grid, str) else args.grid
    control = parse_length_mm(args.control) if isinstance(args.control, str) else args.control
    return analyse(table or table_for(mapfile), step_mm=grid, eye_mm=eye, control_mm=control,
                   footprints_block=getattr(args, "footprints_block", False))


def sight_json(analysis) -> dict:
    return analysis.metrics


def cmd_analyze_map(args) -> int:
    import json

    from engine.core.tables import table_for
    from engine.workshop.analysis import grid_shape
    from game.cli.checks import out_file_problem as _out_problem

    if len(args.maps) > 2:
        return fail("skirmish analyze-map: give one map, or two to compare (B against A)", 2)
    comparing = len(args.maps) == 2
    if comparing and (args.no_sight or args.hiding_png or args.symmetry_png):
        return fail("skirmish analyze-map: comparing two maps takes --png (the difference picture) and --json, "
                    "not --no-sight, --hiding-png or --symmetry-png: run each map alone for those", 2)
    if getattr(args, "metric", "ours") == "carltographer":
        return _carltographer(args)
    if args.no_sight and (args.hiding_png or args.symmetry_png):
        return fail("skirmish analyze-map: --hiding-png and --symmetry-png need the sight analysis (drop --no-sight)", 2)
    maps = []
    for name in args.maps:
        mf, code = _load(name)
        if mf is None:
            return code
        maps.append(mf)
    if not args.no_sight:
        for mf in maps:
            try:
                grid_shape(mf.width * mf.mm_per_unit, mf.height * mf.mm_per_unit, args.grid)
            except ValueError as err:
                return fail(f"skirmish analyze-map: --grid on {mf.id}: {err}", 2)
    if comparing and args.png:
        a, b = maps
        if (a.width * a.mm_per_unit, a.height * a.mm_per_unit) != (b.width * b.mm_per_unit, b.height * b.mm_per_unit):
            return fail("skirmish analyze-map: the difference picture needs two tables of one size "
                        f"({a.width:g}x{a.height:g} {a.unit} and {b.width:g}x{b.height:g} {b.unit}); leave out --png to compare the figures", 2)
    for out in (args.png, args.hiding_png, args.symmetry_png):
        if out:
            why = _out_problem(out)
            if why:
                return fail(f"skirmish analyze-map: {why}", 1)
    tables = [table_for(mf) for mf in maps]
    infos = [_basic(mf, t) for mf, t in zip(maps, tables)]
    sights = []
    if not args.no_sight:
        for mf, t, info in zip(maps, tables, infos):
            s = sight_analysis(mf, args, t)
            sights.append(s)
            info["sight"] = s.metrics
    if comparing:
        return _compare(args, maps, infos, sights)
    mapfile, info, table = maps[0], infos[0], tables[0]
    sight = sights[0] if sights else None
    from game.render import analysis_png as ap

    drawn = []
    if args.png:
        if sight is not None:
            code = _draw("png", args.png, lambda: ap.save_analysis_png(mapfile, sight, args.png))
        else:
            from game.render.png import save_map_png

            code = _draw("png", args.png, lambda: save_map_png(mapfile, args.png))
        if code:
            return code
        info["png"] = str(args.png)
        drawn.append(args.png)
    if args.hiding_png:
        code = _draw("hiding", args.hiding_png, lambda: ap.save_hiding_png(mapfile, sight, args.hiding_png))
        if code:
            return code
        info["hiding_png"] = str(args.hiding_png)
        drawn.append(args.hiding_png)
    if args.symmetry_png:
        from game.render.analysis_symmetry_png import save_symmetry_png

        assert sight is not None, "a picture asked for runs the sight analysis"

        code = _draw("symmetry", args.symmetry_png,
                     lambda: save_symmetry_png(mapfile, table, sight.metrics, args.symmetry_png))
        if code:
            return code
        info["symmetry_png"] = str(args.symmetry_png)
        drawn.append(args.symmetry_png)
    if args.json:
        print(json.dumps(info))
        return 0
    print(f"{info['name']} ({info['map']}): {info['size']}, {info['pieces']} pieces")
    print(f"  covered by terrain: {info['coverage'] * 100:.1f}% of the table")
    print(f"  pieces blocking sight: {info['blocks_sight']}; deployment zones {info['deployment_zones']}, "
          f"objectives {info['objectives']}, evac points {info['evac_points']}")
    print("  kinds: " + ", ".join(f"{k} {n}" for k, n in info["kinds"].items()))
    if sight is not None:
        print_sight(info["sight"], mapfile.unit)
    for d in drawn:
        print(f"  drawn to {d}")
    return 0


def _carltographer(args) -> int:
    """``--metric carltographer``: its figures for each map (text, or JSON with --json)."""
    import json

    from engine.workshop.carlto_metric import carltographer_metrics

    if args.png or args.hiding_png or args.symmetry_png or args.no_sight or args.eye is not None or args.footprints_block:
        return fail("skirmish analyze-map: --metric carltographer gives figures only, at its own heights and with its own "
                    "reading of footprints: leave out --png, --hiding-png, --symmetry-png, --no-sight, --eye and "
                    "--footprints-block", 2)
    control = parse_length_mm(args.control) if isinstance(args.control, str) else args.control
    out = []
    for name in args.maps:
        mf, code = _load(name)
        if mf is None:
            return code
        out.append({"map": mf.id, "name": mf.name, "carltographer": carltographer_metrics(mf, control_mm=control)})
    if args.json:
        print(json.dumps(out[0] if len(out) == 1 else out))
        return 0
    for row in out:
        c = row["carltographer"]
        passes = (f"average of {c['standard_in']:g}\" and {c['infantry_in']:g}\" blocking heights"
                  if "infantry_in" in c else f"blocking height {c['standard_in']:g}\"")
        print(f"{row['name']} ({row['map']}), Carltographer's definitions ({passes}, {c['observers']} observers):")
        print(f"  overall visibility {c['overall']:.2f}% of the table")
        print(f"  deployment zone hideability (from the enemy's zone + {c['threat_zone_in']:g}\"): "
              f"side 1 {c['dz_hideability']['1']:.2f}%, side 2 {c['dz_hideability']['2']:.2f}%")
        print(f"  objective hidability (a 1x1\" hidden square within {c['reach_in']:g}\"): "
              f"side 1 {c['objective_hidability']['1']:.2f}%, side 2 {c['objective_hidability']['2']:.2f}%")
    return 0
