"""The editor's visibility matrix kept between analyses (engine/workshop/live.py ``_kept_matrix``,
engine/workshop/analysis.py ``hidden_counts``/``update_counts``): after any edit, the matrix
brought up to date from the parts that changed is exactly the matrix a fresh analysis computes
(issue 27: the refresh after a drop within 1 s, without giving up a single pair).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.data.maps import MapFile, load_map
from engine.table import Table
from engine.workshop import edits as E
from engine.workshop import live
from engine.workshop import shapes as S
from engine.workshop.analysis import (
    DEFAULT_EYE_MM,
    hidden_counts,
    matrix_from_counts,
    open_grid,
    tall_parts,
    update_counts,
    visibility_matrix,
)

LAYOUTS = Path(__file__).resolve().parent / "data" / "layouts"   # two shared layouts, with their licence


def _fresh(m: MapFile) -> np.ndarray:
    t = Table(m)
    return visibility_matrix(t, open_grid(t).pts)


def _kept(m: MapFile) -> np.ndarray:
    t = Table(m)
    return live._kept_matrix(t, open_grid(t))


def _moved(m: MapFile, pid: str, dx: float, dy: float) -> MapFile:
    return m.model_copy(update={"pieces": [p.model_copy(update={"shape": S.translate(p.shape, dx, dy)})
                                           if p.id == pid else p for p in m.pieces]})


@pytest.mark.parametrize("name", ["gw-11e-hammer-anvil.json", "take-and-hold-mirror-1.json"])
def test_a_run_of_edits_on_a_real_layout_keeps_the_fresh_matrix(name):
    m = load_map(LAYOUTS / name)
    live._KEPT.clear()
    assert (_kept(m) == _fresh(m)).all()
    tall = [p.id for p in m.pieces if p.prop("blocks_sight")]
    wall = {"id": "new-wall", "kind": "wall", "height": 5.0,
            "shape": {"type": "polygon", "points": [[20, 20], [28, 20], [28, 20.5], [20, 20.5]]}}
    steps = [
        _moved(m, tall[0], 2.5, -1.25),                                       # a drag and drop
        None,                                                                  # then undo: back
        m.model_copy(update={"pieces": [p for p in m.pieces if p.id != tall[-1]]}),    # a delete
        m.model_copy(update={"pieces": list(m.pieces) + [MapFile.model_validate(
            {**m.model_dump(mode="json"), "pieces": [wall]}).pieces[0]]}),     # a new wall
        E.DeleteZones((1,)).apply(m),                                          # zones: no sight change
    ]
    edits = 0
    for step in steps:
        cur = m if step is None else step
        got = _kept(cur)
        edits += 1
        assert live._KEPT["edits"] == edits, "the kept counts were not used"
        want = _fresh(cur)
        assert got.shape == want.shape and (got == want).all()


def test_a_part_never_counted_is_refused_and_the_counts_stay():
    m = load_map(LAYOUTS / "gw-11e-hammer-anvil.json")
    t = Table(m)
    g = open_grid(t, 2 * 25.4)
    parts = tall_parts(t.pieces, DEFAULT_EYE_MM)
    counts = hidden_counts(parts[1:], g.pts)
    before = counts.copy()
    with pytest.raises(ValueError):
        update_counts(counts, g.pts, [parts[0]], [])
    assert (counts == before).all()
    update_counts(counts, g.pts, [], [parts[0]])
    assert (counts == hidden_counts(parts, g.pts)).all()


def test_counts_agree_with_the_matrix_and_processes():
    m = load_map(LAYOUTS / "take-and-hold-mirror-1.json")
    t = Table(m)
    g = open_grid(t)
    parts = tall_parts(t.pieces, DEFAULT_EYE_MM)
    one = hidden_counts(parts, g.pts, processes=1)
    assert (one == hidden_counts(parts, g.pts, processes=2)).all()
    assert not np.tril(one).any()                     # each pair counted once, from its lower index
    assert (matrix_from_counts(one) == visibility_matrix(t, g.pts)).all()


def _box(pid, x, y, w, h, height):
    return {"id": pid, "kind": "building", "height": height,
            "shape": {"type": "polygon", "points": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]}}


boxes = st.lists(st.tuples(st.floats(1, 20), st.floats(1, 20), st.floats(0.5, 5), st.floats(0.5, 5),
                           st.sampled_from([0.5, 3.0])), min_size=1, max_size=6)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boxes, st.lists(st.tuples(st.integers(0, 5), st.floats(-6, 6), st.floats(-6, 6)), min_size=1, max_size=4))
def test_any_run_of_moves_keeps_the_fresh_matrix(layout, moves):
    """Tall boxes and low ones (a 0.5" box does not block a level sight line at eye height) on a
    24" table, moved about, some off the grid points, some onto each other."""
    m = MapFile(schema_version=1, id="t", name="T", unit="in", width=24, height=24,
                pieces=[_box(f"b{i}", x, y, w, h, ht) for i, (x, y, w, h, ht) in enumerate(layout)],
                deployment=[{"side": 1, "points": [[0, 0], [24, 0], [24, 3], [0, 3]]},
                            {"side": 2, "points": [[0, 21], [24, 21], [24, 24], [0, 24]]}])
    live._KEPT.clear()
    assert (_kept(m) == _fresh(m)).all()
    for k, dx, dy in moves:
        m = _moved(m, f"b{k % len(layout)}", dx, dy)
        assert (_kept(m) == _fresh(m)).all()
