"""The sight and threat shading grid (engine/table/visibility.py), checked by hand."""
from __future__ import annotations

from table_fixtures import box, model, table


def test_a_tall_building_hides_the_ground_behind_it_and_cells_inside_it_are_never_seen():
    # a 200 mm tall building from x 400 to 600 across the middle band of a 1000 x 800 table
    t = table([box("b", "building", 400, 200, 600, 600, height=200)])
    viewer = model("v", 100, 400)
    g = t.visible_grid([viewer], cell_mm=50)
    assert g.mask.shape == (16, 20)
    # open ground beside the viewer is seen
    assert g.contains(200, 400) and g.contains(300, 100)
    # straight behind the building (x 700-950, y 350-450) is hidden
    for x in (725, 825, 925):
        assert not g.contains(x, 425)
    # inside the building no model can stand: never marked
    assert not g.contains(475, 425)
    # below the building's corner the ground is open (the line to (475, 75) passes x = 400 at
    # y = 140, under the corner at y = 200), but the whole far side is in its shadow: the
    # shadow's lower edge through the corner (400, 200) has slope -2/3: at x = 725 it is at
    # y = -17, below the lowest probe's rim (12.5 mm), so nothing from x = 700 on is seen
    # (the probe at (675, 25) still shows its rim under the edge at y = 17)
    assert g.contains(475, 75) and g.contains(675, 25)
    assert not g.mask[:, 14:].any()


def test_two_viewers_see_the_union_of_what_each_sees():
    t = table([box("b", "building", 400, 200, 600, 600, height=200)])
    a, b = model("a", 100, 400), model("b", 900, 400)
    ga, gb, both = t.visible_grid([a], cell_mm=50), t.visible_grid([b], cell_mm=50), t.visible_grid([a, b], cell_mm=50)
    assert ((ga.mask | gb.mask) == both.mask).all()
    assert both.contains(825, 425) and not ga.contains(825, 425)


def test_a_low_wall_hides_nothing_from_a_model_looking_over_it():
    t = table([box("w", "building", 400, 200, 420, 600, height=10)])
    g = t.visible_grid([model("v", 100, 400)], cell_mm=50)
    assert g.contains(725, 425)
