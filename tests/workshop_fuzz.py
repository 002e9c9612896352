"""A battery of bad input against the workshop's commands, each run as a process with a time limit
(issue 47, "Done when": 0 tracebacks, 0 hangs, 0 wrong acceptances, 0 overwrites).

    python tests/workshop_fuzz.py [--fast] [--json REPORT] [--only WORD]

Commands: ``edit``, ``generate``, ``balance``, ``sheet``, the Carltographer import (and of our own
Tabletop Simulator saves), ``export --to carltographer|tts``, ``replay``,
``experiment --resume``, ``analyze-map A B``, ``simulate --save-dir``: each bad file of a library
(missing, a folder, a named pipe, empty, binary, not JSON, truncated, ``[]``, ``{}``, too deep,
NaN, 1e30, a 5 MB name, too many pieces, a roster or a save where a map belongs, a sparse 70 MB
file...) given to every command that reads a map or a save, each bad option value, damaged
``--resume`` folders and bad Carltographer files. A case counts as

- a **traceback** when the output holds one or the process died of a signal (a segfault);
- a **hang** when it outlived its time limit (it is killed);
- a **wrong acceptance** when it ended 0 where a refusal was due;
- an **overwrite** when a file that was there before (the bad file, a run's results, a folder to
  resume) changed or went;
- a **wrong code** when it refused with another exit code than the documented one (docs/commands.md: 1 a file, 2 usage).

``--fast`` runs the subset marked fast (quick refusals; ``tests/test_workshop_bad_input.py`` runs
it). The full battery plays a two-game experiment to damage; expect ten minutes on two cores.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "prehistoric.json"
LAYOUT = ROOT / "tests" / "data" / "carltographer" / "small-layout.json"


@dataclass
class Case:
    group: str
    name: str
    argv: list                       # "{t}" is the case's folder, "{b}" the shared one
    expect: tuple = (1,)             # the exit codes that are right; 0 not among them: a refusal is due
    keep: tuple = ()                 # paths (with the placeholders) that must not change
    timeout: float = 60.0
    fast: bool = False
    env: dict = field(default_factory=dict)
    python: bool = False             # argv is for ``python`` itself, not ``python -m game.cli``


def _snapshot(paths) -> dict:
    out = {}
    for p in paths:
        p = Path(p)
        if p.is_dir():
            for q in sorted(p.rglob("*")):
                out[str(q)] = ("fifo" if q.is_fifo() else "dir" if q.is_dir() else
                               hashlib.sha256(q.read_bytes()).hexdigest())
        elif p.is_fifo():
            out[str(p)] = "fifo"
        elif p.exists():
            big = p.stat().st_size >= 200_000_000         # the sparse file: its size stands for it
            out[str(p)] = p.stat().st_size if big else hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[str(p)] = None
    return out


def run_case(case: Case, base: Path, work: Path) -> dict:
    t = work / f"{case.group}-{abs(hash(case.name)) % 10 ** 8}"
    t.mkdir(parents=True, exist_ok=True)
    sub = lambda s: str(s).replace("{t}", str(t)).replace("{b}", str(base))  # noqa: E731
    argv = [sub(a) for a in case.argv]
    keep = [sub(k) for k in case.keep]
    before = _snapshot(keep)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SKIRMISH_HOME": str(t / "home"), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1", **{k: sub(v) for k, v in case.env.items()}}
    cmd = [sys.executable, *argv] if case.python else [sys.executable, "-m", "game.cli", *argv]
    t0 = time.monotonic()
    res = {"group": case.group, "case": case.name, "argv": argv[:12], "expect": list(case.expect)}
    try:
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=case.timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as err:
        res.update(verdict="hang", seconds=round(time.monotonic() - t0, 1),
                   tail=((err.stderr or b"")[-300:]).decode("utf-8", "replace"))
        return res
    text = (p.stdout + p.stderr).decode("utf-8", "replace")
    res.update(rc=p.returncode, seconds=round(time.monotonic() - t0, 1), tail=text[-400:])
    after = _snapshot(keep)
    changed = [k for k, v in before.items() if v is not None and after.get(k) != v]
    if p.returncode == HUNG and case.python:
        res["verdict"] = "hang"
    elif "Traceback" in text or p.returncode < 0 or p.returncode not in (0, 1, 2, 130):
        res["verdict"] = "traceback"
    elif changed:
        res["verdict"], res["changed"] = "overwrite", changed[:5]
    elif p.returncode == 0 and 0 not in case.expect:
        res["verdict"] = "wrong acceptance"
    elif p.returncode not in case.expect:
        res["verdict"] = "wrong code"
    else:
        res["verdict"] = "ok"
    return res


# --- the library of bad files ---------------------------------------------------------------------
def _map_doc() -> dict:
    return json.loads(MAP.read_text())


def bad_files(d: Path) -> dict[str, Path]:
    """name -> a file (or what stands in its place) that no map-reading command may accept."""
    d.mkdir(parents=True, exist_ok=True)
    out: dict[str, Path] = {"missing": d / "missing.json"}
    (d / "folder.json").mkdir(exist_ok=True)
    out["a folder"] = d / "folder.json"
    if not (d / "fifo.json").exists():
        os.mkfifo(d / "fifo.json")
    out["a named pipe"] = d / "fifo.json"

    def put(name, text: str | bytes):
        p = d / (name.replace(" ", "-").replace("/", "") + ".json")
        p.write_bytes(text if isinstance(text, bytes) else text.encode())
        out[name] = p

    put("empty", "")
    put("binary", bytes(range(256)) * 40)
    put("not JSON", "this is not a map\n")
    put("truncated", MAP.read_text()[: len(MAP.read_text()) // 2])
    put("[]", "[]")
    put("{}", "{}")
    put("a string", '"prehistoric"')
    put("too deep", "[" * 5000 + "]" * 5000)
    put("a huge integer", "{\"width\": " + "9" * 5000 + "}")
    for name, change in [
        ("NaN width", {"width": "NaN!"}), ("1e30 width", {"width": 1e30}), ("width as a string", {"width": "60"}),
        ("a 5 MB name", {"name": "N" * 5_000_000}), ("a 200 kB description", {"description": "d" * 200_000}),
        ("unit furlongs", {"unit": "furlong"}), ("one zone", {"deployment": _map_doc()["deployment"][:1]}),
        ("schema 99", {"schema_version": 99}), ("id with spaces", {"id": "My Map"}),
    ]:
        doc = {**_map_doc(), **change}
        text = json.dumps(doc).replace('"NaN!"', "NaN")
        put(name, text)
    doc = _map_doc()
    p0 = doc["pieces"][0]
    put("3,000 pieces", json.dumps({**doc, "pieces": [{**p0, "id": f"p{i}"} for i in range(3000)]}))
    put("a piece 1e6 away", json.dumps({**doc, "pieces": [{**p0, "shape": {"type": "circle", "center": [1e6, 5],
                                                                           "radius": 2}}]}))
    put("a piece of no area", json.dumps({**doc, "pieces": [{**p0, "shape": {"type": "polygon",
                                                                             "points": [[1, 1], [2, 2], [3, 3]]}}]}))
    put("duplicate ids", json.dumps({**doc, "pieces": [p0, p0]}))
    put("a 100k-character piece name", json.dumps({**doc, "pieces": [{**p0, "name": "x" * 100_001}]}))
    put("a roster", (ROOT / "engine/rulesets/doubles/data/warbands").glob("*.json").__next__().read_text())
    sparse = d / "sparse-70MB.json"
    with open(sparse, "wb") as f:
        f.truncate(70 * 1024 * 1024)
    out["a sparse 70 MB file"] = sparse
    return out


def bad_saves(d: Path, save: Path) -> dict[str, Path]:
    """Damaged copies of a real save (besides the bad files, which no replay may accept either)."""
    d.mkdir(parents=True, exist_ok=True)
    out = {}
    good = json.loads(save.read_text())

    def put(name, doc_or_text):
        p = d / ("save-" + name.replace(" ", "-") + ".json")
        p.write_text(doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text))
        out["save: " + name] = p

    put("truncated", save.read_text()[:-50])
    put("hash changed", {**good, "state_hash": "0" * 32})
    put("a decision removed", {**good, "decisions": good["decisions"][:-1]})
    put("seed changed", {**good, "seed": good["seed"] + 1})
    put("a 5 MB map name", {**good, "map": {**good["map"], "name": "N" * 5_000_000}})
    put("ruleset nope", {**good, "ruleset": "nope"})
    put("a choice of the wrong shape", {**good, "decisions": [{"player": 1, "choice": {"tag": 5}}] + good["decisions"]})
    put("a huge string in a choice", {**good, "decisions": [{"player": 1, "choice": {"tag": "x" * 200_000}}]})
    put("player 9", {**good, "decisions": [{**good["decisions"][0], "player": 9}] + good["decisions"][1:]})
    return out


def _layout(**change) -> dict:
    doc = json.loads(LAYOUT.read_text())
    doc.update(change)
    return doc


def bad_layouts(d: Path) -> dict[str, Path]:
    d.mkdir(parents=True, exist_ok=True)
    out = {}

    def put(name, doc):
        p = d / ("layout-" + name.replace(" ", "-").replace(",", "") + ".json")
        p.write_text(doc if isinstance(doc, str) else json.dumps(doc))
        out[name] = p

    doc = _layout()
    pf0 = doc["placed_features"][0]
    obj0 = doc["terrain_objects"][0]
    put("x at 150,000", _layout(placed_features=[{**pf0, "transform": {"x_inches": 150_000}}]))
    put("width 1e7", _layout(terrain_objects=[{**obj0, "shapes": [{**obj0["shapes"][0], "width_inches": 1e7}]}]
                             + doc["terrain_objects"][1:]))
    put("table 200,000 wide", _layout(table_width_inches=200_000))
    put("width as \"44\"", _layout(table_width_inches="44"))
    put("symmetric \"yes\"", _layout(rotationally_symmetric="yes"))
    put("a sphere", _layout(terrain_objects=[{**obj0, "shapes": [{**obj0["shapes"][0], "shape_type": "sphere"}]}]
                            + doc["terrain_objects"][1:]))
    put("10,000 placements", _layout(placed_features=[pf0] * 10_000))
    put("100,000 placements", _layout(placed_features=[pf0] * 100_000))
    put("a missing object", _layout(placed_features=[{**pf0, "feature": {**pf0["feature"], "components": [
        {"object_id": "nowhere"}]}}]))
    put("a negative width", _layout(terrain_objects=[{**obj0, "shapes": [{**obj0["shapes"][0], "width_inches": -2}]}]))
    put("NaN depth", json.dumps(_layout(table_depth_inches=1.5)).replace("1.5", "NaN"))
    put("a 5 MB mission name", _layout(mission={**(doc.get("mission") or {}), "name": "M" * 5_000_000}))
    put("offsets past 100 m together", _layout(placed_features=[{**pf0, "transform": {"x_inches": 3900}}],
                                              terrain_objects=[{**obj0, "shapes": [{**obj0["shapes"][0],
                                                                                    "offset": {"x_inches": 3900}}]}]
                                              + doc["terrain_objects"][1:]))
    put("[]", "[]")
    put("{}", "{}")
    put("truncated", LAYOUT.read_text()[:200])

    # Tabletop Simulator saves: not ours, or ours damaged (skirmish export --to tts, read back by import)
    from engine.data.maps import load_named_map
    from engine.workshop.tts import to_tts

    save, _ = to_tts(load_named_map("town"))

    def tts(name, change):
        d2 = json.loads(json.dumps(save))
        change(d2["ObjectStates"])
        put(name, d2)

    def retag(i, **fields):
        def fn(objs):
            objs[i]["GMNotes"] = json.dumps({**json.loads(objs[i]["GMNotes"]), **fields})
        return fn

    piece = next(i for i, o in enumerate(save["ObjectStates"]) if '"piece"' in o["GMNotes"])
    zone = next(i for i, o in enumerate(save["ObjectStates"]) if '"zone"' in o["GMNotes"])
    put("tts save not ours", {"SaveName": "x", "ObjectStates": [{"Name": "BlockSquare", "GMNotes": "hello"}]})
    put("tts save, ObjectStates not a list", {"SaveName": "x", "ObjectStates": {"a": 1}})
    tts("tts save, a block scaled -3", lambda o: o[piece]["Transform"].update(scaleX=-3))
    tts("tts save, posX \"4\"", lambda o: o[piece]["Transform"].update(posX="4"))
    tts("tts save, a block 1e9 away", lambda o: o[piece]["Transform"].update(posX=1e9))
    tts("tts save, a zone for side 3", retag(zone, side=3))
    tts("tts save, a table in furlongs", lambda o: o[0].update(GMNotes=o[0]["GMNotes"].replace('"in"', '"furlong"')))
    tts("tts save, a piece of kind castle", retag(piece, piece={"id": "p", "kind": "castle"}))
    tts("tts save, a piece tag with a path field", retag(piece, piece={"id": "p", "kind": "rock", "path": "x"}))
    tts("tts save, a polygon tag with no points", retag(piece, shape={"type": "polygon"}))
    tts("tts save, a tag of another kind", retag(piece, skirmish="castle"))
    tts("tts save, GMNotes 5 MB", lambda o: o[piece].update(GMNotes='{"skirmish":"piece","x":"' + "x" * 5_000_000 + '"}'))
    tts("tts save, 100,000 objects", lambda o: o.extend([o[piece]] * 100_000))
    put("carltographer export, skirmish:kind=castle", json.dumps(_layout(terrain_objects=[
        {**obj0, "tags": ["skirmish:kind=castle"]}] + doc["terrain_objects"][1:])))

    # Carltographer's saved PNGs (the layout in a 'carltographer_layout' text chunk), made bad
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    def png(*texts: bytes) -> bytes:
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
                + b"".join(chunk(b"tEXt", t) for t in texts) + chunk(b"IDAT", zlib.compress(b"\x00\x80"))
                + chunk(b"IEND", b""))

    good = png(b"carltographer_layout\0" + LAYOUT.read_text().encode())
    for name, blob in {"png without a layout": png(b"Software\0x"),
                       "png cut short": good[:len(good) // 2],
                       "png with a bad crc": good[:40] + bytes([good[40] ^ 1]) + good[41:],
                       "png text not json": png(b"carltographer_layout\0{{{"),
                       "png text not latin-1 json": png(b"carltographer_layout\0\xff\xfe"),
                       "jpeg named png": b"\xff\xd8\xff\xe0" + b"\0" * 64}.items():
        p = d / ("layout-" + name.replace(" ", "-") + ".png")
        p.write_bytes(blob)
        out[name] = p
    return out


IMPORT_SNIPPET = """
import sys
from engine.data.errors import DataError
from engine.workshop.carltographer import import_layout
try:
    m, notes = import_layout(sys.argv[1])
