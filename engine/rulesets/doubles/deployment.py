"""Doubles: deployment (interpretation 29, and docs/rules/deployment.md for the phase itself).

The phase is the engine's shared one (``engine/rulesets/deployment``); this module gives it
Doubles' hooks. Who places first: a roll-off, a d6 each, ties rolled again; the lower places
first (Doubles' initiative track is rolled afresh each turn, so no side "acts second" before the
game; the roll-off's winner keeps the last look at the enemy's placement). The automatic
placement is the one placement policy the agents use too (``engine/rulesets/deployment/policy.py``:
in cover from the enemy zone, near the objectives, spread out), each fighter facing the middle to
the nearest quarter turn; all in the side's own frame, so on a symmetric table each warband's
placement is the image of the other's.
"""
from __future__ import annotations

from engine.rulesets.deployment import Deployable, DeploymentMixin, roll_off

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
        return roll_off(st.rng, 6, ev)

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
