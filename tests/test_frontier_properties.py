"""Properties of the Frontier mechanics, checked with hypothesis."""
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.rng import GameRng
from engine.rulesets.frontier.cards import JOKERS, PlayerCards, full_deck
from engine.rulesets.frontier.duel import (
    FACTIONS,
    Fighter,
    Play,
    Weapon,
    first_draw_winner,
    resolve_combat,
    resolve_shot,
)
from engine.rulesets.frontier.poker import Category, best_hand, compare_hands, rank_plain

PLAIN = [c for c in full_deck() if not c.is_joker]
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

plain_hand = lambda n: st.lists(st.sampled_from(PLAIN), min_size=n, max_size=n, unique=True)  # noqa: E731


@FAST
@given(plain_hand(5), plain_hand(5), plain_hand(5))
def test_ranking_is_a_total_order(a, b, c):
    ha, hb, hc = best_hand(a), best_hand(b), best_hand(c)
    assert compare_hands(ha, hb) == -compare_hands(hb, ha)
    assert compare_hands(ha, ha) == 0
    if compare_hands(ha, hb) <= 0 and compare_hands(hb, hc) <= 0:
        assert compare_hands(ha, hc) <= 0
    # consistent with categories: a higher category always wins
    if ha.category != hb.category:
        assert (ha > hb) == (ha.category > hb.category)


@FAST
@given(plain_hand(7))
def test_best_of_seven_is_the_best_five_card_subset(seven):
    best = best_hand(seven)
    assert best.key == max((rank_plain(list(five)) for five in combinations(seven, 5)),
                           key=lambda k: (int(k[0]), k[1]))
    assert len(best.cards) == 5 and set(best.cards) <= set(seven)


@FAST
@given(plain_hand(7), st.integers(0, 6), st.sampled_from(JOKERS))
def test_a_joker_never_lowers_a_hand(seven, i, joker):
    with_joker = seven[:i] + [joker] + seven[i + 1:]
    assert best_hand(with_joker) >= best_hand(seven)
    assert best_hand(seven[:6] + [joker]) >= best_hand(seven[:6])


@FAST
@given(plain_hand(5))
def test_only_one_joker_counts(five):
    one = best_hand(five + [JOKERS[0]])
    assert best_hand(five + list(JOKERS)) == one
    assert one >= best_hand(five)
    assert one.category >= Category.ONE_PAIR  # a joker always matches something
    assert sum(c.is_joker for c in one.cards) <= 1


@FAST
@given(plain_hand(7), st.integers(0, 6))
def test_excluding_a_card_never_raises_the_hand(seven, i):
    assert best_hand(seven, excluded=[seven[i]]) <= best_hand(seven)


@FAST
@given(plain_hand(7))
def test_five_of_a_kind_option_only_matters_with_a_joker(seven):
    assert best_hand(seven, five_of_a_kind=False) == best_hand(seven)


stat = st.integers(0, 6)
faction = st.sampled_from(FACTIONS)
single = st.sampled_from(full_deck()).map(lambda c: Play.of(c))


@st.composite
def fighter(draw, leader=None):
    w_max = draw(st.integers(1, 8))
    return Fighter(draw(faction), draw(stat), draw(stat), draw(stat), draw(stat),
                   draw(st.integers(1, w_max)), w_max, draw(st.booleans()) if leader is None else leader,
                   draw(st.integers(0, 2)))


@FAST
@given(fighter(), fighter(), single, single, st.integers(0, 3), st.floats(0, 1), st.booleans())
def test_duel_results_stay_in_bounds(att, dfn, ap, dp, wd, cover, into):
    for r in (resolve_combat(att, dfn, ap, dp, Weapon("w", wd)),
              resolve_shot(att, dfn, ap, dp, Weapon("gun", wd, 12), cover, into)):
        assert 0 <= r.defender_wounds_after <= dfn.max_wounds
        assert r.attacker_wounds_after <= att.max_wounds
        assert r.wounds >= 0 and r.friendly_damage in (0, 1)
        assert r.success == (r.margin > 0) and (r.damage.parts == ()) == (not r.success)
        assert r.friendly_damage == (1 if (r.kind == "shot" and into and not r.success) else 0)
        if r.success:
            assert 1 <= r.damage.value - sum(v for k, v in r.damage.parts if not k.startswith("margin")) <= 3


@FAST
@given(fighter(), fighter(), single, single, st.floats(0, 1), st.floats(0, 1))
def test_more_cover_never_helps_the_shooter(att, dfn, ap, dp, c1, c2):
    lo, hi = sorted((c1, c2))
    gun = Weapon("gun", 1, 12)
    r_lo, r_hi = resolve_shot(att, dfn, ap, dp, gun, lo), resolve_shot(att, dfn, ap, dp, gun, hi)
    assert r_hi.margin <= r_lo.margin and r_hi.wounds <= r_lo.wounds


@FAST
@given(fighter(), fighter(), single, single, st.integers(1, 5))
def test_more_strength_never_hurts_the_attacker(att, dfn, ap, dp, extra):
    import dataclasses
    stronger = dataclasses.replace(att, strength=att.strength + extra)
    r0, r1 = resolve_combat(att, dfn, ap, dp), resolve_combat(stronger, dfn, ap, dp)
    assert r1.margin >= r0.margin and r1.wounds >= r0.wounds


@FAST
@given(st.sampled_from(full_deck()), st.sampled_from(full_deck()), faction, faction)
def test_first_draw_is_symmetric(a, b, fa, fb):
    w = first_draw_winner(a, fa, b, fb)
    w2 = first_draw_winner(b, fb, a, fa)
    assert (w is None and w2 is None) or w == 1 - w2


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.tuples(st.booleans(), st.integers(0, 7)), min_size=1, max_size=12))
def test_every_card_stays_in_exactly_one_place(seed, turns):
    rng = GameRng(seed)
    pc = PlayerCards.new(rng)
    pc.deal(8, rng)
    for keep, k in turns:
        for _ in range(7):
            pc.play(pc.hand[k % len(pc.hand)])
            pc.check()
        pc.end_turn(keep_last=keep, hand_size=8, rng=rng)
        pc.check()
        assert len(pc.hand) == 8 and len(pc.locations()) == 54
