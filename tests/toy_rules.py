"""A tiny ruleset that exists only to exercise the decision protocol in tests.

"Toy duel": a shared deck of cards 1-9 is shuffled (chance); each player holds three cards
(a hidden hand). Each round the active player moves a marker to any point within 6" of where
it is (a continuous choice); then both players secretly commit a card (a simultaneous secret
choice: player 1 commits first, player 2 cannot see it until both are revealed). The higher
card wins the round and its owner rolls a d6, scoring on 4+; the other player may then spend a
reaction token to make that die be rolled again (a reaction by the non-active player).
Three rounds; the higher score wins, equal scores draw.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.core import Choice, ChoiceSpace, Decision, Event, Result, Rules, State
from engine.core.rng import GameRng

MOVE_MM = 6 * 25.4


@dataclass(frozen=True)
class MoveMarker(Choice):
    tag = "toy.MoveMarker"
    x: float
    y: float


@dataclass(frozen=True)
class PlayCard(Choice):
    tag = "toy.PlayCard"
    card: int


@dataclass(frozen=True)
class React(Choice):
    tag = "toy.React"
    reroll: bool


@dataclass
class ToyState(State):
    deck: list = field(default_factory=list)
    hands: dict = field(default_factory=dict)
    committed: dict = field(default_factory=dict)
    tokens: dict = field(default_factory=lambda: {1: 1, 2: 1})
    score: dict = field(default_factory=lambda: {1: 0, 2: 0})
    phase: str = "move"
    marker: tuple = (0.0, 0.0)
    roller: int = 0
    roll: int = 0
    rounds: int = 3


class MarkerSpace(ChoiceSpace):
    choice_type = MoveMarker
    label = 'a point within 6" of the marker'

    def __init__(self, table, start):
        self.table, self.start = table, start

    def check(self, c: MoveMarker) -> str | None:
        if not (0 <= c.x <= self.table.width and 0 <= c.y <= self.table.height):
            return "off the table"
        if math.dist(self.start, (c.x, c.y)) > MOVE_MM + 1e-9:
            return 'more than 6" from the marker'
        return None

    def sample(self, rng):
        for _ in range(50):
            a, r = rng.uniform(0, 2 * math.pi), MOVE_MM * math.sqrt(rng.random())
            c = MoveMarker(round(self.start[0] + r * math.cos(a), 3), round(self.start[1] + r * math.sin(a), 3))
            if self.check(c) is None:
                return c
        return None


class ToyRules(Rules):
    id = "toy"
    name = "Toy duel"

    def initial_state(self, seed: int) -> ToyState:
        st = ToyState(rng=GameRng(seed))
        st.deck = list(range(1, 10))
        st.rng.shuffle(st.deck)
        st.hands = {1: [st.deck.pop() for _ in range(3)], 2: [st.deck.pop() for _ in range(3)]}
        st.marker = (self.table.width / 2, self.table.height / 2)
        return st

    def pending(self, st: ToyState):
        if st.turn > st.rounds:
            return None
        if st.phase == "move":
            return Decision(st.active, "move marker", "Move the marker", spaces=(MarkerSpace(self.table, st.marker),))
        if st.phase == "commit":
            p = 1 if 1 not in st.committed else 2
            return Decision(p, "choose card", "Choose a card in secret",
                            options=tuple(PlayCard(c) for c in sorted(st.hands[p])))
        if st.phase == "react":
            other = 3 - st.roller
            opts = (React(False), React(True)) if st.tokens[other] else (React(False),)
            return Decision(other, "react", f"Player {st.roller} rolled {st.roll}: reroll it?", options=opts)
        raise AssertionError(st.phase)

    def apply(self, st: ToyState, player: int, c: Choice) -> list[Event]:
        ev: list[Event] = []
        if isinstance(c, MoveMarker):
            st.marker = (c.x, c.y)
            ev.append(Event(f"Player {player} moves the marker", "move"))
            st.phase = "commit"
        elif isinstance(c, PlayCard):
            st.hands[player].remove(c.card)
            st.committed[player] = c.card
            ev.append(Event(f"Player {player} commits a card", "commit"))
            ev.append(Event(f"You commit the {c.card}", "commit", visible_to=frozenset({player})))
            if len(st.committed) == 2:
                a, b = st.committed[1], st.committed[2]
                ev.append(Event(f"Revealed: player 1 played {a}, player 2 played {b}", "reveal", {"cards": [a, b]}))
                for p in (1, 2):
                    if st.deck:
                        st.hands[p].append(st.deck.pop())
                st.committed = {}
                st.roller = 1 if a > b else 2
                st.roll = st.rng.d(6)
                ev.append(Event(f"Player {st.roller} rolls {st.roll}", "dice", {"dice": [st.roll]}))
                st.phase = "react"
        elif isinstance(c, React):
            if c.reroll:
                st.tokens[player] -= 1
                st.roll = st.rng.d(6)
                ev.append(Event(f"Player {player} reacts: the die is rolled again: {st.roll}", "dice", {"dice": [st.roll]}))
            if st.roll >= 4:
                st.score[st.roller] += 1
                ev.append(Event(f"Player {st.roller} scores", "score"))
            st.turn += 1
            st.active = 3 - st.active
            st.phase = "move"
        return ev

    def view(self, st: ToyState, player, drawing=True):
        return {
            "turn": st.turn, "phase": st.phase, "marker": st.marker, "score": dict(st.score),
            "tokens": dict(st.tokens),
            "hand": sorted(st.hands[player]) if player else None,
            "hand_sizes": {p: len(h) for p, h in st.hands.items()},
            "committed": {p: (c if p == player else "hidden") for p, c in st.committed.items()},
            "deck_size": len(st.deck),
        }

    def result(self, st: ToyState):
        if st.turn <= st.rounds:
            return None
        a, b = st.score[1], st.score[2]
        return Result(None if a == b else (1 if a > b else 2), "most points after three rounds", dict(st.score))

    def describe_choice(self, st, c):
        if isinstance(c, PlayCard):
            return f"play the {c.card}"
        if isinstance(c, React):
            return "reroll the die" if c.reroll else "let it stand"
        if isinstance(c, MoveMarker):
            d = math.dist(st.marker, (c.x, c.y)) / 25.4
            return f'move the marker {d:.1f}"'
        return c.describe()
