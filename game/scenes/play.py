"""The game scene: the table in play, the decision panel, the log, the AI's turns.

Everything shown comes from ``view(viewer)`` and the pending Decision; every answer goes
through the generic controller and ``GameSession.submit``. Layout: a turn bar on top, the
table on the left, the decision panel (prompt, options, buttons, dice and cards, log) on the
right.
"""
from __future__ import annotations

import math

import pygame
import pygame_gui

from engine.table import Base
from game.controllers import AIWorker, GenericController
from game.play.ai_turns import AITurnsMixin
from game.play.answers import AnswersMixin, reveal_records
from game.play.commands import CommandsMixin
from game.play.handover import HandoverMixin
from game.play.keys import HELP, KeysMixin
from game.play.layout import BAR_H, PANEL_W
from game.play.options import OptionsMixin, odds_text
from game.play.picks import PicksMixin
from game.play.pointer import PointerMixin
from game.render import overlays as ov
from game.render.table_view import TableRenderer
from game.render.text import font, plate
from game.session import GameSession
from game.ui.log_panel import LogPanel
from game.ui.options_panel import OptionsPanel
from game.ui.card_hand import CardHand
from game.ui.dice_tray import DiceTray
from game.ui.effects import TableEffects
from game.ui.status import status_line

from .base import Scene


