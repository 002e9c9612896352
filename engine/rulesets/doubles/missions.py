"""Doubles' missions (ours: the seed covers shooting only; docs/rules/doubles.md, "Missions").

- ``fight`` (the default): the plain game of ``turn.victory`` (enemy fighters taken out score
  their victory points; a side wiped out loses at once), exactly as before missions existed: the
  state keeps no mission part, so its hash is unchanged.
- ``standing-stones``: the map's objective markers are standing stones. At the end of each turn a
  side scores ``stones_points`` for each stone that only its fighters on their feet are near (base
  edge within ``stones_distance_cm``); a stone with both sides near it is contested.
- ``relic-hunt``: each marker is a relic lying on the ground. A fighter on its feet, not engaged,
  within ``relic_reach_cm`` of a relic and carrying none may pick it up (``relic_pick_up_ap`` AP),
  unless an enemy fighter on its feet is as near; it drops the relic where it stands when it is
  knocked to the ground or put out of action. At the end of each turn a side scores
  ``relic_points`` for each relic one of its fighters carries.

In a mission, a side wiped out still loses at once; at the end of turn ``turn_limit`` the side
with more mission points wins, the fight's victory points break a tie, then it is a draw.
``MissionMixin`` gives ``DoublesRules`` the missions, the hooks the turn calls, the relic action
and the scoreboard.
"""
from __future__ import annotations

from dataclasses import replace

from engine.core import Event, MissionInfo, Scoreboard, ScoreLine
from engine.rulesets import markers as mk

from . import turn as tn
from .choices import TakeRelic
from .state import BASE_RADIUS_MM, DoublesState, FighterState

FIGHT, STONES, RELICS = "fight", "standing-stones", "relic-hunt"
DOC = "docs/rules/doubles.md, Missions"
POINTS_WORD = {STONES: "stone points", RELICS: "relic points"}

MISSIONS = {
    FIGHT: MissionInfo(FIGHT, "The fight", "Take enemy fighters out of action: after the last turn the side that "
                       "scored more victory points (the values of the enemies it took out) wins; a side with no "
                       "fighter left loses at once.", 0, True, DOC),
    STONES: MissionInfo(STONES, "Standing Stones", "The markers are standing stones. At the end of each turn a side "
                        "scores a point for each stone only its fighters on their feet are near; after the last turn "
                        "the most points win (victory points break a tie; a side wiped out loses at once).",
                        1, True, DOC),
    RELICS: MissionInfo(RELICS, "Relic Hunt", "Each marker is a relic. Pick one up (1 AP) and keep it: at the end "
                        "of each turn a side scores a point for each relic it carries; a carrier knocked down or out "
                        "drops it. After the last turn the most points win (victory points break a tie).",
                        1, True, DOC),
}


