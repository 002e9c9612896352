"""The workshop's sub-commands, hooked into ``game/cli.py``: ``experiment`` (balance by AI-vs-AI
games on dask.distributed) and the sight analysis behind ``analyze-map``."""
from __future__ import annotations

from game.cli_args import add_mission_arg, err as _err


# --- experiment ----------------------------------------------------------------------
def add_experiment_parser(sub) -> None:
    ex = sub.add_parser("experiment", help="balance experiment: AI-vs-AI games over maps on dask.distributed")
    ex.add_argument("--ruleset", help="the ruleset (required, but with --self-test: all three by default)")
    ex.add_argument("--maps", nargs="+", help="map files or ids of shipped maps (with --self-test: extra maps, "
                                              "each exactly symmetric)")
    ex.add_argument("--label", nargs="+", default=None, metavar="NAME",
                    help="one name per map for the report (default: the map's id or file name; "
                         "maps whose file names collide are named by their path)")
    ex.add_argument("--games", type=int, default=100,
                    help="games per map, rounded up to whole seed blocks (the crossed design)")
    ex.add_argument("--p1", default="easy", help="agent A (crossed over the seats unless equal to --p2)")
    ex.add_argument("--p2", default="easy", help="agent B")
    ex.add_argument("--rosters", help="two roster ids A,B as the launcher lists them (default: the ruleset's "
                                      "own pair); crossed over the zones unless equal")
    ex.add_argument("--seed", type=int, default=1)
    ex.add_argument("--out", default="experiment", help="folder for games.jsonl, summary.csv/json, report.md, plots")
    ex.add_argument("--workers", type=int, default=2, help="local dask workers (one process and one thread each)")
    ex.add_argument("--scheduler", help="address of a running dask scheduler (e.g. tcp://127.0.0.1:8786) instead of a local cluster")
    ex.add_argument("--resume", action="store_true",
                    help="continue the experiment in --out, playing only missing games (--games may grow)")
    ex.add_argument("--any-map", action="store_true", help="use maps whose 'suits' leaves out the ruleset")
    ex.add_argument("--no-progress", action="store_true", help="no progress bar")
    ex.add_argument("--option", action="append", metavar="KEY=VALUE",
                    help="a ruleset option for every game (repeatable), e.g. --option deployment=automatic")
    add_mission_arg(ex)
    ex.add_argument("--self-test", action="store_true",
                    help="the fairness self-test: easy v easy on exactly symmetric tables, each deployment mode; "
                         "every table's effect must hold 50%% (docs/workshop.md); exit 3 when one does not")
    ex.add_argument("--deployment", nargs="+", choices=("automatic", "alternate", "groups", "hidden"),
                    default=None, help="with --self-test: the deployment modes to test (default automatic alternate)")
    ex.add_argument("--tables", type=int, default=3, help="with --self-test: tables per ruleset (default 3)")
    ex.set_defaults(func=cmd_experiment)


def rosters_arg(command: str, ruleset: str, text: str | None) -> tuple[tuple | None, str | None]:
    """(rosters, problem): ``--rosters A,B`` checked against the ruleset's roster ids; the
    ruleset's default pair when not given."""
    from engine.simulate import default_rosters, roster_problem

    if text is None:
        return default_rosters(ruleset), None
    ids = tuple(x.strip() for x in text.split(","))
    why = roster_problem(ruleset, ids)
    return (None, f"skirmish {command}: --rosters: {why}") if why else (ids, None)


def _resume_command(args) -> str:
    import shlex

    parts = ["skirmish", "experiment", "--ruleset", args.ruleset, "--maps", *args.maps]
    if args.label:
        parts += ["--label", *args.label]
    parts += ["--games", str(args.games), "--p1", args.p1, "--p2", args.p2]
    if args.rosters:
        parts += ["--rosters", args.rosters]
    parts += ["--seed", str(args.seed), "--out", str(args.out), "--workers", str(args.workers)]
    if args.scheduler:
        parts += ["--scheduler", args.scheduler]
    if args.any_map:
        parts.append("--any-map")
    for o in args.option or ():
        parts += ["--option", o]
    return shlex.join(parts + ["--resume"])


