"""Every number a data file may hold has an upper bound a real game could need, stated in its
schema with a description (issue 30); a huge value in any of them is refused with the file, the
field and the reason.

Two tests: one reads the schemas (every numeric field of every model reachable from the data
files' schemas, the save, the options, the settings and the agents' parameters carries ``le`` or
``lt`` and a description); the other is a fuzz over every numeric field the shipped files, a
save and each ruleset's options hold or may hold: each one set to 1e30, 1e300 and 10**30 in turn,
written to a file and loaded the way ``skirmish validate`` does.
"""
from __future__ import annotations

import copy
import json
import types
import typing
from fractions import Fraction
from pathlib import Path

import annotated_types as at
from pydantic import BaseModel

from engine.data.errors import DataError

ROOT = Path(__file__).resolve().parent.parent
NUMBERS = (int, float, Fraction)
HUGE = (1e30, 1e300, 10 ** 30)


def _schemas() -> dict[str, type[BaseModel]]:
    from engine.ai.hard2026.search import Hard2026Params
    from engine.ai.search import HardParams, SearchParams
    from engine.core.saves import SaveFile
    from engine.data.maps import MapFile
    from engine.rulesets.counterblast import data as cb
    from engine.rulesets.counterblast.options import CounterblastOptions
    from engine.rulesets.doubles import data as db
    from engine.rulesets.frontier import data as fr
    from engine.workshop import carltographer as carto
    from engine.workshop.catalog import CatalogFile
    from game.settings import SettingsFile

    return {"map": MapFile, "save": SaveFile, "cb armoury": cb.Armoury, "cb crew": cb.Crew,
            "cb mission": cb.Mission, "cb options": CounterblastOptions, "fr items": fr.ItemCatalogue,
            "fr posse": fr.Posse, "fr options": fr.Options, "db warband": db.Warband,
            "db options": db.DoublesOptions, "settings": SettingsFile, "normal": SearchParams, "hard": HardParams,
            "hard-2026": Hard2026Params,
            "catalog": CatalogFile, "carltographer layout": carto.Layout, "carltographer catalog": carto.Catalog}


# --- reading the schemas -------------------------------------------------------------------
def _upper_bound(meta) -> bool:
    for m in meta:
        for inner in getattr(m, "metadata", None) or [m]:   # a FieldInfo inside Annotated holds its own
            if isinstance(inner, (at.Le, at.Lt)):
                return True
            if isinstance(inner, at.Interval) and (inner.le is not None or inner.lt is not None):
                return True
    return False


def _typed_slots(ann, leaf: tuple, bounded, meta=(), where=""):
    """(where, ``bounded(meta)``) for every value of a ``leaf`` type (the numbers, or str) inside an
    annotation, dict keys included; models are walked apart."""
    origin = typing.get_origin(ann)
    if origin is typing.Annotated:
        base, *extra = typing.get_args(ann)
        yield from _typed_slots(base, leaf, bounded, tuple(meta) + tuple(extra), where)
    elif origin in (typing.Union, types.UnionType):
        for arm in typing.get_args(ann):
            yield from _typed_slots(arm, leaf, bounded, meta, where)
    elif origin in (list, tuple, dict):
        args = [a for a in typing.get_args(ann) if a is not Ellipsis]
        for i, a in enumerate(args):
            yield from _typed_slots(a, leaf, bounded, (), f"{where}[{'key' if origin is dict and i == 0 else i}]")
    elif ann in leaf:
        yield where, bounded(meta)


def _models(root: type[BaseModel]):
    seen, todo = [], [root]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.append(m)
        for f in m.model_fields.values():
            stack = [f.annotation]
            while stack:
                a = stack.pop()
                if isinstance(a, type) and issubclass(a, BaseModel):
                    todo.append(a)
                stack.extend(x for x in typing.get_args(a) if x is not Ellipsis)
    return seen


def test_every_numeric_field_states_an_upper_bound_and_what_it_is():
    missing = []
    for root in _schemas().values():
        for model in _models(root):
            for name, f in model.model_fields.items():
                slots = list(_typed_slots(f.annotation, NUMBERS, _upper_bound, f.metadata))
                if not slots:
                    continue
                for where, bounded in slots:
                    if not bounded:
                        missing.append(f"{model.__name__}.{name}{where}: no upper bound")
                if not f.description:
                    missing.append(f"{model.__name__}.{name}: no description")
    assert not missing, "\n".join(sorted(set(missing)))


