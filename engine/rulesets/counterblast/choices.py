"""The answers a Counterblast player gives: frozen, JSON-friendly ``Choice`` dataclasses.

Model ids are the state's ids (``"1-captain"``, ``"2-drone-3"``); weapons, gear and enigmas are
armoury ids; headings are degrees (0 = +x, counter-clockwise, 0 <= heading < 360; any value, from
a point on the table, or one of the eight compass shortcuts). Moves use the shared
``engine.rulesets.common.MoveTo``.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import Choice
from engine.rulesets.common import MoveTo


@dataclass(frozen=True)
class KeepLeader(Choice):
    tag = "counterblast.KeepLeader"


@dataclass(frozen=True)
class ElectLeader(Choice):
    tag = "counterblast.ElectLeader"
    model: str


@dataclass(frozen=True)
class ActivateSingle(Choice):
    tag = "counterblast.ActivateSingle"
    model: str


@dataclass(frozen=True)
class ActivateGroup(Choice):
    """One hero (first) and up to two lackeys."""
    tag = "counterblast.ActivateGroup"
    models: tuple


@dataclass(frozen=True)
class PassTurn(Choice):
    tag = "counterblast.PassTurn"


@dataclass(frozen=True)
class EndActivation(Choice):
    tag = "counterblast.EndActivation"


@dataclass(frozen=True)
class GroupAction(Choice):
    """A group chooses the action its models use next (each may instead use the matching team
    action or Do Nothing)."""
    tag = "counterblast.GroupAction"
    action: str


@dataclass(frozen=True)
class MoveProne(MoveTo):
    """A move that ends Prone: 'A model may choose to become Prone at any point during a move
    action'. Chosen with the point (the client's P toggle), not asked after every move."""
    tag = "counterblast.MoveProne"


@dataclass(frozen=True)
class GoProne(Choice):
    """A Move action spent dropping Prone where the model stands."""
    tag = "counterblast.GoProne"
    model: str


@dataclass(frozen=True)
class StandUp(Choice):
    """A Prone model's Move action spent standing up."""
    tag = "counterblast.StandUp"
    model: str


@dataclass(frozen=True)
class MoveD5(Choice):
    """A Half-blind model's Move: roll a d5, then move that far."""
    tag = "counterblast.MoveD5"
    model: str


@dataclass(frozen=True)
class SplitStrike(Choice):
    """Strike two or more targets with one action, dividing the Grit dice (``dice`` parallel to ``targets``)."""
    tag = "counterblast.SplitStrike"
    model: str
    weapon: str
    targets: tuple
    dice: tuple[int, ...]   # whole dice per target (Choice.field_problems refuses any other type)


@dataclass(frozen=True)
class Rush(Choice):
    tag = "counterblast.Rush"
    model: str


@dataclass(frozen=True)
class Jump(Choice):
    """Jump toward ``heading`` (degrees), then roll the d5."""
    tag = "counterblast.Jump"
    model: str
    heading: float


@dataclass(frozen=True)
class Stay(Choice):
    """End a rolled move (Rush, Action-roll) where the model stands."""
    tag = "counterblast.Stay"
    model: str


@dataclass(frozen=True)
class Aim(Choice):
    tag = "counterblast.Aim"
    model: str


@dataclass(frozen=True)
class Shoot(Choice):
    tag = "counterblast.Shoot"
    model: str
    weapon: str
    target: str


@dataclass(frozen=True)
class SplitShoot(Choice):
    """Shoot two or more targets with one action, dividing the Zap dice (``dice`` parallel to ``targets``)."""
    tag = "counterblast.SplitShoot"
    model: str
    weapon: str
    targets: tuple
    dice: tuple[int, ...]   # whole dice per target (Choice.field_problems refuses any other type)


@dataclass(frozen=True)
class Strike(Choice):
    tag = "counterblast.Strike"
    model: str
    weapon: str
    target: str


@dataclass(frozen=True)
class Throw(Choice):
    """Throw ``target``: the Grit check first; on a success the thrower then chooses the
    direction (``ThrowDirection``), knowing the distance."""
    tag = "counterblast.Throw"
    model: str
    target: str


@dataclass(frozen=True)
class ThrowDirection(Choice):
    """After a successful Throw: ``model`` sends ``target`` toward ``heading`` (degrees)."""
    tag = "counterblast.ThrowDirection"
    model: str
    target: str
    heading: float


@dataclass(frozen=True)
class PsiStrike(Choice):
    tag = "counterblast.PsiStrike"
    model: str
    enigma: str
    target: str


@dataclass(frozen=True)
class PsiCraft(Choice):
    tag = "counterblast.PsiCraft"
    model: str
    enigma: str
    target: str


@dataclass(frozen=True)
class Treat(Choice):
    """Stabilise (or, with a medkit, heal) a model within 1"."""
    tag = "counterblast.Treat"
    model: str
    target: str


@dataclass(frozen=True)
class Engineer(Choice):
    """Stabilise (or, with tools, repair) a model within 1"."""
    tag = "counterblast.Engineer"
    model: str
    target: str


@dataclass(frozen=True)
class HackMark(Choice):
    """Hack with a scanner: Mark an enemy model in sight within 12"."""
    tag = "counterblast.HackMark"
    model: str
    target: str


@dataclass(frozen=True)
class HackTerminal(Choice):
    """Hack an objective marker within range (Data Heist)."""
    tag = "counterblast.HackTerminal"
    model: str
    marker: str


@dataclass(frozen=True)
class HackDoor(Choice):
    """Hack a secure door within reach open (the map piece ``door``)."""
    tag = "counterblast.HackDoor"
    model: str
    door: str


@dataclass(frozen=True)
class Recover(Choice):
    tag = "counterblast.Recover"
    model: str


@dataclass(frozen=True)
class Rally(Choice):
    tag = "counterblast.Rally"
    model: str


@dataclass(frozen=True)
class AimAssist(Choice):
    tag = "counterblast.AimAssist"
    model: str
    friend: str


@dataclass(frozen=True)
class Boost(Choice):
    tag = "counterblast.Boost"
    model: str
    friend: str


@dataclass(frozen=True)
class DogPile(Choice):
    tag = "counterblast.DogPile"
    model: str
    target: str


@dataclass(frozen=True)
class DoNothing(Choice):
    tag = "counterblast.DoNothing"
    model: str


@dataclass(frozen=True)
class React(Choice):
    """A reaction by a reactive model: ``reaction`` is an action id (return_fire, action_roll,
    counterstrike, parry, snapshot, pursuit, disperse); ``weapon`` where one is used."""
    tag = "counterblast.React"
    model: str
    reaction: str
    weapon: str = ""


@dataclass(frozen=True)
class NoReaction(Choice):
    tag = "counterblast.NoReaction"


@dataclass(frozen=True)
class ReduceDread(Choice):
    tag = "counterblast.ReduceDread"
    moxie: int
