"""Last Hope Frontier's missions (ours: the seed names no way to win at all; docs/rules/frontier.md,
"Missions").

- ``fight`` (the default): the plain fight of ``turns.victory`` (rout, turn limit, wipe-out),
  exactly as before missions existed: the state keeps no mission part, so its hash is unchanged.
- ``claim-jumpers``: the map's objective markers are claims. At the end of each turn a posse
  scores for each marker that only its standing models are near (base edge within
  ``claim_distance_in``): ``claim_points`` on its own half of the table, ``claim_far_points`` on
  the other posse's half (a marker nearer that posse's own table edge); a marker with both posses
  near it is contested and scores for nobody.
- ``strongbox``: the marker nearest the middle of the table is the strongbox. A model that ends a
  move action near it (``strongbox_reach_in``) picks it up unless an enemy model is as near; it
  then moves at ``strongbox_carrier_move`` of its move, drops the box where it stood when put out
  of action, and carrying it off the table (``strongbox_edge_in`` from an edge) at any edge but
  the other posse's own (the one its deployment zone lies along) wins at once.

In a mission the posses do not rout (the option ``victory`` is not read): the game ends when a
posse is wiped out (it loses) or when turn ``turn_limit`` ends, then the mission decides and the
fight's count (models standing, then wounds left) breaks a tie. ``MissionRules`` gives
``FrontierRules`` the missions, the hooks the flow calls and the scoreboard (a mixin).
"""
from __future__ import annotations

import math
from dataclasses import replace

from engine.core import Event, MissionInfo, Scoreboard, ScoreLine
from engine.core.errors import SetupError
from engine.rulesets import markers as mk

from . import turns
from .state import INCH, FrontierState, Model

FIGHT, CLAIMS, STRONGBOX = "fight", "claim-jumpers", "strongbox"
DOC = "docs/rules/frontier.md, Missions"

MISSIONS = {
    FIGHT: MissionInfo(FIGHT, "The fight", "Break the other posse: a posse with half its models out of action at "
                       "the end of a turn is routed and loses; at the turn limit, more models standing, then more "
                       "wounds left, wins.", 0, True, DOC),
    CLAIMS: MissionInfo(CLAIMS, "Claim Jumpers", "The markers are claims. At the end of each turn a posse scores for "
                        "each marker only its models are near: 1 point on its own half, 2 on the enemy's; no rout: at "
                        "the turn limit the most points win (a posse wiped out loses at once).", 1, True, DOC),
    STRONGBOX: MissionInfo(STRONGBOX, "The Strongbox", "The marker nearest the middle is a strongbox. Pick it up, "
                           "carry it (at half pace) off any table edge but the enemy's and win at once; at the turn limit the "
                           "posse holding it wins. No rout (a posse wiped out loses at once).", 1, True, DOC),
}


