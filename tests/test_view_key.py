"""``view_key`` (easy's memo key for a view's models, engine/ai/easy_moves.py) must never take two
different values as one (a kept move would answer the wrong question) and should take equal
values as one (or the memo keeps nothing)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai.easy_moves import frozen, view_key

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 6, 10 ** 6),
                    st.floats(allow_nan=False), st.text(max_size=6))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)), max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(values, values)
def test_equal_keys_only_for_equal_values(a, b):
    if view_key(a) == view_key(b):
        assert frozen(a) == frozen(b)


@settings(max_examples=200, deadline=None)
@given(values)
def test_a_copy_gets_the_same_key(a):
    import copy
    import json
    b = copy.deepcopy(a)
    assert view_key(a) == view_key(b)
    try:                          # the same value rebuilt from text (other objects, same values)
        c = json.loads(json.dumps(a))
    except ValueError:            # infinities
        return
    if frozen(c) == frozen(a) and repr(c) == repr(a):
        assert view_key(c) == view_key(a)


def test_by_hand():
    m = {"a1": {"x": 100.5, "y": 20.0, "down": False, "conditions": ["prone"]}}
    assert view_key(m) == view_key({"a1": {"x": 100.5, "y": 20.0, "down": False, "conditions": ["prone"]}})
    assert view_key(m) != view_key({"a1": {"x": 100.5, "y": 20.0, "down": True, "conditions": ["prone"]}})
    assert view_key(m) != view_key({"a1": {"x": 100.50000000000001 + 1e-13, "y": 20.0, "down": False,
                                           "conditions": ["prone"]}})
    assert view_key(m) != view_key({"a1": {"x": 100.5, "y": 20.0, "down": False, "conditions": ("prone",)}})
    assert view_key({"a": object}) == frozen({"a": object})     # marshal cannot: frozen's key
