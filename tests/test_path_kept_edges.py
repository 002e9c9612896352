"""The path finder keeps each candidate edge's terrain cost on the table across queries
(``Table._edge_costs``): a query on a table that has answered many others must find exactly the
path a fresh table finds."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_table_properties import H, W, layouts

from engine.table import Base, Table, movement

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(layouts(), st.integers(0, 2 ** 31))
def test_kept_edge_costs_change_no_path(t, seed):
    rng = random.Random(seed)
    r = rng.choice([10.0, 12.5])
    starts = [(rng.uniform(r, W - r), rng.uniform(r, H - r)) for _ in range(3)]
    others = [Base(f"o{i}", rng.uniform(0, W), rng.uniform(0, H), 12.5, 30.0) for i in range(rng.randrange(0, 5))]
    queries = []
    for s in starts:                    # several goals round each start, as the agents ask
        for _ in range(6):
            g = (rng.uniform(r, W - r), rng.uniform(r, H - r))
            queries.append((s, g, rng.choice([None, 150.0, 400.0]), others[:rng.randrange(0, len(others) + 1)]))
    for s, g, lim, oth in queries:
        movement.find_path(t, s, g, r, oth, (), lim)
    for s, g, lim, oth in reversed(queries):
        assert movement.find_path(t, s, g, r, oth, (), lim) == movement.find_path(Table(t.mapfile), s, g, r, oth, (), lim)


def test_the_kept_edges_are_per_radius_and_bounded():
    from table_fixtures import box, table
    t = table([box("s", "building", 400, 300, 500, 400)])
    movement.find_path(t, (300.0, 350.0), (600.0, 350.0), 12.5)
    movement.find_path(t, (300.0, 350.0), (600.0, 350.0), 20.0)
    a, b = t._edge_costs(12.5), t._edge_costs(20.0)
    assert a and b and a is not b
    a.update({(i, i): None for i in range(100_000)})
    assert t._edge_costs(12.5) == {}
