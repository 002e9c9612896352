"""Last Hope Frontier's game state: each player's 54 cards in their piles, the models, the test
being resolved; the sizes the state machine measures with; and ``card_places``, the check that
every card is in exactly one pile (for the tests)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.core import State
from engine.core.state import optional_field
from engine.table import Base

from .cards import _FULL_SET, DECK_SIZE, Card, PlayerCards

INCH = 25.4
MODEL_HEIGHT_MM = 40.0   # a 28 mm figure standing on its base, for sight
CONTACT_MM = 1.0         # bases whose edges are this close are in base contact
CHARGE_GAP_MM = 0.1      # a "move into contact" stops this far from the enemy's base edge


@dataclass
class Piles:
    """One player's 54 cards. ``committed`` holds cards chosen in secret for the current test:
    they have left the hand but are not yet revealed."""
    deck: list = field(default_factory=list)
    hand: list = field(default_factory=list)
    committed: list = field(default_factory=list)
    played: list = field(default_factory=list)
    discard: list = field(default_factory=list)
    spent: int = 0
    pairs_played: int = 0
    reshuffles: int = 0

    def cards(self) -> PlayerCards:
        """The phase-1 piles (committed cards counted in the hand); checks all 54."""
        return PlayerCards(self.deck, self.hand + self.committed, self.played, self.discard,
                           self.spent, self.pairs_played, self.reshuffles)

    def store(self, pc: PlayerCards) -> None:
        held = set(self.committed)
        self.deck, self.played, self.discard = list(pc.deck), list(pc.played), list(pc.discard)
        self.hand = [c for c in pc.hand if c not in held]
        self.committed = [c for c in self.committed if c in pc.hand]
        self.spent, self.pairs_played, self.reshuffles = pc.spent, pc.pairs_played, pc.reshuffles

    def __deepcopy__(self, memo) -> Piles:
        # cards are immutable: copying the lists is a deep copy (and clones stay cheap)
        return Piles(list(self.deck), list(self.hand), list(self.committed), list(self.played),
                     list(self.discard), self.spent, self.pairs_played, self.reshuffles)

    def places(self) -> dict[str, list]:
        return {"deck": self.deck, "hand": self.hand, "committed": self.committed,
                "played": self.played, "discard": self.discard}


@dataclass
class Model:
    id: str
    player: int
    profile: str
    name: str
    x: float
    y: float
    z: float
    radius: float
    wounds: int
    max_wounds: int
    items: list = field(default_factory=list)
    moved: bool = False          # has taken its movement-phase move this turn
    second_move: bool = False    # has used its one second move this main phase

    def __deepcopy__(self, memo) -> Model:
        return replace(self, items=list(self.items))

    @property
    def standing(self) -> bool:
        return self.wounds > 0

    def base(self) -> Base:
        return Base(self.id, self.x, self.y, self.radius, MODEL_HEIGHT_MM, 0.0, self.z)


@dataclass
class Test:
    kind: str          # "shot" | "combat"
    attacker: str
    defender: str
    weapon: str        # item id ("" bare hands)
    friend: str = ""


@dataclass
class FrontierState(State):
    cards: dict = field(default_factory=dict)      # player -> Piles
    models: dict = field(default_factory=dict)     # model id -> Model
    phase: str = "move"   # deploy | move | main | attack_card | defend_card | steal | shortfall | keep | over
    priority: int = 1
    passed: dict = field(default_factory=lambda: {1: False, 2: False})
    test: Test | None = None
    steal: dict | None = None                      # {"player", "thief", "victim"}
    next_priority: int = 0
    keep: dict = field(default_factory=dict)
    first_draw: list = field(default_factory=list)
    result: dict | None = None
    deploy: dict | None = None    # the deployment while it lasts (engine/rulesets/deployment/flow.py)
    # a mission's own state (missions.py; None in the fight, and then out of the state hash)
    mission: dict | None = optional_field()


# --- invariants (tests and debugging) ------------------------------------------------------------

def card_places(st: FrontierState, p: int) -> dict[Card, str]:
    """Where each of player ``p``'s cards is; raises AssertionError unless all 54 are in exactly
    one place (deck, hand, committed, played, discard)."""
    seen: dict[Card, str] = {}
    for where, pile in st.cards[p].places().items():
        for c in pile:
            if c in seen:
                raise AssertionError(f"player {p}: {c} is both in {seen[c]} and {where}")
            seen[c] = where
    if len(seen) != DECK_SIZE or seen.keys() != _FULL_SET:
        missing = sorted(c.code for c in _FULL_SET - seen.keys())
        raise AssertionError(f"player {p}: {len(seen)} cards tracked, missing {missing}")
    return seen
