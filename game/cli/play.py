"""``skirmish play`` (the launcher, a game, or the map viewer) and ``skirmish screenshot``."""
from __future__ import annotations

from engine.data.errors import DataError
from engine.paths import DEFAULT_MAP, resolve_map
from game.cli.args import err as _err
from game.cli.args import fail
from game.cli.checks import _suits
from game.cli.checks import out_file_problem as _out_problem
from game.settings import DEFAULT_OPPONENT


def _seats(args) -> dict | None:
    from game.session import parse_seat

    p1, p2 = args.p1, args.p2
    if getattr(args, "load", None) and p1 is None and p2 is None:
        return {}                              # the seats the save was made with
    try:
        return {1: parse_seat(p1 or "human"), 2: parse_seat(p2 or DEFAULT_OPPONENT)}
    except ValueError as err:
        _err(f"skirmish play: {err}")
        return None


def cmd_play(args) -> int:
    """The launcher; a game straight away with --ruleset or --load; the plain map viewer with
    --screenshot and no ruleset (as before)."""
    from engine.core.errors import GameError
    from engine.data.maps import load_map, load_named_map

    if args.screenshot:
        why = _out_problem(args.screenshot)
        if why:
            return fail(f"skirmish play: {why}", 1)
    if args.screenshot and not args.ruleset:
        path = resolve_map(args.map) if args.map else DEFAULT_MAP
        try:
            load_named_map(args.map) if args.map else load_map(path)
        except DataError as err:
            return fail(str(err), 1)
        from game.table_app import run_table_view

        try:
            run_table_view(path, screenshot=args.screenshot, frames=args.frames)
        except OSError as err:   # PictureError: the save itself failed
            return fail(f"skirmish play: cannot write {args.screenshot}: {err}", 1)
        return 0
    seats = _seats(args)
    if seats is None:
        return 2
    from game.cli.args import option_pairs

    options, why = option_pairs(getattr(args, "option", None), getattr(args, "ruleset", None))
    if why:
        return fail(f"skirmish play: {why}", 2)
    if args.ruleset:
        try:
            from engine.core.rules import get_rules
            get_rules(args.ruleset)
            mapfile = load_named_map(args.map or "town")
        except GameError as err:
            return fail(f"skirmish play: {err}", 2)
        except DataError as err:
            return fail(str(err), 1)
        if not _suits(args, mapfile, "play"):
            return 2
    from game.app import run_client
    from game.scenes.base import PictureError

    try:
        return run_client(args.ruleset, args.map, seats or None, args.seed, args.load, frames=args.frames,
                          screenshot_path=args.screenshot, options=options)
    except DataError as err:
        return fail(str(err), 1)
    except GameError as err:
        return fail(f"skirmish play: {err}", 2)
    except PictureError as err:
        return fail(f"skirmish play: cannot write {args.screenshot}: {err}", 1)


def cmd_screenshot(args) -> int:
    from engine.ai import agent_problem
    from engine.core.errors import GameError
    from game.app import screenshot

    why = agent_problem(args.agent)
    if why:
        return fail(f"skirmish screenshot: {why}", 2)
    why = _out_problem(args.out)
    if why:
        return fail(f"skirmish screenshot: {why}", 1)
    from game.cli.args import option_pairs

    options, why = option_pairs(args.option, args.ruleset)
    if why:
        return fail(f"skirmish screenshot: {why}", 2)
    try:
        path = screenshot(args.ruleset, args.map, args.out, steps=args.steps, seed=args.seed, select=args.select,
                          hover=args.hover, reach=args.reach, sight=args.sight, threat=args.threat,
                          agent=args.agent, size=(args.width, args.height), options=options)
    except DataError as err:
        return fail(str(err), 1)
    except (GameError, ValueError) as err:
        return fail(f"skirmish screenshot: {err}", 2)
    except OSError as err:
        return fail(f"skirmish screenshot: cannot write {args.out}: {err}", 1)
    print(f"wrote {path}")
    return 0
