"""What a whole game needs beyond the seed, built from its mechanics (all interpretations;
docs/rules/doubles.md, "Interpretations"): the initiative track, action points, movement,
engagement and melee, the end of a turn, victory and the turn limit.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .data import DEFAULT_OPTIONS, DoublesOptions
from .duel import PoolSpec, Role

Action = Literal["move", "shoot", "aimed_shot", "melee_attack", "stand_up", "disengage", "end_activation"]


# --- initiative track -------------------------------------------------------------------------
@dataclass(frozen=True)
class TrackEntry:
    fighter: str
    value: int                      # initiative + 1d6
    tiebreak: tuple[int, ...] = ()  # roll-offs among equal values


def roll_initiative_track(initiatives: Mapping[str, int], rng) -> tuple[TrackEntry, ...]:
    """At the start of each turn every fighter still in play is placed on the track at its
    initiative + 1d6 (fighters in id order, for replays). Equal values roll off with 1d6 until
    they differ. The track reads top (acts first) to bottom."""
    base = {f: initiatives[f] + rng.d(6) for f in sorted(initiatives)}
    ties: dict[str, list[int]] = {f: [] for f in base}
    groups: dict[int, list[str]] = {}
    for f, v in base.items():
        groups.setdefault(v, []).append(f)
    for members in groups.values():
        pending = [members] if len(members) > 1 else []
        while pending:
            grp = pending.pop()
            for f in grp:
                ties[f].append(rng.d(6))
            by: dict[tuple, list[str]] = {}
            for f in grp:
                by.setdefault(tuple(ties[f]), []).append(f)
            pending.extend(g for g in by.values() if len(g) > 1)
    entries = [TrackEntry(f, base[f], tuple(ties[f])) for f in base]
    entries.sort(key=lambda e: (-e.value, tuple(-t for t in e.tiebreak), e.fighter))
    return tuple(entries)


def track_order(track: Sequence[TrackEntry]) -> tuple[str, ...]:
    return tuple(e.fighter for e in track)


def lower_on_track(track: Sequence[TrackEntry], a: str, b: str) -> str:
    order = track_order(track)
    return a if order.index(a) > order.index(b) else b


def first_roller(track: Sequence[TrackEntry], attacker: str, defender: str) -> Role:
    """The fighter lower on the initiative track rolls (and keeps) first in a duel."""
    return "attacker" if lower_on_track(track, attacker, defender) == attacker else "defender"


# --- action points ----------------------------------------------------------------------------
def action_points_for_turn(base_ap: int, lost_to_intimidation: int = 0) -> int:
    """AP a fighter starts its turn with: its characteristic, less what intimidation took."""
    return max(0, base_ap - lost_to_intimidation)


def intimidation_loss(ap_left: int, options: DoublesOptions = DEFAULT_OPTIONS) -> tuple[int, int]:
    """(AP left now, AP to lose next turn) for an intimidated attacker: it loses the rest of
    its AP this turn, or, with none left, 2 AP on its next turn."""
    if ap_left > 0:
        return 0, 0
    return 0, options.intimidation_next_turn_loss


def action_cost(action: Action, options: DoublesOptions = DEFAULT_OPTIONS) -> int:
    return {"move": options.move_cost_ap,
            "shoot": options.shoot_cost_ap,
            "aimed_shot": options.shoot_cost_ap + options.aim_cost_ap,
            "melee_attack": options.melee_attack_cost_ap,
            "stand_up": options.stand_up_cost_ap,
            "disengage": options.move_cost_ap + options.disengage_extra_ap,
            "end_activation": 0}[action]


def allowed_actions(*, ap_left: int, engaged: bool, on_ground: bool, shots_taken: int,
                    can_throw: bool, low_ammunition_blocked: bool = False,
                    options: DoublesOptions = DEFAULT_OPTIONS) -> tuple[Action, ...]:
    """The kinds of action open to an activated fighter (targets and paths are the table's)."""
    out: list[Action] = []

    def ok(a: Action) -> bool:
        return ap_left >= action_cost(a, options)

    if on_ground:
        if ok("stand_up"):
            out.append("stand_up")
    else:
        if engaged:
            for a in ("melee_attack", "disengage"):
                if ok(a):
                    out.append(a)
        else:
            if ok("move"):
                out.append("move")
            if can_throw and not low_ammunition_blocked and shots_taken < options.shots_per_turn:
                for a in ("shoot", "aimed_shot"):
                    if ok(a):
                        out.append(a)
    out.append("end_activation")
    return tuple(out)


# --- movement and engagement ------------------------------------------------------------------
def move_cost_cm(path_cm: float, difficult_cm: float = 0.0, options: DoublesOptions = DEFAULT_OPTIONS) -> float:
    """Allowance used by a path: difficult stretches count 1/factor times (factor 0.5: double)."""
    if path_cm < 0 or difficult_cm < 0 or difficult_cm > path_cm + 1e-9:
        raise ValueError("a path has a non-negative length that includes its difficult part")
    return path_cm + difficult_cm * (1.0 / options.difficult_terrain_factor - 1.0)


def can_move(movement_cm: int, path_cm: float, difficult_cm: float = 0.0,
             options: DoublesOptions = DEFAULT_OPTIONS) -> bool:
    """One move action carries a fighter up to its movement characteristic in cm."""
    return move_cost_cm(path_cm, difficult_cm, options) <= movement_cm + 1e-9


def is_engaged(edge_distance_cm: float, options: DoublesOptions = DEFAULT_OPTIONS) -> bool:
    """Two enemy fighters whose bases are this close are engaged in melee."""
    return edge_distance_cm <= options.engagement_distance_cm + 1e-9


def melee_pools(*, combat: int, weapon_bonus: int, defence: int, attack_ap: int = 0, defence_ap: int = 0,
                attacker_test_penalty: int = 0, defender_test_penalty: int = 0,
                defender_on_ground: bool = False, attacker_back_blow: Literal["advantage", "penalty"] | None = None,
                options: DoublesOptions = DEFAULT_OPTIONS) -> tuple[PoolSpec, PoolSpec]:
    """A melee duel uses the same pools as a shot: combat + weapon bonus against defence.
    Range, sight and aiming do not apply; armour, the ground and a blow in the back do."""
    aadv = options.back_shot_dice if attacker_back_blow == "advantage" else 0
    dpen = (options.back_shot_dice if attacker_back_blow == "penalty" else 0) \
        + (options.ground_target_penalty if defender_on_ground else 0) + defender_test_penalty
    return (PoolSpec(combat + weapon_bonus, attack_ap, aadv, attacker_test_penalty),
            PoolSpec(defence, defence_ap, 0, dpen))


# --- end of turn, victory ---------------------------------------------------------------------
@dataclass(frozen=True)
class TurnStatus:
    """Per-fighter effects that last until the end of the turn (or into the next one)."""
    cover: int = 0                  # cover effects: advantage dice against projectiles
    aggressiveness: int = 0         # damage points off each hit taken
    shots_taken: int = 0
    moved: bool = False
    low_ammunition: bool = False    # set by a defender's double 6; tested at the next turn start
    ap_lost_next_turn: int = 0


def end_of_turn(status: TurnStatus) -> TurnStatus:
    """Cover, aggressiveness, shots and movement end with the turn; low ammunition and lost AP
    carry to the next turn, where they are used once."""
    return TurnStatus(low_ammunition=status.low_ammunition, ap_lost_next_turn=status.ap_lost_next_turn)


@dataclass(frozen=True)
class FighterTally:
    value: int
    out_of_action: bool


@dataclass(frozen=True)
class Victory:
    over: bool
    winner: int | None              # side 1 or 2; None: a draw (or not over)
    reason: str
    points: tuple[int, int] = (0, 0)


def victory(sides: Mapping[int, Sequence[FighterTally]], *, turn: int, turn_over: bool,
            options: DoublesOptions = DEFAULT_OPTIONS) -> Victory:
    """A side with no fighter left loses at once (both: a draw). Otherwise, at the end of turn
    ``options.turn_limit``, each side scores the values of the enemy fighters out of action:
    more points win, equal points draw."""
    gone = {s: all(f.out_of_action for f in fs) for s, fs in sides.items()}
    pts = tuple(sum(f.value for f in sides[3 - s] if f.out_of_action) for s in (1, 2))
    if gone[1] and gone[2]:
        return Victory(True, None, "both warbands are out of action", pts)
    for s in (1, 2):
        if gone[s]:
            return Victory(True, 3 - s, f"side {s} has no fighter left", pts)
    if turn_over and turn >= options.turn_limit:
        if pts[0] == pts[1]:
            return Victory(True, None, f"turn limit {options.turn_limit}: equal points", pts)
        w = 1 if pts[0] > pts[1] else 2
        return Victory(True, w, f"turn limit {options.turn_limit}: side {w} has more points", pts)
    return Victory(False, None, "", pts)
