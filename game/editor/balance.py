"""The editor's Test balance and Sheet commands: the files they write and the words they say.

Test balance saves the layout as it stands (a copy, in the user's ``balance`` folder: the file
being edited is not touched) and starts ``skirmish experiment`` on it in the background with the
``easy`` agent on both sides, each roster from each zone on shared seeds. The ruleset is the
first one the map names in ``suits``, else the launcher's last one.
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

from engine.workshop import edits as E

BALANCE_GAMES = 40
BALANCE_AGENT = "easy"


def balance_ruleset(mapfile) -> str:
    from game.settings import Settings

    if mapfile.suits:
        return mapfile.suits[0]
    return Settings.load().ruleset


def start_balance(scene, games: int | None = None):
    """Start the experiment for the scene's layout: (run or None, lines to show)."""
    games = games or BALANCE_GAMES
    from game.editor.document import map_json
    from game.editor.worker import BalanceRun
    from game.userdirs import balance_dir

    m = scene.map
    problems = E.save_problems(m)
    if problems:
        return None, [f"cannot test this layout yet: {f or '(map)'}: {r}" for f, r in problems[:2]]
    ruleset = balance_ruleset(m)
    try:
        from engine.core import Game, Setup
        from engine.core.errors import GameError

        Game(Setup(ruleset, m, (), {}, 1))
    except GameError as err:
        return None, [f"{ruleset} cannot be played on this layout: {err}"]
    out = balance_dir() / f"{datetime.now():%Y%m%d-%H%M%S}-{m.id}"
    try:
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{m.id}.json"
        path.write_text(map_json(m), encoding="utf-8")
        run = BalanceRun(path, out / "experiment", ruleset, games, BALANCE_AGENT)
    except OSError as err:
        return None, [f"cannot start the balance test in {out}: {err}"]
    return run, [f"testing balance: {games} games of {ruleset}, {BALANCE_AGENT} v {BALANCE_AGENT}",
                 f"in {out}"]


def write_sheet(mapfile, folder: Path | None = None, paper: str = "A4") -> list[str]:
    """The printable setup sheet of the layout (PDF and PNG) in the user's ``sheets`` folder."""
    from game.userdirs import sheets_dir

    try:
        from engine.workshop.sheet import write_sheets
    except ImportError as err:       # matplotlib is in the workshop extra
        return [f"the setup sheet needs matplotlib (pip install -e '.[workshop]'): {err}"]
    folder = folder or sheets_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        paths = write_sheets(mapfile, folder / f"{mapfile.id}", paper=paper)
    except (OSError, ValueError) as err:
        return [f"cannot write the setup sheet in {folder}: {err}"]
    # the files' names first, the folder last: a long folder is what the message may elide
    return [f"setup sheet: {' and '.join(p.name for p in paths)} in {paths[0].parent}"]
