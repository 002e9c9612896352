"""Rules help where the choice is made: what each option does and costs, a glossary per ruleset,
what each lasting marker on a model means, and the legend of the terrain and the overlays.

The words are data, ``assets/help/<ruleset>.json`` and ``assets/help/legend.json`` (shipped in
the ``skirmish_assets`` package), checked here by a pydantic schema like every other data file:
a malformed file is refused with ``DataError`` (file, field, reason), never half used. Files are
read once and kept. No pygame here: the table scene asks and draws.

Every entry names its ``source``: ``docs/rules/<ruleset>.md#<heading>`` (the section of the rules
as implemented) and, where the rule rests on the seed, ``<seed file>: "<a few words>"`` quoted
from it; ``tests/test_help_text.py`` checks that each heading exists and each quote is in its seed,
so a renamed rule or an invented quote fails a test.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.data.errors import DataError, load_json_file, parse_data

RULESETS: tuple[Ruleset, ...] = ("counterblast", "frontier", "doubles")
HELP_SCHEMA_VERSION = 1


@dataclass(frozen=True)
class HelpEntry:
    """One piece of help: a title, a short text in a player's words, and where the rule is written
    (``source``, see the module docstring). ``key`` says what it is about (a choice tag, with
    ``:<variant>`` for one reaction or double effect; a legend item's key); ``colour`` is the RGB
    the client draws a legend item in, for a swatch."""
    title: str
    text: str
    source: str
    key: str = ""
    colour: tuple[int, int, int] | None = None


# --- sources ------------------------------------------------------------------------------
SEED_FILE = r"\d{3}_[0-9a-f]{16}\.txt"
_DOC = re.compile(r"(docs/[\w./-]+\.md)#(.+)")
_SEED = re.compile(rf"({SEED_FILE}): \"([^\"]+)\"")
_CODE = re.compile(r"((?:engine|game)/[\w/]+\.py)(?: \(([\w.]+)\))?")
_SPLIT = re.compile(r"; (?=docs/|engine/|game/|\d{3}_)")
MAX_QUOTE_WORDS = 8       # "quote at most a few words": a pointer into the seed, not a copy of it


@dataclass(frozen=True)
class SourceRef:
    """One reference of a ``source``: kind ``doc`` (path, heading), ``seed`` (file, quote) or
    ``code`` (path, name or "")."""
    kind: str
    path: str
    detail: str


def parse_source(source: str) -> list[SourceRef]:
    """The references of a ``source`` string, ``; ``-separated; ValueError names the first part
    that is none of the three forms."""
    refs = []
    for part in _SPLIT.split(source.strip()):
        if m := _DOC.fullmatch(part):
            refs.append(SourceRef("doc", m.group(1), m.group(2).strip()))
        elif m := _SEED.fullmatch(part):
            words = len(m.group(2).split())
            if words > MAX_QUOTE_WORDS:
                raise ValueError(f"the quote from {m.group(1)} has {words} words; quote at most {MAX_QUOTE_WORDS}")
            refs.append(SourceRef("seed", m.group(1), m.group(2)))
        elif m := _CODE.fullmatch(part):
            refs.append(SourceRef("code", m.group(1), m.group(2) or ""))
        else:
            raise ValueError(f"{part!r} is not 'docs/...md#heading', '<seed>.txt: \"a few words\"' "
                             "or 'engine/...py (name)'")
    return refs


def _check_source(v: str) -> str:
    refs = parse_source(v)
    if not any(r.kind == "doc" for r in refs):
        raise ValueError("names no section of the docs (docs/rules/<ruleset>.md#<heading>)")
    return v


# --- the schema ---------------------------------------------------------------------------
Title = Annotated[str, Field(min_length=1, max_length=80, description="a heading in a player's words")]
Text = Annotated[str, Field(min_length=1, max_length=900, description="one to three sentences in a player's words")]
Source = Annotated[str, Field(min_length=1, max_length=400, description="where the rule is written"),
                   AfterValidator(_check_source)]     # every entry's source checked by the one type
Ruleset = Literal["counterblast", "frontier", "doubles"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Entry(_Strict):
    title: Title
    text: Text
    source: Source


class ChoiceHelp(Entry):
    """A choice's help; a choice whose meaning depends on one of its fields (a reaction, a group's
    action, a double effect) names that ``field`` and gives each value its own entry."""
    field: str | None = Field(None, max_length=40, pattern=r"^[a-z_]+$",
                              description="the choice's field the variants are keyed by")
    variants: dict[Annotated[str, Field(max_length=100)], Entry] = Field(default_factory=dict, max_length=100)

    @model_validator(mode="after")
    def _both(self) -> ChoiceHelp:
        if bool(self.field) != bool(self.variants):
            raise ValueError("'field' and 'variants' go together: name the field and give its values' entries")
        return self


class GlossaryItem(_Strict):
    topic: Title
    text: Text | None = None
    see: str | None = Field(None, max_length=200, pattern=r"^[\w.]+:\w+$",
                            description="'<choice tag>:<variant>': use that entry's text, written once")
    source: Source

    @model_validator(mode="after")
    def _one(self) -> GlossaryItem:
        if (self.text is None) == (self.see is None):
            raise ValueError("give either 'text' or 'see'")
        return self


MarkerWord = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^(N )?[A-Za-z][A-Za-z -]*( N)?$",
                                  description="a marker word, or a pattern with N for a number ('N damage')")]


class MarkerItem(_Strict):
    marker: MarkerWord
    also: list[MarkerWord] = Field(default_factory=list, max_length=5, description="other words for the same marker")
    text: Text
    source: Source


class HelpFile(_Strict):
    schema_version: Literal[1] = Field(description="help file schema version; this build reads 1")
    ruleset: Ruleset
    choices: dict[Annotated[str, Field(max_length=100)], ChoiceHelp] = Field(min_length=1, max_length=200)
    glossary: list[GlossaryItem] = Field(min_length=1, max_length=200)
    markers: list[MarkerItem] = Field(default_factory=list, max_length=100)

    @model_validator(mode="after")
    def _consistent(self) -> HelpFile:
        for tag in self.choices:
            if not (tag.startswith(self.ruleset + ".") or tag.startswith("common.")):
                raise ValueError(f"choice {tag!r} is neither a {self.ruleset} nor a common choice")
        topics = [g.topic.lower() for g in self.glossary]
        dup = sorted({t for t in topics if topics.count(t) > 1})
        if dup:
            raise ValueError(f"glossary topics given twice: {', '.join(dup)}")
        for g in self.glossary:
            if g.see is not None:
                tag, _, var = g.see.partition(":")
                if var not in (self.choices[tag].variants if tag in self.choices else {}):
                    raise ValueError(f"glossary {g.topic!r}: 'see' names {g.see!r}, which this file does not hold")
        words = [_norm(w) for m in self.markers for w in (m.marker, *m.also)]
        dup = sorted({w for w in words if words.count(w) > 1})
        if dup:
            raise ValueError(f"markers given twice: {', '.join(dup)}")
        return self


class TerrainItem(_Strict):
    """A terrain property of the map schema (``engine.data.maps.Piece``) and what it does in each
    ruleset; ``value`` for a property with several settings (``cover``: light, heavy)."""
    property: str = Field(max_length=40, pattern=r"^[a-z_]+$")
    value: str | None = Field(None, max_length=40, pattern=r"^[a-z_]+$")
    title: Title
    text: Text
    rulesets: dict[Ruleset, Text] = Field(description="what it means in each ruleset")
    source: Source

    @field_validator("rulesets")
    @classmethod
    def _all(cls, v: dict) -> dict:
        missing = [r for r in RULESETS if r not in v]
        if missing:
            raise ValueError(f"says nothing for {', '.join(missing)}")
        return v


RGB = tuple[Annotated[int, Field(ge=0, le=255)], Annotated[int, Field(ge=0, le=255)], Annotated[int, Field(ge=0, le=255)]]


class LegendItem(_Strict):
    key: str = Field(max_length=100, pattern=r"^[a-z_.]+$")
    title: Title
    text: Text
    colour: RGB | None = Field(None, description="the colour the client draws it in")
    source: Source


class LegendFile(_Strict):
    schema_version: Literal[1] = Field(description="legend schema version; this build reads 1")
    terrain: list[TerrainItem] = Field(min_length=1, max_length=50)
    shading: list[LegendItem] = Field(min_length=1, max_length=20)
    overlays: list[LegendItem] = Field(default_factory=list, max_length=50)


# --- loading ------------------------------------------------------------------------------
def help_dir() -> Path:
    """``help/`` in the assets: the installed ``skirmish_assets`` package, or the checkout's."""
    from engine.paths import data_dir
    return data_dir("skirmish_assets", "assets") / "help"


