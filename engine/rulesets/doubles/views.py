"""Doubles: what the players see, the view of the state and the choices in words.

``view`` gives the state as a player sees it (every fighter, the track, the attack in progress
with its dice, the weapons lying on the table, and the pieces the client draws);
``describe_choice`` words each choice ("Lokee throws his flint knife at Bones (short range)"), by
the table in ``choice_words``;
``aim_info`` and ``ranges`` are the client's aids (sight word, edge-to-edge distance and range
band; the range rings). ``ViewMixin`` gives ``DoublesRules`` these; none changes the state.
"""
from __future__ import annotations

from engine.core import Choice
from engine.core.board import piece
from engine.rulesets.common import copied_piece

from . import shooting as sh
from .choice_words import CHOICE_WORDS
from .state import BASE_RADIUS_MM, MODEL_HEIGHT_MM, DoublesState, FighterState


class ViewMixin:
    """The view, the words and the client's aids (part of ``DoublesRules``)."""

    def view(self, st: DoublesState, player: int | None, drawing: bool = True) -> dict:
        at = st.attack
        fighters = []
        for f in st.fighters.values():
            fighters.append({
                "key": f.key, "side": f.side, "name": f.name, "x": f.x, "y": f.y, "z": f.z, "facing": f.facing,
                "health": f.health, "max_health": self.chars(f).health, "ap": f.ap, "on_ground": f.on_ground,
                "out": f.out, "weapons": list(f.weapons), "activated": f.activated,
                "cover": f.status.cover, "aggressiveness": f.status.aggressiveness,
                "shots_taken": f.status.shots_taken, "moved": f.status.moved,
                "low_ammunition": f.status.low_ammunition, "ammo_blocked": f.ammo_blocked,
                "path": [list(p) for p in f.path],
            })
        v: dict = {"ruleset": self.id, "turn": st.turn, "turn_limit": self.opts.turn_limit, "active": st.active,
                   "acting": st.acting, "track": [[e.fighter, e.value] for e in st.track], "fighters": fighters,
                   "finished": st.finished, "points": list(st.points), "attack": None,
                   "dropped": [{"side": s, "weapon": w, "x": x, "y": y} for s, w, x, y in st.dropped]}
        if st.mission is not None:
            v["mission"] = self._mission_view(st)
        if drawing:
            v["pieces"] = [self._piece(st, f) for f in st.fighters.values()]
        if at is not None:
            v["attack"] = {"kind": at.kind, "attacker": at.attacker, "target": at.target, "defender": at.defender,
                           "stage": at.stage, "band": at.band, "sight": at.sight, "back": at.back}
            if at.duel is not None:
                v["attack"]["dice"] = {r: {"dice": [[x.id, x.value, x.penalty] for x in at.duel.side(r).dice],
                                           "kept": list(at.duel.side(r).kept or ()),
                                           "set_aside": [[x.id, x.value, x.penalty] for x in at.duel.side(r).set_aside],
                                           "effects": list(at.duel.side(r).effects)}
                                       for r in ("attacker", "defender")}
        return self.deploy_view(st, player, drawing, v)

    def _piece(self, st: DoublesState, f: FighterState) -> dict:
        """The fighter in the shared shape of ``engine.core.board`` (what the client draws)."""
        active = st.acting == f.key
        relic = self._marker_name(self.carried_by(st, f.key)) if st.mission is not None and self.carried_by(st, f.key) else ""
        key = (f.key, f.side, f.fid, f.name, f.x, f.y, f.z, f.facing, f.out, f.health, f.ap, f.on_ground,
               f.status.aggressiveness, f.status.low_ammunition, f.activated, tuple(f.weapons), active, relic)
        return copied_piece(self, key, lambda: self._build_piece(f, active, relic))

    def _build_piece(self, f: FighterState, active: bool, relic: str = "") -> dict:
        c = self.chars(f)
        marks = [f"{f.ap} AP"] + (["on the ground"] if f.on_ground else []) \
            + ([f"aggressiveness {f.status.aggressiveness}"] if f.status.aggressiveness else []) \
            + (["low ammunition"] if f.status.low_ammunition else []) + (["activated"] if f.activated else []) \
            + ([f"carries the {relic}"] if relic else [])
        cache = self.__dict__.setdefault("_profile_words", {})
        key = (f.key, tuple(f.weapons))
        if key not in cache:   # worded once per fighter and weapons held (weapons are thrown and lost)
            armour = self.armour(f)
            cache[key] = [f"Combat {c.combat}  Throw {c.throw}  Defence {c.defence}  Aptitude {c.aptitude}",
                          f"Movement {c.movement} cm/AP  Initiative {c.initiative}  AP {c.action_points}",
                          "weapons: " + (", ".join(self.warbands[f.side].weapon(w).name for w in f.weapons) or "none")
                          + (f"; armour: {armour.name}" if armour else "")]
        lines = cache[key]
        return piece(f.key, f.side, f.name, f.x, f.y, f.z, BASE_RADIUS_MM, MODEL_HEIGHT_MM, facing=f.facing, out=f.out,
                     health=f"{f.health}/{c.health} health", markers=marks, active=active,
                     profile=lines)

    def aim_info(self, st: DoublesState, attacker: str, target: str) -> list[str]:
        f, t = st.fighters.get(attacker), st.fighters.get(target)
        if f is None or t is None:
            return []
        word = self._sight_word(st, f, t).replace("_", " ")
        cm = self.table.distance(self.base(f), self.base(t)) / 10.0
        band = sh.range_band(self.chars(f).throw, cm).replace("_", " ")
        return [f"sight: {word}", f"{cm:.1f} cm edge to edge: {band} range" if band != "out of range" else
                f"{cm:.1f} cm edge to edge: out of range"]

    def ranges(self, st: DoublesState, model: str) -> list[tuple[str, float]]:
        f = st.fighters.get(model)
        if f is None:
            return []
        return [(f"{band.replace('_', ' ')} range", hi * 10.0) for band, lo, hi in sh.range_bands(self.chars(f).throw)]

    def describe_choice(self, st: DoublesState, c: Choice) -> str:
        return CHOICE_WORDS(self, st, c)

    def _thrown_words(self, f: FighterState, weapon: str | None) -> str:
        if weapon is None:
            return "a stone"
        try:
            return f"his {self.warbands[f.side].weapon(weapon).name.lower()}"
        except KeyError:        # an unknown weapon id (UnknownId)
            return repr(weapon)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
