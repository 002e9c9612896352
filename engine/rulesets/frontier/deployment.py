"""Last Hope Frontier: deployment (ours: the seed says nothing of it; docs/rules/frontier.md,
Interpretations, "Deployment", and docs/rules/deployment.md for the phase itself).

The phase is the engine's shared one (``engine/rulesets/deployment``); this module gives it the
posses. Who places first: the side without priority, the one that moves second in turn 1 (the
first turn's draw decides priority before anyone deploys), so the side that must move first sees
the other's whole deployment before placing its last model. The automatic placement: each posse
in a line across the middle of its zone, evenly spaced, by default the leader in the middle and
the others alternately further out (option ``deploy_order``); all in the side's own frame, so on
a symmetric table each posse's placement is the image of the other's.
"""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.deployment import Deployable, DeploymentMixin
from engine.rulesets.deployment.auto import nearest_free, placed_base
from engine.rulesets.deployment.zones import frame_extent, side_frames, zone_polys

from .state import MODEL_HEIGHT_MM, FrontierState, Model


def centre_out(n: int) -> list[int]:
    """Slot of each roster entry in a line of ``n``: the first (the leader) in the middle, the
    next ones alternately one further out on each side, so the leader and deputies stand in the
    centre and the gangers on the flanks."""
    mid = (n - 1) // 2
    out = [mid]
    for k in range(1, n):
        step = (k + 1) // 2
        out.append(mid + step if k % 2 else mid - step)
    return out


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

    def deploy_auto(self, player: int, placed, ids) -> list:
        """Spots for ``ids`` (in roster order): the posse's line across the middle of its zone."""
        frame = side_frames(self.table)[player]
        polys = zone_polys(self.table.mapfile, player)
        lo_r, hi_r, lo_a, hi_a = frame_extent(frame, polys)
        roster = self.deploy_roster(player)
        n = len(roster)
        slots = centre_out(n) if self.opts.deploy_order == "leader_centre" else list(range(n))
        placed = list(placed)
        out = []
        for i, d in enumerate(roster):
            if d.id not in ids:
                continue
            want_r = lo_r + (slots[i] + 0.5) / n * (hi_r - lo_r)
            x, y = nearest_free(self.table, frame, polys, want_r, (lo_a + hi_a) / 2, d.radius, placed,
                                step=5.0, what=d.name)
            out.append((d.id, x, y, None))
            placed.append(placed_base(self.table, d.id, x, y, d.radius, d.height))
        return out

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
