"""``skirmish experiment``: balance by AI-vs-AI games on dask.distributed (``engine/workshop/experiment.py``)."""
from __future__ import annotations

from game.cli.args import add_mission_arg, fail
from game.cli.args import err as _err


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
    ex.add_argument("--check", metavar="MANIFEST",
                    help="play a sample of a kept experiment's games again (data/experiments/**/manifest.json.gz) "
                         "and compare their final hashes (a search agent's games by their recorded answers); "
                         "exit 1 when one differs, or when they cannot be played (a historical manifest, "
                         "answers not recorded)")
    ex.add_argument("--sample", type=int, default=4, help="with --check: how many games (default 4; 0: every "
                                                          "game whose hash the manifest keeps)")
    ex.add_argument("--here", action="store_true",
                    help="with --check: play them with this code instead of the manifest's commit")
    ex.set_defaults(func=cmd_experiment)


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
    from game.cli.args import option_pairs
    from game.cli.checks import map_problem, ruleset_and_agents_problem, scheduler_and_rosters

    if args.self_test:
        from game.cli.selftest import cmd_self_test
        return cmd_self_test(args)
    if args.check:
        from game.cli.experiment_check import cmd_check
        return cmd_check(args)
    if not args.ruleset or not args.maps:
        return fail("skirmish experiment: --ruleset and --maps are required (unless --self-test)", 2)
    options, why = option_pairs(args.option, args.ruleset)
    if why:
        return fail(f"skirmish experiment: {why}", 2)

    why = ruleset_and_agents_problem("experiment", args.ruleset, (args.p1, args.p2))
    if why:
        return fail(why, 2)
    if args.games < 1 or args.workers < 1:
        return fail("skirmish experiment: --games and --workers must be at least 1", 2)
    rosters, why = scheduler_and_rosters("experiment", args.ruleset, args.scheduler, args.rosters)
    if why:
        return fail(why, 2)
    if args.label is not None and len(args.label) != len(args.maps):
        return fail(f"skirmish experiment: --label gives {len(args.label)} names for {len(args.maps)} maps (one per map)", 2)
    seen: dict = {}
    for m in args.maps:
        key = resolve_map(m).resolve()
        if key in seen:
            return fail(f"skirmish experiment: {m} and {seen[key]} are the same map file; give each map once", 2)
        seen[key] = m
    for m in args.maps:
        try:
            mf = load_named_map(m)
        except DataError as err:
            return fail(str(err), 1)
        why = map_problem("experiment", args.ruleset, mf, m, rosters, args.any_map, options)
        if why:
            return fail(why, 2)
    from engine.workshop.experiment import (
        Config,
        ConfigMismatch,
        Interrupted,
        SchedulerError,
        map_labels,
        out_problem,
        run,
    )

    labels = tuple(args.label) if args.label else map_labels(args.maps)
    if len(set(labels)) != len(labels):
        return fail(f"skirmish experiment: two maps would share a label ({', '.join(labels)}); give --label", 2)
    try:
        import distributed  # noqa: F401
    except ImportError:
        return fail("skirmish experiment needs dask.distributed: pip install 'skirmish[workshop]'", 2)
    why = out_problem(args.out)
    if why:
        return fail(f"skirmish experiment: --out: {why}", 1)
    assert rosters is not None         # rosters_arg gives the ruleset's pair when --rosters is not given
    cfg = Config(args.ruleset, tuple(args.maps), args.games, args.p1, args.p2, tuple(rosters), args.seed,
                 labels=labels, any_map=args.any_map, options=tuple(sorted(options.items())))
    if cfg.planned != args.games:
        print(f"{args.games} games per map rounded up to {cfg.planned}: whole blocks of {cfg.per_block} "
              "(each roster from each zone, each agent from each seat)")
    try:
        info = run(cfg, args.out, workers=args.workers, scheduler=args.scheduler, resume=args.resume,
                   progress=not args.no_progress)
    except ConfigMismatch as err:
        return fail(f"skirmish experiment: {err}", 2)
    except SchedulerError as err:
        return fail(f"skirmish experiment: --scheduler: {err} (games already in {args.out} are kept)", 2)
    except DataError as err:        # a damaged folder to resume: refused as it is, nothing rewritten
        _err(str(err))
        return fail(f"skirmish experiment: cannot resume {args.out}: the games already played are left as they are", 1)
    except OSError as err:
        return fail(f"skirmish experiment: cannot read or write in {args.out}: {err.strerror or err}", 1)
    except Interrupted as stop:
        return fail(f"\nskirmish experiment: interrupted; {stop.saved} of {stop.total} games are saved in "
                    f"{args.out}/games.jsonl. To finish, run:\n  {_resume_command(args)}", 130)
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
