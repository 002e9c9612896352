"""End of turn and of the game: Upkeep (burning, conditions, Down models), the Dread phase, Dread
and Panic tests, the Rally a Panicked model must make, the game ending (one crew left or the
last turn) and its battle, objective and mission scores; the scoreboard (the scores as they
stand, for the score panel and the game-over screen).
"""
from __future__ import annotations

from engine.core import Event, Scoreboard, ScoreLine
from engine.core.rolls import with_rolls

from .. import conditions, damage, panic, scoring
from ..checks import ability_check
from .common import MM

# What one unit of an objective is, by its kind: the words of the mission's terms ("2 per marker
# held") and of a side's count on the scoreboard ("2 held").
_UNIT = {"control_markers": ("marker held", "held"), "hack_markers": ("marker hacked", "hacked"),
         "eliminate_leader": ("enemy leader taken", "taken"), "protect_leader": ("turn your leader stands", "turns"),
         "extract": ("hero at your evac point", "out")}


def objective_terms(o) -> str:
    """An objective's terms from its data: "2 per marker held (max 6)"; "3 for the enemy leader taken
    (+1 if the enemy fails it)"
    """
    per, _ = _UNIT.get(o.kind, ("unit", ""))
    words = f"{o.points} per {per}" if o.kind != "eliminate_leader" else f"{o.points} for the {per}"
    extra = [f"max {o.max_points}"] if o.max_points is not None else []
    if o.deny_points:
        extra.append(f"+{o.deny_points} if the enemy fails it")
    return words + (f" ({', '.join(extra)})" if extra else "")


def _units_words(o, n: int) -> str:
    """A side's count on an objective: "2 held", "taken" / "not taken", "3 turns"."""
    if o.kind == "eliminate_leader":
        return "taken" if n else "not taken"
    if o.kind == "protect_leader":
        return f"{n} turn" + ("" if n == 1 else "s")
    return f"{n} {_UNIT.get(o.kind, ('', ''))[1]}".strip()


