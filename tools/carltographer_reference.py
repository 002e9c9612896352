"""Make the three reference layouts with Carltographer's own engine, from a local checkout of it.

    python tools/carltographer_reference.py --carltographer PATH/TO/carltographer --out DIR
    SKIRMISH_CARLTOGRAPHER_LAYOUTS=DIR python -m pytest -n 0 tests/test_carltographer_faithful.py

Carltographer (khaaarl/carltographer) carries no licence, so none of its files is kept in this
project: this script runs its Python engine (``v2/engine``, single-chain hill climbing) on its
builtin catalogs (``v2/catalogs/builtin/wtc_set.json`` and ``polygon_terrain.json``) with the
parameters below, and writes each engine result (the layout with its own ``visibility`` figures)
to DIR. Run it with Carltographer's own requirements installed (numpy, shapely); it imports
nothing of Skirmish. The figures in docs/workshop.md came from its engine at commit d4eb250a.
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path


def _rect(x0, z0, x1, z1):
    return [{"x_inches": x0, "z_inches": z0}, {"x_inches": x1, "z_inches": z0},
            {"x_inches": x1, "z_inches": z1}, {"x_inches": x0, "z_inches": z1}]


def _obj(i, x, z):
    return {"id": str(i), "position": {"x_inches": x, "z_inches": z}, "range_inches": 3.0}


def _mission(name, zone_a, zone_b, objectives):
    return {"name": name, "rotationally_symmetric": True,
            "deployment_zones": [{"id": "green", "polygons": [_rect(*zone_a)]}, {"id": "red", "polygons": [_rect(*zone_b)]}],
            "objectives": [_obj(i, x, z) for i, (x, z) in enumerate(objectives, 1)]}


TARGETS = {"overall_visibility_target": 30.0, "overall_visibility_weight": 1.0, "dz_hideability_target": 70.0,
           "dz_hideability_weight": 5.0, "objective_hidability_target": 50.0, "objective_hidability_weight": 5.0}
HAMMER_44 = _mission("Hammer and Anvil", (-22, -15, -4, 15), (4, -15, 22, 15), [(0, 0), (0, -9), (0, 9), (-12, 0), (12, 0)])
DAWN_60 = _mission("Dawn of War", (-30, 10, 30, 22), (-30, -22, 30, -10), [(0, 0), (-20, 0), (20, 0), (0, 16), (0, -16)])
HAMMER_60 = _mission("Hammer and Anvil", (-30, -22, -12, 22), (12, -22, 30, 22), [(0, 0), (0, -14), (0, 14), (-18, 0), (18, 0)])
RUNS = {
    "44x30-wtc-poly-hammer-anvil-sym": dict(
        seed=42, table_width_inches=44, table_depth_inches=30, num_steps=120, poly=True, rotationally_symmetric=True,
        min_feature_gap_inches=5.2, min_all_feature_gap_inches=3, mission=HAMMER_44,
        feature_count_preferences=[{"feature_type": "obscuring", "min": 4, "max": 8},
                                   {"feature_type": "obstacle", "min": 2, "max": 4}]),
    "60x44-wtc-poly-dawn-of-war-sym": dict(
        seed=7, table_width_inches=60, table_depth_inches=44, num_steps=120, poly=True, rotationally_symmetric=True,
        mission=DAWN_60,
        feature_count_preferences=[{"feature_type": "obscuring", "min": 8, "max": 12},
                                   {"feature_type": "obstacle", "min": 2, "max": 6},
                                   {"feature_type": "woods", "min": 2, "max": 4}]),
    "60x44-wtc-hammer-anvil-nosym": dict(
        seed=11, table_width_inches=60, table_depth_inches=44, num_steps=120, poly=False, rotationally_symmetric=False,
        min_edge_gap_inches=5.2, mission=HAMMER_60,
        feature_count_preferences=[{"feature_type": "obscuring", "min": 8, "max": 12},
                                   {"feature_type": "obstacle", "min": 2, "max": 4}]),
}


def _catalog(v2: Path, with_polygons: bool) -> dict:
    cat = json.loads((v2 / "catalogs" / "builtin" / "wtc_set.json").read_text())
    if with_polygons:
        poly = json.loads((v2 / "catalogs" / "builtin" / "polygon_terrain.json").read_text())
        for entry in poly["objects"] + poly["features"]:
            entry = copy.deepcopy(entry)
            entry["quantity"] = 4
            (cat["objects"] if "shapes" in entry["item"] else cat["features"]).append(entry)
        cat["name"] = "WTC + Polygons"
    return cat


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--carltographer", required=True, help="a checkout of khaaarl/carltographer")
    ap.add_argument("--out", required=True, help="folder for the engine results")
    ap.add_argument("runs", nargs="*", help="which layouts (default: all three)")
    args = ap.parse_args()
    v2 = Path(args.carltographer) / "v2"
    sys.path.insert(0, str(v2))
    from engine import generate as G  # Carltographer's engine, not Skirmish's
    from engine.types import EngineParams

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.runs or list(RUNS):
        p = dict(RUNS[name])
        p["catalog"] = _catalog(v2, p.pop("poly"))
        p["scoring_targets"] = TARGETS
        p["num_replicas"] = 1
        t = time.time()
        result = G._generate_hill_climbing(EngineParams.from_dict(p)).to_dict()
        result["carltographer_run"] = {"params": {k: v for k, v in p.items() if k != "catalog"},
                                       "seconds": round(time.time() - t, 1)}
        (out / f"{name}.json").write_text(json.dumps(result, indent=1))
        print(name, json.dumps(result["layout"].get("visibility"))[:300])
    return 0


if __name__ == "__main__":
    sys.exit(main())
