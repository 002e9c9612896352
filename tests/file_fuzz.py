"""Seeded mutations of data files, for the file fuzz tests (and for a longer run by hand:
``python tests/file_fuzz.py N``).

Every mutation is fed to ``skirmish validate`` and ``skirmish replay --check`` (saves) in
process. A run is clean when nothing raises past the command (exit 0 or 1, no traceback) and
every mutation of a kind that can never be valid (NaN, infinity, numbers beyond any table, deep
nesting, a changed saved game) is refused.
"""
from __future__ import annotations

import contextlib
import copy
import io
import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def shipped_files() -> list[Path]:
    return sorted((ROOT / "maps").glob("*.json")) + sorted((ROOT / "engine" / "rulesets").glob("*/data/**/*.json"))


def _leaves(v, loc=()):
    """Paths to every value in a JSON document (containers included)."""
    yield loc
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _leaves(x, loc + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _leaves(x, loc + (i,))


def _get(doc, loc):
    for k in loc:
        doc = doc[k]
    return doc


def _set(doc, loc, value):
    _get(doc, loc[:-1])[loc[-1]] = value


def mutate(doc, rng: random.Random, save: bool = False):
    """One mutated copy of ``doc`` and whether it must be refused (for a deep nesting: its depth,
    put into the text by the caller). A save's checked parts
    (everything but ``saved_at``) may not change at all, so any change to them must be refused."""
    doc = copy.deepcopy(doc)
    locs = [loc for loc in _leaves(doc) if loc and loc[0] != "saved_at"]
    numbers = [loc for loc in locs if isinstance(_get(doc, loc), (int, float)) and not isinstance(_get(doc, loc), bool)]
    lists = [loc for loc in locs if isinstance(_get(doc, loc), list) and _get(doc, loc)]
    kind = rng.choice(["nan", "inf", "huge", "nan_text", "deep", "type", "drop", "dup", "nudge", "text", "neg"])
    if kind in ("nan", "inf", "huge", "nan_text", "nudge", "neg") and numbers:
        loc = rng.choice(numbers)
        old = _get(doc, loc)
        new = {"nan": float("nan"), "inf": rng.choice([float("inf"), float("-inf")]),
               "huge": rng.choice([1e300, 1e12, -1e9, 10 ** 30]), "nan_text": rng.choice(["NaN", "inf", "-Infinity"]),
               "nudge": old + rng.choice([0.5, 1, -1, 0.001]), "neg": -old - 1}[kind]
        _set(doc, loc, new)
        # every number a file holds has an upper bound far below these (tests/test_data_bounds.py)
        bad = kind in ("nan", "inf", "nan_text") or (kind == "huge" and new in (1e300, 10 ** 30)) or save
        return doc, bad, f"{kind} at {loc}"
    if kind == "deep":
        loc = rng.choice(locs)
        depth = rng.choice([100, 5000, 100_000])
        _set(doc, loc, "__DEEP__")  # written into the text (json.dumps itself would recurse)
        return doc, depth, f"deep at {loc}"
    if kind == "dup" and lists:
        loc = rng.choice(lists)
        lst = _get(doc, loc)
        lst.append(copy.deepcopy(rng.choice(lst)))
        return doc, save, f"dup in {loc}"
    if kind == "drop":
        loc = rng.choice(locs)
        parent = _get(doc, loc[:-1])
        if isinstance(parent, dict):
            del parent[loc[-1]]
        else:
            parent.pop(loc[-1])
        return doc, save, f"drop {loc}"
    loc = rng.choice(locs)
    new = rng.choice([None, True, "12", "", [], {}, 3, -1, 2.5, "no-such-id", [[1, 2]], {"x": 1}])
    if _get(doc, loc) == new:
        new = "something else"
    _set(doc, loc, new)
    return doc, save, f"{kind} {new!r} at {loc}"


def run_command(argv) -> tuple[int | None, str, BaseException | None]:
    from game.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    except SystemExit as e:
        return e.code, err.getvalue(), None
    except BaseException as e:  # noqa: BLE001 - the point is to find these
        return None, err.getvalue(), e
    return rc, err.getvalue(), None


def fuzz(sources: list[tuple[Path, str]], n_per_file: int, seed: int, folder: Path, text_mutations=True) -> dict:
    """Mutate each source ``n_per_file`` times; count tried, refused cleanly, crashed,
    accepted wrongly. ``sources``: (file, kind) with kind "file", "map" (also analysed),
    "save" (version 2: any change is refused) or "save1" (version 1: replayed, no setup check)."""
    rng = random.Random(seed)
    counts = {"tried": 0, "refused": 0, "accepted": 0, "crashed": 0, "accepted_wrongly": 0}
    failures = []
    for src, kind in sources:
        is_save = kind in ("save", "save1")
        doc = json.loads(src.read_text(encoding="utf-8"))
        for i in range(n_per_file):
            mutated, must_refuse, what = mutate(doc, rng, save=kind == "save")
            path = folder / f"{src.stem}-{i}.json"
            text = json.dumps(mutated)
            if "\"__DEEP__\"" in text:
                text = text.replace('"__DEEP__"', "[" * must_refuse + "1" + "]" * must_refuse)
                must_refuse = True
            if text_mutations and rng.random() < 0.1:  # a byte-order mark never matters
                text = "\ufeff" + text
            path.write_text(text, encoding="utf-8")
            commands = [["validate", str(path)]] + ([["replay", str(path), "--check"]] if is_save else [])
            if kind == "map":
                commands.append(["analyze-map", str(path), "--json"])
            for argv in commands:
                counts["tried"] += 1
                rc, err, exc = run_command(argv)
                if exc is not None or rc not in (0, 1) or "Traceback" in err:
                    counts["crashed"] += 1
                    failures.append(f"{src.name} {what} {argv[0]}: crashed {exc!r}")
                elif rc == 1:
                    counts["refused"] += 1
                    if not err.strip() or str(path) not in err:
                        failures.append(f"{src.name} {what} {argv[0]}: refused without naming the file: {err!r}")
                elif must_refuse:
                    counts["accepted_wrongly"] += 1
                    failures.append(f"{src.name} {what} {argv[0]}: accepted")
                else:
                    counts["accepted"] += 1
            path.unlink()
    counts["failures"] = failures
    return counts


def as_version_1(path: Path) -> Path:
    """The same save as a version-1 file (no setup check): its decisions are replayed."""
    data = json.loads(path.read_text())
    for k in ("rules_version", "part_hashes", "setup_hash"):
        data.pop(k, None)
    data["version"] = 1
    out = path.with_name(path.stem + "-v1.json")
    out.write_text(json.dumps(data))
    return out


def sources(folder: Path) -> list[tuple[Path, str]]:
    saves = make_saves(folder)
    return ([(p, "map" if p.parent.name == "maps" else "file") for p in shipped_files()]
            + [(p, "save") for p in saves] + [(as_version_1(p), "save1") for p in saves])


def make_saves(folder: Path, steps: int = 25) -> list[Path]:
    """A short save of each ruleset on its own map (seeded random play)."""
    from engine.ai import make_agent
    from engine.core import Game, Setup
    from engine.core.saves import save_game
    from engine.data.maps import load_map
    from engine.paths import resolve_map

    out = []
    for ruleset, mp in (("counterblast", "outpost"), ("frontier", "town"), ("doubles", "prehistoric")):
        g = Game(Setup(ruleset, load_map(resolve_map(mp)), (), {}, 7))
        agents = {p: make_agent("random", p, 7 + p) for p in (1, 2)}
        for _ in range(steps):
            d = g.pending()
            if d is None:
                break
            g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
        path = folder / f"save-{ruleset}.json"
        save_game(g, path)
        out.append(path)
    return out


if __name__ == "__main__":
    import sys
    import tempfile
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    with tempfile.TemporaryDirectory() as d:
        t0 = time.time()
        folder = Path(d)
        c = fuzz(sources(folder), n, seed, folder)
        for f in c.pop("failures")[:40]:
            print(f)
        print(c, f"{time.time() - t0:.1f} s")
