"""Next turn's priority: best five of the seven played. Seed: 000_0c05cfd63e59894e.txt."""
import pytest

from engine.core.rng import GameRng
from engine.rulesets.frontier.cards import PlayerCards, card, cards
from engine.rulesets.frontier.poker import Category, best_hand, compare_hands, next_priority, rank_plain

C = Category

# One example per category, each seven cards, in ascending order.
LADDER = [
    ("2S 4H 7D 9C JS KH AD", C.HIGH_CARD, (14, 13, 11, 9, 7)),
    ("2S 2H 4D 7C 9S JH KD", C.ONE_PAIR, (2, 13, 11, 9)),
    ("2S 2H 4D 4C 9S JH KD", C.TWO_PAIR, (4, 2, 13)),
    ("5S 5H 5D 8C 9S JH KD", C.THREE_OF_A_KIND, (5, 13, 11)),
    ("4S 5H 6D 7C 8S JH KD", C.STRAIGHT, (8,)),
    ("2H 5H 7H 9H JH KS AD", C.FLUSH, (11, 9, 7, 5, 2)),
    ("5S 5H 5D 8C 8S JH KD", C.FULL_HOUSE, (5, 8)),
    ("5S 5H 5D 5C 8S JH KD", C.FOUR_OF_A_KIND, (5, 13)),
    ("4S 5S 6S 7S 8S JH KD", C.STRAIGHT_FLUSH, (8,)),
    ("5S 5H 5D 5C JK1 JH KD", C.FIVE_OF_A_KIND, (5,)),
]


@pytest.mark.parametrize("codes,cat,ranks", LADDER, ids=[c.words for _, c, _ in LADDER])
def test_every_category(codes, cat, ranks):
    h = best_hand(cards(codes))
    assert h.category is cat and h.ranks == ranks
    assert len(h.cards) == 5


def test_categories_ascend():
    # 000_0c05cfd63e59894e.txt: 'ascending order of priority in poker'
    hands = [best_hand(cards(c)) for c, _, _ in LADDER]
    assert all(compare_hands(a, b) < 0 for a, b in zip(hands, hands[1:]))


def test_pair_of_twos_beats_ace_high():
    # 000_0c05cfd63e59894e.txt: 'even a hand of low value cards could get priority (ie, a pair of 2's beats an ace high)'
    low_pair = best_hand(cards("2S 2H 3D 4C 6S 7H 9D"))
    ace_high = best_hand(cards("AS KH QD JC 9S 7H 5D"))
    assert low_pair > ace_high
    r = next_priority((cards("AS KH QD JC 9S 7H 5D"), cards("2S 2H 3D 4C 6S 7H 9D")), current=0)
    assert r.winner == 1 and not r.tie


def test_wheel_is_a_five_high_straight_and_broadway_is_ace_high():
    assert best_hand(cards("AS 2H 3D 4C 5S 9H KD")).key == (C.STRAIGHT, (5,))
    assert best_hand(cards("AS KH QD JC 10S 2H 3D")).key == (C.STRAIGHT, (14,))
    assert best_hand(cards("AS 2H 3D 4C 5S 6H KD")).key == (C.STRAIGHT, (6,))
    # no wrap-around
    assert best_hand(cards("QS KH AD 2C 3S 8H 9D")).category is C.HIGH_CARD


def test_kickers_and_suits():
    assert best_hand(cards("9S 9H AD 7C 5S 3H 2D")) > best_hand(cards("9D 9C KD 7S 5H 3C 2S"))
    # suits never rank: identical ranks tie
    a, b = best_hand(cards("9S 9H AD 7C 5S 3H 2D")), best_hand(cards("9D 9C AS 7S 5H 3C 2S"))
    assert compare_hands(a, b) == 0 and a == b
    # two pair judged by the higher pair, then the lower, then the kicker
    assert best_hand(cards("KS KH 2D 2C 3S 4H 6D")) > best_hand(cards("QS QH JD JC 3S 4H 6D"))
    # full house by the three first
    assert best_hand(cards("3S 3H 3D 2C 2S 9H KD")) > best_hand(cards("2S 2H 2D AC AS 9H KD"))


def test_best_five_of_seven_picks_the_strongest():
    # a flush hides inside seven cards that also make a pair
    h = best_hand(cards("2H 5H 9H JH QH QS 3D"))
    assert h.category is C.FLUSH and h.ranks == (12, 11, 9, 5, 2)


# --- the joker --------------------------------------------------------------------------

