"""Greedy play for Last Hope Frontier (playing cards; rout at half the posse out; 8 turns).

- Cards: for an opposed test, every card (or leader's pair) in hand is scored by the expected
  wounds it deals (attacking) or saves (defending), worked out with the ruleset's own pure
  ``duel.resolve_shot`` / ``resolve_combat`` against every card the opponent might hold (its
  whole deck less the cards it has shown face up this turn: the agent never sees its hand), less
  a small price for spending a high card. Lay down the lowest cards; keep a high last card.
- Attacks: the shot or fight worth most, priced as its card will be (cover from the table's sight).
- Moves: candidates from the table, scored by a shot from there (range, sight), the threat of
  enemies that see and reach the spot (less its cover) and walking distance to the nearest
  enemy; charges for models strong in a fight, first, then the posse by rank (leader, deputies,
  gangers). A card also weighs next turn's priority hand and, for the Bootleggers' leader's pair,
  the item it steals (``frontier_worth.py``); an attack is priced as its card will be. In a
  mission, walking distance to what the mission asks of the model (``mission_goal``: a claim no
  friend holds, the strongbox, its own edge when carrying it, an enemy carrier) and a bonus for
  being there."""
from __future__ import annotations

import math

from engine.rulesets.common import MoveSpace, MoveTo
from engine.rulesets.frontier import duel
from engine.rulesets.frontier.cards import Card, full_deck
from engine.rulesets.frontier.cards import card as parse_card
from engine.rulesets.frontier.data import fighter
from engine.rulesets.frontier.rules import (
    INCH,
    MODEL_HEIGHT_MM,
    Commit,
    Drink,
    Fight,
    FrontierRules,
    Hold,
    KeepLast,
    LayDown,
    Pass,
    Shoot,
    Steal,
)
from engine.table import Base, Table

from .easy import Policy, fallback
from .easy_moves import best_spot, candidate_moves, measure, view_key
from .frontier_worth import Worth
from .geo import INF, walk_grid
from .utility import FrontierUtility

CARD_PRICE = 0.045   # expected wounds a point of card rank is worth keeping for later
ROLE_RANK = {"leader": 0, "deputy": 1, "ganger": 2}   # the movement phase's order (docs/ai.md)
CONTACT_MM = 1.0