def load_help_file(path: str | Path, ruleset: str | None = None) -> HelpFile:
    """A ruleset's help file, checked; ``DataError`` (file, field, reason) when it is not one, or
    is another ruleset's."""
    hf = parse_data(HelpFile, load_json_file(path), path)
    if ruleset is not None and hf.ruleset != ruleset:
        raise DataError(path, [("ruleset", f"is {hf.ruleset!r}; this file must hold {ruleset!r}'s help")])
    return hf


def load_legend_file(path: str | Path) -> LegendFile:
    return parse_data(LegendFile, load_json_file(path), path)


@functools.cache
def _help(ruleset: str) -> HelpFile | None:
    if ruleset not in RULESETS:
        return None
    return load_help_file(help_dir() / f"{ruleset}.json", ruleset)


@functools.cache
def _legend() -> LegendFile:
    return load_legend_file(help_dir() / "legend.json")


def clear_cache() -> None:
    """Forget the files read (tests; a client that reloads its assets)."""
    _help.cache_clear()
    _legend.cache_clear()
    _marker_patterns.cache_clear()


def _entry(e: Entry, key: str) -> HelpEntry:
    return HelpEntry(e.title, e.text, e.source, key)


def help_for(ruleset: str, choice) -> HelpEntry | None:
    """What ``choice`` (an option of a decision) does and costs, by its tag: for a choice keyed by
    a field (a Counterblast reaction or group action, a Doubles double effect) that value's entry.
    None for a ruleset or choice with no help."""
    hf = _help(ruleset)
    tag = getattr(type(choice), "tag", None)
    if hf is None or not isinstance(tag, str) or tag not in hf.choices:
        return None
    ch = hf.choices[tag]
    if ch.field:
        value = getattr(choice, ch.field, None)
        if isinstance(value, str) and value in ch.variants:
            return _entry(ch.variants[value], f"{tag}:{value}")
    return _entry(ch, tag)


