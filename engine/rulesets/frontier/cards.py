"""Playing cards for Last Hope Frontier.

Each player owns a whole 54-card deck: 2..10, J (11), Q (12), K (13), A (14) in four suits,
plus two jokers. ``PlayerCards`` holds one player's 54 cards and knows where each one is:
the draw deck, the hand, the cards played this turn (which count for next turn's priority),
or the discard pile. ``check()`` proves that every card is in exactly one of those places.

Chance comes only from ``GameRng``: ``PlayerCards.new(rng)`` shuffles with ``rng.shuffle``;
tests can use ``PlayerCards.stacked([...])`` to put named cards on top of the deck.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from engine.core.rng import GameRng

JOKER_RANK = 0
RANKS = tuple(range(2, 15))  # 2..10, J=11, Q=12, K=13, A=14
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_WORDS = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
FACE_RANKS = (11, 12, 13, 14)
DECK_SIZE = 54


class CardError(ValueError):
    """A card move that the rules do not allow (card not in hand, too many drawn, ...)."""


class Suit(str, Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def word(self) -> str:
        return self.name.capitalize()

    @property
    def symbol(self) -> str:
        return {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}[self.value]


SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Jokers have ``rank == 0``, no suit and ``joker`` 1 or 2 (the deck's two jokers
    are different cards, so each can be tracked)."""
    rank: int
    suit: Suit | None
    joker: int = 0

    def __post_init__(self) -> None:
        if self.joker:
            if self.joker not in (1, 2) or self.rank != JOKER_RANK or self.suit is not None:
                raise CardError(f"bad joker: rank={self.rank} suit={self.suit} joker={self.joker}")
        elif self.rank not in RANKS or self.suit is None:
            raise CardError(f"bad card: rank={self.rank} suit={self.suit}")

    def __hash__(self) -> int:
        # the same for equal cards, cheap, and the same in every process (no string hashing)
        return (self.rank << 8) | (ord(self.suit) if self.suit is not None else self.joker)

    def __copy__(self) -> Card:
        return self  # immutable: a game state's deep copy shares its cards

    def __deepcopy__(self, memo) -> Card:
        return self

    @property
    def is_joker(self) -> bool:
        return self.joker != 0

    @property
    def is_face(self) -> bool:
        return self.rank in FACE_RANKS

    @property
    def code(self) -> str:
        """Short code: ``AS``, ``10H``, ``7D``, ``JK1``."""
        if self.is_joker:
            return f"JK{self.joker}"
        # a card that is not a joker has a suit (the card's validator); is_joker does not narrow it
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit.value}"  # type: ignore[union-attr]

    def describe(self) -> str:
        if self.is_joker:
            return f"Joker {self.joker}"
        return f"{RANK_WORDS.get(self.rank, str(self.rank))} of {self.suit.word}"  # type: ignore[union-attr]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


_CODE = re.compile(r"^(10|[2-9]|[JQKA])([SHDC])$")


def card(code: str) -> Card:
    """Parse a card code (``"AS"``, ``"10h"``, ``"jk1"``); raises ``CardError`` if it is not one."""
    c = code.strip().upper()
    if c in ("JK1", "JK2"):
        return Card(JOKER_RANK, None, int(c[2]))
    m = _CODE.match(c)
    if not m:
        raise CardError(f"not a card code: {code!r} (use e.g. AS, 10H, 7D, JK1)")
    r, s = m.groups()
    rank = {"J": 11, "Q": 12, "K": 13, "A": 14}.get(r) or int(r)
    return Card(rank, Suit(s))


def cards(codes: str | Iterable[str]) -> list[Card]:
    """``cards("AS KD JK1")`` -> three cards (test and data helper)."""
    if isinstance(codes, str):
        codes = codes.split()
    return [card(c) for c in codes]


JOKERS = (Card(JOKER_RANK, None, 1), Card(JOKER_RANK, None, 2))


def full_deck() -> list[Card]:
    """The 54 cards in a fixed order (suits S, H, D, C; ranks 2..A; then the two jokers)."""
    return [Card(r, s) for s in SUITS for r in RANKS] + list(JOKERS)


_FULL_SET = frozenset(full_deck())


class Location(str, Enum):
    DECK = "deck"
    HAND = "hand"
    PLAYED = "played"      # played this turn and counting for next turn's priority
    DISCARD = "discard"


