"""The reach preview (engine/table/reach.py): hand-computed cases and agreement with MoveSpace.check."""
import math
import random
from pathlib import Path

import numpy as np
import pytest
from table_fixtures import box, model, table, wall
from test_table_movement import taut_length

from engine.rulesets.common import MoveSpace, MoveTo
from engine.rulesets.counterblast.rules import CBMoveSpace
from engine.rulesets.doubles.rules import DoublesRules, _CachedMoveSpace
from engine.table import Base, Table
from engine.table.reach import position_mask

R = 12.5
MAPS = Path(__file__).resolve().parents[1] / "maps"


def test_open_table_is_a_disc():
    t = table([])
    b = model("a", 500, 400)
    for a in (100.0, 152.4, 304.8):
        r = t.reach(b, a)
        # cells whose centre is in the disc: the area matches pi a^2 within the raster's error
        # (a ring one cell wide would be 2 pi a * 6.35 mm; the count is far closer than that)
        assert r.area == pytest.approx(math.pi * a * a, rel=0.02)
        xs, ys = r.centres()
        d = np.hypot(xs[None, :] - 500, ys[:, None] - 400)
        assert np.array_equal(r.mask, d <= a)
        assert np.allclose(r.cost[r.mask], d[r.mask], atol=1e-3)          # float32 cost = distance
        assert np.isinf(r.cost[~r.mask]).all()
    r = t.reach(b, 100.0)
    assert r.contains(500, 400) and r.contains(590, 400) and not r.contains(610, 400)
    assert not r.contains(-5000, 0)
    # orientation: rows are y, columns are x, row 0 at the lowest y
    assert r.index(500 + 50, 400)[1] > r.index(500, 400)[1] and r.index(500, 400 + 50)[0] > r.index(500, 400)[0]
    # near the table edge the base must stay on the table
    e = t.reach(model("e", 20, 400), 100.0)
    assert not e.contains(5, 400) and e.contains(20, 400) and e.x0 == 0.0


def test_a_wall_forces_the_detour():
    # a hard wall x = 495..505 from y = 200 to 600; the way from (400, 400) to (600, 400) goes
    # round an end: the taut string round the corners (495, 600) and (505, 600)
    t = table([box("w", "building", 495, 200, 505, 600, name="Wall")])
    b = model("a", 400, 400)
    goal = (600.0, 400.0)
    around = taut_length((400, 400), [(495, 600), (505, 600)], goal, R)
    assert 2 * math.hypot(95, 200) + 10 < around < 2 * math.hypot(95 + R, 200 + R) + 10 + math.pi * R
    near = t.reach(b, 300.0)
    assert not near.contains(*goal)                    # 200 mm away in a straight line, but walled off
    assert near.contains(480, 400) and not near.contains(520, 400)
    far = t.reach(b, around + 20)
    assert far.contains(*goal)
    xs, ys = far.centres()
    j, i = far.index(*goal)
    p = t.find_path((400, 400), (xs[i], ys[j]), R)
    assert far.cost[j, i] == pytest.approx(p.length, abs=0.01)          # the path finder's length
    assert around - 15 <= far.cost[j, i] <= around + 15
    assert not t.reach(b, around - 20).contains(*goal)


def test_climbing_costs_height_up_and_down():
    # a 25 mm climbable fence across the whole table: crossing it costs 50 mm more
    t = table([wall("f", "fence", (0, 400), (1000, 400), 10, height=25)])
    b = model("a", 500, 300)
    r = t.reach(b, 260.0)
    j, i = r.index(500, 500)
    assert r.cost[j, i] == pytest.approx(math.hypot(r.centres()[0][i] - 500, r.centres()[1][j] - 300) + 50, abs=1e-3)
    assert r.contains(500, 500) and not t.reach(b, 240.0).contains(500, 500)
    # beyond the fence the reach is a disc 50 mm smaller
    xs, ys = r.centres()
    d = np.hypot(xs[None, :] - 500, ys[:, None] - 300)
    beyond = ys[:, None] >= 405 + R              # clear of the fence (its side at y = 405)
    assert np.array_equal(r.mask & beyond, (d + 50 <= 260) & beyond & np.ones_like(r.mask))
    # on top of the fence (centre over its 10 mm top): legal, as check says, paying the way up only
    assert r.contains(500, 400) and r.cost[r.index(500, 400)] == pytest.approx(
        math.dist(_centre(r, 500, 400), (500, 300)) + 25, abs=1e-3)
    assert r.contains(500, 400) == (MoveSpace(t, b, 260.0).check(MoveTo("a", *_centre(r, 500, 400))) is None)


