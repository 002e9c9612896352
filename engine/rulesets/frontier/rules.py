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

The choices live in ``choices.py``, the state in ``state.py``, the enumerated moves in
``moves.py`` and the views and words in ``words.py`` (mixins of ``FrontierRules``). The rules in
plain words, and the decisions we made where the seed is silent, are in
``docs/rules/frontier.md``.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from engine.core import Choice, Decision, Event, Result, Rules, register
from engine.core.errors import SetupError
from engine.core.rng import GameRng
from engine.data.errors import problems_of
from engine.rulesets.common import MoveTo
from engine.table import Base

from . import duel, poker, turns
from .cards import _FULL_SET, DECK_SIZE, Card, PlayerCards, card as parse_card, full_deck
from .choices import Commit, Drink, Fight, Hold, KeepLast, LayDown, Pass, Shoot, Steal
from .data import ItemCatalogue, Options, Posse, fighter, load_items, load_posses, parse_posse
from .deployment import PlacementMixin
from .moves import MoveRules
from .state import CHARGE_GAP_MM, CONTACT_MM, INCH, MODEL_HEIGHT_MM, FrontierState, Model, Piles, Test
from .words import WordsRules

# the names other modules and the tests import from here
__all__ = ["CHARGE_GAP_MM", "CONTACT_MM", "INCH", "MODEL_HEIGHT_MM", "Commit", "Drink", "Fight", "FrontierRules",
           "FrontierState", "Hold", "KeepLast", "LayDown", "Model", "Pass", "Piles", "Shoot", "Steal", "Test",
           "card_places"]

DEFAULT_FACTIONS = ("sheriffs", "outlawmen")


# --- static data -----------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _catalogue() -> ItemCatalogue:
    return load_items()


@lru_cache(maxsize=1)
def _shipped_posses() -> dict[str, Posse]:
    return load_posses()


@lru_cache(maxsize=1)
def _default_options() -> dict:
    return Options().model_dump()


def _posse_of(roster: Any, player: int) -> Posse:
    if isinstance(roster, Posse):
        return roster
    if roster is None:
        roster = DEFAULT_FACTIONS[player - 1]
    if isinstance(roster, str):
        posses = _shipped_posses()
        if roster not in posses:
            raise SetupError(f"player {player}: no posse {roster!r} (shipped: {', '.join(sorted(posses))})")
        return posses[roster]
    if isinstance(roster, dict):
        try:
            return parse_posse(roster, f"roster of player {player}", _catalogue())
        except Exception as err:  # DataError names the field
            raise SetupError(f"player {player}: the posse is refused: {err}") from None
    raise SetupError(f"player {player}: a roster is a faction id or a posse object, not {type(roster).__name__}")


# --- the ruleset -------------------------------------------------------------------------------

