"""Doubles: deployment (interpretation 29, and docs/rules/deployment.md for the phase itself).

The phase is the engine's shared one (``engine/rulesets/deployment``); this module gives it
Doubles' hooks. Who places first: a roll-off, a d6 each, ties rolled again; the lower places
first (Doubles' initiative track is rolled afresh each turn, so no side "acts second" before the
game; the roll-off's winner keeps the last look at the enemy's placement). The automatic
placement: each warband spread along the front of its zone (the edge nearer the table's middle),
one base inside it, facing the middle to the nearest quarter turn; all in the side's own frame,
so on a symmetric table each warband's placement is the image of the other's.
"""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.deployment import Deployable, DeploymentMixin
from engine.rulesets.deployment.auto import nearest_free, placed_base, rounded_heading
from engine.rulesets.deployment.zones import frame_extent, side_frames, zone_polys

from .state import BASE_RADIUS_MM, MODEL_HEIGHT_MM, DoublesState, FighterState


class PlacementMixin(DeploymentMixin):
    """Set-up: the warbands take the table (part of ``DoublesRules``)."""

    uses_facing = True

    @property
    def deploy_opts(self):
        return self.opts

    def deploy_roster(self, player: int) -> list[Deployable]:
        return [Deployable(f"{player}.{f.id}", f.name, BASE_RADIUS_MM, MODEL_HEIGHT_MM)
                for f in self.warbands[player].fighters]

    def deploy_bases(self, st: DoublesState) -> list:
        return [self.base(f) for f in st.fighters.values()]

    def deploy_first(self, st: DoublesState, ev: list) -> int:
        rolls = []
        while True:
            a, b = st.rng.d(6), st.rng.d(6)
            rolls.append([a, b])
            if a != b:
                break
        first = 1 if a < b else 2
        ev.append(Event("Deployment roll-off: " + ", then ".join(f"{x} v {y}" for x, y in rolls)
                        + f": player {first} rolled lower and places first", "dice", {"roll_off": rolls}))
        return first

    def deploy_auto(self, player: int, placed, ids) -> list:
        """Spots for ``ids`` (in roster order): the warband's line along the front of its zone."""
        frame = side_frames(self.table)[player]
        polys = zone_polys(self.table.mapfile, player)
        lo_r, hi_r, _, hi_a = frame_extent(frame, polys)
        roster = self.deploy_roster(player)
        n = len(roster)
        step = min((hi_r - lo_r) / (n + 1), 100.0)
        mid_r = (lo_r + hi_r) / 2
        facing = rounded_heading(frame)
        placed = list(placed)
        out = []
        for i, d in enumerate(roster):
            if d.id not in ids:
                continue
            want_r = mid_r + (i - (n - 1) / 2) * step
            want_a = hi_a - 2 * BASE_RADIUS_MM
            x, y = nearest_free(self.table, frame, polys, want_r, want_a, d.radius, placed, step=8.0,
                                what=d.name)
            out.append((d.id, x, y, facing))
            placed.append(placed_base(self.table, d.id, x, y, d.radius, d.height, facing))
        return out

    def deploy_put(self, st: DoublesState, player: int, mid: str, x: float, y: float, facing) -> None:
        fid = mid.split(".", 1)[1]
        ftr = self.warbands[player].fighter(fid)
        fs = FighterState(mid, player, self.warbands[player].id, ftr.id, ftr.name, round(x, 3), round(y, 3),
                          round(float(facing if facing is not None else 0.0), 6) % 360.0,
                          ftr.characteristics.health, weapons=list(ftr.weapons))
        fs.z = self.table.surface_height(fs.x, fs.y)
        st.fighters[mid] = fs

    def deploy_done(self, st: DoublesState, ev: list) -> None:
        # the fighters in roster order, side 1 then side 2, however they were placed
        order = [d.id for p in (1, 2) for d in self.deploy_roster(p)]
        st.fighters = {k: st.fighters[k] for k in order if k in st.fighters}
        self._start_turn(st, ev)
        self._advance(st, ev)
