"""Last Hope Frontier, playable: the state machine on the engine core (phase 2).

``FrontierRules`` asks the players for every decision the seed leaves to them and settles the
rest with the phase-1 mechanics (``cards``, ``poker``, ``duel``, ``turns``, ``data``):

1. Set-up (automatic): each player's 54 cards are shuffled, the first-turn high-card draw
   picks who has priority, hands of eight are dealt, the posses deploy in their map zones.
2. Each turn: a **movement phase** -- players alternate model by model, the priority holder
   first, every standing model takes its move (a point on the table, a move into base contact
   with an enemy, or holding still) -- then the **main phase** -- alternating activations, one
   action each: a second move (once per model), a shot or a combat. A shot or a combat is an
   opposed test: the attacker commits a card (or a leader's pair) in secret, the defender
   commits, both are revealed and resolved. Drinking is a free action at any of a player's decisions.
3. A player who has spent seven cards (or has none) takes no more activations but still
   defends. A player may pass only when none of its models can shoot or fight; passing ends
   its main phase. When both are finished, a player short of seven lays the rest down (option
   ``shortfall``), the game checks rout and the turn limit, priority goes to the better poker
   hand, each player keeps or ditches the last card, and new hands are drawn.

This module is its core: the class with the static look-ups and the state helpers (who
stands, who is in contact, sight, weapons, the attacks and free drinks on offer), and
``pending`` and ``apply``, which hand each answer to the part of the game it belongs to. The
parts are mixins of ``FrontierRules``, one module each, as Doubles and Counterblast have:

- ``state.py``: the state (plain data) and the card invariant ``card_places``;
- ``setup.py``: the rosters and options, the static look-ups, the start (decks, the first-turn
  draw, hands); ``deployment.py``: the deployment phase's hooks and the automatic placement;
- ``flow.py``: the turn flow (movement and main phases, shortfall, end of turn, end of game)
  and the opposed tests' resolution;
- ``moves.py``: the move spaces and the enumerated moves;
- ``views.py``: the view, the words, what a player may not see (``hidden_from``,
  ``determinize``) and the odds;
- ``choices.py``: the choices players answer with.

The rules in plain words, and the decisions we made where the seed is silent, are in
``docs/rules/frontier.md``.
"""
from __future__ import annotations

import math

from engine.core import Choice, Decision, Event, Rules, register
from engine.rulesets.common import MoveTo
from engine.table import Base

from . import duel, turns
from .cards import card as parse_card
from .choices import Commit, Drink, Fight, Hold, KeepLast, LayDown, Pass, Shoot, Steal
from .deployment import PlacementMixin
from .flow import FlowRules
from .missions import MissionRules
from .moves import MoveRules
from .setup import SetupRules
from .state import CHARGE_GAP_MM, CONTACT_MM, INCH, MODEL_HEIGHT_MM, FrontierState, Model, Piles, Test, card_places
from .views import ViewRules

# the names other modules and the tests import from here
__all__ = ["CHARGE_GAP_MM", "CONTACT_MM", "INCH", "MODEL_HEIGHT_MM", "Commit", "Drink", "Fight", "FrontierRules",
           "FrontierState", "Hold", "KeepLast", "LayDown", "Model", "Pass", "Piles", "Shoot", "Steal", "Test",
           "card_places"]


