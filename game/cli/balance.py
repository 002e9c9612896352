"""``skirmish balance``: change a layout until simulated games say the table is fair
(``engine/workshop/balance.py``), with before/after reports, the changes and the history."""
from __future__ import annotations

import math
import shlex
import sys
from pathlib import Path

from game.cli.args import bounded_float, fail
from game.cli.args import err as _err

_minutes = bounded_float(0, 100_000, "a number of minutes", "minutes from 0 to 100,000")


def add_balance_parser(sub) -> None:
    from game.cli.args import bounded_int as _bounded_int

    b = sub.add_parser("balance", help="change a layout's unlocked pieces until AI-v-AI games say the table is fair "
                                       "(paired experiments, a confirmation on fresh seeds)")
    b.add_argument("--ruleset", required=True)
    b.add_argument("--map", required=True, help="the start map: a file or a shipped map's id")
    b.add_argument("--rosters", help="two roster ids A,B (default: the ruleset's default pair)")
    b.add_argument("--agents", default="easy", help="the agent of both seats, or two: A,B (default easy)")
    b.add_argument("--budget", type=_minutes, default=30.0, metavar="MIN",
                   help="minutes of search (wall time); the confirmation comes after (default 30)")
    b.add_argument("--out", default="balanced", help="folder for the map, reports, changes and history")
    b.add_argument("--seed", type=int, default=1, help="the search's experiment seed")
    b.add_argument("--workers", type=_bounded_int(1, 64, "a number of workers"), default=1)
    b.add_argument("--scheduler", default=None, help="address of a running dask scheduler")
    b.add_argument("--resume", action="store_true", help="continue the run in --out after an interruption")
    b.add_argument("--confirm", type=_bounded_int(400, 1_000_000, "a number of confirmation games"), default=800,
                   metavar="GAMES", help="games of the confirmation on fresh seeds (at least 400; default 800)")
    b.add_argument("--search-games", type=_bounded_int(8, 100_000, "games per candidate"), default=200,
                   help="games per candidate on the search seeds (default 200)")
    b.add_argument("--check-games", type=_bounded_int(8, 1_000_000, "games of a stop check"), default=600,
                   help="games of the stop check on the search seeds (default 600)")
    b.add_argument("--tests", type=_bounded_int(1, 16, "candidates played per step"), default=3,
                   help="candidates played against the current map each step (default 3)")
    b.add_argument("--proposals", type=_bounded_int(1, 500, "proposals screened per step"), default=24,
                   help="changes proposed and screened by the sight figures each step (default 24)")
    b.add_argument("--keep-rule", choices=("sprt", "z"), default="sprt",
                   help="sprt (default): keep a change when Wald's sequential test on the paired games says it "
                        "helps, at --alpha false keeps a step; z: the old rule, a gain of --keep-z standard errors")
    b.add_argument("--alpha", type=bounded_float(0.001, 0.5, "a probability", "a false-keep rate from 0.001 to 0.5"), default=0.05,
                   help="the sequential test's false-keep rate per step (default 0.05)")
    b.add_argument("--max-games", type=_bounded_int(0, 1_000_000, "games a candidate"), default=0,
                   help="most games a candidate under the sequential test (default 3 x --search-games)")
    b.add_argument("--keep-z", type=float, default=1.0, metavar="Z",
                   help="with --keep-rule z: keep a candidate when its paired gain toward 50%% is at least Z "
                        "standard errors (default 1; may change on --resume until the confirmation)")
    b.add_argument("--max-steps", type=_bounded_int(0, 10_000, "a number of steps"), default=40,
                   help="steps of search at most, whatever the budget (default 40)")
    b.add_argument("--max-hide-diff", type=bounded_float(0, 100, "points", "from 0 to 100 points"), default=10.0,
                   help="no candidate may take the sides' zone-hideability difference past this (nor past the "
                        "current map's): a sight constraint beside the played share (default 10)")
    b.add_argument("--max-obj-diff", type=bounded_float(0, 100, "points", "from 0 to 100 points"), default=0.0,
                   help="the same for the sides' objective access: the share of objectives each can hold unseen "
                        "(default 0: no candidate may make it less equal)")
    b.add_argument("--confirm2", default=None, metavar="agents=A[,B]|rosters=A,B",
                   help="a second confirmation on the same fresh seeds with a stronger agent or another pairing of "
                        "forces, reported beside the first")
    b.add_argument("--any-map", action="store_true", help="balance a map whose 'suits' leaves out the ruleset")
    b.add_argument("--no-pictures", action="store_true", help="no map pictures")
    b.set_defaults(func=cmd_balance)


