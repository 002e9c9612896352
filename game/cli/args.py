"""What every sub-command's parser shares: the error line (``fail``: the line and the exit code) and
the bounded number types (a value out of range is a usage error, exit 2, never a traceback)."""
from __future__ import annotations

import argparse
import math
import sys

SCREENSHOT_FRAMES = 3     # frames drawn before a --screenshot when --frames is not given


def err(msg: str) -> None:
    print(msg, file=sys.stderr)


def fail(msg: str, code: int) -> int:
    """Say why the command stops (``err``) and give its exit code: ``return fail(why, 2)``."""
    err(msg)
    return code


def bounded_int(lo: int, hi: int, what: str):
    """An argparse type: a whole number from ``lo`` to ``hi``."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"{n} is not {what} ({lo} to {hi})")
        return n
    return parse


def bounded_float(lo: float, hi: float, what: str, range_words: str):
    """An argparse type: a finite number from ``lo`` to ``hi``; ``what`` names it when it is not a
    number ("a number of minutes"), ``range_words`` when it is out of range ("minutes from 0 to 100,000")."""
    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not (math.isfinite(v) and lo <= v <= hi):
            raise argparse.ArgumentTypeError(f"{text!r}: {range_words}")
        return v
    return parse


def option_pairs(items, ruleset: str | None = None) -> tuple[dict, str | None]:
    """``--option KEY=VALUE`` arguments as a dict of a ruleset's options: VALUE read as the type
    the ruleset's options model declares for KEY (``engine/data/option_text.py``: ``500``,
    ``7.5``, ``yes``/``no``/``on``/``off``/``1``/``0`` for a true/false, ``48,36`` for a pair), else
    as JSON when it is JSON (``3``, ``true``, ``"x"``, ``[48, 36]``), else as text; the ruleset
    checks the keys and values when the game is set up (its options are strict: a value that is
    not the declared type is refused with the type expected). (dict, None), or ({}, the reason)
    for a malformed one."""
    from engine.data.option_text import from_text

    model = _options_model(ruleset)
    out: dict = {}
    for item in items or ():
        key, eq, text = item.partition("=")
        key = key.strip()
        if not eq or not key:
            return {}, f"--option {item!r}: write it as KEY=VALUE (e.g. --option deployment=hidden)"
        value = from_text(model, key, text)
        if isinstance(value, float) and not math.isfinite(value):
            return {}, f"--option {item!r}: {text} is not a finite number"
        out[key] = value
    return out, None


def _options_model(ruleset: str | None):
    """The options model of ``ruleset``, or None (no ruleset, or one this build does not know:
    the caller refuses it in its own words)."""
    if not ruleset:
        return None
    from engine.core.errors import SetupError
    from engine.core.rules import get_rules
    try:
        return get_rules(ruleset).options_model()
    except SetupError:
        return None


def add_mission_arg(parser) -> None:
    """``--mission ID``: the same as ``--option mission=ID`` (it joins the ``--option`` list, so the
    ruleset checks it where it checks every option: an unknown mission, or a map with too few
    objective markers for it, is refused with the ruleset's reason, exit 2)."""
    import json

    def as_option(text: str) -> str:
        return "mission=" + json.dumps(text.strip())

    parser.add_argument("--mission", dest="option", action="append", type=as_option, metavar="ID",
                        help="the mission (scenario) to play, as --option mission=ID (default: the "
                             "ruleset's choice for the map; an unknown ID lists the ruleset's missions)")
