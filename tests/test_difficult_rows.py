"""``_difficult_plain`` hands the clipping rows it found to ``difficult_length`` instead of
clipping again: the same number as the full call, on random tables and the home maps."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_table_properties import layouts

from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.table import Table, movement

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check(t, rng, n):
    met = 0
    for _ in range(n):
        k = rng.choice([1, 1, 2])
        pts = [(rng.uniform(0, t.width), rng.uniform(0, t.height)) for _ in range(k + 1)]
        A, B = pts[:-1], pts[1:]
        want = float(movement.difficult_length(t, A, B).sum())
        assert movement._difficult_plain(t, A, B) == want
        met += want > 0
    return met


@SETTINGS
@given(layouts(), st.integers(0, 2 ** 31))
def test_the_kept_rows_give_the_same_difficult_run(t, seed):
    _check(t, random.Random(seed), 30)


@pytest.mark.parametrize("mapname", ["town", "prehistoric"])
def test_the_kept_rows_on_the_home_maps(mapname):
    t = Table(load_map(resolve_map(mapname)))
    assert _check(t, random.Random(mapname), 400) > 20      # many of them cross difficult ground
