"""The deployment phase as decisions of the engine's protocol, shared by the three rulesets.

``DeploymentMixin`` is one of a ruleset's bases: while the state's ``deploy`` is set, the
ruleset's ``pending`` and ``apply`` hand over to ``deploy_pending`` and ``deploy_apply``, its view
adds ``deploy_view``, and ``hidden_from`` / ``determinize`` add the hidden mode's unseen
placements (``deploy_hidden``, ``deploy_determinize``). The ruleset supplies the hooks:

- ``deploy_roster(player)``: the models to place, in roster order (``Deployable``);
- ``deploy_put(st, player, mid, x, y, facing)``: stand one model on the table;
- ``deploy_first(st, ev)``: the side that places first (a roll-off, or Frontier's priority);
- ``deploy_done(st, ev)``: every model is placed (canonical order, then turn 1 begins);
- ``deploy_bases(st)``: the bases on the table now;
- ``deploy_opts``: the ruleset's options (``DeploymentOptions`` fields) and ``uses_facing``.

The automatic placement (``deploy_auto``) is the same for every ruleset and the agents: the one
placement policy (``policy.py``).

The state's ``deploy`` is plain data: ``mode``, ``group``, ``first``, ``queue`` (whose
placement comes next, one entry a model), ``left`` (player -> model ids still to place) and
``hidden`` (player -> model -> [x, y, facing], placed unseen in the hidden mode until both sides
are done). The rules are ours: docs/rules/deployment.md.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import Decision, Event, SetupError
from engine.core.board import piece

from .choices import DeployRest, PlaceModel, PlaceSpace
from .policy import place_by_policy
from .zones import zone_polys, zones_overlap


@dataclass(frozen=True)
class Deployable:
    id: str
    name: str
    radius: float
    height: float


def placement_queue(mode: str, group: int, first: int, counts: dict[int, int]) -> list[int]:
    """Whose placement comes next, one entry a model: ``first`` then the other, ``group`` models
    a turn (1 in 'alternate'); a side with none left drops out and the other places the rest. In
    'hidden', the first side places all of its models, then the other (nobody sees either)."""
    other = 3 - first
    if mode == "hidden":
        return [first] * counts[first] + [other] * counts[other]
    n = 1 if mode == "alternate" else group
    left = dict(counts)
    out: list[int] = []
    side = first
    while left[1] + left[2] > 0:
        k = min(n, left[side])
        out += [side] * k
        left[side] -= k
        side = 3 - side
    return out


def roll_off(rng, sides: int, ev: list) -> int:
    """Who places first: each player rolls a d``sides`` (again on a tie) and the lower roll places
    first (Counterblast with d10s, Doubles with d6s); one event tells the rolls."""
    rolls = []
    while True:
        a, b = rng.d(sides), rng.d(sides)
        rolls.append([a, b])
        if a != b:
            break
    first = 1 if a < b else 2
    ev.append(Event("Deployment roll-off: " + ", then ".join(f"{x} v {y}" for x, y in rolls)
                    + f": player {first} rolled lower and places first", "dice", {"roll_off": rolls}))
    return first


class DeploymentMixin:
    uses_facing = False

    # ------------------------------------------------------------------ set-up
    def deploy_setup(self, st, ev: list) -> None:
        """Begin the deployment (called by ``initial_state`` once the forces are known): the
        automatic placement at once, or the first placement asked for."""
        opts = self.deploy_opts
        mode = opts.deployment
        if mode == "automatic":
            self.deploy_automatic(st, ev)
            return
        if mode == "hidden" and zones_overlap(self.table.mapfile):
            raise SetupError("hidden deployment needs zones that do not overlap; this map's do")
        first = self.deploy_first(st, ev)
        left = {p: [d.id for d in self.deploy_roster(p)] for p in (1, 2)}
        st.deploy = {"mode": mode, "group": opts.deployment_group, "first": first,
                     "queue": placement_queue(mode, opts.deployment_group, first, {p: len(v) for p, v in left.items()}),
                     "left": left, "hidden": {1: {}, 2: {}}}
        how = {"alternate": "one model at a time", "groups": f"{opts.deployment_group} models at a time",
               "hidden": "each side unseen, revealed together"}[mode]
        ev.append(Event(f"Deployment ({how}): player {first} places first", "deploy", {"first": first, "mode": mode}))
        if not st.deploy["queue"]:
            self._deploy_end(st, ev)

    def deploy_automatic(self, st, ev: list) -> None:
        """Both forces placed by the ruleset's automatic placement, side 1 then side 2, each in
        its own frame (``zones.side_frames``): on a symmetric table each is the other's image."""
        for p in (1, 2):
            ids = [d.id for d in self.deploy_roster(p)]
            for mid, x, y, facing in self.deploy_auto(p, self.deploy_bases(st), ids):
                self.deploy_put(st, p, mid, x, y, facing)
        ev.append(Event("Both forces deployed automatically", "deploy", {"mode": "automatic"}))
        self.deploy_done(st, ev)

    def deploy_auto(self, player: int, placed, ids) -> list:
        """The automatic placement of ``ids`` with ``placed`` on the table, by the placement
        policy the agents use too: (id, x, y, facing) each, in roster order."""
        return place_by_policy(self, player, placed, ids)

    # ------------------------------------------------------------------ the decisions
    def _deploy_names(self) -> dict[str, Deployable]:
        memo = self.__dict__.get("_deployables")
        if memo is None:
            memo = self._deployables = {d.id: d for p in (1, 2) for d in self.deploy_roster(p)}
        return memo

    def _deploy_others(self, st, player: int) -> list:
        """The bases a new placement of ``player`` must keep clear of: every model on the table
        and the player's own hidden ones."""
        out = list(self.deploy_bases(st))
        for mid, (x, y, facing) in sorted(st.deploy["hidden"][player].items()):
            d = self._deploy_names()[mid]
            out.append(self._deploy_base(d, x, y, facing))
        return out

    def _deploy_base(self, d: Deployable, x, y, facing):
        from .auto import placed_base
        return placed_base(self.table, d.id, x, y, d.radius, d.height, facing or 0.0)

    def _deploy_decision(self, st) -> Decision:
        dp = st.deploy
        p = dp["queue"][0]
        others = self._deploy_others(st, p)
        polys = zone_polys(self.table.mapfile, p)
        names = self._deploy_names()
        spaces = tuple(PlaceSpace(self.table, mid, names[mid].name, names[mid].radius, polys, others,
                                  self.uses_facing, self.unit) for mid in dp["left"][p])
        mine = len(dp["left"][p])
        run = 0
        for q in dp["queue"]:
            if q != p:
                break
            run += 1
        if dp["mode"] == "hidden":
            prompt = f"place your models unseen ({mine} left); both sides are revealed together"
        elif run > 1:
            prompt = f"place {run} models in your zone ({mine} left)"
        else:
            prompt = f"place a model in your zone ({mine} left)"
        return Decision(p, "deploy", prompt, (DeployRest(),), spaces)

    def _deploy_apply(self, st, player: int, c, ev: list) -> None:
        dp = st.deploy
        if player != dp["queue"][0]:
            raise ValueError(f"it is player {dp['queue'][0]}'s placement")
        if isinstance(c, DeployRest):
            ids = list(dp["left"][player])
            spots = self.deploy_auto(player, self._deploy_others(st, player), ids)
            dp["queue"] = [q for q in dp["queue"] if q != player]
            for mid, x, y, facing in spots:
                self._deploy_one(st, player, mid, x, y, facing, ev, auto=True)
        elif isinstance(c, PlaceModel):
            facing = c.facing if c.facing is not None else self.deploy_default_facing(player)
            dp["queue"].pop(0)
            self._deploy_one(st, player, c.model, c.x, c.y, facing, ev)
        else:
            raise ValueError(f"{c.describe_safely()} is not a deployment")
        if not dp["queue"]:
            self._deploy_end(st, ev)

    def _deploy_one(self, st, player, mid, x, y, facing, ev, auto: bool = False) -> None:
        dp = st.deploy
        dp["left"][player].remove(mid)
        name = self._deploy_names()[mid].name
        how = "automatically " if auto else ""
        if dp["mode"] == "hidden":
            dp["hidden"][player][mid] = [x, y, facing]
            ev.append(Event(f"{name} placed {how}(unseen)", "deploy", {"model": mid, "x": x, "y": y},
                            visible_to=frozenset({player})))
        else:
            self.deploy_put(st, player, mid, x, y, facing)
            ev.append(Event(f"Player {player} places {name} {how}".rstrip(), "deploy", {"model": mid, "x": x, "y": y}))

    def _deploy_end(self, st, ev: list) -> None:
        dp = st.deploy
        if dp["mode"] == "hidden":
            for p in (1, 2):
                for mid, (x, y, facing) in sorted(dp["hidden"][p].items()):
                    self.deploy_put(st, p, mid, x, y, facing)
            ev.append(Event("Both sides' deployments are revealed", "deploy", {"revealed": True}))
        st.deploy = None
        self.deploy_done(st, ev)

    def deploy_default_facing(self, player: int) -> float | None:
        """The facing a model placed without one takes: toward the table's middle, to the
        nearest quarter turn (rulesets without facing: None)."""
        if not self.uses_facing:
            return None
        from .auto import rounded_heading
        from .zones import side_frames
        return rounded_heading(side_frames(self.table)[player])

    # ------------------------------------------------------------------ the protocol's hooks
    # A ruleset's ``pending`` and ``apply`` begin with ``if st.deploy is not None: return
    # self.deploy_pending(st)`` (``deploy_apply``), its ``view`` ends with ``deploy_view``.
    def deploy_pending(self, st) -> Decision:
        return self._deploy_decision(st)

    def deploy_apply(self, st, player: int, c) -> list:
        ev: list = []
        self._deploy_apply(st, player, c, ev)
        return ev

    def deploy_view(self, st, player, drawing: bool, v: dict) -> dict:
        """``v`` (the ruleset's view) with the deployment in it while it lasts: the mode, whose
        placement it is, each side's models still to place (the other side's whole force in the
        hidden mode), the viewer's own unseen placements (also as pieces, to draw) and the zones."""
        dp = getattr(st, "deploy", None)
        if dp is None:
            return v
        names = self._deploy_names()
        mine = dict(dp["hidden"].get(player, {})) if player in (1, 2) else {}
        hidden_mode = dp["mode"] == "hidden"

        def entry(mid):
            d = names[mid]
            return {"id": mid, "name": d.name, "radius": d.radius, "height": d.height}

        left = {}
        for q in (1, 2):
            if hidden_mode and q != player:
                # the other side's unseen placements are not shown, nor how many it has made
                left[q] = [entry(d.id) for d in self.deploy_roster(q)]
            else:
                left[q] = [entry(m) for m in dp["left"][q]]
        v["deployment"] = {
            "mode": dp["mode"], "group": dp["group"], "first": dp["first"],
            "placing": dp["queue"][0] if dp["queue"] else None,
            "left": left,
            "mine": [{**entry(m), "x": x, "y": y, "facing": f} for m, (x, y, f) in sorted(mine.items())],
            "zones": {q: [[list(pt) for pt in poly] for poly in zone_polys(self.table.mapfile, q)] for q in (1, 2)},
            "facing": {q: self.deploy_default_facing(q) for q in (1, 2)},
            "unit": self.unit,
        }
        if drawing and mine:
            pcs = v.setdefault("pieces", [])
            for m, (x, y, f) in sorted(mine.items()):
                d = names[m]
                pcs.append(piece(m, player, d.name, x, y, self.table.surface_height(x, y), d.radius, d.height,
                                 facing=f if self.uses_facing else None, markers=["placed unseen"]))
        return v

    def hidden_from(self, st, player: int) -> tuple:
        return self.deploy_hidden(st, player, super().hidden_from(st, player))

    def deploy_hidden(self, st, player: int, base: tuple) -> tuple:
        """``base`` and, in the hidden mode, the other side's unseen placements: the decision
        that reveals them changes it (no undo past the reveal)."""
        dp = getattr(st, "deploy", None)
        if dp is None or dp["mode"] != "hidden":
            return base
        other = 3 - player
        return tuple(base) + (("deploy", tuple(sorted((m, tuple(s)) for m, s in dp["hidden"][other].items()))),)

    def redact(self, st, player):
        """The base's copy (``Rules.redact``), with the other side's unseen placements left out."""
        return self.deploy_redact(super().redact(st, player), player)

    def deploy_redact(self, new, player):
        """``new`` (a redacted copy) without what the hidden mode keeps from ``player`` (None: a
        spectator, from both sides): a side placing now shows no progress (it is as though it had
        placed none yet: its whole force left, its queue full, nothing placed); a side done, or
        not yet begun, keeps its models' names (that they are placed is known) but not their
        spots (``[None, None, None]``)."""
        dp = getattr(new, "deploy", None)
        if dp is None or dp["mode"] != "hidden":
            return new
        for q in ((3 - player,) if player in (1, 2) else (1, 2)):
            if dp["queue"] and dp["queue"][0] == q:
                roster = [d.id for d in self.deploy_roster(q)]
                dp["left"][q] = roster
                dp["hidden"][q] = {}
                dp["queue"] = [q] * len(roster) + [x for x in dp["queue"] if x != q]
            else:
                dp["hidden"][q] = {mid: [None, None, None] for mid in sorted(dp["hidden"][q])}
        return new

    def determinize(self, st, player, rng):
        """The base's world, with the other side's unseen placements drawn anew: random legal
        spots of its zone from ``rng`` (what ``player`` may know of them is that they exist)."""
        return self.deploy_determinize(super().determinize(st, player, rng), player, rng)

    def deploy_determinize(self, new, player, rng):
        """``new`` (a determinized copy) with the other side's unseen placements redrawn."""
        dp = getattr(new, "deploy", None)
        if dp is None or dp["mode"] != "hidden" or player not in (1, 2):
            return new
        other = 3 - player
        hidden = dp["hidden"][other]
        if not hidden:
            return new
        names = self._deploy_names()
        polys = zone_polys(self.table.mapfile, other)
        placed = list(self.deploy_bases(new))
        redrawn = {}
        for mid in sorted(hidden):
            d = names[mid]
            sp = PlaceSpace(self.table, mid, d.name, d.radius, polys, placed, self.uses_facing, self.unit)
            c = sp.sample(rng, tries=200)
            if c is None:           # a crowded zone: keep the count, at the first legal auto spot
                c = PlaceModel(mid, *self.deploy_auto(other, placed, [mid])[0][1:3])
            facing = self.deploy_default_facing(other)
            redrawn[mid] = [c.x, c.y, facing]
            placed.append(self._deploy_base(d, c.x, c.y, facing))
        dp["hidden"][other] = redrawn
        return new
