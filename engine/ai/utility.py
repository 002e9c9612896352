"""The search agents' utility: what a state is worth to a player, in about a wound's units.

Read from a sampled world's state (everything in it is either in the searching player's view or
invented by the sampling, see ``search.py``): material in each ruleset's own terms, each
ruleset's score (Frontier's and Doubles' missions: ``mission_value``), the result when the game is over, and where a ruleset needs one, a position
term (Frontier: who has a shot at whom from where they stand, with cover). ``Utility`` counts
the result alone; each ruleset's subclass adds its own terms (``value``) and is named by the
ruleset's easy policy (``Policy.Utility``), so nothing here chooses by ruleset id.
"""
from __future__ import annotations

import math

WIN = 20.0   # a won game, in the utility's units (about a model's worth of wounds is 3-5)


class Utility:
    """A state's worth to ``player`` (plain numbers: higher is better), read from a sampled
    world's state: material, each ruleset's score, and the result when the game is over."""

    def __init__(self, rules, table=None, policy=None, position: float = 0.0):
        """``table`` and ``policy`` (the searching player's easy policy for the ruleset: its
        static helpers, a model's fighter numbers and guns) feed the position term, weighted by
        ``position`` (0: none)."""
        self.rules = rules
        self.table = table
        self.policy = policy
        self.position = position
        self._sight: dict = {}
        self._scale: dict = {}

    def __call__(self, game, player: int) -> float:
        val = self.value(game.state, player)
        r = game.result()
        if r is not None and r.winner is not None:
            val += WIN if r.winner == player else -WIN
        return val

    def value(self, st, player: int) -> float:
        """The state's worth to ``player`` before the result: nothing in a ruleset without terms."""
        return 0.0


class DoublesUtility(Utility):
    """Doubles: each fighter standing is worth 2 + 3 x its health share (less on the ground),
    weighted by what the enemy scores for it against the mean (victory counts fighters' points)."""

    def value(self, st, player: int) -> float:
        R = self.rules
        if not self._scale:
            vals = {k: float(R.victory_values[(f.side, f.fid)]) for k, f in st.fighters.items()}
            mean = sum(vals.values()) / max(1, len(vals)) or 1.0
            self._scale = {k: (v / mean if mean else 1.0) for k, v in vals.items()}
            self._max = {k: max(1, R.chars(f).health) for k, f in st.fighters.items()}
        total = 0.0
        for k, f in st.fighters.items():
            if f.out:
                continue
            v = 2.0 + 3.0 * max(0, f.health) / self._max[k] - (0.5 if f.on_ground else 0.0)
            total += (v if f.side == player else -v) * self._scale.get(k, 1.0)
        if st.mission is not None:
            total += self.mission_value(st, player)
        return total

    def mission_value(self, st, player: int) -> float:
        """A mission's score (docs/rules/doubles.md, "Missions"): 1.5 a mission point scored, 0.75
        a stone held now or a relic carried now (what the next end of turn will score)."""
        R = self.rules
        o = 3 - player
        pts = st.mission["points"]
        total = 1.5 * (pts[player] - pts[o])
        if "relics" in st.mission:
            for r in st.mission["relics"].values():
                f = st.fighters.get(r["carrier"]) if r["carrier"] else None
                if f is not None and not f.out:
                    total += 0.75 * R.opts.relic_points if f.side == player else -0.75 * R.opts.relic_points
        else:
            for h in R.stones(st).values():
                if h is not None:
                    total += 0.75 * R.opts.stones_points if h == player else -0.75 * R.opts.stones_points
        return total



