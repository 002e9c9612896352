"""Checks the commands share before any game starts (exit code 2: bad usage), and the check of a
file a command is to write (a picture, a map) before any work is done."""
from __future__ import annotations

import os
from pathlib import Path

from game.cli.args import err as _err


def ruleset_and_agents_problem(command: str, ruleset: str, agents) -> str | None:
    """Why the ruleset or an agent is not usable, or None. An agent name may carry parameters
    after a colon ("hard:budget=2.0"): the agent's own schema checks them (``engine.ai.check_agent``)."""
    from engine.ai import agent_problem
    from engine.core.errors import UnknownRuleset
    from engine.core.rules import get_rules

    try:
        get_rules(ruleset)
    except UnknownRuleset as err:
        return f"skirmish {command}: {err}"
    for a in agents:
        why = agent_problem(a)
        if why:
            return f"skirmish {command}: {why}"
    return None


def map_problem(command: str, ruleset: str, mapfile, name: str, rosters, any_map: bool,
                options: dict | None = None) -> str | None:
    """Why the ruleset cannot play on this loaded map with these rosters and ``options`` (None: it
    can): the map's ``suits`` leave the ruleset out (unless ``any_map``), or the set-up refuses the
    map, a roster or an option (a mission the map cannot hold). Asked before any worker starts, so
    a bad map is a usage error, not a failed game."""
    from engine.core import Game, Setup
    from engine.core.errors import SetupError
    from engine.data.maps import suits_problem

    why = suits_problem(mapfile, ruleset)
    if why and not any_map:
        return f"skirmish {command}: {why}"
    try:
        Game(Setup(ruleset, mapfile, tuple(r for r in rosters if r is not None), dict(options or {}), 1))
    except SetupError as err:
        return f"skirmish {command}: cannot set up {ruleset} on {name}: {err}"
    return None


def out_file_problem(path) -> str | None:
    """Why a file (a picture, a map) cannot be written to ``path`` (None: it can be tried). Asked before any
    drawing; the save itself can still fail (``PictureError``), and is caught too."""
    p = Path(path)
    folder = p.parent
    if p.is_dir():
        return f"cannot write {p}: it is a folder"
    if p.exists() and not p.is_file():
        return f"cannot write {p}: it is not a regular file"
    if not folder.exists():
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            return f"cannot write {p}: cannot make the folder {folder}: {err.strerror or err}"
    if not folder.is_dir():
        return f"cannot write {p}: {folder} is not a folder"
    if not os.access(folder, os.W_OK):
        return f"cannot write {p}: the folder {folder} is not writable"
    if not p.exists():   # try the very file (a folder such as /proc takes no new files, even from root)
        try:
            with open(p, "xb"):
                pass
            p.unlink()
        except FileExistsError:
            pass
        except OSError as err:
            return f"cannot write {p}: {err.strerror or err}"
    return None


def replace_problem(out, force: bool, arg: str, own_path: str = "give the file's own path") -> str | None:
    """Why a command may not write its output file ``out`` (None: it can be tried), for the
    commands that write one file given as ``arg`` ("OUT", "--out"): a symbolic link that points
    nowhere (writing through it would make a file wherever it points, unasked; ``own_path`` says
    what to give instead), a file that exists without ``force``, then ``out_file_problem``."""
    p = Path(out)
    if p.is_symlink() and not p.exists():
        return f"{p} is a symbolic link to {os.readlink(p)}, which does not exist; {own_path}"
    if p.exists() and not force:
        return f"{p} exists; give another {arg} or --force to replace it"
    return out_file_problem(p)


def rosters_arg(command: str, ruleset: str, text: str | None) -> tuple[tuple | None, str | None]:
    """(rosters, problem): ``--rosters A,B`` checked against the ruleset's roster ids; the
    ruleset's default pair when not given."""
    from engine.simulate import default_rosters, roster_problem

    if text is None:
        return default_rosters(ruleset), None
    ids = tuple(x.strip() for x in text.split(","))
    why = roster_problem(ruleset, ids)
    return (None, f"skirmish {command}: --rosters: {why}") if why else (ids, None)


def scheduler_and_rosters(command: str, ruleset: str, scheduler: str | None,
                          rosters: str | None) -> tuple[tuple | None, str | None]:
    """(rosters, problem): the options ``balance`` and ``experiment`` share, checked in their order,
    ``--scheduler`` (an address of the right shape; whether one answers is known only when the run
    connects) then ``--rosters`` (``rosters_arg``: the ruleset's pair when not given)."""
    if scheduler:
        from engine.workshop.experiment import scheduler_problem

        why = scheduler_problem(scheduler)
        if why:
            return None, f"skirmish {command}: --scheduler: {why}"
    return rosters_arg(command, ruleset, rosters)


def _suits(args, mapfile, command: str) -> bool:
    """False (after saying why) when the map's ``suits`` leaves out the ruleset and --any-map
    was not given."""
    from engine.data.maps import suits_problem

    why = suits_problem(mapfile, args.ruleset)
    if why and not getattr(args, "any_map", False):
        _err(f"skirmish {command}: {why}")
        return False
    return True
