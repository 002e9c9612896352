"""Rules help (issue 31, "Help where the choice is made"): assets/help/*.json and game/ui/help_text.py.

What must hold, found from the code rather than from a hand list wherever the code can say it:
every choice tag of every ruleset has help (the ``Choice`` subclasses with a tag, walked after the
rulesets are imported), every reaction, group action and double effect has its own entry, every
marker seen in seeded random games has help, every source names a heading that exists in the docs
and quotes words that really are in its seed, the legend covers every terrain property of the map
schema and names colours the client draws, and a malformed help file is refused with its file and
field.
"""
from __future__ import annotations

import json
import re
import shutil
import sys
import tomllib
import typing
from fnmatch import fnmatch
from pathlib import Path

import pytest

from engine.core import Game, Setup
from engine.core.protocol import Choice
from engine.core.rules import get_rules
from engine.data.errors import DataError
from game.ui import help_text as H

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"          # ../shared/seeds, beside the worktree
SEED_OF = {"counterblast": "003_52d4831de0a47706.txt", "frontier": "000_0c05cfd63e59894e.txt",
           "doubles": "004_664065b4c29fdc82.txt"}
HELP = ROOT / "assets" / "help"


@pytest.fixture(autouse=True)
def _fresh():
    H.clear_cache()
    yield
    H.clear_cache()


# --- choices ------------------------------------------------------------------------------
def _choice_classes() -> dict[str, list[type]]:
    """Every shipped Choice subclass with a tag, by ruleset ("common." ones under each)."""
    for r in H.RULESETS:
        get_rules(r)                     # imports the ruleset and its choices
    seen, stack = [], list(Choice.__subclasses__())
    while stack:
        c = stack.pop()
        stack += c.__subclasses__()
        if c.__module__.startswith("engine.rulesets.") and isinstance(getattr(c, "tag", None), str):
            seen.append(c)
    out = {r: [] for r in H.RULESETS}
    for c in seen:
        prefix = c.tag.split(".")[0]
        for r in (H.RULESETS if prefix == "common" else [prefix]):
            out[r].append(c)
    return out


def _bare(cls):
    """An instance of a frozen choice class with no fields set (help_for reads only its type and
    the field its variants are keyed by)."""
    return object.__new__(cls)


def test_every_choice_tag_of_every_ruleset_has_help_and_no_help_names_a_missing_choice():
    classes = _choice_classes()
    assert sum(len(v) for v in classes.values()) >= 60        # the walk found the rulesets' choices
    for r, cls_list in classes.items():
        tags = {c.tag for c in cls_list}
        assert "common.MoveTo" in tags
        missing = [c.tag for c in cls_list if H.help_for(r, _bare(c)) is None]
        assert not missing, f"{r}: no help for {missing}"
        for c in cls_list:
            e = H.help_for(r, _bare(c))
            assert e.key == c.tag and e.title and e.text and e.source
        stale = set(H.load_help_file(HELP / f"{r}.json").choices) - tags
        assert not stale, f"{r}: help for choices that no longer exist: {stale}"


def _variants(r: str, tag: str) -> dict:
    return H.load_help_file(HELP / f"{r}.json").choices[tag].variants


def test_each_double_effect_has_its_own_entry_and_help_for_gives_it():
    from engine.rulesets.doubles import duel
    from engine.rulesets.doubles.choices import ChooseEffect
    effects = set(duel.EFFECT_WORDS)       # every id the duel can offer, "none" included
    assert effects >= set(duel.ATTACKER_EFFECTS) | set(duel.DEFENDER_EFFECTS) | {duel.FORCE_ATTACK, duel.LOW_AMMUNITION}
    assert set(_variants("doubles", ChooseEffect.tag)) == effects
    for e in effects:
        got = H.help_for("doubles", ChooseEffect("1.lokee", e))
        assert got.key == f"doubles.ChooseEffect:{e}"
        assert got.title.lower() == duel.EFFECT_WORDS[e].split(":")[0].lower()   # the engine's own name
    # an effect the file does not know falls back to the choice's general entry
    assert H.help_for("doubles", ChooseEffect("1.lokee", "made_up")).key == "doubles.ChooseEffect"