# --- the fuzz --------------------------------------------------------------------------------
def _arm_for(ann, doc):
    """The model a value of a (possibly tagged) union is checked against."""
    arms = [a for a in typing.get_args(ann) if isinstance(a, type) and issubclass(a, BaseModel)]
    for a in arms:
        tag = a.model_fields.get("type")
        if tag is None or (isinstance(doc, dict) and doc.get("type") == tag.default):
            return a
    return None


def _strip(ann):
    while typing.get_origin(ann) is typing.Annotated:
        ann = typing.get_args(ann)[0]
    return ann


def slots(model: type[BaseModel], doc: dict, leaf: tuple, loc=()):
    """Where a value of a ``leaf`` type (the numbers, or str) may go in ``doc``, for every such
    field of ``model`` and of the models inside it that ``doc`` holds (absent optional ones
    included): (location, field name)."""
    for name, f in model.model_fields.items():
        yield from _value_slots(f.annotation, doc.get(name), loc + (name,), name, leaf)


def _value_slots(ann, value, loc, name, leaf):
    ann = _strip(ann)
    origin = typing.get_origin(ann)
    if origin in (typing.Union, types.UnionType):
        arms = [a for a in typing.get_args(ann) if a is not type(None)]
        if any(_strip(a) in leaf for a in arms):
            yield loc, name
            return
        if value is not None:
            arm = _arm_for(ann, value)
            for a in ([arm] if arm is not None else arms):
                yield from _value_slots(a, value, loc, name, leaf)
        return
    if ann in leaf:
        yield loc, name
    elif isinstance(ann, type) and issubclass(ann, BaseModel) and isinstance(value, dict):
        yield from slots(ann, value, leaf, loc)
    elif origin is list and isinstance(value, list) and value:
        (item,) = typing.get_args(ann)
        for i, v in enumerate(value):
            yield from _value_slots(item, v, loc + (i,), name, leaf)
    elif origin is tuple:
        args = typing.get_args(ann)
        items = args[:1] * (len(value) if isinstance(value, list) else 2) if Ellipsis in args else args
        for i, item in enumerate(items):
            yield from _value_slots(item, value[i] if isinstance(value, list) and i < len(value) else None,
                                    loc + (i,), name, leaf)
    elif origin is dict and isinstance(value, dict):
        for k, v in value.items():
            yield from _value_slots(typing.get_args(ann)[1], v, loc + (k,), name, leaf)


def _set(doc, loc, v):
    for k in loc[:-1]:
        doc = doc[k]
    doc[loc[-1]] = v


def _key(loc):
    return tuple("#" if isinstance(k, int) else k for k in loc)


def _cases():
    """(label, schema, base document, loader(path))."""
    from engine.core.saves import read_save
    from engine.data.errors import load_model
    from engine.data.maps import load_map
    from engine.rulesets.counterblast import data as cb
    from engine.rulesets.counterblast.options import CounterblastOptions
    from engine.rulesets.doubles import data as db
    from engine.rulesets.frontier import data as fr
    from game.settings import SettingsFile

    out = []

    def files(pattern, schema, loader):
        for p in sorted(ROOT.glob(pattern)):
            out.append((str(p.relative_to(ROOT)), schema, json.loads(p.read_text()), loader))
    files("maps/*.json", schema=_schemas()["map"], loader=load_map)
    files("engine/rulesets/counterblast/data/armoury.json", cb.Armoury, cb.load_armoury)
    files("engine/rulesets/counterblast/data/crews/*.json", cb.Crew, cb.load_crew)
    files("engine/rulesets/counterblast/data/missions/*.json", cb.Mission, cb.load_mission)
    files("engine/rulesets/frontier/data/items.json", fr.ItemCatalogue, fr.load_items)
    files("engine/rulesets/frontier/data/posses/*.json", fr.Posse, fr.load_posse)
    files("engine/rulesets/frontier/data/options.json", fr.Options, fr.load_options)
    files("engine/rulesets/doubles/data/warbands/*.json", db.Warband, db.load_warband)
    for label, schema in (("counterblast options", CounterblastOptions), ("doubles options", db.DoublesOptions),
                          ("settings", SettingsFile)):
        full = json.loads(schema().model_dump_json())   # every field present, at its default
        out.append((label, schema, full, lambda p, s=schema: load_model(s, p)))
    return out, read_save


