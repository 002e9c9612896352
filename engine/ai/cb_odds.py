"""The Counterblast policy's prices: the engine's own odds, fed with numbers from the view.

Every chance here is the rules' attack chain (``attack_odds.chain``: the attack check, raw
damage, the Defense check, Down or casualty against the target's Mettle; read from the floats the
option labels are worded with, ``words._attack_chance``, equal to it to 1e-9) or check
distribution (``odds.check_dist``), with the difficulty, pools and cover the rules' pure
functions give (``attacks.shoot_difficulty``, ``attacks.grit_difficulty``, ``damage.defense_pool``,
``conditions.effective_zap``/``grit``): nothing is re-derived. What the policy may change in them is
only what it asks "what if": a Mark, an Aim, an Aim-Assist or Dog-pile die, a split share of the
dice, a charge into contact. A label the engine wrote for an option already states the
difficulty and the cover of the shot as the rules see them (``_describe_shot``), so a shot that
has an option is priced from its label's numbers; a shot that has none yet (a friend's, after a
Mark) takes its cover from the table's sight as the rules do (``cover_from_sight``).
"""
from __future__ import annotations

import math
import re
from functools import lru_cache

from engine.rulesets.counterblast import abilities, attacks, conditions, damage, odds
from engine.rulesets.counterblast.attack_odds import chain
from engine.rulesets.counterblast.checks import pool_size
from engine.rulesets.counterblast.flow.words import _attack_chance, _check_floats

MM = 25.4
LABEL = re.compile(r"\(difficulty (\d+)(?:, (light|heavy) cover)?")


@lru_cache(maxsize=4096)
def at_least(n: int, difficulty: int, k: int, explode: int | None = 10) -> float:
    """P(a check of ``n`` dice against ``difficulty`` scores at least ``k``), exact."""
    if k <= 0:
        return 1.0
    if n <= 0:
        return 0.0
    return float(odds.check_dist(n, difficulty, explode).at_least(k))


def label_numbers(label: str) -> tuple[int, str] | None:
    """(difficulty, cover) a Shoot or Strike label states, or None."""
    m = LABEL.search(label or "")
    return (int(m.group(1)), m.group(2) or "none") if m else None


def aim_numbers(d, att, left: int) -> tuple[int, str] | None:
    """(difficulty, cover) the label of ``att`` states when it is a Shoot that an Aim or a Mark
    could come before (two actions left), else None: what the shot would be a difficulty lower."""
    if att is None or type(att).__name__ != "Shoot" or left < 2:
        return None
    try:
        return label_numbers(d.labels[d.options.index(att)])
    except (ValueError, IndexError):
        return None


