"""Benchmark of the map check on the largest maps the format allows (issue 59, item 4).

Run: python bench/map_check.py [--pieces 2000] [--kinds round,star,comb,fan,sliver] [--before 3]
                                [--cli [--tree DIR]]

The limits: a map holds at most 2,000 pieces (``MAX_PIECES``), a polygon at most 1,000 corners,
a file at most 64 MB (``MAX_FILE_BYTES``: 2,000 such pieces write about 35 MB); a Carltographer
layout places at most 1,000 features (``MAX_PLACEMENTS``), twice that when it is rotationally
symmetric, so a 200 KB layout of one 1,000-vertex object makes the same 2,000 pieces. Prints, per
shape of piece, the CPU seconds to validate such a map (``MapFile``; of which the self-crossing
check of its pieces, timed alone: ``(check)``), to read it from its file
(``load_map``: the JSON too), to import such a layout (``import_layout``), and with ``--before N``
what the old check (every pair of edges, kept in tests/test_map_self_crossing.py) took on N
pieces, times 2,000. ``--cli`` also times ``skirmish import LAYOUT --out MAP`` as a process (the
whole command: reading, checking, writing the map), with the code of ``--tree`` (another checkout,
say ``git archive b7013c0 | tar -x -C /tmp/old``) instead of this one's if given.

The shapes, each 1,000 corners about 20 inches across, every piece at its own place (so no two
are the same shape to the bit and the cache never answers): ``round`` a round tank's outline
(what Carltographer's polygons are), ``star`` 500 long spikes (defeats a sweep along x or y),
``comb`` 249 teeth on a slanted line (249 edges on each of two lines, whose signs are rounding noise), ``fan`` 333 spikes that all meet at one corner
(every edge near every other at that corner), ``sliver`` out along a line and back 1e-8 inch
beside it (every edge on nearly the line of every other: no way of finding near pairs saves
anything, the whole table of signs serves: the slowest the format allows; the import rounds its
corners to 1e-6 inch, which flattens some placements to no area, so it is refused and not timed).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from engine.data import self_crossing  # noqa: E402
from engine.data.errors import DataError  # noqa: E402
from engine.data.maps import MAX_PIECES, MapFile, load_map  # noqa: E402
from engine.workshop.carltographer import import_layout  # noqa: E402

CORNERS = 1000


def outline(kind: str) -> list[tuple[float, float]]:
    """A 1,000-corner outline about the origin, about 20 inches across."""
    n = CORNERS
    if kind == "round":
        return [(10 * math.cos(2 * math.pi * i / n), 7 * math.sin(2 * math.pi * i / n)) for i in range(n)]
    if kind == "star":
        return [((10 if i % 2 == 0 else 1) * math.cos(2 * math.pi * i / n),
                 (10 if i % 2 == 0 else 1) * math.sin(2 * math.pi * i / n)) for i in range(n)]
    if kind == "comb":      # turned half a radian: the teeth's feet and tips on two slanted lines
        teeth = (n - 2) // 4
        flat = [(0.08 * k + dx - 10, y) for k in range(teeth) for dx, y in ((0, 0), (0, 4), (0.04, 4), (0.04, 0))]
        flat += [(0.08 * teeth - 10, -2), (-10, -2)]
        c, s = math.cos(0.5), math.sin(0.5)
        return [(x * c - y * s, x * s + y * c) for x, y in flat]
    if kind == "sliver":    # out along a line and back 1e-8 inch beside it, turned: every edge near every other's line
        flat = [(-10 + 20 * i / (n // 2), 0.0) for i in range(n // 2)] + [(10 - 20 * i / (n // 2), 1e-8) for i in range(n // 2)]
        c, s = math.cos(0.5), math.sin(0.5)
        return [(x * c - y * s, x * s + y * c) for x, y in flat]
    if kind == "fan":
        out = []
        for k in range(n // 3):
            a, b = 2 * math.pi * k / (n // 3), 2 * math.pi * (k + 0.5) / (n // 3)
            out += [(0.0, 0.0), (10 * math.cos(a), 10 * math.sin(a)), (10 * math.cos(b), 10 * math.sin(b))]
        return out + [(0.0, 0.0)] * (n - len(out))
    raise ValueError(kind)


def where(k: int) -> tuple[float, float]:
    """The k-th piece's place on a 60 x 44 inch table: each one its own, none a round number (the
    corners are written to 1e-9 inch, so 2,000 pieces fit the 64 MB a file may hold)."""
    return 12 + (k * 0.7371) % 36, 12 + (k * 0.3119) % 20


def map_data(kind: str, pieces: int) -> dict:
    shape = outline(kind)
    out = []
    for k in range(pieces):
        x, y = where(k)
        out.append({"id": f"p{k}", "kind": "building",
                    "shape": {"type": "polygon", "points": [[round(x + a, 9), round(y + b, 9)] for a, b in shape]}})
    return {"schema_version": 1, "id": "largest", "name": "Largest", "unit": "in", "width": 60, "height": 44,
            "pieces": out,
            "deployment": [{"side": 1, "points": [[0, 0], [6, 0], [6, 44], [0, 44]]},
                           {"side": 2, "points": [[54, 0], [60, 0], [60, 44], [54, 44]]}]}


def layout_data(kind: str, placements: int) -> dict:
    """A Carltographer layout: one object (a 1,000-vertex polygon), placed ``placements`` times,
    rotationally symmetric (so twice that many pieces)."""
    verts = [[a, b] for a, b in outline(kind)]
    obj = {"id": "tank", "shapes": [{"shape_type": "polygon", "vertices": verts, "height_inches": 3.0}]}
    placed = []
    for k in range(placements):
        x, y = where(k)
        placed.append({"feature": {"id": f"f{k}", "feature_type": "obstacle", "components": [{"object_id": "tank"}]},
                       "transform": {"x_inches": round(x - 30 + 0.5, 6), "z_inches": round(y - 22 + 0.5, 6),
                                     "rotation_deg": (k * 7.3) % 360}})
    return {"table_width_inches": 60, "table_depth_inches": 44, "rotationally_symmetric": True,
            "terrain_objects": [obj], "placed_features": placed}


def cpu(fn):
    self_crossing._cached.cache_clear()
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def command(layout: Path, out: Path, tree: str | None) -> str:
    """CPU seconds (and the exit code) of ``skirmish import LAYOUT --out OUT --force``."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    if tree:
        env["PYTHONPATH"] = tree
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, "-m", "game.cli", "import", str(layout), "--out", str(out), "--force"],
                       cwd=tree or ROOT, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return f"{spent:.2f}" + ("" if r.returncode == 0 else f" (exit {r.returncode})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pieces", type=int, default=MAX_PIECES)
    ap.add_argument("--kinds", default="round,star,comb,fan,sliver")
    ap.add_argument("--before", type=int, default=0, metavar="N",
                    help="time the old check (every pair) on N pieces of each shape, times --pieces")
    ap.add_argument("--no-files", action="store_true", help="skip load_map and the import (validation only)")
    ap.add_argument("--cli", action="store_true", help="also time skirmish import as a process")
    ap.add_argument("--tree", help="with --cli: run that checkout's code (PYTHONPATH) instead of this one's")
    args = ap.parse_args(argv)
    cpu_name = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    print(f"machine: {os.cpu_count()} cpus, {cpu_name}, load average {os.getloadavg()[0]:.2f}")
    print(f"{args.pieces} pieces of {CORNERS} corners each; CPU seconds")
    print(f"{'shape':6} {'MapFile':>8} {'(check)':>8} {'load_map':>9} {'file MB':>8} {'import':>7} {'layout KB':>10} {'old check':>10}"
          + (f" {'skirmish import':>16}" if args.cli else ""))
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kinds.split(","):
            data = map_data(kind, args.pieces)
            t_valid, _ = cpu(lambda: MapFile.model_validate(data))
            arrays = [np.asarray(p["shape"]["points"], dtype=np.float64) for p in data["pieces"]]
            t_check, _ = cpu(lambda: [self_crossing._check(a) for a in arrays])
            t_load = t_import = mb = kb = float("nan")
            if not args.no_files:
                path = Path(tmp) / f"{kind}.json"
                path.write_text(json.dumps(data, separators=(",", ":")))     # 2,000 pieces: about 54 MB
                mb = path.stat().st_size / 1e6
                t_load, _ = cpu(lambda: load_map(path))
                lay = Path(tmp) / f"{kind}-layout.json"
                lay.write_text(json.dumps(layout_data(kind, (args.pieces + 1) // 2)))
                kb = lay.stat().st_size / 1e3
                try:
                    t_import, (m, _) = cpu(lambda: import_layout(lay))
                    assert len(m.pieces) == 2 * ((args.pieces + 1) // 2)
                except DataError:       # refused (a shape the import's rounding spoiled): not timed
                    t_import = float("nan")
            old = ""
            if args.before:
                from test_map_self_crossing import _old_self_intersects
                sample = [p["shape"]["points"] for p in data["pieces"][:args.before]]
                t_old, _ = cpu(lambda: [_old_self_intersects([tuple(q) for q in s]) for s in sample])
                old = f"{t_old / len(sample) * args.pieces:.0f} s"
            cli = f" {command(lay, Path(tmp) / 'out.json', args.tree):>16}" if args.cli and not args.no_files else ""
            print(f"{kind:6} {t_valid:8.2f} {t_check:8.2f} {t_load:9.2f} {mb:8.1f} {t_import:7.2f} {kb:10.0f} {old:>10}{cli}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