def test_each_reaction_and_group_action_of_counterblast_has_its_own_entry():
    from engine.rulesets.counterblast.actions import ACTIONS
    from engine.rulesets.counterblast.choices import GroupAction, React
    from engine.rulesets.counterblast.flow.common import _KINDS, TEAM_FOR
    reactions = {a for a, info in ACTIONS.items() if info.category == "reaction"}
    assert set(_variants("counterblast", React.tag)) == reactions
    # a group picks among the kinds of its members' own actions: team actions and Do Nothing
    # are what members answer with, never the group's pick
    kinds = set(_KINDS.values()) - set(TEAM_FOR.values()) - {"do_nothing"}
    assert set(_variants("counterblast", GroupAction.tag)) == kinds
    parry = H.help_for("counterblast", React("2-boss", "parry"))
    assert parry.title == "Parry" and "Grit" in parry.text and parry.key == "counterblast.React:parry"
    assert H.help_for("counterblast", GroupAction("shoot")).title == "The group Shoots"


def test_help_for_something_that_is_not_a_choice_or_an_unknown_ruleset_is_none():
    from engine.rulesets.frontier.choices import Pass
    assert H.help_for("frontier", "Pass") is None
    assert H.help_for("chess", Pass()) is None
    assert H.help_for("counterblast", Pass()) is None     # another ruleset's choice
    assert H.glossary("chess") == [] and H.marker_help("chess", "Prone") is None


# --- glossary -----------------------------------------------------------------------------
REQUIRED_TOPICS = {   # the list, each matched by a word of some topic
    "counterblast": ["Moxie checks", "Moxie spending", "Group activations", "Reactions", "Multitasking",
                     "Down, Stable", "Dread and Panic", "Rally", "Victory"],
    "frontier": ["deck and hands of eight", "Favoured suits", "Opposed tests", "Damage against toughness",
                 "Cover", "Shooting into combat", "eighth-card pairs", "poker-hand priority",
                 "Shortfall and forfeit", "Keep or ditch", "Rout and victory"],
    "doubles": ["Action points", "initiative track", "Range bands", "Attack and defence pools",
                "Keeping two dice", "Doubles", "Penalty dice", "Armour", "damage table", "Weapon breakage",
                "Aiming", "Back shots", "on the ground", "Shooting into a melee", "Victory"],
}


@pytest.mark.parametrize("ruleset", H.RULESETS)
def test_glossary_has_the_topics_a_player_needs(ruleset):
    topics = [e.title.lower() for e in H.glossary(ruleset)]
    for want in REQUIRED_TOPICS[ruleset]:
        assert any(want.lower() in t for t in topics), f"{ruleset}: no glossary topic on {want!r}"
    assert all(e.text and e.source for e in H.glossary(ruleset))


def test_counterblast_glossary_has_each_condition_and_doubles_each_effect_by_name():
    from engine.rulesets.counterblast.conditions import CONDITIONS, NAMES
    from engine.rulesets.doubles import duel
    cb = {e.title.lower() for e in H.glossary("counterblast")}
    for c in CONDITIONS:
        assert NAMES[c].lower() in cb or c.replace("_", "-") in cb, f"no glossary entry for {c}"
    db = {e.title.lower().replace(" (a double)", "") for e in H.glossary("doubles")}
    for e, words in duel.EFFECT_WORDS.items():
        if e != duel.NO_EFFECT:
            assert words.split(":")[0].lower() in db, f"no glossary entry for {e}"
    # a glossary entry written once as the choice's variant reads the variant's text
    flaw = next(g for g in H.glossary("doubles") if g.title == "Flaw")
    assert flaw.text == _variants("doubles", "doubles.ChooseEffect")["flaw"].text


