"""Counterblast: deployment (ours: the seed says nothing of it; docs/rules/counterblast.md,
"Deployment", and docs/rules/deployment.md for the phase itself).

The phase is the engine's shared one (``engine/rulesets/deployment``); this module gives it the
crews. Who places first: a roll-off, a d10 each, ties rolled again; the lower places first (the
Active crew is found by a Moxie check at every Activation phase, so no crew "acts second" before
the game; the roll-off's winner keeps the last look at the enemy's placement). The automatic
placement: a 1.5" lattice over the crew's zone laid out in the side's own frame, points nearest
the zone's middle first (the distance ahead counted three times: a line rather than a clump),
then the front, then the player's left; each model, in roster order, on the first free point. On
a symmetric table each crew's placement is the image of the other's.
"""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.deployment import Deployable, DeploymentMixin
from engine.rulesets.deployment.auto import first_free, lattice, placed_base
from engine.rulesets.deployment.zones import side_frames, zone_polys

from .flow.common import MM
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
        rolls = []
        while True:
            a, b = st.rng.d(10), st.rng.d(10)
            rolls.append([a, b])
            if a != b:
                break
        first = 1 if a < b else 2
        ev.append(Event("Deployment roll-off: " + ", then ".join(f"{x} v {y}" for x, y in rolls)
                        + f": player {first} rolled lower and places first", "dice", {"roll_off": rolls}))
        return first

    def deploy_auto(self, player: int, placed, ids) -> list:
        frame = side_frames(self.table)[player]
        polys = zone_polys(self.table.mapfile, player)
        cands = self.__dict__.setdefault("_deploy_lattice", {})
        if player not in cands:
            cands[player] = lattice(frame, polys, 1.5 * MM)
        placed = list(placed)
        out = []
        for d in self.deploy_roster(player):
            if d.id not in ids:
                continue
            x, y = first_free(self.table, cands[player], polys, d.radius, placed, d.name)
            out.append((d.id, x, y, None))
            placed.append(placed_base(self.table, d.id, x, y, d.radius, d.height))
        return out

    def deploy_put(self, st, player: int, mid: str, x: float, y: float, facing) -> None:
        st.models[mid] = Model(mid, player, mid, x, y, self.table.surface_height(x, y))
        st.order.append(mid)

    def deploy_done(self, st, ev: list) -> None:
        order = [d.id for p in (1, 2) for d in self.deploy_roster(p)]
        st.models = {k: st.models[k] for k in order if k in st.models}
        st.order = [k for k in order if k in st.models]
        self._start_turn(st, ev)
