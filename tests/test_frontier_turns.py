"""The turn's card economy and victory. Seed: ../shared/seeds/000_0c05cfd63e59894e.txt."""
from engine.core.rng import GameRng
from engine.rulesets.frontier.cards import PlayerCards
from engine.rulesets.frontier.turns import (
    SideStatus,
    can_keep_last,
    can_play_pair,
    must_defend_with_card,
    must_spend,
    routed,
    turn_over,
    victory,
)


def test_seven_cards_must_be_spent():
    # 000_0c05cfd63e59894e.txt: 'seven cards minimum have to be spent in a turn.'
    assert must_spend(0, 8) == 7 and must_spend(6, 2) == 1 and must_spend(7, 1) == 0
    assert must_spend(8, 0) == 0 and must_spend(5, 0) == 0  # an empty hand cannot spend more
    assert not turn_over((7, 6), (1, 2)) and turn_over((7, 8), (1, 0))


def test_a_turn_of_seven_tests_spends_seven_each_and_leaves_the_eighth():
    rng = GameRng(9)
    a, b = PlayerCards.new(rng), PlayerCards.new(rng)
    a.deal(8, rng), b.deal(8, rng)
    tests = 0
    while not turn_over((a.spent, b.spent), (len(a.hand), len(b.hand))):
        a.play(a.hand[0])
        b.play(b.hand[0])
        tests += 1
    assert tests == 7 and len(a.hand) == len(b.hand) == 1 and can_keep_last(1)


def test_a_pair_spends_the_eighth_card():
    # 000_0c05cfd63e59894e.txt: 'Leaders get an ‘eighth card’ action'
    assert can_play_pair(True, 0, 2) and not can_play_pair(False, 0, 8)
    assert not can_play_pair(True, 1, 8) and can_play_pair(True, 1, 8, limit=2)
    assert not can_play_pair(True, 0, 1)
    pc = PlayerCards.stacked("5S 5H".split())
    pc.deal(8)
    pc.play_pair(pc.hand[0], pc.hand[1])
    # 'each player will have played seven cards': the pair counts once, its discard is the eighth
    while must_spend(pc.spent, len(pc.hand)):
        pc.play(pc.hand[0])
    assert pc.spent == 7 and len(pc.played) == 7 and not pc.hand and not can_keep_last(len(pc.hand))
    assert not must_defend_with_card(len(pc.hand))
    # without a pair seven are spent and the eighth card is left to keep or ditch
    pc2 = PlayerCards.stacked([])
    pc2.deal(8)
    while must_spend(pc2.spent, len(pc2.hand)):
        pc2.play(pc2.hand[0])
    assert pc2.spent == 7 and len(pc2.hand) == 1 and must_defend_with_card(len(pc2.hand))


def test_rout_and_wipe_out():
    full, half, none = SideStatus((5, 3, 3, 2, 2, 2)), SideStatus((5, 3, 3, 0, 0, 0)), SideStatus((0,) * 6)
    assert routed(half, 0.5) and not routed(SideStatus((5, 3, 3, 2, 0, 0)), 0.5)
    assert victory((full, none), 2, end_of_turn=False).winner == 0
    assert victory((none, none), 2, end_of_turn=False).winner is None
    assert not victory((full, half), 2, end_of_turn=False).over  # rout only at the end of a turn
    v = victory((full, half), 2, end_of_turn=True)
    assert v.over and v.winner == 0 and "routed" in v.reason
    assert not victory((full, half), 2, end_of_turn=True, rule="last_standing").over
    # both routed: more models standing, then wounds left
    v = victory((SideStatus((1, 1, 0, 0)), SideStatus((5, 0, 0, 0))), 3, end_of_turn=True)
    assert v.winner == 0
    v = victory((SideStatus((1, 0, 0, 0)), SideStatus((5, 0, 0, 0))), 3, end_of_turn=True)
    assert v.winner == 1
    v = victory((SideStatus((2, 0)), SideStatus((0, 2))), 3, end_of_turn=True)
    assert v.over and v.winner is None


def test_turn_limit():
    a, b = SideStatus((5, 3, 3, 2, 2, 0)), SideStatus((5, 3, 3, 2, 2, 2))
    assert not victory((a, b), 7, end_of_turn=True).over
    v = victory((a, b), 8, end_of_turn=True)
    assert v.over and v.winner == 1
    assert not victory((a, b), 8, end_of_turn=True, turn_limit=None).over
    assert victory((b, b), 8, end_of_turn=True).winner is None
