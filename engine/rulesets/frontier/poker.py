"""Next turn's priority: the best five-card poker hand among the cards a player played.

Ranking is standard poker, ascending: high card < one pair < two pair < three of a kind <
straight < flush < full house < four of a kind < straight flush < five of a kind. Five of a
kind needs a joker (a single deck holds four of a rank); it can be switched off with the
option ``five_of_a_kind`` (then four of a kind plus a joker is scored as the best other hand
the joker allows). Aces are high, and also low in the straight A-2-3-4-5. Suits never rank.

At most one joker counts, as any card the owner likes (the evaluator picks the best); a
second joker among the played cards cannot be part of the five. A leader's eighth-card pair
leaves one of its cards in the discard (``PlayerCards.play_pair``): it is not among the played
cards, and ``best_hand(..., excluded=...)`` drops it too when given a full list.

When fewer than five cards count (option ``shortfall = "forfeit"``), the hand is judged on
the cards there are: no straight or flush is possible, and a shorter hand loses to a longer
one that is otherwise equal.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations
from typing import Literal

from .cards import RANKS, SUITS, Card

TieRule = Literal["swap", "keep"]


class Category(IntEnum):
    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def words(self) -> str:
        return self.name.replace("_", " ").lower()


@dataclass(frozen=True)
class HandValue:
    """A judged hand. Compare with ``<``/``==`` through ``key`` (category, then ranks in order
    of importance). ``cards`` are the cards used (the joker itself, if one was used) and
    ``joker_as`` the card the joker stood for."""
    category: Category
    ranks: tuple[int, ...]
    cards: tuple[Card, ...] = ()
    joker_as: Card | None = None

    @property
    def key(self) -> tuple:
        return (int(self.category), self.ranks)

    def __lt__(self, other: HandValue) -> bool:
        return self.key < other.key

    def __le__(self, other: HandValue) -> bool:
        return self.key <= other.key

    def __gt__(self, other: HandValue) -> bool:
        return self.key > other.key

    def __ge__(self, other: HandValue) -> bool:
        return self.key >= other.key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def name(self) -> str:
        """The hand as players say it: "Full house, kings over sevens", "Pair of aces",
        "High card, queen"."""
        r = [RANK_WORDS.get(x, str(x)) for x in self.ranks]
        many = [RANK_PLURAL.get(x, f"{x}s") for x in self.ranks]
        if not self.ranks:
            return "No hand"
        return HAND_WORDS[self.category].format(r=r, many=many)

    def describe(self) -> str:
        used = " ".join(c.code for c in self.cards) or "no cards"
        j = f", joker as {self.joker_as.code}" if self.joker_as else ""
        return f"{self.name()} ({used}{j})"


RANK_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
              11: "jack", 12: "queen", 13: "king", 14: "ace"}
RANK_PLURAL = {2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights", 9: "nines",
               10: "tens", 11: "jacks", 12: "queens", 13: "kings", 14: "aces"}

# How players say each hand: ``r`` the ranks in order of importance ("queen"), ``many`` their
# plurals ("queens"); a hand names only the ranks its category has.
HAND_WORDS = {
    Category.HIGH_CARD: "High card, {r[0]}",
    Category.ONE_PAIR: "Pair of {many[0]}",
    Category.TWO_PAIR: "Two pair, {many[0]} and {many[1]}",
    Category.THREE_OF_A_KIND: "Three {many[0]}",
    Category.STRAIGHT: "Straight, {r[0]} high",
    Category.FLUSH: "Flush, {r[0]} high",
    Category.FULL_HOUSE: "Full house, {many[0]} over {many[1]}",
    Category.FOUR_OF_A_KIND: "Four {many[0]}",
    Category.STRAIGHT_FLUSH: "Straight flush, {r[0]} high",
    Category.FIVE_OF_A_KIND: "Five {many[0]}",
}


NO_HAND = HandValue(Category.HIGH_CARD, ())


def _straight_high(ranks: Sequence[int]) -> int | None:
    """Top rank of a five-card straight, or None. A-2-3-4-5 counts, with 5 high."""
    s = sorted(set(ranks))
    if len(s) != 5 or len(ranks) != 5:
        return None
    if s[-1] - s[0] == 4:
        return s[-1]
    if s == [2, 3, 4, 5, 14]:
        return 5
    return None


def rank_plain(cards: Sequence[Card]) -> tuple[Category, tuple[int, ...]]:
    """Judge up to five jokerless cards exactly as they are."""
    if any(c.is_joker for c in cards):
        raise ValueError("rank_plain takes no jokers; use best_hand")
    if len(cards) > 5:
        raise ValueError("a poker hand has at most five cards")
    ranks = [c.rank for c in cards]
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # groups ordered by size then rank: e.g. full house 3-3-3-9-9 -> [(3,3),(2,9)]
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    by_group = tuple(r for _, r in groups)
    shape = [n for n, _ in groups]
    if len(cards) == 5:
        flush = len({c.suit for c in cards}) == 1
        high = _straight_high(ranks)
        if shape[0] == 5:
            return Category.FIVE_OF_A_KIND, by_group
        if flush and high:
            return Category.STRAIGHT_FLUSH, (high,)
        if shape[0] == 4:
            return Category.FOUR_OF_A_KIND, by_group
        if shape[:2] == [3, 2]:
            return Category.FULL_HOUSE, by_group
        if flush:
            return Category.FLUSH, tuple(sorted(ranks, reverse=True))
        if high:
            return Category.STRAIGHT, (high,)
    if not shape:
        return Category.HIGH_CARD, ()
    if shape[0] >= 4:
        return Category.FOUR_OF_A_KIND, by_group
    if shape[0] == 3:
        return (Category.FULL_HOUSE if shape[1:2] == [2] else Category.THREE_OF_A_KIND), by_group
    if shape[:2] == [2, 2]:
        return Category.TWO_PAIR, by_group
    if shape[0] == 2:
        return Category.ONE_PAIR, by_group
    return Category.HIGH_CARD, by_group


def best_hand(played: Iterable[Card], excluded: Iterable[Card] = (), *,
              five_of_a_kind: bool = True) -> HandValue:
    """The best poker hand of at most five cards out of ``played`` minus ``excluded``.

    One joker at most is used (as the best card for the owner); five of a kind only when
    ``five_of_a_kind``. With fewer than five cards counting, all of them form the hand.
    """
    ex = set(excluded)
    pool = [c for c in played if c not in ex]
    size = min(5, len(pool))
    if size == 0:
        return NO_HAND
    best: HandValue | None = None
    for combo in combinations(pool, size):
        jokers = [c for c in combo if c.is_joker]
        if len(jokers) > 1:
            continue  # "only one Joker can be nominated"
        if not jokers:
            cat, ranks = rank_plain(combo)
            cand = HandValue(cat, ranks, tuple(combo))
            if best is None or cand > best:
                best = cand
            continue
        rest = [c for c in combo if not c.is_joker]
        # The joker's suit matters only for a flush: if the rest share one suit, it takes that
        # suit; otherwise no flush is possible and any one suit will do.
        suits = {c.suit for c in rest}
        suit = next(iter(suits)) if len(suits) == 1 else SUITS[0]
        for sub in (Card(r, suit) for r in RANKS):
            cat, ranks = rank_plain(rest + [sub])
            if cat == Category.FIVE_OF_A_KIND and not five_of_a_kind:
                continue
            cand = HandValue(cat, ranks, tuple(combo), sub)
            if best is None or cand > best:
                best = cand
    if best is None:
        # every combination held two jokers: only possible with too few other cards,
        # so judge with one joker left out.
        pool_one_joker = []
        seen_joker = False
        for c in pool:
            if c.is_joker:
                if seen_joker:
                    continue
                seen_joker = True
            pool_one_joker.append(c)
        return best_hand(pool_one_joker, five_of_a_kind=five_of_a_kind)
    return best


def compare_hands(a: HandValue, b: HandValue) -> int:
    """-1 if ``a`` is lower, 0 if equal in rank, 1 if ``a`` is higher."""
    return (a.key > b.key) - (a.key < b.key)


@dataclass(frozen=True)
class PriorityResult:
    """Who has priority next turn (player index 0 or 1), both hands, and whether it was a tie."""
    winner: int
    hands: tuple[HandValue, HandValue]
    tie: bool

    def describe(self) -> str:
        a, b = self.hands
        how = "tie, " if self.tie else ""
        return f"player {self.winner + 1} has priority ({how}{a.describe()} vs {b.describe()})"


def next_priority(played: tuple[Sequence[Card], Sequence[Card]], current: int, *,
                  excluded: tuple[Iterable[Card], Iterable[Card]] = ((), ()),
                  tie: TieRule = "swap", five_of_a_kind: bool = True) -> PriorityResult:
    """Next turn's priority from the two players' played cards. The better hand wins.
    On equal hands (suits never rank): ``tie="swap"`` gives priority to the player who did
    not have it this turn (``current`` is this turn's priority holder); ``"keep"`` leaves it."""
    if current not in (0, 1):
        raise ValueError("current priority must be player 0 or 1")
    ha = best_hand(played[0], excluded[0], five_of_a_kind=five_of_a_kind)
    hb = best_hand(played[1], excluded[1], five_of_a_kind=five_of_a_kind)
    c = compare_hands(ha, hb)
    if c > 0:
        return PriorityResult(0, (ha, hb), False)
    if c < 0:
        return PriorityResult(1, (ha, hb), False)
    return PriorityResult(1 - current if tie == "swap" else current, (ha, hb), True)
