"""Exact odds of a Doubles duel from the attacker's point of view (the client's hover, the AI).

A duel has decisions in it (which dice to keep, which effect a double triggers, which of the
opponent's dice a manoeuvre rerolls), so "the odds" need a model of those decisions. This one:

- **Keeps**: both sides keep their best result, as ``duel.best_keep`` does: the two highest
  dice left. Under ``cancels_highest`` (the default) the penalty dice first set aside as many of
  the highest dice (``duel.cancel_highest``), and a pair holding a penalty die is no double;
  under ``must_keep`` the penalty dice must be kept (one penalty die: it and the best ordinary
  die; two or more: the two best penalty dice). With the ``opponent_discards`` rule the opponent
  is taken to set the highest dice aside.
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

Aptitude tests that need a double (off-balance, low ammunition) have no decisions in them:
``double_test_chance`` is exact, counted over every roll by face counts.

Within that model the numbers are exact: the distribution of each pool's kept result, double
and remaining total is built die by die (``top_dist``, in ``Fraction``s), ties are settled on the remaining dice as
``duel.resolve`` does, and each hit's damage comes from ``damage.duel_damage``.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import factorial

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
def side_dist(n: int, pen: int, penalty_rule: str = "cancels_highest") -> dict:
    """{(result, double value or 0): {remaining total: P}} for a side rolling ``n`` ordinary and
    ``pen`` penalty dice that keeps its best result."""
    out: dict = {}

    def add(kept, rem, p):
        score = sum(kept)
        dbl = kept[0] if len(kept) == 2 and kept[0] == kept[1] else 0
        d = out.setdefault((score, dbl), {})
        d[rem] = d.get(rem, Fraction(0)) + p

    if penalty_rule == "cancels_highest":
        # the penalty dice set aside the ``pen`` highest dice (a penalty die first among equal
        # values); the two highest left are kept, a double only if two ordinary dice show it.
        # The ordinary dice matter through their top pen + 2 (the first two ordinary dice left
        # at the kept value are among them: every die above it was set aside) and their sum.
        for (o, so), po in top_dist(n, pen + 2).items():
            for (q, sq), pq in top_dist(pen, pen).items():
                order = sorted([(v, 0) for v in o] + [(v, 1) for v in q], reverse=True)
                gone, left = order[:pen], order[pen:]
                kept = tuple(v for v, _ in left[:2])
                dbl = kept[0] if len(kept) == 2 and kept[0] == kept[1] and \
                    sum(1 for v, is_pen in left if v == kept[0] and not is_pen) >= 2 else 0
                d = out.setdefault((sum(kept), dbl), {})
                rem = so + sq - sum(v for v, _ in gone) - sum(kept)
                d[rem] = d.get(rem, Fraction(0)) + po * pq
    elif penalty_rule == "must_keep":
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


def _rolls(n: int):
    """Every roll of ``n`` d6 as face counts (c1..c6) with its exact probability."""
    def comps(left, faces):
        if faces == 1:
            yield (left,)
            return
        for c in range(left, -1, -1):
            for rest in comps(left - c, faces - 1):
                yield (c,) + rest
    for counts in comps(n, 6):
        ways = factorial(n)
        for c in counts:
            ways //= factorial(c)
        yield counts, Fraction(ways, 6 ** n)


@lru_cache(maxsize=256)
def _double_chance(n: int, pen: int, penalty_rule: str) -> Fraction:
    """P(some legal keep is a double) for ``n`` ordinary and ``pen`` penalty dice (the counts
    of ``PoolSpec.counts``), counted over every roll by face counts."""
    total = Fraction(0)
    for oc, po in _rolls(n):
        for pc, pp in _rolls(pen if penalty_rule != "opponent_discards" else 0):
            ordinary = [v for v in range(6, 0, -1) for _ in range(oc[v - 1])]
            penalty = [v for v in range(6, 0, -1) for _ in range(pc[v - 1])]
            if penalty_rule == "cancels_highest":
                order = sorted([(v, 1) for v in penalty] + [(v, 0) for v in ordinary], reverse=True)
                left = [v for v, is_pen in order[pen:] if not is_pen]
                hit = len(set(left)) < len(left)
            elif penalty_rule == "must_keep":
                if not penalty:
                    hit = len(set(ordinary)) < len(ordinary)
                elif len(penalty) == 1:
                    hit = penalty[0] in ordinary
                else:
                    hit = len(set(penalty)) < len(penalty)
            else:     # opponent_discards: the highest dice are set aside
                left = ordinary[pen:]
                hit = len(set(left)) < len(left)
            if hit:
                total += po * pp
    return total


def double_test_chance(aptitude: int, *, advantage: int = 0, penalty: int = 0,
                       options: DoublesOptions = DEFAULT_OPTIONS) -> Fraction:
    """Exact chance of passing an aptitude test that needs a double (``duel.double_test``):
    resisting off-balance, shooting under low ammunition."""
    n, pen = dl.PoolSpec(aptitude, 0, advantage, penalty).counts(options)
    return _double_chance(n, pen, options.penalty_rule)


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
