"""The ``skirmish`` command: play (the default), simulate, analyze-map, edit, sheet, validate, replay.

The parser and ``main`` (the console script) are here; ``play``'s and ``simulate``'s handlers are in
``game/cli/play.py`` and ``game/cli/simulate.py``, the other commands' in ``game/cli/*.py``
(one module per subcommand).
Only ``play`` and ``analyze-map --png`` import pygame, so the headless commands run anywhere.
Exit codes: 0 ok, 1 a file or check failed, 2 bad usage (including a ruleset that is not there).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from engine.data.errors import DataError, load_json_file
from game.cli.args import SCREENSHOT_FRAMES, add_mission_arg, fail
from game.cli.args import bounded_int as _bounded_int
from game.cli.args import err as _err
from game.cli.checks import out_file_problem as _out_problem
from game.cli.play import cmd_play, cmd_screenshot
from game.cli.simulate import cmd_simulate
from game.settings import DEFAULT_OPPONENT


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is not a positive number of games")
    return n


# The largest picture side a screenshot may ask for: beyond any screen, and a 16k x 16k surface
# already takes 1 GiB.
MAX_PICTURE_PX = 16384


# --- edit, sheet ---------------------------------------------------------------------
def cmd_edit(args) -> int:
    """The layout editor (a window; ``--screenshot`` renders it headless and exits)."""
    if args.screenshot:
        why = _out_problem(args.screenshot)
        if why:
            return fail(f"skirmish edit: {why}", 1)
    from game.app import run_editor

    try:
        return run_editor(args.map, size=(args.width, args.height), frames=args.frames,
                          screenshot_path=args.screenshot)
    except DataError as err:
        return fail(str(err), 1)


def cmd_sheet(args) -> int:
    """A printable setup sheet of a map: PDF or PNG by the name given."""
    from engine.data.maps import load_named_map

    why = _out_problem(args.out)
    if why:
        return fail(f"skirmish sheet: {why}", 1)
    try:
        mapfile = load_named_map(args.map)
    except DataError as err:
        return fail(str(err), 1)
    try:
        from engine.workshop.sheet import PAPERS, write_sheet
    except ImportError as err:
        return fail(f"skirmish sheet: needs matplotlib (pip install -e '.[workshop]'): {err}", 2)
    if args.paper not in PAPERS:
        return fail(f"skirmish sheet: unknown paper {args.paper!r} (one of {', '.join(PAPERS)})", 2)
    suffix = Path(args.out).suffix.lower()
    if suffix not in (".pdf", ".png"):
        return fail(f"skirmish sheet: --out must end in .pdf or .png, not {suffix or 'nothing'}", 2)
    try:
        path = write_sheet(mapfile, args.out, paper=args.paper, landscape=not args.portrait)
    except OSError as err:
        return fail(f"skirmish sheet: cannot write {args.out}: {err}", 1)
    print(f"wrote {path}")
    return 0


# --- validate ------------------------------------------------------------------------
def validate_file(path: Path) -> str:
    """Check one data file; return a one-line summary or raise DataError."""
    data = load_json_file(path)
    if isinstance(data, dict) and data.get("format") == "skirmish-save":
        from engine.core.saves import load_game

        g = load_game(path)
        note = ("setup and state hash match" if data.get("version", 1) >= 2
                else "state hash matches (a version-1 save: it carries no setup check)")
        return f"save of {g.setup.ruleset} on {g.setup.map.id}, {len(g.decisions)} decisions, {note}"
    if isinstance(data, dict) and ("deployment" in data or "pieces" in data):
        from engine.data.errors import parse_data
        from engine.data.maps import MapFile

        m = parse_data(MapFile, data, path)
        return f"map {m.id!r}: {m.width:g}x{m.height:g} {m.unit}, {len(m.pieces)} pieces"
    from engine.data.rosters import validate_roster

    return validate_roster(data, path)


def cmd_validate(args) -> int:
    bad = 0
    for f in args.files:
        path = Path(f)
        if path.is_dir():
            _err(f"{path}: is a folder; give the files (e.g. {path}/*.json)")
            bad += 1
            continue
        try:
            print(f"ok  {path}: {validate_file(path)}")
        except DataError as err:
            bad += 1
            for line in str(err).splitlines():
                _err(f"BAD {line}")
    if bad:
        _err(f"{bad} of {len(args.files)} file(s) refused")
    return 1 if bad else 0


# --- replay --------------------------------------------------------------------------
def cmd_replay(args) -> int:
    """Re-run a save: in a window to step through (the default), or headless: --check confirms
    its setup check and state hash, --log prints its log as well. A save that fails its checks
    is refused either way."""
    from engine.core.saves import load_game, read_save

    try:
        saved = read_save(args.save)
        game = load_game(args.save, check=True)
    except DataError as err:
        return fail(str(err), 1)
    if not args.check and not args.log:      # the window: step through the game
        from game.app import run_replay
        from game.session import saved_seats
        return run_replay(game, seats=saved_seats(saved.client))
    if args.log:
        for line in game.view(None)["log"]:
            print(line)
    note = "" if saved.version >= 2 else " (a version-1 save: it carries no setup check)"
    print(f"{args.save}: {len(game.decisions)} decisions replayed; state hash {game.state_hash()} "
          f"matches the save{note}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="skirmish", description="A digital table for tabletop skirmish wargames.")
    from engine.version import __version__

    p.add_argument("--version", action="version", version=f"skirmish {__version__}",
                   help="print the version and exit (CHANGELOG.md says what changed)")
    sub = p.add_subparsers(dest="command")

    pl = sub.add_parser("play", help="open the launcher, or a game (the default command)")
    pl.add_argument("--ruleset", help="start this ruleset's game straight away (skips the launcher)")
    pl.add_argument("--map", help="map file or id of a shipped map (default: town)")
    pl.add_argument("--p1", default=None, help="human or ai:AGENT (default human; with --load, as saved)")
    pl.add_argument("--p2", default=None,
                    help=f"human or ai:AGENT (default {DEFAULT_OPPONENT}; with --load, as saved)")
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--load", help="continue a saved game")
    pl.add_argument("--screenshot", help="render, save this PNG and exit (works headless)")
    pl.add_argument("--frames", type=_bounded_int(1, 1_000_000, "a number of frames"), default=None,
                    help=f"frames to render before --screenshot (default {SCREENSHOT_FRAMES})")
    pl.add_argument("--any-map", action="store_true", help="play on a map whose 'suits' leaves out the ruleset")
    pl.add_argument("--option", action="append", metavar="KEY=VALUE",
                    help="a ruleset option (repeatable), e.g. --option deployment=hidden (docs/rules/)")
    add_mission_arg(pl)
    pl.set_defaults(func=cmd_play)

    sc = sub.add_parser("screenshot", help="render a game headless after N decisions of AI play")
    sc.add_argument("--ruleset", required=True)
    sc.add_argument("--map", required=True)
    sc.add_argument("--steps", type=_bounded_int(0, 100_000, "a number of decisions"), default=0,
                    help="decisions of AI play before the picture")
    sc.add_argument("--seed", type=int, default=1)
    sc.add_argument("--agent", default="random", help="the agent that plays the steps")
    sc.add_argument("--select", help="model (id or name) to select")
    sc.add_argument("--hover", help="model (id or name) under the mouse")
    sc.add_argument("--reach", action="store_true", help="shade where the selected model can move")
    sc.add_argument("--sight", action="store_true", help="shade what the selected model sees")
    sc.add_argument("--threat", action="store_true", help="shade what the enemy sees")
    sc.add_argument("--width", type=_bounded_int(1, MAX_PICTURE_PX, "a width in pixels"), default=1280)
    sc.add_argument("--height", type=_bounded_int(1, MAX_PICTURE_PX, "a height in pixels"), default=720)
    sc.add_argument("--out", required=True, help="the PNG to write")
    sc.add_argument("--option", action="append", metavar="KEY=VALUE",
                    help="a ruleset option (repeatable), e.g. --option deployment=automatic (docs/rules/)")
    add_mission_arg(sc)
    sc.set_defaults(func=cmd_screenshot)

    si = sub.add_parser("simulate", help="play AI-vs-AI games headless")
    si.add_argument("--ruleset", required=True)
    si.add_argument("--map", required=True, help="map file or id of a shipped map")
    si.add_argument("--games", type=_positive_int, default=100)
    si.add_argument("--seed", type=int, default=1)
    si.add_argument("--p1", default="random")
    si.add_argument("--p2", default="random")
    si.add_argument("--rosters", help="two roster ids A,B as the launcher lists them (default: the ruleset's own pair)")
    si.add_argument("--fixed", action="store_true",
                    help="no crossing: rosters and agents stay in the seats given, each game on its own seed")
    si.add_argument("--swap-sides", action="store_true",
                    help="with --fixed, alternate the agents' seats game by game (the crossed design already swaps them)")
    si.add_argument("--records", action="store_true", help="with --json, add one record per game (who sat where, "
                                                         "who won, how it ended, the final hash)")
    si.add_argument("--json", action="store_true", help="print one JSON object")
    si.add_argument("--any-map", action="store_true", help="play on a map whose 'suits' leaves out the ruleset")
    si.add_argument("--save-dir", help="write one save per game into this folder (made if missing)")
    si.add_argument("--option", action="append", metavar="KEY=VALUE",
                    help="a ruleset option (repeatable), e.g. --option deployment=automatic (docs/rules/)")
    add_mission_arg(si)
    si.set_defaults(func=cmd_simulate)

    from game.cli.analyze import add_analyze_parser

    add_analyze_parser(sub)

    from game.cli.experiment import add_experiment_parser

    add_experiment_parser(sub)

    from game.cli.generate import add_generate_parser

    add_generate_parser(sub)

    from game.cli.balance import add_balance_parser

    add_balance_parser(sub)

    from game.cli.import_map import add_import_parser

    add_import_parser(sub)

    from game.cli.export_map import add_export_parser

    add_export_parser(sub)

    from game.cli.net import add_net_parsers  # host, join (network play, issue 50)

    add_net_parsers(sub)

    ed = sub.add_parser("edit", help="the layout editor")
    ed.add_argument("map", nargs="?", help="map file or id of a shipped map (default: the unsaved draft, "
                                          "else a new table)")
    ed.add_argument("--screenshot", help="render the editor, save this PNG and exit (works headless)")
    ed.add_argument("--frames", type=_bounded_int(1, 1_000_000, "a number of frames"), default=None,
                    help=f"frames to render before --screenshot (default {SCREENSHOT_FRAMES})")
    ed.add_argument("--width", type=_bounded_int(1, MAX_PICTURE_PX, "a width in pixels"), default=1280)
    ed.add_argument("--height", type=_bounded_int(1, MAX_PICTURE_PX, "a height in pixels"), default=720)
    ed.set_defaults(func=cmd_edit)

    sh = sub.add_parser("sheet", help="a printable setup sheet of a map (PDF or PNG)")
    sh.add_argument("map", help="map file or id of a shipped map")
    sh.add_argument("--out", required=True, help="the file to write: .pdf or .png")
    sh.add_argument("--paper", default="A4", help="A4, A3 or letter (default A4)")
    sh.add_argument("--portrait", action="store_true", help="portrait instead of landscape")
    sh.set_defaults(func=cmd_sheet)

    va = sub.add_parser("validate", help="check maps, rosters and saves")
    va.add_argument("files", nargs="+")
    va.set_defaults(func=cmd_validate)

    rp = sub.add_parser("replay", help="step through a save in a window, or check it headless")
    rp.add_argument("save")
    rp.add_argument("--check", action="store_true",
                    help="headless: only confirm the save (setup check, state hash); a bad save is refused either way")
    rp.add_argument("--log", action="store_true", help="headless: confirm the save and print its log")
    rp.set_defaults(func=cmd_replay)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")):
        argv = ["play", *argv]  # options without a command are play's (skirmish --map outpost)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:   # Ctrl-C: a line, not a traceback (experiment says more itself)
        return fail("\ninterrupted", 130)
    except BrokenPipeError:
        # the reader went away (skirmish replay S | head -1): stop quietly, as other tools do
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except Exception:  # noqa: BLE001 - a stdout without a file behind it: nothing to quiet
            pass
        return 1


if __name__ == "__main__":
    sys.exit(main())
