"""The workshop's side-by-side figures beside the table's symmetry.

The raster symmetry kernel (``symmetry``, ``symmetry_report``, ``TRANSFORMS``) lives in
``engine/table/symmetry.py``: deployment (``engine/rulesets/deployment/zones.py``) needs it too,
and the rules may not import the workshop. It is re-exported here so the workshop's callers keep
their import.
"""
from __future__ import annotations

from engine.table.symmetry import (  # noqa: F401  (re-exported for the workshop's callers)
    OBJECTIVE_TOLERANCE_MM,
    RASTER_STEP_MM,
    TRANSFORMS,
    Symmetry,
    _flip,
    symmetry,
    symmetry_report,
)

PER_SIDE = (("dz_hideability_pct", None), ("dz_exposure_pct", None), ("objective_hidability_pct", None),
            ("hiding", "open_pct"), ("hiding", "own_half_pct"), ("hiding", "enemy_half_pct"))


def side_value(metrics: dict, key: str, sub: str | None, side: int):
    v = metrics[key][str(side)]
    return v if sub is None or v is None else v[sub]


def side_name(key: str, sub: str | None) -> str:
    return key if sub is None else f"{key}.{sub}"


def side_differences(metrics: dict) -> dict:
    """Side 1's figure minus side 2's, for every per-side figure (None when one is missing)."""
    out = {}
    for key, sub in PER_SIDE:
        a, b = side_value(metrics, key, sub, 1), side_value(metrics, key, sub, 2)
        out[side_name(key, sub)] = None if a is None or b is None else round(a - b, 2)
    return out
