"""Force strengths and matchups (engine/workshop/matchups.py): a table of pairings split into
what one force's change can even out and what only a matchup change can."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.workshop.matchups import Cell, across_maps, markdown, split


def test_a_ladder_is_all_strength_worked_by_hand():
    # A beats B 60%, B beats C 60%, A beats C 70%: distances +10, +10, +20.
    s = split([Cell("A", "B", 0.6), Cell("B", "C", 0.6), Cell("A", "C", 0.7)])
    # s(A) = (10 + 20) / 3, s(B) = (-10 + 10) / 3, s(C) = (-20 - 10) / 3
    assert s.strength == pytest.approx({"A": 10.0, "B": 0.0, "C": -10.0})
    assert all(m == pytest.approx(0.0, abs=1e-9) for m in s.matchup.values())
    assert (s.total, s.strengths_ss) == pytest.approx((600.0, 600.0))
    assert s.matchups_ss == pytest.approx(0.0, abs=1e-9)


def test_a_cycle_is_all_matchup_worked_by_hand():
    # rock-paper-scissors: A over B, B over C, C over A, each 60%
    s = split([Cell("A", "B", 0.6), Cell("B", "C", 0.6), Cell("A", "C", 0.4)])
    assert all(v == pytest.approx(0.0, abs=1e-9) for v in s.strength.values())
    assert s.matchup == pytest.approx({("A", "B"): 10.0, ("B", "C"): 10.0, ("A", "C"): -10.0})
    assert (s.total, s.matchups_ss) == pytest.approx((300.0, 300.0))


def test_sampling_noise_is_read_off_the_intervals():
    # half-width 1.96 * 5 points: each cell's variance is 25 points squared
    h = 1.959963984540054 * 0.05
    cells = [Cell("A", "B", 0.5, 0.5 - h, 0.5 + h), Cell("A", "C", 0.5, 0.5 - h, 0.5 + h),
             Cell("B", "C", 0.5, 0.5 - h, 0.5 + h), Cell("A", "D", 0.5, 0.5 - h, 0.5 + h),
             Cell("B", "D", 0.5, 0.5 - h, 0.5 + h), Cell("C", "D", 0.5, 0.5 - h, 0.5 + h)]
    s = split(cells)
    # four forces, six pairings: 3 degrees of freedom in the strengths, 3 in the matchups
    assert s.noise == pytest.approx({"strengths": 75.0, "matchups": 75.0})
    assert split(cells[:1] + [Cell("A", "C", 0.5)]).noise == {}   # an interval missing: no figure


def test_bad_tables_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="twice"):
        split([Cell("A", "B", 0.6), Cell("B", "A", 0.4)])
    with pytest.raises(ValueError, match="itself"):
        split([Cell("A", "A", 0.5)])
    with pytest.raises(ValueError, match="connect"):
        split([Cell("A", "B", 0.6), Cell("C", "D", 0.6)])


def test_across_maps_splits_a_force_into_its_mean_and_each_tables_part():
    one = split([Cell("A", "B", 0.6), Cell("B", "C", 0.5), Cell("A", "C", 0.6)])
    two = split([Cell("A", "B", 0.4), Cell("B", "C", 0.5), Cell("A", "C", 0.4)])
    acr = across_maps({"one": one, "two": two})
    assert acr["A"]["maps"]["one"] == pytest.approx(-acr["A"]["maps"]["two"])
    assert acr["A"]["mean"] == pytest.approx(0.0, abs=1e-9)
    assert acr["A"]["departure"]["one"] == pytest.approx(one.strength["A"])
    text = markdown({"one": one, "two": two})
    assert "| A | +6.7 | -6.7 | +0.0 |" in text and "strengths 200 + matchups 0" in text


FORCES = ["A", "B", "C", "D"]
PAIRS = [(a, b) for i, a in enumerate(FORCES) for b in FORCES[i + 1:]]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.2, 0.8), min_size=len(PAIRS), max_size=len(PAIRS)),
       st.sampled_from(FORCES), st.floats(-0.1, 0.1))
def test_the_parts_add_up_and_a_uniform_change_moves_the_strengths_only(shares, force, delta):
    cells = [Cell(a, b, p) for (a, b), p in zip(PAIRS, shares)]
    s = split(cells)
    assert s.strengths_ss + s.matchups_ss == pytest.approx(s.total, rel=1e-9, abs=1e-6)
    # the force better by delta against every opponent: its strength moves, the matchups do not
    moved = [Cell(c.a, c.b, c.share + (delta if c.a == force else -delta if c.b == force else 0.0))
             for c in cells]
    t = split(moved)
    assert t.matchup == pytest.approx(s.matchup, abs=1e-6)
    gap = (t.strength[force] - s.strength[force]) - (t.strength["A" if force != "A" else "B"]
                                                      - s.strength["A" if force != "A" else "B"])
    assert gap == pytest.approx(100.0 * delta, abs=1e-6)


def test_the_default_forces_table_prints_the_split_of_a_shipped_experiment():
    """`bench/balance.py table` on the Frontier table kept in docs/experiments: per map, the
    summed squared distance from even it prints is the cells' own, split into the two parts."""
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "bench"))
    import balance

    rs = balance.rows(root / "data/experiments/balance/frontier-easy")
    assert {r["map"] for r in rs} == {"town", "field"} and len(rs) == 12
    text = balance.strengths(rs)
    for label in ("town", "field"):
        total = sum((100 * r["share"] - 50) ** 2 for r in rs if r["map"] == label)
        s = split([Cell(r["a"], r["b"], r["share"], r["low"], r["high"]) for r in rs if r["map"] == label])
        assert s.total == pytest.approx(total)
        assert f"**{label}**: summed squared distance from even {total:.0f} = strengths {s.strengths_ss:.0f}" in text
    assert "| outlawmen v sheriffs |" in text and "mean over the maps" in text
