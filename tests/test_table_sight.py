"""Sight, cover and arcs on small hand-made tables (answers computed by hand)."""

import numpy as np
import pytest
from table_fixtures import box, circle, model, poly, table, wall

from engine.table import Base, sight_reference

BOTH = pytest.mark.parametrize("impl", ["kernel", "reference"])


def look(t, impl, *a, **kw):
    return t.sight(*a, **kw) if impl == "kernel" else sight_reference(t, *a, **kw)


@BOTH
def test_doorway_only_the_gap_is_seen(impl):
    # A 100 mm wall across y = 495..505 with a doorway from x = 496 to x = 512.
    t = table([wall("w", "wall", (0, 500), (496, 500), 10, name="West wall", height=100),
               wall("e", "wall", (512, 500), (1000, 500), 10, name="East wall", height=100)])
    viewer = model("v", 500, 200)
    target = Base("t", 500, 800, 25.0, 30.0)
    # Silhouette columns at -20, -10, 0, 10, 20 mm cross the wall (halfway) at 500 +- {0, 5, 10} mm
    # (9.83..10.17 over the wall's thickness). 495 and 490 hit the west wall; 500, 505, 510 pass.
    s = look(t, impl, viewer, target)
    assert s.visible_fraction == pytest.approx(3 / 5)
    assert s.blocking == ("West wall",)
    assert s.cover == "heavy"
    # without the doorway nothing is seen
    t2 = table([wall("w", "wall", (0, 500), (1000, 500), 10, height=100)])
    assert look(t2, impl, viewer, target).visible_fraction == 0.0


@BOTH
def test_low_wall_hides_the_lower_half(impl):
    # Eye exactly at the wall's top (20 mm): rays to sample heights 5 and 15 dip below 20 mm over
    # the wall, rays to 25 and 35 stay above it. v_samples=4 on a 40 mm model: half is hidden.
    t = table([wall("w", "wall", (570, 0), (570, 800), 10, height=20, name="Low wall")])
    viewer = Base("v", 0 + 100, 400, 12.5, 20 / 0.9)
    target = Base("t", 700, 400, 12.5, 40.0)
    s = look(t, impl, viewer, target, h_samples=5, v_samples=4)
    assert s.visible_fraction == pytest.approx(0.5)
    assert s.blocking == ("Low wall",) and s.cover == "heavy"
    # a taller viewer (eye at 40 mm) sees the whole model over the same wall:
    # the lowest ray, to 5 mm, is at 40 - 35 * (575 - 100) / 600 = 12.3 mm... below 20: blocked.
    # hand check of each height k at the wall's far face x = 575: z = 40 + (zk - 40) * 475 / 600
    tall = Base("v2", 100, 400, 12.5, 40 / 0.9)
    zs = [40 + (zk - 40) * (575 - 100) / 600 for zk in (5, 15, 25, 35)]
    expected = sum(z >= 20 for z in zs) / 4          # 12.3, 20.2, 28.1, 36.0 -> 3 of 4
    assert look(t, impl, tall, target, v_samples=4).visible_fraction == pytest.approx(expected) == 0.75


@BOTH
def test_model_on_a_roof_sees_over_the_wall(impl):
    t = table([box("b", "building", 0, 0, 200, 800, name="Store", climbable=True),     # 100 mm roof
               wall("w", "wall", (305, 0), (305, 800), 10, height=50, name="Yard wall")])
    target = model("t", 900, 400)
    ground = model("g", 250, 400)
    roof = model("r", 100, 400, z=100.0)
    assert t.surface_height(100, 400) == 100.0
    s = look(t, impl, ground, target)
    assert s.visible_fraction == 0.0 and s.blocking == ("Yard wall",)
    # from the roof the eye is at 127 mm: leaving the roof at x=200 the lowest ray is at
    # 127 - 122 * 100/800 = 111.75 > 100, over the wall (x=310) at 127 - 122 * 210/800 = 95 > 50
    s = look(t, impl, roof, target)
    assert s.visible_fraction == 1.0 and s.cover == "none" and s.blocking == ()
    # looking back up from the ground, the roof's edge (x = 200) hides the lowest row: rays from
    # 27 mm to 105/115/125 mm are at 27 + (zk - 27) * 700/800 = 95.25 / 104 / 112.75 there
    s = look(t, impl, target, roof)
    assert s.visible_fraction == pytest.approx(2 / 3) and s.blocking == ("Store",)


