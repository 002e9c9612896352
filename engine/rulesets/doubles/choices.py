"""Doubles: the choices a player answers with, and the error for a choice not offered.

Every decision of a game is answered with one of these frozen choices: the actions of an
activation (``Shoot`` at a model, ``ShootAt`` a point of ground, ``PickUp``, ``TakeRelic``, ``MeleeAttack``,
``StandUp``, ``EndActivation``; a move is the common ``MoveTo``), and the answers during an
attack (``Announce`` of AP dice, ``PickTarget`` among tied melee results, ``KeepDice``,
``ChooseEffect``, ``RerollDie`` for a manoeuvre, ``DiscardDie``, ``Face`` after a back shot).
Their tags are what saves and replays record. ``RulesError`` is what ``apply`` raises for
anything ``pending`` did not offer.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import Choice


@dataclass(frozen=True)
class Shoot(Choice):
    """``shooter`` throws ``weapon`` (a weapon id it holds; None: a stone picked up) at the model
    ``target``; ``aimed`` (1 AP more) picks that target inside a melee."""
    tag = "doubles.Shoot"
    shooter: str
    target: str
    aimed: bool = False
    weapon: str | None = None


@dataclass(frozen=True)
class ShootAt(Choice):
    """``shooter`` throws ``weapon`` (None: a stone picked up) at the point (x, y) of empty ground,
    in table millimetres: the shot is spent and the projectile lands there, hitting nothing."""
    tag = "doubles.ShootAt"
    shooter: str
    x: float
    y: float
    weapon: str | None = None


@dataclass(frozen=True)
class PickUp(Choice):
    """(option ``thrown_weapon="dropped"``) ``fighter`` picks up ``weapon`` lying at (x, y)."""
    tag = "doubles.PickUp"
    fighter: str
    weapon: str
    x: float
    y: float


@dataclass(frozen=True)
class TakeRelic(Choice):
    """(mission Relic Hunt) ``fighter`` picks up the relic ``relic`` (a marker id) lying within reach."""
    tag = "doubles.TakeRelic"
    fighter: str
    relic: str


@dataclass(frozen=True)
class MeleeAttack(Choice):
    tag = "doubles.MeleeAttack"
    attacker: str
    target: str


@dataclass(frozen=True)
class StandUp(Choice):
    tag = "doubles.StandUp"
    fighter: str


@dataclass(frozen=True)
class EndActivation(Choice):
    tag = "doubles.EndActivation"
    fighter: str


@dataclass(frozen=True)
class Announce(Choice):
    """AP spent on extra duel dice, announced before the roll; the attacker also says how it
    uses a back shot ("advantage" or "penalty") when one is allowed."""
    tag = "doubles.Announce"
    fighter: str
    ap: int
    back: str | None = None


@dataclass(frozen=True)
class PickTarget(Choice):
    """(option ``melee_target_tie="shooter_chooses"``) the shooter picks among the tied."""
    tag = "doubles.PickTarget"
    fighter: str


@dataclass(frozen=True)
class KeepDice(Choice):
    tag = "doubles.KeepDice"
    fighter: str
    values: tuple[int, ...]
    penalty_values: tuple[int, ...] = ()


@dataclass(frozen=True)
class ChooseEffect(Choice):
    tag = "doubles.ChooseEffect"
    fighter: str
    effect: str


@dataclass(frozen=True)
class RerollDie(Choice):
    """Manoeuvre: the opponent's die ``die`` (an id in the duel) is rerolled."""
    tag = "doubles.RerollDie"
    fighter: str
    die: int


@dataclass(frozen=True)
class DiscardDie(Choice):
    """(option ``penalty_rule="opponent_discards"``) set one of the opponent's dice aside."""
    tag = "doubles.DiscardDie"
    fighter: str
    die: int


@dataclass(frozen=True)
class Face(Choice):
    """After a back shot hit, the target may turn to face the shooter."""
    tag = "doubles.Face"
    fighter: str
    turn: bool


class RulesError(ValueError):
    """apply() was given something pending() did not offer (Game.submit never lets it through)."""