class MissionMixin(mk.MarkerMissions):
    """The missions of ``DoublesRules`` (a mixin: it reads the rules' options, table and fighters;
    the look-ups and the set-up are ``markers.MarkerMissions``')."""

    MISSIONS = MISSIONS

    def _mission_start(self) -> dict | None:
        if self.mission == STONES:
            return {"points": {1: 0, 2: 0}}
        if self.mission == RELICS:
            return {"points": {1: 0, 2: 0},
                    "relics": {m.id: {"x": m.x, "y": m.y, "carrier": ""} for m in self.markers}}
        return None

    # --- reading the table ------------------------------------------------------------------------
    def near_counts(self, st: DoublesState, marker: mk.MarkerPoint) -> dict[int, int]:
        """Fighters of each side in play and on their feet with their base edge within
        ``stones_distance_cm`` of a marker."""
        reach = self.opts.stones_distance_cm * 10.0
        out = {1: 0, 2: 0}
        for f in st.fighters.values():
            if not f.out and not f.on_ground and mk.within(f.x, f.y, BASE_RADIUS_MM, marker, reach):
                out[f.side] += 1
        return out

    def stones(self, st: DoublesState) -> dict[str, int | None]:
        """Each stone's holder now (marker id -> side; None: nobody, or contested)."""
        return {m.id: mk.holder(self.near_counts(st, m)) for m in self.markers}

    def relic_point(self, st: DoublesState, rid: str) -> tuple[float, float]:
        r = st.mission["relics"][rid]
        c = st.fighters.get(r["carrier"]) if r["carrier"] else None
        return (c.x, c.y) if c is not None else (r["x"], r["y"])

    def carried_by(self, st: DoublesState, key: str) -> str:
        """The relic ``key`` carries ("" none)."""
        if st.mission is None or "relics" not in st.mission:
            return ""
        return next((rid for rid, r in st.mission["relics"].items() if r["carrier"] == key), "")

    def _relic_options(self, st: DoublesState, f: FighterState) -> list[TakeRelic]:
        """Relic Hunt: the relics ``f`` may pick up now (on its feet, not engaged, the AP, no relic
        carried, a relic lying within reach with no enemy on its feet as near)."""
        if self.mission != RELICS or st.mission is None or f.on_ground or f.ap < self.opts.relic_pick_up_ap \
                or self.carried_by(st, f.key) or self.engaged_with(st, f):
            return []
        reach = self.opts.relic_reach_cm * 10.0
        out = []
        for m in self.markers:
            r = st.mission["relics"][m.id]
            if r["carrier"]:
                continue
            pt = mk.MarkerPoint(m.id, m.name, r["x"], r["y"])
            if not mk.within(f.x, f.y, BASE_RADIUS_MM, pt, reach):
                continue
            if any(e.side != f.side and not e.out and not e.on_ground and mk.within(e.x, e.y, BASE_RADIUS_MM, pt, reach)
                   for e in st.fighters.values()):
                continue
            out.append(TakeRelic(f.key, m.id))
        return out

    # --- the hooks the turn calls -----------------------------------------------------------------
    def _take_relic(self, st: DoublesState, f: FighterState, c: TakeRelic, ev: list) -> None:
        from .choices import RulesError
        if c not in self._relic_options(st, f):
            raise RulesError(f"{f.name} cannot pick up that relic now")
        f.ap -= self.opts.relic_pick_up_ap
        st.mission["relics"][c.relic]["carrier"] = f.key
        ev.append(Event(f"{f.name} picks up the {self._marker_name(c.relic)}", "mission",
                        {"fighter": f.key, "relic": c.relic, "ap": f.ap}))

    def _marker_name(self, mid: str) -> str:
        return next((m.name for m in self.markers if m.id == mid), mid)

    def _mission_after_hit(self, st: DoublesState, d: FighterState, ev: list) -> None:
        """Relic Hunt: a carrier knocked to the ground or put out of action drops its relic."""
        if self.mission != RELICS or st.mission is None:
            return
        rid = self.carried_by(st, d.key)
        if rid and (d.out or d.on_ground):
            r = st.mission["relics"][rid]
            r["x"], r["y"], r["carrier"] = d.x, d.y, ""
            ev.append(Event(f"{d.name} drops the {self._marker_name(rid)}", "mission", {"fighter": d.key, "relic": rid}))

    def _mission_end_of_turn(self, st: DoublesState, ev: list) -> None:
        """Each side scores its stones held (Standing Stones) or relics carried (Relic Hunt)."""
        if st.mission is None:
            return
        pts = st.mission["points"]
        words = []
        if self.mission == STONES:
            for m in self.markers:
                h = mk.holder(self.near_counts(st, m))
                if h is not None:
                    pts[h] += self.opts.stones_points
                words.append(f"{m.name}: " + (f"side {h}" if h else "nobody"))
        else:
            for m in self.markers:
                c = st.mission["relics"][m.id]["carrier"]
                f = st.fighters.get(c) if c else None
                if f is not None and not f.out:
                    pts[f.side] += self.opts.relic_points
                    words.append(f"{m.name}: {f.name} (side {f.side})")
                else:
                    words.append(f"{m.name}: on the ground")
        ev.append(Event(f"End of turn {st.turn}, {POINTS_WORD[self.mission]}: {'; '.join(words)}. "
                        f"Score {pts[1]}-{pts[2]}", "score", {"points": [pts[1], pts[2]]}))

    def _mission_victory(self, st: DoublesState, v: tn.Victory) -> tn.Victory:
        """The fight's verdict ``v`` as a mission reads it: a wipe-out stands; at the turn limit the
        mission points decide, the fight's victory points break a tie."""
        if st.mission is None or not v.over:
            return v
        if any(all(f.out for f in st.fighters.values() if f.side == s) for s in (1, 2)):
            return v
        pa, pb = st.mission["points"][1], st.mission["points"][2]
        word = POINTS_WORD[self.mission]
        lim = self.opts.turn_limit
        if pa != pb:
            w = 1 if pa > pb else 2
            return tn.Victory(True, w, f"turn limit {lim}: side {w} has more {word} ({max(pa, pb)} to {min(pa, pb)})",
                              v.points)
        va, vb = v.points
        if va != vb:
            w = 1 if va > vb else 2
            return tn.Victory(True, w, f"turn limit {lim}: level on {word} ({pa} each); side {w} has more "
                                       f"victory points ({max(va, vb)} to {min(va, vb)})", v.points)
        return tn.Victory(True, None, f"turn limit {lim}: level on {word} ({pa} each) and on victory points", v.points)

    def _mission_scores(self, st: DoublesState) -> dict:
        word = POINTS_WORD[self.mission].replace(" ", "_")
        return {s: {word: st.mission["points"][s], "victory_points": st.points[s - 1]} for s in (1, 2)}

    def _mission_view(self, st: DoublesState) -> dict | None:
        if st.mission is None:
            return None
        out = {"id": self.mission, "points": {str(s): st.mission["points"][s] for s in (1, 2)},
               "markers": [{"id": m.id, "name": m.name, "x": m.x, "y": m.y} for m in self.markers]}
        if self.mission == STONES:
            out["stones"] = self.stones(st)
            out["distance_mm"] = self.opts.stones_distance_cm * 10.0
        else:
            out["relics"] = {rid: {"x": self.relic_point(st, rid)[0], "y": self.relic_point(st, rid)[1],
                                   "carrier": r["carrier"]} for rid, r in st.mission["relics"].items()}
            out["reach_mm"] = self.opts.relic_reach_cm * 10.0
        return out

    # --- the scoreboard ---------------------------------------------------------------------------
    def scoreboard(self, st: DoublesState) -> Scoreboard:
        """The standing of the game (every fact in it is public). While the warbands deploy: the
        mission and what wins, no score (a fighter placed unseen never shows through)."""
        sb = self._scoreboard(st)
        if st.deploy is not None:
            return replace(sb, lines=(), notes=("The warbands are deploying",))
        return sb

    def _scoreboard(self, st: DoublesState) -> Scoreboard:
        lim = self.opts.turn_limit
        v = self._victory(st, turn_over=False) if not st.finished else None
        vp = v.points if v is not None else st.points
        left = {s: sum(1 for f in st.fighters.values() if f.side == s and not f.out) for s in (1, 2)}
        size = {s: sum(1 for f in st.fighters.values() if f.side == s) for s in (1, 2)}
        lines = [ScoreLine("Victory points", {s: str(vp[s - 1]) for s in (1, 2)}),
                 ScoreLine("Fighters left", {s: f"{left[s]} of {size[s]}" for s in (1, 2)})]
        notes: list[str] = []
        if self.mission == FIGHT:
            wins = (f"After turn {lim}, more victory points (each enemy fighter you take out scores its value); "
                    "a side with no fighter left loses at once")
            return Scoreboard(self.mission_info.name, wins, st.turn, lim, tuple(lines), tuple(notes))
        pts = st.mission["points"]
        names = {m.id: m.name for m in self.markers}
        lines.insert(0, ScoreLine(POINTS_WORD[self.mission].capitalize(), {s: str(pts[s]) for s in (1, 2)}))
        if self.mission == STONES:
            now = self.stones(st)
            lines.insert(1, ScoreLine("Stones held now", {s: ", ".join(names[k] for k, h in now.items() if h == s)
                                                          or "none" for s in (1, 2)}))
            contested = [names[m.id] for m in self.markers if all(n > 0 for n in self.near_counts(st, m).values())]
            if contested:
                notes.append("Contested: " + ", ".join(contested))
            wins = (f"Most stone points after turn {lim}: {self.opts.stones_points} a turn for each stone only your "
                    f"fighters on their feet are within {self.opts.stones_distance_cm:g} cm of; victory points break "
                    "a tie; a side with no fighter left loses at once")
        else:
            carried = {s: [] for s in (1, 2)}
            lying = []
            for rid, r in st.mission["relics"].items():
                f = st.fighters.get(r["carrier"]) if r["carrier"] else None
                if f is not None:
                    carried[f.side].append(f"{names[rid]} ({f.name})")
                else:
                    lying.append(names[rid])
            lines.insert(1, ScoreLine("Relics carried", {s: ", ".join(carried[s]) or "none" for s in (1, 2)}))
            if lying:
                notes.append("On the ground: " + ", ".join(lying))
            wins = (f"Most relic points after turn {lim}: {self.opts.relic_points} a turn for each relic one of your "
                    "fighters carries (a carrier knocked down or out drops it); victory points break a tie; a side "
                    "with no fighter left loses at once")
        return Scoreboard(self.mission_info.name, wins, st.turn, lim, tuple(lines), tuple(notes))
