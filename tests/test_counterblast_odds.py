"""Exact odds vs exhaustive enumeration, hand computation and seeded sampling through GameRng.
Seed: 003_52d4831de0a47706.txt (Counterblast)."""
import itertools
from collections import Counter
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.rng import GameRng
from engine.rulesets.counterblast.checks import ability_check
from engine.rulesets.counterblast.odds import (
    TOL,
    Dist,
    attack_odds,
    check_dist,
    check_odds,
    damage_outcome,
    successes_exact,
    tokens_after_defense,
)


def enumerate_check(n, d, e, budget):
    """Every sequence of faces, die by die, until no die is pending or ``budget`` dice were rolled.
    Returns (exact mass per success count over finished paths, mass of unfinished paths)."""
    done = Counter()
    unfinished = F(0)

    def go(pending, succ, used, p):
        nonlocal unfinished
        if pending == 0:
            done[succ] += p
            return
        if used == budget:
            unfinished += p
            return
        for v in range(1, 11):
            go(pending - 1 + (e is not None and v >= e), succ + (v >= d), used + 1, p / 10)

    go(n, 0, 0, F(1))
    return done, unfinished


def test_no_explosion_matches_full_enumeration():
    """003_52d4831de0a47706.txt: 'The total number of dice that succeed is the result of the check'."""
    for n in range(0, 4):
        for d in (2, 5, 7, 8, 10, 11):
            c = Counter()
            for faces in itertools.product(range(1, 11), repeat=n):
                c[sum(v >= d for v in faces)] += 1
            dist = check_dist(n, d, None)
            assert dist.tail == 0
            for k in range(n + 1):
                assert dist.p(k) == F(c[k], 10 ** n), (n, d, k)


def test_explosions_bracketed_by_enumeration():
    """003_52d4831de0a47706.txt: 'an additional dice that can also explode creating additional dice'."""
    for n, d, e, budget in [(1, 7, 10, 7), (2, 7, 10, 6), (1, 9, 8, 6), (2, 8, 9, 5), (3, 7, 10, 5), (1, 2, 8, 6)]:
        done, unfinished = enumerate_check(n, d, e, budget)
        exact = successes_exact(n, d, e, max(done) + 2)
        for k, pk in enumerate(exact):
            assert done[k] <= pk <= done[k] + unfinished, (n, d, e, k)


def test_hand_computed_one_die():
    """One die vs 7 exploding on 10: P(0) = 6/10, P(1) = 3/10 + 1/10 * 6/10, P(2) = 1/10 * 3/10 + 1/100 * 6/10."""
    d = check_dist(1, 7, 10)
    assert d.p(0) == F(6, 10)
    assert d.p(1) == F(3, 10) + F(1, 10) * F(6, 10)
    assert d.p(2) == F(1, 10) * F(36, 100)
    assert d.tail < TOL and d.tail == 1 - sum(d.pmf.values())
    assert max(d.pmf) == 12                     # 3.6e-12 listed, the rest below 1e-12


def test_cap_applies_in_odds():
    """003_52d4831de0a47706.txt: 'up to a maximum of 10 dice'."""
    assert check_odds(14, 7).pmf == check_dist(10, 7).pmf


def test_mean_matches_generating_function():
    # E[S] per die = (c10 (A - c11) + c11 (c00 + c10)) / (A - c11)^2 = 36/81 vs 7 exploding 10s
    assert abs(check_dist(10, 7).mean() - 10 * 36 / 81) < 1e-9


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 10), d=st.integers(1, 11), e=st.sampled_from([8, 9, 10, None]))
def test_distribution_sums_to_one(n, d, e):
    dist = check_dist(n, d, e)
    assert dist.total() == 1
    assert 0 <= dist.tail < TOL
    assert all(v > 0 for v in dist.pmf.values())


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 9), d=st.integers(2, 10), e=st.sampled_from([8, 9, 10]), k=st.integers(0, 8))
def test_more_dice_never_lowers_chance_of_k(n, d, e, k):
    assert check_dist(n + 1, d, e).at_least(k) >= check_dist(n, d, e).at_least(k)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 10), d=st.integers(2, 9), k=st.integers(1, 6))