def test_joker_counts_as_any_card():
    # 000_0c05cfd63e59894e.txt: 'jokers can count as any value/suit of card'
    h = best_hand(cards("AS KS QS JS JK1 2H 3D"))
    assert h.key == (C.STRAIGHT_FLUSH, (14,)) and h.joker_as == card("10S")
    assert best_hand(cards("JK1 9H 9D 4C 6S 2H KD")).key == (C.THREE_OF_A_KIND, (9, 13, 6))
    assert best_hand(cards("JK2 2S 4H 7D 9C JS KH")).category is C.ONE_PAIR
    assert best_hand(cards("JK1 3S 4H 5D 6C 9S KH")).key == (C.STRAIGHT, (7,))
    assert best_hand(cards("JK1 2H 5S 9H JD 3S 4D")).key == (C.STRAIGHT, (6,))  # 2-6 beats the wheel
    assert best_hand(cards("JK1 2H 5H 9H JH 3S KD")).key == (C.FLUSH, (14, 11, 9, 5, 2))


def test_only_one_joker_counts():
    # 000_0c05cfd63e59894e.txt: 'only one Joker can be nominated in the 5 of 7 suite, can't use both jokers'
    one = best_hand(cards("JK1 JK2 9H 9D 4C 6S 2H"))
    assert one.key == (C.THREE_OF_A_KIND, (9, 6, 4))
    assert sum(c.is_joker for c in one.cards) == 1
    # with both counted this would be four 9s
    assert best_hand(cards("JK1 JK2 9H 9D 9C 6S 2H")).category is C.FOUR_OF_A_KIND
    assert best_hand(cards("JK1 JK2 9H 9D 9C 6S 2H")).ranks == (9, 6)


def test_five_of_a_kind_needs_the_option():
    four_and_joker = cards("5S 5H 5D 5C JK1 JH KD")
    assert best_hand(four_and_joker).category is C.FIVE_OF_A_KIND
    off = best_hand(four_and_joker, five_of_a_kind=False)
    assert off.key == (C.FOUR_OF_A_KIND, (5, 14))
    assert best_hand(cards("5S 5H 5D 5C JK1 JH KD")) > best_hand(cards("9S 10S JS QS KS 2H 3D"))


# --- the eighth-card exclusion ----------------------------------------------------------

def test_eighth_card_exclusion_drops_one_card_of_the_pair():
    # 000_0c05cfd63e59894e.txt: 'one of the two cards goes into the discard pile after being used
    # and cannot be used in determining initiative'
    eight = cards("9S 9H 4D 7C JS KH 2D 3C")
    assert best_hand(eight).category is C.ONE_PAIR
    without = best_hand(eight, excluded=[card("9H")])
    assert without.category is C.HIGH_CARD and card("9H") not in without.cards


def test_exclusion_through_the_piles():
    pc = PlayerCards.stacked("9S 9H 2S 5S 7S JS 3D 4C".split())
    pc.deal(8)
    pc.play_pair(keep=card("9S"), discard=card("9H"))
    for c in cards("2S 5S 7S JS 3D 4C"):
        pc.play(c)
    assert pc.spent == 7 and len(pc.played) == 7   # the pair counts once: its discard is the eighth card
    h = best_hand(pc.played)
    assert h.key == (C.FLUSH, (11, 9, 7, 5, 2))  # the spade nine counts, the heart nine does not
    pc2 = PlayerCards.stacked("9S 9H 2S 5S 7S JS 3D 4C".split())
    pc2.deal(8)
    pc2.play_pair(keep=card("9H"), discard=card("9S"))
    for c in cards("2S 5S 7S JS 3D 4C"):
        pc2.play(c)
    assert best_hand(pc2.played).category is C.HIGH_CARD


def test_joker_pair_exclusion():
    # 000_0c05cfd63e59894e.txt: 'Pair could be a true pair or a card and a joker': discarding the joker takes it out of the hand
    played = cards("KS JK1 KH 2D 5C 8S 10H 3C")
    assert best_hand(played, excluded=[card("JK1")]).key == (C.ONE_PAIR, (13, 10, 8, 5))
    assert best_hand(played, excluded=[card("KS")]).key == (C.ONE_PAIR, (13, 10, 8, 5))
    assert best_hand(played).category is C.THREE_OF_A_KIND


# --- fewer cards and ties -----------------------------------------------------------------

