"""Constants and the action-kind table every part of the Counterblast flow of play uses."""
from __future__ import annotations

from engine.rulesets.common import MoveTo

from ..choices import (
    Aim,
    AimAssist,
    Boost,
    DogPile,
    DoNothing,
    Engineer,
    GoProne,
    HackDoor,
    HackMark,
    HackTerminal,
    Jump,
    MoveD5,
    MoveProne,
    PsiCraft,
    PsiStrike,
    Rally,
    Recover,
    Rush,
    Shoot,
    SplitShoot,
    SplitStrike,
    StandUp,
    Strike,
    Throw,
    Treat,
)

MM = 25.4
CONTACT_MM = 1.0          # interpretation: "within 0"" / base contact allows 1 mm of daylight
PRONE_HEIGHT_MM = 6.0     # a Prone model is its base only
HEADINGS = tuple(range(0, 360, 45))
TEAM_FOR = {"shoot": "aim_assist", "engineer": "boost", "treat": "boost", "hack": "boost", "strike": "dog_pile"}


_KINDS = {MoveTo: "move", MoveProne: "move", GoProne: "move", StandUp: "move", Rush: "rush", Jump: "jump", Aim: "aim",
          Shoot: "shoot", SplitShoot: "shoot", Strike: "strike", SplitStrike: "strike", MoveD5: "move", Throw: "throw", PsiStrike: "psi_strike",
          PsiCraft: "psi_craft", Treat: "treat", Engineer: "engineer", HackMark: "hack", HackTerminal: "hack", HackDoor: "hack",
          Recover: "recover", Rally: "rally", AimAssist: "aim_assist", Boost: "boost", DogPile: "dog_pile",
          DoNothing: "do_nothing"}


def _kind_of(c) -> str | None:
    t = c if isinstance(c, type) else type(c)
    return _KINDS.get(t)
