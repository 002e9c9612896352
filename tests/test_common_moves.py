"""The shared move choice (engine/rulesets/common.py) on a small hand-made table."""
import random

from table_fixtures import box, model, table

from engine.rulesets.common import MoveSpace, MoveTo


class EastOnly(MoveSpace):
    def problem(self, c):
        return "only eastwards" if c.x < self.base.x else None


def test_ruleset_restriction_applies_to_check_and_sample():
    t = table([box("s", "building", 600, 300, 700, 500, name="Store")])
    b = model("a", 500, 400)
    space = EastOnly(t, b, 150.0)
    assert space.check(MoveTo("a", 450, 400)) == "only eastwards"
    assert space.quick(MoveTo("a", 450, 400)) == "only eastwards"
    assert space.check(MoveTo("a", 550, 400)) is None
    rng = random.Random(1)
    for _ in range(40):
        c = space.sample(rng)
        assert c is not None and c.x >= b.x and space.check(c) is None


def test_straight_route_or_path_within_the_allowance():
    t = table([box("s", "building", 600, 300, 700, 500, name="Store")])
    b = model("a", 500, 400)
    space = MoveSpace(t, b, 400.0)
    # straight through the store: refused by position, and behind it only round the corner
    assert space.check(MoveTo("a", 650, 400)) == "overlaps the Store"
    behind = MoveTo("a", 760, 400)
    assert space.quick(behind) == "no straight route"
    # round the store's corners: 383 mm (the path finder's answer) fits 400, not 380
    assert space.check(behind) is None
    assert MoveSpace(t, b, 380.0).check(behind).startswith("no path of 15.0\" or less")
    assert "away, more than" in space.check(MoveTo("a", 50, 400))
    assert space.check(MoveTo("b", 510, 400)).startswith("this move is for a")
