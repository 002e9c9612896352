"""Words: the view, the pieces the client draws, each option's label (with the cached odds of an
attack that the label quotes) and the ``attack_odds`` entry point. The words of each choice type
are in ``choice_words``.
"""
from __future__ import annotations

from functools import lru_cache

from engine.core.board import piece
from engine.rulesets.common import MoveTo

from .. import attacks, conditions, damage, odds, scoring
from ..choices import Shoot, Strike
from .choice_words import CHOICE_WORDS
from .common import MM, PRONE_HEIGHT_MM

# condition name -> its marker on a piece: the rules' own word (Half-blind, Panicked), done once
_CAPITALIZED = {c: conditions.NAMES.get(c, c.capitalize()) for c in conditions.CONDITIONS}


@lru_cache(maxsize=4096)
def _check_floats(n, difficulty, explode) -> tuple:
    """``odds.check_dist`` (exact) as floats, cached: P(successes = k) for k = 0, 1, ..."""
    d = odds.check_dist(n, difficulty, explode)
    top = max(d.pmf, default=0)
    return tuple(float(d.p(k)) for k in range(top + 1))


@lru_cache(maxsize=8192)
def _attack_chance(dice, difficulty, damage_, explode, defense_dice, mettle, tokens, already_down) -> float:
    """Chance that an attack puts the target Down (or, if it is Down already, makes it a
    casualty): the attack check and the Defense check from ``odds.check_dist``, combined as in
    ``odds.attack_odds`` (successes x damage = raw; tokens = max(0, raw - Defense successes))."""
    att = _check_floats(dice, difficulty, explode)
    dfn = _check_floats(defense_dice, 7, 10)
    cum = [0.0]
    for q in dfn:
        cum.append(cum[-1] + q)           # cum[r] = P(Defense successes < r)
    need = mettle * 2 + 1 - tokens if already_down else mettle - tokens
    p = 0.0
    for s, ps in enumerate(att):
        raw = s * damage_
        if raw < need or ps == 0.0:
            continue
        k_max = raw - need                # Defense successes that still leave enough tokens
        p += ps * (cum[k_max + 1] if k_max + 1 < len(cum) else 1.0)
    return min(1.0, p)