def glossary(ruleset: str) -> list[HelpEntry]:
    """The ruleset's glossary in reading order (empty for a ruleset with no help)."""
    hf = _help(ruleset)
    if hf is None:
        return []
    out = []
    for g in hf.glossary:
        if g.see is not None:
            tag, _, var = g.see.partition(":")
            text = hf.choices[tag].variants[var].text
        else:
            assert g.text is not None      # the item's validator: 'text' or 'see'
            text = g.text
        out.append(HelpEntry(g.topic, text, g.source, g.see or ""))
    return out


def _norm(word: str) -> str:
    """Marker words compare without case, and '_' and '-' read as spaces ('Half_blind' is
    'Half-blind')."""
    return " ".join(re.sub(r"[_\-]", " ", word).lower().split())


@functools.cache
def _marker_patterns(ruleset: str) -> tuple:
    hf = _help(ruleset)
    out = []
    for m in (hf.markers if hf else ()):
        for w in (m.marker, *m.also):
            rx = " ".join(r"\d+" if t == "N" else re.escape(_norm(t)) for t in w.split())
            out.append((re.compile(rx), m.text))
    return tuple(out)


def marker_help(ruleset: str, marker: str) -> str | None:
    """What a marker the view puts on a model means ('Prone', '3 damage', '2 AP'), or None."""
    word = _norm(marker)
    for rx, text in _marker_patterns(ruleset):
        if rx.fullmatch(word):
            return text
    return None


def _default_kinds(prop: str, value: str | None) -> list[str]:
    """The map kinds that have a property unless a map says otherwise (``KIND_DEFAULTS``), read
    from the schema so the legend stays true when a kind changes."""
    from engine.data.maps import KIND_DEFAULTS
    want = True if value is None else value
    return [k for k, d in KIND_DEFAULTS.items() if prop in d and prop != "height_mm" and d[prop] == want]


def legend(ruleset: str | None = None) -> list[HelpEntry]:
    """The legend: each terrain property (with what it does in ``ruleset``, or in all three), then
    the R / V / T shadings, then the overlays."""
    from game.presenters import presenter_for  # (each ruleset's short name)
    lf = _legend()
    out = []
    for t in lf.terrain:
        mine = next((text for r, text in t.rulesets.items() if r == ruleset), None)
        per = ([mine] if mine is not None
               else [f"{presenter_for(r).short}: {t.rulesets[r]}" for r in RULESETS])
        key = "terrain." + t.property + (f".{t.value}" if t.value else "")
        kinds = _default_kinds(t.property, t.value)
        if kinds:
            per.append("By default: " + ", ".join(kinds) + " (a map may say otherwise).")
        out.append(HelpEntry(t.title, " ".join([t.text, *per]), t.source, key))
    for item in (*lf.shading, *lf.overlays):
        out.append(HelpEntry(item.title, item.text, item.source, item.key,
                             item.colour))
    return out
