"""Last Hope Frontier's enumerated moves: each model's move space, and the straight moves offered
as options beside it (into base contact with each enemy it can reach, an advance toward the
nearest enemy), cached on the positions that can change them."""
from __future__ import annotations

import math

from engine.rulesets.common import MoveSpace, MoveTo

from .state import CHARGE_GAP_MM, CONTACT_MM, INCH, FrontierState, Model


class MoveRules:
    """The move options of ``FrontierRules`` (a mixin: it reads the rules' profiles, table and caches)."""

    def _space(self, st: FrontierState, m: Model, bases=None) -> MoveSpace:
        prof = self.profiles[m.player][m.profile]
        if st.mission is not None:          # the strongbox's carrier moves at a share of its move
            share = self.move_share(st, m)
            if share != 1.0:
                move = prof.move * share
                return MoveSpace(self.table, m.base(), move * INCH, self._others(st, m, bases),
                                 label=f"move {m.name} up to {move:g}\" (carrying the strongbox)")
        return MoveSpace(self.table, m.base(), prof.move * INCH, self._others(st, m, bases),
                                 label=f"move {m.name} up to {prof.move:g}\"")

    def _straight_moves(self, st: FrontierState, m: Model, space: MoveSpace) -> list[MoveTo]:
        """The enumerated moves of a model: into base contact with each enemy it can reach, and
        an advance toward the nearest enemy. Cached on the positions (a pure function of them)."""
        # Only the enemies (for the nearest one and the contacts) and the models close enough to
        # touch a straight move's path or its end can change the answer.
        reach = space.allowance + m.radius + max(o.radius for o in st.models.values()) + 1.0
        key = (m.id, m.x, m.y, space.allowance,
               tuple((o.id, o.x, o.y) for o in st.models.values() if o.standing and o.id != m.id
                     and (o.player != m.player or math.hypot(o.x - m.x, o.y - m.y) <= reach)))
        hit = self._move_cache.get(key)
        if hit is None:
            if len(self._move_cache) > 4096:
                self._move_cache.clear()
            # the models a straight move of m can meet: with one enemy's position they settle the
            # move toward that enemy (cached per enemy below, so a far model's move costs nothing)
            near = tuple((o.id, o.x, o.y) for o in st.models.values() if o.wounds > 0 and o.id != m.id
                         and math.hypot(o.x - m.x, o.y - m.y) <= reach)
            hit = self._move_cache[key] = tuple(self._charges(st, m, space, near) + self._advance(st, m, space, near))
        return list(hit)

    def _toward(self, kind: str, m: Model, e: Model, space: MoveSpace, near, find) -> MoveTo | None:
        """``find()`` (the charge on, or the advance toward, enemy ``e``), cached on m's and e's
        positions and the models ``near`` m: ``find`` tests straight moves of at most the
        allowance from m, which no model further away can touch."""
        key = (kind, m.id, m.x, m.y, space.allowance, e.id, e.x, e.y, near)
        cache = self._pair_cache
        if key in cache:
            return cache[key]
        if len(cache) > 8192:
            cache.clear()
        c = cache[key] = find()
        return c

    def _charges(self, st: FrontierState, m: Model, space: MoveSpace, near=None) -> list[MoveTo]:
        """Moves that end in base contact with an enemy by a straight route."""
        out = []
        for e in self._standing(st, 3 - m.player):
            if self._in_contact(m, e):
                continue
            d = math.hypot(m.x - e.x, m.y - e.y)
            if d - m.radius - e.radius > space.allowance:
                continue

            def find(e=e, d=d):
                base_ang = math.atan2(m.y - e.y, m.x - e.x) if d > 0 else 0.0
                reach = m.radius + e.radius + CHARGE_GAP_MM
                for off in (0, 30, -30, 60, -60, 90, -90):
                    a = base_ang + math.radians(off)
                    c = MoveTo(m.id, round(e.x + reach * math.cos(a), 2), round(e.y + reach * math.sin(a), 2))
                    if self._quick(space, c):
                        return c
                return None
            c = find() if near is None else self._toward("charge", m, e, space, near, find)
            if c is not None:
                out.append(c)
        return out

    def _advance(self, st: FrontierState, m: Model, space: MoveSpace, near=None) -> list[MoveTo]:
        """A straight move toward the nearest enemy (as far as the allowance and a clear
        straight route allow, short of base contact): a convenience for players and agents."""
        enemies = self._standing(st, 3 - m.player)
        if not enemies:
            return []
        e = min(enemies, key=lambda q: (math.hypot(q.x - m.x, q.y - m.y), q.id))
        d = math.hypot(e.x - m.x, e.y - m.y)
        room = d - m.radius - e.radius - 2 * CONTACT_MM
        if d <= 0 or room <= INCH / 2:
            return []

        def find():
            ux, uy = (e.x - m.x) / d, (e.y - m.y) / d
            for frac in (1.0, 0.5):
                step = min(space.allowance, room) * frac
                c = MoveTo(m.id, round(m.x + ux * step, 2), round(m.y + uy * step, 2))
                if self._quick(space, c):
                    return c
            return None
        c = find() if near is None else self._toward("advance", m, e, space, near, find)
        return [] if c is None else [c]

    def _quick(self, space: MoveSpace, c: MoveTo) -> bool:
        """``space.quick(c) is None``, remembered per base, allowance, point and the other bases
        near the straight route: quick reads no other base (one further from the segment than
        the two radii can neither overlap the end point nor block the way), and the table is
        immutable, so the answer stands while those bases stay where they are."""
        b = space.base
        ax, ay, r = b.x, b.y, b.radius
        dx, dy = c.x - ax, c.y - ay
        L2 = dx * dx + dy * dy
        near = []
        for o in space.others:
            fx, fy = o.x - ax, o.y - ay
            t = (fx * dx + fy * dy) / L2 if L2 > 0 else 0.0
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
            gx, gy = fx - t * dx, fy - t * dy
            lim = r + o.radius + 1.0          # 1 mm of margin over the tests' own thresholds
            if gx * gx + gy * gy < lim * lim:
                near.append((o.id, o.x, o.y, o.radius))
        key = (b.id, ax, ay, r, space.allowance, space.difficult_factor, c.x, c.y, tuple(near))
        ok = self._quick_cache.get(key)
        if ok is None:
            if len(self._quick_cache) > 20000:
                self._quick_cache.clear()
            ok = self._quick_cache[key] = space.quick(c) is None
        return ok