def cmd_experiment(args) -> int:
    from engine.data.errors import DataError
    from engine.data.maps import load_named_map
    from engine.paths import resolve_map

    from game.cli_args import option_pairs
    from game.cli_checks import map_problem, ruleset_and_agents_problem

    if args.self_test:
        from game.selftest_cli import cmd_self_test
        return cmd_self_test(args)
    if not args.ruleset or not args.maps:
        _err("skirmish experiment: --ruleset and --maps are required (unless --self-test)")
        return 2
    options, why = option_pairs(args.option)
    if why:
        _err(f"skirmish experiment: {why}")
        return 2

    why = ruleset_and_agents_problem("experiment", args.ruleset, (args.p1, args.p2))
    if why:
        _err(why)
        return 2
    if args.games < 1 or args.workers < 1:
        _err("skirmish experiment: --games and --workers must be at least 1")
        return 2
    if args.scheduler:
        from engine.workshop.experiment import scheduler_problem

        why = scheduler_problem(args.scheduler)
        if why:
            _err(f"skirmish experiment: --scheduler: {why}")
            return 2
    rosters, why = rosters_arg("experiment", args.ruleset, args.rosters)
    if why:
        _err(why)
        return 2
    if args.label is not None and len(args.label) != len(args.maps):
        _err(f"skirmish experiment: --label gives {len(args.label)} names for {len(args.maps)} maps (one per map)")
        return 2
    seen: dict = {}
    for m in args.maps:
        key = resolve_map(m).resolve()
        if key in seen:
            _err(f"skirmish experiment: {m} and {seen[key]} are the same map file; give each map once")
            return 2
        seen[key] = m
    for m in args.maps:
        try:
            mf = load_named_map(m)
        except DataError as err:
            _err(str(err))
            return 1
        why = map_problem("experiment", args.ruleset, mf, m, rosters, args.any_map, options)
        if why:
            _err(why)
            return 2
    from engine.workshop.experiment import (Config, ConfigMismatch, Interrupted, SchedulerError, map_labels,
                                            out_problem, run)

    labels = tuple(args.label) if args.label else map_labels(args.maps)
    if len(set(labels)) != len(labels):
        _err(f"skirmish experiment: two maps would share a label ({', '.join(labels)}); give --label")
        return 2
    try:
        import distributed  # noqa: F401
    except ImportError:
        _err("skirmish experiment needs dask.distributed: pip install 'skirmish[workshop]'")
        return 2
    why = out_problem(args.out)
    if why:
        _err(f"skirmish experiment: --out: {why}")
        return 1
    cfg = Config(args.ruleset, tuple(args.maps), args.games, args.p1, args.p2, tuple(rosters), args.seed,
                 labels=labels, any_map=args.any_map, options=tuple(sorted(options.items())))
    if cfg.planned != args.games:
        print(f"{args.games} games per map rounded up to {cfg.planned}: whole blocks of {cfg.per_block} "
              "(each roster from each zone, each agent from each seat)")
    try:
        info = run(cfg, args.out, workers=args.workers, scheduler=args.scheduler, resume=args.resume,
                   progress=not args.no_progress)
    except ConfigMismatch as err:
        _err(f"skirmish experiment: {err}")
        return 2
    except SchedulerError as err:
        _err(f"skirmish experiment: --scheduler: {err} (games already in {args.out} are kept)")
        return 2
    except DataError as err:        # a damaged folder to resume: refused as it is, nothing rewritten
        _err(str(err))
        _err(f"skirmish experiment: cannot resume {args.out}: the games already played are left as they are")
        return 1
    except OSError as err:
        _err(f"skirmish experiment: cannot read or write in {args.out}: {err.strerror or err}")
        return 1
    except Interrupted as stop:
        _err(f"\nskirmish experiment: interrupted; {stop.saved} of {stop.total} games are saved in "
             f"{args.out}/games.jsonl. To finish, run:\n  {_resume_command(args)}")
        return 130
    from engine.workshop.stats import ranked, summarize

    summary = summarize(info.records, cfg)
    print(f"{info.played} games played ({info.skipped} already done) on {info.workers} worker processes, "
          f"{info.threads} threads, in {info.seconds:.1f} s; results in {args.out}/")
    from engine.workshop.stats import pct

    for s in ranked(summary):
        bits = [f"table: zone 1 wins {pct(s['table'])} ({s['verdict']})"]
        if s["roster"]:
            bits.append(f"roster {s['rosters'][0]} wins {pct(s['roster'])}")
        if s["agent"]:
            bits.append(f"agent {s['agents'][0]} wins {pct(s['agent'])}")
        if s["first_player"]:
            bits.append(f"first player wins {pct(s['first_player'])}")
        bits.append(f"draws {pct(s['draw'])}")
        print(f"  {s['map']}: " + ", ".join(bits) + (f", {s['errors']} errors" if s["errors"] else ""))
    return 1 if any(s["errors"] for s in summary.values()) else 0