def _centre(r, x, y):
    xs, ys = r.centres()
    j, i = r.index(x, y)
    return float(xs[i]), float(ys[j])


def test_rulesets_restrictions_and_doubles_straight_rule():
    # a tall narrow crate: over it costs 200 + 2 * 100, round it about 2 * hypot(32.5, 100)
    t = table([box("c", "crate", 480, 390, 520, 410, height=100)])
    b = model("a", 500, 300)
    goal = (500.0, 500.0)
    plain = MoveSpace(t, b, 300.0)
    assert plain.check(MoveTo("a", *goal)) is None and plain.reach().contains(*goal)

    class Stub:   # the two methods of DoublesRules its move space uses, on this table
        _path, _straight_clear = DoublesRules._path, DoublesRules._straight_clear

        def __init__(self, tbl):
            self.table, self._paths = tbl, {}

    dbl = _CachedMoveSpace(Stub(t), b, 300.0, (), 1.0)
    assert dbl.check(MoveTo("a", *goal)) is not None          # Doubles goes straight when it can
    assert not dbl.reach().contains(*goal)
    # Counterblast's Panic: no cell closer to the enemy than the start
    enemy = model("e", 500, 100)
    cb = CBMoveSpace(t, b, 300.0, (enemy,), (enemy,), no_closer=True)
    r = cb.reach()
    xs, ys = r.centres()
    closer = np.hypot(xs[None, :] - 500, ys[:, None] - 100) < 200 - 1e-6
    assert r.mask.any() and not (r.mask & closer).any()
    assert r.contains(*goal) and not r.contains(500, 250)


def test_position_mask_matches_position_problem():
    t = Table.load(MAPS / "town.json")
    rng = random.Random(3)
    others = _place(t, 20, rng)
    xs = np.arange(0, t.width, 6.35) + 3.0
    ys = np.arange(0, t.height, 6.35) + 3.0
    m = position_mask(t, xs, ys, R, others)
    for _ in range(1500):
        j, i = rng.randrange(len(ys)), rng.randrange(len(xs))
        assert m[j, i] == (t.position_problem(xs[i], ys[j], R, others) is None)


def _place(t, n, rng, r=R):
    out = []
    while len(out) < n:
        x, y = rng.uniform(0, t.width), rng.uniform(0, t.height)
        if t.position_problem(x, y, r, out) is None:
            out.append(Base(f"m{len(out)}", x, y, r, 30.0, 0.0, t.surface_height(x, y)))
    return out


