"""Geometry and model helpers of the Counterblast state machine: bases, edge-to-edge distances, the
table with hacked doors open, sight (cached per position set), cover, engagement, and each
model's Zap / Grit / Move as its conditions leave them.
"""
from __future__ import annotations

import math

from engine.core.tables import table_without
from engine.data.errors import find_id
from engine.table import Base

from .. import attacks, conditions, damage
from ..data import is_hero
from ..state import CBState, Model
from .common import CONTACT_MM, MM, PRONE_HEIGHT_MM


class GeometryRules:
    """Where the models stand and what follows from it: bases, distances, sight, cover, engagement; and
    each model's abilities as its conditions leave them."""

    def base(self, m: Model) -> Base:
        p = self.profile[m.id]
        h = PRONE_HEIGHT_MM if (m.down or m.has("prone")) else p.height_mm
        return Base(m.id, m.x, m.y, p.base_mm / 2, h, 0.0, m.z)

    def bases(self, st: CBState, exclude=()) -> list[Base]:
        # the sight table's bases: its key holds everything a Base is made of (position, z,
        # Down or Prone for the height, on the table); Bases are frozen, so sharing them is safe
        bs = self._sight_table(st)[0]
        return [b for b in bs if b.id not in exclude] if exclude else list(bs)

    def dist(self, st, a: str, b: str) -> float:
        """Edge-to-edge distance in inches."""
        ma, mb = st.models[a], st.models[b]
        return max(0.0, math.hypot(ma.x - mb.x, ma.y - mb.y) - self.radius[a] - self.radius[b]) / MM

    def _to_point(self, st, i, x, y) -> float:
        """``table.distance_to_point(self.base(model i), x, y)`` (base edge to the point, mm)
        without building the Base: the same arithmetic on the same numbers (scores and views
        ask it for every model and marker, the search at every leaf)."""
        m = st.models[i]
        return max(0.0, math.hypot(m.x - x, m.y - y) - self.radius[i])

    def within(self, st, a, b, inches) -> bool:
        return self.dist(st, a, b) * MM <= inches * MM + CONTACT_MM

    def tbl(self, st: CBState):
        """The table as it stands now: the map without the secure doors Hacked open."""
        if not st.opened:
            return self.table
        key = tuple(st.opened)
        t = self._tables.get(key)
        if t is None:
            t = self._tables[key] = table_without(self.table.mapfile, key)
        return t

    # While the options of a decision are listed (``_action_options``), the state does not
    # change: (state, its sight table) is held here so the key is worked out once per listing.
    _listing: tuple | None = None

    def _sight_table(self, st: CBState) -> tuple:
        """(bases, cache of (viewer, target) -> visible share) for the current positions."""
        held = self._listing
        if held is not None and held[0] is st:
            return held[1]
        ms = st.models
        key = (tuple(st.opened),) + tuple([(m.x, m.y, m.z, m.down or "prone" in m.conditions) if m.on_table else None
                                           for m in [ms[i] for i in st.order]])
        got = self._sight_cache.get(key)
        if got is None:
            if len(self._sight_cache) > 256:
                self._sight_cache.clear()
            got = self._sight_cache[key] = ([self.base(ms[i]) for i in st.order if ms[i].on_table], {})
        return got

    def _fill(self, st, viewers, targets) -> None:
        bs, cache = self._sight_table(st)
        by = {b.id: b for b in bs}
        vb = [by[v] for v in viewers if v in by]
        tb = [by[t] for t in targets if t in by]
        if not vb or not tb:
            return
        vis, _ = self.tbl(st).sight_matrix(vb, tb, bs)
        for i, a in enumerate(vb):
            for j, b in enumerate(tb):
                cache[(a.id, b.id)] = float(vis[i, j])

    def _fill_missing(self, st, viewers, targets) -> None:
        """``_fill`` for the pairs not in the sight cache yet, in one call (none if all are)."""
        _, cache = self._sight_table(st)
        vs = [v for v in viewers if any(v != t and (v, t) not in cache for t in targets)]
        ts = [t for t in targets if any(v != t and (v, t) not in cache for v in vs)]
        if vs and ts:
            self._fill(st, vs, ts)

    def seen(self, st, viewer: str, target: str) -> float:
        """Share of ``target`` that ``viewer`` can see (0 for Down or Blind viewers)."""
        v = st.models[viewer]
        if not v.on_table or not st.models[target].on_table or v.down:
            return 0.0
        if v.has("blind") and viewer != target:
            return 0.0
        if viewer == target:
            return 1.0
        _, cache = self._sight_table(st)
        got = cache.get((viewer, target))
        if got is None:
            # only the asked pair: each pair's answer is independent of the others in a batch,
            # and a pair is cheap on its own (sight_matrix's plain path), so a whole row of the
            # target's side would mostly be work no one asks for
            self._fill(st, [viewer], [target])
            got = cache.get((viewer, target), 0.0)
        return got

    def valid_target(self, st, viewer, target) -> bool:
        return attacks.visible_enough(self.seen(st, viewer, target), self.opt)

    def cover(self, st, attacker: str, target: str) -> str:
        t = st.models[target]
        a = st.models[attacker]
        if a.on_table and t.on_table:
            # the sight is kept in the positions' sight table (its key holds everything the
            # bases and the table are made of): every shot option's label asks it again
            _, cache = self._sight_table(st)
            s = cache.get(("cover", attacker, target))
            if s is None:
                s = cache[("cover", attacker, target)] = self.tbl(st).sight(
                    self.base(a), self.base(t), self.bases(st, (attacker, target)))
        else:
            s = self.tbl(st).sight(self.base(a), self.base(t), self.bases(st, (attacker, target)))
        blocked = 1.0 - s.visible_fraction
        hidden = blocked + s.obscured_fraction
        heavy = blocked if s.cover == "heavy" else 0.0
        c = damage.cover_class(max(0.0, hidden - heavy), heavy, prone=t.down or t.has("prone"), options=self.opt)
        if target in st.veiled:
            c = damage.best_cover(c, "light")
        return c

    def aim_info(self, st, attacker: str, target: str) -> list[str]:
        if attacker not in st.models or target not in st.models:
            return []
        seen = self.seen(st, attacker, target)
        ok = attacks.visible_enough(seen, self.opt)
        d = self.dist(st, attacker, target)
        band = "short range" if attacks.is_short_range(d, self.opt) else "long range"
        return [f"{seen:.0%} visible{'' if ok else ': too little to be a target'}, "
                f"cover {self.cover(st, attacker, target)}",
                f"{d:.1f}\" edge to edge: {band} (short is up to {self.opt.short_range:g}\")"]

    def ranges(self, st, model: str) -> list[tuple[str, float]]:
        p = self.profile.get(model)
        if p is None:
            return []
        return [(self.armoury.shooting_weapon(w).name, self.armoury.shooting_weapon(w).range * MM)
                for w in p.shooting] + [("short range", self.opt.short_range * MM)]

    def enemies(self, st, mid):
        ms = st.models                     # (``not casualty`` is ``on_table``, without the property call)
        p = ms[mid].player
        return [i for i in st.order if not ms[i].casualty and ms[i].player != p]

    def friends(self, st, mid):
        ms = st.models
        p = ms[mid].player
        return [i for i in st.order if not ms[i].casualty and ms[i].player == p]

    def engaging(self, st, a: str, b: str) -> bool:
        """``a`` engages ``b``: an enemy, not Down, with ``b`` in sight and within a striking reach."""
        ma, mb = st.models[a], st.models[b]
        if ma.player == mb.player or ma.down or mb.down or not ma.on_table or not mb.on_table:
            return False
        reach = self.reach[a]
        if reach is None or not self.within(st, a, b, reach):
            return False
        return self.valid_target(st, a, b)

    def engaged(self, st, mid) -> bool:
        return bool(self._engagers(st, mid, first=True))

    def engagers(self, st, mid) -> list:
        return self._engagers(st, mid)

    def _engagers(self, st, mid, first=False) -> list:
        """``engaging(e, mid)`` for each enemy ``e`` in roster order, written out: the reach and
        distance tests (as ``within`` computes them) come before the cached sight, as there. With
        ``first``, stops at the first engager (``any``)."""
        ms = st.models
        mb = ms[mid]
        out = []
        if mb.down or mb.casualty:
            return out
        p, bx, by, rb = mb.player, mb.x, mb.y, self.radius[mid]
        for e in st.order:
            ma = ms[e]
            if ma.player == p or ma.down or ma.casualty:
                continue
            reach = self.reach[e]
            if reach is None:
                continue
            d = max(0.0, math.hypot(ma.x - bx, ma.y - by) - self.radius[e] - rb) / MM
            if d * MM <= reach * MM + CONTACT_MM and self.valid_target(st, e, mid):
                out.append(e)
                if first:
                    break
        return out

    def in_melee_with_friend(self, st, shooter, target) -> bool:
        fr = [f for f in self.friends(st, shooter) if f != shooter]
        return any(self.engaging(st, f, target) or self.engaging(st, target, f) for f in fr)

    def grit(self, st, mid) -> int:
        return conditions.effective_grit(self.profile[mid].grit, st.models[mid].conditions, self.opt)

    def zap(self, st, mid) -> int:
        return conditions.effective_zap(self.profile[mid].zap, st.models[mid].conditions, self.opt)

    def move_in(self, st, mid) -> int:
        return conditions.effective_move(self.profile[mid].move, st.models[mid].conditions, self.opt)

    def hero(self, mid) -> bool:
        return is_hero(self.profile[mid], self.opt)

    def gear_kinds(self, mid) -> set:
        # static (the profile's gear): kept per profile, handed out as a new set
        p = self.profile[mid]
        cache = self.__dict__.setdefault("_gear_kinds", {})
        got = cache.get(mid)
        if got is None or got[0] is not p:
            got = cache[mid] = (p, frozenset(self.armoury.gear_item(g).kind for g in p.gear))
        return set(got[1])

    def enigmas(self, mid, action):
        out = []
        for g in self.profile[mid].gear:
            out += [e for e in self.armoury.gear_item(g).enigmas if e.action == action]
        return out

    def enigma(self, mid, eid):
        return find_id([e for g in self.profile[mid].gear for e in self.armoury.gear_item(g).enigmas], eid, "enigma",
                       f"model {mid!r}", "gear")

    def on_table(self, st, p) -> list:
        ms = st.models
        return [i for i in st.order if ms[i].player == p and not ms[i].casualty]

    def can_activate(self, st, mid) -> bool:
        m = st.models[mid]
        return m.on_table and not m.down and not m.has("spent")
