"""Doubles' choices in words ("Lokee throws his flint knife at Bones (short range)"): one
describer per choice type in ``CHOICE_WORDS``, a table built once (``engine.core.choice_words``);
``ViewMixin.describe_choice`` asks it. A describer takes the rules, the state and the choice; one
that names a fighter no longer on the table falls back to the choice's own ``describe()``.
"""
from __future__ import annotations

import math

from engine.core.choice_words import ChoiceWords
from engine.rulesets.common import MoveTo

from . import choices as C
from . import duel as dl
from . import shooting as sh
from . import turn as tn


def _shoot(r, st, c) -> str:
    f, t = st.fighters.get(c.shooter), st.fighters.get(c.target)
    if f is None or t is None:
        return c.describe()
    what = r._thrown_words(f, c.weapon)
    band = sh.range_band(r.chars(f).throw, r.edge_cm(f, t)).replace("_", " ")
    if c.aimed:
        return f"{f.name} aims {what} at {t.name} in the melee ({band} range, 1 AP more, a penalty die)"
    if r.engaged_with(st, t):
        return f"{f.name} throws {what} into the melee around {t.name} ({band} range)"
    return f"{f.name} throws {what} at {t.name} ({band} range)"


def _shoot_at(r, st, c) -> str:
    f = st.fighters.get(c.shooter)
    if f is None:
        return c.describe()
    cm = r.table.distance_to_point(r.base(f), c.x, c.y) / 10.0
    band = sh.range_band(r.chars(f).throw, cm).replace("_", " ")
    return f"{f.name} throws {r._thrown_words(f, c.weapon)} at a point of empty ground {cm:.1f} cm away ({band} range)"


def _pick_up(r, st, c) -> str:
    f = st.fighters.get(c.fighter)
    if f is None:
        return c.describe()
    return f"{f.name} picks up the {r.warbands[f.side].weapon(c.weapon).name.lower()}"


def _take_relic(r, st, c) -> str:
    f = st.fighters.get(c.fighter)
    if f is None:
        return c.describe()
    return f"{f.name} picks up the {r._marker_name(c.relic)} ({r.opts.relic_pick_up_ap} AP)"


def _melee(r, st, c) -> str:
    f = st.fighters.get(c.attacker)
    w = r.weapon_for(f, "melee") if f else None
    return (f"{r.fighter_name(st, c.attacker)} strikes {r.fighter_name(st, c.target)}"
            + (f" with his {w.name.lower()}" if w else " barehanded"))


def _move(r, st, c) -> str:
    f = st.fighters.get(c.model)
    if f is None:
        return c.describe()
    moved = r.base(f).moved(c.x, c.y)
    foes = [e for e in r.in_play(st) if e.side != f.side
            and tn.is_engaged(r.table.distance(moved, r.base(e)) / 10.0, r.opts)]
    d = math.hypot(c.x - f.x, c.y - f.y) / 10.0
    if r.engaged_with(st, f):
        return f"{f.name} disengages to a point {d:.1f} cm away"
    if foes:
        return f"{f.name} charges {', '.join(e.name for e in foes)}"
    return f"{f.name} moves to a point {d:.1f} cm away"


def _announce(r, st, c) -> str:
    who = r.fighter_name(st, c.fighter)
    s = f"{who} spends {c.ap} AP on extra dice" if c.ap else f"{who} spends no AP on extra dice"
    if c.back == "advantage":
        s += ", back shot: an advantage die"
    elif c.back == "penalty":
        s += ", back shot: a penalty die for the defender"
    return s


def _die(verb: str):
    """RerollDie ("makes the opponent reroll") and DiscardDie ("sets aside"): the die by its
    value when the attack in progress has it, else by its number."""
    def words(r, st, c) -> str:
        val = None
        if st.attack is not None and st.attack.duel is not None:
            for side in ("attacker", "defender"):
                for x in st.attack.duel.side(side).dice:
                    if x.id == c.die:
                        val = x.describe()
        return f"{r.fighter_name(st, c.fighter)} {verb} the {val if val is not None else f'die #{c.die}'}"
    return words


def _face(r, st, c) -> str:
    who = r.fighter_name(st, c.fighter)
    return f"{who} turns to face the attacker" if c.turn else f"{who} stays as it is"


CHOICE_WORDS = ChoiceWords({
    C.Shoot: _shoot,
    C.ShootAt: _shoot_at,
    C.PickUp: _pick_up,
    C.TakeRelic: _take_relic,
    C.MeleeAttack: _melee,
    MoveTo: _move,
    C.StandUp: lambda r, st, c: f"{r.fighter_name(st, c.fighter)} stands up",
    C.EndActivation: lambda r, st, c: f"{r.fighter_name(st, c.fighter)} ends its activation",
    C.Announce: _announce,
    C.PickTarget: lambda r, st, c: f"the shot hits {r.fighter_name(st, c.fighter)}",
    C.KeepDice: lambda r, st, c: (f"{r.fighter_name(st, c.fighter)}: "
                                f"{dl.make_keep(c.values, c.penalty_values, r.opts).describe()}"),
    C.ChooseEffect: lambda r, st, c: f"{r.fighter_name(st, c.fighter)}: {dl.EFFECT_WORDS.get(c.effect, c.effect)}",
    C.RerollDie: _die("makes the opponent reroll"),
    C.DiscardDie: _die("sets aside"),
    C.Face: _face,
})
