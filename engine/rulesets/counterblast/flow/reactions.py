"""Reactions: who may react, the reaction windows opened by a move (Snapshot, Pursuit), an attack
(Return fire, Action roll, Counterstrike, Parry) and a Psi check (Disperse), the reacting
player's answer, and Pursuit's move.
"""
from __future__ import annotations

from engine.core import Event

from .. import actions as act_mod
from .. import attacks, conditions, moxie
from ..choices import NoReaction, React
from .common import MM


class ReactionRules:
    """The reactive crew's answers: Snapshot and Pursuit after a move, Return fire, Action roll,
    Counterstrike and Parry against an attack, Disperse against a Psi check."""

    def _may_react(self, st, rp) -> bool:
        """Whether crew ``rp`` is offered a window on the action under way. Each action opens at
        most one window and the crew answers it once, so no crew has reacted to it yet."""
        return moxie.may_react(st.moxie[rp], (), rp, self.opt)

    def _can_react(self, st, r) -> bool:
        m = st.models[r]
        return m.on_table and conditions.can_react(m.conditions + (["down"] if m.down else []))[0]

    def _offer(self, st, w, gather, prompt, otherwise) -> None:
        """Offer the crew facing ``w["actor"]`` the window ``w`` on that model's action, with the
        reactions ``gather(rp)`` finds and the words ``prompt(rp)``; when the crew may not react
        or finds none, carry on at once with ``otherwise()``."""
        rp = 3 - st.models[w["actor"]].player
        opts = gather(rp) if self._may_react(st, rp) else []
        if not opts:
            otherwise()
            return
        w.update(reactor=rp, options=opts + [NoReaction()], prompt=prompt(rp))
        st.window = w
        st.phase = "react"

    def _after_maneuver(self, st, mid, before, ev):
        """After Move, Rush or Jump: Snapshot (unobscured sight to the mover) or Pursuit (an
        engager the mover left) by the reactive crew."""
        if st.phase == "over":
            return
        m = st.models[mid]
        if not m.on_table or m.down:
            self._continue(st, ev)
            return
        self._offer(st, {"kind": "maneuver", "actor": mid}, lambda rp: self._maneuver_reactions(st, mid, rp, before),
                    lambda rp: f"Player {rp}: react to {self.names[mid]}'s move?", lambda: self._continue(st, ev))

    def _maneuver_reactions(self, st, mid, rp, before) -> list:
        opts: list = []
        # one sight call for every enemy whose sight of the mover is asked below: the
        # engagers (in striking reach) and the reactors with a gun in range of it
        reactors = [r for r in self.on_table(st, rp) if self._can_react(st, r)]
        guns = {r: [(w, self.armoury.shooting_weapon(w)) for w in self.profile[r].shooting] for r in reactors}
        self._fill_missing(st, [r for r in self.on_table(st, rp) if not st.models[r].down and (
            (self.reach[r] is not None and self.within(st, r, mid, self.reach[r]))
            or any(self.within(st, r, mid, wpn.range) for _, wpn in guns.get(r, ())))], [mid])
        now = set(self.engagers(st, mid))
        for r in reactors:
            eng = None  # engaged(r): asked only when a non-pistol gun could Snapshot
            for w, wpn in guns[r]:
                if self.within(st, r, mid, wpn.range) and self.valid_target(st, r, mid):
                    if act_mod.engaged_allows("snapshot", pistol=wpn.pistol):
                        opts.append(React(r, "snapshot", w))
                        continue
                    if eng is None:
                        eng = self.engaged(st, r)
                    if not eng:
                        opts.append(React(r, "snapshot", w))
            # Pursuit is a move toward the enemy: a Panicked model 'may not end a move closer
            # to an enemy model than it started', so it may not Pursue
            if r in before and r not in now and not st.models[r].has("panic"):
                opts.append(React(r, "pursuit"))
        return opts

    def _open_attack_window(self, st, w, ev):
        actor = w["actor"]
        verb = "shoots at" if w["kind"] == "shoot" else "strikes at"
        self._offer(st, w, lambda rp: self._attack_reactions(st, w),
                    lambda rp: f"Player {rp}: {self.names[actor]} {verb} {', '.join(self.names[t] for t in w['targets'])} — react?",
                    lambda: self._resolve_attack(st, w, None, ev))

    def _attack_reactions(self, st, w) -> list:
        actor = w["actor"]
        opts: list = []
        for t in w["targets"]:
            if not self._can_react(st, t):
                continue
            if w["kind"] == "shoot":
                if not self.engaged(st, t):
                    for wid in self.profile[t].shooting:
                        if self._shootable(st, t, actor, self.armoury.shooting_weapon(wid).range):
                            opts.append(React(t, "return_fire", wid))
                opts.append(React(t, "action_roll"))
            else:
                for wid in self.profile[t].striking:
                    if self.within(st, t, actor, self.armoury.striking_weapon(wid).reach) and self.valid_target(st, t, actor):
                        opts.append(React(t, "counterstrike", wid))
                opts.append(React(t, "parry"))
        return opts

    def _open_psi_window(self, st, w, ev):
        actor = w["actor"]
        self._offer(st, w, lambda rp: [React(r, "disperse") for r in self.on_table(st, rp)
                                       if (self.profile[r].role == "psifer" and self._can_react(st, r)
                                           and attacks.disperse_in_range(self.dist(st, r, actor), self.opt))],
                    lambda rp: f"Player {rp}: {self.names[actor]} rolls a Psi check — Disperse it?",
                    lambda: self._resolve_psi(st, w, None, ev))

    def _apply_reaction(self, st, c, ev):
        w = st.window
        st.phase = "act"
        if isinstance(c, NoReaction):
            ev.append(Event(f"Player {w['reactor']} does not react", "react"))
            r = None
        else:
            cost = moxie.reaction_cost(self.opt)
            st.moxie[w["reactor"]] = moxie.spend(st.moxie[w["reactor"]], cost)
            ev.append(Event(f"{self.names[c.model]} reacts: {act_mod.ACTIONS[c.reaction].name} ({cost} Moxie)", "react"))
            r = c
        kind = w["kind"]
        if kind == "maneuver":
            st.window = None
            if r is not None:
                if r.reaction == "snapshot":
                    self._resolve_attack(st, {"kind": "shoot", "actor": r.model, "weapon": r.weapon,
                                              "targets": [w["actor"]], "dice": None, "snapshot": True}, None, ev,
                                         then_continue=False)
                else:
                    self._pursue(st, r.model, w["actor"], ev)
                if st.models[r.model].on_table:
                    self._gain(st, r.model, "stunned", ev)
            if st.phase != "over":
                self._continue(st, ev)
        elif kind in ("shoot", "strike"):
            if r is not None and r.reaction == "action_roll":
                st.window = {"kind": "action_roll", "mover": r.model, "resume": w,
                             "allowance": self._move_allowance(st, r.model, ev)}
                st.phase = "move"
                return
            self._resolve_attack(st, w, r, ev)
        else:
            self._resolve_psi(st, w, r, ev)

    def _pursue(self, st, r, target, ev):
        """Pursuit: move as a Move action toward the disengaging model, back into base contact if
        any contact point is within the move, else as far along the shortest path as it goes."""
        allowance = self._move_allowance(st, r, ev) * MM
        pts = self._contact_moves_to(st, r, target, allowance)
        if pts:
            self._place(st, r, pts[0].x, pts[0].y)
            ev.append(Event(f"{self.names[r]} pursues {self.names[target]} into contact", "move"))
            return
        m, t = st.models[r], st.models[target]
        others = self.bases(st, (r,))
        table = self.tbl(st)
        path = table.find_path((m.x, m.y), (t.x, t.y), self.profile[r].base_mm / 2,
                                    [o for o in others if o.id != target])
        if path is None:
            ev.append(Event(f"{self.names[r]} finds no way to pursue", "move"))
            return
        x, y, _ = table.walk(path, allowance, self.profile[r].base_mm / 2, others)
        self._place(st, r, x, y)
        ev.append(Event(f"{self.names[r]} pursues {self.names[target]}", "move"))
