"""The deployment tray: the models still to place, across the top of the table while a side
deploys, and the deployment's words (whose placement, the mode, the other side's count).

A panel that owns its rect, its state and its input: it reads the view's ``deployment`` entry,
whose eyes the screen shows and the selected model, never the session; ``handle`` returns an
intent (``("select", model)``, ``("drag", model)`` when a press starts dragging a model out,
``("auto", None)`` for "deploy the rest") and draws itself.
"""
from __future__ import annotations

import pygame

from game.render.text import elide, font, plate

TRAY_H = 58
CHIP_W = 118


class DeployTray:
    def __init__(self):
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.deployment: dict | None = None
        self.viewer: int | None = None
        self.placing: int | None = None
        self.selected: str | None = None
        self.mine: list[dict] = []
        self.chips: list[tuple[pygame.Rect, dict]] = []
        self.auto_rect = pygame.Rect(0, 0, 0, 0)
        self.headline_rect = pygame.Rect(0, 0, 0, 0)     # where the deployment's words were drawn last

    @property
    def active(self) -> bool:
        return self.deployment is not None

    def layout(self, table_rect: pygame.Rect) -> None:
        self.rect = pygame.Rect(table_rect.x + 8, table_rect.y + 6, max(0, table_rect.w - 16), TRAY_H)
        self._place_chips()

    def update(self, view: dict, viewer: int | None, selected: str | None) -> None:
        """Read what the tray shows from ``view`` (the viewer's own) and the selected model."""
        self.deployment = view.get("deployment")
        self.viewer, self.selected = viewer, selected
        d = self.deployment
        self.placing = d["placing"] if d else None
        left = (d or {}).get("left", {})
        self.mine = list(left.get(viewer, left.get(str(viewer), []))) if viewer is not None else []
        self._place_chips()

    def _place_chips(self) -> None:
        self.chips = []
        x = self.rect.x + 6
        w = CHIP_W
        room = self.rect.w - 190
        if self.mine and len(self.mine) * (w + 4) > room:
            w = max(54, room // len(self.mine) - 4)
        for m in self.mine:
            self.chips.append((pygame.Rect(x, self.rect.y + 22, w, 30), m))
            x += w + 4
        self.auto_rect = pygame.Rect(self.rect.right - 176, self.rect.y + 22, 170, 30)

    def my_turn(self) -> bool:
        return self.active and self.viewer is not None and self.placing == self.viewer

    def handle(self, ev) -> tuple[str, str | None] | None:
        """An intent for a press on the tray; None when the event is not the tray's."""
        if not self.active or ev.type != pygame.MOUSEBUTTONDOWN or ev.button != 1 or not self.rect.collidepoint(ev.pos):
            return None
        if not self.my_turn():
            return ("none", None)
        if self.auto_rect.collidepoint(ev.pos):
            return ("auto", None)
        for r, m in self.chips:
            if r.collidepoint(ev.pos):
                return ("drag", m["id"])
        return ("none", None)

    def headline(self, names: dict[int, str]) -> str:
        d = self.deployment
        if d is None:
            return ""
        mode = {"alternate": "one model at a time", "groups": f"{d['group']} models at a time",
                "hidden": "unseen until both sides are done"}.get(d["mode"], d["mode"])
        who = names.get(self.placing, f"Player {self.placing}") if self.placing else "nobody"
        other = None if self.viewer is None else 3 - self.viewer
        theirs = len(d["left"].get(other, d["left"].get(str(other), []))) if other else 0
        tail = "" if other is None else (f"; {names.get(other, other)}: {theirs} to place" if d["mode"] != "hidden"
                                         else f"; {names.get(other, other)}'s placements stay hidden")
        return f"Deployment ({mode}): {who} to place{tail}"

    def draw(self, screen, names: dict[int, str], unit_words=None) -> None:
        if not self.active:
            return
        bg = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        bg.fill((24, 20, 16, 200))
        screen.blit(bg, self.rect)
        self.headline_rect = screen.blit(self._headline_image(names), (self.rect.x + 6, self.rect.y + 3))
        mine = self.my_turn()
        for r, m in self.chips:
            sel = m["id"] == self.selected
            pygame.draw.rect(screen, (74, 96, 60) if sel else (52, 46, 38), r, border_radius=6)
            pygame.draw.rect(screen, (250, 230, 120) if sel else (120, 108, 90), r, 2 if sel else 1, border_radius=6)
            rad = max(4, min(12, round(m["radius"] / 2)))
            pygame.draw.circle(screen, (210, 200, 180) if mine else (120, 112, 100), (r.x + 14, r.centery), rad)
            label = m["name"]
            f = font(13)
            while label and f.size(label)[0] > r.w - 32:
                label = label[:-2] + "…" if len(label) > 2 else ""
            screen.blit(f.render(label, True, (240, 234, 220) if mine else (150, 142, 130)), (r.x + 28, r.centery - 8))
        if not self.mine and self.viewer is not None:
            screen.blit(font(13).render("all your models are placed", True, (200, 192, 176)), (self.rect.x + 8, self.rect.y + 30))
        if mine and self.mine:
            pygame.draw.rect(screen, (60, 70, 90), self.auto_rect, border_radius=6)
            pygame.draw.rect(screen, (150, 170, 210), self.auto_rect, 1, border_radius=6)
            lab = font(13).render("Deploy the rest (A)", True, (230, 236, 250))
            screen.blit(lab, lab.get_rect(center=self.auto_rect.center))

    def _headline_image(self, names: dict[int, str]) -> pygame.Surface:
        """The deployment's words inside the tray: smaller where they would run past it (Frontier's
        posse names in hidden placement at 1024x600), then cut with "…"."""
        words, room = self.headline(names), self.rect.w - 12
        f = font(14, bold=True)
        if f.size(words)[0] > room:
            f = font(12, bold=True)
            words = elide(words, f, room)
        return f.render(words, True, (250, 236, 190))

    def hint(self, uses_facing: bool, short: bool = False) -> str:
        """How to place (``short``: the keys only, for a prompt box with little room)."""
        base = "Ctrl+Z undoes" if short else "click the table or drag from the tray; Ctrl+Z undoes"
        return base + ("; Q/E turn" if uses_facing else "")


def ghost_label(name: str, legal: bool, reason: str | None):
    """The plate under the ghost base: the model's name, or why the spot is refused."""
    return plate(name if legal else (reason or "not here"), 13, bg=(24, 40, 20, 210) if legal else (60, 20, 16, 220))