class Odds:
    """Attack prices for one game's rules (static data: profiles, armoury, options)."""

    def __init__(self, rules):
        self.rules = rules
        self.opt = rules.opt

    # ------------------------------------------------------------------ numbers from the view
    def dist_in(self, v, a: str, b: str) -> float:
        """Edge-to-edge distance (inches) between two models of the view, as the rules measure it."""
        ma, mb = v["models"][a], v["models"][b]
        r = self.rules.radius
        return max(0.0, math.hypot(ma["x"] - mb["x"], ma["y"] - mb["y"]) - r[a] - r[b]) / MM

    def zap(self, v, mid) -> int:
        c = v["models"][mid]["conditions"]
        return 0 if conditions.zap_auto_zero(c) else conditions.effective_zap(self.rules.profile[mid].zap, c, self.opt)

    def grit(self, v, mid) -> int:
        return conditions.effective_grit(self.rules.profile[mid].grit, v["models"][mid]["conditions"], self.opt)

    def chance(self, dice, diff, weapon_damage, explode, ddice, target: dict, mettle: int) -> tuple:
        """(hit, 1+ token, Down (or casualty if Down), casualty) as floats: ``chain``'s numbers.
        With the seed's Defense difficulty they come from the floats the option labels are
        worded with (``words._attack_chance``: the same attack and Defense distributions,
        combined the same way; ``chain`` works in exact Fractions, which cost easy a few ms a
        price): 1+ token is the chance of Down against a Mettle of 1, a casualty the chance of
        finishing a Down target."""
        tokens, down = target["tokens"], target["down"]
        if self.opt.defense_difficulty != 7 or dice <= 0:
            return tuple(float(x) for x in chain(dice, diff, weapon_damage, explode, ddice,
                                                 self.opt.defense_difficulty, mettle, tokens, down))
        hit = 1.0 - _check_floats(dice, diff, explode)[0]
        wound = _attack_chance(dice, diff, weapon_damage, explode, ddice, 1, 0, False)
        goal = _attack_chance(dice, diff, weapon_damage, explode, ddice, mettle, tokens, down)
        cas = goal if down else _attack_chance(dice, diff, weapon_damage, explode, ddice, mettle, tokens, True)
        return hit, wound, goal, cas

    # ------------------------------------------------------------------ shots
    def shot_difficulty(self, v, mid, target, *, aimed=False, marked=None) -> int:
        t = v["models"][target]
        return attacks.shoot_difficulty(
            self.dist_in(v, mid, target), aimed=aimed,
            target_marked=("marked" in t["conditions"]) if marked is None else marked,
            shooter_panicked="panic" in v["models"][mid]["conditions"],
            long_difficulty=abilities.long_shot_difficulty(self.rules.abilities[mid]), options=self.opt)

    def shot(self, v, mid, weapon, target, *, cover="none", diff=None, dice=None, bonus=0) -> tuple:
        """The chain of ``mid`` shooting ``target`` with ``weapon``: ``diff`` (else the rules'
        difficulty from where they stand, neither Aimed nor newly Marked), ``dice`` (a split
        share; else the Zap pool with ``bonus`` dice), ``cover`` the target's."""
        wpn = self.rules.armoury.shooting_weapon(weapon)
        if diff is None:
            diff = self.shot_difficulty(v, mid, target)
        if dice is None:
            z = self.zap(v, mid)
            dice = pool_size(z, bonus, self.opt) if z > 0 else 0
        prof = self.rules.profile[target]
        ddice = damage.defense_pool(prof.defense, cover=cover, attack="shoot", options=self.opt)
        return self.chance(dice, diff, wpn.damage, wpn.explode_on, ddice, v["models"][target], prof.mettle)

    # ------------------------------------------------------------------ strikes
    def strike_difficulty(self, v, mid, target, *, attacker_prone=None, target_prone=None) -> int:
        a, t = v["models"][mid], v["models"][target]
        return attacks.grit_difficulty(
            self.grit(v, mid), self.grit(v, target), target_down=t["down"],
            attacker_prone=("prone" in a["conditions"]) if attacker_prone is None else attacker_prone,
            target_prone=("prone" in t["conditions"] or t["down"]) if target_prone is None else target_prone,
            attacker_panicked="panic" in a["conditions"], options=self.opt)

    def strike(self, v, mid, weapon, target, *, dice=None, bonus=0, attacker_prone=None, target_prone=None) -> tuple:
        """The chain of ``mid`` striking ``target`` with ``weapon`` (in reach now or after a charge)."""
        wpn = self.rules.armoury.striking_weapon(weapon)
        diff = self.strike_difficulty(v, mid, target, attacker_prone=attacker_prone, target_prone=target_prone)
        explode = abilities.strike_explode_on(wpn.explode_on, self.rules.abilities[mid])
        if dice is None:
            dice = pool_size(self.grit(v, mid), bonus, self.opt)
        prof = self.rules.profile[target]
        ddice = damage.defense_pool(prof.defense, attack="strike", options=self.opt)
        return self.chance(dice, diff, wpn.damage, explode, ddice, v["models"][target], prof.mettle)

    def best_strike(self, v, mid, target, **kw) -> tuple[str | None, tuple]:
        """(weapon, chain) of the striking weapon with the best chance to put ``target`` Down."""
        best = (None, (0.0, 0.0, 0.0, 0.0))
        for w in self.rules.profile[mid].striking:
            c = self.strike(v, mid, w, target, **kw)
            if best[0] is None or c[2] > best[1][2] + 1e-12:
                best = (w, c)
        return best

    # ------------------------------------------------------------------ psi
    def psi_dice(self, v, mid) -> int:
        ability = attacks.psi_ability(self.zap(v, mid), self.grit(v, mid), self.rules.profile[mid].knack, self.opt)
        return pool_size(ability, 0, self.opt)

    def psi(self, v, mid, enigma_id, target) -> tuple:
        """The chain of ``mid``'s Psi Strike ``enigma_id`` at ``target`` (``attack_odds._one``'s
        numbers: the psi ability's pool, the enigma's difficulty and damage, Defense against psi)."""
        en = self.rules.enigma(mid, enigma_id)
        prof = self.rules.profile[target]
        ddice = damage.defense_pool(prof.defense, attack="psi", options=self.opt)
        return self.chance(self.psi_dice(v, mid), en.difficulty, en.damage, 10, ddice, v["models"][target],
                           prof.mettle)

    def psi_success(self, v, mid, enigma_id) -> float:
        """P(the Psi check of ``enigma_id`` scores at least once): a Psi Craft takes effect."""
        en = self.rules.enigma(mid, enigma_id)
        return at_least(self.psi_dice(v, mid), en.difficulty, 1)

    # ------------------------------------------------------------------ checks
    def knack(self, mid, bonus=0) -> float:
        """P(a Knack/7 check of ``mid`` succeeds), ``bonus`` dice added (Boost)."""
        n = pool_size(self.rules.profile[mid].knack, bonus, self.opt)
        return at_least(n, self.opt.knack_difficulty, 1)


def cover_from_sight(table, shooter, target, others, *, prone: bool, options) -> damage.CoverClass:
    """The target's cover class against ``shooter`` as the rules read it (``GeometryRules.cover``):
    the table's sight between the two bases, the share hidden behind light and heavy terrain,
    ``damage.cover_class`` of those shares."""
    s = table.sight(shooter, target, others)
    blocked = 1.0 - s.visible_fraction
    hidden = blocked + s.obscured_fraction
    heavy = blocked if s.cover == "heavy" else 0.0
    return damage.cover_class(max(0.0, hidden - heavy), heavy, prone=prone, options=options)
