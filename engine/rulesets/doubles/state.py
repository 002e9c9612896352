"""Doubles: the game state, plain data that clones copy cheaply and the state hash reads.

``DoublesState`` holds one ``FighterState`` per fighter (position, facing, health, AP, on the
ground, weapons left, its ``turn.TurnStatus`` and the path it moved this turn), the initiative
track, whose activation it is, the ``Attack`` in progress (its stage, the shot's range band and
sight word, the AP announced and the ``duel.Duel`` while the dice are out), the thrown weapons
lying on the table, and the game's RNG. The models' bases (interpretation 28: 25 mm round, 32 mm
tall) are fixed here too.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from engine.core import State
from engine.core.state import optional_field

from . import turn as tn

BASE_RADIUS_MM = 12.5      # 25 mm round bases
MODEL_HEIGHT_MM = 32.0


@dataclass
class FighterState:
    key: str                  # "<side>.<fighter id>": unique in the game, the base id
    side: int
    warband: str
    fid: str
    name: str
    x: float
    y: float
    facing: float
    health: int
    z: float = 0.0
    ap: int = 0
    on_ground: bool = False
    out: bool = False
    weapons: list = field(default_factory=list)     # ids of the weapons not broken
    armour_lost: int = 0                            # option armour_damage_permanent
    status: tn.TurnStatus = field(default_factory=tn.TurnStatus)
    ammo_blocked: bool = False                      # failed its low-ammunition test this turn
    activated: bool = False
    path: list = field(default_factory=list)        # (x, y) points moved through since the turn began


@dataclass
class Attack:
    kind: str                 # "shoot" | "melee"
    attacker: str
    target: str               # the model the attack was declared at
    stage: str                # "pick" | "announce_attack" | "announce_defence" | "duel" | "face"
    defender: str | None = None
    aimed: bool = False
    band: str = ""
    sight: str = "visible"
    moved_before: bool = False
    weapon: str | None = None  # None: an improvised stone or bare hands
    weapon_bonus: int = 0
    back_allowed: bool = False
    back: str | None = None
    attack_ap: int = 0
    defence_ap: int = 0
    tied: tuple = ()
    duel: Any = None          # duel.Duel while the dice are out


def _copied(obj, **changes):
    """``dataclasses.replace(obj, **changes)`` for these plain dataclasses (no ``__post_init__``,
    no init-only fields) at a fifth of its cost: the same fields, the ones named replaced. A search
    copies every fighter at every roll-out."""
    c = object.__new__(type(obj))
    c.__dict__.update(obj.__dict__)
    c.__dict__.update(changes)
    return c


@dataclass
class DoublesState(State):
    fighters: dict = field(default_factory=dict)
    track: tuple = ()         # turn.TrackEntry, top first
    acting: str | None = None
    attack: Attack | None = None
    finished: bool = False
    winner: int | None = None
    reason: str = ""
    points: tuple = (0, 0)
    dropped: list = field(default_factory=list)   # (side, weapon id, x, y): thrown weapons lying on the table
    deploy: dict | None = None    # the deployment while it lasts (engine/rulesets/deployment/flow.py)
    # a mission's own state (missions.py; None in the fight, and then out of the state hash)
    mission: dict | None = optional_field()

    def __deepcopy__(self, memo):
        """Clones copy what can change: the RNG, each fighter (with its lists) and the attack;
        frozen values (TurnStatus, TrackEntry, Duel) are shared, being immutable."""
        c = copy.copy(self)
        c.rng = copy.deepcopy(self.rng, memo)
        c.fighters = {k: _copied(f, weapons=list(f.weapons), path=list(f.path)) for k, f in self.fighters.items()}
        c.attack = _copied(self.attack) if self.attack is not None else None
        c.dropped = list(self.dropped)
        if self.deploy is not None:
            c.deploy = copy.deepcopy(self.deploy, memo)
        if self.mission is not None:
            c.mission = copy.deepcopy(self.mission, memo)
        return c
