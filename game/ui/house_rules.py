"""A ruleset's options (house rules) as a form: every field of its pydantic options model with
its description and default, the value as typed, and the model's own check. No pygame here: the
Options dialog (``house_rules_dialog.py``) draws it, the launcher keeps what it returns, and the
tests drive it directly.

What a player changes is kept as the model's JSON values of the fields that differ from the
defaults (a Fraction as "1/3", a pair as a list), so the launcher can remember them in the
settings and put them in a game's options, which a save holds as they are.
"""
from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from engine.data.errors import problems_of
from engine.data.option_text import from_text

# Never in the dialog: the file's version, the mission (the launcher's Mission list) and the
# deployment mode (the launcher's Deployment list). ``deployment_group`` stays: no list sets it.
NOT_IN_DIALOG = frozenset({"schema_version", "mission", "deployment"})


@dataclass(frozen=True)
class OptionField:
    """One field of an options model, as the dialog shows it."""
    name: str
    kind: str                   # "toggle" (bool), "choice" (a Literal), "number", "pair" (two numbers)
    default: Any
    description: str
    choices: tuple = ()         # a choice's values
    optional: bool = False      # None is a value (typed as an empty entry, shown "none")

    @property
    def label(self) -> str:
        return self.name.replace("_", " ")


def _kind(annotation) -> tuple[str, tuple, bool]:
    optional = False
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(args) < len(typing.get_args(annotation))
        annotation = args[0] if len(args) == 1 else annotation
        origin = typing.get_origin(annotation)
    if annotation is bool:
        return "toggle", (True, False), optional
    if origin is Literal:
        return "choice", tuple(typing.get_args(annotation)), optional
    if origin is tuple:
        return "pair", (), optional
    return "number", (), optional


def option_fields(model: type[BaseModel], exclude=NOT_IN_DIALOG) -> list[OptionField]:
    """The fields of ``model`` a player may change, in the model's order."""
    out = []
    for name, f in model.model_fields.items():
        if name in exclude:
            continue
        kind, choices, optional = _kind(f.annotation)
        out.append(OptionField(name, kind, f.get_default(call_default_factory=True), f.description or "",
                               choices, optional))
    return out


def shown(value) -> str:
    """A value as the dialog writes it: 8, 0.5, 1/3, 48, 36, yes/no, none."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (tuple, list)):
        return ", ".join(shown(v) for v in value)
    return str(value)


def _entry_text(value) -> str:
    return "" if value is None else shown(value)


def _read(model: type[BaseModel], f: OptionField, raw):
    """What the model is given for ``raw`` (an entry's text, a toggle's or a choice's value): the
    text read as the field's declared type (the models are strict: engine/data/option_text.py)."""
    if f.kind in ("toggle", "choice"):
        return raw
    return from_text(model, f.name, str(raw))


class HouseRulesForm:
    """The dialog's state: ``raw[name]`` is what is typed or chosen for each field."""

    def __init__(self, model: type[BaseModel], chosen: dict | None = None, exclude=NOT_IN_DIALOG):
        self.model = model
        self.fields = option_fields(model, exclude)
        self.by_name = {f.name: f for f in self.fields}
        self.defaults = model()
        self.raw: dict[str, Any] = {}
        self.reset()
        start, _ = checked(model, chosen or {})
        for name in self.by_name:
            self.set(name, self._raw_of(self.by_name[name], getattr(start, name)))

    @staticmethod
    def _raw_of(f: OptionField, value):
        return value if f.kind in ("toggle", "choice") else _entry_text(value)

    def reset(self) -> None:
        """Every field back to its default."""
        for f in self.fields:
            self.raw[f.name] = self._raw_of(f, f.default)

    def set(self, name: str, raw) -> None:
        self.raw[name] = raw

    def default_words(self, name: str) -> str:
        return f"default {shown(self.by_name[name].default)}"

    def _values(self) -> dict:
        return {f.name: _read(self.model, f, self.raw[f.name]) for f in self.fields}

    def problems(self) -> list[tuple[str, str]]:
        """(field, reason) for each value the model refuses ("" as the field: a rule between fields)."""
        try:
            self.model(**self._values())
        except ValidationError as err:
            return [(loc.split(".")[0], why) for loc, why in problems_of(err)]
        return []

    def changed(self, name: str) -> bool:
        """Does the field's value (as typed) differ from its default? A value the model cannot
        read counts as changed."""
        f = self.by_name[name]
        value = _read(self.model, f, self.raw[name])
        if f.kind in ("toggle", "choice") or value is None:
            return value != f.default
        try:
            got = getattr(self.model(**{name: value}), name)
        except ValidationError:
            return True
        return got != f.default

    def result(self) -> tuple[dict | None, list[tuple[str, str]]]:
        """(the changed fields' JSON values, []) when the model accepts the form, else (None, problems)."""
        try:
            m = self.model(**self._values())
        except ValidationError as err:
            return None, [(loc.split(".")[0], why) for loc, why in problems_of(err)]
        return non_defaults(m, self.by_name), []


def non_defaults(m: BaseModel, names) -> dict:
    """The JSON values of ``m``'s fields among ``names`` that differ from the model's defaults."""
    d = type(m)()
    dumped = m.model_dump(mode="json")
    return {n: dumped[n] for n in names if getattr(m, n) != getattr(d, n)}


def checked(model: type[BaseModel], chosen: dict, exclude=NOT_IN_DIALOG) -> tuple[BaseModel, str | None]:
    """``chosen`` (remembered changes) read by ``model``: (the options, None), or (the defaults,
    why they were refused) when the model refuses them or names a field it does not have."""
    unknown = sorted(set(chosen) - set(model.model_fields))
    kept = {k: v for k, v in chosen.items() if k in model.model_fields and k not in exclude}
    try:
        m = model(**kept)
    except ValidationError as err:
        return model(), "; ".join(f"{f}: {r}" if f else r for f, r in problems_of(err))
    if unknown:
        return m, f"no option {', '.join(unknown)}"
    return m, None


def problem_words(problems: list[tuple[str, str]]) -> str:
    """The model's refusals as the dialog says them: "dice cap: Input should be ... ; ..."."""
    return "; ".join((f"{f.replace('_', ' ')}: {why}" if f else why) for f, why in problems)


def wrap(text: str, width: int, measure, max_lines: int | None = None) -> list[str]:
    """``text`` in lines no wider than ``width`` by ``measure(line) -> pixels`` (a font's width);
    with ``max_lines``, the last line kept ends with an ellipsis when text is left over."""
    out, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and measure(trial) > width:
            out.append(line)
            line = word
        else:
            line = trial
    if line:
        out.append(line)
    if max_lines is not None and len(out) > max_lines:
        out = out[:max_lines]
        last = out[-1]
        while last and measure(last + "…") > width:
            last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
        out[-1] = last + "…"
    return out