class FrontierUtility(Utility):
    """Frontier: a standing model is worth 2 + its wounds; cards in hand are worth 0.045 wound
    per point of strength (as easy prices them), for both sides; plus the position term."""

    def value(self, st, player: int) -> float:
        total = 0.0
        for m in st.models.values():
            if m.wounds > 0:
                v = 2.0 + m.wounds
                total += v if m.player == player else -v
        for q in (1, 2):
            s = self.card_strength(st, q)
            total += 0.045 * s if q == player else -0.045 * s
        if self.position and self.table is not None and self.policy is not None:
            total += self.position * self.frontier_position(st, player)
        if st.mission is not None:
            total += self.mission_value(st, player)
        return total

    def card_strength(self, st, q: int) -> float:
        """The strength of player ``q``'s cards in hand and committed, as easy prices a card kept:
        its rank, a favoured face's bonuses, half a point for the favoured suit, 16 a joker."""
        from engine.rulesets.frontier import duel

        fav = duel.FAVOURED_SUIT[self.rules.faction[q]]
        s = 0.0
        piles = st.cards[q]
        for c in list(piles.hand) + list(piles.committed):
            if c.is_joker:
                s += 16.0
                continue
            b = duel.FAVOURED_FACE_BONUS.get(c.rank, duel.NO_BONUS) if c.suit == fav else duel.NO_BONUS
            s += c.rank + b.test + b.damage + (0.5 if c.suit == fav else 0.0)
        return s

    def mission_value(self, st, player: int) -> float:
        """A mission's score (docs/rules/frontier.md, "Missions"). Claim Jumpers: 1.5 a claim point
        scored, 0.75 a point the claims held now will score at the end of the turn. The Strongbox:
        carrying it is worth 4, and up to 2 more as the carrier nears an edge it may leave by (a
        box carried off ends the game: the result's win counts that)."""
        R = self.rules
        o = 3 - player
        if "points" in st.mission:
            pts = st.mission["points"]
            total = 1.5 * (pts[player] - pts[o])
            for k, h in R.claims(st).items():
                if h is not None:
                    total += 0.75 * R.claim_value[(k, h)] * (1 if h == player else -1)
            return total
        c = R.carrier(st)
        if c is None:
            return 0.0
        gap, _ = R.edge_gap_in(c)
        v = 4.0 + 2.0 * max(0.0, 1.0 - gap / 24.0)
        return v if c.player == player else -v

    # Frontier's position: each standing model's best shot from where it stands (the easy
    # policy's own measure: 1 + a quarter per point of shooting over the target's defence,
    # clothing and the cover of the part hidden, in the gun's range and sight), summed per side,
    # mine minus theirs; models with no gun in range count the inches they still have to close
    # (a sixth of a point per 6"). The material terms cannot tell two moves apart until a shot
    # lands; this tells a move into a firing lane behind cover from one into the open.
    def frontier_position(self, st, player: int) -> float:
        from engine.rulesets.frontier import duel

        pol = self.policy
        alive = [m for m in st.models.values() if m.wounds > 0]
        side = {q: [m for m in alive if m.player == q] for q in (1, 2)}
        if not side[1] or not side[2]:
            return 0.0
        md = {m.id: {"id": m.id, "player": m.player, "x": m.x, "y": m.y, "z": m.z, "radius": m.radius,
                     "wounds": m.wounds, "items": m.items} for m in alive}
        key = tuple((m.id, m.x, m.y, m.z) for m in alive)
        vis12 = self._sight.get(key)
        if vis12 is None:
            # one coarse matrix (6 rays a pair, not 15) read both ways: a position term needs the
            # lanes, not the last ray, and it is paid at every playout's end
            bases = {k: pol.base(d) for k, d in md.items()}
            vis12, _ = self.table.sight_matrix([bases[m.id] for m in side[1]], [bases[m.id] for m in side[2]],
                                               h_samples=3, v_samples=2)
            if len(self._sight) > 4096:
                self._sight.clear()
            self._sight[key] = vis12
        vis = {1: vis12, 2: vis12.T}
        fighters = {k: pol.fighter(d) for k, d in md.items()}
        total = 0.0
        for q in (1, 2):
            them = side[3 - q]
            val = 0.0
            for i, m in enumerate(side[q]):
                guns = pol.ranged(md[m.id])
                rng = max([w.range for _, w in guns], default=0.0) * 25.4
                fm = fighters[m.id]
                best, near = 0.0, math.inf
                for j, e in enumerate(them):
                    dist = max(0.0, math.hypot(m.x - e.x, m.y - e.y) - m.radius - e.radius)
                    near = min(near, dist)
                    f = float(vis[q][i, j])
                    if guns and f > 0 and dist <= rng:
                        fe = fighters[e.id]
                        edge = (fm.shooting - fe.defence - fe.clothing
                                - duel.cover_bonus(min(1.0, max(0.0, 1.0 - f)), self.rules.duel_rules))
                        best = max(best, max(0.0, 1.0 + 0.25 * edge))
                val += best - (max(0.0, near - rng) / (6 * 25.4)) / 6.0
            total += val if q == player else -val
        return total



class CounterblastUtility(Utility):
    """Counterblast: the mission score as it stands (objectives held now + battle score), the
    points still standing (smooth), Down models and tokens, a little for Moxie."""

    def value(self, st, player: int) -> float:
        R = self.rules
        sc = R.scores(st)
        o = 3 - player
        total = float(sc[player]["mission"] - sc[o]["mission"])
        basis = float(R.opt.game_points or 1)
        total += 6.0 * (sc[player]["remaining"] - sc[o]["remaining"]) / basis
        for mid, m in st.models.items():
            if m.casualty:
                continue
            w = R.profile[mid].points / basis * 6.0
            v = -(0.5 * w if m.down else 0.0) - 0.05 * m.tokens
            total += v if m.player == player else -v
        total += 0.1 * (st.moxie.get(player, 0) - st.moxie.get(o, 0))
        return total
