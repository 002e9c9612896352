"""The workshop's sub-commands, hooked into ``game/cli.py``: ``experiment`` (balance by AI-vs-AI
games on dask.distributed) and the sight analysis behind ``analyze-map``."""
from __future__ import annotations

import sys


def _err(msg: str) -> None:
    print(msg, file=sys.stderr)


# --- experiment ----------------------------------------------------------------------
def add_experiment_parser(sub) -> None:
    ex = sub.add_parser("experiment", help="balance experiment: AI-vs-AI games over maps on dask.distributed")
    ex.add_argument("--ruleset", required=True)
    ex.add_argument("--maps", nargs="+", required=True, help="map files or ids of shipped maps")
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
    return shlex.join(parts + ["--resume"])


def cmd_experiment(args) -> int:
    from engine.core.errors import SetupError
    from engine.data.errors import DataError
    from engine.data.maps import load_named_map, suits_problem
    from engine.paths import resolve_map

    from game.cli_checks import ruleset_and_agents_problem

    why = ruleset_and_agents_problem("experiment", args.ruleset, (args.p1, args.p2))
    if why:
        _err(why)
        return 2
    if args.games < 1 or args.workers < 1:
        _err("skirmish experiment: --games and --workers must be at least 1")
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
    from engine.core import Game, Setup

    for m in args.maps:
        try:
            mf = load_named_map(m)
        except DataError as err:
            _err(str(err))
            return 1
        why = suits_problem(mf, args.ruleset)
        if why and not args.any_map:
            _err(f"skirmish experiment: {why}")
            return 2
        try:  # refuse a map (or rosters) the ruleset refuses before any worker starts
            Game(Setup(args.ruleset, mf, tuple(r for r in rosters if r is not None), {}, 1))
        except SetupError as err:
            _err(f"skirmish experiment: cannot set up {args.ruleset} on {m}: {err}")
            return 2
    from engine.workshop.experiment import Config, ConfigMismatch, Interrupted, map_labels, out_problem, run

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
        return 2
    cfg = Config(args.ruleset, tuple(args.maps), args.games, args.p1, args.p2, tuple(rosters), args.seed,
                 labels=labels, any_map=args.any_map)
    if cfg.planned != args.games:
        print(f"{args.games} games per map rounded up to {cfg.planned}: whole blocks of {cfg.per_block} "
              "(each roster from each zone, each agent from each seat)")
    try:
        info = run(cfg, args.out, workers=args.workers, scheduler=args.scheduler, resume=args.resume,
                   progress=not args.no_progress)
    except ConfigMismatch as err:
        _err(f"skirmish experiment: {err}")
        return 2
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
    """'27' (mm), '27mm', '1.1in', '1.1"', '2.7cm' -> mm."""
    t = str(text).strip().lower().replace('"', "in")
    for suffix, k in (("mm", 1.0), ("cm", 10.0), ("in", 25.4)):
        if t.endswith(suffix):
            return float(t[: -len(suffix)]) * k
    return float(t)


def add_analyze_arguments(am) -> None:
    am.add_argument("--eye", default=None,
                    help="observers' eye height above the ground (mm, or with a unit: 1.1in, 3cm); default 27 mm")
    am.add_argument("--grid", default="1in", help="observer grid spacing (default 1in)")
    am.add_argument("--control", default="3in", help="objective control range (default 3in)")
    am.add_argument("--no-sight", action="store_true", help="skip the sight analysis")


def sight_analysis(mapfile, args):
    """The ``SightAnalysis`` of ``mapfile`` for the analyze-map arguments."""
    from engine.core.tables import table_for
    from engine.table.heatmap import DEFAULT_EYE_MM
    from engine.workshop.analysis import analyse

    eye = DEFAULT_EYE_MM if args.eye is None else parse_length_mm(args.eye)
    return analyse(table_for(mapfile), step_mm=parse_length_mm(args.grid), eye_mm=eye,
                   control_mm=parse_length_mm(args.control))


def sight_json(analysis) -> dict:
    return analysis.metrics


def print_sight(s: dict, unit: str) -> None:
    u = '"' if unit == "in" else f" {unit}"
    f = lambda v: "–" if v is None else f"{v:.1f}%"  # noqa: E731
    print(f"  sight (eye {s['eye_mm']:g} mm, {s['observer_points']} observer points): overall line of sight "
          f"{s['overall_los_pct']:.1f}%")
    print(f"  deployment zones hideable from the enemy zone: side 1 {f(s['dz_hideability_pct']['1'])}, "
          f"side 2 {f(s['dz_hideability_pct']['2'])}; exposure side 1 {f(s['dz_exposure_pct']['1'])}, "
          f"side 2 {f(s['dz_exposure_pct']['2'])}")
    print(f"  objectives hidable in control range: side 1 {f(s['objective_hidability_pct']['1'])}, "
          f"side 2 {f(s['objective_hidability_pct']['2'])}")
    for i, ln in enumerate(s["lanes"], 1):
        print(f"  lane {i}: {ln['length']:.1f}{u} from ({ln['from'][0]:g}, {ln['from'][1]:g}) to "
              f"({ln['to'][0]:g}, {ln['to'][1]:g}){'  zone to zone' if ln['zone_to_zone'] else ''}")