@pytest.mark.parametrize("map_id, seed", [("town", 11), ("prehistoric", 12)])
def test_agrees_with_move_space_check(map_id, seed):
    """Random points in the allowance's disc: check() and contains() agree for every point whose
    cell's 3x3 neighbourhood is all in or all out of reach (the boundary is only known to a cell).
    Measured: 100% of such points (and of cell centres) on both maps."""
    t = Table.load(MAPS / f"{map_id}.json")
    rng = random.Random(seed)
    models = _place(t, 21, rng)
    n = agree = centres = centres_ok = 0
    cases = [(76.2, 1.0), (152.4, 1.0), (304.8, 1.0), (228.6, 1.0), (152.4, 2.0), (304.8, 2.0)]
    for k, (allowance, factor) in enumerate(cases):
        b, others = models[k], models[:k] + models[k + 1:]
        space = MoveSpace(t, b, allowance, others, difficult_factor=factor)
        r = space.reach()
        pad = np.pad(r.mask, 1, constant_values=False)
        H, W = r.mask.shape
        lo = np.ones_like(r.mask)
        hi = np.zeros_like(r.mask)
        for dj in (0, 1, 2):
            for di in (0, 1, 2):
                lo &= pad[dj:dj + H, di:di + W]
                hi |= pad[dj:dj + H, di:di + W]
        inner = lo | ~hi                                     # the 3x3 neighbourhood agrees
        xs, ys = r.centres()
        for _ in range(90):
            a = rng.uniform(0, 2 * math.pi)
            d = allowance * math.sqrt(rng.random())
            x, y = b.x + d * math.cos(a), b.y + d * math.sin(a)
            ij = r.index(x, y)
            if ij is None:
                continue
            legal = space.check(MoveTo(b.id, x, y)) is None
            if inner[ij]:
                n += 1
                agree += legal == r.contains(x, y)
            if _ % 3 == 0:                                   # and the cell's own centre
                cx, cy = float(xs[ij[1]]), float(ys[ij[0]])
                centres += 1
                centres_ok += (space.check(MoveTo(b.id, cx, cy)) is None) == bool(r.mask[ij])
    print(f"{map_id}: {agree}/{n} points away from the boundary agree, {centres_ok}/{centres} cell centres")
    assert n > 300
    assert agree / n >= 0.99
    assert centres_ok / centres >= 0.98


@pytest.mark.parametrize("map_id", ["town", "prehistoric"])
def test_vectorised_climbing_and_difficult_match_the_path_code(map_id):
    from engine.table.movement import difficult_length, surface_profiles
    from engine.table.reach import _profiles
    t = Table.load(MAPS / f"{map_id}.json")
    rng = np.random.default_rng(5)
    A = rng.uniform((0, 0), (t.width, t.height), (600, 2))
    B = A + rng.normal(0, 150, (600, 2))
    vert, diff = _profiles(t, A, B, want_diff=True)
    assert np.allclose(vert, surface_profiles(t, A, B)[0], atol=1e-9)     # concave pieces too
    assert np.allclose(diff, difficult_length(t, A, B), atol=1e-6)
    assert (vert > 0).sum() > 50 and (diff > 0).sum() > 10


def test_the_clients_reach_shading_agrees_with_check_beside_a_climbable_skull():
    """Issue 25, item 7: round the Mammoth Skull (impassable, climbable) the shading at the
    client's cell size (a fiftieth of the allowance) agrees with ``check`` at 98% of random
    points, and where it does not, ``check`` gives the shaded answer within one cell."""
    import math
    import random

    from engine.core import Game, Setup
    from engine.data.maps import load_named_map
    from engine.rulesets.common import MoveSpace, MoveTo
    g = Game(Setup("doubles", load_named_map("prehistoric"), (), {"deployment": "automatic"}, 1))
    sp = next(s for s in g.pending().spaces if isinstance(s, MoveSpace))
    f = g.state.fighters[sp.base.id]
    f.x, f.y = 790.0, 560.0                      # beside the skull (80-85 x 51-55 cm)
    f.z = g.table.surface_height(f.x, f.y)
    g._pending_ok = False
    sp = next(s for s in g.pending().spaces if isinstance(s, MoveSpace) and s.base.id == f.key)
    cell = max(2.5, min(6.35, sp.allowance / 50))
    r = sp.reach(cell)
    rng = random.Random(3)
    wrong = 0
    for _ in range(1500):
        a, d = rng.uniform(0, 2 * math.pi), sp.allowance * math.sqrt(rng.random())
        c = MoveTo(f.key, round(f.x + d * math.cos(a), 2), round(f.y + d * math.sin(a), 2))
        ok = sp.check(c) is None
        if ok != r.contains(c.x, c.y):
            wrong += 1
            near = [MoveTo(f.key, round(c.x + 1.5 * cell * math.cos(t), 2), round(c.y + 1.5 * cell * math.sin(t), 2))
                    for t in [k * math.pi / 8 for k in range(16)]]
            assert any((sp.check(n) is None) != ok for n in near), f"{c} is wrong far from any boundary"
    assert wrong <= 30