@register
# ViewRules first: its hidden_from and determinize extend the deployment's (PlacementMixin's)
class FrontierRules(ViewRules, PlacementMixin, SetupRules, MissionRules, MoveRules, FlowRules, Rules):
    id = "frontier"
    home_map = "town"
    easy_policy = "engine.ai.easy_frontier:FrontierPolicy"
    forces_module = "engine.rulesets.frontier.forces"     # the force builder's hooks (Rules.force_catalog and the rest)
    name = "Last Hope Frontier"
    unit = "in"
    # 2: the leader deploys in the middle of the line (saves of version 1 replay differently)
    # 3: issue 45 (a deployment phase; the automatic placement in each side's own frame)
    # 4: issue 58 (the automatic placement is the agents' placement policy, spread out in cover)
    version = "4"

    # --- helpers ---------------------------------------------------------------------------
    def _standing(self, st: FrontierState, p: int | None = None) -> list[Model]:
        # ``m.wounds > 0`` is ``m.standing``, without a property call per model (hot)
        if p is None:
            return [m for m in st.models.values() if m.wounds > 0]
        return [m for m in st.models.values() if m.wounds > 0 and m.player == p]

    def _others(self, st: FrontierState, model: Model, bases=None) -> list[Base]:
        """The bases of the other standing models; ``bases`` (``_bases``) when the caller has them."""
        if bases is not None:
            return [b for b in bases if b.id != model.id]
        return [m.base() for m in st.models.values() if m.standing and m.id != model.id]

    def _bases(self, st: FrontierState) -> list[Base]:
        """Every standing model's base, built once for one pending decision."""
        return [m.base() for m in st.models.values() if m.standing]

    def _must_spend(self, st: FrontierState, p: int) -> int:
        c = st.cards[p]
        return turns.must_spend(c.spent, len(c.hand), self.opts.cards_per_turn)

    def _can_act(self, st: FrontierState, p: int) -> bool:
        return not st.passed[p] and self._must_spend(st, p) > 0 and bool(self._standing(st, p))

    def _in_contact(self, a: Model, b: Model) -> bool:
        return math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius <= CONTACT_MM

    def _visible(self, st: FrontierState, viewer: Model, target: Model) -> float:
        """Visible fraction of ``target`` from ``viewer`` (other standing models block), cached
        on the positions of every standing model."""
        sig = self._signature(st)
        cache = self._sight_cache.get(sig)
        if cache is None:
            if len(self._sight_cache) > 256:
                self._sight_cache.clear()
            cache = self._sight_cache[sig] = {}
        key = (viewer.id, target.id)
        v = cache.get(key)
        if v is None:
            s = self.table.sight(viewer.base(), target.base(), self._others(st, viewer))
            v = cache[key] = float(s.visible_fraction)
        return v

    def _signature(self, st: FrontierState) -> tuple:
        return tuple((m.id, m.x, m.y, m.z) for m in st.models.values() if m.standing)

    def _melee(self, m: Model) -> list[str]:
        ws = []
        for i in m.items:
            if self.items[i].kind == "melee" and i not in ws:
                ws.append(i)
        return ws or [""]

    def _ranged(self, m: Model) -> list[tuple[str, float]]:
        out = []
        for i in m.items:
            w = self.items[i].ranged_weapon()
            if w is not None and i not in [x for x, _ in out]:
                out.append((i, w.range))
        return out

    def _attacks(self, st: FrontierState, p: int) -> list[Choice]:
        mine, enemies = self._standing(st, p), self._standing(st, 3 - p)
        opts: list[Choice] = []
        for m in mine:
            engaged = [e for e in enemies if self._in_contact(m, e)]
            if engaged:
                for e in engaged:
                    for w in self._melee(m):
                        opts.append(Fight(m.id, e.id, w))
                continue
            for w, rng_in in self._ranged(m):
                for e in enemies:
                    if math.hypot(m.x - e.x, m.y - e.y) - m.radius - e.radius > rng_in * INCH + 1e-6:
                        continue
                    if self._visible(st, m, e) <= 0.0:
                        continue
                    friends = [f.id for f in mine if f.id != m.id and self._in_contact(f, e)]
                    for f in friends or [""]:
                        opts.append(Shoot(m.id, e.id, w, f))
        return opts

    def _drinks(self, st: FrontierState, p: int) -> tuple[Drink, ...]:
        """Free actions: the seed lets models drink "always", so a wounded model of player ``p``
        may drink at any decision of that player's (movement, activation, choosing a card)."""
        return tuple(Drink(m.id, i) for m in self._standing(st, p) if m.wounds < m.max_wounds
                     for i in dict.fromkeys(m.items) if self.items[i].kind == "drink")

    def _commit_options(self, st: FrontierState, p: int, model: Model) -> tuple[Commit, ...]:
        hand = st.cards[p].hand
        opts = [Commit((c.code,)) for c in hand]
        is_leader = self.profiles[p][model.profile].role == "leader"
        if turns.can_play_pair(is_leader, st.cards[p].pairs_played, len(hand),
                               self.opts.eighth_card_actions_per_turn):
            for a in hand:
                for b in hand:
                    if a != b and duel.is_pair(a, b):
                        opts.append(Commit((a.code, b.code)))
        return tuple(opts)

    # --- the protocol ----------------------------------------------------------------------
    def pending(self, st: FrontierState) -> Decision | None:
        ph = st.phase
        if ph == "over":
            return None
        if st.deploy is not None:
            return self.deploy_pending(st)
        p = st.active
        if ph == "move":
            opts: list[Choice] = []
            spaces = []
            bases = self._bases(st)
            for m in self._standing(st, p):
                if m.moved:
                    continue
                sp = self._space(st, m, bases)
                spaces.append(sp)
                opts.append(Hold(m.id))
                opts.extend(self._straight_moves(st, m, sp))
            opts.extend(self._drinks(st, p))
            return Decision(p, "move", f"Turn {st.turn}, movement phase: move a model", tuple(opts), tuple(spaces))
        if ph == "main":
            opts = list(self._attacks(st, p))
            attacks = bool(opts)
            spaces = []
            opts.extend(self._drinks(st, p))
            bases = self._bases(st)
            for m in self._standing(st, p):
                if not m.second_move:
                    sp = self._space(st, m, bases)
                    spaces.append(sp)
                    opts.extend(self._straight_moves(st, m, sp))
            if not attacks:
                opts.append(Pass())
            return Decision(p, "activate", f"Turn {st.turn}, main phase: activate a model", tuple(opts), tuple(spaces))
        if ph in ("attack_card", "defend_card"):
            t = st.test
            model = st.models[t.attacker if ph == "attack_card" else t.defender]
            role = "attack" if ph == "attack_card" else "defend"
            return Decision(model.player, f"{role} card",
                            f"Choose in secret the card {model.name} {'attacks' if role == 'attack' else 'defends'} with",
                            self._commit_options(st, model.player, model) + self._drinks(st, model.player))
        if ph == "steal":
            victim = st.models[st.steal["victim"]]
            items = [self.items[i] for i in dict.fromkeys(victim.items)]
            opts = tuple(Steal(i.id) for i in duel.stealable(items, self.duel_rules))
            return Decision(st.steal["player"], "steal", f"Slippery Paws: take an item from {victim.name}", opts)
        if ph == "shortfall":
            word = "lay down" if self.opts.shortfall == "lay_down" else "forfeit"
            return Decision(p, word, f"No actions left: {word} a card ({self._must_spend(st, p)} to spend)",
                            tuple(LayDown(c.code) for c in st.cards[p].hand))
        if ph == "keep":
            return Decision(p, "keep or ditch", "Keep your last card (draw up) or ditch it (draw a full hand)?",
                            (KeepLast(True), KeepLast(False)))
        raise AssertionError(f"unknown phase {ph!r}")

    def apply(self, st: FrontierState, player: int, c: Choice) -> list[Event]:
        if st.deploy is not None:
            return self.deploy_apply(st, player, c)
        ev: list[Event] = []
        if isinstance(c, MoveTo):
            m = st.models[c.model]
            frm = (m.x, m.y)
            space = self._space(st, m)
            route = space.route(c)           # what the move costs of the allowance, as previewed
            d = math.hypot(c.x - m.x, c.y - m.y) / INCH
            m.x, m.y = float(c.x), float(c.y)
            m.z = self.table.surface_height(m.x, m.y)
            contact = [e.name for e in self._standing(st, 3 - m.player) if self._in_contact(m, e)]
            txt = f"{self._who(m)} moves {d:.1f}\""
            if route is not None and route[1] / INCH > d + 0.05:
                txt += f" ({route[1] / INCH:.1f}\" of its {space.allowance / INCH:g}\" with the climb or detour)"
            txt += f" into base contact with {', '.join(contact)}" if contact else ""
            ev.append(Event(txt, "move", {"model": m.id, "from": list(frm), "to": [m.x, m.y]}))
            if st.mission is not None and self._mission_after_move(st, m, ev):
                return ev
            if st.phase == "move":
                m.moved = True
                self._after_move(st, player, ev)
            else:
                m.second_move = True
                self._end_activation(st, player, ev)
        elif isinstance(c, Hold):
            m = st.models[c.model]
            m.moved = True
            ev.append(Event(f"{self._who(m)} holds its ground", "move", {"model": m.id}))
            if st.mission is not None and self._mission_after_move(st, m, ev):
                return ev
            self._after_move(st, player, ev)
        elif isinstance(c, Pass):
            st.passed[player] = True
            ev.append(Event(f"Player {player} passes for the rest of the turn", "pass"))
            self._end_activation(st, player, ev)
        elif isinstance(c, Drink):
            m = st.models[c.model]
            it = self.items[c.item]
            before = m.wounds
            m.wounds = duel.heal(m.wounds, m.max_wounds, it.heal)
            m.items.remove(c.item)
            ev.append(Event(f"{self._who(m)} drinks the {it.name.lower()}: {before} -> {m.wounds} wounds", "heal",
                            {"model": m.id, "wounds": m.wounds}))
        elif isinstance(c, (Shoot, Fight)):
            kind = "shot" if isinstance(c, Shoot) else "combat"
            st.test = Test(kind, c.model, c.target, c.weapon, getattr(c, "friend", ""))
            st.phase = "attack_card"
            ev.append(Event(self.describe_choice(st, c), kind, {"attacker": c.model, "defender": c.target}))
        elif isinstance(c, Commit):
            self._commit(st, player, c, ev)
            t = st.test
            if st.phase == "attack_card":
                d = st.models[t.defender]
                if st.cards[d.player].hand:
                    st.phase = "defend_card"
                else:
                    ev.append(Event(f"Player {d.player} has no card: {d.name} defends with the bare characteristic", "info"))
                    self._resolve(st, ev)
            else:
                self._resolve(st, ev)
        elif isinstance(c, Steal):
            thief, victim = st.models[st.steal["thief"]], st.models[st.steal["victim"]]
            victim.items.remove(c.item)
            thief.items.append(c.item)
            ev.append(Event(f"Slippery Paws: {self._who(thief)} takes the {self.items[c.item].name.lower()} "
                            f"from {self._who(victim)}", "steal", {"item": c.item}))
            st.steal = None
            self._after_test(st, ev)
        elif isinstance(c, LayDown):
            piles = st.cards[player]
            pc = piles.cards()
            cd = parse_card(c.card)
            if self.opts.shortfall == "lay_down":
                pc.lay_down(cd)
                ev.append(Event(f"Player {player} lays down the {cd.describe()}", "cards",
                                {"player": player, "cards": [cd.code]}))
            else:
                pc.forfeit(cd)
                ev.append(Event(f"Player {player} forfeits a card", "cards"))
                ev.append(Event(f"You forfeit the {cd.describe()}", "cards", {"owner": player, "cards": [cd.code]},
                                visible_to=frozenset({player})))
            piles.store(pc)
            self._shortfall(st, ev)
        elif isinstance(c, KeepLast):
            st.keep[player] = c.keep
            ev.append(Event(f"Player {player} {'keeps the last card' if c.keep else 'ditches the last card'}", "cards"))
            self._keep_next(st, ev)
        else:
            raise AssertionError(f"unexpected choice {c!r}")
        return ev