class TurnEndRules:
    """Upkeep, Dread and Panic at the end of a turn, the Rally a Panicked model makes, and the end of
    the game with its scores."""

    def _rally(self, st, mid, ev):
        out = panic.rally(st.rng, self.profile[mid].knack, self.opt)
        m = st.models[mid]
        rally = with_rolls({}, out.check.record(f"{self.names[mid]}: Rally", m.player))
        if out.clears_panic:
            m.lose("panic")
            ev.append(Event(f"{self.names[mid]} Rallies: {out.check.describe()} — no longer Panicked", "dice", rally))
        elif out.may_continue:
            ev.append(Event(f"{self.names[mid]} Rallies: {out.check.describe()} — still Panicked, but acts on", "dice", rally))
        else:
            ev.append(Event(f"{self.names[mid]} fails to Rally: {out.check.describe()} — flees toward "
                            f"{self._flee_target(st, mid)[1]}", "dice", rally))
            before = self.engagers(st, mid)
            moved = self._flee(st, mid, ev)
            m.gain("spent")
            st.act.members.remove(mid)
            if mid in st.act.to_resolve:
                st.act.to_resolve.remove(mid)
            if moved:
                # the flight is a Move action: it draws the reactions any Move draws (Snapshot,
                # Pursuit); the activation then goes on without the model (_continue)
                self._after_maneuver(st, mid, before, ev)
                return
        self._continue(st, ev)

    def _check_end(self, st, ev) -> bool:
        if st.phase == "over":
            return True
        alive = [p for p in (1, 2) if self.on_table(st, p)]
        if len(alive) <= 1:
            ev.append(Event("Only one crew is left on the table", "end"))
            self._finish(st, ev)
            return True
        return False

    def _upkeep(self, st, ev):
        ev.append(Event(f"Upkeep, turn {st.turn}", "phase"))
        for mid in st.order:
            m = st.models[mid]
            if m.on_table and m.has("burning"):
                self._burn(st, mid, ev)
        for mid in st.order:
            m = st.models[mid]
            if not m.on_table:
                continue
            m.conditions = sorted(conditions.upkeep(m.conditions))
            if m.down:
                w = damage.upkeep(damage.Wounds(m.tokens, m.down, m.stable))
                if w.casualty:
                    ev.append(Event(f"{self.names[mid]} was Down and not Stable: removed as a casualty", "damage"))
                self._set_wounds(st, mid, w)
        st.veiled = []
        st.act = None
        st.phase = "dread"
        if self._check_end(st, ev):
            return
        st.queue = [p for p in (1, 2) if st.dread[p] > 0 and st.moxie[p] > 0 and self._leader_up(st, p)]
        if not st.queue:
            self._panic_phase(st, ev)

    def _burn(self, st, mid, ev):
        """Burning: 3 raw damage (Prone +3D Defense, no cover); tokens -> Knack/7 or Panicked;
        no tokens -> the model stops burning."""
        m = st.models[mid]
        pool = damage.burning_defense_pool(self.profile[mid].defense, m.has("prone") or m.down, self.opt)
        d = damage.defense_check(st.rng, pool, self.opt)
        out = damage.burning(d.successes, self.opt)
        w = damage.apply_tokens(damage.Wounds(m.tokens, m.down, m.stable), out.tokens, self.profile[mid].mettle, self.opt)
        self._set_wounds(st, mid, w)
        text = f"{self.names[mid]} burns: Defense {d.describe()} — {out.tokens} token(s)"
        burn = with_rolls({}, d.record(f"{self.names[mid]}: Defense against the flames", m.player))
        if out.stops_burning:
            m.lose("burning")
            text += ", the flames go out"
        elif out.panic_test and m.on_table:
            ch = ability_check(st.rng, self.profile[mid].knack, self.opt.knack_difficulty, options=self.opt)
            text += f"; Knack {ch.describe()}"
            burn = with_rolls(burn, ch.record(f"{self.names[mid]}: Knack", m.player))
            if ch.failed:
                text += " — Panicked" if self._gain(st, mid, "panic", ev) else " — would panic"
        ev.append(Event(text, "damage", burn))

    def _leader_up(self, st, p) -> bool:
        lm = st.models[st.leader[p]]
        return lm.on_table and not lm.down

    def _panic_phase(self, st, ev):
        for p in (1, 2):
            cas = st.casualties[p]
            downed = sum(1 for i in self.on_table(st, p) if st.models[i].down)
            gain = panic.dread_gain(downed, len(cas), sum(1 for _, h in cas if h), self.opt)
            st.dread[p] += gain
            n = len(self.on_table(st, p))
            text = f"Player {p}: Dread +{gain} = {st.dread[p]} ({n} models on the table)"
            if panic.panic_test_required(st.dread[p], n):
                fails = []
                for mid in self.on_table(st, p):
                    m = st.models[mid]
                    if m.has("panic"):
                        continue
                    ch = panic.panic_test(st.rng, self.profile[mid].knack, self.opt)
                    if ch.failed and self._gain(st, mid, "panic", ev):
                        fails.append(self.names[mid])
                text += "; Panic tests: " + (", ".join(fails) + " Panicked" if fails else "all hold")
            ev.append(Event(text, "panic"))
        for p in (1, 2):
            if self._leader_up(st, p) and not st.models[st.leader[p]].has("panic"):
                st.held[p] += 1
        if st.turn >= self.opt.turns:
            self._finish(st, ev)
            return
        st.turn += 1
        self._start_turn(st, ev)

    def scores(self, st) -> dict:
        out = {}
        units = {p: self._objective_units(st, p) for p in (1, 2)}
        obj = scoring.objective_scores(self.mission, units)
        for p in (1, 2):
            remaining = scoring.points_remaining(
                scoring.ModelStanding(self.profile[i].points, st.models[i].on_table, st.models[i].down,
                                      st.models[i].has("panic")) for i in st.order if st.models[i].player == p)
            basis = self.crews[p].points if self.opt.battle_score_basis == "crew" else None
            battle = scoring.battle_score(remaining, basis, self.opt)
            out[p] = {"remaining": remaining, "battle": battle, "objective": obj[p],
                      "mission": scoring.mission_score(obj[p], battle), "units": units[p]}
        return out

    def scoreboard(self, st) -> Scoreboard:
        """The scores as every player may know them (``Rules.scoreboard``), from ``scores`` (the
        end's own scores once the game is over): each objective with the side's count, the
        objective, battle and mission scores; while the crews deploy, no score yet (a hidden
        placement must not show through a marker held)."""
        m, opt = self.mission, self.opt
        wins = (f"Most mission points at the end (turn {opt.turns}, or one crew left): "
                + "; ".join(f"{o.name} {objective_terms(o)}" for o in m.objectives)
                + f"; battle {opt.battle_high_points}/{opt.battle_mid_points}/{opt.battle_low_points} by points standing")
        labels = [o.name for o in m.objectives] + ["Objective score", "Battle score", "Mission score"]
        if st.deploy is not None:
            return Scoreboard(m.name, wins, st.turn, opt.turns, tuple(ScoreLine(x, {1: "-", 2: "-"}) for x in labels),
                              ("Scores count once both crews are on the table",))
        sc = st.final["scores"] if st.final is not None else self.scores(st)
        units = {p: sc[p]["units"] for p in (1, 2)}
        lines = []
        for o in m.objectives:
            # each objective's points alone: the scoring function on the mission cut to it
            alone = scoring.objective_scores(m.model_copy(update={"objectives": [o]}), units)
            lines.append(ScoreLine(o.name, {p: f"{alone[p]} ({_units_words(o, units[p].get(o.id, 0))})" for p in (1, 2)}))
        lines.append(ScoreLine("Objective score", {p: str(sc[p]["objective"]) for p in (1, 2)}))
        basis = {p: self.crews[p].points if opt.battle_score_basis == "crew" else opt.game_points for p in (1, 2)}
        lines.append(ScoreLine("Battle score", {p: f"{sc[p]['battle']} ({sc[p]['remaining']}/{basis[p]} pts)"
                                                for p in (1, 2)}))
        lines.append(ScoreLine("Mission score", {p: str(sc[p]["mission"]) for p in (1, 2)}))
        if st.final is None:
            notes = ("Standing if the game ended now",)
        elif st.final["winner"] is None:
            notes = ("A draw",)
        else:
            notes = (f"{st.final['degree'].capitalize()} victory by {st.final['margin']}",)
        return Scoreboard(m.name, wins, st.turn, opt.turns, tuple(lines), notes)

    def _objective_units(self, st, p) -> dict:
        u = {}
        for o in self.mission.objectives:
            if o.kind == "control_markers":
                n = 0
                for mk, (x, y) in self.markers.items():
                    if o.markers and mk not in o.markers:
                        continue
                    counts = {q: sum(1 for i in self.on_table(st, q) if not st.models[i].down and
                                     self._to_point(st, i, x, y) <= o.range * MM)
                              for q in (1, 2)}
                    n += scoring.marker_controller(counts) == p
                u[o.id] = n
            elif o.kind == "hack_markers":
                u[o.id] = len(st.hacked[p])
            elif o.kind == "eliminate_leader":
                q = 3 - p
                lm = st.models[st.leader[q]]
                u[o.id] = int(st.leader_lost[q] or not lm.on_table or lm.down)
            elif o.kind == "protect_leader":
                u[o.id] = st.held[p]
            elif o.kind == "extract":
                if p in self.evac:
                    x, y = self.evac[p]
                    u[o.id] = sum(1 for i in self.on_table(st, p) if self.hero(i) and not st.models[i].down
                                  and self._to_point(st, i, x, y) <= o.range * MM)
                else:
                    u[o.id] = 0
        return u

    def _finish(self, st, ev):
        st.phase = "over"
        st.act = None
        st.window = None
        sc = self.scores(st)
        verdict = scoring.degree_of_victory({p: sc[p]["mission"] for p in (1, 2)}, self.opt)
        st.final = {"scores": sc, "winner": verdict.winner, "margin": verdict.margin, "degree": verdict.degree}
        if verdict.winner is None:
            text = f"The game is a draw ({sc[1]['mission']}–{sc[2]['mission']})"
        else:
            text = (f"Player {verdict.winner} wins a {verdict.degree.capitalize()} Victory by {verdict.margin} "
                    f"({sc[1]['mission']}–{sc[2]['mission']})")
        ev.append(Event(text, "end", {"scores": {p: sc[p]["mission"] for p in (1, 2)}}))
