"""The action catalogue: category, whether it Spends the model, reactions and their triggers,
the Multitasking rule and what Engaged forbids."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .options import DEFAULT_OPTIONS, CounterblastOptions


@dataclass(frozen=True)
class ActionInfo:
    id: str
    name: str
    category: str            # maneuver, skill, combat, team, recovery, reaction, group
    spends: bool             # "*" in the seed's list = does not Spend
    ability: str | None = None
    trigger: str = ""        # reactions: the event that allows them


def _a(id, name, cat, spends, ability=None, trigger=""):
    return id, ActionInfo(id, name, cat, spends, ability, trigger)


ACTIONS: dict[str, ActionInfo] = dict([
    _a("move", "Move", "maneuver", False),
    _a("rush", "Rush", "maneuver", True),
    _a("jump", "Jump", "maneuver", True),
    _a("engineer", "Engineer", "skill", True, "knack"),
    _a("treat", "Treat", "skill", True, "knack"),
    _a("hack", "Hack", "skill", True, "knack"),
    _a("psi_craft", "Psi Craft", "skill", True, "psi"),
    _a("aim", "Aim", "combat", False),
    _a("shoot", "Shoot", "combat", True, "zap"),
    _a("strike", "Strike", "combat", True, "grit"),
    _a("throw", "Throw", "combat", True, "grit"),
    _a("psi_strike", "Psi Strike", "combat", True, "psi"),
    _a("boost", "Boost", "team", False),
    _a("aim_assist", "Aim-Assist", "team", False),
    _a("dog_pile", "Dog-pile", "team", False),
    _a("recover", "Recover", "recovery", True),
    _a("rally", "Rally", "recovery", True, "knack"),
    _a("do_nothing", "Do Nothing", "group", False),
    _a("action_roll", "Action-roll", "reaction", False, None, "targeted_by_shoot|area_effect"),
    _a("counterstrike", "Counterstrike", "reaction", False, "grit", "targeted_by_strike"),
    _a("disperse", "Disperse", "reaction", False, "psi", "psi_check_nearby"),
    _a("parry", "Parry", "reaction", False, None, "targeted_by_strike"),
    _a("pursuit", "Pursuit", "reaction", False, None, "disengaged_from"),
    _a("return_fire", "Return-fire", "reaction", False, "zap", "targeted_by_shoot"),
    _a("snapshot", "Snapshot", "reaction", False, "zap", "maneuver_completed"),
])

SIMULTANEOUS_REACTIONS = frozenset({"counterstrike", "return_fire"})  # final steps resolve together


def spends_model(action: str, options: CounterblastOptions = DEFAULT_OPTIONS) -> bool:
    if action == "rally":
        return options.rally_spends
    return ACTIONS[action].spends


def multitasking_allows(action: str, used_this_activation: Iterable[str]) -> bool:
    """A model may not use the same action twice in one activation (Do Nothing excepted)."""
    return action == "do_nothing" or action not in set(used_this_activation)


def reactions_for(event: str) -> list[str]:
    """Reactions a reactive model may trigger on ``event`` (see ``ActionInfo.trigger``)."""
    return [a.id for a in ACTIONS.values() if a.category == "reaction" and event in a.trigger.split("|")]


ENGAGED_FORBIDS = frozenset({"aim_assist", "boost", "engineer", "treat", "hack", "psi_craft",
                             "shoot", "return_fire", "snapshot"})


def engaged_allows(action: str, *, pistol: bool = False) -> bool:
    """Engaged models may not Aim-Assist, Boost, use skill actions or attack with shooting
    weapons, except a Snapshot with a pistol."""
    if action == "snapshot" and pistol:
        return True
    return action not in ENGAGED_FORBIDS


def shoot_target_allowed(target_in_melee_with_friend: bool, *, snapshot: bool = False) -> bool:
    """Shoot may not target an enemy engaging or engaged by a friendly model (Snapshots may)."""
    return snapshot or not target_in_melee_with_friend


def can_use_team_action(action: str, ability_dice: int) -> bool:
    """Boost needs Knack, Aim-Assist Zap, Dog-pile Grit: 0 dice forbids it."""
    return ability_dice > 0
