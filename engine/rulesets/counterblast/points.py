"""What a Counterblast model is worth: points worked out from its profile, weighed in games.

The seed sets the game's size ("500 points is a standard game") but prices nothing, so a crew
file's points were whatever its author wrote, and weapons cost nothing. A model's **points** here
are a weighted sum of the numbers on its profile (``FEATURES``: Move, Defense, Knack, Mettle,
its best gun's Damage times its Zap, its longest gun's Range, its best striking weapon's Damage
times its Grit, being a hero, its gear, psi gear and abilities as counts), plus a constant per
model, times ``POINTS_PER_LOGIT``, rounded; a crew's points are its models' sum.

The weights are measured, not chosen (``docs/rules/counterblast.md``, section 13, "Points"):
``easy`` played ``easy`` in 4,504 games between random crews on the outpost
(``bench/counterblast_values.py``), and a logistic model of "zone 1's crew wins" on the
difference of the two crews' summed features gave each feature's weight in log-odds. One
log-odds is ``POINTS_PER_LOGIT`` points, chosen so that the shipped crews cost about the
seed's standard 500. The weights hold over the range the random crews covered (``MEASURED``); a
profile outside it is priced by extrapolation, and ``outside_measured`` says where. The weights
are the ``easy`` agent's: shooting is worth most, striking little, and a longer gun counts
against a model (it pulls the agent's models off the markers).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .options import DEFAULT_OPTIONS, CounterblastOptions
from .roles import is_hero

if TYPE_CHECKING:
    from .data import Armoury, Crew, Profile

# log-odds of winning per unit of each feature, summed over a crew (bench/counterblast_values.py fit)
# (rounds 1 and 2: 4,504 games between 2,252 pairs of random crews; docs/rules/counterblast.md, section 13)
WEIGHTS: dict[str, float] = {
    "one": -0.1785, "move": 0.0243, "shoot": 0.0797, "range": -0.0462, "strike": 0.0059, "defense": 0.0469,
    "knack": 0.0283, "mettle": 0.0748, "hero": 0.0775, "gear": 0.0278, "psi": 0.1201, "special": 0.0018,
}
FEATURES: tuple[str, ...] = ("one", "move", "shoot", "range", "strike", "defense", "knack", "mettle",
                             "hero", "gear", "psi", "special")
POINTS_PER_LOGIT = 70     # the shipped crews at 433-487 of the standard 500

# the range of each feature (per model) in the measured games: (lowest, highest)
MEASURED: dict[str, tuple[float, float]] = {
    "move": (3, 7), "shoot": (0, 18), "range": (0, 3), "strike": (0, 21), "defense": (1, 6), "knack": (0, 7),
    "mettle": (1, 6), "hero": (0, 1), "gear": (0, 2), "psi": (0, 1), "special": (0, 1),
}
MEASURED_MODELS = (4, 12)       # models in a crew (round 1: 4-10, round 2: 4-12)


def features(p: Profile, armoury: Armoury, options: CounterblastOptions = DEFAULT_OPTIONS) -> dict[str, float]:
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


def model_points(profile: Profile, armoury: Armoury, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """The model's points: ``POINTS_PER_LOGIT`` x its weighted features, rounded, at least 1."""
    return max(1, round(POINTS_PER_LOGIT * strength(features(profile, armoury, options))))


def crew_points(crew: Crew, armoury: Armoury, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """The crew's points: each entry's model points times its count."""
    return sum(model_points(e.profile, armoury, options) * e.count for e in crew.models)


def outside_measured(profile: Profile, armoury: Armoury,
                     options: CounterblastOptions = DEFAULT_OPTIONS) -> list[str]:
    """The features of ``profile`` outside the range the weights were measured on, in words."""
    x = features(profile, armoury, options)
    return [f"{k} {x[k]:g} (measured {lo:g}-{hi:g})" for k, (lo, hi) in MEASURED.items() if not lo <= x[k] <= hi]
