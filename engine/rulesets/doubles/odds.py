"""Exact odds of a Doubles duel from the attacker's point of view (the client's hover, the AI).

A duel has decisions in it (which dice to keep, which effect a double triggers, which of the
opponent's dice a manoeuvre rerolls), so "the odds" need a model of those decisions. This one:

- **Keeps**: both sides keep their best result, as ``duel.best_keep`` does: the two highest
  dice; with the ``must_keep`` penalty rule the penalty dice that must be kept (one penalty die:
  it and the best ordinary die; two or more: the two best penalty dice). With the
  ``opponent_discards`` rule the opponent is taken to set the highest dice aside.
- **The attacker's double 1-5** is used for *Flaw* (armour -1, or +1 damage unarmoured), except
  when the results tie and the remaining dice would not win: then *Tactical advantage* (the
  tie goes to the attacker). That is the better of the two in hindsight: exact when the attacker
  rolls second, a little generous when it rolls first. *Precise attack* and *Manoeuvre* are never
  taken: the model has no rerolls and no penalty dice added after the roll.
- **The attacker's double 6** is the force attack (armour to 0 or +1, +1 damage).
- **The defender's double 1-5** (and, in melee with ``melee_defender_double_six="two_effects"``,
  its double 6) is used for *Aggressiveness* (1 damage less): the effect that hurts the attack
  most among those that change this hit. A double 6 against a shot is *Low ammunition*.
- **AP**: the defender spends none on extra dice; the attacker spends what its ``Announce``
  says (none for a ``Shoot`` / ``MeleeAttack`` not yet announced), with no back-shot choice
  unless the ``Announce`` makes one.

Within that model the numbers are exact: the distribution of each pool's kept result, double
and remaining total is built die by die (``top_dist``, in ``Fraction``s), ties are settled on the remaining dice as
``duel.resolve`` does, and each hit's damage comes from ``damage.duel_damage``.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from . import damage as dmg
from . import duel as dl
from .data import DEFAULT_OPTIONS, DoublesOptions

ASSUMES = ("both sides keep their best result; the attacker's double 1-5 is a Flaw, or a Tactical "
           "advantage when the results tie and it would lose on the remaining dice; the defender's "
           "double 1-5 is Aggressiveness; no manoeuvre, no precise attack, no defence AP")


@lru_cache(maxsize=256)
def top_dist(n: int, k: int) -> dict:
    """{(the k highest faces, descending, fewer if fewer dice), sum of all n faces): P} for n d6,
    exactly, by adding one die at a time."""
    dist: dict = {((), 0): Fraction(1)}
    sixth = Fraction(1, 6)
    for _ in range(max(0, n)):
        nxt: dict = {}
        for (top, total), p in dist.items():
            for face in range(1, 7):
                t = tuple(sorted(top + (face,), reverse=True)[:k]) if k else ()
                key = (t, total + face)
                nxt[key] = nxt.get(key, Fraction(0)) + p * sixth
        dist = nxt
    return dist


def keep_of(ordinary: tuple[int, ...], penalty: tuple[int, ...]) -> tuple[int, ...]:
    """The best legal keep, given the highest ordinary and penalty faces (descending), as
    ``duel.best_keep`` picks it (a penalty die must be kept)."""
    k = min(2, len(ordinary) + len(penalty))
    need = min(k, len(penalty))
    if need == 2:
        return penalty[:2]
    if need == 1:
        return (penalty[0], ordinary[0]) if k == 2 else penalty[:1]
    return ordinary[:k]


@lru_cache(maxsize=512)
def side_dist(n: int, pen: int, penalty_rule: str = "must_keep") -> dict:
    """{(result, double value or 0): {remaining total: P}} for a side rolling ``n`` ordinary and
    ``pen`` penalty dice that keeps its best result."""
    out: dict = {}

    def add(kept, rem, p):
        score = sum(kept)
        dbl = kept[0] if len(kept) == 2 and kept[0] == kept[1] else 0
        d = out.setdefault((score, dbl), {})
        d[rem] = d.get(rem, Fraction(0)) + p

    if penalty_rule == "must_keep":
        # the ordinary dice matter through their top (two, one or none) and their sum
        k_ord = 2 if pen == 0 else (1 if pen == 1 else 0)
        for (o, so), po in top_dist(n, k_ord).items():
            for (q, sq), pq in top_dist(pen, 2).items():
                kept = keep_of(o, q)
                add(kept, so + sq - sum(kept), po * pq)
    else:   # opponent_discards: nothing added; the opponent sets the highest dice aside
        for (top, total), p in top_dist(n, pen + 2).items():
            gone, kept = top[:pen], top[pen:pen + 2]
            add(kept, total - sum(gone) - sum(kept), p)
    return out


@dataclass(frozen=True)
class DuelOdds:
    hit: Fraction
    wounded: Fraction          # a hit that deals 1+ damage point or kills outright
    out: Fraction              # the defender is out of action (damage >= health, or instant death)
    instant_death: Fraction
    force_attack: Fraction     # the attacker keeps a double 6 (off balance, weapon-break tests)
    low_ammunition: Fraction   # the defender keeps a double 6 (a shot, or melee under the low_ammunition option)
    damage: dict               # points dealt (instant death as None) -> P, over hits only


@lru_cache(maxsize=4096)
def duel_odds(kind: str, attack: tuple[int, int], defence: tuple[int, int], *, health: int,
              protection: int = 0, back_shot: bool = False, target_on_ground: bool = False,
              aggressiveness_this_turn: int = 0, options: DoublesOptions = DEFAULT_OPTIONS) -> DuelOdds:
    """Odds of a duel of ``attack`` = (dice, penalty dice) against ``defence`` (the counts of
    ``PoolSpec.counts``), under the model of this module's docstring."""
    A = side_dist(attack[0], attack[1], options.penalty_rule)
    D = side_dist(defence[0], defence[1], options.penalty_rule)
    two = kind == "melee" and options.melee_defender_double_six == "two_effects"
    damage_cache: dict = {}

    def damage_of(how, diff, a_eff, d_eff):
        key = (how, diff, a_eff, d_eff)
        if key not in damage_cache:
            res = dl.DuelResult(kind, "attacker", how, diff, 0, 0, 0, a_eff, d_eff, 0)
            damage_cache[key] = dmg.duel_damage(res, protection=protection, back_shot=back_shot,
                                                target_on_ground=target_on_ground,
                                                aggressiveness_this_turn=aggressiveness_this_turn, options=options)
        return damage_cache[key]

    hit = wounded = out = death = Fraction(0)
    hist: dict = {}
    fa = sum((sum(r.values(), Fraction(0)) for (s, d), r in A.items() if d == 6), Fraction(0))
    low = sum((sum(r.values(), Fraction(0)) for (s, d), r in D.items() if d == 6), Fraction(0)) \
        if (kind == "shoot" or not two) else Fraction(0)
    for (sa, da), ra in A.items():
        pa = sum(ra.values(), Fraction(0))
        a_base = (dl.FORCE_ATTACK,) if da == 6 else ()
        for (sd, dd), rd in D.items():
            pd = sum(rd.values(), Fraction(0))
            d_eff = (dl.AGGRESSIVENESS,) if (1 <= dd <= 5 or (dd == 6 and two)) else ()
            events = []          # (probability, how, attacker effects)
            if sa > sd:
                events.append((pa * pd, "result", a_base + ((dl.FLAW,) if 1 <= da <= 5 else ())))
            elif sa == sd:
                win = sum((p1 * p2 for r1, p1 in ra.items() for r2, p2 in rd.items() if r1 > r2), Fraction(0))
                if 1 <= da <= 5:
                    events.append((win, "remaining_dice", (dl.FLAW,)))
                    events.append((pa * pd - win, "tactical_advantage", (dl.TACTICAL_ADVANTAGE,)))
                else:
                    events.append((win, "remaining_dice", a_base))
            for p, how, a_eff in events:
                if not p:
                    continue
                o = damage_of(how, sa - sd, a_eff, d_eff)
                hit += p
                pts = None if o.instant_death else o.points
                hist[pts] = hist.get(pts, Fraction(0)) + p
                if o.instant_death:
                    death += p
                if o.instant_death or o.points >= 1:
                    wounded += p
                if o.instant_death or o.points >= health:
                    out += p
    return DuelOdds(hit, wounded, out, death, fa, low, hist)
