"""``MoveSpace.quick_all`` (an agent's candidate points tested in one pass, the other bases by
numpy) must answer exactly as ``quick`` does, point for point: on random tables with bases placed
at and near contact, on the shipped maps, for the rulesets' own spaces (Counterblast's Panic
restriction, Doubles' kept answers, difficult ground counted twice)."""
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_fixtures import box, model, table
from test_table_properties import H, W, layouts

from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.rulesets.common import MoveSpace, MoveTo
from engine.rulesets.counterblast.flow.movement import CBMoveSpace
from engine.table import Base, Table
from engine.table.movement import EDGE_TOL, POS_TOL

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Twice(MoveSpace):
    """A space whose cost is its own (difficult ground counted through ``cost``, not the plain
    straight run): ``quick_all`` must ask it the same way ``quick`` does."""

    def cost(self, path):
        return path.length + 0.5 * path.difficult


def _same(space_factory, moves):
    """quick_all on one space, quick on a twin: the same verdicts and the same check memo."""
    a, b = space_factory(), space_factory()
    got = a.quick_all(moves)
    want = [b.quick(c) is None for c in moves]
    assert got == want, [(c, g, w) for c, g, w in zip(moves, got, want) if g != w]
    assert a._checked() == b._checked()
    return got


def _ring(b: Base, allowance: float, others, rng) -> list[MoveTo]:
    """Candidate points as the easy agents make them (rings at fractions of the allowance, some
    beyond it), plus points at and just inside / outside contact with each other base and
    points whose straight route grazes one."""
    pts = []
    for f in (1.0, 0.66, 0.33, 1.2):
        for k in range(12):
            a = 2 * math.pi * k / 12 + rng.random() * 0.1
            pts.append((b.x + allowance * f * math.cos(a), b.y + allowance * f * math.sin(a)))
    for o in others:
        for gap in (0.0, -POS_TOL, -2 * POS_TOL, POS_TOL, -0.01, 0.01):
            a = rng.uniform(0, 2 * math.pi)
            d = b.radius + o.radius + gap
            pts.append((o.x + d * math.cos(a), o.y + d * math.sin(a)))
        # the route from the mover passing the other base at (about) its contact distance
        dx, dy = o.x - b.x, o.y - b.y
        n = math.hypot(dx, dy) or 1.0
        for gap in (0.0, -EDGE_TOL, 0.001, -0.001):
            side = b.radius + o.radius - EDGE_TOL + gap
            px, py = o.x - dy / n * side, o.y + dx / n * side
            pts.append((b.x + 2 * (px - b.x), b.y + 2 * (py - b.y)))
    return [MoveTo(b.id, round(x, 2), round(y, 2)) for x, y in pts]


@st.composite
def movers(draw):
    x = draw(st.integers(20, W - 20)) + 0.25
    y = draw(st.integers(20, H - 20)) + 0.5
    r = draw(st.sampled_from([10.0, 12.5, 20.0]))
    others = []
    for i in range(draw(st.integers(0, 8))):
        if draw(st.booleans()):    # in contact with the mover or near it
            a = draw(st.floats(0, 2 * math.pi))
            orad = draw(st.sampled_from([10.0, 12.5, 20.0]))
            d = r + orad + draw(st.sampled_from([0.0, 0.5, 5.0, 30.0]))
            others.append(Base(f"o{i}", x + d * math.cos(a), y + d * math.sin(a), orad, 30.0))
        else:
            others.append(Base(f"o{i}", float(draw(st.integers(10, W - 10))), float(draw(st.integers(10, H - 10))),
                               draw(st.sampled_from([10.0, 12.5, 20.0])), 30.0))
    return Base("m", x, y, r, 30.0), others


@SETTINGS
@given(layouts(), movers(), st.sampled_from([50.0, 101.6, 152.4, 300.0]), st.integers(0, 2 ** 31))
def test_quick_all_answers_as_quick_on_random_tables(t, mover, allowance, seed):
    b, others = mover
    moves = _ring(b, allowance, others, random.Random(seed))
    enemies = others[::2]
    _same(lambda: MoveSpace(t, b, allowance, others), moves)
    _same(lambda: MoveSpace(t, b, allowance, others, difficult_factor=2.0), moves)
    _same(lambda: Twice(t, b, allowance, others), moves)
    _same(lambda: CBMoveSpace(t, b, allowance, others, enemies, no_closer=True), moves)


@pytest.mark.parametrize("mapname", ["outpost", "town", "prehistoric"])
def test_quick_all_answers_as_quick_on_the_shipped_maps(mapname):
    t = Table(load_map(resolve_map(mapname)))
    rng = random.Random(mapname)
    checked = refused_by_bases = 0
    for _ in range(40):
        r = rng.choice([12.5, 15.0, 20.0])
        b = Base("m", rng.uniform(r, t.width - r), rng.uniform(r, t.height - r), r, 30.0)
        others = [Base(f"o{i}", b.x + rng.uniform(-150, 150), b.y + rng.uniform(-150, 150), rng.choice([12.5, 20.0]), 30.0)
                  for i in range(rng.randrange(0, 12))]
        allowance = rng.choice([101.6, 152.4, 203.2])
        moves = _ring(b, allowance, others, rng)
        got = _same(lambda: MoveSpace(t, b, allowance, others, difficult_factor=2.0), moves)
        alone = MoveSpace(t, b, allowance).quick_all(moves)
        refused_by_bases += sum(a and not g for a, g in zip(alone, got))
        checked += len(moves)
    assert checked > 1000 and refused_by_bases > 50


def test_quick_all_at_contact_by_hand():
    """A mover at (100, 100) r 12.5 on a table with one building: ending in base contact with
    another base is legal (25 mm apart), 0.01 mm closer is not; a straight route that passes
    another base 25 mm off is clear (a base may touch, 0.01 mm of overlap is tolerated), one
    passing 24.98 mm off is not; in the building and beyond the allowance are refused."""
    t = table([box("s", "building", 400, 300, 500, 400)])
    b = model("m", 100.0, 100.0)
    want = {(175.0, 100.0): True, (175.01, 100.0): False, (450.0, 350.0): False, (100.0, 401.0): False,
            (100.0, 399.0): True, (300.0, 100.0): False}
    moves = [MoveTo("m", x, y) for x, y in want]
    sp = MoveSpace(t, b, 300.0, [model("o", 200.0, 100.0)])
    assert sp.quick_all(moves) == list(want.values())
    assert [sp.quick(c) is None for c in moves] == list(want.values())
    route = [MoveTo("m", 300.0, 100.0)] * 4
    for gap, ok in ((25.0, True), (24.995, True), (24.98, False)):
        sp = MoveSpace(t, b, 300.0, [model("o", 200.0, 100.0 + gap), model("p", 50.0, 300.0)])
        assert sp.quick_all(route) == [ok] * 4
        assert (sp.quick(route[0]) is None) == ok