class PlayScene(PointerMixin, KeysMixin, CommandsMixin, AnswersMixin, HandoverMixin, PicksMixin, AITurnsMixin,
                OptionsMixin, Scene):
    def __init__(self, app, session: GameSession, map_name: str = ""):
        super().__init__(app)
        self.ai_enabled = True                     # a replay turns the AI off
        self.session = session
        self.map_name = map_name or session.game.setup.map.id
        self.mapfile = session.game.setup.map
        self.unit = session.game.rules.unit
        self.renderer = TableRenderer(self.mapfile)
        self.names = self._side_names()
        self.speed = getattr(app, "ai_speed", 1.0)
        self.show_help = False
        self.toggles = {"reach": True, "sight": False, "threat": False}
        self.t = 0.0
        self.worker: AIWorker | None = None
        self.ai_wait = 0.0
        self.anim: dict[str, tuple] = {}       # id -> (route points, start time, duration)
        self.effects = TableEffects()
        self.message: tuple[str, float] | None = None
        self.mouse = (-1, -1)
        self.drag_start = None
        self.panning = False
        self.tape = None                       # ((x, y) mm, (x, y) mm, from piece, to piece)
        self.tray = DiceTray(pygame.Rect(0, 0, PANEL_W - 16, 130))
        from game.settings import Settings
        st = Settings.load()
        self.tray.animate = st.animations
        self.sound = st.sound
        self.hand = CardHand()
        self.file_dialog = None
        self.leave_dialog = None
        self._reach_cache = {}
        self._shade_cache = {}
        self.log = LogPanel(pygame.Rect(0, 0, PANEL_W - 16, 200))
        self.options = OptionsPanel(pygame.Rect(0, 0, PANEL_W - 16, 200))
        self._last_selected: str | None = None    # kept across the other side's decisions
        self.prone_moves = False                   # P: a move ends Prone (Counterblast)
        self.reference = None                      # the glossary (F2) or the legend (L), when open
        self.ai_named: set[str] = set()            # models the AI's last turn named
        self.reference_kind = ""
        self.suggest = False                       # G: star the easy agent's pick
        self._suggested = (None, None)
        self._layout()
        self.cam = self.renderer.fit_camera(self.table_rect.size, margin_px=30)
        self._seen_version = -1
        self._shown_player = None
        self.refresh(rebuild_log=True)

    # --- layout and widgets -------------------------------------------------------------
    def _layout(self) -> None:
        """The panel on the right scales with the window (300 px at 1024x600, 380 at 1280x720
        and up to 460 on large screens); the table takes the rest."""
        w, h = self.app.size
        pw = self.panel_w = max(300, min(460, round(w * 0.297)))
        self.table_rect = pygame.Rect(0, BAR_H, w - pw, h - BAR_H)
        self.panel_rect = pygame.Rect(w - pw, 0, pw, h)
        self.ui.clear_and_reset()
        x = self.panel_rect.x + 8
        prompt_h = 98 if h >= 700 else 74
        self.prompt = pygame_gui.elements.UITextBox("", pygame.Rect(x, 6, pw - 16, prompt_h), self.ui,
                                                    object_id="#prompt")
        list_h = max(120, int(h * 0.32))
        self.options.set_rect(pygame.Rect(x, prompt_h + 8, pw - 16, list_h))
        y = prompt_h + 12 + list_h
        bw = (pw - 16 - 3 * 4) // 4
        self.buttons = {}
        for i, (key, text, tip) in enumerate([("undo", "Undo", "Ctrl+Z: take back your last decision"),
                                              ("save", "Save", "Ctrl+S: save the game"),
                                              ("load", "Load", "Ctrl+O: load a saved game"),
                                              ("help", "Help", "F1: the controls")]):
            self.buttons[key] = pygame_gui.elements.UIButton(pygame.Rect(x + i * (bw + 4), y, bw, 28), text, self.ui,
                                                             tool_tip_text=tip)
        y += 32
        for i, (key, text, tip) in enumerate([("reach", "Reach", "R: shade where the selected model can move"),
                                              ("sight", "Sight", "V: shade what the selected model can see"),
                                              ("threat", "Threat", "T: shade what the enemy can see"),
                                              ("menu", "Menu", "back to the launcher (the game is autosaved)")]):
            self.buttons[key] = pygame_gui.elements.UIButton(pygame.Rect(x + i * (bw + 4), y, bw, 28), text, self.ui,
                                                             tool_tip_text=tip)
        y += 34
        self._show_toggles()
        tray_h = 150 if h >= 800 else (128 if h >= 700 else 104)
        self.tray.set_rect(pygame.Rect(x, y, pw - 16, tray_h))
        self.log.set_rect(pygame.Rect(x, y + tray_h + 6, pw - 16, h - (y + tray_h + 6) - 8))
        self._listed: list[int] = []
        self._last_prompt = None

    def resize(self, size) -> None:
        super().resize(size)
        self._layout()
        self.cam = self.renderer.fit_camera(self.table_rect.size, margin_px=30)
        self._last_prompt = None
        self.refresh()

    # --- the model: views, decision, controller ------------------------------------------
    def _side_names(self) -> dict[int, str]:
        v = self.session.game.view(None)
        names = {}
        for p in (1, 2):
            seat = self.session.seats.get(p, "")
            who = "you" if seat == "human" and len(self.session.humans) == 1 else f"Player {p}"
            if seat.startswith("ai:"):
                who = f"AI {seat[3:]}"
            if v.get("ruleset") == "frontier":
                who += f" ({v['posses'][str(p)]['name']})"
            names[p] = who
        return names

    def refresh(self, rebuild_log: bool = False) -> None:
        """Re-read the view and the decision after any change."""
        s = self.session
        self.viewer = s.viewer()
        self.view = s.view()
        self.pieces = self.view.get("pieces", [])
        self.decision = s.pending()
        # a decision is answered here only by the player whose eyes the screen shows
        human_turn = self.decision is not None and s.is_human(self.decision.player) and self.decision.player == self.viewer
        old_sel = self.ctrl.selected if getattr(self, "ctrl", None) else None
        self._last_selected = old_sel or self._last_selected
        self.ctrl = GenericController(self.decision, self.pieces) if human_turn else None
        if self.ctrl:
            self.ctrl.prone = self.prone_moves
            actors = self.ctrl.actors()
            if self._last_selected in actors:
                # the model that just acted stays selected (its next action, its odds on hover)
                self.ctrl.selected = self._last_selected
            elif len(actors) == 1 and self.ctrl.spaces_for(next(iter(actors))):
                # one model must answer on the table (a reaction's move, a Rush): its preview,
                # reach and refusals show at once, with no click to find it
                self.ctrl.selected = next(iter(actors))
        if rebuild_log or self._shown_player != self.viewer:
            self.log.clear()
            self.tray.clear()
            for e in s.game.log:
                if e.visible(self.viewer):
                    self.log.add(e.text, e.kind, e.data.get("rolls"), private=e.visible_to is not None)
            shown = [e for e in s.game.log[-60:] if e.visible(self.viewer)
                     and (e.data.get("rolls") or (e.kind == "reveal" and isinstance(e.data.get("cards"), dict)))]
            for e in shown[-self.tray.keep:]:
                self.tray.add(e.text, e.data.get("rolls") or reveal_records(e, self.viewer), self.t, animate=False)
            self._shown_player = self.viewer
        self._seen_version = s.version
        self._show_toggles()
        self._fill_options()

    # --- answering ------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        self.message = (text, self.t + 5.0)
        self.log.add(("refused: " if error else "") + text, "error" if error else "info")

    # --- input ----------------------------------------------------------------------------
    def handle(self, ev) -> None:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            for name in ("file_dialog", "leave_dialog"):      # Esc closes an open dialog first
                dialog = getattr(self, name)
                if dialog is not None and dialog.alive():
                    dialog.kill()
                    setattr(self, name, None)
                    return
        if self.file_dialog is not None and not self.file_dialog.alive():
            self.file_dialog = None
        if self.file_dialog is not None:
            if ev.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
                self._load(ev.text)
                self.file_dialog = None
            elif ev.type == pygame_gui.UI_WINDOW_CLOSE and ev.ui_element is self.file_dialog:
                self.file_dialog = None
            return
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.tray.rect.collidepoint(ev.pos):
            if self.tray.handle(ev) is not None:
                self._picked_keep()
            return
        if ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION) and self.table_rect.collidepoint(ev.pos) \
                and self.hand.active:
            got = self.hand.handle(ev)
            if got is not None and ev.type == pygame.MOUSEBUTTONDOWN:
                if got >= 0 and self.ctrl is not None:
                    self.submit(self.decision.options[got])
                elif got == -2 and self.ctrl is not None and self.hand.refused:
                    self._refuse_pair(*self.hand.refused)
                elif got == -3 and self.ctrl is not None:
                    self._spend_picked()
                return
        if self.reference is not None and ev.type == pygame.MOUSEWHEEL:
            self.reference.handle(ev)
            return
        if ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION, pygame.MOUSEWHEEL):
            picked = self.options.handle(ev, self.mouse)
            if picked is not None:
                if self.ctrl:
                    out = self.ctrl.pick(picked)
                    if out.choice is not None:
                        self.submit(out.choice)
                return
            if ev.type == pygame.MOUSEWHEEL and self.options.rect.collidepoint(self.mouse):
                return
        if ev.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and ev.ui_element is self.leave_dialog:
            self.leave_dialog = None
            self.leave()
            return
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, b in self.buttons.items():
                if ev.ui_element is b:
                    self.command(key)
            return
        if ev.type == pygame.KEYDOWN:
            self._key(ev)
            return
        if self.log.handle(ev, self.mouse):
            if self.log.clicked is not None:      # a roll's line: its dice back in the tray
                self.tray.show_again("", self.log.clicked, self.t)
                self.log.clicked = None
            return
        if ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION, pygame.MOUSEWHEEL):
            self._mouse(ev)

    # --- actions --------------------------------------------------------------------------
    # --- the frame ------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.t += dt
        s = self.session
        if self._check_flow():            # before any frame that could show another's hand
            return
        if self._seen_version != s.version:
            self.refresh()
        for k, (route, t0, dur) in list(self.anim.items()):
            if self.t - t0 >= dur:
                del self.anim[k]
        self._ai_step()

    def _memo(self, key, make):
        """Surfaces made from text (the bar, the panel) are drawn once per content."""
        memo = self.__dict__.setdefault("_memo_d", {})
        if key not in memo:
            if len(memo) > 64:
                memo.clear()
            memo[key] = make()
        return memo[key]

    def draw(self, screen) -> None:
        if self.session.pass_due() is not None:   # never a frame of the wrong player's table
            screen.fill((20, 16, 13))
            return
        self._show_toggles()
        tsurf = screen.subsurface(self.table_rect)
        self.renderer.set_avoid((p["x"], p["y"], p["radius"]) for p in self.pieces if not p["out"])
        self.renderer.draw(tsurf, self.cam, now=self.t)
        self._draw_table_overlays(tsurf)
        self.hand.draw(screen, self.table_rect, self.t)
        self._draw_bar(screen)
        self._draw_panel(screen)
        if self.options.hover is not None and self.ctrl is not None and self.reference is None:
            self._draw_option_card(screen, self.options.hover)
        if self.reference is not None:
            self.reference.draw(screen, self.table_rect)
        if self.show_help:
            self._draw_help(screen)
        if self.message and self.t < self.message[1]:
            lab = plate(self.message[0][:140], 17, bg=(40, 20, 14, 230))
            screen.blit(lab, lab.get_rect(midbottom=(self.table_rect.centerx, self.table_rect.bottom - 10)))

    def _draw_table_overlays(self, surf) -> None:
        cam = self.cam
        pos = self.positions()
        ctrl = self.ctrl
        mouse_in = self.table_rect.collidepoint(self.mouse)
        mx, my = self._mm(self.mouse) if mouse_in else (None, None)
        hover = ov.piece_at(self.pieces, pos, mx, my) if mouse_in else None
        sel = ctrl.selected if ctrl else None
        if not self._busy() and ctrl and sel:
            if self.toggles["reach"]:
                self._draw_reach(surf, ctrl, sel)
            if self.toggles["sight"]:
                self._draw_shade(surf, sel, mine=True)
        if not self._busy() and self.toggles["threat"] and self.viewer:
            self._draw_shade(surf, None, mine=False)
        if not self._busy() and sel and self.toggles.get("rings", True):
            p = next((q for q in self.pieces if q["id"] == sel), None)
            if p is not None:
                for name, reach in self._ranges(sel):
                    ov.draw_ring(surf, cam, pos.get(sel, (p["x"], p["y"])), p["radius"] + reach, name)
        # live move preview
        pv = None
        if not self._busy() and ctrl and sel and mouse_in and hover is None and not self.panning and self.drag_start is None:
            pv = ctrl.preview(mx, my, alternate=bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
            if pv is not None:
                if pv.path:
                    ov.draw_path(surf, cam, pv.path, pv.legal)
                if not pv.legal:
                    ov.draw_cross(surf, ov.mm_to_screen(cam, mx, my))
        ov.draw_table_state(surf, cam, self.view, self.renderer.geoms)
        ov.draw_pieces(surf, cam, [p for p in self.pieces], pos, selected=sel,
                       actors=ctrl.actors() if ctrl else (), hover=hover["id"] if hover else None, t=self.t)
        self.effects.draw(surf, cam, self.pieces, pos, self.t)
        for p in self.pieces:                         # what the AI's last turn was about
            if p["id"] in self.ai_named and not p["out"]:
                c = ov.mm_to_screen(cam, *pos.get(p["id"], (p["x"], p["y"])))
                pygame.draw.circle(surf, (170, 200, 255), c, p["radius"] * cam.px_per_mm + 9, 1)
        if ctrl and ctrl.group:                       # the group being formed
            for p in self.pieces:
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
                tip = [f"move {ov.length_text(pv.cost, self.unit)} of {ov.length_text(pv.allowance, self.unit)}"
                       + (", ending Prone" if self.prone_moves and ctrl.prone_offered() else ""),
                       f"{ov.length_text(max(0.0, pv.allowance - pv.cost), self.unit)} left"]
                crow = math.dist(pv.path[0], pv.path[-1]) if pv.path else pv.cost
                if pv.cost > crow + 1.0:
                    tip.append(f"{ov.length_text(crow, self.unit)} as the crow flies; the rest is climbing or detour")
            elif not pv.legal:
                tip = ["not allowed", pv.reason or ""]
        if self.tape:
            length, a, b = self.tape_length()
            edge = " (base to base)" if (self.tape[2] or self.tape[3]) else ""
            ov.draw_tape(surf, cam, a, b, ov.length_text(length, self.unit) + edge, self.unit)
        if tip:
            ov.draw_tooltip(surf, self._table_pos(self.mouse), tip)

    def _ranges(self, mid: str):
        cache = self.__dict__.setdefault("_ranges_cache", {})
        key = (mid, self.session.version)
        if key not in cache:
            cache.clear()
            cache[key] = self.session.game.ranges(mid)
        return cache[key]

    def _draw_option_card(self, screen, index: int) -> None:
        """The option under the mouse: what it does, what it costs, its odds, the rule's source."""
        from game.ui.help_panels import option_card
        d = self.decision
        if d is None or not 0 <= index < len(d.options):
            return
        card = option_card(self.session.game.setup.ruleset, self._with_odds(index, d.labels[index]), d.options[index])
        r = self.options.rect_of_row(index) if hasattr(self.options, "rect_of_row") else None
        y = r.y if r is not None else self.options.rect.y
        y = max(4, min(y, screen.get_height() - card.get_height() - 4))
        screen.blit(card, (self.panel_rect.x - card.get_width() - 6, y))

    def _piece_lines(self, p) -> list[str]:
        side = self.names.get(p["player"], f"Player {p['player']}")
        lines = [f"{p['name']}  ({side})"]
        if p["health"]:
            lines.append(p["health"])
        lines += p["profile"]
        if p["markers"]:
            from game.ui.help_panels import marker_words
            lines += marker_words(self.session.game.setup.ruleset, p["markers"])
        if p["out"]:
            lines.append("out of the game")
        return lines

    def _base(self, p) -> Base:
        return Base(p["id"], p["x"], p["y"], p["radius"], p["height"], p["facing"] or 0.0, p["z"])

    def _draw_sight_line(self, a, b) -> float:
        others = [self._base(p) for p in self.pieces if not p["out"] and p["id"] not in (a["id"], b["id"])]
        s = self.session.game.table.sight(self._base(a), self._base(b), others)
        return float(s.visible_fraction)

    def _aim_lines(self, sel_id, target) -> list[str]:
        """Hovering a model with one selected: sight, range, and the odds of each attack."""
        a = next((p for p in self.pieces if p["id"] == sel_id), None)
        if a is None:
            return self._piece_lines(target)
        frac = self._draw_sight_line(a, target)
        surf = self.app.screen.subsurface(self.table_rect)
        ov.draw_rays(surf, self.cam, (a["x"], a["y"]), (target["x"], target["y"]), frac)
        gap = max(0.0, math.dist((a["x"], a["y"]), (target["x"], target["y"])) - a["radius"] - target["radius"])
        lines = [f"{a['name']} -> {target['name']}",
                 f"range {ov.length_text(gap, self.unit)} base to base; {frac:.0%} of it visible"]
        lines += self.session.game.aim_info(sel_id, target["id"])
        if self.ctrl:
            odds_fn = getattr(self.session.game, "attack_odds", None)
            for i, ids in enumerate(self.ctrl.ids_of):
                if ids and ids[0] == sel_id and target["id"] in ids[1:]:
                    label = self.decision.labels[i]
                    if odds_fn is not None:
                        o = odds_fn(self.decision.options[i])
                        if o is not None:
                            label = f"{label}: {odds_text(o)}"
                    lines.append(label)
        return lines + [""] + self._piece_lines(target)[:2]

    def _draw_reach(self, surf, ctrl, sel) -> None:
        key = (sel, self.session.version)
        if key not in self._reach_cache:
            spaces = [s for s in ctrl.spaces_for(sel) if hasattr(s, "reach")]
            r = None
            if spaces:
                try:
                    # cells of a fiftieth of the allowance (2.5 to 6.35 mm): a shaded edge is then
                    # within a few mm of where check's answer changes, on a 11 cm Doubles move too
                    r = spaces[0].reach(max(2.5, min(6.35, spaces[0].allowance / 50)))
                except Exception as err:  # a preview must never take the game down
                    self.say(f"reach preview failed: {err!r}", error=True)
                    self.toggles["reach"] = False
            self._reach_cache[key] = None if r is None else (ov.mask_surface(r.mask, (110, 240, 140, 80), edge=(150, 255, 170, 230)), r)
        got = self._reach_cache[key]
        if got is not None:
            img, r = got
            ov.draw_grid_overlay(surf, self.cam, img, (r.x0, r.y0), r.cell, r.mask.shape[0])

    def _draw_shade(self, surf, sel, mine: bool) -> None:
        """Shade what a model sees (or what the enemy sees), from the engine's visibility grid."""
        fn = getattr(self.session.game.table, "visible_grid", None)
        if fn is None:
            return
        key = ("mine" if mine else "threat", sel, self.session.version)
        if key not in self._shade_cache:
            if mine:
                viewers = [p for p in self.pieces if p["id"] == sel]
            else:
                viewers = [p for p in self.pieces if not p["out"] and p["player"] != self.viewer]
            g = fn([self._base(p) for p in viewers])
            colour = (90, 170, 255, 95) if mine else (255, 80, 60, 90)
            self._shade_cache[key] = (ov.mask_surface(g.mask, colour), g)
        img, g = self._shade_cache[key]
        ov.draw_grid_overlay(surf, self.cam, img, g.origin, g.cell, g.mask.shape[0])

    def _draw_bar(self, screen) -> None:
        bar = pygame.Rect(0, 0, self.table_rect.w, BAR_H)
        top, sides = status_line(self.view, self.names)
        title = f"{self.session.game.rules.name} on {self.mapfile.name}   |   {top}"
        track_key = repr((self.view.get("moxie"), self.view.get("dread"), self.view.get("leader"),
                          self.view.get("track"), [(f.get("key"), f.get("ap")) for f in self.view.get("fighters") or []],
                          self.view.get("priority"), self.view.get("acting"),
                          {p: (c.get("hand_size"), c.get("spent"), c.get("deck"))
                           for p, c in (self.view.get("cards") or {}).items()}))
        screen.blit(self._memo(("bar", bar.size, title, sides, track_key),
                               lambda: self._bar_image(bar, title, sides, self.view, self.names)), bar)

    @staticmethod
    def _bar_image(bar, title, sides, view, names) -> pygame.Surface:
        from game.ui.tracks import draw_tracks
        img = pygame.Surface(bar.size)
        img.fill((34, 28, 22))
        pygame.draw.line(img, (120, 100, 70), (0, bar.h - 1), (bar.w, bar.h - 1))
        t = font(18).render(title, True, (240, 232, 214))
        if t.get_width() > bar.w - 16:
            t = font(15).render(title, True, (240, 232, 214))
        img.blit(t, (8, 3))
        row = pygame.Rect(8, 5 + t.get_height(), bar.w - 16, bar.h - t.get_height() - 7)
        if not draw_tracks(img, row, view, names):      # a ruleset with no tracks drawn: its words
            s = font(15).render(sides, True, (250, 220, 130))
            img.blit(s, row.topleft)
        return img

    def _draw_panel(self, screen) -> None:
        key = ("panel", self.panel_rect.size)
        screen.blit(self._memo(key, self._panel_image), self.panel_rect)
        self.options.draw(screen)
        self.tray.draw(screen, self.t)
        self.log.draw(screen)
        if self.worker is not None:
            dots = "." * (1 + int(self.t * 3) % 3)
            lab = plate(f"{self.names.get(self.worker.player)} is thinking{dots}", 16)
            screen.blit(lab, (self.table_rect.x + 10, self.table_rect.y + 8))

    def _panel_image(self) -> pygame.Surface:
        img = pygame.Surface(self.panel_rect.size)
        img.fill((30, 25, 20))
        pygame.draw.line(img, (120, 100, 70), (0, 0), (0, self.panel_rect.h), 2)
        return img

    def _draw_help(self, screen) -> None:
        f = font(18)
        w = max(f.size(t)[0] for t in HELP) + 30
        h = len(HELP) * (f.get_linesize() + 4) + 24
        box = pygame.Surface((w, h), pygame.SRCALPHA)
        box.fill((16, 13, 10, 235))
        y = 12
        for i, t in enumerate(HELP):
            box.blit(font(20, True).render(t, True, (250, 220, 130)) if i == 0 else f.render(t, True, (236, 228, 210)),
                     (15, y))
            y += f.get_linesize() + 4
        screen.blit(box, box.get_rect(center=self.table_rect.center))

    def close(self) -> None:
        if self.worker is not None:
            self.worker.wait(5.0)
