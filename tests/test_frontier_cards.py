"""Cards, decks and hands. Seed: ../shared/seeds/000_0c05cfd63e59894e.txt."""
import pytest

from engine.core.rng import GameRng
from engine.rulesets.frontier.cards import (
    DECK_SIZE,
    JOKERS,
    Card,
    CardError,
    Location,
    PlayerCards,
    Suit,
    card,
    cards,
    full_deck,
)


def test_a_deck_is_54_distinct_cards_with_two_jokers():
    d = full_deck()
    assert len(d) == DECK_SIZE == 54 and len(set(d)) == 54
    assert sum(c.is_joker for c in d) == 2
    assert sorted({c.rank for c in d if not c.is_joker}) == list(range(2, 15))


def test_card_values_and_codes():
    # 000_0c05cfd63e59894e.txt: 'J of Spades, which adds a value of 11'; 'Ace of Hearts which adds a value of 14'
    assert card("JS").rank == 11 and card("QD").rank == 12 and card("KC").rank == 13 and card("AH").rank == 14
    assert card("10h") == Card(10, Suit.HEARTS)
    assert card("JK2").is_joker and card("JK2").code == "JK2"
    assert [c.code for c in cards("2S 10D AH JK1")] == ["2S", "10D", "AH", "JK1"]
    assert card("AS").describe() == "Ace of Spades"
    for bad in ("1S", "11H", "AX", "", "JK3"):
        with pytest.raises(CardError):
            card(bad)
    with pytest.raises(CardError):
        Card(15, Suit.SPADES)
    with pytest.raises(CardError):
        Card(0, Suit.SPADES, 1)


def test_shuffle_comes_from_the_game_rng():
    a, b, c = PlayerCards.new(GameRng(7)), PlayerCards.new(GameRng(7)), PlayerCards.new(GameRng(8))
    assert a.deck == b.deck and a.deck != c.deck
    assert a.deck != full_deck()


def test_forced_values_stack_a_shuffle():
    # Fisher-Yates from the last position: forcing 54 for i=53 keeps the last card (JK2) in
    # place, and so on: forcing i+1 at every step leaves the deck in full_deck order.
    rng = GameRng(0)
    rng.force(*range(54, 1, -1))
    assert PlayerCards.new(rng).deck == full_deck()


def test_stacked_helper_and_opening_hand_of_eight():
    # 000_0c05cfd63e59894e.txt: 'Players have eight cards in hand'
    pc = PlayerCards.stacked("AS KS QS JS 10S 9S 8S 7S 2H".split())
    pc.deal(8)
    assert [c.code for c in pc.hand] == "AS KS QS JS 10S 9S 8S 7S".split()
    assert pc.deck[0] == card("2H") and len(pc.deck) == 46
    pc.check()


def test_every_card_is_tracked_through_a_turn_keep_and_ditch():
    # 000_0c05cfd63e59894e.txt: 'Players can choose to ditch the eighth card in hand and draw
    # eight or keep it and draw seven.'
    rng = GameRng(3)
    pc = PlayerCards.new(rng)
    pc.deal(8, rng)
    for c in list(pc.hand[:7]):
        pc.play(c)
        pc.check()
    assert pc.spent == 7 and len(pc.played) == 7 and len(pc.hand) == 1
    last = pc.hand[0]
    drawn = pc.end_turn(keep_last=True, hand_size=8, rng=rng)
    assert len(drawn) == 7 and last in pc.hand and len(pc.hand) == 8
    assert pc.location_of(last) is Location.HAND and len(pc.discard) == 7 and pc.spent == 0
    for c in list(pc.hand[:7]):
        pc.play(c)
    last = pc.hand[0]
    drawn = pc.end_turn(keep_last=False, hand_size=8, rng=rng)
    assert len(drawn) == 8 and pc.location_of(last) is Location.DISCARD
    assert len(pc.discard) == 15
    pc.check()
    assert len(pc.locations()) == 54


def test_pair_sends_one_card_to_the_discard():
    # 000_0c05cfd63e59894e.txt: 'one of the two cards goes into the discard pile after being used'
    pc = PlayerCards.stacked("9S 9H 2C 3C 4C 5C 6C 7C".split())
    pc.deal(8)
    pc.play_pair(keep=card("9S"), discard=card("9H"))
    assert pc.location_of(card("9S")) is Location.PLAYED
    assert pc.location_of(card("9H")) is Location.DISCARD
    assert pc.spent == 1 and pc.pairs_played == 1   # the discarded card is the eighth card
    with pytest.raises(CardError):
        pc.play_pair(card("2C"), card("2C"))
    with pytest.raises(CardError):
        pc.play_pair(card("2C"), card("AS"))  # AS is in the deck
    pc.check()


def test_playing_a_card_not_in_hand_is_refused_and_changes_nothing():
    pc = PlayerCards.stacked(["AS"])
    pc.deal(8)
    before = pc.to_data()
    with pytest.raises(CardError, match="not in the hand"):
        pc.play(card("AH"))
    assert pc.to_data() == before


def test_lay_down_counts_forfeit_does_not():
    pc = PlayerCards.stacked(["AS", "KS"])
    pc.deal(8)
    pc.lay_down(card("AS"))
    pc.forfeit(card("KS"))
    assert pc.location_of(card("AS")) is Location.PLAYED
    assert pc.location_of(card("KS")) is Location.DISCARD
    assert pc.spent == 2


def test_empty_deck_reshuffles_the_discard_but_not_the_played_cards():
    rng = GameRng(11)
    pc = PlayerCards.new(rng)
    pc.deal(8, rng)
    turns = 0
    while pc.reshuffles == 0:
        for c in list(pc.hand[:7]):
            pc.play(c)
        pc.end_turn(keep_last=False, hand_size=8, rng=rng)
        pc.check()
        turns += 1
        assert turns < 10
    assert pc.reshuffles == 1
    # drawing without an RNG when the deck is empty is refused
    pc2 = PlayerCards(deck=[], hand=full_deck()[:8], discard=full_deck()[8:])
    with pytest.raises(CardError):
        pc2.draw(1)
    # nothing at all to draw
    pc3 = PlayerCards(deck=[], hand=full_deck())
    with pytest.raises(CardError, match="no card left"):
        pc3.draw(1, GameRng(0))
    # the cards played this turn are never part of a reshuffle
    pc4 = PlayerCards(deck=[], hand=full_deck()[:4], played=full_deck()[4:10], discard=full_deck()[10:])
    pc4.draw(3, GameRng(1))
    assert pc4.played == full_deck()[4:10]
    pc4.check()


def test_check_catches_a_duplicate_or_missing_card():
    d = full_deck()
    with pytest.raises(AssertionError, match="both in"):
        PlayerCards(deck=d, hand=[d[0]])
    with pytest.raises(AssertionError, match="missing"):
        PlayerCards(deck=d[1:])


def test_state_round_trips_and_public_view_hides_the_hand():
    rng = GameRng(5)
    pc = PlayerCards.new(rng)
    pc.deal(8, rng)
    pc.play(pc.hand[0])
    again = PlayerCards.from_data(pc.to_data())
    assert again == pc
    pub = pc.public_view()
    assert pub["hand"] == 7 and pub["deck"] == 46
    hidden = {c.code for c in pc.hand} | {c.code for c in pc.deck}
    shown = {x for v in pub.values() if isinstance(v, list) for x in v}
    assert not hidden & shown
    assert set(pub["played"]) == {pc.played[0].code}


def test_jokers_are_two_distinct_cards():
    assert JOKERS[0] != JOKERS[1] and card("JK1") == JOKERS[0]