def _resume_command(argv: list[str]) -> str:
    parts = ["skirmish"] + [a for a in argv if a != "--resume"]
    return shlex.join(parts + ["--resume"])


def cmd_balance(args) -> int:
    from engine.data.errors import DataError
    from engine.data.maps import load_named_map
    from engine.workshop import balance as B
    from game.cli.checks import map_problem, ruleset_and_agents_problem, scheduler_and_rosters

    agents = tuple(a.strip() for a in args.agents.split(","))
    if len(agents) == 1:
        agents = agents * 2
    if len(agents) != 2 or not all(agents):
        return fail("skirmish balance: --agents is one agent or two, A,B", 2)
    why = ruleset_and_agents_problem("balance", args.ruleset, agents)
    if why:
        return fail(why, 2)
    rosters, why = scheduler_and_rosters("balance", args.ruleset, args.scheduler, args.rosters)
    if why or rosters is None:
        return fail(why or "skirmish balance: --rosters: no pair", 2)
    try:
        start = load_named_map(args.map)
    except DataError as err:
        from engine.paths import resolve_map

        _err(str(err))
        return 1 if resolve_map(args.map).exists() else 2     # a file refused; an unknown map is bad usage
    why = map_problem("balance", args.ruleset, start, args.map, rosters, args.any_map)
    if why:
        return fail(why, 2)
    try:
        import distributed  # noqa: F401
    except ImportError:
        return fail("skirmish balance needs dask.distributed: pip install 'skirmish[workshop]'", 2)
    from engine.workshop.experiment import out_problem

    out = Path(args.out)
    why = out_problem(out)          # first: --out may be a file, not a folder
    if why:
        return fail(f"skirmish balance: --out: {why}", 1)
    if not args.resume and any(out.iterdir()):
        return fail(f"skirmish balance: --out {out} is not empty: pass --resume to continue a run there, or choose another", 2)
    if not (math.isfinite(args.keep_z) and 0 <= args.keep_z <= 10):
        return fail("skirmish balance: --keep-z is a number of standard errors from 0 to 10", 2)
    if args.confirm2 is not None:
        key, _, val = args.confirm2.partition("=")
        vals = [v.strip() for v in val.split(",") if v.strip()]
        why = None
        if key == "agents" and 1 <= len(vals) <= 2:
            from game.cli.checks import ruleset_and_agents_problem

            why = ruleset_and_agents_problem("balance", args.ruleset, tuple(vals))
        elif key == "rosters" and len(vals) == 2:
            from game.cli.checks import rosters_arg

            _, why = rosters_arg("balance", args.ruleset, ",".join(vals))
        else:
            why = f"skirmish balance: --confirm2 {args.confirm2!r}: write agents=A[,B] or rosters=A,B"
        if why:
            return fail(why, 2)
    s = B.Settings(args.ruleset, args.map, tuple(rosters), agents, args.seed, args.budget, args.search_games,
                   args.check_games, args.confirm, args.proposals, args.tests, keep_z=args.keep_z,
                   keep_rule=args.keep_rule, alpha=args.alpha, max_games=args.max_games, max_steps=args.max_steps, hide_diff_max=args.max_hide_diff, obj_diff_max=args.max_obj_diff,
                   confirm2=args.confirm2)
    print(f"balancing {start.name} for {args.ruleset}: {' v '.join(agents)}, {args.search_games} games a candidate, "
          f"{args.tests} candidates a step, budget {args.budget:g} min, then {args.confirm} games on fresh seeds; "
          + (f"on {args.scheduler}" if args.scheduler else f"{args.workers} local worker{'s' * (args.workers > 1)}"),
          flush=True)
    from engine.workshop.experiment import ConfigMismatch, Interrupted, SchedulerError

    try:
        outcome = B.run(s, start, out, B.real_play(args.workers, args.scheduler), resume=args.resume,
                        say=lambda line: print(line, flush=True))
    except (B.BalanceError, ConfigMismatch) as err:
        return fail(f"skirmish balance: {err}", 2)
    except SchedulerError as err:
        return fail(f"skirmish balance: --scheduler: {err} (every finished game and step is saved in {out})", 2)
    except (Interrupted, KeyboardInterrupt):
        return fail(f"\nskirmish balance: interrupted; every finished game and step is saved in {out}. To continue, run:\n  "
                    f"{_resume_command(sys.argv[1:])}", 130)
    except DataError as err:        # a damaged state or experiment to resume: refused as it is
        _err(str(err))
        return fail(f"skirmish balance: cannot resume {out}: the games already played are left as they are", 1)
    except OSError as err:
        return fail(f"skirmish balance: cannot read or write in {out}: {err.strerror or err}"
                    + (f" ({err.filename})" if getattr(err, "filename", None) else ""), 1)
    from engine.workshop.balance_report import balanced_map, write_outputs

    try:
        if not args.no_pictures:
            _pictures(outcome.start, balanced_map(outcome), out)
        files = write_outputs(out, outcome)
    except OSError as err:
        return fail(f"skirmish balance: cannot write the results in {out}: {err.strerror or err}"
                    + (f" ({err.filename})" if getattr(err, "filename", None) else ""), 1)
    st = outcome.state
    if st.get("after"):
        print(f"verdict: {st.get('verdict')}: zone 1 wins {B._pct(st['after'])} over {st['after']['games']} decisive "
              f"games on fresh seeds ({' v '.join(s.agents)}; balanced only inside 45-55%)")
    print(f"before: table {B._pct(st.get('before'))}; after (confirmation, fresh seeds): table {B._pct(st.get('after'))}"
          + (f"; second pairing: table {B._pct(st.get('after2'))}" if st.get("after2") else "")
          + f"; {len(st['changes'])} changes kept in {st['step']} steps (stopped: {st['stopped']})")
    sb, sa = st.get("sight_before") or {}, st.get("sight_after") or {}
    print(f"  sight: hide difference {sb.get('hide_diff')} -> {sa.get('hide_diff')}, objective-access difference "
          f"{sb.get('obj_diff')} -> {sa.get('obj_diff')} (limits {args.max_hide_diff:g}, {args.max_obj_diff:g}; coarse grid)")
    fb, fa = sb.get("full") or {}, sa.get("full") or {}
    if fa:
        print(f"  on the 1\" grid of analyze-map: hide difference {fb.get('hide_diff')} -> {fa.get('hide_diff')}, "
              f"objective-access difference {fb.get('obj_diff')} -> {fa.get('obj_diff')}: limits "
              + ("met" if not sa.get("limits_broken") else "NOT met (" + "; ".join(sa["limits_broken"]) + ")"))
    print("  written: " + ", ".join(str(p) for p in files.values()))
    return 0


def _pictures(start, final, out: Path) -> None:
    from engine.core.tables import table_for
    from engine.workshop.analysis import analyse
    from game.render import analysis_png as ap

    for m, name in ((start, "before.png"), (final, "after.png")):
        ap.save_analysis_png(m, analyse(table_for(m)), out / name)