# --- analyze-map: the sight analysis ------------------------------------------------
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


def _draw(what: str, path: str, fn) -> int:
    """Run a drawing; 0, or 1 with the reason when the file cannot be written."""
    try:
        fn()
    except OSError as err:
        _err(f"skirmish analyze-map: cannot write {path}: {err}")
        return 1
    except Exception as err:  # pygame.error: it cannot save there
        if type(err).__name__ != "error":
            raise
        _err(f"skirmish analyze-map: cannot write {path}: {err}")
        return 1
    return 0


def cmd_analyze_map(args) -> int:
    import json

    from engine.core.tables import table_for
    from engine.workshop.analysis import grid_shape

    from game.cli_checks import out_file_problem as _out_problem

    if len(args.maps) > 2:
        _err("skirmish analyze-map: give one map, or two to compare (B against A)")
        return 2
    comparing = len(args.maps) == 2
    if comparing and (args.no_sight or args.hiding_png or args.symmetry_png):
        _err("skirmish analyze-map: comparing two maps takes --png (the difference picture) and --json, "
             "not --no-sight, --hiding-png or --symmetry-png: run each map alone for those")
        return 2
    if getattr(args, "metric", "ours") == "carltographer":
        return _carltographer(args)
    if args.no_sight and (args.hiding_png or args.symmetry_png):
        _err("skirmish analyze-map: --hiding-png and --symmetry-png need the sight analysis (drop --no-sight)")
        return 2
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
                _err(f"skirmish analyze-map: --grid on {mf.id}: {err}")
                return 2
    if comparing and args.png:
        a, b = maps
        if (a.width * a.mm_per_unit, a.height * a.mm_per_unit) != (b.width * b.mm_per_unit, b.height * b.mm_per_unit):
            _err("skirmish analyze-map: the difference picture needs two tables of one size "
                 f"({a.width:g}x{a.height:g} {a.unit} and {b.width:g}x{b.height:g} {b.unit}); leave out --png to compare the figures")
            return 2
    for out in (args.png, args.hiding_png, args.symmetry_png):
        if out:
            why = _out_problem(out)
            if why:
                _err(f"skirmish analyze-map: {why}")
                return 1
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
        code = _draw("symmetry", args.symmetry_png,
                     lambda: ap.save_symmetry_png(mapfile, table, sight.metrics, args.symmetry_png))
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
        _err("skirmish analyze-map: --metric carltographer gives figures only, at its own heights and with its own "
             "reading of footprints: leave out --png, --hiding-png, --symmetry-png, --no-sight, --eye and "
             "--footprints-block")
        return 2
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


def _compare(args, maps, infos, sights) -> int:
    import json

    a, b = maps
    if not sights:
        _err("skirmish analyze-map: comparing needs the sight analysis")
        return 2
    from engine.workshop.compare import compare

    cmp = compare(*sights, map_a=a, map_b=b)
    if args.png:
        from game.render.analysis_png import save_compare_png

        code = _draw("compare", args.png, lambda: save_compare_png(a, b, sights[0], sights[1], cmp, args.png))
        if code:
            return code
    if args.json:
        print(json.dumps({"a": infos[0], "b": infos[1], "comparison": cmp, **({"png": str(args.png)} if args.png else {})}))
        return 0
    from game.render.analysis_png import FIGURE_LABELS

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
