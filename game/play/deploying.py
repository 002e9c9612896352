"""The game screen while the forces deploy: the tray of models to place (``game/ui/deploy_tray.py``),
the deploying side's zone lit, a ghost base under the mouse with the engine's verdict (and its
facing where the ruleset uses one: Q and E turn it), a drag from the tray onto the table.

Legality is the engine's (the decision's ``PlaceSpace.check``, through the generic controller);
the default facing is the view's. An owned part of the game screen (``game/scenes/play.py``), given
the state, the answering part and the table's tools (no ghost while panning).
"""
from __future__ import annotations

import dataclasses

import pygame

from engine.rulesets.deployment import PlaceModel, PlaceSpace
from game.play.pointer import mm
from game.render import overlays as ov
from game.ui.deploy_tray import ghost_label

TURN_STEP = 45.0


class Deploying:
    """Deployment input and drawing (``state.deploy_facing``: the facing Q/E chose for the next
    placement)."""

    def __init__(self, state, answering, tools):
        self.state = state
        self.submit = answering.submit
        self.tools = tools

    def deploying(self) -> bool:
        return self.state.decision is not None and self.state.decision.kind == "deploy"

    def place_space(self) -> PlaceSpace | None:
        if not self.state.ctrl or not self.deploying():
            return None
        return next((s for s in self.state.ctrl.spaces_for(self.state.ctrl.selected) if isinstance(s, PlaceSpace)), None)

    def refresh(self) -> None:
        """After the view is read: the first model still to place is picked up (a click on the
        table places it), and the tray shows the viewer's models."""
        if self.state.ctrl and self.deploying():
            actors = [s.actor for s in self.state.decision.spaces if isinstance(s, PlaceSpace)]
            if actors and self.state.ctrl.selected not in actors:
                self.state.ctrl.selected = actors[0]
        self.state.deploy_tray.update(self.state.view, self.state.viewer, self.state.ctrl.selected if self.state.ctrl else None)

    def with_facing(self, choice):
        """A placement with the facing Q/E chose (where the ruleset has one)."""
        sp = self.place_space()
        if isinstance(choice, PlaceModel) and sp is not None and sp.uses_facing and self.state.deploy_facing is not None:
            return dataclasses.replace(choice, facing=self.state.deploy_facing % 360.0)
        return choice

    def default_facing(self) -> float | None:
        d = self.state.view.get("deployment") or {}
        f = d.get("facing", {})
        return f.get(self.state.viewer, f.get(str(self.state.viewer)))

    def pick(self, mid) -> bool:
        """A model picked up from the tray (the next placement's); True when the viewer answers
        (the options follow it)."""
        if self.state.ctrl:
            self.state.ctrl.selected = mid
            return True
        return False

    def drop(self, pos) -> None:
        """A model dragged from the tray let go at ``pos``: placed there, or the engine's refusal."""
        st = self.state
        if st.table_rect.collidepoint(pos) and st.ctrl:
            out = st.ctrl.click_table(*mm(st, pos))
            if out.choice is not None:
                self.submit(self.with_facing(out.choice))
            elif out.refusal:
                st.say(out.refusal, error=True)

    def turn(self, step) -> None:
        """Q / E: the next placement turned (where the ruleset uses a facing)."""
        st = self.state
        sp = self.place_space()
        if st.ctrl and sp is not None and sp.uses_facing:
            start = st.deploy_facing if st.deploy_facing is not None else (self.default_facing() or 0.0)
            st.deploy_facing = (start + TURN_STEP * step) % 360.0

    def rest(self) -> None:
        if self.state.ctrl and self.deploying():
            rest = [i for i, o in enumerate(self.state.decision.options) if type(o).__name__ == "DeployRest"]
            if rest:
                self.submit(self.state.decision.options[rest[0]])
        self.refresh()

    def draw(self, surf) -> None:
        """The deploying side's zone lit, and the ghost base under the mouse."""
        d = self.state.view.get("deployment")
        if d is None:
            return
        side = d["placing"] if d["placing"] is not None else self.state.viewer
        zones = d["zones"].get(side, d["zones"].get(str(side), []))
        lit = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        for poly in zones:
            pts = [ov.mm_to_screen(self.state.cam, x, y) for x, y in poly]
            if len(pts) >= 3:
                pygame.draw.polygon(lit, (250, 226, 120, 46), pts)
                pygame.draw.polygon(lit, (250, 226, 120, 200), pts, 2)
        surf.blit(lit, (0, 0))
        sp = self.place_space()
        if sp is None or not self.state.table_rect.collidepoint(self.state.mouse) or self.tools.pan.active:
            return
        x, y = mm(self.state, self.state.mouse)
        c = self.with_facing(sp.at_point(x, y)[0])
        reason = sp.check(c)
        centre = ov.mm_to_screen(self.state.cam, x, y)
        r = max(3, round(sp.radius * self.state.cam.px_per_mm))
        ghost = pygame.Surface((2 * r + 4, 2 * r + 4), pygame.SRCALPHA)
        colour = (120, 230, 140) if reason is None else (240, 90, 70)
        pygame.draw.circle(ghost, colour + (110,), (r + 2, r + 2), r)
        pygame.draw.circle(ghost, colour + (230,), (r + 2, r + 2), r, 2)
        surf.blit(ghost, (centre[0] - r - 2, centre[1] - r - 2))
        if sp.uses_facing:
            import math
            f = c.facing if c.facing is not None else self.default_facing()
            if f is not None:
                a = math.radians(f)
                tip = (centre[0] + math.cos(a) * (r + 8), centre[1] - math.sin(a) * (r + 8))
                pygame.draw.line(surf, (250, 246, 236), centre, tip, 3)
        if reason is None:          # a refusal's reason is the tooltip's (the table overlays)
            lab = ghost_label(sp.name, True, None)
            surf.blit(lab, lab.get_rect(midtop=(centre[0], centre[1] + r + 4)))