def test_short_hands():
    assert best_hand([]).key == (C.HIGH_CARD, ())
    assert best_hand(cards("AS")).key == (C.HIGH_CARD, (14,))
    assert best_hand(cards("JK1 JK2")).key == (C.HIGH_CARD, (14,))
    assert best_hand(cards("3S 3H")) > best_hand(cards("AS KH QD"))
    # a shorter hand loses to an otherwise equal longer one
    assert best_hand(cards("AS KH QD JC")) < best_hand(cards("AS KH QD JC 2S"))
    # four cards cannot make a straight or a flush
    assert best_hand(cards("2S 3S 4S 5S")).category is C.HIGH_CARD


def test_tie_swaps_or_keeps_priority():
    a, b = cards("9S 9H AD 7C 5S 3H 2D"), cards("9D 9C AS 7S 5H 3C 2S")
    assert next_priority((a, b), current=0).winner == 1
    assert next_priority((a, b), current=1).winner == 0
    r = next_priority((a, b), current=0, tie="keep")
    assert r.winner == 0 and r.tie
    with pytest.raises(ValueError):
        next_priority((a, b), current=2)


def test_next_priority_with_exclusions():
    a = cards("9S 9H 4D 7C JS KH 2D 3C")
    b = cards("AS QH 10D 8C 6S 5H 2C")
    assert next_priority((a, b), current=1).winner == 0
    r = next_priority((a, b), current=1, excluded=([card("9H")], []))
    assert r.winner == 1 and "pair" not in r.describe().lower()     # the nines no longer pair


def test_rank_plain_refuses_jokers_and_six_cards():
    with pytest.raises(ValueError):
        rank_plain(cards("JK1 2S"))
    with pytest.raises(ValueError):
        rank_plain(cards("2S 3S 4S 5S 6S 7S"))


def test_seeded_hands_are_judged_right_and_fast_enough():
    import time

    rng = GameRng(2)
    t0 = time.perf_counter()
    judged = []
    for _ in range(50):
        pc = PlayerCards.new(rng)
        judged.append((pc.deck[:7], best_hand(pc.deck[:7])))
    seconds = time.perf_counter() - t0
    # the first three deals, judged by hand:
    # 4H 5D JS 10H 6S 8S + joker: the joker is the 7 of 4-5-6-7-8 (three spades only: no flush;
    # no pair for trips; 7-8-9-10-J lacks two cards)
    (seven, h) = judged[0]
    assert [c.code for c in seven] == ["4H", "5D", "JS", "10H", "6S", "8S", "JK2"]
    assert (h.category, h.ranks, h.joker_as.rank) == (C.STRAIGHT, (8,), 7)
    # AD 4S AS 8S 7C 2S 3D: four spades, no 5 for a wheel: aces with 8, 7, 4
    assert [c.code for c in judged[1][0]] == ["AD", "4S", "AS", "8S", "7C", "2S", "3D"]
    assert (judged[1][1].category, judged[1][1].ranks) == (C.ONE_PAIR, (14, 8, 7, 4))
    # 2D 10H AH QC 3C KC 2C: four clubs: twos with ace, king, queen
    assert [c.code for c in judged[2][0]] == ["2D", "10H", "AH", "QC", "3C", "KC", "2C"]
    assert (judged[2][1].category, judged[2][1].ranks) == (C.ONE_PAIR, (2, 14, 13, 12))
    # fast enough for a turn's priority (about 0.07 s for the 50 here): a generous bound
    assert seconds < 2.0, f"50 seven-card hands took {seconds:.2f} s"


def test_hands_are_named_as_players_say_them():
    from engine.rulesets.frontier.cards import card
    from engine.rulesets.frontier.poker import best_hand

    def named(*codes):
        return best_hand([card(c) for c in codes]).name()
    assert named("KS", "KD", "KH", "7C", "7D") == "Full house, kings over sevens"
    assert named("JK1", "KS", "KD", "7C", "7D") == "Full house, kings over sevens"    # the joker makes it
    assert named("AS", "AD", "2C") == "Pair of aces"
    assert named("QH", "3C", "5D") == "High card, queen"
    assert named("9S", "9D", "4C", "4H", "KD") == "Two pair, nines and fours"
    assert named("2H", "3H", "4H", "5H", "6H") == "Straight flush, six high"
    # the other categories, so that every entry of poker.HAND_WORDS is said once
    assert named("7S", "7D", "7H", "2C", "4D") == "Three sevens"
    assert named("5S", "6D", "7H", "8C", "9D") == "Straight, nine high"
    assert named("2H", "5H", "9H", "JH", "KH") == "Flush, king high"
    assert named("QS", "QD", "QH", "QC", "3D") == "Four queens"
    assert named("JK1", "AS", "AD", "AH", "AC") == "Five aces"
    assert best_hand([]).name() == "No hand"
