"""The turn's card economy and the end of the game (pure functions).

Every opposed test spends one card from each player. A leader's eighth-card pair takes two
cards from its owner's hand but counts once toward the seven: the second card of the pair is the
eighth card, discarded. A turn ends when each player has spent ``cards_per_turn`` cards (seven) or
has no card left. If the players run out of useful actions first, the missing cards are
spent without a test (option ``shortfall``). Then priority for the next turn is judged
(``poker.next_priority``) and each player keeps or ditches what is left in hand.

The seed names no victory condition; ``victory`` implements ours (see the rules doc).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Shortfall = Literal["lay_down", "forfeit"]
Victory = Literal["rout", "last_standing"]


def must_spend(spent: int, hand_left: int, cards_per_turn: int = 7) -> int:
    """How many more cards this player must spend before the turn can end. ``spent`` counts
    toward the seven (a leader's pair counts once, ``PlayerCards.play_pair``)."""
    return max(0, min(cards_per_turn - spent, hand_left))


def turn_over(spent: Sequence[int], hand_left: Sequence[int], cards_per_turn: int = 7) -> bool:
    """The turn ends once both players have spent their seven (or emptied their hands)."""
    return all(must_spend(s, h, cards_per_turn) == 0 for s, h in zip(spent, hand_left))


def must_defend_with_card(hand_left: int) -> bool:
    """A defender with a card in hand must commit one (even the eighth, once seven are spent);
    with an empty hand the test is made with the bare characteristic (card value 0)."""
    return hand_left > 0


def can_play_pair(is_leader: bool, pairs_played: int, hand_left: int, limit: int = 1) -> bool:
    """A leader may make an eighth-card pair play if the turn's limit is not used up and two
    cards are in hand. (Whether the two make a legal pair is ``duel.check_pair``.)"""
    return is_leader and pairs_played < limit and hand_left >= 2


def can_keep_last(hand_left: int) -> bool:
    """At the end of the turn a player with a card left may keep it (and draw seven) or ditch it
    (and draw eight); with no card left there is nothing to choose."""
    return hand_left > 0


@dataclass(frozen=True)
class SideStatus:
    """One posse at a check: current wounds of each model (0 = out of action)."""
    wounds: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.wounds)

    @property
    def standing(self) -> int:
        return sum(1 for w in self.wounds if w > 0)

    @property
    def out(self) -> int:
        return self.size - self.standing

    @property
    def wounds_left(self) -> int:
        return sum(w for w in self.wounds if w > 0)


@dataclass(frozen=True)
class Verdict:
    over: bool
    winner: int | None          # 0, 1, or None (a draw, or the game goes on)
    reason: str


def rout_threshold(size: int, rout_fraction: float) -> int:
    """How many models out of action rout a posse of ``size``: ``rout_fraction`` of it, rounded
    up, at least one."""
    return max(1, math.ceil(rout_fraction * size - 1e-9))


def routed(side: SideStatus, rout_fraction: float) -> bool:
    """Routed: at least ``rout_fraction`` of the posse (rounded up) is out of action."""
    if side.size == 0:
        return True
    return side.out >= rout_threshold(side.size, rout_fraction)


def _compare(a: SideStatus, b: SideStatus, why: str) -> Verdict:
    for key, label in ((lambda s: s.standing, "models standing"), (lambda s: s.wounds_left, "wounds left")):
        ka, kb = key(a), key(b)
        if ka != kb:
            return Verdict(True, 0 if ka > kb else 1, f"{why}; more {label} ({ka} to {kb})")
    return Verdict(True, None, f"{why}; level on models standing and wounds left: a draw")


def victory(sides: Sequence[SideStatus], turn: int, *, end_of_turn: bool,
            rule: Victory = "rout", rout_fraction: float = 0.5, turn_limit: int | None = 8) -> Verdict:
    """Is the game over? Call after every action (``end_of_turn=False``: only a posse with no
    model standing ends the game at once) and at the end of each turn (``end_of_turn=True``:
    rout and the turn limit are checked). ``turn`` counts from 1.

    - A posse with no model standing loses at once (both at once: compare, usually a draw).
    - ``rule="rout"``: at the end of a turn a routed posse loses; both routed -> compare.
    - ``turn_limit``: after that turn ends, compare models standing, then wounds left.
    """
    a, b = sides
    if a.standing == 0 or b.standing == 0:
        if a.standing == 0 and b.standing == 0:
            return Verdict(True, None, "both posses are out of action: a draw")
        return Verdict(True, 1 if a.standing == 0 else 0,
                       f"player {1 if a.standing == 0 else 2}'s posse is wiped out")
    if not end_of_turn:
        return Verdict(False, None, "the game goes on")
    if rule == "rout":
        ra, rb = routed(a, rout_fraction), routed(b, rout_fraction)
        if ra and rb:
            return _compare(a, b, "both posses are routed")
        if ra or rb:
            return Verdict(True, 1 if ra else 0, f"player {1 if ra else 2}'s posse is routed")
    if turn_limit is not None and turn >= turn_limit:
        return _compare(a, b, f"turn {turn_limit} is over")
    return Verdict(False, None, "the game goes on")
