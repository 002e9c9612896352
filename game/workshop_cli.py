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
    ex.add_argument("--games", type=int, default=100, help="games per map (seats swapped halfway)")
    ex.add_argument("--p1", default="easy")
    ex.add_argument("--p2", default="easy")
    ex.add_argument("--seed", type=int, default=1)
    ex.add_argument("--out", default="experiment", help="folder for games.jsonl, summary.csv/json, report.md, plots")
    ex.add_argument("--workers", type=int, default=2, help="local dask workers (one process each)")
    ex.add_argument("--scheduler", help="address of a running dask scheduler (e.g. tcp://127.0.0.1:8786) instead of a local cluster")
    ex.add_argument("--resume", action="store_true", help="continue the experiment in --out, playing only missing games")
    ex.add_argument("--no-progress", action="store_true", help="no progress bar")
    ex.set_defaults(func=cmd_experiment)


def cmd_experiment(args) -> int:
    from engine.core.errors import SetupError
    from engine.data.errors import DataError
    from engine.data.maps import load_map
    from engine.paths import resolve_map

    from game.cli_checks import ruleset_and_agents_problem

    why = ruleset_and_agents_problem("experiment", args.ruleset, (args.p1, args.p2))
    if why:
        _err(why)
        return 2
    if args.games < 1 or args.workers < 1:
        _err("skirmish experiment: --games and --workers must be at least 1")
        return 2
    maps = []
    for m in args.maps:
        try:
            mf = load_map(resolve_map(m))
        except (DataError, FileNotFoundError) as err:
            _err(str(err))
            return 1
        try:  # refuse a map the ruleset refuses before any worker starts
            from engine.core import Game, Setup

            Game(Setup(args.ruleset, mf, (), {}, 1))
        except SetupError as err:
            _err(f"skirmish experiment: cannot set up {args.ruleset} on {m}: {err}")
            return 2
        maps.append(m)
    try:
        import distributed  # noqa: F401
    except ImportError:
        _err("skirmish experiment needs dask.distributed: pip install 'skirmish[workshop]'")
        return 2
    from engine.workshop.experiment import Config, ConfigMismatch, run
    from engine.workshop.stats import pct, ranked

    cfg = Config(args.ruleset, tuple(maps), args.games, args.p1, args.p2, args.seed)
    try:
        info = run(cfg, args.out, workers=args.workers, scheduler=args.scheduler, resume=args.resume,
                   progress=not args.no_progress)
    except ConfigMismatch as err:
        _err(f"skirmish experiment: {err}")
        return 2
    from engine.workshop.stats import summarize

    summary = summarize(info.records)
    print(f"{info.played} games played ({info.skipped} already done) on {info.workers} workers in "
          f"{info.seconds:.1f} s; results in {args.out}/")
    for s in ranked(summary):
        print(f"  {s['map']}: seat 1 wins {pct(s['side1_win_of_decisive'])}, first player wins "
              f"{pct(s['first_player_win_of_decisive'])}, draws {pct(s['draw'])}, mean turns {s['mean_turns']}"
              + (f", {s['errors']} errors" if s["errors"] else ""))
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
