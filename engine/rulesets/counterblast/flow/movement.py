"""Movement: the move space (with the Panic restriction), charges into base contact, the follow-up
moves of a Rush, a Half-blind d5 and an Action roll, ending a move Prone, straight-line Jumps
and throws, falls and where a falling model lands, and a failed Rally's flight.
"""
from __future__ import annotations

import math

from engine.core import Event
from engine.core.rolls import roll_record, with_rolls
from engine.rulesets.common import MoveSpace, MoveTo
from engine.rulesets.deployment.zones import zone_polys

from .. import damage, movement
from ..choices import MoveProne
from .choice_words import _heading_words
from .common import CONTACT_MM, MM
from .headings import HeadingSpace, jump_space, throw_space


class CBMoveSpace(MoveSpace):
    """``MoveSpace`` with nearby models only for the path search and the Panic restriction (a
    Panicked model may not end closer to any enemy than it started)."""

    def __init__(self, table, base, allowance, others=(), enemies=(), no_closer=False, label="", ends_prone=False):
        super().__init__(table, base, allowance, others, label=label)
        # a move that ends Prone answers with MoveProne, one that ends standing with MoveTo; the
        # client offers the Prone one through its P toggle (``prone_toggle``)
        self.ends_prone = ends_prone
        self.choice_type = MoveProne if ends_prone else MoveTo
        self.prone_toggle = ends_prone
        reach = allowance + 2 * base.radius + 1.0
        self.near = tuple(o for o in self.others if math.hypot(o.x - base.x, o.y - base.y) <= reach + o.radius)
        self.no_closer = no_closer
        self.enemies = tuple(enemies)
        # each enemy's distance at the start: a Panicked model may end closer to none of them
        self.start_gaps = tuple(math.hypot(e.x - base.x, e.y - base.y) for e in self.enemies)

    def path_to(self, x, y):
        return self.table.find_path((self.base.x, self.base.y), (x, y), self.base.radius, self.near,
                                    max_length=self.allowance)

    @property
    def path_others(self):    # for MoveSpace.reach: the bases path_to steers round
        return self.near

    def extra_signature(self) -> tuple:
        return (self.enemies, self.no_closer, self.ends_prone)

    def at_point(self, x: float, y: float):
        return (self.choice_type(self.base.id, round(float(x), 2), round(float(y), 2)),)

    def check(self, c) -> str | None:
        if type(c) is not self.choice_type:
            return f"this move ends {'Prone' if self.ends_prone else 'standing'}"
        return super().check(c)

    def problem(self, c: MoveTo) -> str | None:
        if not self.no_closer:
            return None
        for e, start in zip(self.enemies, self.start_gaps):
            if math.hypot(e.x - c.x, e.y - c.y) < start - 1e-6:
                return "a Panicked model may not end a move closer to an enemy"
        return None


