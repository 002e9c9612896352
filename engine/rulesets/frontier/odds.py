"""Exact odds of a Frontier shot or combat action from one player's point of view.

A test pits two secret cards against each other, so its odds depend on what the asking player
may know. The model (docs/rules/frontier.md, Interpretations, "Attack odds"; a client and AI
aid, not a rule):

- A card the player holds is its own choice: for the attacker, the odds are given for each
  card (or leader's pair) it could commit (``variants``), the headline being the best of them
  (most wounds expected, then the likeliest hit).
- A card the player cannot see is drawn uniformly from the cards of its owner that the player
  cannot see: that owner's 54 less the cards lying face up in its ``played`` pile (the view
  shows nothing else of them; the discard is counted as unseen because part of it never was
  shown: forfeits, a ditched hand). The opponent's hand and the deck order are never read.
  An owner with no card in hand (a public count) plays no card.
- A defender who is the asking player plays a card of its hand, uniformly (an average defence).
- The defender plays one card, never an eighth-card pair (only a leader may, and it is rare).

Every combination is resolved by ``duel.resolve_shot`` / ``duel.resolve_combat`` themselves,
so the numbers are exact under the model. Cards that play alike (same rank; favoured by the
player's faction or not; a lone joker is the favoured ace) are counted together.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from . import duel
from .cards import SUITS, Card, full_deck
from .duel import FAVOURED_SUIT, DuelRules, Fighter, Play, Weapon

FULL_DECK = tuple(full_deck())


def card_class(c: Card, faction: str) -> tuple[int, bool]:
    """What a single card does in a test for ``faction``: (rank, favoured); a joker is the
    favoured ace."""
    if c.is_joker:
        return 14, True
    return c.rank, duel.favoured(c, faction)


def representative(cls: tuple[int, bool], faction: str) -> Card:
    """A card of the class: the rank in the favoured suit, or in another suit."""
    rank, fav = cls
    suit = FAVOURED_SUIT[faction]
    return Card(rank, suit if fav else next(x for x in SUITS if x != suit))


def class_counts(cards, faction: str) -> tuple[tuple[tuple[int, bool], int], ...]:
    out: dict = {}
    for c in cards:
        k = card_class(c, faction)
        out[k] = out.get(k, 0) + 1
    return tuple(sorted(out.items()))


@dataclass(frozen=True)
class CardOdds:
    hit: Fraction                    # the test passes (the damage step is reached)
    wounds: dict                     # wounds dealt -> P (0 included)
    out: Fraction                    # the defender ends out of action
    friend: Fraction                 # a shot into combat fails: the friend takes unsoakable damage

    def at_least(self, k: int) -> Fraction:
        return sum((p for w, p in self.wounds.items() if w >= k), Fraction(0))

    def expected_wounds(self) -> Fraction:
        return sum((w * p for w, p in self.wounds.items()), Fraction(0))


def _weighted(classes: tuple, faction: str) -> list:
    total = sum(n for _, n in classes)
    if not total:
        return [(Play(), Fraction(1))]
    return [(Play.of(representative(k, faction)), Fraction(n, total)) for k, n in classes]


def _resolve(kind, attacker, defender, a_play, d_play, weapon, covered, into_combat, rules):
    if kind == "combat":
        return duel.resolve_combat(attacker, defender, a_play, d_play, weapon, rules)
    return duel.resolve_shot(attacker, defender, a_play, d_play, weapon, covered, into_combat, rules)


@lru_cache(maxsize=4096)
def card_test_odds(kind: str, attacker: Fighter, defender: Fighter, a_play: Play | tuple, d_classes: tuple,
              weapon: Weapon, covered: float = 0.0, into_combat: bool = False,
              rules: DuelRules = duel.DEFAULT_RULES) -> CardOdds:
    """Odds of one test. ``a_play``: the attacker's known ``Play``, or ``class_counts`` of the
    cards it may hold (by the attacker's faction) when its card is unknown. ``d_classes``:
    ``class_counts`` of the cards the defender may hold, by its faction. An empty tuple of
    counts means no card."""
    a_plays = [(a_play, Fraction(1))] if isinstance(a_play, Play) else _weighted(a_play, attacker.faction)
    d_plays = _weighted(d_classes, defender.faction)
    hit = out = friend = Fraction(0)
    wounds: dict = {}
    for a_play, pa in a_plays:
        for d_play, pd in d_plays:
            p = pa * pd
            r = _resolve(kind, attacker, defender, a_play, d_play, weapon, covered, into_combat, rules)
            if r.success:
                hit += p
            wounds[r.wounds] = wounds.get(r.wounds, Fraction(0)) + p
            if r.defender_out:
                out += p
            if r.friendly_damage:
                friend += p
    return CardOdds(hit, wounds, out, friend)


def unseen_by(cards_of_owner_played, hand_if_known=None) -> list[Card]:
    """The owner's cards a player cannot see: its own hand if it is the owner (``hand_if_known``),
    else the 54 less the face-up ``played`` pile."""
    if hand_if_known is not None:
        return list(hand_if_known)
    shown = set(cards_of_owner_played)
    return [c for c in FULL_DECK if c not in shown]
