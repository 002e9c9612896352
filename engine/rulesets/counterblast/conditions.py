"""Conditions and their effects on a model's abilities, movement and reactions.

Conditions are plain strings in a set (a model cannot gain the same condition twice, so a set
is the natural container). The seed uses **Stunned** without defining it; the project's
definition (see "Interpretations" in docs/rules/counterblast.md):

* a Stunned model may not trigger reactions;
* when activated it gets ``options.stunned_free_actions`` free actions (2 by default: no loss;
  a table that wants Stunned to bite can set 1);
* Stunned ends in the Upkeep phase, or when the model uses the Recover action (no roll needed).

Reacting (which Stuns the reactor) therefore limits every model to one reaction per turn.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from .options import DEFAULT_OPTIONS, CounterblastOptions

Condition = Literal["blind", "burning", "down", "engaged", "half_blind", "marked", "panic",
                    "pinned", "prone", "spent", "stable", "stunned"]
CONDITIONS: tuple[str, ...] = ("blind", "burning", "down", "engaged", "half_blind", "marked", "panic",
                               "pinned", "prone", "spent", "stable", "stunned")

# Conditions the Upkeep phase removes on its own ("Marked ... removed during the upkeep phase",
# "become un-Spent during the upkeep phase", and Stunned by the project's definition).
UPKEEP_CLEARS: frozenset[str] = frozenset({"spent", "marked", "stunned"})
# Conditions the Recover action removes without a roll, and those it removes on a Knack/7
# success ("rolls Knack/7 and is un-pinned if it succeeds"; the seed gives Blind and
# Half-blind no end, so Recover treats them as it treats Pinned: Interpretation 39).
RECOVER_CLEARS: frozenset[str] = frozenset({"stunned"})
RECOVER_CHECK: frozenset[str] = frozenset({"pinned", "blind", "half_blind"})
RECOVER_FROM: frozenset[str] = RECOVER_CLEARS | RECOVER_CHECK

NAMES: dict[str, str] = {"blind": "Blind", "burning": "Burning", "down": "Down", "engaged": "Engaged",
                         "half_blind": "Half-blind", "marked": "Marked", "panic": "Panicked",
                         "pinned": "Pinned", "prone": "Prone", "spent": "Spent", "stable": "Stable",
                         "stunned": "Stunned"}


def gain(conditions: Iterable[str], condition: str) -> frozenset[str]:
    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r}")
    return frozenset(conditions) | {condition}


def effective_zap(zap: int, conditions: Iterable[str], options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Half-blind reduces Zap to 1 die if higher. (Blind Zap checks are automatic 0s: ``zap_auto_zero``.)"""
    c = set(conditions)
    return min(zap, options.half_blind_dice) if "half_blind" in c or "blind" in c else zap


def zap_auto_zero(conditions: Iterable[str]) -> bool:
    return "blind" in set(conditions)


def effective_grit(grit: int, conditions: Iterable[str], options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Blind and Half-blind reduce Grit to 1 die if it is higher."""
    c = set(conditions)
    if "blind" in c:
        grit = min(grit, options.blind_grit_dice)
    if "half_blind" in c:
        grit = min(grit, options.half_blind_dice)
    return grit


def effective_move(move: int, conditions: Iterable[str], options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Blind reduces Move to 2 (if it was higher). Half-blind moves a d5 instead (``movement``)."""
    return min(move, options.blind_move) if "blind" in set(conditions) else move


def can_act(conditions: Iterable[str]) -> bool:
    """Down models may not use actions."""
    return "down" not in set(conditions)


def allowed_actions_when_pinned() -> frozenset[str]:
    return frozenset({"recover"})


def first_refusal(*bars: tuple[bool, str]) -> tuple[bool, str]:
    """``(True, "")`` when no bar holds, else ``(False, reason)`` of the first that does: a rule's
    refusals as (holds, reason) pairs, in the order the rule gives them."""
    return next(((False, why) for holds, why in bars if holds), (True, ""))


def can_react(conditions: Iterable[str]) -> tuple[bool, str]:
    c = set(conditions)
    return first_refusal(("down" in c, "Down models may not use actions"),
                         ("stunned" in c, "a Stunned model may not trigger reactions"),
                         ("pinned" in c, "a Pinned model may only Recover"))


def free_actions(conditions: Iterable[str], options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    return options.stunned_free_actions if "stunned" in set(conditions) else options.free_actions


def must_rally_first(conditions: Iterable[str]) -> bool:
    return "panic" in set(conditions)


def has_light_cover_from_prone(conditions: Iterable[str]) -> bool:
    return "prone" in set(conditions)


def upkeep(conditions: Iterable[str]) -> frozenset[str]:
    """Conditions after the Upkeep phase's automatic clean-up (Down/Stable: see ``damage.upkeep``)."""
    return frozenset(conditions) - UPKEEP_CLEARS


def recover(conditions: Iterable[str], knack_successes: int | None = None) -> frozenset[str]:
    """The Recover action: removes Stunned; removes Pinned, Blind and Half-blind if the
    Knack/7 check (rolled only when the model has one of them) succeeded."""
    c = frozenset(conditions) - RECOVER_CLEARS
    if knack_successes:
        c = c - RECOVER_CHECK
    return c