# --- markers ------------------------------------------------------------------------------
def _maps():
    sys.path.insert(0, str(Path(__file__).parent))
    from counterblast_fixtures import CLOSE
    from test_doubles_rules import arena_map

    from engine.data.maps import load_map
    return {"counterblast": CLOSE, "frontier": load_map(ROOT / "maps" / "town.json"), "doubles": arena_map()}


def _markers_seen(ruleset: str, mapfile, seeds) -> set[str]:
    from engine.ai import make_agent
    seen = set()
    for seed in seeds:
        g = Game(Setup(ruleset, mapfile, (), {}, seed))
        agents = {p: make_agent("random", p, seed * 31 + p) for p in (1, 2)}
        n = 0
        while (d := g.pending()) is not None and n < 3000:
            g.submit(d.player, agents[d.player].choose(d, {}))
            n += 1
            for p in g.view(None)["pieces"]:
                seen.update(p["markers"])
    return seen


@pytest.mark.parametrize("ruleset", H.RULESETS)
def test_every_marker_seen_in_seeded_random_games_has_help(ruleset):
    seen = _markers_seen(ruleset, _maps()[ruleset], seeds=(0, 1, 2))
    kinds = {re.sub(r"\d+", "N", m) for m in seen}
    assert len(kinds) >= {"counterblast": 6, "frontier": 2, "doubles": 3}[ruleset], kinds   # the games did show markers
    missing = sorted(m for m in seen if H.marker_help(ruleset, m) is None)
    assert not missing, f"{ruleset}: markers without help: {missing}"


def test_marker_words_and_patterns():
    from engine.rulesets.counterblast.conditions import CONDITIONS, NAMES
    for c in CONDITIONS:            # as the view words them today (capitalised) and by their proper names
        assert H.marker_help("counterblast", c.capitalize()), c
        assert H.marker_help("counterblast", NAMES[c]), c
    assert H.marker_help("counterblast", "Half_blind") == H.marker_help("counterblast", "Half-blind")
    assert "Mettle" in H.marker_help("counterblast", "12 damage")
    assert H.marker_help("counterblast", "damage") is None and H.marker_help("counterblast", "Sleepy") is None
    assert H.marker_help("doubles", "3 AP") and H.marker_help("doubles", "aggressiveness 2")
    assert H.marker_help("doubles", "AP") is None
    assert H.marker_help("frontier", "second move used") and H.marker_help("frontier", "Prone") is None


# --- sources ------------------------------------------------------------------------------
def _norm(text: str) -> str:
    """Case and spacing aside, and the seeds' typographic quotes read as plain ones."""
    for a, b in (("\u2019", "'"), ("\u2018", "'"), ("\u201c", '"'), ("\u201d", '"')):
        text = text.replace(a, b)
    return " ".join(text.lower().split())


def headings(doc: Path) -> set[str]:
    """A markdown file's headings as plain text (emphasis and code marks dropped)."""
    out = set()
    in_code = False
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            out.add(" ".join(re.sub(r"[*`]", "", m.group(1)).split()))
    return out


def source_problems(source: str, ruleset: str | None) -> list[str]:
    """What is wrong with a source: a heading not in its doc, a quote not in its seed, code that
    is not there; for a ruleset's help, no section of that ruleset's rules or another's seed."""
    try:
        refs = H.parse_source(source)
    except ValueError as err:
        return [str(err)]
    probs = []
    for r in refs:
        if r.kind == "doc":
            doc = ROOT / r.path
            if not doc.is_file():
                probs.append(f"no file {r.path}")
            elif r.detail not in headings(doc):
                probs.append(f"{r.path} has no heading {r.detail!r}")
        elif r.kind == "seed":
            seed = SEEDS / r.path
            if ruleset is not None and r.path != SEED_OF[ruleset]:
                probs.append(f"{r.path} is not {ruleset}'s seed")
            if not seed.is_file():
                probs.append(f"no seed {r.path}")
            elif _norm(r.detail) not in _norm(seed.read_text(encoding="utf-8")):
                probs.append(f"{r.path} does not say {r.detail!r}")
        else:
            code = ROOT / r.path
            if not code.is_file():
                probs.append(f"no file {r.path}")
            elif r.detail and not re.search(rf"\b{re.escape(r.detail)}\b", code.read_text(encoding="utf-8")):
                probs.append(f"{r.path} has no {r.detail}")
    if ruleset is not None and not any(r.kind == "doc" and r.path == f"docs/rules/{ruleset}.md" for r in refs):
        probs.append(f"cites no section of docs/rules/{ruleset}.md")
    return probs


