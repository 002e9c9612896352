"""What the game screen draws over the table: the pieces where they glide, the reach, sight and
threat shading, the range rings, the live move preview (the engine's route and its cost, or why
not), the AI's named models, the group being formed, the tape, and the hover tooltips (a model's
card, or aiming: sight, range and the odds of each attack).

An owned part of the game screen (``game/scenes/play.py``). Nothing here asks the table while the
AI thinks (``AITurns.busy``); shading is cached per model and game version.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from engine.table import Base
from game.play.options import odds_text
from game.play.pointer import mm, table_pos
from game.render import grid_shading as gs
from game.render import overlays as ov
from game.render import piece_tokens as pt

if TYPE_CHECKING:
    from game.play.ai_turns import AITurns
    from game.play.answers import Answering
    from game.play.routing import PlayPanels

FINE_MM = 0.5       # the reach shading's grid along its edge (MoveSpace.shading)
EDGE_MM = 2.5       # the width of the reach shading's outline on the table


@dataclass(eq=False)          # a part of the game screen: one each, known by identity
class Overlays:
    """The overlays and tooltips on the table. Given the state, the answering part (where gliding
    models are), the AI's turns (``busy``), the panels (the tools, the open sheet) and the window's
    surface (a callable: the aim's rays are drawn on it)."""

    state: Any                   # the PlayState (Any: its made-once fields are typed object)
    answering: Answering
    ai: AITurns
    panels: PlayPanels
    screen: Callable[[], pygame.Surface]

    def _busy(self) -> bool:
        return self.ai.busy()

    def draw(self, surf) -> None:
        st = self.state
        cam = st.cam
        pos = self.answering.positions()
        ctrl = self.state.ctrl
        mouse_in = self.state.table_rect.collidepoint(self.state.mouse)
        at = mm(st, st.mouse) if mouse_in else None      # the mouse on the table (mm)
        hover = pt.piece_at(self.state.pieces, pos, *at) if at is not None else None
        sel = ctrl.selected if ctrl else None
        if not self._busy() and ctrl and sel:
            if self.state.toggles["reach"]:
                self._draw_reach(surf, ctrl, sel)
            if self.state.toggles["sight"]:
                self._draw_shade(surf, sel, mine=True)
        if not self._busy() and self.state.toggles["threat"] and self.state.viewer:
            self._draw_shade(surf, None, mine=False)
        if not self._busy() and sel and self.state.toggles.get("rings", True):
            p = next((q for q in self.state.pieces if q["id"] == sel), None)
            if p is not None:
                for name, reach in self._ranges(sel):
                    ov.draw_ring(surf, cam, pos.get(sel, (p["x"], p["y"])), p["radius"] + reach, name)
        # live move preview: the select tool draws its own
        pv = None
        if not self._busy() and ctrl and sel and mouse_in and hover is None and not self.panels.tools.pan.active and self.panels.tools.tape.start is None:
            pv = self.panels.tools.select.draw_preview(surf, cam, at, self._shift(), self.state.unit)
        hovered = st.options.hover if ctrl and self.panels.sheets.reference is None else None
        if hovered is not None and not self._busy():   # a listed compass heading: its flight
            f = ctrl.flight_of(hovered)
            if f is not None:
                ov.draw_flight(surf, cam, f, True, self.state.unit)
        ov.draw_table_state(surf, cam, self.state.view, self.state.renderer.geoms)
        pt.draw_pieces(surf, cam, [p for p in self.state.pieces], pos, selected=sel,
                       actors=ctrl.actors() if ctrl else (), hover=hover["id"] if hover else None, t=self.state.t)
        self.state.effects.draw(surf, cam, self.state.pieces, pos, self.state.t, area=self._visible_table())
        for p in self.state.pieces:                         # what the AI's last turn was about
            if p["id"] in self.state.ai_named and not p["out"]:
                c = ov.mm_to_screen(cam, *pos.get(p["id"], (p["x"], p["y"])))
                pygame.draw.circle(surf, (170, 200, 255), c, p["radius"] * cam.px_per_mm + 9, 1)
        if ctrl and not self._busy():                 # the hint's answer (G, the Hint button)
            self.state.hint.draw_table(surf, cam, self.state.pieces, pos, self.state.unit)
        if ctrl and ctrl.group:                       # the group being formed
            for p in self.state.pieces:
                if p["id"] in ctrl.group:
                    c = ov.mm_to_screen(cam, *pos.get(p["id"], (p["x"], p["y"])))
                    pygame.draw.circle(surf, (140, 240, 160), c, p["radius"] * cam.px_per_mm + 6, 3)
        tip = None
        if hover is not None and sel and hover["id"] != sel and not self._busy():
            tip = self._aim_lines(sel, hover)
        elif hover is not None:
            tip = self._piece_lines(hover)
        elif pv is not None:
            if pv.cost is not None:
                tip = [f"move {ov.length_text(pv.cost, self.state.unit)} of {ov.length_text(pv.allowance, self.state.unit)}"
                       + (", ending Prone" if self.state.prone_moves and ctrl.prone_offered() else ""),
                       f"{ov.length_text(max(0.0, pv.allowance - pv.cost), self.state.unit)} left"]
                crow = math.dist(pv.path[0], pv.path[-1]) if pv.path else pv.cost
                if pv.cost > crow + 1.0:
                    tip.append(f"{ov.length_text(crow, self.state.unit)} as the crow flies; the rest is climbing or detour")
            elif pv.flight is not None and pv.legal:
                f = pv.flight
                far = ov.length_text(f.far, self.state.unit)
                tip = [self.state.session.game.describe(pv.choice),
                       (f"lands {ov.length_text(f.near, self.state.unit)} to {far} away" if f.far > f.near
                        else f"lands {far} away") + " unless something stops it"]
            elif not pv.legal:
                tip = ["not allowed", pv.reason or ""]
            alt = ctrl.table_spaces(alternate=True) if not self._shift() else []
            if tip and alt and ctrl.table_spaces() != alt:    # the other answer, where the eye is
                tip.append(f"Shift+click: {alt[0].describe()}")
        tape = self.panels.tools.tape
        if tape.tape:
            length, a, b = tape.length()
            edge = " (base to base)" if (tape.tape[2] or tape.tape[3]) else ""
            ov.draw_tape(surf, cam, a, b, ov.length_text(length, self.state.unit) + edge, self.state.unit)
        if tip:
            ov.draw_tooltip(surf, table_pos(st, st.mouse), tip)

    def _visible_table(self) -> pygame.Rect:
        """The table's part that no panel covers, in the table's own pixels: below the deployment
        tray while it shows (what floats over a model is kept inside it)."""
        r = pygame.Rect((0, 0), self.state.table_rect.size)
        if self.state.deploy_tray.active:
            top = min(r.h - 40, self.state.deploy_tray.rect.bottom - self.state.table_rect.y)
            r = pygame.Rect(0, top, r.w, r.h - top)
        return r

    @staticmethod
    def _shift() -> bool:
        return bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)

    def _ranges(self, mid: str):
        cache = self.state.ranges_cache
        key = (mid, self.state.session.version)
        if key not in cache:
            cache.clear()
            cache[key] = self.state.session.game.ranges(mid)
        return cache[key]

    def _piece_lines(self, p) -> list[str]:
        side = self.state.names.get(p["player"], f"Player {p['player']}")
        lines = [f"{p['name']}  ({side})"]
        if p["health"]:
            lines.append(p["health"])
        lines += p["profile"]
        if p["markers"]:
            from game.ui.help_panels import marker_words
            lines += marker_words(self.state.session.game.setup.ruleset, p["markers"])
        if p["out"]:
            lines.append("out of the game")
        return lines

    def _base(self, p) -> Base:
        return Base(p["id"], p["x"], p["y"], p["radius"], p["height"], p["facing"] or 0.0, p["z"])

    def _draw_sight_line(self, a, b) -> float:
        others = [self._base(p) for p in self.state.pieces if not p["out"] and p["id"] not in (a["id"], b["id"])]
        s = self.state.session.game.table.sight(self._base(a), self._base(b), others)
        return float(s.visible_fraction)

    def _aim_lines(self, sel_id, target) -> list[str]:
        """Hovering a model with one selected: sight, range, and the odds of each attack."""
        a = next((p for p in self.state.pieces if p["id"] == sel_id), None)
        if a is None:
            return self._piece_lines(target)
        frac = self._draw_sight_line(a, target)
        surf = self.screen().subsurface(self.state.table_rect)
        ov.draw_rays(surf, self.state.cam, (a["x"], a["y"]), (target["x"], target["y"]), frac)
        gap = max(0.0, math.dist((a["x"], a["y"]), (target["x"], target["y"])) - a["radius"] - target["radius"])
        lines = [f"{a['name']} -> {target['name']}",
                 f"range {ov.length_text(gap, self.state.unit)} base to base; {frac:.0%} of it visible"]
        lines += self.state.session.game.aim_info(sel_id, target["id"])
        if self.state.ctrl:
            odds_fn = getattr(self.state.session.game, "attack_odds", None)
            for i, ids in enumerate(self.state.ctrl.ids_of):
                if ids and ids[0] == sel_id and target["id"] in ids[1:]:
                    label = self.state.decision.labels[i]
                    if odds_fn is not None:
                        o = odds_fn(self.state.decision.options[i])
                        if o is not None:
                            label = f"{label}: {odds_text(o)}"
                    lines.append(label)
        return lines + [""] + self._piece_lines(target)[:2]

    def _draw_reach(self, surf, ctrl, sel) -> None:
        key = (sel, self.state.session.version)
        if key not in self.state.reach_cache:
            spaces = [s for s in ctrl.spaces_for(sel) if hasattr(s, "reach")]
            r = None
            if spaces:
                try:
                    # cells of a fiftieth of the allowance (2.5 to 6.35 mm), refined along the
                    # edge to about 0.5 mm so that nothing shaded is refused (issue 58: the gap
                    # between two huts a base barely fits through)
                    r = spaces[0].shading(max(2.5, min(6.35, spaces[0].allowance / 50)), FINE_MM)
                except Exception as err:  # a preview must never take the game down
                    self.state.say(f"reach preview failed: {err!r}", error=True)
                    self.state.toggles["reach"] = False
            self.state.reach_cache[key] = None if r is None else (
                gs.mask_surface(r.mask, (110, 240, 140, 80), edge=(150, 255, 170, 230),
                                edge_cells=max(1, round(EDGE_MM / r.cell))), r)
        got = self.state.reach_cache[key]
        if got is not None:
            img, r = got
            gs.draw_grid_at_clicks(surf, self.state.cam, img, (r.x0, r.y0), r.cell, r.mask.shape[0])

    def _draw_shade(self, surf, sel, mine: bool) -> None:
        """Shade what a model sees (or what the enemy sees), from the engine's visibility grid."""
        fn = getattr(self.state.session.game.table, "visible_grid", None)
        if fn is None:
            return
        key = ("mine" if mine else "threat", sel, self.state.session.version)
        if key not in self.state.shade_cache:
            if mine:
                viewers = [p for p in self.state.pieces if p["id"] == sel]
            else:
                viewers = [p for p in self.state.pieces if not p["out"] and p["player"] != self.state.viewer]
            g = fn([self._base(p) for p in viewers])
            colour = (90, 170, 255, 95) if mine else (255, 80, 60, 90)
            self.state.shade_cache[key] = (gs.mask_surface(g.mask, colour), g)
        img, g = self.state.shade_cache[key]
        gs.draw_grid_overlay(surf, self.state.cam, img, g.origin, g.cell, g.mask.shape[0])
