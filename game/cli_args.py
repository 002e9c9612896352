"""What every sub-command's parser shares: the error line and the bounded number types (a value
out of range is a usage error, exit 2, never a traceback)."""
from __future__ import annotations

import argparse
import math
import sys

SCREENSHOT_FRAMES = 3     # frames drawn before a --screenshot when --frames is not given


def err(msg: str) -> None:
    print(msg, file=sys.stderr)


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
