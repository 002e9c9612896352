"""Last Hope Frontier's turn flow: what follows each answer until the next decision.

The movement phase alternates model by model and hands over to the main phase; activations
alternate while a player can still act (cards left to spend, a model standing, not passed);
then the shortfall (cards laid down or forfeited), the end of the turn (victory, the poker
hands' priority, keep or ditch the last card, new hands) and the end of the game. An opposed
test runs from both committed cards to its result (``_resolve``: the duel, the cards spent,
wounds, a friend hit in the fight, a thrown weapon, Slippery Paws). ``FlowRules`` gives
``FrontierRules`` these (a mixin); ``rules.py``'s ``apply`` calls them.
"""
from __future__ import annotations

from engine.core import Event, Result

from . import duel, poker, turns
from .cards import card as parse_card
from .choices import Commit
from .data import fighter
from .state import FrontierState


class FlowRules:
    """The turn flow of ``FrontierRules`` (a mixin: it reads the rules' options, profiles and items)."""

    def _after_move(self, st: FrontierState, p: int, ev: list[Event]) -> None:
        def left(q):
            return any(not m.moved for m in self._standing(st, q))
        if left(3 - p):
            st.active = 3 - p
        elif left(p):
            st.active = p
        else:
            self._start_main(st, ev)

    def _start_main(self, st: FrontierState, ev: list[Event]) -> None:
        for m in st.models.values():
            m.second_move = False
        st.passed = {1: False, 2: False}
        st.phase = "main"
        ev.append(Event(f"Turn {st.turn}: main phase, player {st.priority} first", "phase"))
        if self._can_act(st, st.priority):
            st.active = st.priority
        elif self._can_act(st, 3 - st.priority):
            st.active = 3 - st.priority
        else:
            self._end_main(st, ev)

    def _end_activation(self, st: FrontierState, p: int, ev: list[Event]) -> None:
        if self._can_act(st, 3 - p):
            st.active = 3 - p
        elif self._can_act(st, p):
            st.active = p
        else:
            self._end_main(st, ev)

    def _end_main(self, st: FrontierState, ev: list[Event]) -> None:
        st.phase = "shortfall"
        self._shortfall(st, ev)

    def _shortfall(self, st: FrontierState, ev: list[Event]) -> None:
        for q in (st.priority, 3 - st.priority):
            if self._must_spend(st, q) > 0:
                st.active = q
                return
        self._finish_turn(st, ev)

    def _sides(self, st: FrontierState):
        return [turns.SideStatus(tuple(max(0, m.wounds) for m in st.models.values() if m.player == p)) for p in (1, 2)]

    def _end_game(self, st: FrontierState, v: turns.Verdict, ev: list[Event]) -> None:
        sides = self._sides(st)
        winner = None if v.winner is None else v.winner + 1
        st.result = {"winner": winner, "reason": v.reason,
                     "scores": {str(p): {"standing": s.standing, "wounds_left": s.wounds_left,
                                         **self._mission_scores(st, p)}
                                for p, s in zip((1, 2), sides)}}
        st.phase = "over"
        st.test = None
        st.steal = None
        ev.append(Event(f"Game over: {v.reason}" + ("" if winner is None else f"; player {winner} wins"), "result",
                        {"winner": winner}))

    def _finish_turn(self, st: FrontierState, ev: list[Event]) -> None:
        if st.mission is not None:          # a mission's scoring and ending (missions.py)
            self._mission_end_of_turn(st, ev)
            v = self._mission_verdict(st)
        else:
            v = turns.victory(self._sides(st), st.turn, end_of_turn=True, rule=self.opts.victory,
                              rout_fraction=self.opts.rout_fraction, turn_limit=self.opts.turn_limit)
        if v.over:
            self._end_game(st, v, ev)
            return
        pr = poker.next_priority((st.cards[1].played, st.cards[2].played), st.priority - 1,
                                 tie=self.opts.initiative_tie, five_of_a_kind=self.opts.five_of_a_kind)
        st.next_priority = pr.winner + 1
        ev.append(Event(f"End of turn {st.turn}: {pr.describe()}", "priority",
                        {"hands": [h.describe() for h in pr.hands], "priority": st.next_priority}))
        st.keep = {}
        st.phase = "keep"
        self._keep_next(st, ev)

    def _keep_next(self, st: FrontierState, ev: list[Event]) -> None:
        for q in (st.next_priority, 3 - st.next_priority):
            if q not in st.keep and turns.can_keep_last(len(st.cards[q].hand)):
                st.active = q
                return
        for q in (1, 2):
            piles = st.cards[q]
            pc = piles.cards()
            pc.end_turn(st.keep.get(q, False), self.opts.hand_size, st.rng)
            piles.store(pc)
        st.turn += 1
        st.priority = st.next_priority
        st.keep = {}
        for m in st.models.values():
            m.moved = False
            m.second_move = False
        st.phase = "move"
        ev.append(Event(f"Turn {st.turn}: player {st.priority} has priority; movement phase", "phase"))
        if any(self._standing(st, st.priority)):
            st.active = st.priority
        else:
            st.active = 3 - st.priority

    # --- opposed tests -------------------------------------------------------------------------
    def _commit(self, st: FrontierState, p: int, c: Commit, ev: list[Event]) -> None:
        piles = st.cards[p]
        cs = [parse_card(x) for x in c.cards]
        for cd in cs:
            piles.hand.remove(cd)
            piles.committed.append(cd)
        n = "two cards" if len(cs) == 2 else "a card"
        ev.append(Event(f"Player {p} commits {n} face down", "commit", {"player": p, "count": len(cs)}))
        ev.append(Event(f"You commit {' + '.join(x.describe() for x in cs)}", "commit",
                        {"owner": p, "cards": [x.code for x in cs]}, visible_to=frozenset({p})))

    def _resolve(self, st: FrontierState, ev: list[Event]) -> None:
        t = st.test
        a, d = st.models[t.attacker], st.models[t.defender]
        ap, dp = a.player, d.player
        a_play, d_play = duel.Play(tuple(st.cards[ap].committed)), duel.Play(tuple(st.cards[dp].committed))
        fa = fighter(self.profiles[ap][a.profile], self.faction[ap], self.catalogue, wounds=a.wounds, items=a.items)
        fd = fighter(self.profiles[dp][d.profile], self.faction[dp], self.catalogue, wounds=d.wounds, items=d.items)
        if t.kind == "combat":
            weapon = self.items[t.weapon].melee_weapon() if t.weapon else duel.UNARMED
            r = duel.resolve_combat(fa, fd, a_play, d_play, weapon, self.duel_rules)
            cover_note = ""
        else:
            weapon = self.items[t.weapon].ranged_weapon()
            hidden = max(0.0, 1.0 - self._visible(st, a, d))
            r = duel.resolve_shot(fa, fd, a_play, d_play, weapon, hidden, bool(t.friend), self.duel_rules)
            cover_note = f" ({hidden:.0%} of the target hidden)"
        # the cards: revealed together, then spent
        ev.append(Event(f"Revealed: player {ap} {a_play.describe()}, player {dp} {d_play.describe()}", "reveal",
                        {"cards": {str(ap): [x.code for x in a_play.cards], str(dp): [x.code for x in d_play.cards]}}))
        for q, play in ((ap, a_play), (dp, d_play)):
            piles = st.cards[q]
            pc = piles.cards()
            if play.is_pair:
                pc.play_pair(play.cards[0], play.cards[1])
            elif play.cards:
                pc.play(play.cards[0])
            piles.committed = []
            piles.store(pc)
        ev.append(Event(f"{self._who(a)} vs {self._who(d)}: {r.describe()}{cover_note}", "duel",
                        {"attack": r.attack.value, "defence": r.defence.value, "wounds": r.wounds,
                         "success": r.success, "attack_parts": [list(x) for x in r.attack.parts],
                         "defence_parts": [list(x) for x in r.defence.parts],
                         "damage_parts": [list(x) for x in r.damage.parts],
                         "toughness_parts": [list(x) for x in r.toughness.parts]}))
        for side, action in r.leader_actions:
            ev.append(Event(f"The {side}'s leader uses {action.replace('_', ' ')}", "leader"))
        a.wounds = r.attacker_wounds_after
        d.wounds = r.defender_wounds_after
        if r.defender_out:
            ev.append(Event(f"{self._who(d)} is out of action", "casualty", {"model": d.id}))
        if r.friendly_damage and t.friend:
            f = st.models[t.friend]
            if f.standing:
                f.wounds = duel.apply_unsoakable(f.wounds, r.friendly_damage)
                ev.append(Event(f"The shot goes astray into the fight: {self._who(f)} takes {r.friendly_damage} "
                                f"unsoakable damage ({f.wounds} wounds left)", "damage", {"model": f.id}))
                if not f.standing:
                    ev.append(Event(f"{self._who(f)} is out of action", "casualty", {"model": f.id}))
        if r.weapon_lost and t.weapon in a.items:
            a.items.remove(t.weapon)
            ev.append(Event(f"{self._who(a)}'s {self.items[t.weapon].name.lower()} is thrown and lost", "info"))
        if st.mission is not None:
            self._mission_after_test(st, ev)
        st.steal = None
        if r.steal_by:
            thief, victim = (a, d) if r.steal_by == "attacker" else (d, a)
            items = [self.items[i] for i in victim.items]
            if duel.stealable(items, self.duel_rules):
                st.steal = {"player": thief.player, "thief": thief.id, "victim": victim.id}
            else:
                ev.append(Event(f"Slippery Paws: {self._who(victim)} carries nothing worth under "
                                f"${self.duel_rules.steal_below_dollars}", "steal"))
        self._after_test(st, ev)

    def _after_test(self, st: FrontierState, ev: list[Event]) -> None:
        v = turns.victory(self._sides(st), st.turn, end_of_turn=False)
        if v.over:
            self._end_game(st, v, ev)
            return
        if st.steal is not None:
            st.phase = "steal"
            st.active = st.steal["player"]
            return
        attacker = st.models[st.test.attacker].player
        st.test = None
        st.phase = "main"
        self._end_activation(st, attacker, ev)

    def result(self, st: FrontierState) -> Result | None:
        if st.result is None:
            return None
        sides = self._sides(st)
        if st.mission is not None and st.mission.get("escaped"):
            ending = "objective"
        elif any(s.standing == 0 for s in sides):
            ending = "wiped_out"
        elif st.mission is not None:
            ending = "turn_limit"           # no rout in a mission
        elif self.opts.victory == "rout" and any(turns.routed(s, self.opts.rout_fraction) for s in sides):
            ending = "rout"    # the rout is checked before the turn limit, as in turns.victory
        else:
            ending = "turn_limit"
        return Result(st.result["winner"], st.result["reason"], dict(st.result["scores"]), ending)