def _sources(obj, where=""):
    if isinstance(obj, dict):
        if isinstance(obj.get("source"), str):
            yield where, obj["source"]
        for k, v in obj.items():
            yield from _sources(v, f"{where}.{k}" if where else str(k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _sources(v, f"{where}[{i}]")


needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds (../shared/seeds) are not beside this checkout")


@needs_seeds
@pytest.mark.parametrize("name", [*H.RULESETS, "legend"])
def test_every_source_names_a_real_heading_and_a_real_quote(name):
    data = json.loads((HELP / f"{name}.json").read_text(encoding="utf-8"))
    ruleset = name if name in H.RULESETS else None
    found = list(_sources(data))
    assert len(found) >= 10
    bad = {w: p for w, s in found if (p := source_problems(s, ruleset))}
    assert not bad, json.dumps(bad, indent=1)
    if ruleset:            # the help rests on the seed wherever the seed has the rule
        quoted = sum(1 for _, s in found if any(r.kind == "seed" for r in H.parse_source(s)))
        assert quoted >= 0.8 * len(found), (quoted, len(found))


@needs_seeds
def test_the_source_check_catches_a_renamed_rule_and_an_invented_quote():
    good = 'docs/rules/counterblast.md#7. Movement; 003_52d4831de0a47706.txt: "rolls a d10 and uses the result"'
    assert source_problems(good, "counterblast") == []
    assert source_problems(good.replace("7. Movement", "7. Moving"), "counterblast") == [
        "docs/rules/counterblast.md has no heading '7. Moving'"]
    assert source_problems(good.replace("rolls a d10", "rolls two d10"), "counterblast") == [
        "003_52d4831de0a47706.txt does not say 'rolls two d10 and uses the result'"]
    assert "is not counterblast's seed" in source_problems(
        'docs/rules/counterblast.md#7. Movement; 004_664065b4c29fdc82.txt: "Shoot"', "counterblast")[0]
    assert source_problems("docs/rules/frontier.md#1. Cards", "counterblast") == [
        "cites no section of docs/rules/counterblast.md"]
    assert source_problems("engine/data/maps.py (NO_SUCH_NAME)", None) == ["engine/data/maps.py has no NO_SUCH_NAME"]
    long = 'docs/rules/counterblast.md#7. Movement; 003_52d4831de0a47706.txt: "' + "word " * 9 + '"'
    assert "quote at most" in source_problems(long, "counterblast")[0]


# --- the legend ---------------------------------------------------------------------------
def test_the_legend_covers_every_terrain_property_of_the_map_schema():
    from engine.data.maps import CoverClass, Piece
    props = set(Piece.model_fields) - {"id", "kind", "name", "shape"}
    assert props >= {"blocks_sight", "obscuring", "cover", "impassable", "difficult", "climbable", "height"}
    want = {f"terrain.{p}" for p in props if p != "cover"}
    want |= {f"terrain.cover.{v}" for v in typing.get_args(CoverClass) if v != "none"}
    keys = {e.key for e in H.legend() if e.key.startswith("terrain.")}
    assert keys == want
    for r in H.RULESETS:                   # each ruleset's own words, and only its own
        for e in H.legend(r):
            if e.key.startswith("terrain."):
                others = [n for n in ("Counterblast:", "Frontier:", "Doubles:") if n in e.text]
                assert not others, (r, e.key)
    keys = {e.key for e in H.legend()}
    assert {"shade.reach", "shade.sight", "shade.threat", "overlay.route_legal", "overlay.route_refused",
            "overlay.range_ring", "overlay.sight_clear", "overlay.sight_partial", "overlay.sight_none"} <= keys


def test_the_legend_lists_the_kinds_that_have_each_property_from_the_schema():
    from engine.data.maps import KIND_DEFAULTS
    by_key = {e.key: e.text for e in H.legend("doubles")}
    for prop in ("blocks_sight", "obscuring", "impassable", "difficult", "climbable"):
        for kind, d in KIND_DEFAULTS.items():
            listed = re.search(rf"By default: [^(]*\b{kind}\b", by_key[f"terrain.{prop}"]) is not None
            assert listed == d[prop], (prop, kind)


def _client_colours() -> set[tuple[int, int, int]]:
    """Every RGB(A) literal in the client's code."""
    out = set()
    for py in (ROOT / "game").rglob("*.py"):
        for m in re.finditer(r"\((\d{1,3}), (\d{1,3}), (\d{1,3})(?:, \d{1,3})?\)", py.read_text(encoding="utf-8")):
            out.add(tuple(int(x) for x in m.groups()))
    return out


def test_legend_colours_are_colours_the_client_draws():
    drawn = _client_colours()
    for e in H.legend():
        if e.colour is not None:
            assert e.colour in drawn, f"{e.key}: the client draws no {e.colour}"


def test_route_and_sight_line_colours_are_the_pixels_drawn():
    import os
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from game.render import overlays as ov

    class Cam:          # a camera whose screen is the table in mm, one pixel a mm, y down
        mm_per_unit = 1.0
        px_per_mm = 1.0

        def to_screen(self, x, y):
            return (x, 100 - y)

    colours = {e.key: e.colour for e in H.legend()}
    surf = pygame.Surface((100, 100))

    def drawn(fn) -> tuple:
        surf.fill((0, 0, 0))
        fn()
        return tuple(surf.get_at((50, 50)))[:3]

    assert drawn(lambda: ov.draw_path(surf, Cam(), [(10, 50), (90, 50)], True)) == colours["overlay.route_legal"]
    assert drawn(lambda: ov.draw_path(surf, Cam(), [(10, 50), (90, 50)], False)) == colours["overlay.route_refused"]
    for frac, key in ((1.0, "overlay.sight_clear"), (0.5, "overlay.sight_partial"), (0.0, "overlay.sight_none")):
        assert drawn(lambda: ov.draw_rays(surf, Cam(), (10, 50), (90, 50), frac)) == colours[key], key


# --- refusing bad files -------------------------------------------------------------------
def _write(tmp_path, name, data) -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


def _shipped(name):
    return json.loads((HELP / f"{name}.json").read_text(encoding="utf-8"))


def _refusal(fn, path) -> str:
    with pytest.raises(DataError) as err:
        fn(path)
    msg = str(err.value)
    assert str(path) in msg
    return msg


def test_a_malformed_help_file_is_refused_with_file_field_and_reason(tmp_path):
    load = lambda p: H.load_help_file(p, "counterblast")  # noqa: E731
    d = _shipped("counterblast")
    del d["choices"]["counterblast.Rush"]["text"]
    assert "choices.counterblast.Rush.text: Field required" in _refusal(load, _write(tmp_path, "a.json", d))

    d = _shipped("counterblast")
    d["glossary"][0]["source"] = "the rulebook, page 3"
    msg = _refusal(load, _write(tmp_path, "b.json", d))
    assert "glossary[0].source" in msg and "is not 'docs/...md#heading'" in msg

    d = _shipped("counterblast")
    d["markers"][0]["source"] = '003_52d4831de0a47706.txt: "Shoot"'
    assert "markers[0].source: names no section of the docs" in _refusal(load, _write(tmp_path, "c.json", d))

    d = _shipped("counterblast")
    d["choices"]["counterblast.React"]["variants"]["parry"]["title"] = ""
    assert "choices.counterblast.React.variants.parry.title" in _refusal(load, _write(tmp_path, "d.json", d))

    d = _shipped("frontier")
    assert "ruleset: is 'frontier'" in _refusal(load, _write(tmp_path, "e.json", d))

    d = _shipped("counterblast")
    d["choices"]["frontier.Pass"] = d["choices"]["counterblast.Rush"]
    assert "neither a counterblast nor a common choice" in _refusal(load, _write(tmp_path, "f.json", d))

    d = _shipped("doubles")
    d["glossary"][8]["see"] = "doubles.ChooseEffect:moonwalk"
    msg = _refusal(lambda p: H.load_help_file(p), _write(tmp_path, "g.json", d))
    assert "'doubles.ChooseEffect:moonwalk', which this file does not hold" in msg

    d = _shipped("doubles")
    d["markers"].append(dict(d["markers"][0]))
    assert "markers given twice: n ap" in _refusal(lambda p: H.load_help_file(p), _write(tmp_path, "h.json", d))

    d = _shipped("doubles")
    d["schema_version"] = 2
    assert "schema_version" in _refusal(lambda p: H.load_help_file(p), _write(tmp_path, "i.json", d))

    assert "not valid JSON" in _refusal(load, _write(tmp_path, "j.json", "{\"choices\": "))
    assert "no such file" in _refusal(load, tmp_path / "none.json")


def test_a_malformed_legend_is_refused_with_file_field_and_reason(tmp_path):
    d = _shipped("legend")
    del d["terrain"][2]["rulesets"]["frontier"]
    msg = _refusal(H.load_legend_file, _write(tmp_path, "legend.json", d))
    assert "terrain[2].rulesets: says nothing for frontier" in msg
    d = _shipped("legend")
    d["overlays"][0]["colour"] = [300, 0, 0]
    assert "overlays[0].colour[0]: Input should be less than or equal to 255" in _refusal(H.load_legend_file, _write(tmp_path, "legend.json", d))


def test_the_api_refuses_a_broken_shipped_file_and_reads_each_file_once(tmp_path, monkeypatch):
    from engine.rulesets.counterblast.choices import Rush
    for f in HELP.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    monkeypatch.setattr(H, "help_dir", lambda: tmp_path)
    reads = []
    real = H.load_help_file
    monkeypatch.setattr(H, "load_help_file", lambda p, r=None: reads.append(Path(p).name) or real(p, r))
    for _ in range(3):
        assert H.help_for("counterblast", Rush("1-captain")).title == "Rush"
        H.glossary("counterblast")
        H.marker_help("counterblast", "Prone")
    assert reads == ["counterblast.json"]                # cached

    d = _shipped("counterblast")
    d["choices"]["counterblast.Rush"]["source"] = ""
    _write(tmp_path, "counterblast.json", d)
    H.clear_cache()
    with pytest.raises(DataError) as err:
        H.help_for("counterblast", Rush("1-captain"))
    assert f"{tmp_path / 'counterblast.json'}: choices.counterblast.Rush.source" in str(err.value)


# --- shipping -----------------------------------------------------------------------------
def test_the_help_files_are_package_data_of_skirmish_assets():
    """A non-editable install ships what ``[tool.setuptools.package-data]`` names (checked by
    building a wheel by hand: the four files are in skirmish_assets/help/)."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["skirmish_assets"]
    files = sorted(HELP.glob("*.json"))
    assert {f.name for f in files} == {"counterblast.json", "frontier.json", "doubles.json", "legend.json"}
    for f in files:
        rel = f.relative_to(ROOT / "assets").as_posix()
        assert any(fnmatch(rel, p) and ("/" in p) == ("/" in rel) for p in patterns), rel
