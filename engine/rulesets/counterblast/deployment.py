"""Counterblast: deployment (ours: the seed says nothing of it; docs/rules/counterblast.md,
"Deployment", and docs/rules/deployment.md for the phase itself).

The phase is the engine's shared one (``engine/rulesets/deployment``); this module gives it the
crews. Who places first: a roll-off, a d10 each, ties rolled again; the lower places first (the
Active crew is found by a Moxie check at every Activation phase, so no crew "acts second" before
the game; the roll-off's winner keeps the last look at the enemy's placement). The automatic
placement is the one placement policy the agents use too (``engine/rulesets/deployment/policy.py``:
in cover from the enemy zone, near the objectives, spread out), in the side's own frame, so on a
symmetric table each crew's placement is the image of the other's.
"""
from __future__ import annotations

from engine.rulesets.deployment import Deployable, DeploymentMixin, roll_off

from .state import Model


class PlacementMixin(DeploymentMixin):
    """Set-up: the crews take the table (part of ``CounterblastRules``)."""

    @property
    def deploy_opts(self):
        return self.opt

    def deploy_roster(self, player: int) -> list[Deployable]:
        return [Deployable(f"{player}-{inst}", self.names[f"{player}-{inst}"], entry.profile.base_mm / 2,
                           entry.profile.height_mm)
                for inst, entry in self.crews[player].instances()]

    def deploy_bases(self, st) -> list:
        return [self.base(m) for m in st.models.values()]

    def deploy_first(self, st, ev: list) -> int:
        return roll_off(st.rng, 10, ev)

    def deploy_put(self, st, player: int, mid: str, x: float, y: float, facing) -> None:
        st.models[mid] = Model(mid, player, mid, x, y, self.table.surface_height(x, y))
        st.order.append(mid)

    def deploy_done(self, st, ev: list) -> None:
        order = [d.id for p in (1, 2) for d in self.deploy_roster(p)]
        st.models = {k: st.models[k] for k in order if k in st.models}
        st.order = [k for k in order if k in st.models]
        self._start_turn(st, ev)
