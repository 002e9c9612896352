"""What a Counterblast model is worth: points worked out from its profile, weighed in games.

The seed sets the game's size ("500 points is a standard game") but prices nothing, so a crew
file's points were whatever its author wrote, and weapons cost nothing. A model's **points** here
are a weighted sum of the numbers on its profile (``FEATURES``: its abilities, Mettle and Move,
its best gun's damage times its Zap, its longest gun's range, its best striking weapon's damage
times its Grit, its gear and abilities as counts), plus a constant per model, times
``POINTS_PER_LOGIT``, rounded; a crew's points are its models' sum.

The weights are measured, not chosen (``docs/rules/counterblast.md``, "Points"): ``easy`` played
``easy`` in thousands of games between random crews on the outpost
(``bench/counterblast_values.py``), and a logistic model of "zone 1's crew wins" on the
difference of the two crews' summed features gave each feature's weight in log-odds. One
log-odds is ``POINTS_PER_LOGIT`` points, chosen so that the shipped crews cost about the
seed's standard 500. The weights hold over the range the random crews covered (``MEASURED``); a
profile outside it is priced by extrapolation, and ``outside_measured`` says where.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .options import DEFAULT_OPTIONS, CounterblastOptions

if TYPE_CHECKING:
    from .data import Armoury, Crew, Profile

# log-odds of winning per unit of each feature, summed over a crew (bench/counterblast_values.py fit)
# (round 1: 3,304 games between 1,652 pairs of random crews; docs/rules/counterblast.md, "Points")
WEIGHTS: dict[str, float] = {
    "one": -0.2072, "move": 0.0255, "shoot": 0.0783, "range": -0.0432, "strike": 0.0047, "defense": 0.0504,
    "knack": 0.0301, "mettle": 0.0721, "hero": 0.0599, "gear": 0.0340, "psi": 0.1174, "special": 0.0029,
}
FEATURES: tuple[str, ...] = ("one", "move", "shoot", "range", "strike", "defense", "knack", "mettle",
                             "hero", "gear", "psi", "special")
POINTS_PER_LOGIT = 75     # the dearest shipped crew at 491 of 500, the three at 449-491

# the range of each feature (per model) in the measured games: (lowest, highest)
MEASURED: dict[str, tuple[float, float]] = {
    "move": (3, 7), "shoot": (0, 18), "range": (0, 3), "strike": (0, 21), "defense": (1, 6), "knack": (0, 7),
    "mettle": (1, 6), "hero": (0, 1), "gear": (0, 2), "psi": (0, 1), "special": (0, 1),
}
MEASURED_MODELS = (4, 10)       # models in a crew


def features(p: "Profile", armoury: "Armoury", options: CounterblastOptions = DEFAULT_OPTIONS) -> dict[str, float]:
    """The numbers the points are weighed on:

    * ``shoot``: Zap x the highest Damage among its shooting weapons (0 without one: Zap alone
      does nothing); ``range``: its longest shooting weapon's Range in feet (inches / 12);
    * ``strike``: Grit x the highest Damage among its striking weapons (0 without one);
    * ``move``, ``defense``, ``knack``, ``mettle``: the profile's;
    * ``hero``: 1 for a hero (characters, and psifers unless ``psifer_is_hero`` is off), 0 for a lackey;
    * ``gear``: items of gear other than psi gear (scanner, medkit, toolkit);
    * ``psi``: psi gear carried (a psifer's focus); ``special``: characters' special abilities;
    * ``one``: 1 (a constant per model).
    """
    from .data import is_hero

    guns = [armoury.shooting_weapon(w) for w in p.shooting]
    blades = [armoury.striking_weapon(w) for w in p.striking]
    gear = [armoury.gear_item(g) for g in p.gear]
    return {
        "one": 1, "move": p.move,
        "shoot": p.zap * max((w.damage for w in guns), default=0),
        "range": max((w.range for w in guns), default=0) / 12,
        "strike": p.grit * max((w.damage for w in blades), default=0),
        "defense": p.defense, "knack": p.knack, "mettle": p.mettle,
        "hero": 1 if is_hero(p, options) else 0,
        "gear": sum(1 for g in gear if g.kind != "psi_focus"),
        "psi": sum(1 for g in gear if g.kind == "psi_focus"),
        "special": len(p.special),
    }


def strength(x: dict[str, float]) -> float:
    """The weighted sum of features ``x`` (one model's, or a crew's summed), in log-odds."""
    return sum(w * x[k] for k, w in WEIGHTS.items())


def model_points(profile: "Profile", armoury: "Armoury", options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """The model's points: ``POINTS_PER_LOGIT`` x its weighted features, rounded, at least 1."""
    return max(1, round(POINTS_PER_LOGIT * strength(features(profile, armoury, options))))


def crew_points(crew: "Crew", armoury: "Armoury", options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """The crew's points: each entry's model points times its count."""
    return sum(model_points(e.profile, armoury, options) * e.count for e in crew.models)


def outside_measured(profile: "Profile", armoury: "Armoury",
                     options: CounterblastOptions = DEFAULT_OPTIONS) -> list[str]:
    """The features of ``profile`` outside the range the weights were measured on, in words."""
    x = features(profile, armoury, options)
    return [f"{k} {x[k]:g} (measured {lo:g}-{hi:g})" for k, (lo, hi) in MEASURED.items() if not lo <= x[k] <= hi]
