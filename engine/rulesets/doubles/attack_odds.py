"""``DoublesRules.attack_odds``: the exact odds (``odds.duel_odds``, under its model of the
players' decisions) of a ``Shoot``, a ``MeleeAttack``, the attacker's ``Announce`` of AP dice
and back-shot use, or the defender's ``Announce`` of AP for extra defence dice (the attack as
announced against that many more dice: a stepper of odds), as an ``engine.core.odds.AttackOdds``.

The pools are the ones the state machine would build now (``DoublesRules.pools``: range band,
sight, moving before the shot, aiming into a melee, armour penalties, the target's cover and
being on the ground). Nothing is hidden in Doubles, so the odds are the same for every player.
A shot into a melee that is not aimed may land on another fighter of the melee (an aptitude
lottery): the odds are for the declared target.
"""
from __future__ import annotations

from dataclasses import replace

from engine.core.odds import AttackOdds, pct

from . import odds
from . import shooting as sh
from .choices import Announce, MeleeAttack, Shoot
from .state import Attack

MELEE_NOTE = "; a shot into a melee that is not aimed may hit another fighter there: odds for the declared target"


def attack_odds(rules, st, c, player) -> AttackOdds | None:
    at = None
    note = ""
    try:
        if isinstance(c, Shoot):
            f, t = st.fighters.get(c.shooter), st.fighters.get(c.target)
            if f is None or t is None or f.out or t.out:
                return None
            w = rules.warbands[f.side].weapon(c.weapon) if c.weapon is not None else None
            at = Attack("shoot", f.key, t.key, "announce_attack", defender=t.key, aimed=c.aimed,
                        band=sh.range_band(rules.chars(f).throw, rules.edge_cm(f, t)),
                        sight=rules._sight_word(st, f, t), moved_before=f.status.moved,
                        weapon=w.id if w else None,
                        weapon_bonus=sh.thrown_weapon_bonus(w.bonus if w else None, rules.opts))
            if not c.aimed and len(rules.melee_group(st, t)) > 1:
                note = MELEE_NOTE
        elif isinstance(c, MeleeAttack):
            f, t = st.fighters.get(c.attacker), st.fighters.get(c.target)
            if f is None or t is None or f.out or t.out:
                return None
            w = rules.weapon_for(f, "melee")
            at = Attack("melee", f.key, t.key, "announce_attack", defender=t.key,
                        weapon=w.id if w else None, weapon_bonus=w.bonus if w else 0)
        elif isinstance(c, Announce):
            cur = st.attack
            if cur is None or cur.defender is None:
                return None
            if cur.stage == "announce_attack" and c.fighter == cur.attacker:
                at = replace(cur, attack_ap=c.ap, back=c.back, defence_ap=0)
            elif cur.stage == "announce_defence" and c.fighter == cur.defender:
                # the defender's extra dice: the attack as announced, against this many more dice
                at = replace(cur, defence_ap=c.ap)
            else:
                return None
        if at is None:
            return None
        att, dfs = rules.pools(st, at)
    except sh.ShootingError:
        return None
    a, d = st.fighters[at.attacker], st.fighters[at.defender]
    (na, pa), (nd, pd) = att.counts(rules.opts), dfs.counts(rules.opts)
    o = odds.duel_odds(at.kind, (na, pa), (nd, pd), health=d.health, protection=rules.protection(d),
                       back_shot=at.back is not None, target_on_ground=d.on_ground,
                       aggressiveness_this_turn=d.status.aggressiveness, options=rules.opts)
    hit, wounded, out = float(o.hit), float(o.wounded), float(o.out)
    outcomes = (("hit", hit), ("1+ damage", wounded), ("out of action", out))
    others = [("instant death", float(o.instant_death)), ("force attack", float(o.force_attack))]
    if at.kind == "shoot":
        others.append(("low ammunition", float(o.low_ammunition)))
    pools = f"{na} dice" + (f" + {pa} penalty" if pa else "") + f" vs {nd}" + (f" + {pd} penalty" if pd else "")
    verb = "throws at" if at.kind == "shoot" else "strikes"
    summary = (f"{a.name} {verb} {d.name}: {pct(hit)} to hit, {pct(wounded)} to wound, "
               f"{pct(out)} to take out ({pools})")
    return AttackOdds(a.key, d.key, summary, outcomes, True, "exact", odds.ASSUMES + note, tuple(others))
