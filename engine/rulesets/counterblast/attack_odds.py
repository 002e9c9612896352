"""``CounterblastRules.attack_odds``: the exact odds of a Shoot, Strike, split attack, Psi Strike or
attacking reaction (Return fire, Snapshot, Counterstrike), as an ``engine.core.odds.AttackOdds``.

The numbers are those of ``odds.attack_odds`` (attack check x weapon damage, then the target's
Defense check, then Down / casualty against its Mettle), with the pools, difficulties and
explosions the state machine would roll now (``_shot_params``, ``_strike_params``, cover,
Aim-Assist and Dog-pile dice, the dice cap), so the "to put them Down" figure is the one the
option's label shows (``_describe_shot`` / ``_describe_strike``).

Assumption (the label's too): the target does not react. A Parry adds its Grit to the Defense
pool, an Action roll may move it out of the shot and a Disperse may cancel a Psi Strike; Return fire and Counterstrike are
simultaneous and do not change this attack's odds. Nothing is hidden in Counterblast, so the
odds are the same for every player.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from engine.core.odds import AttackOdds, pct

from . import attacks, conditions, damage, odds
from .choices import PsiStrike, React, Shoot, SplitShoot, SplitStrike, Strike

ASSUMES = "the target does not react (no Parry, no Action roll, no Disperse)"


@lru_cache(maxsize=8192)
def chain(dice: int, difficulty: int, weapon_damage: int, explode: int | None, defense_dice: int,
          defense_difficulty: int, mettle: int, tokens: int, down: bool) -> tuple:
    """(P(hit), P(1+ token), P(the goal: Down, or casualty if already Down), P(casualty)) as exact
    Fractions from ``odds.attack_odds``. ``dice`` 0 (a Blind Zap check) never hits."""
    if dice <= 0:
        z = Fraction(0)
        return z, z, z, z
    a = odds.attack_odds(dice, difficulty, weapon_damage, defense_dice, defense_difficulty=defense_difficulty,
                         explode_on=explode, mettle=mettle, current_tokens=tokens)
    hit = 1 - a.successes.p(0)
    wound = a.tokens.at_least(1)
    out = a.outcome
    goal = out.casualty if down else out.down_or_worse
    return hit, wound, goal, out.casualty


def _one(rules, st, attacker: str, target: str, kind: str, weapon: str, *, pool: int | None,
         active: bool) -> AttackOdds:
    """One attack check on one target. ``pool``: a split attack's share of the dice (None: the
    whole Zap/Grit pool); ``active``: the attacker is a member of the activation (Aim-Assist,
    Dog-pile and Aim count only then, as in ``_attack_check``). An Aim helps every share of a
    split shot (one instance of the action; ``_resolve_attack`` uses it up after all of them)."""
    a = st.act
    am, tm = st.models[attacker], st.models[target]
    prof = rules.profile[target]
    if kind == "shoot":
        wpn = rules.armoury.shooting_weapon(weapon)
        diff, explode = rules._shot_params(st, attacker, weapon, target)
        bonus = a.assist.get(attacker, 0) if (active and a is not None) else 0
        if conditions.zap_auto_zero(am.conditions):
            dice = 0
        else:
            dice = attacks.pool_size(rules.zap(st, attacker) if pool is None else pool,
                                     bonus if pool is None else 0, rules.opt)
        cov = rules.cover(st, attacker, target)
        ddice = damage.defense_pool(prof.defense, cover=cov, attack="shoot", options=rules.opt)
        how = f"difficulty {diff}" + (f", {cov} cover" if cov != "none" else "")
    elif kind == "psi":
        wpn = rules.enigma(attacker, weapon)
        diff, explode = wpn.difficulty, 10
        ability = attacks.psi_ability(rules.zap(st, attacker), rules.grit(st, attacker),
                                      rules.profile[attacker].knack, rules.opt)
        dice = attacks.pool_size(ability, 0, rules.opt)
        ddice = damage.defense_pool(prof.defense, attack="psi", options=rules.opt)
        how = f"difficulty {diff}"
    else:
        wpn = rules.armoury.striking_weapon(weapon)
        diff, explode = rules._strike_params(st, attacker, weapon, target)
        bonus = a.dog_pile.get(target, 0) if (active and a is not None) else 0
        dice = attacks.pool_size(rules.grit(st, attacker) if pool is None else pool, bonus, rules.opt)
        ddice = damage.defense_pool(prof.defense, attack="strike", options=rules.opt)
        how = f"difficulty {diff}"
    hit, wound, goal, cas = (float(x) for x in chain(dice, diff, wpn.damage, explode, ddice,
                                                     rules.opt.defense_difficulty, prof.mettle,
                                                     tm.tokens, tm.down))
    them = rules._pronoun(target)
    if tm.down:
        outcomes = (("hit", hit), ("1+ token", wound), ("casualty", goal))
        words = f"{pct(hit)} to hit, {pct(wound)} to wound, {pct(goal)} to finish {them}"
    else:
        outcomes = (("hit", hit), ("1+ token", wound), ("Down", goal), ("casualty", cas))
        words = f"{pct(hit)} to hit, {pct(wound)} to wound, {pct(goal)} to put {them} Down"
        if cas > 0:
            words += f" ({pct(cas)} a casualty)"
    verb = {"shoot": "shoots", "strike": "strikes", "psi": "channels a Psi Strike at"}[kind]
    summary = (f"{rules.names[attacker]} {verb} {rules.names[target]}: "
               f"{words} ({dice} dice, {how}; {ddice} Defense dice)")
    return AttackOdds(attacker, target, summary, outcomes, True, "exact", ASSUMES)


def _combined(rules, attacker: str, kind: str, parts: list[AttackOdds]) -> AttackOdds:
    """A split attack: one check per target, each rolled apart, so the chance that at least one
    target suffers an outcome is 1 - the product of the chances that none does."""
    labels = ("hit", "1+ token", "Down or finished")
    outcomes = []
    for i, lab in enumerate(labels):
        miss = 1.0
        for p in parts:
            miss *= 1.0 - p.outcomes[i][1]
        outcomes.append((f"{lab} (any target)", 1.0 - miss))
    verb = "shoots" if kind == "shoot" else "strikes"
    summary = f"{rules.names[attacker]} splits and {verb}: " + "; ".join(
        p.summary.split(": ", 1)[1] + f" on {rules.names[p.target]}" for p in parts)
    return AttackOdds(attacker, parts[0].target if parts else "", summary, tuple(outcomes), True, "exact",
                      ASSUMES, parts=tuple(parts))


def attack_odds(rules, st, c, player) -> AttackOdds | None:
    a = st.act
    if isinstance(c, (Shoot, Strike)):
        kind = "shoot" if isinstance(c, Shoot) else "strike"
        return _one(rules, st, c.model, c.target, kind, c.weapon, pool=None, active=True)
    if isinstance(c, (SplitShoot, SplitStrike)):
        kind = "shoot" if isinstance(c, SplitShoot) else "strike"
        parts = [_one(rules, st, c.model, t, kind, c.weapon, pool=d, active=True)
                 for t, d in zip(c.targets, c.dice)]
        return _combined(rules, c.model, kind, parts)
    if isinstance(c, PsiStrike):
        return _one(rules, st, c.model, c.target, "psi", c.enigma, pool=None, active=True)
    if isinstance(c, React) and c.reaction in ("return_fire", "snapshot", "counterstrike") and c.weapon:
        w = st.window
        if not w or "actor" not in w:
            return None
        kind = "strike" if c.reaction == "counterstrike" else "shoot"
        active = a is not None and c.model in a.members
        return _one(rules, st, c.model, w["actor"], kind, c.weapon, pool=None, active=active)
    return None