@BOTH
def test_models_block_as_cylinders_and_give_light_cover(impl):
    t = table([])
    v, tg = model("v", 100, 400), model("t", 700, 400)
    mid = model("m", 400, 400)        # all columns pass within 5 mm of its centre, all below 30 mm
    s = look(t, impl, v, tg, [mid])
    assert s.visible_fraction == 0.0 and s.blocking == ("m",) and s.cover == "light"
    assert look(t, impl, v, tg, [mid], models_block=False).visible_fraction == 1.0
    # a short model (10 mm) hides only rays lower than 10 mm where they pass it: none of
    # 27 + (zk - 27) * 0.5 for zk = 5, 15, 25 (16, 21, 26 mm)
    short = Base("s", 400, 400, 12.5, 10.0)
    assert look(t, impl, v, tg, [short]).visible_fraction == 1.0


@BOTH
def test_woods_obscure_but_do_not_block(impl):
    t = table([circle("wd", "woods", (700, 400), 60, name="Copse")])
    s = look(t, impl, model("v", 100, 400), model("t", 700, 400))
    assert s.visible_fraction == 1.0 and s.obscured_fraction == 1.0
    assert s.cover == "light" and s.covering == ("Copse",) and s.blocking == ()


@BOTH
def test_concave_building_is_not_its_hull(impl):
    # L-shaped building; the target stands in the notch and the viewer looks in from outside.
    L = [(300, 300), (600, 300), (600, 400), (400, 400), (400, 600), (300, 600)]
    t = table([poly("L", "building", L)])
    assert len(t.pieces[0].parts) >= 2
    target, viewer = model("t", 470, 470), model("v", 800, 750)
    assert look(t, impl, viewer, target).visible_fraction == 1.0
    hull = table([poly("H", "building", [(300, 300), (600, 300), (600, 400), (400, 600), (300, 600)])])
    assert look(hull, impl, viewer, target).visible_fraction == 0.0
    assert t.position_problem(470, 470, 12.5) is None
    assert hull.position_problem(470, 470, 12.5) == "overlaps the building H"


def test_self_and_matrix_shapes():
    t = table([wall("w", "wall", (500, 0), (500, 600), 10, height=100)])
    a, b, c = model("a", 100, 300), model("b", 900, 300), model("c", 900, 700)
    vis, cov = t.sight_matrix([a, b, c], [a, b, c])
    assert vis.shape == (3, 3) and cov.shape == (3, 3)
    assert np.all(np.diag(vis) == 1.0)
    assert vis[0, 1] == 0.0 and cov[0, 1] == 2
    assert vis[0, 2] == t.sight(a, c, [b]).visible_fraction
    assert t.sight(a, a).visible_fraction == 1.0


def test_vision_arc_points():
    w = model("w", 500, 400, facing=90.0)
    assert w.facing == 90.0
    t = table([])
    assert t.in_arc(w, 500, 600, 90)
    assert t.in_arc(w, 600, 500, 90)          # exactly on the 45-degree edge
    assert not t.in_arc(w, 700, 450, 90)      # 14 degrees above +x: 76 off the facing
    assert not t.in_arc(w, 500, 300, 90)      # behind
    assert t.in_arc(w, 500, 300, 360)
    assert t.in_arc(w, 300, 390, 200)         # 182.9 deg: 92.9 off, within a 200-degree arc


def test_vision_arc_paths():
    t = table([])
    w = model("w", 500, 400, facing=90.0)
    assert not t.path_in_arc(w, 90, [(300, 300), (700, 300)])             # passes behind
    assert t.path_in_arc(w, 90, [(300, 700), (700, 700)])                 # passes in front
    assert t.path_in_arc(w, 90, [(600, 300), (600, 700)])                 # enters from the side
    assert not t.path_in_arc(w, 90, [(900, 300), (900, 500)])             # right, outside the wedge
    # brushing past just behind the watcher: the centre is 5 mm outside the wedge at its apex
    behind = [(300, 395), (700, 395)]
    assert not t.path_in_arc(w, 90, behind)
    assert t.path_in_arc(w, 90, behind, mover_radius=10)
    # a polyline that goes round the back
    assert not t.path_in_arc(w, 180, [(300, 399), (300, 100), (700, 100), (700, 399)])
    assert t.path_in_arc(w, 180, [(300, 399), (300, 100), (700, 100), (700, 401)])
    # with require_sight, a building hiding the crossing makes it not count
    t2 = table([box("b", "building", 450, 500, 550, 520)])
    assert t2.path_in_arc(w, 30, [(300, 700), (700, 700)])
    assert not t2.path_in_arc(w, 30, [(300, 700), (700, 700)], require_sight=True)
    assert t2.path_in_arc(w, 90, [(300, 700), (700, 700)], require_sight=True)