@register
class FrontierRules(PlacementMixin, MoveRules, WordsRules, Rules):
    id = "frontier"
    home_map = "town"
    easy_policy = "engine.ai.easy_frontier:FrontierPolicy"
    name = "Last Hope Frontier"
    unit = "in"
    # 2: the leader deploys in the middle of the line (saves of version 1 replay differently)
    # 3: issue 45 (a deployment phase; the automatic placement in each side's own frame)
    version = "3"

    def __init__(self, table, rosters, options):
        super().__init__(table, rosters, options)
        rosters = list(rosters) + [None] * (2 - len(rosters))
        self.posses: dict[int, Posse] = {p: _posse_of(rosters[p - 1], p) for p in (1, 2)}
        unknown = set(options) - set(_default_options())
        if unknown:
            raise SetupError(f"unknown frontier options: {', '.join(sorted(unknown))}")
        try:
            self.opts = Options.model_validate({**_default_options(), **options})
        except ValidationError as err:
            raise SetupError("frontier options refused: " + "; ".join(f"{f}: {r}" for f, r in problems_of(err))) from None
        except Exception as err:
            raise SetupError(f"frontier options refused: {err}") from None
        self.duel_rules = self.opts.duel_rules()
        self.catalogue = _catalogue()
        self.items = self.catalogue.by_id()
        self.faction = {p: self.posses[p].faction for p in (1, 2)}
        self.profiles = {p: {m.id: m for m in self.posses[p].models} for p in (1, 2)}
        self._sight_cache: dict = {}
        self._move_cache: dict = {}
        self._quick_cache: dict = {}
        self._pair_cache: dict = {}

    @classmethod
    def default_rosters(cls, table) -> list:
        return list(DEFAULT_FACTIONS)

    @classmethod
    def roster_ids(cls) -> dict[str, str]:
        return {k: p.name for k, p in load_posses().items()}

    @classmethod
    def smallest_base_mm(cls) -> float:
        return float(min(m.base_mm for p in load_posses().values() for m in p.models))

    # --- set-up ---------------------------------------------------------------------------
    def initial_state(self, seed: int) -> FrontierState:
        rng = GameRng(seed)
        st = FrontierState(rng=rng)
        decks = [PlayerCards.new(rng), PlayerCards.new(rng)]
        first = duel.first_turn_draw(decks, [self.faction[1], self.faction[2]], rng)
        st.first_draw = [[a.code, b.code] for a, b in first.draws]
        for pc in decks:
            pc.deal(self.opts.hand_size, rng)
        for p in (1, 2):
            st.cards[p] = Piles()
            st.cards[p].store(decks[p - 1])
        st.priority = st.active = first.winner + 1
        st.phase = "deploy"
        self._setup_events = []
        self.deploy_setup(st, self._setup_events)
        return st

    def _names(self, p: int) -> dict[str, str]:
        models = self.posses[p].models
        count: dict[str, int] = {}
        for m in models:
            count[m.name] = count.get(m.name, 0) + 1
        seen: dict[str, int] = {}
        out = {}
        for m in models:
            if count[m.name] > 1:
                seen[m.name] = seen.get(m.name, 0) + 1
                out[m.id] = f"{m.name} {seen[m.name]}"
            else:
                out[m.id] = m.name
        return out

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

    # --- flow --------------------------------------------------------------------------------
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
                     "scores": {str(p): {"standing": s.standing, "wounds_left": s.wounds_left}
                                for p, s in zip((1, 2), sides)}}
        st.phase = "over"
        st.test = None
        st.steal = None
        ev.append(Event(f"Game over: {v.reason}" + ("" if winner is None else f"; player {winner} wins"), "result",
                        {"winner": winner}))

    def _finish_turn(self, st: FrontierState, ev: list[Event]) -> None:
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

    # --- views and results -----------------------------------------------------------------------
    def hidden_from(self, st: FrontierState, player: int) -> tuple:
        """The cards ``player`` cannot see (as in ``determinize``): the opponent's hand, committed
        card, deck and discard, and the player's own deck and discard. A decision that turns the
        opponent's committed card over, or draws a card, changes it: no undo past it."""
        out = []
        for q in (1, 2):
            piles = st.cards[q]
            names = ("deck", "discard") if q == player else ("hand", "committed", "deck", "discard")
            out.append(tuple(tuple(getattr(piles, n)) for n in names))
        return self.deploy_hidden(st, player, tuple(out))

    def determinize(self, st: FrontierState, player: int | None, rng) -> FrontierState:
        """The state with the dice reseeded (``Rules.determinize``) and every card ``player``
        does not see dealt anew, keeping each pile's count: of the opponent's 54 cards, all but
        those played face up (hand, committed and unrevealed card, deck, discard); of the
        player's own, the deck and the discard (the view gives their counts only). Each pool is
        built from the full deck's fixed order less the cards in view, then shuffled with
        ``rng``, so the result depends on the view and ``rng`` alone."""
        new = super().determinize(st, player, rng)   # the deployment's unseen spots redrawn there too
        if player not in (1, 2):
            return new
        for q in (1, 2):
            piles = new.cards[q]
            if q == player:
                seen = set(piles.hand) | set(piles.committed) | set(piles.played)
                redeal = ("deck", "discard")
            else:
                seen = set(piles.played)
                redeal = ("hand", "committed", "deck", "discard")
            pool = [c for c in full_deck() if c not in seen]
            rng.shuffle(pool)
            if "committed" in redeal and len(piles.committed) == 2:
                # a leader's committed pair (kept, discarded) stays a legal pair: the first card
                # of the shuffled pool, and the next one that pairs with it
                pool = self._pair_first(pool)
                n_hand = len(piles.hand)
                pool = pool[2:2 + n_hand] + pool[:2] + pool[2 + n_hand:]
            i = 0
            for name in redeal:
                n = len(getattr(piles, name))
                setattr(piles, name, pool[i:i + n])
                i += n
            assert i == len(pool), "every unseen card is dealt to exactly one pile"
        return new

    @staticmethod
    def _pair_first(pool: list) -> list:
        """``pool`` reordered so its first two cards make a legal eighth-card pair (the first
        card that has a partner, then its first partner), the rest in their order."""
        for i, a in enumerate(pool):
            for j in range(i + 1, len(pool)):
                b = pool[j]
                try:
                    duel.check_pair(a, b)
                except duel.DuelError:
                    continue
                rest = [c for k, c in enumerate(pool) if k not in (i, j)]
                return [a, b] + rest
        raise AssertionError("no legal pair among the unseen cards")

    def result(self, st: FrontierState) -> Result | None:
        if st.result is None:
            return None
        sides = self._sides(st)
        if any(s.standing == 0 for s in sides):
            ending = "wiped_out"
        elif self.opts.victory == "rout" and any(turns.routed(s, self.opts.rout_fraction) for s in sides):
            ending = "rout"    # the rout is checked before the turn limit, as in turns.victory
        else:
            ending = "turn_limit"
        return Result(st.result["winner"], st.result["reason"], dict(st.result["scores"]), ending)

    # --- words -----------------------------------------------------------------------------------
    def attack_odds(self, st: FrontierState, c: Choice, player: int | None):
        """Exact odds of a Shoot, a Fight or the attacker's Commit, from what ``player`` may know
        (``attack_odds.py``, model in ``odds.py``); None for any other choice."""
        from . import attack_odds as _attack_odds
        return _attack_odds.attack_odds(self, st, c, player)

# --- invariants (tests and debugging) ------------------------------------------------------------

def card_places(st: FrontierState, p: int) -> dict[Card, str]:
    """Where each of player ``p``'s cards is; raises AssertionError unless all 54 are in exactly
    one place (deck, hand, committed, played, discard)."""
    seen: dict[Card, str] = {}
    for where, pile in st.cards[p].places().items():
        for c in pile:
            if c in seen:
                raise AssertionError(f"player {p}: {c} is both in {seen[c]} and {where}")
            seen[c] = where
    if len(seen) != DECK_SIZE or seen.keys() != _FULL_SET:
        missing = sorted(c.code for c in _FULL_SET - seen.keys())
        raise AssertionError(f"player {p}: {len(seen)} cards tracked, missing {missing}")
    return seen