def _save_doc(tmp_path):
    from file_fuzz import make_saves
    return json.loads(make_saves(tmp_path, steps=6)[2].read_text())


def _fuzz(cases, leaf, values, tmp_path, longest=None):
    """Each of ``values`` ((value, how a failure shows it)) set in turn at one place per field of
    each case (models[0], not every model), written to a file and loaded: every one must be
    refused with a DataError naming the file and the field (and, with ``longest``, no longer than
    that). Returns (fields, tried, failures)."""
    tried, fields, failures = 0, set(), []
    for label, schema, base, loader in cases:
        done = set()
        for loc, name in slots(schema, base, leaf):
            if _key(loc) in done:
                continue
            done.add(_key(loc))
            fields.add((schema.__name__, _key(loc)))
            for value, shown in values:
                doc = copy.deepcopy(base)
                _set(doc, loc, value)
                path = tmp_path / f"{label.replace('/', '_')}"
                path.write_text(json.dumps(doc))
                tried += 1
                try:
                    loader(path)
                except DataError as err:
                    text = str(err)
                    if str(path) not in text or name not in text or (longest is not None and len(text) > longest):
                        failures.append(f"{label} {loc}{shown}: refused without naming the file and {name}"
                                        + (f", or quoting it whole: {text[:300]}" if longest else f": {text}"))
                    continue
                failures.append(f"{label} {loc}{shown}: accepted")
    return fields, tried, failures


def test_huge_numbers_are_refused_in_every_numeric_field(tmp_path):
    from engine.core.saves import SaveFile

    cases, read_save = _cases()
    cases.append(("save", SaveFile, _save_doc(tmp_path), read_save))
    fields, tried, failures = _fuzz(cases, NUMBERS, [(h, f"={h:g}") for h in HUGE], tmp_path)
    assert not failures, f"{len(failures)} of {tried}:\n" + "\n".join(failures[:40])
    assert len(fields) > 150 and tried > 450, (len(fields), tried)


# --- strings (issue 47: a 40 MB map name was accepted and crashed the renderer) ---------------
LONG = (5_000, 1_000_000)    # past every field's own bound (4,000 at most); past the files' catch-all


def _text_schemas() -> dict[str, type[BaseModel]]:
    from game.ui.help_text import HelpFile, LegendFile

    return {**_schemas(), "help": HelpFile, "legend": LegendFile}


def _max_length(meta) -> bool:
    return any(isinstance(inner, at.MaxLen) for m in meta for inner in (getattr(m, "metadata", None) or [m]))


def test_every_string_field_states_a_length_bound():
    missing = []
    for root in _text_schemas().values():
        for model in _models(root):
            for name, f in model.model_fields.items():
                for where, bounded in _typed_slots(f.annotation, (str,), _max_length, f.metadata):
                    if not bounded:
                        missing.append(f"{model.__name__}.{name}{where}: no max_length")
    assert not missing, "\n".join(sorted(set(missing)))


def _text_cases(tmp_path):
    from engine.core.saves import SaveFile
    from engine.data.errors import load_model
    from engine.workshop.catalog import SHIPPED_DIR, CatalogFile
    from game.ui.help_text import HelpFile, LegendFile, help_dir, load_help_file, load_legend_file

    cases, read_save = _cases()
    cases.append(("save", SaveFile, _save_doc(tmp_path), read_save))
    for p in sorted(SHIPPED_DIR.glob("*.json")):
        cases.append((p.name, CatalogFile, json.loads(p.read_text()), lambda f: load_model(CatalogFile, f)))
    for p in sorted(help_dir().glob("*.json")):
        legend = p.stem == "legend"
        cases.append((p.name, LegendFile if legend else HelpFile, json.loads(p.read_text()),
                      load_legend_file if legend else load_help_file))
    return cases


def test_overlong_strings_are_refused_in_every_string_field(tmp_path):
    fields, tried, failures = _fuzz(_text_cases(tmp_path), (str,), [("a" * n, f" ({n} chars)") for n in LONG],
                                    tmp_path, longest=20_000)
    assert not failures, f"{len(failures)} of {tried}:\n" + "\n".join(failures[:40])
    assert len(fields) > 80 and tried > 250, (len(fields), tried)
