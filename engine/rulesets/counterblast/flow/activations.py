"""Activations: the Moxie phase at the start of a turn (pools, electing a leader), each Activation
phase's Moxie checks for the Active crew, choosing a single or group activation or passing,
paying for actions (free ones, then Moxie), and the end of an activation.
"""
from __future__ import annotations

from itertools import combinations

from engine.core import Event
from engine.core.rolls import with_rolls

from .. import actions as act_mod
from .. import conditions, moxie
from ..choices import ActivateGroup, ActivateSingle, PassTurn
from ..state import Activation, CBState


class ActivationRules:
    """The turn's Moxie phase and leader election, the Activation phases, and one activation from its
    start to its end (paying for actions, ending when none is left)."""

    def _start_turn(self, st: CBState, ev: list) -> None:
        for p in (1, 2):
            st.moxie[p] = moxie.moxie_pool(len(self.on_table(st, p)))
            st.casualties[p] = []
        st.passed = []
        st.veiled = []
        ev.append(Event(f"Turn {st.turn}: Moxie {st.moxie[1]} / {st.moxie[2]}", "phase",
                        {"turn": st.turn, "moxie": dict(st.moxie)}))
        st.queue = [p for p in (1, 2) if st.moxie[p] >= self.opt.leader_election_cost and self._leader_candidates(st, p)]
        st.phase = "leader"
        if not st.queue:
            self._start_activation_phase(st, ev)

    def _leader_candidates(self, st, p) -> list:
        return [i for i in self.on_table(st, p) if self.hero(i) and not st.models[i].down and i != st.leader[p]]

    def _has_activation(self, st, p) -> bool:
        return st.moxie[p] >= self.opt.single_activation_cost and any(self.can_activate(st, i) for i in self.on_table(st, p))

    def _start_activation_phase(self, st: CBState, ev: list) -> None:
        st.act = None
        st.window = None
        for p in (1, 2):
            if p not in st.passed and not self._has_activation(st, p):
                st.passed.append(p)   # out of Moxie or models: as though it passed
        live = [p for p in (1, 2) if p not in st.passed]
        if not live:
            self._upkeep(st, ev)
            return
        r = moxie.determine_active(st.rng, {p: st.moxie[p] for p in (1, 2)}, passed=st.passed, options=self.opt)
        st.active = r.active
        st.activations += 1
        if r.decided_by == "only_crew":
            text = f"Player {r.active} is Active (the other crew is done for the turn)"
        else:
            rolls = ", ".join(f"P{p} {c.successes}" for p, c in sorted(r.checks.items()))
            text = f"Moxie checks {rolls}: player {r.active} is Active ({r.decided_by.replace('_', '-')})"
        ev.append(Event(text, "dice", with_rolls({"moxie_checks": {p: list(c.values) for p, c in r.checks.items()},
                                                  "roll_offs": r.roll_offs},
                                                 *(c.record(f"Player {p}: Moxie check", p) for p, c in sorted(r.checks.items())))))
        st.phase = "activate"

    def _act_prompt(self, st) -> str:
        a = st.act
        who = ", ".join(self.names[i] for i in a.members)
        if a.group and a.step:
            return f"Group action {a.step}: choose for {', '.join(self.names[i] for i in a.to_resolve)}"
        left = f"{a.actions_left} free action(s) left" if a.actions_left else f"extra actions cost Moxie ({st.moxie[a.player]} left)"
        return f"{who}: choose an action ({left})"

    def _activation_options(self, st) -> list:
        p = st.active
        ready = [i for i in self.on_table(st, p) if self.can_activate(st, i)]
        opts = [ActivateSingle(i) for i in ready]
        if st.moxie[p] >= self.opt.group_activation_cost:
            heroes = [i for i in ready if self.hero(i)]
            lackeys = [i for i in ready if self.profile[i].role == "lackey"]
            for h in heroes:
                for n in range(0, self.opt.group_max_lackeys + 1):
                    for ls in combinations(lackeys, n):
                        opts.append(ActivateGroup((h,) + ls))
        opts.append(PassTurn())
        return opts

    def refusal(self, st, player, c) -> str | None:
        """Why a group activation the decision does not offer cannot be formed: a member that may
        not activate (not the player's, off the table, Down, Spent), the Moxie it costs, or what
        the group rules say of its heroes and lackeys (``moxie.group_problems``)."""
        if st.phase != "activate" or not isinstance(c, ActivateGroup) or st.active != player:
            return None
        ids = [i for i in c.models if isinstance(i, str)]
        unknown = [i for i in ids if i not in st.models]
        if unknown or len(ids) != len(c.models):
            return f"no such model: {', '.join(map(str, unknown or c.models))}"
        if len(set(ids)) != len(ids):
            return "a model can be in a group only once"
        for i in ids:
            m, n = st.models[i], self.names[i]
            if m.player != player:
                return f"{n} is not in your crew"
            if not m.on_table:
                return f"{n} is not on the table"
            if m.down:
                return f"{n} is Down"
            if m.has("spent"):
                return f"{n} is Spent: it has activated this turn"
        if st.moxie[player] < self.opt.group_activation_cost:
            return f"a group activation costs {self.opt.group_activation_cost} Moxie; you have {st.moxie[player]}"
        if not self.hero(ids[0]):
            return f"a group is led by its hero; {self.names[ids[0]]} is not one"
        probs = moxie.group_problems([(self.hero(i), self.profile[i].role) for i in ids], self.opt)
        return "; ".join(probs) or None

    def _apply_activation(self, st, p, c, ev):
        if isinstance(c, PassTurn):
            st.passed.append(p)
            ev.append(Event(f"Player {p} passes the turn", "pass"))
            self._start_activation_phase(st, ev)
            return
        if isinstance(c, ActivateSingle):
            st.moxie[p] = moxie.spend(st.moxie[p], self.opt.single_activation_cost)
            m = st.models[c.model]
            st.act = Activation(p, [c.model], False, conditions.free_actions(m.conditions, self.opt))
            ev.append(Event(f"Player {p} activates {self.names[c.model]} ({self.opt.single_activation_cost} Moxie)", "activate"))
        else:
            st.moxie[p] = moxie.spend(st.moxie[p], self.opt.group_activation_cost)
            free = min(conditions.free_actions(st.models[i].conditions, self.opt) for i in c.models)
            st.act = Activation(p, list(c.models), True, free)
            ev.append(Event(f"Player {p} activates a group: {', '.join(self.names[i] for i in c.models)} "
                            f"({self.opt.group_activation_cost} Moxie)",
                            "activate"))
        st.phase = "act"
        self._continue(st, ev)

    def _can_pay_action(self, st) -> bool:
        a = st.act
        return a.actions_left > 0 or st.moxie[a.player] >= moxie.extra_action_cost(len(a.members), self.opt)

    def _pay(self, st, ev):
        a = st.act
        if a.actions_left > 0:
            a.actions_left -= 1
        else:
            cost = moxie.extra_action_cost(len(a.members), self.opt)
            st.moxie[a.player] = moxie.spend(st.moxie[a.player], cost)
            ev.append(Event(f"Player {a.player} spends {cost} Moxie for an extra action", "moxie"))

    def _use(self, st, mid, action):
        st.act.used.setdefault(mid, []).append(action)
        if act_mod.spends_model(action, self.opt):
            st.models[mid].gain("spent")

    def _continue(self, st, ev):
        """After an action: drop Down members, finish a group step, end the activation when no
        action is left."""
        if st.phase == "over":
            return
        a = st.act
        st.phase = "act"
        for mid in list(a.members):
            m = st.models[mid]
            if not m.on_table or m.down:
                a.members.remove(mid)
                if mid in a.to_resolve:
                    a.to_resolve.remove(mid)
        if a.group and a.step and not a.to_resolve:
            a.step = ""
        if not a.members:
            self._end_activation(st, ev)
            return
        if a.group and a.step:
            return
        if not self._can_pay_action(st):
            self._end_activation(st, ev)

    def _end_activation(self, st, ev):
        st.act = None
        if not self._check_end(st, ev):
            self._start_activation_phase(st, ev)
