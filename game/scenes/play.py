"""The game scene: the table in play, the decision panel, the log, the AI's turns.

Everything shown comes from ``view(viewer)`` and the pending Decision; every answer goes
through the generic controller and ``GameSession.submit``. Layout: a turn bar on top, the
table on the left, the decision panel (prompt, options, buttons, dice and cards, log) on the
right.

The scene holds the state, lays out the widgets, re-reads the view (``refresh``) and runs the
frame; what it does is in parts under ``game/play/``, mixed into the one scene class:
``routing`` (the panels in their router, the events routed; ``apply`` and ``command``: what
they ask), ``pointer`` (clicks on the table, the tape, pan and zoom), ``keys`` (keys, buttons,
the help list), ``commands`` (undo, save, load, leave, history, glossary), ``answers`` (submit
and what follows: log, tray, glides), ``handover`` (the game-over and pass screens: hot-seat
privacy), ``picks`` (dice kept in the tray, cards picked in the hand), ``ai_turns``,
``options`` (prompt, options list, odds), ``table_overlays`` (shading, preview,
tape, tooltips) and ``frame`` (the bar, the panel, the help box). The player's hint (G, the Hint
button) is an owned part, not a mixin: ``self.hint`` (``game/play/hint.py``), called from here.
"""
from __future__ import annotations

import pygame
import pygame_gui

from game.controllers import AIWorker, GenericController
from game.names import named
from game.play.ai_turns import AITurnsMixin
from game.play.answers import AnswersMixin, reveal_records
from game.play.commands import CommandsMixin
from game.play.deploying import DeployingMixin
from game.play.frame import FrameMixin
from game.play.handover import HandoverMixin
from game.play.hint import HintPart
from game.play.keys import KeysMixin
from game.play.layout import BAR_H, PANEL_W
from game.play.options import OptionsMixin, odds_text
from game.play.picks import PicksMixin
from game.play.panels import Shown
from game.play.pointer import PointerMixin
from game.play.routing import RoutingMixin
from game.play.table_overlays import TableOverlaysMixin
from game.presenters import presenter_for
from game.render.table_view import TableRenderer
from game.session import GameSession
from game.ui.card_hand import CardHand
from game.ui.deploy_tray import DeployTray
from game.ui.dice_tray import DiceTray
from game.ui.effects import TableEffects
from game.ui.log_panel import LogPanel
from game.ui.options_panel import OptionsPanel
from game.ui.sides import side_names, side_title
from game.ui.toasts import clear_of, scale_bar_on_screen, toast

from .base import Scene

__all__ = ["PlayScene", "odds_text"]     # odds_text: the options' words, still named here


def _forward(panel: str, name: str, doc: str = "") -> property:
    """A scene attribute that is a panel's state (the name kept for the scene's parts and tests)."""
    return property(lambda self: getattr(getattr(self, panel), name),
                    lambda self, v: setattr(getattr(self, panel), name, v), doc=doc)