class PlayerCards:
    """One player's 54 cards. ``deck[0]`` is the top of the draw deck.

    A turn: the hand holds ``hand_size`` cards; every card spent in a test goes from the hand
    to ``played`` (``play``), except that a leader's eighth-card pair sends one of its two cards
    straight to the discard (``play_pair``), so it does not count for priority. At the end of
    the turn (``end_turn``) the played cards go to the discard and the player either keeps the
    last card in hand and draws up to ``hand_size``, or ditches it too and draws a full hand.
    """

    __slots__ = ("deck", "hand", "played", "discard", "spent", "pairs_played", "reshuffles")

    def __init__(self, deck: Sequence[Card], hand: Sequence[Card] = (), played: Sequence[Card] = (),
                 discard: Sequence[Card] = (), spent: int = 0, pairs_played: int = 0, reshuffles: int = 0):
        self.deck: list[Card] = list(deck)
        self.hand: list[Card] = list(hand)
        self.played: list[Card] = list(played)
        self.discard: list[Card] = list(discard)
        self.spent = spent                # cards spent this turn toward the seven (a pair counts once:
                                          # its discarded card is the eighth card)
        self.pairs_played = pairs_played  # eighth-card actions this turn
        self.reshuffles = reshuffles      # times the discard became the deck
        self.check()

    # --- construction ------------------------------------------------------------------
    @classmethod
    def new(cls, rng: GameRng) -> PlayerCards:
        """A fresh deck of 54, shuffled by the game's RNG, nothing drawn yet."""
        deck = full_deck()
        rng.shuffle(deck)
        return cls(deck)

    @classmethod
    def stacked(cls, top: Iterable[Card | str]) -> PlayerCards:
        """Test helper: a deck whose top cards are ``top`` in that order (first drawn first);
        the rest follow in ``full_deck`` order."""
        top_cards = [c if isinstance(c, Card) else card(c) for c in top]
        if len(set(top_cards)) != len(top_cards):
            raise CardError("stacked deck names a card twice")
        rest = [c for c in full_deck() if c not in set(top_cards)]
        return cls(top_cards + rest)

    # --- where cards are -----------------------------------------------------------------
    def piles(self) -> dict[Location, list[Card]]:
        return {Location.DECK: self.deck, Location.HAND: self.hand,
                Location.PLAYED: self.played, Location.DISCARD: self.discard}

    def location_of(self, c: Card) -> Location:
        for loc, pile in self.piles().items():
            if c in pile:
                return loc
        raise CardError(f"{c} is nowhere")  # check() makes this impossible

    def locations(self) -> dict[Card, Location]:
        return {c: loc for loc, pile in self.piles().items() for c in pile}

    def check(self) -> None:
        """Invariant: each of the 54 cards is in exactly one place. Raises ``AssertionError``."""
        every = self.deck + self.hand + self.played + self.discard
        if len(every) == DECK_SIZE and all(isinstance(c, Card) for c in every) and set(every) == _FULL_SET:
            return   # 54 cards, all different and the full set: the loop below would find nothing
        seen: dict[Card, Location] = {}
        for loc, pile in self.piles().items():
            for c in pile:
                if not isinstance(c, Card):
                    raise AssertionError(f"{loc.value} holds a non-card {c!r}")
                if c in seen:
                    raise AssertionError(f"{c} is both in {seen[c].value} and {loc.value}")
                seen[c] = loc
        if len(seen) != DECK_SIZE or seen.keys() != _FULL_SET:
            missing = sorted(str(c) for c in set(full_deck()) - set(seen))
            raise AssertionError(f"{len(seen)} cards tracked, missing {missing}")

    # --- drawing -------------------------------------------------------------------------
    def draw(self, n: int, rng: GameRng | None = None) -> list[Card]:
        """Draw ``n`` cards from the top into the hand. When the deck runs out, the discard pile
        is shuffled (with ``rng``) and becomes the new deck; the played cards of the current turn
        are never reshuffled. Raises ``CardError`` if there are not enough cards."""
        if n < 0:
            raise CardError("cannot draw a negative number of cards")
        drawn: list[Card] = []
        for _ in range(n):
            if not self.deck:
                if not self.discard:
                    raise CardError(f"no card left to draw ({len(drawn)} of {n} drawn)")
                if rng is None:
                    raise CardError("the deck is empty and no RNG was given to reshuffle the discard")
                self.deck = self.discard
                self.discard = []
                rng.shuffle(self.deck)
                self.reshuffles += 1
            drawn.append(self.deck.pop(0))
        self.hand.extend(drawn)
        return drawn

    def deal(self, hand_size: int, rng: GameRng | None = None) -> list[Card]:
        """The opening hand."""
        if self.hand:
            raise CardError("the hand is not empty")
        return self.draw(hand_size, rng)

    # --- spending ------------------------------------------------------------------------
    def _take(self, c: Card) -> None:
        try:
            self.hand.remove(c)
        except ValueError:
            raise CardError(f"{c} is not in the hand ({' '.join(map(str, self.hand)) or 'empty'})") from None

    def play(self, c: Card) -> None:
        """Spend one card in a test: hand -> played (it counts for priority)."""
        self._take(c)
        self.played.append(c)
        self.spent += 1

    def play_pair(self, keep: Card, discard: Card) -> None:
        """Spend a leader's eighth-card pair: ``keep`` goes to played (counts for priority),
        ``discard`` goes to the discard pile and does not count. Pair legality is checked by
        ``duel.check_pair``; here only that both are in the hand and different.

        The pair counts as ONE of the turn's seven cards (``spent`` += 1): the discarded card is
        the "eighth card" the action is named for (seed: "each player will have played seven
        cards"; "one of the two cards goes into the discard pile ... and cannot be used in
        determining initiative"), so seven cards still make the priority hand."""
        if keep == discard:
            raise CardError("a pair needs two different cards")
        if keep not in self.hand or discard not in self.hand:
            missing = keep if keep not in self.hand else discard
            raise CardError(f"{missing} is not in the hand")
        self._take(keep)
        self._take(discard)
        self.played.append(keep)
        self.discard.append(discard)
        self.spent += 1
        self.pairs_played += 1

    def lay_down(self, c: Card) -> None:
        """A card spent without a test (running out of actions, option ``lay_down``):
        it counts for priority like a played card."""
        self.play(c)

    def forfeit(self, c: Card) -> None:
        """A card spent without a test (option ``forfeit``): straight to the discard, it does
        not count for priority."""
        self._take(c)
        self.discard.append(c)
        self.spent += 1

    # --- end of turn ---------------------------------------------------------------------
    def end_turn(self, keep_last: bool, hand_size: int, rng: GameRng | None = None) -> list[Card]:
        """Played cards go to the discard. If ``keep_last`` the card(s) still in hand stay and
        the hand is refilled to ``hand_size``; otherwise they are ditched too and a full hand is
        drawn. Returns the cards drawn. Resets the turn's counters."""
        self.discard.extend(self.played)
        self.played = []
        if not keep_last:
            self.discard.extend(self.hand)
            self.hand = []
        need = hand_size - len(self.hand)
        if need < 0:
            raise CardError(f"{len(self.hand)} cards kept, more than a hand of {hand_size}")
        drawn = self.draw(need, rng)
        self.spent = 0
        self.pairs_played = 0
        return drawn

    # --- state -------------------------------------------------------------------------
    def to_data(self) -> dict:
        """Plain, JSON-ready state (card codes)."""
        return {
            "deck": [c.code for c in self.deck], "hand": [c.code for c in self.hand],
            "played": [c.code for c in self.played], "discard": [c.code for c in self.discard],
            "spent": self.spent, "pairs_played": self.pairs_played, "reshuffles": self.reshuffles,
        }

    @classmethod
    def from_data(cls, d: dict) -> PlayerCards:
        return cls(cards(d["deck"]), cards(d["hand"]), cards(d["played"]), cards(d["discard"]),
                   d.get("spent", 0), d.get("pairs_played", 0), d.get("reshuffles", 0))

    def public_view(self) -> dict:
        """What the opponent may know: pile sizes and the face-up piles, never the hand or deck."""
        return {"deck": len(self.deck), "hand": len(self.hand),
                "played": [c.code for c in self.played], "discard": [c.code for c in self.discard],
                "spent": self.spent}

    def copy(self) -> PlayerCards:
        return PlayerCards(self.deck, self.hand, self.played, self.discard,
                           self.spent, self.pairs_played, self.reshuffles)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayerCards) and self.to_data() == other.to_data()

    def __repr__(self) -> str:
        return (f"PlayerCards(deck={len(self.deck)}, hand=[{' '.join(map(str, self.hand))}], "
                f"played=[{' '.join(map(str, self.played))}], discard={len(self.discard)})")
