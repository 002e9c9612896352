"""``skirmish experiment --self-test``: the fairness self-test's command line
(``engine/workshop/selftest.py``)."""
from __future__ import annotations

from game.cli.args import fail

EXIT_BIAS = 3     # the self-test ran and found a symmetric table that favours a zone


def cmd_self_test(args) -> int:
    from engine.data.errors import DataError
    from engine.data.maps import load_named_map
    from engine.workshop.experiment import Interrupted, out_problem
    from engine.workshop.selftest import RULESETS, run_selftest

    rulesets = (args.ruleset,) if args.ruleset else RULESETS
    if any(r not in RULESETS for r in rulesets):
        return fail(f"skirmish experiment --self-test: unknown ruleset {args.ruleset!r} (one of {', '.join(RULESETS)})", 2)
    if args.games < 1 or args.workers < 1 or not 1 <= args.tables <= 20:
        return fail("skirmish experiment --self-test: --games and --workers must be at least 1, --tables 1 to 20", 2)
    if args.p1 != "easy" or args.p2 != "easy" or args.rosters or args.option:
        return fail("skirmish experiment --self-test plays easy v easy with the default forces: leave out "
                    "--p1, --p2, --rosters and --option", 2)
    extra = {}
    for m in args.maps or ():
        try:
            extra[load_named_map(m).id] = load_named_map(m)
        except DataError as err:
            return fail(str(err), 1)
    out = args.out if args.out != "experiment" else "self-test"
    why = out_problem(out)
    if why:
        return fail(f"skirmish experiment --self-test: --out: {why}", 2)
    try:
        import distributed  # noqa: F401
    except ImportError:
        return fail("skirmish experiment needs dask.distributed: pip install 'skirmish[workshop]'", 2)
    try:
        results = run_selftest(out, rulesets, tuple(args.deployment or ("automatic", "alternate")), args.games,
                               args.seed, args.workers, args.scheduler, extra, progress=not args.no_progress,
                               tables_per_ruleset=args.tables)
    except ValueError as err:
        return fail(f"skirmish experiment --self-test: {err}", 2)
    except Interrupted as it:
        return fail(f"interrupted: {it.saved} of {it.total} games saved in {out}; run the same command to go on", 130)
    bad = [r for r in results if not r.holds_half or r.errors]
    for r in results:
        iv = ("–" if r.fam_low is None or r.fam_high is None or r.share is None else
              f"{100 * r.share:.0f}% [{100 * r.fam_low:.0f}–{100 * r.fam_high:.0f}] family-wise")
        print(f"  {r.ruleset:12} {r.mode:10} {r.table:22} zone 1 {iv}  {'ok' if r.holds_half else 'BIASED'}"
              + (f"  errors {r.errors}" if r.errors else ""))
    print(f"{'FAIL' if bad else 'PASS'}: report in {out}/report.md")
    return EXIT_BIAS if bad else 0
