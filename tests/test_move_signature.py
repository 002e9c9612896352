"""MoveSpace.signature: the key under which a move space's answers (and the easy agents' chosen
moves, engine/ai/easy_*.py best_move) are kept. Equal signatures must mean equal answers, and
everything a space's check reads must be in it."""
import random

from table_fixtures import box, model, table

from engine.rulesets.common import MoveSpace, MoveTo
from engine.rulesets.counterblast.flow.movement import CBMoveSpace


def _points(space, n=60, seed=3):
    rng = random.Random(seed)
    b = space.base
    return [MoveTo(b.id, round(b.x + rng.uniform(-1, 1) * space.allowance, 2),
                   round(b.y + rng.uniform(-1, 1) * space.allowance, 2)) for _ in range(n)]


def test_equal_signatures_give_equal_answers():
    t = table([box("s", "building", 600, 300, 700, 500, name="Store")])
    one = MoveSpace(t, model("a", 500, 400), 300.0, (model("b", 560, 250),))
    two = MoveSpace(t, model("a", 500, 400), 300.0, (model("b", 560, 250),))
    assert one.signature() == two.signature() and hash(one.signature()) == hash(two.signature())
    assert [one.check(c) for c in _points(one)] == [two.check(c) for c in _points(two)]


def test_every_input_of_check_changes_the_signature():
    t = table([box("s", "building", 600, 300, 700, 500, name="Store")])
    other_table = table([])
    a, b = model("a", 500, 400), model("b", 560, 250)
    sig = MoveSpace(t, a, 300.0, (b,)).signature()
    assert MoveSpace(other_table, a, 300.0, (b,)).signature() != sig
    assert MoveSpace(t, model("a", 501, 400), 300.0, (b,)).signature() != sig
    assert MoveSpace(t, a, 299.0, (b,)).signature() != sig
    assert MoveSpace(t, a, 300.0, (model("b", 561, 250),)).signature() != sig
    assert MoveSpace(t, a, 300.0, (b,), difficult_factor=2.0).signature() != sig


def test_counterblast_panic_is_in_the_signature():
    # a Panicked model may not end closer to an enemy: the same base and table, other answers
    t = table([])
    a, e = model("a", 500, 400), model("e", 700, 400)
    calm = CBMoveSpace(t, a, 150.0, (e,), (e,), no_closer=False)
    panic = CBMoveSpace(t, a, 150.0, (e,), (e,), no_closer=True)
    closer = MoveTo("a", 580, 400)
    assert calm.check(closer) is None and panic.check(closer) is not None
    assert calm.signature() != panic.signature()
