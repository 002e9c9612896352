"""The duel's numbers without its words (issue 28, third pass): ``resolve_shot`` /
``resolve_combat`` with ``worded=False`` give exactly the numbers of the worded result, and the
easy agent's scorer, which keeps a duel's worth per the plays' classes (``_play_class``), gives
exactly what the worded duel would for every pair of plays."""
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ai.easy_frontier import _play_class
from engine.rulesets.frontier import duel
from engine.rulesets.frontier.cards import full_deck
from engine.rulesets.frontier.duel import (
    FACTIONS,
    FAVOURED_SUIT,
    DuelError,
    DuelNumbers,
    DuelRules,
    Fighter,
    Play,
    Weapon,
    resolve_combat,
    resolve_shot,
)

DECK = full_deck()
SINGLES = [(c,) for c in DECK]
PAIRS = [p for x, y in combinations(DECK, 2) for p in ((x, y), (y, x))]
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def fighters(draw):
    mx = draw(st.integers(1, 4))
    return Fighter(draw(st.sampled_from(FACTIONS)), draw(st.integers(0, 6)), draw(st.integers(0, 6)),
                   draw(st.integers(0, 6)), draw(st.integers(0, 6)), draw(st.integers(1, mx)), mx,
                   is_leader=draw(st.booleans()), clothing=draw(st.integers(0, 2)), name="x")


plays = st.one_of(st.just(()), st.sampled_from(SINGLES), st.sampled_from(PAIRS))
rules = st.builds(DuelRules, tiebreak_cards=st.sampled_from(["any", "number_only"]),
                  heal_amount=st.integers(0, 3), into_combat_penalty=st.integers(0, 2))


def numbers(r) -> DuelNumbers:
    return DuelNumbers(r.success, r.wounds, r.defender_out, r.friendly_damage, r.attacker_healed,
                       r.defender_healed)


def both(shot, a, d, ap, dp, damage, covered, into, dr):
    """(worded result's numbers or the error, numbers-only result or the error)."""
    out = []
    for worded in (True, False):
        try:
            if shot:
                r = resolve_shot(a, d, Play(ap), Play(dp), Weapon("gun", damage, 12.0), covered, into, dr,
                                 worded=worded)
            else:
                r = resolve_combat(a, d, Play(ap), Play(dp), Weapon("club", damage), dr, worded=worded)
        except DuelError as e:
            out.append(("refused", str(e)))
            continue
        out.append(numbers(r) if worded else r)
    return out


@FAST
@given(st.booleans(), fighters(), fighters(), plays, plays, st.integers(0, 3), st.floats(0.0, 1.0),
       st.booleans(), rules)
def test_the_numbers_alone_are_the_worded_duels_numbers(shot, a, d, ap, dp, damage, covered, into, dr):
    worded, bare = both(shot, a, d, ap, dp, damage, covered, into, dr)
    assert bare == worded
    assert worded[0] == "refused" or isinstance(bare, DuelNumbers)


@FAST
@given(st.booleans(), fighters(), fighters(), st.sampled_from(SINGLES), st.sampled_from(SINGLES),
       st.data(), st.integers(0, 3), st.floats(0.0, 1.0), st.booleans(), rules)
def test_lone_cards_of_one_class_give_the_same_duel(shot, a, d, ap, dp, data, damage, covered, into, dr):
    """The scorer keeps a duel's worth per class: any other card of each side's class must give
    the same numbers (a joker is its own class; the worded duels may differ only in words)."""
    fa, fd = FAVOURED_SUIT[a.faction], FAVOURED_SUIT[d.faction]
    ap2 = data.draw(st.sampled_from([c for c in SINGLES if _play_class(c, fa) == _play_class(ap, fa)]))
    dp2 = data.draw(st.sampled_from([c for c in SINGLES if _play_class(c, fd) == _play_class(dp, fd)]))
    assert both(shot, a, d, ap, dp, damage, covered, into, dr)[0] == \
        both(shot, a, d, ap2, dp2, damage, covered, into, dr)[0]


def test_classes_part_what_plays_differently():
    """Hand-checked: for the sheriffs (spades), the 7 of spades is favoured and the 7 of hearts
    not; the two jokers share a class apart from the favoured ace (a different price); a pair and
    no card are themselves."""
    s = FAVOURED_SUIT["sheriffs"]
    c = {x.code: x for x in DECK}
    assert _play_class((c["7S"],), s) == (7, True) and _play_class((c["7H"],), s) == (7, False)
    assert _play_class((c["7H"],), s) == _play_class((c["7D"],), s)
    assert _play_class((c["JK1"],), s) == _play_class((c["JK2"],), s) != _play_class((c["AS"],), s)
    assert _play_class((), s) == () and _play_class((c["7S"], c["7H"]), s) == (c["7S"], c["7H"])
    # and the hand-computed duel: shooting 3 + 7 + favoured nothing vs defence 2 + 5 = 10 v 7,
    # margin 3: 1 damage + 1 (the gun) - toughness 1 = 1 wound, the defender (1 wound) out
    a = Fighter("sheriffs", 2, 3, 2, 2, 2, 2)
    d = Fighter("outlawmen", 2, 2, 2, 1, 1, 1)
    r = resolve_shot(a, d, Play((c["7S"],)), Play((c["5H"],)), Weapon("gun", 1, 12.0), worded=False)
    assert r == DuelNumbers(True, 1, True, 0, 0, 0)
    assert duel.resolve_shot(a, d, Play((c["7S"],)), Play((c["5H"],)), Weapon("gun", 1, 12.0)).attack.value == 10


@FAST
@given(st.booleans(), fighters(), fighters(), plays, plays, st.integers(0, 3), st.floats(0.0, 1.0),
       st.booleans(), rules)
def test_the_words_add_up_to_the_numbers(shot, a, d, ap, dp, damage, covered, into, dr):
    """The worded parts are listed apart from the arithmetic: they must add up to it."""
    worded, _ = both(shot, a, d, ap, dp, damage, covered, into, dr)
    if worded[0] == "refused":
        return
    r = (resolve_shot(a, d, Play(ap), Play(dp), Weapon("gun", damage, 12.0), covered, into, dr) if shot
         else resolve_combat(a, d, Play(ap), Play(dp), Weapon("club", damage), dr))
    gap = r.attack.value - r.defence.value
    assert r.success == (gap > 0) and r.tie == (r.tie_break is not None)
    if r.success:
        assert r.margin == gap and r.wounds == max(0, r.damage.value - r.toughness.value)
    else:
        assert r.margin == 0 and r.wounds == 0 and not r.damage.parts