class WordsRules:
    """What the players read: the view, the pieces the client draws, each option's label with its odds."""

    def view(self, st, player, drawing: bool = True) -> dict:
        models, pieces = self._model_entries(st, drawing)
        v = {
            "ruleset": self.id, "turn": st.turn, "phase": st.phase, "active": st.active,
            "mission": self.mission.id, "moxie": dict(st.moxie), "dread": dict(st.dread),
            "leader": dict(st.leader), "passed": list(st.passed),
            "models": models,
            "activation": None if st.act is None else {"player": st.act.player, "members": list(st.act.members),
                                                       "actions_left": st.act.actions_left, "step": st.act.step},
            "opened_doors": list(st.opened),
            "final": st.final,
            "objectives": self._objective_view(st),
        }
        if drawing:
            v["pieces"] = pieces
        return self.deploy_view(st, player, drawing, v)

    def _objective_view(self, st) -> list[dict]:
        """Each marker of the mission with who holds it now (the crew with more models not Down
        within its range, as scored at the end of the game) and who has hacked it; kept per
        positions, as views are asked for often."""
        key = (tuple(st.hacked.get(1, ())), tuple(st.hacked.get(2, ())),
               tuple((i, m.x, m.y, m.down, m.on_table) for i, m in st.models.items()))
        memo = self.__dict__.setdefault("_objective_memo", {})
        if key not in memo:
            if len(memo) > 512:
                memo.clear()
            out = []
            ranges = {}
            for o in self.mission.objectives:
                if o.kind == "control_markers":
                    for mk in self.markers:
                        if not o.markers or mk in o.markers:
                            ranges[mk] = o.range * MM
            for mk, (x, y) in self.markers.items():
                held = None
                if mk in ranges:
                    counts = {q: sum(1 for i in self.on_table(st, q) if not st.models[i].down and
                                     self._to_point(st, i, x, y) <= ranges[mk])
                              for q in (1, 2)}
                    held = scoring.marker_controller(counts)
                out.append({"id": mk, "x": x, "y": y, "held_by": held,
                            "hacked_by": [q for q in (1, 2) if mk in st.hacked.get(q, ())]})
            memo[key] = out
        return [dict(o, hacked_by=list(o["hacked_by"])) for o in memo[key]]

    def _model_entries(self, st, drawing: bool = True) -> tuple[dict, list | None]:
        """The view's ``models`` and ``pieces`` (None without ``drawing``), asked for at every
        view: each model's two entries are kept with the key of everything they are made of (the
        rest is static: names, profiles), the piece built when first drawn, and handed out as
        copies with their own lists."""
        cache = self.__dict__.setdefault("_entries", {})
        leader = st.leader
        members = st.act.members if st.act is not None else ()
        got = {}
        for i, m in st.models.items():
            key = (m.x, m.y, m.z, m.tokens, m.down, m.stable, m.casualty, tuple(m.conditions), m.player,
                   leader.get(m.player) == i, i in members)
            c = cache.get(i)
            if c is None or c[0] != key:
                c = cache[i] = [key, {"name": self.names[i], "player": m.player, "x": m.x, "y": m.y, "z": m.z,
                                      "tokens": m.tokens, "down": m.down, "stable": m.stable,
                                      "casualty": m.casualty, "conditions": list(m.conditions)},
                                None]
            got[i] = c
        models = {}
        for i, c in got.items():
            d = models[i] = dict(c[1])
            d["conditions"] = list(d["conditions"])
        if not drawing:
            return models, None
        pieces = []
        for i in st.order:
            c = got[i]
            if c[2] is None:
                c[2] = self._piece(st, st.models[i])
            d = dict(c[2])
            d["markers"], d["profile"] = list(d["markers"]), list(d["profile"])
            pieces.append(d)
        return models, pieces

    def _profile_lines(self, mid: str) -> list[str]:
        """A model's profile in words: static, so worded once per game set-up."""
        cache = self.__dict__.setdefault("_profile_words", {})
        if mid not in cache:
            p = self.profile[mid]
            prof = [f"{p.role} {p.kind}, size {p.size}, {p.base_mm} mm base",
                    f"Move {p.move}  Zap {p.zap}  Grit {p.grit}  Defense {p.defense}  Knack {p.knack}  Mettle {p.mettle}"]
            if p.shooting:
                prof.append("shoots: " + ", ".join(self._wname("shoot", w) for w in p.shooting))
            if p.striking:
                prof.append("strikes: " + ", ".join(self._wname("strike", w) for w in p.striking))
            if p.special:
                prof.append("abilities: " + ", ".join(p.special))
            cache[mid] = prof
        return cache[mid]

    def _piece(self, st, m) -> dict:
        """The model in the shared shape of ``engine.core.board`` (what the client draws)."""
        mid = m.id
        p = self.profile[mid]
        marks = [f"{m.tokens} damage"] if m.tokens else []
        if m.down:
            marks.append("Down")
        if m.stable:
            marks.append("Stable")
        if m.conditions:
            marks += [_CAPITALIZED.get(c) or c.capitalize() for c in m.conditions]
        if st.leader.get(m.player) == mid:
            marks.append("Leader")
        height = PRONE_HEIGHT_MM if (m.down or "prone" in m.conditions) else p.height_mm
        active = st.act is not None and mid in st.act.members
        return piece(mid, m.player, self.names[mid], m.x, m.y, m.z, p.base_mm / 2, height,
                     out=m.casualty, health=f"{m.tokens} tokens / Mettle {p.mettle}",
                     markers=marks, active=active, profile=self._profile_lines(mid))

    def option_label(self, st, c) -> str:
        """``describe_choice`` of an option the rules made (``Labels`` asks, when a label is
        read). Only a move's, a Shoot's and a Strike's wording reads the state (distance, odds);
        the others name models, weapons and pieces only, so they are kept per option (equal
        options of the rules' own making have the same fields, so the same words)."""
        if isinstance(c, (MoveTo, Shoot, Strike)):
            return self.describe_choice(st, c)
        cache = self.__dict__.setdefault("_static_labels", {})
        got = cache.get(c)
        if got is None:
            if len(cache) > 8192:
                cache.clear()
            got = cache[c] = self.describe_choice(st, c)
        return got

    def describe_choice(self, st, c) -> str:
        return CHOICE_WORDS(self, st, c)

    def attack_odds(self, st, c, player):
        """Exact odds of a Shoot, Strike, split attack, Return fire, Snapshot or Counterstrike
        (``attack_odds.attack_odds``); None for any other choice."""
        from .. import attack_odds as _attack_odds
        return _attack_odds.attack_odds(self, st, c, player)

    def _pronoun(self, mid):
        return "it" if self.profile[mid].kind == "robot" else "them"

    def _describe_shot(self, st, mid, wid, target) -> str:
        wpn = self.armoury.shooting_weapon(wid)
        a = st.act
        am, tm = st.models[mid], st.models[target]
        diff, explode = self._shot_params(st, mid, wid, target)
        bonus = a.assist.get(mid, 0) if a is not None else 0
        dice = 0 if conditions.zap_auto_zero(am.conditions) else attacks.pool_size(self.zap(st, mid), bonus, self.opt)
        cov = self.cover(st, mid, target)
        ddice = damage.defense_pool(self.profile[target].defense, cover=cov, attack="shoot", options=self.opt)
        p = _attack_chance(dice, diff, wpn.damage, explode, ddice, self.profile[target].mettle,
                           tm.tokens, tm.down)
        goal = "finish " + self._pronoun(target) if tm.down else "put " + self._pronoun(target) + " Down"
        cv = f", {cov} cover" if cov != "none" else ""
        return (f"{self.names[mid]} shoots {self.names[target]} with the {wpn.name} "
                f"(difficulty {diff}{cv}, {p:.0%} to {goal}{self._inflict_odds(wpn.inflicts, dice, diff, explode, tm)})")

    def _describe_strike(self, st, mid, wid, target) -> str:
        wpn = self.armoury.striking_weapon(wid)
        tm = st.models[target]
        diff, explode = self._strike_params(st, mid, wid, target)
        bonus = st.act.dog_pile.get(target, 0) if st.act is not None else 0
        dice = attacks.pool_size(self.grit(st, mid), bonus, self.opt)
        ddice = damage.defense_pool(self.profile[target].defense, attack="strike", options=self.opt)
        p = _attack_chance(dice, diff, wpn.damage, explode, ddice, self.profile[target].mettle,
                           tm.tokens, tm.down)
        goal = "finish " + self._pronoun(target) if tm.down else "put " + self._pronoun(target) + " Down"
        return (f"{self.names[mid]} strikes {self.names[target]} with the {wpn.name} "
                f"(difficulty {diff}, {p:.0%} to {goal}{self._inflict_odds(wpn.inflicts, dice, diff, explode, tm)})")

    def _inflict_odds(self, inflicts, dice, diff, explode, tm) -> str:
        """", 61% to leave it Burning" for a weapon whose rule triggers on a hit (tokens: not shown)."""
        if inflicts is None or inflicts.when != "hit" or tm.has(inflicts.condition):
            return ""
        p_hit = 1.0 - _check_floats(dice, diff, explode)[0] if dice else 0.0
        return f", {p_hit:.0%} to leave {self._pronoun(tm.id)} {conditions.NAMES[inflicts.condition]}"