class MissionRules(mk.MarkerMissions):
    """The missions of ``FrontierRules`` (a mixin: it reads the rules' options, table and models;
    the look-ups and the set-up are ``markers.MarkerMissions``')."""

    MISSIONS = MISSIONS

    # --- set-up -----------------------------------------------------------------------------------
    def _setup_mission_map(self, mf) -> None:
        """A mission is played to a turn limit; the strongbox marker, each side's home edge and
        what each marker is worth to each side, read once."""
        if self.mission != FIGHT and self.opts.turn_limit is None:
            raise SetupError(f"{self.mission_info.name} is played to a turn limit: turn_limit must not be null")
        self.box_marker = mk.centre_marker(mf)
        self.home_edge = {p: mk.home_edge(mf, p) for p in (1, 2)}
        self.claim_value = {(m.id, p): self._claim_value(m, p) for m in self.markers for p in (1, 2)}

    def _claim_value(self, m: mk.MarkerPoint, p: int) -> int:
        """Claim Jumpers: what holding ``m`` scores ``p`` a turn: ``claim_far_points`` when the marker
        is nearer the other posse's table edge than ``p``'s own, else ``claim_points``."""
        w, h = self.table.width, self.table.height
        mine = mk.edge_gap(m.x, m.y, 0.0, self.home_edge[p], w, h)
        theirs = mk.edge_gap(m.x, m.y, 0.0, self.home_edge[3 - p], w, h)
        return self.opts.claim_far_points if theirs < mine - 1e-6 else self.opts.claim_points

    def _mission_start(self) -> dict | None:
        """The mission's part of a new state (None in the fight: nothing to keep)."""
        if self.mission == CLAIMS:
            return {"points": {1: 0, 2: 0}}
        if self.mission == STRONGBOX:
            b = self.box_marker
            return {"box": {"x": b.x, "y": b.y, "carrier": ""}, "escaped": 0}
        return None

    # --- reading the table ------------------------------------------------------------------------
    def near_counts(self, st: FrontierState, marker: mk.MarkerPoint) -> dict[int, int]:
        """Standing models of each posse with their base edge within ``claim_distance_in`` of a marker."""
        reach = self.opts.claim_distance_in * INCH
        out = {1: 0, 2: 0}
        for m in st.models.values():
            if m.wounds > 0 and mk.within(m.x, m.y, m.radius, marker, reach):
                out[m.player] += 1
        return out

    def claims(self, st: FrontierState) -> dict[str, int | None]:
        """Each marker's claimant now (marker id -> player, None: nobody or contested)."""
        return {m.id: mk.holder(self.near_counts(st, m)) for m in self.markers}

    def carrier(self, st: FrontierState) -> Model | None:
        """The model carrying the strongbox (None: it lies on the table, or there is no strongbox)."""
        if self.mission != STRONGBOX or st.mission is None:
            return None
        c = st.mission["box"]["carrier"]
        return st.models[c] if c else None

    def box_point(self, st: FrontierState) -> tuple[float, float]:
        c = self.carrier(st)
        b = st.mission["box"]
        return (c.x, c.y) if c is not None else (b["x"], b["y"])

    def escape_edges(self, p: int) -> tuple[str, ...]:
        """The table edges player ``p``'s carrier may leave by: all but the other posse's own."""
        return tuple(e for e in mk.EDGES if e != self.home_edge[3 - p])

    def edge_gap_in(self, m: Model) -> tuple[float, str]:
        """(inches from the edge of ``m``'s base to the nearest edge its posse may leave by, that
        edge); equal gaps go to the first edge in ``markers.EDGES``."""
        return min((mk.edge_gap(m.x, m.y, m.radius, e, self.table.width, self.table.height) / INCH, e)
                   for e in self.escape_edges(m.player))

    def move_share(self, st: FrontierState, m: Model) -> float:
        """The share of its move ``m`` may use: ``strongbox_carrier_move`` for the carrier, else 1."""
        if st.mission is not None and self.mission == STRONGBOX and st.mission["box"]["carrier"] == m.id:
            return self.opts.strongbox_carrier_move
        return 1.0

    # --- the hooks the flow calls -----------------------------------------------------------------
    def _mission_after_move(self, st: FrontierState, m: Model, ev: list[Event]) -> bool:
        """After ``m``'s move action (a move or holding its ground): the strongbox is picked up or
        carried off. True when that ended the game."""
        if self.mission != STRONGBOX or st.mission is None or not m.standing:
            return False
        box = st.mission["box"]
        if not box["carrier"]:
            reach = self.opts.strongbox_reach_in * INCH
            pt = mk.MarkerPoint("box", "strongbox", box["x"], box["y"])
            if mk.within(m.x, m.y, m.radius, pt, reach):
                rivals = [e for e in self._standing(st, 3 - m.player) if mk.within(e.x, e.y, e.radius, pt, reach)]
                if rivals:
                    ev.append(Event(f"{self._who(m)} reaches the strongbox, but {rivals[0].name} is as near: "
                                    "it stays where it lies", "mission", {"model": m.id}))
                else:
                    box["carrier"] = m.id
                    ev.append(Event(f"{self._who(m)} picks up the strongbox", "mission",
                                    {"model": m.id, "strongbox": "picked up"}))
        gap, edge = self.edge_gap_in(m) if box["carrier"] == m.id else (math.inf, "")
        if gap <= self.opts.strongbox_edge_in + 1e-9:
            st.mission["escaped"] = m.player
            box["x"], box["y"], box["carrier"] = m.x, m.y, ""
            ev.append(Event(f"{self._who(m)} carries the strongbox off the {edge} edge",
                            "mission", {"model": m.id, "strongbox": "carried off"}))
            self._end_game(st, turns.Verdict(True, m.player - 1,
                                             f"player {m.player}'s {m.name} carries the strongbox off the table"), ev)
            return True
        return False

    def _mission_after_test(self, st: FrontierState, ev: list[Event]) -> None:
        """After an opposed test: a carrier put out of action drops the strongbox where it stood."""
        c = self.carrier(st)
        if c is not None and not c.standing:
            box = st.mission["box"]
            box["x"], box["y"], box["carrier"] = c.x, c.y, ""
            ev.append(Event(f"{self._who(c)} drops the strongbox", "mission", {"model": c.id, "strongbox": "dropped"}))

    def _mission_end_of_turn(self, st: FrontierState, ev: list[Event]) -> None:
        """Claim Jumpers: each posse scores ``claim_points`` per claim it holds now."""
        if self.mission != CLAIMS or st.mission is None:
            return
        pts = st.mission["points"]
        words = []
        for m in self.markers:
            h = mk.holder(self.near_counts(st, m))
            if h is not None:
                pts[h] += self.claim_value[(m.id, h)]
            words.append(f"{m.name}: " + (f"player {h} (+{self.claim_value[(m.id, h)]})" if h else "nobody"))
        ev.append(Event(f"End of turn {st.turn}, claims: {'; '.join(words)}. Claim points {pts[1]}-{pts[2]}",
                        "score", {"points": [pts[1], pts[2]]}))

    def _mission_verdict(self, st: FrontierState) -> turns.Verdict:
        """The end-of-turn check of a mission: a wipe-out as in the fight, no rout, and at the turn
        limit the mission's winner, the fight's count breaking a tie."""
        sides = self._sides(st)
        v = turns.victory(sides, st.turn, end_of_turn=True, rule="last_standing", turn_limit=None)
        limit = self.opts.turn_limit
        if v.over or st.turn < limit:
            return v
        a, b = sides
        if self.mission == CLAIMS:
            pa, pb = st.mission["points"][1], st.mission["points"][2]
            if pa != pb:
                return turns.Verdict(True, 0 if pa > pb else 1,
                                     f"turn {limit} is over; more claim points ({max(pa, pb)} to {min(pa, pb)})")
            return turns._compare(a, b, f"turn {limit} is over; level on claim points ({pa} each)")
        c = self.carrier(st)
        if c is not None:
            return turns.Verdict(True, c.player - 1, f"turn {limit} is over; player {c.player}'s {c.name} "
                                                     "holds the strongbox")
        return turns._compare(a, b, f"turn {limit} is over; nobody holds the strongbox")

    def _mission_scores(self, st: FrontierState, p: int) -> dict:
        """The mission's entries in a posse's line of the Result's scores."""
        if st.mission is None:
            return {}
        if self.mission == CLAIMS:
            return {"claim_points": st.mission["points"][p]}
        c = self.carrier(st)
        return {"strongbox": 1 if st.mission["escaped"] == p or (c is not None and c.player == p) else 0}

    def _mission_view(self, st: FrontierState) -> dict | None:
        """What the view shows of the mission (all public), for players and agents."""
        if st.mission is None:
            return None
        out = {"id": self.mission, "markers": [{"id": m.id, "name": m.name, "x": m.x, "y": m.y} for m in self.markers]}
        if self.mission == CLAIMS:
            out["points"] = {str(q): st.mission["points"][q] for q in (1, 2)}
            out["claims"] = self.claims(st)
            out["values"] = {m.id: {str(q): self.claim_value[(m.id, q)] for q in (1, 2)} for m in self.markers}
            out["claim_distance_mm"] = self.opts.claim_distance_in * INCH
        else:
            c = self.carrier(st)
            x, y = self.box_point(st)
            out["strongbox"] = {"marker": self.box_marker.id, "x": x, "y": y, "carrier": c.id if c else "",
                                "escaped": st.mission["escaped"]}
            out["home_edge"] = {str(q): self.home_edge[q] for q in (1, 2)}
            out["escape_edges"] = {str(q): list(self.escape_edges(q)) for q in (1, 2)}
            out["reach_mm"] = self.opts.strongbox_reach_in * INCH
            out["edge_mm"] = self.opts.strongbox_edge_in * INCH
        return out

    # --- the scoreboard ---------------------------------------------------------------------------
    def scoreboard(self, st: FrontierState) -> Scoreboard:
        """The standing of the game as both players may know it (models, wounds and the mission;
        never a card that is not face up). While the posses deploy: the mission and what wins,
        no score (a model placed unseen never shows through)."""
        sb = self._scoreboard(st)
        if st.deploy is not None:
            return replace(sb, lines=(), notes=("The posses are deploying",))
        return sb

    def _scoreboard(self, st: FrontierState) -> Scoreboard:
        o = self.opts
        sides = self._sides(st)
        lines = [ScoreLine("Models standing", {p: f"{s.standing} of {s.size}" for p, s in zip((1, 2), sides)}),
                 ScoreLine("Wounds left", {p: str(s.wounds_left) for p, s in zip((1, 2), sides)})]
        notes: list[str] = []
        limit = o.turn_limit
        if self.mission == FIGHT:
            need = {p: turns.rout_threshold(s.size, o.rout_fraction) for p, s in zip((1, 2), sides)}
            if o.victory == "rout":
                lines.append(ScoreLine("Out of action (routs at)", {p: f"{s.out} ({need[p]})"
                                                                   for p, s in zip((1, 2), sides)}))
                wins = (f"Rout the other posse: at the end of a turn a posse with {o.rout_fraction:.0%} of its models "
                        "or more out of action loses; a posse wiped out loses at once")
            else:
                wins = "Wipe out the other posse"
            wins += ("" if limit is None else
                     f"; after turn {limit}, more models standing, then more wounds left, wins")
            return Scoreboard(self.mission_info.name, wins, st.turn, limit, tuple(lines), tuple(notes))
        if self.mission == CLAIMS:
            now = self.claims(st)
            names = {m.id: m.name for m in self.markers}
            lines.insert(0, ScoreLine("Claim points", {p: str(st.mission["points"][p]) for p in (1, 2)}))
            lines.insert(1, ScoreLine("Claims now", {p: ", ".join(names[k] for k, h in now.items() if h == p) or "none"
                                                     for p in (1, 2)}))
            contested = [names[m.id] for m in self.markers
                         if all(n > 0 for n in self.near_counts(st, m).values())]
            if contested:
                notes.append("Contested: " + ", ".join(contested))
            wins = (f"Most claim points after turn {limit}: each turn, for each marker only your standing models are "
                    f"within {o.claim_distance_in:g}\" of, {o.claim_points} on your half of the table and "
                    f"{o.claim_far_points} on the enemy's; level points go to more models standing, then more wounds "
                    "left; a posse wiped out loses at once")
            notes.append("Worth a turn: " + "; ".join(
                f"{m.name} {self.claim_value[(m.id, 1)]}/{self.claim_value[(m.id, 2)]}" for m in self.markers)
                + " (player 1/player 2)")
            return Scoreboard(self.mission_info.name, wins, st.turn, limit, tuple(lines), tuple(notes))
        c = self.carrier(st)
        held = {}
        for p in (1, 2):
            if st.mission["escaped"] == p:
                held[p] = "carried off"
            elif c is not None and c.player == p:
                gap, edge = self.edge_gap_in(c)
                held[p] = f"{c.name}, {gap:.1f}\" from the {edge} edge"
            else:
                held[p] = "-"
        lines.insert(0, ScoreLine("Strongbox", held))
        if c is None and not st.mission["escaped"]:
            x, y = self.box_point(st)
            notes.append(f"The strongbox lies at ({x / INCH:.1f}\", {y / INCH:.1f}\")")
        notes.append(f"Own edges: player 1 {self.home_edge[1]}, player 2 {self.home_edge[2]}; "
                     "the strongbox leaves by any edge but the enemy's own")
        wins = (f"Carry the strongbox off the table at any edge but the enemy's (within {o.strongbox_edge_in:g}\") "
                "and win at once; "
                f"after turn {limit} the posse holding it wins, else more models standing, then more wounds left; "
                "a posse wiped out loses at once")
        return Scoreboard(self.mission_info.name, wins, st.turn, limit, tuple(lines), tuple(notes))
