"""Characters' special abilities: the coded effects an armoury ``Ability`` can name.

The seed says only that characters "sometimes have special abilities unique to them" and
defines none, so every ability is data (``armoury.json``: ``abilities``) pointing at one of
the effects below; a profile lists the ids in ``special`` (characters only, checked when a
crew is loaded). See Interpretation 38 in docs/rules/counterblast.md.
"""
from __future__ import annotations

from collections.abc import Iterable

from .data import Ability


def long_shot_difficulty(abilities: Iterable[Ability]) -> int | None:
    """The base difficulty of Shoot checks beyond short range, if an ability replaces it."""
    values = [a.value for a in abilities if a.effect == "long_shot_difficulty"]
    return min(values) if values else None


def strike_explode_on(weapon_explode_on: int, abilities: Iterable[Ability]) -> int:
    """The explosion number of the model's Strike checks: the weapon's or an ability's, the lower."""
    values = [a.value for a in abilities if a.effect == "strike_explode_on"]
    return min([weapon_explode_on, *values])


def immune_to(abilities: Iterable[Ability], condition: str) -> Ability | None:
    """The ability that keeps the model from gaining ``condition``, if any."""
    return next((a for a in abilities if a.effect == "immune" and a.condition == condition), None)