def _steps(lo: float, hi: float, step: float) -> list[float]:
    n = max(1, int((hi - lo) // step))
    return [lo + (hi - lo) * i / n for i in range(n + 1)]


def _play_class(cs: tuple, fav) -> tuple:
    """What a play does in a test, for a side whose favoured suit is ``fav``: a lone card counts
    by its rank and whether its suit is favoured (a joker is a class of its own, for its price),
    any other play (none, a pair) by its cards. Plays of one class give the same duel numbers
    and the same price (``card_strength``)."""
    if len(cs) != 1:
        return cs
    c = cs[0]
    return ("J",) if c.joker else (c.rank, c.suit is fav)


class FrontierPolicy(Policy):
    Utility = FrontierUtility
    # built by ``policy_class`` only once ``attach`` gave both: this ruleset's rules and a table
    rules: FrontierRules
    table: Table
    # Decisions easy answers better than a few sampled worlds can: the card for a test is
    # scored exactly against the opponent card model's plays (the search agents turn the model
    # on); a handful of sampled hands adds only noise (measured: hard lost 2-6 to easy in
    # Frontier while it searched them). The movement phase ("move") too: a look-ahead two
    # activations deep sees the reply to an advance (shots taken in the open) but not the fight
    # it leads to, so it kept trading easy's advances for Hold (8 of 28 movement decisions in a
    # measured game) and hard lost 7-17 to easy over 24 games (docs/ai.md).
    trusted = ("attack card", "defend card", "move")

    def __init__(self, agent):
        super().__init__(agent)
        self.grids = {}
        self._gains, self._gains_rules = {}, None   # _gain_fn's answers per duel, for one DuelRules
        self.worth = Worth(self.rules)              # next turn's priority, Slippery Paws (frontier_worth.py)

    # -------------------------------------------------------------- static facts
    def grid(self, r):
        g = self.grids.get(r)
        if g is None:
            g = self.grids[r] = walk_grid(self.table, r)
        return g

    def profile(self, m: dict):
        return self.rules.profiles[m["player"]][m["id"].split("-", 1)[1]]

    def fighter(self, m: dict):
        """The duel's Fighter for a model of the view, kept per everything ``fighter`` reads (its
        profile, faction and catalogue, its wounds and items): Fighters are frozen, and the card
        choices ask for the same ones many times a decision."""
        prof, faction, cat = self.profile(m), self.rules.faction[m["player"]], self.rules.catalogue
        wounds = max(1, m["wounds"])
        key = (id(prof), faction, id(cat), wounds, tuple(m["items"]))
        kept = self.__dict__.setdefault("_fighters", {})
        got = kept.get(key)
        if got is None or got[0] is not prof or got[1] is not cat:
            if len(kept) > 4096:
                kept.clear()
            got = kept[key] = (prof, cat, fighter(prof, faction, cat, wounds=wounds, items=m["items"]))
        return got[2]

    @staticmethod
    def base(m: dict) -> Base:
        return Base(m["id"], m["x"], m["y"], m["radius"], MODEL_HEIGHT_MM, 0.0, m["z"])

    def ranged(self, m: dict):
        out = []
        for i in dict.fromkeys(m["items"]):
            w = self.rules.items[i].ranged_weapon()
            if w is not None:
                out.append((i, w))
        return out

    def melee_damage(self, m: dict) -> int:
        return max([self.rules.items[i].melee_weapon().damage for i in m["items"]
                    if self.rules.items[i].melee_weapon() is not None] + [0])

    # -------------------------------------------------------------- decisions
    def choose(self, d, v):
        ms = {m["id"]: m for m in v["models"]}
        self.ms = ms
        self.v = v
        drink = self.drink(d, ms)
        if drink is not None:
            return drink
        if d.kind in ("attack card", "defend card"):
            return self.commit(d, v, ms)
        if d.kind == "activate":
            return self.activate(d, v, ms)
        if d.kind == "move":
            return self.move_phase(d, v, ms)
        if d.kind in ("lay down", "forfeit"):
            opts = [o for o in d.options if isinstance(o, LayDown)]
            return min(opts, key=lambda o: (self.card_strength(parse_card(o.card), self.player), o.card))
        if d.kind == "keep or ditch":
            hand = v["cards"][str(self.player)]["hand"] or []
            keep = bool(hand) and self.card_strength(parse_card(hand[0]), self.player) >= 11
            return next(o for o in d.options if isinstance(o, KeepLast) and o.keep == keep)
        if d.kind == "steal":
            return self.steal(d, v, ms)
        return fallback(d, self.agent.rng)

    def steal(self, d, v, ms):
        """Slippery Paws: the item whose loss hurts the victim and whose gain helps the thief
        most (``Worth.item_swing``), not the dearest."""
        t = v.get("test") or {}           # the test just resolved: its two models are thief and victim
        pair = [ms.get(t.get("attacker")), ms.get(t.get("defender"))]
        thief = next((m for m in pair if m is not None and m["player"] == self.player), None)
        victim = next((m for m in pair if m is not None and m["player"] != self.player), None)
        opts = [o for o in d.options if isinstance(o, Steal)]
        if thief is None or victim is None:
            return max(opts, key=lambda o: (self.rules.items[o.item].value, o.item))
        return max(opts, key=lambda o: (self.worth.item_swing(o.item, victim["items"], thief["items"]),
                                        self.rules.items[o.item].value, o.item))

    def drink(self, d, ms):
        """A drink is free but used up: drunk once the model misses a drink's worth of wounds, or
        any wound as it defends (a hit could take it out before the wound comes back)."""
        t = self.v.get("test") if isinstance(getattr(self, "v", None), dict) else None
        for o in d.options:
            if isinstance(o, Drink):
                m = ms[o.model]
                heal = self.rules.items[o.item].heal
                missing = m["max_wounds"] - m["wounds"]
                if missing >= heal or (missing > 0 and d.kind == "defend card" and t and t["defender"] == m["id"]):
                    return o
        return None

    # -------------------------------------------------------------- cards
    def card_strength(self, c: Card, player: int) -> float:
        if c.is_joker:
            return 16.0
        fav = c.suit == duel.FAVOURED_SUIT[self.rules.faction[player]]
        b = duel.FAVOURED_FACE_BONUS.get(c.rank, duel.NO_BONUS) if fav else duel.NO_BONUS
        return c.rank + b.test + b.damage + (0.5 if fav else 0.0)

    def unseen(self, v, opp: int) -> list[tuple[Card, float]]:
        """The opponent's possible cards: its 54 less the ones lying face up in front of it,
        grouped by what matters to a test (rank, favoured suit, joker), with weights."""
        shown = set(v["cards"][str(opp)]["played"] or [])
        fav = duel.FAVOURED_SUIT[self.rules.faction[opp]]
        groups: dict = {}
        for c in full_deck():
            if c.code in shown:
                continue
            key = ("J",) if c.is_joker else (c.rank, c.suit == fav)
            if key in groups:
                groups[key][1] += 1
            else:
                groups[key] = [c, 1]
        total = sum(n for _, n in groups.values())
        return [(c, n / total) for c, n in groups.values()]

    def unseen_plays(self, v, q: int) -> tuple[list, tuple]:
        """``unseen(v, q)`` as plays of one card, with a key that names them (q's faction and the
        cards face up before q, all they are made of), kept per key: a search's look-aheads ask
        for the same few sets again and again."""
        key = (self.rules.faction[q], frozenset(v["cards"][str(q)]["played"] or ()))
        kept = self.__dict__.setdefault("_unseen", {})
        got = kept.get(key)
        if got is None:
            if len(kept) > 1024:
                kept.clear()
            got = kept[key] = ([((c,), w) for c, w in self.unseen(v, q)], ("unseen",) + key)
        return got

    def commit(self, d, v, ms):
        """The card (or leader's pair) with the best expected gain less its price. The
        opponent's card is any it might hold, evenly (``unseen``); with ``model_cards`` on (the
        search agents), the card it would choose itself from a hand dealt from those cards
        (``opponent_plays``)."""
        test = self.test_context(v, ms)
        attacking = test[0]["player"] == self.player
        opp = 3 - self.player
        if self.model_cards:
            opp_plays, among = self.opponent_plays(v, test, opp), None
        else:
            opp_plays, among = self.unseen_plays(v, opp)
        opts = [o for o in d.options if isinstance(o, Commit)]
        played = v["cards"][str(self.player)]["played"] or []
        mine, theirs = (test[0], test[1]) if attacking else (test[1], test[0])
        paws = duel.LEADER_ACTION.get(self.rules.faction[self.player]) == "slippery_paws"
        steal = self.worth.steal_gain(theirs["items"], mine["items"]) if paws else 0.0
        best, best_u = None, -1e9
        for o in opts:
            cs = tuple(parse_card(x) for x in o.cards)
            u = (self.play_value(test, cs, opp_plays, attacking, among) - self.price(cs, self.player)
                 + self.worth.priority_gain(played, o.cards) + (steal if len(cs) == 2 else 0.0))
            if u > best_u + 1e-12:
                best, best_u = o, u
        return best or opts[0]

    model_cards = False          # the search agents turn the opponent model on
    # hard: per side, the cards seen going to the discard (``frontier_belief.CardMemory``), which
    # the opponent model deals to no hand; None (easy, hard-2026): the view's face-up cards only
    gone: dict | None = None
    MODEL_HANDS = 256            # hands dealt to the opponent to model its choice

    def price(self, cs, player: int) -> float:
        return CARD_PRICE * sum(self.card_strength(c, player) for c in cs)

    def test_context(self, v, ms):
        """(attacker, defender, their fighter numbers, weapon, hidden fraction, the test)."""
        t = v["test"]
        a, dm = ms[t["attacker"]], ms[t["defender"]]
        if t["kind"] == "combat":
            weapon = self.rules.items[t["weapon"]].melee_weapon() if t["weapon"] else duel.UNARMED
            hidden = 0.0
        else:
            weapon = self.rules.items[t["weapon"]].ranged_weapon()
            hidden = self.hidden(a, dm, ms)
        return a, dm, self.fighter(a), self.fighter(dm), weapon, hidden, t

    def attacker_gain(self, test, ap: tuple, dp: tuple) -> float | None:
        """What one resolved test is worth to the attacker (wounds, +2 for a model out, a friend
        hit, Heart of the Town healing on either side); None for plays the duel refuses."""
        gain, fav_a, fav_d, _ = self._gain_fn(test)
        return gain(_play_class(ap, fav_a), _play_class(dp, fav_d), ap, dp)

    def _gain_fn(self, test):
        """``attacker_gain`` for this test as a function ``gain(class_a, class_d, ap, dp)`` of
        the two plays and their ``_play_class`` (by each side's favoured suit, returned with it,
        and with the duel's table of answers),
        its answers kept per duel and per the plays' classes: the duel is a pure function of the
        frozen fighters, weapon, the cover bonus (not the hidden fraction it comes from), the
        friend in combat and what the two plays count as, and the same duels come back again
        and again, above all in a search agent's look-ahead. Worked out with the duel's numbers
        only (``worded=False``): nobody reads a scored duel's words."""
        _, _, fa, fd, weapon, hidden, t = test
        dr = self.rules.duel_rules
        if self._gains_rules is not dr:
            self._gains.clear()
            self._gains_rules = dr
        combat = t["kind"] == "combat"
        friend = bool(t["friend"])
        try:
            cover = 0 if combat else duel.cover_bonus(hidden, dr)
        except duel.DuelError:       # a fraction the duel refuses: every play gets None below
            cover = ("refused", hidden)
        key = (combat, fa, fd, weapon, cover, friend)
        got = self._gains.get(key)
        if got is None:
            if len(self._gains) > 4096:
                self._gains.clear()
            got = self._gains[key] = ({}, duel.FAVOURED_SUIT[fa.faction], duel.FAVOURED_SUIT[fd.faction])
        table, fav_a, fav_d = got   # this duel's plays (by class) -> worth

        def gain(ka, kd, ap: tuple, dp: tuple) -> float | None:
            k = (ka, kd)
            if k in table:
                return table[k]
            try:
                if combat:
                    r = duel.resolve_combat(fa, fd, duel.Play(ap), duel.Play(dp), weapon, dr, worded=False)
                else:
                    r = duel.resolve_shot(fa, fd, duel.Play(ap), duel.Play(dp), weapon, hidden, friend, dr,
                                          worded=False)
            except duel.DuelError:
                table[k] = None
                return None
            g = table[k] = (r.wounds + (2.0 if r.defender_out else 0.0) - 0.5 * r.friendly_damage
                            + 0.5 * r.attacker_healed - 0.5 * r.defender_healed)
            return g
        return gain, fav_a, fav_d, table

    def play_value(self, test, cs: tuple, opp_plays, attacking: bool, among: tuple | None = None) -> float:
        """Expected gain of playing ``cs`` against the opponent's plays (cards, weight).
        ``among``: a key naming ``opp_plays`` (``unseen_plays``): the answer is then kept with
        the duel's, per the play's class (the same sum in the same order, so the same number)."""
        gain, fav_a, fav_d, memo = self._gain_fn(test)
        kc = _play_class(cs, fav_a if attacking else fav_d)
        if among is not None:
            k = ("ev", kc, attacking, among)
            ev = memo.get(k)
            if ev is not None:
                return ev
        ev = 0.0
        if attacking:
            for oc, w in opp_plays:
                g = gain(kc, _play_class(oc, fav_d), cs, oc)
                if g is not None:
                    ev += w * g
        else:
            for oc, w in opp_plays:
                g = gain(_play_class(oc, fav_a), kc, oc, cs)
                if g is not None:
                    ev -= w * g
        if among is not None:
            memo[k] = ev
        return ev

    def opponent_plays(self, v, test, opp: int) -> list[tuple[tuple, float]]:
        """The opponent's card as easy would choose it: hands of its size dealt from the cards it
        might hold (its 54 less those face up), each answered by the card (or leader's pair, if
        it may play one) with the best expected gain against every card *we* might hold, less
        its price. Returns the chosen plays with their shares. Uses only the view: the counts of
        its hand and committed cards, the cards face up, the test."""
        c = v["cards"][str(opp)]
        committed = c["committed"] if isinstance(c["committed"], int) else len(c["committed"])
        size = c["hand_size"] + committed
        shown = set(c["played"] or []) | (self.gone or {}).get(opp, set())
        pool = [x for x in full_deck() if x.code not in shown]
        if size <= 0 or not pool:
            return [((), 1.0)]
        opp_attacking = not (test[0]["player"] == self.player)
        mine, among = self.unseen_plays(v, self.player)
        model = test[1] if not opp_attacking else test[0]
        leader = self.profile(model).role == "leader"
        pairs_ok = (committed != 1 and leader and size >= 2 and
                    c["pairs_played"] < self.rules.opts.eighth_card_actions_per_turn)
        singles_ok = committed != 2
        cache: dict = {}
        fav = duel.FAVOURED_SUIT[self.rules.faction[opp]]

        def value(cs: tuple) -> float:
            key = _play_class(cs, fav)     # a pair: its cards (kept, discarded)
            u = cache.get(key)
            if u is None:
                u = cache[key] = self.play_value(test, cs, mine, opp_attacking, among) - self.price(cs, opp)
            return u

        rng = self.agent.rng
        size = min(size, len(pool))
        counts: dict = {}
        for _ in range(self.MODEL_HANDS):
            hand = rng.sample(pool, size)
            best: tuple[Card, ...] | None = None      # a single card or a pair
            best_u = -1e9
            if singles_ok:
                for x in hand:
                    u = value((x,))
                    if u > best_u + 1e-12:
                        best, best_u = (x,), u
            if pairs_ok:
                for i, x in enumerate(hand):
                    for y in hand[i + 1:]:
                        if duel.is_pair(x, y):
                            for pr in ((x, y), (y, x)):
                                u = value(pr)
                                if u > best_u + 1e-12:
                                    best, best_u = pr, u
            if best is not None:
                counts[best] = counts.get(best, 0) + 1
        n = sum(counts.values())
        if not n:
            return [((x,), w) for x, w in self.unseen(v, opp)]
        return [(cs, k / n) for cs, k in counts.items()]

    def hidden(self, a: dict, t: dict, ms) -> float:
        """The share of ``t`` that ``a`` cannot see, kept per the bases it is measured from (the
        card choices and a search's look-aheads ask for the same shot again and again)."""
        others = tuple(self.base(m) for m in ms.values() if m["wounds"] > 0 and m["id"] not in (a["id"], t["id"]))
        key = (self.base(a), self.base(t), others)
        kept = self.__dict__.setdefault("_hidden", {})
        got = kept.get(key)
        if got is None:
            if len(kept) > 4096:
                kept.clear()
            s = self.table.sight(key[0], key[1], list(others))
            got = kept[key] = max(0.0, 1.0 - float(s.visible_fraction))
        return got

    # -------------------------------------------------------------- attacks
    exact_attacks = True      # False: the rough logistic of before (kept for the head-to-head bench)

    def attack_value(self, o, ms) -> float:
        if not self.exact_attacks:
            return self.rough_attack_value(o, ms)
        return self.priced_attack_value(o, ms)

    def rough_attack_value(self, o, ms) -> float:
        """Before issue 61: a smooth chance from the numbers, times the wounds."""
        a, t = ms[o.model], ms[o.target]
        fa, ft = self.fighter(a), self.fighter(t)
        if isinstance(o, Fight):
            w = self.rules.items[o.weapon].melee_weapon() if o.weapon else duel.UNARMED
            edge = fa.strength - (ft.defence + ft.clothing)
        else:
            w = self.rules.items[o.weapon].ranged_weapon()
            edge = fa.shooting - (ft.defence + ft.clothing + duel.cover_bonus(self.hidden(a, t, ms), self.rules.duel_rules))
            edge -= 1.5 if w.thrown else 0.0
            edge -= 1.0 if o.friend else 0.0
        p = 1.0 / (1.0 + math.exp(-edge / 2.5))
        wounds = max(0.3, 1 + w.damage - ft.toughness + 0.5)
        kill = (1.5 if t["wounds"] <= wounds else 0.0) + (3.0 if self.carrying(t) else 0.0)
        return p * (wounds + kill)

    def priced_attack_value(self, o, ms) -> float:
        """The attack's worth: its test priced as the card choice will price it (the duel's own
        ``resolve_shot`` / ``resolve_combat`` with my best card against every card the target's
        player might hold, less the card's price), so a fight and a shot are weighed alike."""
        a, t = ms[o.model], ms[o.target]
        fa, ft = self.fighter(a), self.fighter(t)
        if isinstance(o, Fight):
            w = self.rules.items[o.weapon].melee_weapon() if o.weapon else duel.UNARMED
            test = (a, t, fa, ft, w, 0.0, {"kind": "combat", "friend": ""})
        else:
            w = self.rules.items[o.weapon].ranged_weapon()
            test = (a, t, fa, ft, w, self.hidden(a, t, ms), {"kind": "shot", "friend": o.friend})
        cards = self.v["cards"]
        opp = 3 - self.player
        if cards[str(opp)]["hand_size"] <= 0:
            opp_plays, among = [((), 1.0)], ("none",)
        else:
            opp_plays, among = self.unseen_plays(self.v, opp)
        hand = cards[str(self.player)]["hand"] or []
        plays: list[tuple[Card, ...]] = [(parse_card(c),) for c in dict.fromkeys(hand)] or [()]
        val = max(self.play_value(test, cs, opp_plays, True, among) - self.price(cs, self.player) for cs in plays)
        if w.thrown:
            val -= 0.3           # the knife is lost
        if self.carrying(t):     # an enemy carrying the strongbox: bring it down first
            val += 1.5
        return val

    def activate(self, d, v, ms):
        attacks = [o for o in d.options if isinstance(o, (Shoot, Fight))]
        for sp in d.spaces:         # our strongbox carrier walks for its edge before anyone shoots
            if isinstance(sp, MoveSpace) and sp.base.id in ms and self.carrying(ms[sp.base.id]):
                mv, gain = self.best_move(sp, ms[sp.base.id], ms, second=True)
                if mv is not None and gain > 0.2:
                    return mv
        if attacks:
            return max(attacks, key=lambda o: (self.attack_value(o, ms), o.model, o.target, o.weapon, getattr(o, "friend", "")))
        spaces = [s for s in d.spaces if isinstance(s, MoveSpace)]
        enemies = [m for m in ms.values() if m["player"] != self.player and m["wounds"] > 0]
        if spaces and enemies:
            def near(sp):
                b = sp.base
                d = min(math.hypot(e["x"] - b.x, e["y"] - b.y) for e in enemies)
                goal = self.mission_goal(ms[b.id], ms)     # a mission's marker counts as near too
                if goal is not None:
                    d = min([d] + [math.hypot(x - b.x, y - b.y) for x, y in goal[0]])
                return d
            contacts = [o for o in d.options if isinstance(o, MoveTo) and self.is_contact(o, ms)
                        and not self.carrying(ms[o.model])]
            if contacts:
                return max(contacts, key=lambda o: (self.charge_value(o, ms), o.model))
            for sp in sorted(spaces, key=near)[:2]:
                mv, gain = self.best_move(sp, ms[sp.base.id], ms, second=True)
                if mv is not None and gain > 0.2:
                    return mv
        passes = [o for o in d.options if isinstance(o, Pass)]
        if passes:
            return passes[0]
        moves = [o for o in d.options if isinstance(o, MoveTo)]
        if moves:
            return moves[0]
        return fallback(d, self.agent.rng)

    def is_contact(self, o: MoveTo, ms) -> bool:
        m = ms[o.model]
        for e in ms.values():
            if e["player"] != m["player"] and e["wounds"] > 0:
                if math.hypot(e["x"] - o.x, e["y"] - o.y) - e["radius"] - m["radius"] <= CONTACT_MM:
                    return True
        return False

    def charge_value(self, o: MoveTo, ms) -> float:
        m = ms[o.model]
        fm = self.fighter(m)
        best = -9.0
        for e in ms.values():
            if e["player"] != m["player"] and e["wounds"] > 0 and \
                    math.hypot(e["x"] - o.x, e["y"] - o.y) - e["radius"] - m["radius"] <= CONTACT_MM:
                fe = self.fighter(e)
                best = max(best, fm.strength + self.melee_damage(m) - fe.defence - fe.clothing - 0.5 * fe.strength)
        return best

    # -------------------------------------------------------------- moves
    move_order = "rank"       # "roster": the first model still to move, charges its only (before);
    # "gain": the model whose best move gains most (tried: weaker, docs/ai.md); for the bench

    def move_phase(self, d, v, ms):
        """Which model moves now, and where: a charge into a fight it is strong in (or for a model
        with no gun) first, the strongest such, whichever model it is (the target cannot walk
        away before it); else the posse by rank, the leader, the deputies, then the gangers, each
        to its best move or holding. Tried and measured weaker against the old easy (docs/ai.md):
        the model whose best move gains most first (45% of decided games over 200), the one
        farthest from the enemy first (41%), the nearest first (45%)."""
        spaces = [s for s in d.spaces if isinstance(s, MoveSpace)]
        if not spaces:
            holds = [o for o in d.options if isinstance(o, Hold)]
            return holds[0] if holds else fallback(d, self.agent.rng)
        if self.move_order == "roster":
            spaces = spaces[:1]          # before issue 61: the first model still to move
        charges = []
        for sp in spaces:
            m = ms[sp.base.id]
            if self.carrying(m):         # the strongbox's carrier walks, it does not brawl
                continue
            contacts = [o for o in d.options if isinstance(o, MoveTo) and o.model == m["id"] and self.is_contact(o, ms)]
            if contacts:
                c = max(contacts, key=lambda o: self.charge_value(o, ms))
                cv = self.charge_value(c, ms)
                if cv >= 1.0 or not self.ranged(m):
                    charges.append((cv, m["id"], c))
        if charges:
            return max(charges, key=lambda x: (x[0], x[1]))[2]
        if self.move_order == "gain":
            best, best_gain = None, 0.05
            for sp in spaces:
                mv, gain = self.best_move(sp, ms[sp.base.id], ms, second=False)
                if mv is not None and gain > best_gain + 1e-9:
                    best, best_gain = mv, gain
            return best if best is not None else Hold(spaces[0].base.id)
        # the posse's ranks: its leader, then deputies, then gangers (the roster's order within a rank)
        sp = min(enumerate(spaces), key=lambda x: (ROLE_RANK.get(self.profile(ms[x[1].base.id]).role, 3), x[0]))[1]
        mv, gain = self.best_move(sp, ms[sp.base.id], ms, second=False)
        return mv if mv is not None and gain > 0.05 else Hold(sp.base.id)

    def best_move(self, space, m, ms, second: bool):
        """(the best move, its gain over staying), kept per question (a search meets the same
        position in many worlds): the key is the move space, every model's whole entry and the
        mission's entry of the view (None in the fight)."""
        mission = self.v.get("mission") if isinstance(getattr(self, "v", None), dict) else None
        key = (space.signature(), m["id"], second, self.places_key(ms), None if mission is None else view_key(mission))
        return self.kept_move(key, lambda: self._best_move(space, m, ms, second))

    @staticmethod
    def places_key(ms) -> tuple:
        """What a move answer reads of the models (places, wounds, items, side), without whether
        each has moved: a Hold in the movement phase keeps every other model's answer."""
        return tuple((k, m["player"], m["x"], m["y"], m["z"], m["radius"], m["wounds"], tuple(m["items"]))
                     for k, m in sorted(ms.items()))

    # -------------------------------------------------------------- missions (docs/rules/frontier.md)
    def carrying(self, m: dict) -> bool:
        mv = self.v.get("mission") if isinstance(getattr(self, "v", None), dict) else None
        return bool(mv and mv.get("strongbox") and mv["strongbox"]["carrier"] == m["id"])

    def mission_goal(self, m: dict, ms) -> tuple | None:
        """What a mission asks of ``m``: (points to walk to, reach (mm from its base edge), weight
        per move of walking, bonus for being within reach), or None (the fight; nothing to do).
        Claim Jumpers: the markers no other standing model of ours is near (so the posse spreads
        over them; one an enemy holds is worth contesting). The Strongbox: the box while it lies;
        our carrier, the table edges it may leave by; an enemy carrier, to be run down."""
        mv = self.v.get("mission") if isinstance(getattr(self, "v", None), dict) else None
        if not mv:
            return None
        mine = [o for o in ms.values() if o["player"] == self.player and o["wounds"] > 0 and o["id"] != m["id"]]
        if mv["id"] == "claim-jumpers":
            reach = mv["claim_distance_mm"]
            pts = tuple((k["x"], k["y"]) for k in mv["markers"]
                        if not any(math.hypot(o["x"] - k["x"], o["y"] - k["y"]) - o["radius"] <= reach for o in mine))
            return (pts, reach, 0.5, 1.5) if pts else None
        box = mv.get("strongbox")
        if not box or box["escaped"]:
            return None
        if not box["carrier"]:
            return ((box["x"], box["y"]),), mv["reach_mm"], 0.6, 3.0
        if box["carrier"] == m["id"]:
            pts = tuple(q for e in mv["escape_edges"][str(self.player)] for q in self.edge_points(e, m["radius"]))
            return pts, mv["edge_mm"], 1.5, 10.0
        carrier = ms.get(box["carrier"])
        if carrier is not None and carrier["player"] != self.player:
            return ((carrier["x"], carrier["y"]),), CONTACT_MM, 0.8, 0.0
        return None

    def edge_points(self, edge: str, r: float) -> tuple:
        """Points along a table edge, a base's radius in, every inch (a walking goal)."""
        w, h = self.table.width, self.table.height
        if edge in ("west", "east"):
            x = r + 1.0 if edge == "west" else w - r - 1.0
            return tuple((x, y) for y in _steps(r + 1.0, h - r - 1.0, INCH))
        y = r + 1.0 if edge == "south" else h - r - 1.0
        return tuple((x, y) for x in _steps(r + 1.0, w - r - 1.0, INCH))

    def _best_move(self, space, m, ms, second: bool):
        enemies = [e for e in ms.values() if e["player"] != self.player and e["wounds"] > 0]
        if not enemies:
            return None, 0.0
        grid = self.grid(m["radius"])
        field_ = grid.field([(e["x"], e["y"]) for e in enemies])
        mover = self.base(m)
        mgoal = self.mission_goal(m, ms)
        if mgoal is None:
            moves = candidate_moves(space, grid, [field_], [(e["x"], e["y"]) for e in enemies],
                                    stop_short=m["radius"] + 16.0)
        else:                  # a mission's marker, edge or carrier: walked to round the terrain too
            goal_field = grid.field(mgoal[0])
            moves = candidate_moves(space, grid, [field_, goal_field],
                                    [(e["x"], e["y"]) for e in enemies]
                                    + sorted(mgoal[0], key=lambda q: (math.hypot(q[0] - m["x"], q[1] - m["y"]), q))[:3],
                                    stop_short=m["radius"] + 16.0)
        here = MoveTo(m["id"], m["x"], m["y"])
        others = [self.base(o) for o in ms.values() if o["wounds"] > 0 and o["id"] != m["id"]]
        guns = self.ranged(m)
        fm = self.fighter(m)
        rng_mm = max([w.range for _, w in guns], default=0.0) * INCH
        # only the pairs the scores below read: a shot within my range, a threat within the
        # enemy's range plus 6"
        threat_mm = [max([w.range for _, w in self.ranged(e)], default=0.0) * INCH + 6 * INCH for e in enemies]
        spots = measure(self.table, mover, [here] + moves, [self.base(e) for e in enemies], others, field_, grid,
                        sees_within=[rng_mm if guns else -1.0] * len(enemies), seen_within=threat_mm)
        melee_bent = not guns or fm.strength >= fm.shooting + 1
        step = max(1.0, space.allowance)
        for s in spots:
            goal = s.goal if s.goal < INF else 5 * step
            u = -0.6 * goal / step if not guns else -0.35 * goal / step
            shot = 0.0
            threat = 0.0
            for j, e in enumerate(enemies):
                dist = max(0.0, math.hypot(s.base.x - e["x"], s.base.y - e["y"]) - m["radius"] - e["radius"])
                fe = self.fighter(e)
                if guns and s.sees[j] > 0 and dist <= rng_mm:
                    hid = 1.0 - s.sees[j]
                    edge = fm.shooting - fe.defence - fe.clothing - duel.cover_bonus(hid, self.rules.duel_rules)
                    shot = max(shot, 1.0 + 0.25 * edge + (0.5 if e["wounds"] <= 1 else 0.0))
                if s.seen[j] > 0 and dist <= threat_mm[j]:
                    hid = 1.0 - s.seen[j]
                    threat += 0.25 * max(0.0, 1.0 + 0.25 * (fe.shooting - fm.defence - fm.clothing)
                                         - 0.4 * duel.cover_bonus(hid, self.rules.duel_rules))
            if melee_bent:
                shot *= 0.5
            s.score = u + shot - threat
            s.parts = {"goal": u, "shot": shot, "threat": -threat}
            if mgoal is not None:
                pts, reach, weight, bonus = mgoal
                gd = grid.dist(goal_field, s.base.x, s.base.y)
                obj = -weight * (gd if gd < INF else 5 * step) / step
                if any(math.hypot(s.base.x - x, s.base.y - y) - m["radius"] <= reach for x, y in pts):
                    obj += bonus
                s.score += obj
                s.parts["objective"] = obj
        got = best_spot(spots, space, self.frame)
        self.note_reason(spots, got[0])
        return got
