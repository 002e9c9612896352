"""Last Hope Frontier: deployment (ours: the seed says nothing of it; docs/rules/frontier.md,
Interpretations, "Deployment", and docs/rules/deployment.md for the phase itself).

The phase is the engine's shared one (``engine/rulesets/deployment``); this module gives it the
posses. Who places first: the side without priority, the one that moves second in turn 1 (the
first turn's draw decides priority before anyone deploys), so the side that must move first sees
the other's whole deployment before placing its last model. The automatic placement is the
one placement policy the agents use too (``engine/rulesets/deployment/policy.py``: in cover from
the enemy zone, near the objectives, spread out), in the side's own frame, so on a symmetric
table each posse's placement is the image of the other's. (Until issue 58 it was a line across
the middle of the zone, the leader in the middle: option ``deploy_order``, now gone.)
"""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.deployment import Deployable, DeploymentMixin

from .state import MODEL_HEIGHT_MM, FrontierState, Model


class PlacementMixin(DeploymentMixin):
    """Set-up: the posses take the table (part of ``FrontierRules``)."""

    @property
    def deploy_opts(self):
        return self.opts

    def deploy_roster(self, player: int) -> list[Deployable]:
        names = self._names(player)
        return [Deployable(f"p{player}-{m.id}", names[m.id], m.base_mm / 2, MODEL_HEIGHT_MM)
                for m in self.posses[player].models]

    def deploy_bases(self, st: FrontierState) -> list:
        return [m.base() for m in st.models.values()]

    def deploy_first(self, st: FrontierState, ev: list) -> int:
        first = 3 - st.priority
        ev.append(Event(f"Player {st.priority} has priority in turn 1 and places last: player {first} "
                        "places first", "deploy", {"first": first}))
        return first

    def deploy_put(self, st: FrontierState, player: int, mid: str, x: float, y: float, facing) -> None:
        prof_id = mid.split("-", 1)[1]
        prof = self.profiles[player][prof_id]
        st.models[mid] = Model(mid, player, prof.id, self._names(player)[prof.id], x, y,
                               self.table.surface_height(x, y), prof.base_mm / 2, prof.wounds, prof.wounds,
                               list(prof.items))

    def deploy_done(self, st: FrontierState, ev: list) -> None:
        order = [d.id for p in (1, 2) for d in self.deploy_roster(p)]
        st.models = {k: st.models[k] for k in order if k in st.models}
        st.phase = "move"
        st.active = st.priority
