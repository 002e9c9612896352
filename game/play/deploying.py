"""The game screen while the forces deploy: the tray of models to place (``game/ui/deploy_tray.py``),
the deploying side's zone lit, a ghost base under the mouse with the engine's verdict (and its
facing where the ruleset uses one: Q and E turn it), a drag from the tray onto the table.

Legality is the engine's (the decision's ``PlaceSpace.check``, through the generic controller);
the default facing is the view's. A part of ``PlayScene`` (``game/scenes/play.py``).
"""
from __future__ import annotations

import dataclasses

import pygame

from engine.rulesets.deployment import PlaceModel, PlaceSpace
from game.render import overlays as ov
from game.ui.deploy_tray import ghost_label

TURN_STEP = 45.0


class DeployingMixin:
    """Deployment input and drawing of ``PlayScene``."""

    deploy_facing: float | None = None       # the facing Q/E chose for the next placement

    def _deploying(self) -> bool:
        return self.decision is not None and self.decision.kind == "deploy"

    def _place_space(self) -> PlaceSpace | None:
        if not self.ctrl or not self._deploying():
            return None
        return next((s for s in self.ctrl.spaces_for(self.ctrl.selected) if isinstance(s, PlaceSpace)), None)

    def _deploy_refresh(self) -> None:
        """After the view is read: the first model still to place is picked up (a click on the
        table places it), and the tray shows the viewer's models."""
        if self.ctrl and self._deploying():
            actors = [s.actor for s in self.decision.spaces if isinstance(s, PlaceSpace)]
            if actors and self.ctrl.selected not in actors:
                self.ctrl.selected = actors[0]
        self.deploy_tray.update(self.view, self.viewer, self.ctrl.selected if self.ctrl else None)

    def _with_facing(self, choice):
        """A placement with the facing Q/E chose (where the ruleset has one)."""
        sp = self._place_space()
        if isinstance(choice, PlaceModel) and sp is not None and sp.uses_facing and self.deploy_facing is not None:
            return dataclasses.replace(choice, facing=self.deploy_facing % 360.0)
        return choice

    def _default_facing(self) -> float | None:
        d = self.view.get("deployment") or {}
        f = d.get("facing", {})
        return f.get(self.viewer, f.get(str(self.viewer)))

    def _deploy_command(self, key: str, arg) -> None:
        """The deployment panel's commands: a model picked up from the tray, dropped on the
        table, the next placement turned (Q/E)."""
        if key == "deploy pick":
            if self.ctrl:
                self.ctrl.selected = arg
                self._fill_options()
            self._deploy_refresh()
        elif key == "deploy drop":
            self.mouse = arg
            if self.table_rect.collidepoint(arg) and self.ctrl:
                out = self.ctrl.click_table(*self._mm(arg))
                if out.choice is not None:
                    self.submit(self._with_facing(out.choice))
                elif out.refusal:
                    self.say(out.refusal, error=True)
        elif key == "deploy turn":
            sp = self._place_space()
            if self.ctrl and sp is not None and sp.uses_facing:
                start = self.deploy_facing if self.deploy_facing is not None else (self._default_facing() or 0.0)
                self.deploy_facing = (start + TURN_STEP * arg) % 360.0

    def _deploy_rest(self) -> None:
        if self.ctrl and self._deploying():
            rest = [i for i, o in enumerate(self.decision.options) if type(o).__name__ == "DeployRest"]
            if rest:
                self.submit(self.decision.options[rest[0]])
        self._deploy_refresh()

    def _draw_deploy(self, surf) -> None:
        """The deploying side's zone lit, and the ghost base under the mouse."""
        d = self.view.get("deployment")
        if d is None:
            return
        side = d["placing"] if d["placing"] is not None else self.viewer
        zones = d["zones"].get(side, d["zones"].get(str(side), []))
        lit = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        for poly in zones:
            pts = [ov.mm_to_screen(self.cam, x, y) for x, y in poly]
            if len(pts) >= 3:
                pygame.draw.polygon(lit, (250, 226, 120, 46), pts)
                pygame.draw.polygon(lit, (250, 226, 120, 200), pts, 2)
        surf.blit(lit, (0, 0))
        sp = self._place_space()
        if sp is None or not self.table_rect.collidepoint(self.mouse) or self.panning:
            return
        x, y = self._mm(self.mouse)
        c = self._with_facing(sp.at_point(x, y)[0])
        reason = sp.check(c)
        centre = ov.mm_to_screen(self.cam, x, y)
        r = max(3, round(sp.radius * self.cam.px_per_mm))
        ghost = pygame.Surface((2 * r + 4, 2 * r + 4), pygame.SRCALPHA)
        colour = (120, 230, 140) if reason is None else (240, 90, 70)
        pygame.draw.circle(ghost, colour + (110,), (r + 2, r + 2), r)
        pygame.draw.circle(ghost, colour + (230,), (r + 2, r + 2), r, 2)
        surf.blit(ghost, (centre[0] - r - 2, centre[1] - r - 2))
        if sp.uses_facing:
            import math
            f = c.facing if c.facing is not None else self._default_facing()
            if f is not None:
                a = math.radians(f)
                tip = (centre[0] + math.cos(a) * (r + 8), centre[1] - math.sin(a) * (r + 8))
                pygame.draw.line(surf, (250, 246, 236), centre, tip, 3)
        if reason is None:          # a refusal's reason is the tooltip's (the table overlays)
            lab = ghost_label(sp.name, True, None)
            surf.blit(lab, lab.get_rect(midtop=(centre[0], centre[1] + r + 4)))
