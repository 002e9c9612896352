"""A bench with subcommands (``play`` then ``fit``, ``report``, ``table`` ...): the parser and the
dispatch, written once. Each bench names its commands with the function that runs each, adds its
own options to the sub-parsers, and returns ``run``'s answer from its ``main``."""
from __future__ import annotations

import argparse
from collections.abc import Callable


def commands(description: str, names) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The bench's parser (``description`` shown as written: a module docstring keeps its lines)
    and a sub-parser for each command name, in order; one of them must be given."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    return ap, {name: sub.add_parser(name) for name in names}


def run(ap: argparse.ArgumentParser, argv, table: dict[str, Callable[[argparse.Namespace], int]]) -> int:
    """The command the arguments name, run with them; its exit status."""
    args = ap.parse_args(argv)
    return table[args.cmd](args)
