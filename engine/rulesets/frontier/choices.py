"""Last Hope Frontier's choices: the answers a player gives at the state machine's decisions
(``rules.py`` offers them; ``tag`` names each in saved games)."""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import Choice


@dataclass(frozen=True)
class Hold(Choice):
    """Movement phase: the model takes its move action without moving."""
    tag = "frontier.Hold"
    model: str


@dataclass(frozen=True)
class Shoot(Choice):
    """Main phase: ``model`` shoots ``target`` with the item ``weapon`` (a firearm, or a hunting
    knife thrown). ``friend``: when the target is in base contact with one of the shooter's own
    models, the one that takes the penalty if the shot fails ("" otherwise)."""
    tag = "frontier.Shoot"
    model: str
    target: str
    weapon: str
    friend: str = ""


@dataclass(frozen=True)
class Fight(Choice):
    """Main phase: a combat action against an enemy in base contact, with a base-contact
    weapon (item id) or bare hands ("")."""
    tag = "frontier.Fight"
    model: str
    target: str
    weapon: str = ""


@dataclass(frozen=True)
class Drink(Choice):
    """Free action at any of its player's decisions: the model drinks ``item`` (whiskey, hooch)."""
    tag = "frontier.Drink"
    model: str
    item: str


@dataclass(frozen=True)
class Pass(Choice):
    """Main phase: the player takes no more activations this turn (only when none of its
    models can shoot or fight)."""
    tag = "frontier.Pass"


@dataclass(frozen=True)
class Commit(Choice):
    """An opposed test: the card committed in secret (its code), or a leader's eighth-card
    pair as (kept, discarded)."""
    tag = "frontier.Commit"
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Steal(Choice):
    """Slippery Paws: the item the Bootlegger leader takes."""
    tag = "frontier.Steal"
    item: str


@dataclass(frozen=True)
class LayDown(Choice):
    """Shortfall: a card spent without a test (laid face up, or forfeited, by option)."""
    tag = "frontier.LayDown"
    card: str


@dataclass(frozen=True)
class KeepLast(Choice):
    """End of turn: keep the last card and draw up to eight, or ditch it and draw eight."""
    tag = "frontier.KeepLast"
    keep: bool