class PlayScene(RoutingMixin, DeployingMixin, PointerMixin, KeysMixin, CommandsMixin, AnswersMixin, HandoverMixin,
                PicksMixin, AITurnsMixin, OptionsMixin, TableOverlaysMixin, FrameMixin, Scene):
    """The game screen's state and widgets; what it does (routing the events too) is in the mixed-in parts."""

    file_dialog = _forward("dialogs", "file_dialog")
    loading_from = _forward("dialogs", "loading_from")
    leave_dialog = _forward("dialogs", "leave_dialog")
    reference = _forward("sheets", "reference")
    reference_kind = _forward("sheets", "reference_kind")
    show_help = _forward("sheets", "show_help")
    help_on_top = _forward("sheets", "help_on_top")
    deploy_drag = _forward("deploy_panel", "drag")
    buttons = _forward("buttons_panel", "buttons")
    panning = property(lambda self: self.tools.pan.active)
    drag_start = property(lambda self: self.tools.tape.start)

    @property
    def tape(self):
        return self.tools.tape.tape

    @tape.setter
    def tape(self, v):
        self.tools.tape.tape = v

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
        self.toast_rect = None                     # where the last message was drawn
        self.toggles = {"reach": True, "sight": False, "threat": False}
        self.t = 0.0
        self.worker: AIWorker | None = None
        self.ai_wait = 0.0
        self.anim: dict[str, tuple] = {}       # id -> (route points, start time, duration)
        self.effects = TableEffects()
        self.message: tuple[str, float] | None = None
        self.mouse = (-1, -1)
        self.tray = DiceTray(pygame.Rect(0, 0, PANEL_W - 16, 130))
        from game.settings import Settings
        st = Settings.load()
        self.tray.animate = st.animations
        self.sound = st.sound
        self.hand = CardHand()
        self.deploy_tray = DeployTray()
        self._reach_cache = {}
        self._shade_cache = {}
        self.log = LogPanel(pygame.Rect(0, 0, PANEL_W - 16, 200))
        self.options = OptionsPanel(pygame.Rect(0, 0, PANEL_W - 16, 200))
        self._last_selected: str | None = None    # kept across the other side's decisions
        self._actors_before: dict[int, frozenset] = {}   # who could act in each player's last decision
        self.prone_moves = False                   # P: a move ends Prone (Counterblast)
        self.ai_named: set[str] = set()            # models the AI's last turn named
        self.hint = HintPart()                     # G / Hint: the strongest agent's answer (an owned part)
        self.presenter = presenter_for(session.game.setup.ruleset)
        self.scoreboard = session.scoreboard()
        self._relayout_due = False
        self._panels()
        self.score_panel.show(Shown(scoreboard=self.scoreboard))
        self._layout()
        self._fit_camera()
        self._seen_version = -1
        self._shown_player = None
        self.refresh(rebuild_log=True)

    # --- layout and widgets -------------------------------------------------------------
    # the log keeps at least this much of the column when the score panel takes its room, and the
    # options list (it scrolls) at least that
    LOG_MIN_H = 30
    LIST_MIN_H = 100

    def _layout(self) -> None:
        """The panel on the right scales with the window (300 px at 1024x600, 380 at 1280x720
        and up to 460 on large screens); the table takes the rest. Down the panel: the prompt,
        the options, the buttons, the score (when shown: it takes its room from the log, then
        from the options down to 100 px), the dice tray and the log."""
        w, h = self.app.size
        pw = self.panel_w = max(300, min(460, round(w * 0.297)))
        self.table_rect = pygame.Rect(0, BAR_H, w - pw, h - BAR_H)
        self.deploy_tray.layout(self.table_rect)
        self.panel_rect = pygame.Rect(w - pw, 0, pw, h)
        # clearing closes the other player's undo question: forgotten first (its closing is no
        # refusal), it is asked again on the next frame (``_ask_undo``)
        self.dialogs.undo_dialog = None
        self.ui.clear_and_reset()
        x = self.panel_rect.x + 8
        prompt_h = 98 if h >= 700 else 90     # three lines of words on a small screen
        self.prompt = pygame_gui.elements.UITextBox("", pygame.Rect(x, 6, pw - 16, prompt_h), self.ui,
                                                    object_id="#prompt")
        tray_h = 150 if h >= 800 else (128 if h >= 700 else 104)
        list_h = max(120, int(h * 0.32))
        self.score_panel.small = h < 700
        score_h = self._score_want = self.score_panel.height_for(pw - 16)
        if score_h:
            # the room the options and the log share once the fixed parts and the score are laid
            room = h - (prompt_h + 12) - 66 - (score_h + 6) - (tray_h + 6) - 8
            # the options keep three fifths of that room (they scroll), the log the rest
            list_h = max(self.LIST_MIN_H, min(list_h, int(room * 0.6), room - self.LOG_MIN_H))
            score_h = min(score_h, max(0, h - (prompt_h + 12) - 66 - 6 - (tray_h + 6) - 8 - list_h - self.LOG_MIN_H))
        self._score_h = score_h
        self.options.set_rect(pygame.Rect(x, prompt_h + 8, pw - 16, list_h))
        y = prompt_h + 12 + list_h
        self.buttons_panel.ui = self.ui
        self.buttons_panel.layout(pygame.Rect(x, y, pw - 16, 60))
        y += 32
        y += 34
        self._show_toggles()
        self.score_panel.layout(pygame.Rect(x, y, pw - 16, score_h))
        if score_h:
            y += score_h + 6
        self.tray.set_rect(pygame.Rect(x, y, pw - 16, tray_h))
        self.log.set_rect(pygame.Rect(x, y + tray_h + 6, pw - 16, h - (y + tray_h + 6) - 8))
        self._listed: list[int] = []
        self._last_prompt = None

    def _relayout(self) -> None:
        """The panel's column laid out again (the score shown or hidden, or grown): not while a
        dialog is open (laying out clears the screen's widgets), but as soon as it closes."""
        if any(d is not None and d.alive() for d in (self.dialogs.file_dialog, self.dialogs.leave_dialog)):
            self._relayout_due = True
            return
        self._relayout_due = False
        self._layout()
        self._last_prompt = None
        self.refresh()

    def resize(self, size) -> None:
        super().resize(size)
        self._layout()
        self._fit_camera()
        self._last_prompt = None
        self.refresh()

    def _fit_camera(self) -> None:
        """The whole table in view; while the forces deploy, below the tray of models to place."""
        band = 0
        if self.session.view().get("deployment") is not None:
            band = self.deploy_tray.rect.h + 6
        w, h = self.table_rect.size
        self.cam = self.renderer.fit_camera((w, max(50, h - band)), margin_px=30)
        self.cam.viewport = pygame.Rect((0, 0), (w, h))
        self.cam.oy += band / self.cam.scale
        self._fitted_for_deploy = bool(band)

    # --- the model: views, decision, controller ------------------------------------------
    def _side_names(self) -> dict[int, str]:
        return side_names(self.session.game.view(None), self.session.seats, self._player_names)

    def _side_titles(self) -> dict[int, str]:
        """Each side's title (its number, roster and who plays it): the score panel's."""
        return {p: side_title(self.session.game, p, self.session.seats, self._player_names) for p in (1, 2)}

    @property
    def _player_names(self) -> dict[int, str]:
        """The names the players gave (a network game: ``RemoteSession.names``), else none."""
        return dict(getattr(self.session, "names", None) or {})

    def _take_names(self) -> None:
        """A network game's players' names, as they come (a player joins later than the other):
        they stand for "Player N" in the header, the hover cards, the log, the dice tray, the
        hand's banners and the prompt."""
        names = self._player_names
        if names == getattr(self, "_names_shown", None):
            return
        self._names_shown = names
        self.names = self._side_names()
        self.score_panel.set_titles(self._side_titles())
        self.log.set_names(names)
        self.tray.names = self.hand.names = names
        self._last_prompt = None

    def caption(self) -> str:
        """"Skirmish — Counterblast on Kessler Station", and on a network seat "— seat 2 (Alice)":
        two windows of one game say which is which."""
        g = self.session.game
        words = f"Skirmish — {g.rules.name} on {self.mapfile.name}"
        if self.session.remote:
            name = self._player_names.get(self.viewer) or getattr(self.session, "name", "")
            words += f" — seat {self.viewer}" + (f" ({name})" if name else "")
        return words

    def refresh(self, rebuild_log: bool = False) -> None:
        """Re-read the view and the decision after any change."""
        s = self.session
        self.viewer = s.viewer()
        self.view = s.view()
        self.pieces = self.view.get("pieces", [])
        self.decision = s.pending()
        self.scoreboard = s.scoreboard()
        self._take_names()
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
            else:
                # a group's members act in turn: the next one is selected once one has acted
                self.ctrl.selected = self.ctrl.next_member(self._actors_before.get(self.decision.player, frozenset()),
                                                           self._last_selected)
            self._actors_before[self.decision.player] = frozenset(actors)
        self._deploy_refresh()
        if getattr(self, "_fitted_for_deploy", False) and not self.deploy_tray.active:
            self._fit_camera()      # the tray is gone: the table takes its band back
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
        # a hint of a decision no longer this window's to answer goes at once (the pass screen may
        # come next): never kept behind it for the other player's eyes
        self.hint.update(s, self.decision, self.ctrl is not None, self.pieces, self._busy())
        self._show_toggles()
        self._fill_options()
        self._show_panels()

    # --- messages -------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        self.message = (named(text, self._player_names), self.t + 5.0)     # (the log names its lines itself)
        self.log.add(("refused: " if error else "") + text, "error" if error else "info")

    # --- the frame ------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        self.t += dt
        s = self.session
        self.take_remote()                # a network game's news (a local game has none)
        if self._check_flow():            # before any frame that could show another's hand
            return
        if self._seen_version != s.version:
            self.refresh()
        if self._relayout_due:
            self._relayout()
        for k, (route, t0, dur) in list(self.anim.items()):
            if self.t - t0 >= dur:
                del self.anim[k]
        self._ai_step()
        if self.hint.update(s, self.decision, self.ctrl is not None, self.pieces, self._busy()):
            self._last_prompt = None
            self._fill_options()           # the hint's row starred, or no longer

    def ask_hint(self) -> None:
        """G or the Hint button: ask (or cancel, or hide) the hint for this window's decision."""
        words = self.hint.press(self.session, self.decision, self.ctrl is not None)
        if words:
            self.message = (words, self.t + 3.0)
        self._last_prompt = None
        self._fill_options()

    def draw(self, screen) -> None:
        if self.session.pass_due() is not None:   # never a frame of the wrong player's table
            screen.fill((20, 16, 13))
            return
        self._show_toggles()
        tsurf = screen.subsurface(self.table_rect)
        self.renderer.set_avoid((p["x"], p["y"], p["radius"]) for p in self.pieces if not p["out"])
        self.renderer.draw(tsurf, self.cam, now=self.t)
        self._draw_table_overlays(tsurf)
        self._draw_deploy(tsurf)
        self.deploy_tray.draw(screen, self.names)
        bar = self.renderer.scale_bar_rect
        self.hand.draw(screen, self.table_rect, self.t,
                       avoid=bar.move(self.table_rect.topleft) if bar is not None else None)
        if self.ctrl is not None:
            self.hint.draw_cards(screen, self.hand.rects)
        self._draw_bar(screen)
        self._draw_panel(screen)
        self.hint.draw_box(screen, self.table_rect, self.deploy_tray.rect.bottom + 4 if self.deploy_tray.active
                           else self.table_rect.y + 8)
        if self.options.hover is not None and self.ctrl is not None and self.reference is None:
            self._draw_option_card(screen, self.options.hover)
        self.score_panel.draw_hover(screen)
        if self.show_help and not self.help_on_top:
            self._draw_help(screen)
        if self.reference is not None:
            self.reference.draw(screen, self.table_rect)
        if self.show_help and self.help_on_top:
            self._draw_help(screen)
        if self.message and self.t < self.message[1]:
            self.toast_rect = self._draw_toast(screen, self.message[0])

    def _draw_toast(self, screen, text: str) -> pygame.Rect:
        """The message at the table's foot, fitted to the table's width, clear of the scale bar."""
        lab = toast(text, 17, self.table_rect.w - 40)
        r = lab.get_rect(midbottom=(self.table_rect.centerx, self.table_rect.bottom - 10))
        r = clear_of(r, scale_bar_on_screen(self.renderer, self.table_rect))
        screen.blit(lab, r)
        return r

    def close(self) -> None:
        self._stop_ai()
        self.hint.close()
        if self.session.remote:           # a network seat left (a load, the launcher, the window closed)
            self.session.close()