def test_easier_difficulty_and_more_explosions_never_hurt(n, d, k):
    assert check_dist(n, d).at_least(k) >= check_dist(n, d + 1).at_least(k)
    assert check_dist(n, d, 9).at_least(k) >= check_dist(n, d, 10).at_least(k)


def _check_freq(dist, samples, n_samples):
    for k in range(0, 8):
        p = float(dist.p(k))
        sd = (p * (1 - p) / n_samples) ** 0.5
        assert abs(samples[k] / n_samples - p) <= 5 * sd + 1e-4, (k, samples[k] / n_samples, p)


def test_sampling_through_gamerng_matches_exact():
    rng = GameRng(2024)
    n_samples = 40000
    for n, d, e in [(5, 7, 10), (3, 8, 9), (2, 6, 8)]:
        c = Counter(ability_check(rng, n, d, explode_on=e).successes for _ in range(n_samples))
        _check_freq(check_dist(n, d, e), c, n_samples)


def test_attack_chain_hand_computed():
    """003_52d4831de0a47706.txt: 'Multiply the result of the Zap check by the chosen weapon's damage' and
    'Each success reduces the raw damage by 1, to a minimum of 0'."""
    # 1 attack die vs 7 (no explosions), damage 2; 1 defense die vs 7 (no explosions).
    a = attack_odds(1, 7, 2, 1, explode_on=None, defense_explode_on=None)
    # hit 4/10 -> raw 2; defense succeeds 4/10 -> 1 token, else 2 tokens
    assert a.tokens.p(2) == F(4, 10) * F(6, 10)
    assert a.tokens.p(1) == F(4, 10) * F(4, 10)
    assert a.tokens.p(0) == F(6, 10)
    assert a.tokens.total() == 1


def test_attack_chain_matches_enumeration_small():
    # 2 attack dice vs 8, damage 3, 2 defense dice vs 7, no explosions: enumerate all 10^4.
    c = Counter()
    for f in itertools.product(range(1, 11), repeat=4):
        raw = 3 * sum(v >= 8 for v in f[:2])
        c[max(0, raw - sum(v >= 7 for v in f[2:]))] += 1
    a = attack_odds(2, 8, 3, 2, explode_on=None, defense_explode_on=None)
    assert a.tokens.pmf == {k: F(v, 10 ** 4) for k, v in c.items()}


def test_attack_chain_matches_sampling():
    rng = GameRng(7)
    n_samples = 30000
    c = Counter()
    for _ in range(n_samples):
        raw = 2 * ability_check(rng, 5, 7).successes
        c[max(0, raw - ability_check(rng, 4, 7).successes)] += 1
    a = attack_odds(5, 7, 2, 4)
    assert abs(a.tokens.total() - 1) < TOL
    _check_freq(a.tokens, c, n_samples)


def test_tokens_after_defense_exact_zero_row():
    raw = Dist({3: F(1)})
    t = tokens_after_defense(raw, 2, 7, 10)
    k = successes_exact(2, 7, 10, 3)
    assert t.p(0) == 1 - k[0] - k[1] - k[2]
    assert t.p(3) == k[0]


def test_damage_outcome_down_and_casualty():
    """003_52d4831de0a47706.txt: 'as many or more damage tokes than its Mettle' / 'more than double its Mettle'."""
    dealt = Dist({0: F(1, 4), 1: F(1, 4), 2: F(1, 4), 5: F(1, 4)})
    o = damage_outcome(dealt, mettle=2, current_tokens=1)
    # after: 1, 2, 3, 6 -> ok, down, down, casualty
    assert (o.unharmed, o.down, o.casualty) == (F(1, 4), F(1, 2), F(1, 4))
    assert o.down_or_worse == F(3, 4)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 8), dmg=st.integers(1, 3), dd=st.integers(0, 8))
def test_attack_tokens_sum_to_one_and_more_defense_helps(n, dmg, dd):
    a = attack_odds(n, 7, dmg, dd, mettle=3)
    assert abs(a.tokens.total() - 1) < F(1, 10 ** 15)
    b = attack_odds(n, 7, dmg, dd + 1, mettle=3)
    assert b.outcome.down_or_worse <= a.outcome.down_or_worse + a.tokens.tail
