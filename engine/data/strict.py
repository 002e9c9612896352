"""Strict types in data files, saves and options (issue 59): a number is a JSON number, a
true/false a JSON true/false, a text a JSON string. pydantic's lax mode read ``"points": "70"`` as
70, ``"count": true`` as 1 and ``"no"`` as False; each schema of rosters, ruleset data and options
now sets ``strict=True`` in its ``model_config`` so such a file is refused with its field and the
type expected (``engine/data/errors.py``). A whole number is still a number where a decimal is
expected (``"short_range": 6``).

Two kinds of value have no JSON type of their own, so their fields read their JSON form here:

- a share (``Fraction``): ``"1/3"`` as the settings and a save hold it, or a number (0.5);
  never ``true``/``false``;
- a pair (``tuple``): a JSON array, ``[48, 36]``; its numbers are still strict.

Text typed by a person (``--option key=value``, the launcher's Options form) is read as the
option's declared type by ``engine/data/option_text.py`` before the model sees it.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

from pydantic import BeforeValidator, Field


def _share_input(v: Any) -> Any:
    if isinstance(v, bool) or not isinstance(v, (Fraction, int, float, str)):
        raise ValueError(f"expected a share such as \"1/3\" or a number, not {json_words(v)}")
    return v


# A Fraction read from its JSON form (a string "1/3" or a number); bounds go on the field.
JsonFraction = Annotated[Fraction, BeforeValidator(_share_input), Field(strict=False)]


def json_pair(item) -> Any:
    """A two-item tuple of ``item`` that reads a JSON array (strict, a tuple would take only a
    Python tuple); ``item``'s own strictness holds for each of the two."""
    return Annotated[tuple[item, item], Field(strict=False)]


def json_words(v: Any) -> str:
    """What a value read from JSON is, in a reader's words: ``the text '70'``, ``true``, ``the
    number 5.5``, ``a list``..."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return f"the whole number {v}" if abs(v) < 10 ** 15 else "a whole number"
    if isinstance(v, float):
        return f"the number {v!r}"
    if isinstance(v, str):
        return f"the text {v[:40]!r}" + ("..." if len(v) > 40 else "")
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return f"a {type(v).__name__}"
