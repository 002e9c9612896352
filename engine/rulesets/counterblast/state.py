"""Counterblast's game state: plain data that clones copy cheaply and the state hash reads.

``CBState`` holds each ``Model`` (where it stands, its damage tokens, Down / Stable / casualty and
its conditions), the crews' Moxie, Dread and leaders, the phase with the players still to answer
in it, the ``Activation`` in progress (its members, free actions left, the help given for the
next check), a paused action's window (waiting for a reaction or a move), the turn's casualties,
the hacks and the doors Hacked open, the deployment while it lasts and the final scores.
``CounterblastRules`` (``rules.py`` and ``flow/``) reads and changes it.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from engine.core import State


@dataclass
class Model:
    id: str
    player: int
    entry: str
    x: float
    y: float
    z: float = 0.0
    tokens: int = 0
    down: bool = False
    stable: bool = False
    casualty: bool = False
    conditions: list = field(default_factory=list)   # sorted condition names (not down/stable)

    def has(self, c: str) -> bool:
        return c in self.conditions

    def gain(self, c: str) -> None:
        if c not in self.conditions:
            self.conditions.append(c)
            self.conditions.sort()

    def lose(self, c: str) -> None:
        if c in self.conditions:
            self.conditions.remove(c)

    @property
    def on_table(self) -> bool:
        return not self.casualty

    def __deepcopy__(self, memo):
        # every field but ``conditions`` is immutable (str, int, float, bool): a shallow copy
        # with its own list is a deep copy, without the generic deepcopy's walk (search agents
        # copy the state thousands of times per decision)
        new = copy.copy(self)
        new.conditions = list(self.conditions)
        memo[id(self)] = new
        return new


@dataclass
class Activation:
    player: int
    members: list                 # model ids still taking part
    group: bool
    actions_left: int             # free actions left (a group shares them)
    used: dict = field(default_factory=dict)       # model -> actions used this activation
    aimed: list = field(default_factory=list)      # models whose next Zap check is 1 easier
    assist: dict = field(default_factory=dict)     # model -> Aim-Assist dice for its next Shoot
    boost: dict = field(default_factory=dict)      # model -> Boost dice for its next skill check
    dog_pile: dict = field(default_factory=dict)   # target -> Dog-pile dice for the next Strike on it
    step: str = ""                # group: the action chosen for the current group step
    to_resolve: list = field(default_factory=list)  # group: members yet to resolve that step


@dataclass
class CBState(State):
    models: dict = field(default_factory=dict)
    order: list = field(default_factory=list)      # model ids in roster order
    moxie: dict = field(default_factory=dict)
    dread: dict = field(default_factory=dict)
    leader: dict = field(default_factory=dict)
    leader_lost: dict = field(default_factory=dict)
    phase: str = "leader"
    queue: list = field(default_factory=list)      # players still to answer a once-per-phase decision
    passed: list = field(default_factory=list)
    act: Activation | None = None
    window: dict | None = None                     # a paused action waiting for a reaction or a move
    casualties: dict = field(default_factory=dict)  # player -> [[model id, was hero]] this turn
    hacked: dict = field(default_factory=dict)
    held: dict = field(default_factory=dict)       # protect-leader turns
    veiled: list = field(default_factory=list)
    opened: list = field(default_factory=list)     # secure doors Hacked open (piece ids, sorted)
    activations: int = 0
    deploy: dict | None = None   # the deployment while it lasts (engine/rulesets/deployment/flow.py)
    final: dict | None = None
