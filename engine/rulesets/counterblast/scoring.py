"""End of the game: battle score, objective score, mission score, degree of victory."""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from .data import Mission, Objective
from .options import DEFAULT_OPTIONS, CounterblastOptions


def game_over(turn_completed: int, crews_with_models_on_table: int,
              options: CounterblastOptions = DEFAULT_OPTIONS) -> bool:
    """Six turns, or only one crew (or none) left with models on the table."""
    return turn_completed >= options.turns or crews_with_models_on_table <= 1


@dataclass(frozen=True)
class ModelStanding:
    points: int
    on_table: bool = True
    down: bool = False
    panicked: bool = False


def points_remaining(models: Iterable[ModelStanding]) -> int:
    """Points of models still on the table and neither Down nor Panicked."""
    return sum(m.points for m in models if m.on_table and not m.down and not m.panicked)


def battle_score(remaining: int, basis: int | None = None, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """More than 75% of the basis remaining: 6; 50% to 75%: 3; under 50%: 1.

    ``basis`` is the game's points value (``options.game_points``) by default, or the crew's own
    cost when ``battle_score_basis`` is "crew" (the caller passes it).
    """
    b = basis if basis is not None else options.game_points
    share = Fraction(remaining, b)
    if share > options.battle_high_share:
        return options.battle_high_points
    if share >= options.battle_mid_share:
        return options.battle_mid_points
    return options.battle_low_points


def marker_controller(counts: Mapping[Hashable, int]) -> Hashable | None:
    """Who controls a marker: the crew with strictly more eligible models (not Down) in range."""
    if not counts:
        return None
    top = max(counts.values())
    if top <= 0:
        return None
    leaders = [c for c, n in counts.items() if n == top]
    return leaders[0] if len(leaders) == 1 else None


def objective_points(obj: Objective, units: int) -> int:
    p = obj.points * max(0, units)
    return min(p, obj.max_points) if obj.max_points is not None else p


def objective_scores(mission: Mission, units: Mapping[Hashable, Mapping[str, int]]) -> dict[Hashable, int]:
    """Objective score per crew: own points plus ``deny_points`` for each opponent with 0 units.

    ``units[crew][objective id]`` is what the crew achieved (markers held, terminals hacked,
    1/0 for a leader eliminated, turns the leader held on...), counted by the state machine.
    """
    crews = list(units)
    out = {}
    for c in crews:
        s = 0
        for o in mission.objectives:
            s += objective_points(o, units[c].get(o.id, 0))
            if o.deny_points:
                s += o.deny_points * sum(1 for d in crews if d != c and units[d].get(o.id, 0) <= 0)
        out[c] = s
    return out


def mission_score(objective_score: int, battle: int) -> int:
    return objective_score + battle


@dataclass(frozen=True)
class Verdict:
    winner: Hashable | None      # None: a draw at the top
    margin: int
    degree: str                  # "heroic", "major", "minor", "draw"


def degree_of_victory(scores: Mapping[Hashable, int], options: CounterblastOptions = DEFAULT_OPTIONS) -> Verdict:
    """Highest mission score wins; the margin over the next best gives the degree:
    6+ Heroic, 4-5 Major, 3 or less Minor; equal top scores are a draw."""
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if not ranked:
        raise ValueError("no scores")
    margin = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0)
    if margin == 0:
        return Verdict(None, 0, "draw")
    if margin >= options.heroic_margin:
        deg = "heroic"
    elif margin >= options.major_margin:
        deg = "major"
    else:
        deg = "minor"
    return Verdict(ranked[0][0], margin, deg)
