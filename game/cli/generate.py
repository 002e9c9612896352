"""``skirmish generate``: a layout made to order (``engine/workshop/generate.py``), written with its
analysis, the pictures and the search's history."""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

from game.cli.args import bounded_float, fail
from game.cli.args import err as _err


def _size(text: str) -> tuple[float, float]:
    try:
        w, h = (float(x) for x in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a table size: write WIDTHxDEPTH, e.g. 60x44") from None
    if not all(math.isfinite(v) and 0 < v <= 10_000 for v in (w, h)):
        raise argparse.ArgumentTypeError(f"{text!r}: both sides above 0 and at most 10,000 map units")
    return w, h


def _target(text: str):
    from engine.workshop.targets import parse_target

    try:
        return parse_target(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _use(text: str):
    """TEMPLATE=MIN-MAX, TEMPLATE=MAX or TEMPLATE (0 to 4)."""
    from engine.workshop.generate import Entry

    name, _, counts = text.partition("=")
    name = name.strip()
    if not name:
        raise argparse.ArgumentTypeError(f"{text!r}: write TEMPLATE=MIN-MAX (e.g. forest=1-3)")
    lo, hi = 0, 4
    try:
        if counts:
            a, sep, b = counts.partition("-")
            lo, hi = (int(a), int(b)) if sep else (0, int(a))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: the counts are whole numbers, MIN-MAX or MAX") from None
    if not (0 <= lo <= hi <= 100):
        raise argparse.ArgumentTypeError(f"{text!r}: counts need 0 <= MIN <= MAX <= 100")
    return Entry(name, lo, hi)


_gap = bounded_float(0, 1000, "a length in the map's unit", "a gap is from 0 to 1000 map units")
MIN_SIDE_MM = 6 * 25.4      # a side of a table to generate on: room for a template and its edge gaps
DEFAULT_CPU_LIMIT = 60.0    # seconds of CPU a search may spend (issue 62: a default run never runs on and on)


def add_generate_parser(sub) -> None:
    from game.cli.args import bounded_int as _bounded_int

    g = sub.add_parser("generate", help="a layout made to order: catalog, mission, symmetry, locked pieces, "
                                        "sight targets (a search over the editor's edits)")
    g.add_argument("--size", type=_size, default=None, help="table WIDTHxDEPTH in --unit (default 60x44, or --locked's)")
    g.add_argument("--unit", choices=("in", "cm", "mm"), default=None, help="the map's unit (default in, or --locked's)")
    g.add_argument("--mission", default=None,
                   help="a mission of the catalog: its zones and objectives (default short-edges, or --locked's)")
    g.add_argument("--symmetry", default="mirror", choices=("none", "mirror", "mirror_x", "mirror_y", "point"),
                   help="mirror (the default: the mirror that swaps the zones, so both sides get the same table), "
                        "mirror_x, mirror_y, point (180-degree turn) or none")
    g.add_argument("--use", type=_use, action="append", default=None, metavar="TEMPLATE=MIN-MAX",
                   help="a catalog template and how many of it (repeat; default: the shipped templates)")
    g.add_argument("--in-zones", action="append", default=[], metavar="TEMPLATE",
                   help="a template whose pieces may stand in a deployment zone (repeat; default with the "
                        "default catalog: crate-pile, ruin-corner-low, container, fence-run)")
    g.add_argument("--locked", default=None, metavar="MAP",
                   help="keep the locked pieces of this map (and its size, unit, zones and objectives unless given)")
    g.add_argument("--target", type=_target, action="append", default=None, metavar="NAME=V",
                   help="a sight target: los, hide, hide_diff, objectives, obj_diff, obj_held, lane, lane_share, "
                        "longest, cover, zone_cover; =, <= or >=, optional +-TOL and *WEIGHT (repeat; default "
                        "los=30, hide_diff<=5, obj_diff<=0, obj_held>=1, lane_share<=100, cover=24+-4, zone_cover>=5)")
    g.add_argument("--piece-gap", type=_gap, default=None, help="gap between pieces of different groups, map units (default 2\")")
    g.add_argument("--edge-gap", type=_gap, default=None, help="gap between a piece and the table's edge (default 1\")")
    g.add_argument("--ruleset", default=None, help="reachability for this ruleset's smallest base (default a 25 mm base)")
    g.add_argument("--base", type=float, default=None, help="reachability for a base of this diameter, mm")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--chains", type=_bounded_int(1, 32, "a number of chains"), default=4)
    g.add_argument("--rounds", type=_bounded_int(1, 100_000, "a number of rounds"), default=60)
    g.add_argument("--steps", type=_bounded_int(1, 100_000, "moves per chain and round"), default=20)
    g.add_argument("--time-limit",
                   type=bounded_float(0, 10_000_000, "a number of seconds", "seconds from 0 to 10,000,000"),
                   default=None, help="stop after this many seconds (the result then depends on the machine's speed)")
    g.add_argument("--cpu-limit",
                   type=bounded_float(0, 10_000_000, "a number of seconds", "seconds from 0 to 10,000,000"),
                   default=DEFAULT_CPU_LIMIT,
                   help=f"stop when the search has used this much CPU (default {DEFAULT_CPU_LIMIT:g} s; 0: no limit), "
                        "saying which target it could not meet and why; a run it stops depends on the machine's speed")
    g.add_argument("--workers", type=_bounded_int(1, 64, "a number of workers"), default=1,
                   help="1: the chains run in this process; more: a local dask cluster")
    g.add_argument("--scheduler", default=None, help="address of a running dask scheduler (the chains run there)")
    g.add_argument("--id", default=None, help="the map's id (default generated-SEED)")
    g.add_argument("--name", default=None, help="the map's name")
    g.add_argument("--out", default="generated", help="folder for the map, analysis, pictures and history")
    g.add_argument("--no-pictures", action="store_true", help="no PNGs (the map, analysis and history only)")
    g.add_argument("--quiet", action="store_true", help="no line per round")
    g.set_defaults(func=cmd_generate)


def cmd_generate(args) -> int:
    import re

    from pydantic import ValidationError

    from engine.data.errors import DataError, problems_of
    from engine.data.maps import load_named_map
    from engine.workshop import generate as G
    from engine.workshop.catalog import load_catalog
    from engine.workshop.constraints import Rules
    from engine.workshop.experiment import out_problem
    from engine.workshop.reachability import smallest_base_mm
    from game.userdirs import catalog_dir

    if args.scheduler:
        from engine.workshop.experiment import scheduler_problem

        why = scheduler_problem(args.scheduler)
        if why:
            return fail(f"skirmish generate: --scheduler: {why}", 2)
    locked = None
    if args.locked:
        try:
            locked = load_named_map(args.locked)
        except DataError as err:
            return fail(str(err), 1)
    unit = args.unit or (locked.unit if locked else "in")
    if args.size:
        w, h = args.size
    elif locked and locked.unit == unit:
        w, h = locked.width, locked.height          # exactly: 24 * 25.4 / 25.4 is not 24.0
    elif locked:
        k = {"in": 25.4, "cm": 10.0, "mm": 1.0}
        w, h = locked.width * k[locked.unit] / k[unit], locked.height * k[locked.unit] / k[unit]
    else:
        f = {"in": 1.0, "cm": 2.54, "mm": 25.4}[unit]
        w, h = 60 * f, 44 * f
    from engine.data.maps import MAX_MM, MM_PER

    lo_side = MIN_SIDE_MM / MM_PER[unit]
    if not all(MIN_SIDE_MM <= v * MM_PER[unit] <= MAX_MM for v in (w, h)):
        return fail(f"skirmish generate: --size {w:g}x{h:g} {unit}: each side from {lo_side:g} to {MAX_MM / MM_PER[unit]:g} "
                    f"{unit} (a table the templates fit on, at most 100 m)", 2)
    catalog = load_catalog([catalog_dir()])
    mission = None
    mid = args.mission or (None if locked else "short-edges")
    if mid:
        try:
            mission = catalog.mission(mid)
        except KeyError:
            return fail(f"skirmish generate: no mission {mid!r} (known: {', '.join(m.id for m in catalog.missions)})", 2)
    if args.ruleset:
        from game.cli.checks import ruleset_and_agents_problem

        why = ruleset_and_agents_problem("generate", args.ruleset, ())
        if why:
            return fail(why, 2)
    if args.base is not None and not (math.isfinite(args.base) and 5 <= args.base <= 200):
        return fail("skirmish generate: --base is a base diameter in mm, from 5 to 200", 2)
    base = args.base or smallest_base_mm(args.ruleset)
    seed = args.seed
    map_id = args.id or f"generated-{seed}"
    if not re.fullmatch(r"[a-z0-9_\-]+", map_id):
        return fail(f"skirmish generate: --id {map_id!r}: lower-case letters, digits, - and _ only", 2)
    name = args.name or f"Generated layout (seed {seed})"
    entries = args.use or [G.Entry(t, lo, hi) for t, (lo, hi) in G.DEFAULT_COUNTS.items()]
    known = {t.id for t, _ in catalog.templates}
    for t in args.in_zones:
        if t not in known:
            return fail(f"skirmish generate: --in-zones {t!r}: no such template", 2)
    in_zones = set(args.in_zones) if (args.in_zones or args.use) else set(G.DEFAULT_IN_ZONES)
    entries = [G.Entry(e.template, e.min, e.max, e.template in in_zones, e.weight) for e in entries]
    from engine.workshop.targets import parse_target

    targets = args.target or [parse_target(t) for t in G.DEFAULT_TARGETS]
    rules = None
    if args.piece_gap is not None or args.edge_gap is not None:
        d = G.default_rules(unit, entries)
        rules = Rules(d.piece_gap if args.piece_gap is None else args.piece_gap,
                      d.edge_gap if args.edge_gap is None else args.edge_gap, d.in_zones)
    try:
        start = G.start_map(w, h, unit, mission, locked, map_id, name)
        problem, pre = G.make_problem(start, args.symmetry, entries, targets, rules, base, catalog)
    except G.GenerateError as err:
        return fail(f"skirmish generate: {err}", 2)
    except ValidationError as err:               # a table the schema refuses: each field and why
        for field, reason in problems_of(err)[:5]:
            _err(f"skirmish generate: the table asked for: {field + ': ' if field else ''}{reason}")
        return 2
    except (ValueError, DataError) as err:
        return fail(f"skirmish generate: {str(err).splitlines()[0]}", 2)
    why = out_problem(args.out)
    if why:
        return fail(f"skirmish generate: --out: {why}", 1)
    held = [f for f in output_names(map_id, args.no_pictures) if os.path.lexists(Path(args.out) / f)]
    if held:            # a run's results are never written over (issue 47: generated-SEED.json was)
        return fail(f"skirmish generate: --out {args.out} already holds {', '.join(held)}: choose another --out "
                    "(or another --id)", 2)
    client = cluster = None
    if args.scheduler or args.workers > 1:
        try:
            from engine.workshop.experiment import _client
        except ImportError:
            return fail("skirmish generate --workers/--scheduler needs dask.distributed: pip install 'skirmish[workshop]'", 2)
        from engine.workshop.experiment import SchedulerError

        try:
            client, cluster = _client(args.workers, args.scheduler)
        except SchedulerError as err:
            return fail(f"skirmish generate: --scheduler: {err}", 2)
    print(f"generating a {w:g}x{h:g} {unit} layout, seed {seed}, {args.chains} chains, "
          f"{'symmetry ' + problem.symmetry if problem.symmetry else 'no symmetry'}; targets: "
          + ", ".join(t.text() for t in targets) + f"; reachable by a {base:g} mm base"
          + (f"; on {args.scheduler}" if args.scheduler else f"; on {args.workers} local workers" if client else ""))
    t0 = time.perf_counter()

    def on_round(r, pool, best, bias):
        if args.quiet:
            return
        cold = min(pool, key=lambda c: c.temp)
        f = cold.state.figures
        shown = ", ".join(f"{k} {_fmt(f[k])}" for k in ("los", "hide_diff", "obj_diff", "obj_held", "cover",
                                                         "zone_cover", "lane", "lane_share") if k in f)
        print(f"  round {r}: best score {best:.3f}; coldest chain: {shown}; {time.perf_counter() - t0:.0f} s",
              flush=True)

    try:
        res = G.run(problem, seed=seed, chains=args.chains, rounds=args.rounds, steps=args.steps, pre_edits=pre,
                    client=client, time_limit=args.time_limit, on_round=on_round, cpu_limit=args.cpu_limit or None)
    except G.GenerateError as err:
        return fail(f"skirmish generate: {err}", 2)
    except KeyboardInterrupt:
        return fail("\nskirmish generate: interrupted; nothing written (the search starts again from the seed)", 130)
    finally:
        if client is not None:
            from engine.workshop.experiment import _close

            _close(client, cluster)
    try:
        return write_outputs(args, problem, res, seed)
    except OSError as err:      # the folder changed under the run (it was checked before the search)
        return fail(f"skirmish generate: cannot write the results in {args.out}: {err.strerror or err}"
                    + (f" ({err.filename})" if getattr(err, "filename", None) else ""), 1)


def output_names(map_id: str, no_pictures: bool) -> list[str]:
    """The files a run writes into its --out folder."""
    names = [f"{map_id}.json", "analysis.json", "history.json", "edits.txt"]
    return names + ([] if no_pictures else ["history.png", "analysis.png", "hiding.png"])


def _fmt(v) -> str:
    if isinstance(v, dict):
        return "/".join("-" if x is None else f"{x:.1f}" for x in v.values())
    return "-" if v is None else f"{v:.1f}"


def write_outputs(args, problem, res, seed: int) -> int:
    from engine.core.saves import write_atomic
    from engine.core.tables import table_for
    from engine.workshop import generate as G
    from engine.workshop.analysis import analyse

    out = Path(args.out)
    m = res.state.map
    broken = G.layout_problems(problem, m, res.state.template_of())
    if broken:          # never: every state of every chain holds them; a bug if it shows
        return fail("skirmish generate: the layout found breaks a constraint (a bug): " + "; ".join(broken[:3]), 1)
    map_path = out / f"{m.id}.json"
    write_atomic(map_path, m.model_dump_json(exclude_none=True, indent=1) + "\n")
    table = table_for(m)
    analysis = analyse(table)
    (out / "analysis.json").write_text(json.dumps(analysis.metrics, indent=1) + "\n")
    extra = {"map": m.id, "map_file": map_path.name, "command": " ".join(sys.argv[1:])}
    record = G.history_record(res, problem, seed, extra)
    (out / "history.json").write_text(json.dumps(record, indent=1) + "\n")
    (out / "edits.txt").write_text("".join(f"{i + 1}. {d}\n" for i, d in enumerate(record["edits"])))
    pictures = []
    if not args.no_pictures:
        try:
            from engine.workshop.search_plots import plot_generate_history

            pictures.append(plot_generate_history(record, out / "history.png"))
        except ImportError:
            _err("skirmish generate: no history plot without matplotlib (pip install 'skirmish[workshop]')")
        from game.render import analysis_png as ap

        ap.save_analysis_png(m, analysis, out / "analysis.png")
        ap.save_hiding_png(m, analysis, out / "hiding.png")
        pictures += [out / "analysis.png", out / "hiding.png"]
    f = res.full
    verdict = "targets met" if res.met else "targets NOT met (the best layout found is written)"
    when = f" in {res.met_seconds:.1f} s" if res.met_seconds is not None else ""
    why = ("" if res.met else f"; stopped by the {res.stopped} ({args.cpu_limit:g} s)" if res.stopped == "CPU budget"
           else f"; stopped: {res.stopped}")
    print(f"{verdict}{when}: {res.rounds} rounds, {res.steps} moves, {res.seconds:.1f} s wall, "
          f"{res.cpu_seconds:.1f} s CPU{why}")
    for line in res.verdict:
        print(f"  {line}")
    print("  full grid: " + ", ".join(f"{k} {_fmt(f.get(k))}" for k in
                                    ("los", "hide", "hide_diff", "objectives", "obj_diff", "obj_held", "lane", "lane_share",
                                     "cover", "zone_cover")
                                    if f.get(k) is not None))
    for t in problem.targets:
        miss = t.worst_miss(f)
        print(f"  target {t.text()}: {_fmt(f.get(t.metric))}, "
              f"{'met' if miss <= t.tolerance() + 1e-9 else f'missed by {miss - t.tolerance():.1f}'}")
    print(f"  {len(m.pieces)} pieces in {len(record['instances'])} placements; {len(record['edits'])} edits "
          f"from the start map (edits.txt)")
    print(f"  written: {map_path}, {out / 'analysis.json'}, {out / 'history.json'}"
          + "".join(f", {p}" for p in pictures))
    return 0