except DataError as err:
    print(err, file=sys.stderr)
    sys.exit(1)
print(f"imported {len(m.pieces)} pieces")
"""


def _import_argv() -> tuple[list, bool]:
    """The import as a process: ``skirmish import FILE --out MAP`` where it exists, else the
    editor's Import function (``import_layout``) run by ``python -c``."""
    p = subprocess.run([sys.executable, "-m", "game.cli", "import", "--help"], cwd=ROOT, capture_output=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    if p.returncode == 0:
        return ["import", "{file}", "--out", "{t}/imported.json"], False
    return ["-c", IMPORT_SNIPPET, "{file}"], True


# --- the battery ----------------------------------------------------------------------------------
SMALL_GEN = ["generate", "--size", "24x18", "--rounds", "1", "--chains", "1", "--steps", "1", "--no-pictures", "--quiet"]
EXP = ["experiment", "--ruleset", "doubles", "--maps", "field", "--games", "2", "--p1", "random", "--p2", "random",
       "--seed", "4", "--workers", "1", "--no-progress"]
BAL = ["balance", "--ruleset", "doubles", "--map", "field", "--search-games", "8", "--check-games", "8", "--confirm",
       "400", "--max-steps", "0", "--no-pictures"]


def cases(base: Path, full: bool) -> list[Case]:
    files = bad_files(base / "bad")
    out: list[Case] = []
    fast_files = {"a named pipe", "a 5 MB name", "truncated", "{}", "a sparse 70 MB file"}
    for name, f in files.items():
        keep = () if name == "missing" else (str(f),)
        fast = name in fast_files
        usage = (1, 2) if name == "missing" else (1,)      # an unknown map id is bad usage too
        out += [
            Case("edit", f"edit {name}", ["edit", str(f), "--screenshot", "{t}/e.png", "--frames", "2"], (1,), keep, fast=fast),
            Case("sheet", f"sheet {name}", ["sheet", str(f), "--out", "{t}/s.pdf"], (1,), keep),
            Case("analyze-map", f"analyze-map A {name}", ["analyze-map", "field", str(f), "--json"], (1,), keep,
                 fast=fast),
            Case("generate", f"generate --locked {name}", [*SMALL_GEN, "--locked", str(f), "--out", "{t}/g"], (1,), keep),
            Case("balance", f"balance --map {name}", ["balance", "--ruleset", "doubles", "--map", str(f), "--out", "{t}/b"],
                 usage, keep),
            Case("experiment", f"experiment --maps {name}", [*EXP[:4], str(f), *EXP[5:], "--out", "{t}/x"], (1,), keep),
            Case("replay", f"replay {name}", ["replay", str(f), "--check"], (1,), keep, fast=fast),
        ]
    # the editor's options and its draft
    for opt, val in [("--width", "100000"), ("--width", "0"), ("--width", "-5"), ("--height", "100000"),
                     ("--height", "abc"), ("--frames", "0"), ("--frames", "-5"), ("--frames", "x")]:
        out.append(Case("edit", f"edit {opt} {val}", ["edit", "field", opt, val, "--frames", "2", "--screenshot", "{t}/e.png"]
                        if opt != "--frames" else ["edit", "field", opt, val, "--screenshot", "{t}/e.png"], (2,),
                        fast=opt == "--width" and val == "100000"))
    out += [
        Case("edit", "edit --width/--height 100000 --frames 2",
             ["edit", "--width", "100000", "--height", "100000", "--frames", "2", "--screenshot", "{t}/e.png"], (2,)),
        Case("edit", "edit --screenshot /proc/x.png", ["edit", "field", "--screenshot", "/proc/x.png", "--frames", "1"], (1,)),
        Case("edit", "edit --screenshot a folder", ["edit", "field", "--screenshot", "{b}/bad/folder.json", "--frames", "1"],
             (1,)),
        Case("edit", "edit --screenshot without --frames ends", ["edit", "field", "--screenshot", "{t}/e.png"], (0,),
             fast=True),
    ]
    for what, make in [("a named pipe", "fifo"), ("a folder", "dir"), ("garbage", "text"), ("a 5 MB name", "name")]:
        out.append(Case("edit", f"edit with its draft {what}", ["-c", DRAFT_SNIPPET, make, "{t}/home"], (0,),
                        python=True, fast=make == "fifo"))
    # generate
    for opt, val in [("--time-limit", "-1"), ("--time-limit", "nan"), ("--time-limit", "inf"), ("--time-limit", "soon"),
                     ("--cpu-limit", "-1"), ("--cpu-limit", "nan"), ("--cpu-limit", "soon"),
                     ("--target", "lane_share<=-1"), ("--target", "obj_held>=x"),
                     ("--size", "0.001x0.001"), ("--size", "0x0"), ("--size", "-1x5"), ("--size", "abc"),
                     ("--size", "1e9x1"), ("--size", "5000x44"), ("--target", "nope=3"), ("--target", "los=abc"),
                     ("--target", "los=200"), ("--target", "los=30*0"), ("--use", "nope=1-2"), ("--use", "forest=3-1"),
                     ("--use", "forest=x"), ("--chains", "0"), ("--rounds", "0"), ("--steps", "0"), ("--base", "0"),
                     ("--base", "nan"), ("--base", "1000"), ("--id", "BAD ID"), ("--id", "a" * 200),
                     ("--name", "N" * 5000), ("--mission", "nope"), ("--symmetry", "nope"), ("--piece-gap", "-1"),
                     ("--edge-gap", "nan"), ("--ruleset", "nope"), ("--scheduler", "nonsense"),
                     ("--scheduler", "tcp://127.0.0.1:99999"), ("--scheduler", "tcp://127.0.0.1:1"), ("--workers", "0"),
                     ("--unit", "furlong")]:
        fast = (opt, val) in {("--time-limit", "nan"), ("--size", "0.001x0.001"), ("--scheduler", "nonsense")}
        out.append(Case("generate", f"generate {opt} {val[:30]}", [*SMALL_GEN, opt, val, "--out", "{t}/g"], (2,),
                        fast=fast))
    out += [
        Case("generate", "generate --size 60x44 --unit mm", [*SMALL_GEN, "--size", "60x44", "--unit", "mm", "--out",
                                                            "{t}/g"], (2,)),
        Case("generate", "generate --out a file", [*SMALL_GEN, "--out", "{b}/a-file"], (1,), keep=("{b}/a-file",),
             fast=True),
        Case("generate", "generate --out /proc/x", [*SMALL_GEN, "--out", "/proc/x"], (1,)),
        Case("generate", "generate --out a folder with a run (same seed)", [*SMALL_GEN, "--seed", "7", "--out", "{b}/run"],
             (2,), keep=("{b}/run",), fast=True),
        Case("generate", "generate --out a folder with a run (another seed)",
             [*SMALL_GEN, "--seed", "8", "--out", "{b}/run"], (2,), keep=("{b}/run",)),
    ]
    # balance
    for opt, val in [("--budget", "-1"), ("--budget", "nan"), ("--agents", "easy,nobody"), ("--agents", ","),
                     ("--keep-z", "nan"), ("--keep-z", "-1"), ("--confirm", "10"), ("--rosters", "x,y"),
                     ("--scheduler", "nonsense"), ("--scheduler", "tcp://127.0.0.1:1"), ("--ruleset", "nope"),
                     ("--workers", "0"), ("--search-games", "1")]:
        out.append(Case("balance", f"balance {opt} {val}", [*BAL, opt, val, "--out", "{t}/b"], (2,),
                        fast=(opt, val) == ("--scheduler", "nonsense")))
    out += [
        Case("balance", "balance --out a file", [*BAL, "--out", "{b}/a-file"], (1,), keep=("{b}/a-file",), fast=True),
        Case("balance", "balance --out /proc/x", [*BAL, "--out", "/proc/x"], (1,)),
        Case("balance", "balance --out a folder not empty", [*BAL, "--out", "{b}/run"], (2,), keep=("{b}/run",)),
        Case("balance", "balance --resume with no state", [*BAL, "--out", "{b}/run", "--resume"], (2,), keep=("{b}/run",)),
    ]
    # experiment
    for opt, val in [("--games", "0"), ("--games", "-1"), ("--workers", "0"), ("--label", "a b"), ("--rosters", "x,y"),
                     ("--p1", "nobody"), ("--p2", "normal:budget=nan"), ("--scheduler", "nonsense"),
                     ("--scheduler", "tcp://127.0.0.1:1"), ("--ruleset", "nope")]:
        out.append(Case("experiment", f"experiment {opt} {val}", [*EXP, *([opt, *val.split()]), "--out", "{t}/x"], (2,),
                        fast=(opt, val) == ("--games", "0")))
    out += [
        Case("experiment", "experiment --maps field field", [*EXP[:4], "field", "field", *EXP[5:], "--out", "{t}/x"], (2,)),
        Case("experiment", "experiment --out a file", [*EXP, "--out", "{b}/a-file"], (1,), keep=("{b}/a-file",)),
        Case("experiment", "experiment --out /proc/x", [*EXP, "--out", "/proc/x"], (1,)),
        Case("simulate", "simulate --save-dir under a file", ["simulate", "--ruleset", "doubles", "--map", "prehistoric",
                                                              "--games", "1", "--save-dir", "{b}/a-file/saves"], (1,),
             keep=("{b}/a-file",), fast=True),
        Case("simulate", "simulate --save-dir /proc/x", ["simulate", "--ruleset", "doubles", "--map", "prehistoric",
                                                         "--games", "1", "--save-dir", "/proc/x"], (1,)),
    ]
    # sheet and analyze-map's own options
    out += [
        Case("sheet", "sheet --paper B5", ["sheet", "field", "--paper", "B5", "--out", "{t}/s.pdf"], (2,)),
        Case("sheet", "sheet --out x.txt", ["sheet", "field", "--out", "{t}/s.txt"], (2,)),
        Case("sheet", "sheet --out /proc/x.pdf", ["sheet", "field", "--out", "/proc/x.pdf"], (1,), fast=True),
        Case("sheet", "sheet --out a folder", ["sheet", "field", "--out", "{b}/bad/folder.json"], (1,)),
        Case("sheet", "sheet of the field", ["sheet", "field", "--out", "{t}/s.pdf"], (0,)),
        Case("sheet", "sheet of 2,000 pieces (25 pages): no warning", ["-W", "error", "-m", "game.cli", "sheet",
                                                                        "{b}/many.json", "--out", "{t}/s.pdf"], (0,),
             timeout=240, python=True),
        Case("analyze-map", "analyze-map A B of two sizes --png", ["analyze-map", "field", "prehistoric", "--png", "{t}/d.png"],
             (2,), fast=True),
        Case("analyze-map", "analyze-map A B C", ["analyze-map", "field", "town", "outpost"], (2,)),
        Case("analyze-map", "analyze-map A B --hiding-png", ["analyze-map", "field", "town", "--hiding-png", "{t}/h.png"], (2,)),
        Case("analyze-map", "analyze-map --grid 0", ["analyze-map", "field", "--grid", "0"], (2,)),
        Case("analyze-map", "analyze-map --grid nan", ["analyze-map", "field", "--grid", "nan"], (2,)),
        Case("analyze-map", "analyze-map --eye -1", ["analyze-map", "field", "--eye", "-1"], (2,)),
        Case("analyze-map", "analyze-map A B --png /proc/x.png",
             ["analyze-map", "field", "{b}/field-copy.json", "--png", "/proc/x.png"], (1,)),
    ]
    # the export (skirmish export MAP --to carltographer|tts OUT)
    for name, f in files.items():
        keep = () if name == "missing" else (str(f),)
        for to in ("tts", "carltographer"):
            out.append(Case("export", f"export {name} --to {to}", ["export", str(f), "{t}/o.json", "--to", to], (1,),
                            keep, fast=name in fast_files))
    out += [
        Case("export", "export --to vassal", ["export", "field", "{t}/o.json", "--to", "vassal"], (2,), fast=True),
        Case("export", "export without --to", ["export", "field", "{t}/o.json"], (2,)),
        Case("export", "export to /proc/x.json", ["export", "field", "/proc/x.json", "--to", "tts"], (1,), fast=True),
        Case("export", "export to a folder", ["export", "field", "{b}/bad/folder.json", "--to", "tts"], (1,)),
        Case("export", "export to an existing file", ["export", "field", "{b}/a-file", "--to", "tts"], (1,),
             keep=("{b}/a-file",), fast=True),
        Case("export", "export a map onto itself --force", ["export", "{b}/field-copy.json", "{b}/field-copy.json",
                                                            "--to", "carltographer", "--force"], (1,),
             keep=("{b}/field-copy.json",), fast=True),
        Case("export", "export into a missing folder under a file", ["export", "field", "{b}/a-file/o.json", "--to",
                                                                    "tts"], (1,), keep=("{b}/a-file",)),
        Case("export", "export the field to tts", ["export", "field", "{t}/o.json", "--to", "tts"], (0,)),
        Case("export", "export 2,000 pieces to carltographer", ["export", "{b}/many.json", "{t}/o.json", "--to",
                                                                "carltographer"], (0,)),
    ]
    # the import
    argv, python = _import_argv()
    for name, f in {**bad_layouts(base / "layouts"), **{k: v for k, v in files.items()
                                                       if k in ("a named pipe", "a folder", "binary", "missing")}}.items():
        out.append(Case("import", f"import {name}", [a.replace("{file}", str(f)) for a in argv], (1,),
                        keep=() if name == "missing" else (str(f),), python=python,
                        fast=name in ("a sphere", "10,000 placements", "x at 150,000", "width as \"44\"", "tts save not ours",
                                     "tts save, a block scaled -3")))
    out.append(Case("import", "import the small layout", [a.replace("{file}", str(LAYOUT)) for a in argv], (0,),
                    python=python))
    # replay: damaged saves
    for name, f in bad_saves(base / "saves", base / "save.json").items():
        out.append(Case("replay", f"replay {name}", ["replay", str(f), "--check"], (1,), keep=(str(f),),
                        fast=name == "save: hash changed"))
    out.append(Case("replay", "replay the sound save", ["replay", "{b}/save.json", "--check"], (0,)))
    if full:
        out += resume_cases(base)
    return out


DRAFT_SNIPPET = """
import json, os, subprocess, sys
what, home = sys.argv[1], sys.argv[2]
draft = os.path.join(home, "data", "editor-autosave.json")
os.makedirs(os.path.dirname(draft), exist_ok=True)
if what == "fifo":
    os.mkfifo(draft)
elif what == "dir":
    os.mkdir(draft)
elif what == "text":
    open(draft, "w").write("{not json")
else:
    m = json.load(open("maps/field.json")); m["name"] = "N" * 5_000_000
    json.dump({"format": "skirmish-editor-autosave", "path": None, "map": m}, open(draft, "w"))
env = dict(os.environ, SKIRMISH_HOME=home)
try:
    p = subprocess.run([sys.executable, "-m", "game.cli", "edit", "--screenshot", os.path.join(home, "e.png"),
                        "--frames", "2"], env=env, timeout=50)
except subprocess.TimeoutExpired:
    sys.exit(HUNG)
sys.exit(p.returncode)
""".replace("HUNG", "124")
HUNG = 124     # the exit code of a case whose own child outlived its time limit (the draft cases)


def resume_cases(base: Path) -> list[Case]:
    """Damaged copies of a real two-game experiment and of a finished balance run's state."""
    exp = base / "exp"
    out = []
    good = (exp / "games.jsonl").read_text().splitlines()
    rec = json.loads(good[0])

    def variant(name, fn):
        d = base / "resume" / name.replace(" ", "-").replace("/", "")
        shutil.copytree(exp, d)
        fn(d)
        out.append(Case("experiment --resume", f"experiment --resume: {name}", [*EXP, "--out", str(d), "--resume"],
                        (1,), keep=(str(d),)))

    def recs(text):
        return lambda d: (d / "games.jsonl").write_text(text)

    def replace(p, make):
        def fn(d):
            (d / p).unlink()
            make(d / p)
        return fn

    variant("records cut in the middle", recs(good[0][:40] + "\n" + good[1] + "\n"))
    variant("records []", recs("[]\n" + good[1] + "\n"))
    variant("records {}", recs("{}\n" + good[1] + "\n"))
    variant("records one JSON array", recs(json.dumps([json.loads(x) for x in good])))
    variant("records winner 3", recs(json.dumps({**rec, "winner": 3}) + "\n" + good[1] + "\n"))
    variant("records index -1", recs(json.dumps({**rec, "index": -1}) + "\n" + good[1] + "\n"))
    variant("records a NaN row", recs(json.dumps(rec).replace('"turns": ', '"turns": NaN, "x": ') + "\n" + good[1] + "\n"))
    variant("records no decisions", recs(json.dumps({**rec, "decisions": None}) + "\n" + good[1] + "\n"))
    variant("records a folder", replace("games.jsonl", lambda p: p.mkdir()))
    variant("records a FIFO", replace("games.jsonl", os.mkfifo))
    variant("config truncated", lambda d: (d / "config.json").write_text((d / "config.json").read_text()[:30]))
    variant("config []", lambda d: (d / "config.json").write_text("[]"))
    variant("config {}", lambda d: (d / "config.json").write_text("{}"))
    variant("config NaN", lambda d: (d / "config.json").write_text(
        (d / "config.json").read_text().replace('"seed": 4', '"seed": NaN')))
    variant("config a folder", replace("config.json", lambda p: p.mkdir()))
    variant("config a FIFO", replace("config.json", os.mkfifo))
    out.append(Case("experiment --resume", "experiment --resume with another seed",
                    [*EXP, "--seed", "5", "--out", str(exp), "--resume"], (2,), keep=(str(exp),)))
    bal = base / "bal"

    def state(name, fn):
        d = base / "resume-bal" / name.replace(" ", "-").replace("/", "")
        shutil.copytree(bal, d)
        fn(d / "state.json")
        out.append(Case("balance --resume", f"balance --resume: {name}", [*BAL, "--out", str(d), "--resume"], (1,),
                        keep=(str(d),)))

    def edit(f):
        def fn(p):
            st = json.loads(p.read_text())
            f(st)
            p.write_text(json.dumps(st))
        return fn

    state("truncated", lambda p: p.write_text(p.read_text()[:500]))
    state("[]", lambda p: p.write_text("[]"))
    state("{}", lambda p: p.write_text("{}"))
    state("a step in words", edit(lambda st: st.update(step="3")))
    state("an unknown phase", edit(lambda st: st.update(phase="elsewhere")))
    state("history of strings", edit(lambda st: st.update(history=["x"])))
    state("no incumbent", edit(lambda st: st.update(incumbent=None)))
    state("a map of the wrong shape", edit(lambda st: st["incumbent"]["map"].update(width=-1)))
    state("a folder outside the run", edit(lambda st: st["incumbent"].update(folder="../../x")))
    state("a NaN", lambda p: p.write_text(p.read_text().replace('"search_seconds": ', '"search_seconds": NaN, "x": ')))
    state("a folder", lambda p: (p.unlink(), p.mkdir()))
    state("a FIFO", lambda p: (p.unlink(), os.mkfifo(p)))
    return out


def prepare(base: Path, full: bool) -> None:
    """What the cases damage or must leave alone: a file, a generated run, a save, a 2,000-piece
    map, a copy of the field; for the full battery a played experiment and a balance state."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SKIRMISH_HOME": str(base / "home"), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}

    def cli(*argv, timeout=300):
        p = subprocess.run([sys.executable, "-m", "game.cli", *argv], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=timeout)
        assert p.returncode == 0, (argv, p.stdout[-500:], p.stderr[-1500:])

    (base / "a-file").write_text("mine")
    shutil.copy(ROOT / "maps" / "field.json", base / "field-copy.json")
    cli(*SMALL_GEN, "--seed", "7", "--out", str(base / "run"))
    cli("simulate", "--ruleset", "doubles", "--map", "prehistoric", "--games", "1", "--p1", "random", "--p2", "random",
        "--fixed", "--save-dir", str(base / "saves0"))
    shutil.copy(next((base / "saves0").glob("*.json")), base / "save.json")
    doc = json.loads((ROOT / "maps" / "field.json").read_text())
    doc["pieces"] = [{"id": f"c{i}", "kind": "crate", "shape": {"type": "circle", "center": [1 + (i % 50) * 0.95,
                                                                                            1 + (i // 50) * 0.85],
                                                                "radius": 0.3}} for i in range(2000)]
    (base / "many.json").write_text(json.dumps(doc))
    if full:
        cli(*EXP, "--out", str(base / "exp"))
        sys.path.insert(0, str(ROOT / "tests"))
        from test_workshop_balance import FakePlay

        from engine.data.maps import load_named_map
        from engine.simulate import default_rosters
        from engine.workshop import balance as B

        s = B.Settings("doubles", "field", tuple(default_rosters("doubles")), ("easy", "easy"), 1, 30.0, 8, 8, 400, 24, 3,
                       keep_z=1.0, max_steps=0)
        B.run(s, load_named_map("field"), base / "bal", FakePlay(lambda m: 0.5), say=lambda line: None)


def battery(fast: bool = False, only: str | None = None, work: Path | None = None, say=print) -> dict:
    """Run the cases; the counts by verdict and every case's result."""
    tmp = Path(work or tempfile.mkdtemp(prefix="workshop-fuzz-"))
    base = tmp / "base"
    base.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT))
    prepare(base, full=not fast)
    todo = [c for c in cases(base, full=not fast) if (c.fast or not fast) and (only is None or only in c.name)]
    results = []
    for i, c in enumerate(todo, 1):
        r = run_case(c, base, tmp / "cases")
        results.append(r)
        if r["verdict"] != "ok":
            say(f"[{i}/{len(todo)}] {r['verdict'].upper()}: {c.name}: rc {r.get('rc')} in {r.get('seconds')} s; "
                f"{r.get('tail', '')[-200:]!r}")
    counts = {v: sum(r["verdict"] == v for r in results)
              for v in ("ok", "traceback", "hang", "wrong acceptance", "overwrite", "wrong code")}
    by_group: dict = {}
    for r in results:
        by_group.setdefault(r["group"], 0)
        by_group[r["group"]] += 1
    return {"cases": len(results), "counts": counts, "by_command": by_group, "results": results, "folder": str(tmp)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fast", action="store_true", help="only the fast subset")
    ap.add_argument("--only", help="only cases whose name holds this")
    ap.add_argument("--json", help="write every case's result here")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    out = battery(fast=args.fast, only=args.only)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    if not args.keep:
        shutil.rmtree(out["folder"], ignore_errors=True)
    print(f"{out['cases']} cases in {time.monotonic() - t0:.0f} s: " + ", ".join(f"{k} {v}" for k, v in out["counts"].items()))
    print("by command: " + ", ".join(f"{k} {v}" for k, v in sorted(out["by_command"].items())))
    return 0 if out["counts"]["ok"] == out["cases"] else 1


if __name__ == "__main__":
    sys.exit(main())
