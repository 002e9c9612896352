"""An option typed as text, read as the type its options model declares (issue 59).

The options models are strict (``engine/data/strict.py``): a settings file, a save or a JSON
options file must hold real JSON types. A person types text, so the two places where options are
typed, ``--option KEY=VALUE`` on the command line and the launcher's Options form, read the text
as the option's declared type here first and give the model a JSON value:

- a whole number: ``500``; a number: ``6``, ``7.5`` (``inf`` reads as infinity, which the model
  refuses as not finite);
- a true/false (command line only; the form has a toggle): ``true false yes no on off 1 0``, in
  any case;
- a choice: one of its values (``hidden``); a text: the text (a JSON string ``"x"`` is unquoted);
- a share: its text, which the model reads (``1/3``, ``0.5``);
- a pair: two numbers, ``48,36``, ``48 x 36`` or ``[48, 36]``;
- an option that may be none: ``none``, ``null`` or nothing.

Text that does not read as the declared type is given to the model as JSON when it is JSON
(``true`` for a number), else as the text, so the model refuses it naming the type it expected
("Input should be a valid integer, not the text 'lots'").
"""
from __future__ import annotations

import json
import re
import types
import typing
from fractions import Fraction
from typing import Any, Literal

TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
NONE_WORDS = ("", "none", "null")
_WHOLE = re.compile(r"^[+-]?\d+$")


class _NoRead(Exception):
    """The text is not a value of the declared type."""


def _unwrap(annotation) -> tuple[Any, bool]:
    """(the type without ``Annotated`` and ``| None``, whether None is a value)."""
    optional = False
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            optional = optional or len(args) < len(typing.get_args(annotation))
            if len(args) != 1:
                return annotation, optional
            annotation = args[0]
        else:
            return annotation, optional


def _read(annotation, text: str) -> Any:
    t, optional = _unwrap(annotation)
    s = text.strip()
    if optional and s.lower() in NONE_WORDS:
        return None
    origin = typing.get_origin(t)
    if t is bool:
        if s.lower() in TRUE_WORDS:
            return True
        if s.lower() in FALSE_WORDS:
            return False
        raise _NoRead
    if t is int:
        if _WHOLE.match(s):
            return int(s)
        raise _NoRead
    if t is float:
        try:
            return float(s)
        except ValueError:
            raise _NoRead from None
    if t is Fraction:
        return s                    # its JSON form, read by the model ("1/3", "0.5")
    if t is str:
        return _json_text(s)
    if origin is Literal:
        for choice in typing.get_args(t):
            if str(choice) == _json_text(s):
                return choice
        raise _NoRead
    if origin is tuple:
        items = typing.get_args(t)
        parts = [p for p in re.split(r"[,xX\s]+", s.strip("[]() ")) if p]
        if len(items) != len(parts) or Ellipsis in items:
            raise _NoRead
        return [_read(item, p) for item, p in zip(items, parts)]
    raise _NoRead


def _json_text(s: str) -> str:
    """``s``, or the string a JSON string literal ``"..."`` holds."""
    if len(s) >= 2 and s[0] == s[-1] == '"':
        try:
            got = json.loads(s)
        except ValueError:
            return s
        if isinstance(got, str):
            return got
    return s


def as_json(text: str) -> Any:
    """Text as the JSON value it is (``3``, ``true``, ``"x"``, ``[48, 36]``), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def from_text(model, name: str, text: str) -> Any:
    """The value of option ``name`` of ``model`` (a pydantic model class) typed as ``text``: the
    declared type's JSON value, or, when the text is not one, the text as JSON or as text for the
    model to refuse with its expected type. An option the model does not have is read as JSON or
    text (the ruleset names it as unknown)."""
    field = model.model_fields.get(name) if model is not None else None
    if field is None:
        return as_json(text)
    try:
        return _read(field.annotation, text)
    except _NoRead:
        return as_json(text)