class MovementRules:
    """Moves, Rush and Action-roll follow-ups, dropping Prone, Jumps and throws, falls and flight."""

    def _move_space(self, st, mid, allowance_mm) -> CBMoveSpace:
        m = st.models[mid]
        bs = self.bases(st)      # every model on the table, in roster order
        others = [b for b in bs if b.id != mid]
        enemies = [b for b in others if st.models[b.id].player != m.player]
        return CBMoveSpace(self.tbl(st), self.base(m), allowance_mm, others, enemies, no_closer=m.has("panic"))

    def _move_spaces(self, st, mid, allowance_mm) -> list:
        """A Move's spaces: ending standing, and ending Prone (a standing model on the table)."""
        m = st.models[mid]
        plain = self._move_space(st, mid, allowance_mm)
        if m.down or m.has("prone") or not m.on_table:
            return [plain]
        prone = CBMoveSpace(plain.table, plain.base, allowance_mm, plain.others, plain.enemies,
                            no_closer=plain.no_closer, ends_prone=True)
        return [plain, prone]

    def _jump_space(self, st, mid) -> HeadingSpace:
        """Every heading model ``mid`` may Jump toward; a Panicked model none that leads toward an
        enemy (Interpretation 34)."""
        m = st.models[mid]
        away = [(b.x, b.y) for b in self.bases(st) if b.id != mid and st.models[b.id].player != m.player] \
            if m.has("panic") else []
        return jump_space(mid, (m.x, m.y), away, self.names[mid], self.opt.jump_die)

    def _throw_direction_space(self, st) -> HeadingSpace:
        w = st.window
        t = st.models[w["target"]]
        return throw_space(w["thrower"], w["target"], (t.x, t.y), w["inches"], self.names[w["target"]])

    def _apply_throw_direction(self, st, c, ev):
        """After a successful Throw the thrower chose the direction: the target flies the check's
        result in inches as though it Jumped, over models no bigger than the thrower, and lands
        Prone."""
        w = st.window
        st.window = None
        st.phase = "act"
        mid, t = w["thrower"], w["target"]
        ev.append(Event(f"{self.names[mid]} sends {self.names[t]} toward {_heading_words(c.heading)}", "move"))
        self._straight(st, t, float(c.heading), w["inches"], self.profile[mid].size, ev, thrown=True)
        self._check_end(st, ev)
        if st.phase != "over":
            self._continue(st, ev)

    def _contact_moves(self, st, mid, allowance_mm) -> list:
        """Moves into base contact with each enemy in reach of the move (so that charges are
        offered as options, not only as points a player must hit exactly)."""
        m = st.models[mid]
        if m.has("panic"):
            return []
        space = None
        out = []
        r = self.profile[mid].base_mm / 2
        for e in self.enemies(st, mid):
            me = st.models[e]
            if me.down:
                continue
            d = math.hypot(me.x - m.x, me.y - m.y)
            re_ = self.profile[e].base_mm / 2
            if d - r - re_ > allowance_mm or d - r - re_ <= CONTACT_MM:    # out of reach, or in contact already
                continue
            if space is None:
                space = self._move_space(st, mid, allowance_mm)
            gap = r + re_ + 0.3
            base_ang = math.atan2(m.y - me.y, m.x - me.x)
            for off in (0.0, 0.6, -0.6, 1.2, -1.2):
                a = base_ang + off
                c = MoveTo(mid, round(me.x + gap * math.cos(a), 2), round(me.y + gap * math.sin(a), 2))
                if space.check(c) is None:
                    out.append(c)
                    break
        return out

    def _contact_moves_to(self, st, mid, e, allowance_mm):
        m, me = st.models[mid], st.models[e]
        r, re_ = self.profile[mid].base_mm / 2, self.profile[e].base_mm / 2
        space = self._move_space(st, mid, allowance_mm)
        base_ang = math.atan2(m.y - me.y, m.x - me.x)
        for k in range(12):
            a = base_ang + (k + 1) // 2 * (0.5 if k % 2 else -0.5)
            c = MoveTo(mid, round(me.x + (r + re_ + 0.3) * math.cos(a), 2), round(me.y + (r + re_ + 0.3) * math.sin(a), 2))
            if space.check(c) is None:
                return [c]
        return []

    def _move_allowance(self, st, mid, ev) -> float:
        """Inches one Move action carries model ``mid``: its Move attribute (Blind: 2), or a d5
        rolled now if it is Half-blind ("Half-Blind models only move a d5 inches when they use
        the move action"). Every Move uses it: the model's own, an Action-roll, a Pursuit and
        the flight after a failed Rally."""
        if st.models[mid].has("half_blind"):
            d = movement.half_blind_move(st.rng, self.opt)
            ev.append(Event(f"{self.names[mid]} is Half-blind and moves a d5: {d}\"", "dice",
                            with_rolls({"dice": [d]}, roll_record(f"{self.names[mid]}: Half-blind move", 5, [d],
                                                                 result=f'{d}"', player=st.models[mid].player))))
            return float(d)
        return float(self.move_in(st, mid))

    def _place(self, st, mid, x, y):
        m = st.models[mid]
        m.x, m.y = float(x), float(y)
        m.z = self.tbl(st).surface_height(m.x, m.y)

    def _straight(self, st, mid, heading, inches, size, ev, thrown=False):
        """Jump (or thrown) movement: straight, horizontal, over models no bigger than ``size``
        and terrain up to 1" above the take-off surface. Where the flight ends over a lower
        surface the model is over empty space and falls (``_fall``); otherwise it stops short at
        the last legal spot on its line."""
        m = st.models[mid]
        b = self.base(m)
        others = self.bases(st, (mid,))
        blockers = [o for o in others if self.profile[o.id].size > size]
        clearance = self.opt.jump_clearance * MM
        table = self.tbl(st)
        sm = table.straight_move(b, heading, inches * MM, blockers, clearance)
        ux, uy = math.cos(math.radians(heading)), math.sin(math.radians(heading))
        z0 = m.z
        # where the flight ends before any backing off: the full distance, or where it is stopped
        end = inches * MM
        if sm.stopped_by is not None:
            lo, hi = 0.0, inches * MM
            while hi - lo > 0.1:
                mid_t = (lo + hi) / 2
                if table.straight_move(b, heading, mid_t, blockers, clearance).stopped_by is None:
                    lo = mid_t
                else:
                    hi = mid_t
            end = lo
        fx, fy = b.x + ux * end, b.y + uy * end
        if table.surface_height(fx, fy) < z0 - 1e-6:
            t = end
        else:
            t = sm.travelled
            while t > 0 and table.position_problem(b.x + ux * t, b.y + uy * t, b.radius, others) is not None:
                t = max(0.0, t - 0.5)
            fx, fy = b.x + ux * t, b.y + uy * t
        stopped = f" (stopped by {sm.stopped_by})" if sm.stopped_by and t < inches * MM - 1 else ""
        if table.surface_height(fx, fy) < z0 - 1e-6:
            ev.append(Event(f"{self.names[mid]} flies {t / MM:.1f}\" and is over empty space{stopped}", "move",
                            {"model": mid, "over": [fx, fy]}))
            self._fall(st, mid, fx, fy, z0, (heading + 180) % 360, ev)
            return
        self._place(st, mid, fx, fy)
        ev.append(Event(f"{self.names[mid]} lands {t / MM:.1f}\" away{stopped}", "move", {"model": mid, "to": [m.x, m.y]}))
        if thrown:
            m.gain("prone")

    def landing_spot(self, st, mid, x, y, z0, back_heading=0.0):
        """The closest valid position (no overlap with terrain, models or the table edge, on a
        surface below ``z0``) whose centre is within ``fall_landing_radius`` of (x, y), or None.
        Candidates: the point itself; the nearest points clear of what is in the way
        (``Table.clearance_candidates``: exact when one thing is); rings 1/8" apart with points
        at most 1/8" apart along each ring, nearer than the best of those; on a ring, ties go to
        the point nearest ``back_heading`` (toward take-off)."""
        r = self.radius[mid]
        others = self.bases(st, (mid,))
        step = MM / 8
        rings = int(round(self.opt.fall_landing_radius * MM / step))

        table = self.tbl(st)

        def ok(px, py):
            return (table.position_problem(px, py, r, others) is None
                    and table.surface_height(px, py) < z0 - 1e-6)

        if ok(x, y):
            return x, y
        reach = self.opt.fall_landing_radius * MM
        best, best_d = None, math.inf
        # exact when one piece, base or edge is in the way: the nearest point clear of it
        for q in table.clearance_candidates(x, y, r, others, reach):
            d = math.hypot(q[0] - x, q[1] - y)
            if d < best_d - 1e-9 and ok(*q):
                best, best_d = q, d
        # the ring search covers the rest (several things in the way); it wins only if nearer
        for k in range(1, rings + 1):
            rho = k * step
            if rho >= best_d:
                break
            n = max(8, math.ceil(2 * math.pi * rho / step))
            for j in range(n):
                # 0, +1, -1, +2, -2 ... steps around the ring from the back heading
                off = (j + 1) // 2 * (1 if j % 2 else -1)
                a = math.radians(back_heading) + 2 * math.pi * off / n
                px, py = x + rho * math.cos(a), y + rho * math.sin(a)
                if ok(px, py):
                    return px, py
        return best

    def _fall(self, st, mid, x, y, z0, back_heading, ev):
        """003 Falling: the closest valid position within 3" of the point below, Prone, Stunned,
        1 raw damage per full inch fallen; no valid position: a casualty."""
        m = st.models[mid]
        spot = self.landing_spot(st, mid, x, y, z0, back_heading)
        if spot is None:
            ev.append(Event(f"{self.names[mid]} falls with no valid position within "
                            f"{self.opt.fall_landing_radius:g}\" to land: a casualty", "fall", {"model": mid}))
            self._set_wounds(st, mid, damage.Wounds(m.tokens, m.down, m.stable, True))
            self._check_end(st, ev)
            return
        self._place(st, mid, *spot)
        moved = math.hypot(spot[0] - x, spot[1] - y) / MM
        drop = z0 - m.z
        m.gain("prone")
        self._gain(st, mid, "stunned", ev)
        raw = damage.fall_damage(drop / MM, self.opt)
        ev.append(Event(f"{self.names[mid]} falls {drop / MM:.1f}\"" + (f", landing {moved:.1f}\" from the point below" if moved > 0.05 else "")
                        + f": Prone, Stunned, {raw} raw damage", "fall", {"model": mid, "to": [m.x, m.y]}))
        if raw:
            self._damage(st, mid, raw, "fall", "none", 0, ev)
            self._check_end(st, ev)

    def _apply_move_followup(self, st, c, ev):
        w = st.window
        mid = w["mover"]
        if isinstance(c, MoveTo):
            self._place(st, mid, c.x, c.y)
            ev.append(Event(f"{self.names[mid]} moves", "move", {"model": mid, "to": [c.x, c.y]}))
            self._end_prone(st, mid, c, ev)
        else:
            ev.append(Event(f"{self.names[mid]} stays put", "move"))
        if w["kind"] == "rush":
            st.window = None
            st.phase = "act"
            self._after_maneuver(st, mid, w["before"], ev)
        elif w["kind"] == "action_roll":
            st.window = w["resume"]
            st.phase = "act"
            self._gain(st, mid, "stunned", ev)
            self._resolve_attack(st, st.window, None, ev)
        else:
            raise AssertionError(w["kind"])

    def _end_prone(self, st, mid, c, ev) -> None:
        """A MoveProne ends the move Prone (chosen with the point)."""
        if isinstance(c, MoveProne) and not st.models[mid].has("prone"):
            st.models[mid].gain("prone")
            ev.append(Event(f"{self.names[mid]} drops Prone", "move"))

    def _flee_target(self, st, mid) -> tuple[tuple[float, float], str]:
        """Where a failed Rally flees, and its name. The crew's evac point; on a map with none
        (the seed assumes one), our rule: the nearest point of the table edge nearest the middle of
        its own deployment zone (docs/rules/counterblast.md, "A failed Rally with no evac point")."""
        p = st.models[mid].player
        if p in self.evac:
            return self.evac[p], "the evac point"
        m = st.models[mid]
        w, h = self.table.width, self.table.height
        pts = [pt for poly in zone_polys(self.table.mapfile, p) for pt in poly]
        if pts:   # the middle of the zone's bounds: a strip along an edge touches three edges
            xs, ys = [x for x, _ in pts], [y for _, y in pts]
            cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        else:     # no zone either: the edge nearest the model
            cx, cy = m.x, m.y
        gaps = {"west": cx, "east": w - cx, "north": cy, "south": h - cy}
        edge = min(gaps, key=lambda k: (gaps[k], k))
        at = {"west": (0.0, m.y), "east": (w, m.y), "north": (m.x, 0.0), "south": (m.x, h)}[edge]
        return at, f"its {edge} table edge"

    def _flee(self, st, mid, ev) -> bool:
        """A failed Rally's Move toward the crew's evac point (or, with none, its zone's table
        edge: ``_flee_target``) by the shortest route. Returns whether a Move action was made."""
        m = st.models[mid]
        r = self.profile[mid].base_mm / 2
        allowance = self._move_allowance(st, mid, ev) * MM
        others = self.bases(st, (mid,))
        near = [o for o in others if math.hypot(o.x - m.x, o.y - m.y) <= allowance + 2 * r + o.radius + 1]
        (ex, ey), where = self._flee_target(st, mid)
        table = self.tbl(st)
        ex = min(max(ex, r), table.width - r)
        ey = min(max(ey, r), table.height - r)
        path = table.find_path((m.x, m.y), (ex, ey), r, near)
        if path is None:
            ev.append(Event(f"{self.names[mid]} finds no way toward {where}", "move"))
            return True
        x, y, _ = table.walk(path, allowance, r, others)
        self._place(st, mid, x, y)
        ev.append(Event(f"{self.names[mid]} moves toward {where}", "move", {"model": mid, "to": [x, y]}))
        return True
