"""The game screen's frame: its layout (the panel on the right scales with the window; the table
takes the rest), the camera fitted to the table, and what is drawn: the table with its overlays,
the turn bar (title, tracks or the sides' words), the side panel's background with the options,
tray and log, the "is thinking" label, the option card on hover, the help box and the messages.
Text surfaces are made once per content (``memo``).

An owned part of the game screen (``game/scenes/play.py``), whose ``draw`` calls ``draw``.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from game.play.keys import HELP
from game.play.layout import BAR_H
from game.render.text import elide, font, plate
from game.ui.status import setup_words, status_line
from game.ui.toasts import clear_of, scale_bar_on_screen, toast

if TYPE_CHECKING:
    from game.play.ai_turns import AITurns
    from game.play.options import OptionsPart
    from game.play.routing import PlayPanels


def net_banner(session, viewer: int) -> str | None:
    """A network game's standing line while play cannot go on: this window's connection is down,
    or the other player is away (issue 50: "the other player sees 'waiting for player 2'").
    None in a local game or when everyone is there."""
    if not getattr(session, "remote", False):
        return None
    if not session.up:
        return "connection to the server lost: connecting again"
    away = sorted(p for p, on in session.connected.items() if not on and p != viewer)
    if away:       # "to join" for a seat never at the table yet, "to come back" for one that dropped
        return "; ".join(session.waiting_words(p) for p in away) + " (the game is kept on the host)"
    return None


@dataclass(eq=False)          # a part of the game screen: one each, known by identity
class Frame:
    """The layout and the drawing. Given the state, the screen's pygame_gui manager, the panels
    (laid out here), the options part (the odds on the option card), the AI's turns (the
    "thinking" label), the screen's ``refresh`` and the window's size (a callable)."""

    # the log keeps at least this much of the column when the score panel takes its room, and the
    # options list (it scrolls) at least that
    LOG_MIN_H = 30
    LIST_MIN_H = 100

    state: Any                   # the PlayState (Any: its made-once fields are typed object)
    ui: pygame_gui.UIManager
    panels: PlayPanels
    options: OptionsPart
    ai: AITurns
    refresh: Callable
    size: Callable[[], tuple[int, int]]

    # --- layout -----------------------------------------------------------------------------
    def layout(self) -> None:
        """The panel on the right scales with the window (300 px at 1024x600, 380 at 1280x720
        and up to 460 on large screens); the table takes the rest. Down the panel: the prompt,
        the options, the buttons, the score (when shown: it takes its room from the log, then
        from the options down to 100 px), the dice tray and the log."""
        st, panels = self.state, self.panels
        w, h = self.size()
        pw = st.panel_w = max(300, min(460, round(w * 0.297)))
        st.table_rect = pygame.Rect(0, BAR_H, w - pw, h - BAR_H)
        st.deploy_tray.layout(st.table_rect)
        st.panel_rect = pygame.Rect(w - pw, 0, pw, h)
        # clearing closes the other player's undo question: forgotten first (its closing is no
        # refusal), it is asked again on the next frame (``Commands.ask_undo``)
        panels.dialogs.undo_dialog = None
        self.ui.clear_and_reset()
        x = st.panel_rect.x + 8
        prompt_h = 98 if h >= 700 else 90     # three lines of words on a small screen
        st.prompt = pygame_gui.elements.UITextBox("", pygame.Rect(x, 6, pw - 16, prompt_h), self.ui,
                                                  object_id="#prompt")
        tray_h = 150 if h >= 800 else (128 if h >= 700 else 104)
        list_h = max(120, int(h * 0.32))
        panels.score.small = h < 700
        score_h = st.score_want = panels.score.height_for(pw - 16)
        if score_h:
            # the room the options and the log share once the fixed parts and the score are laid
            room = h - (prompt_h + 12) - 66 - (score_h + 6) - (tray_h + 6) - 8
            # the options keep three fifths of that room (they scroll), the log the rest
            list_h = max(self.LIST_MIN_H, min(list_h, int(room * 0.6), room - self.LOG_MIN_H))
            score_h = min(score_h, max(0, h - (prompt_h + 12) - 66 - 6 - (tray_h + 6) - 8 - list_h - self.LOG_MIN_H))
        st.score_h = score_h
        st.options.set_rect(pygame.Rect(x, prompt_h + 8, pw - 16, list_h))
        y = prompt_h + 12 + list_h
        panels.buttons.ui = self.ui
        panels.buttons.layout(pygame.Rect(x, y, pw - 16, 60))
        y += 32
        y += 34
        panels.buttons.press_toggles(st.toggles)
        panels.score.layout(pygame.Rect(x, y, pw - 16, score_h))
        if score_h:
            y += score_h + 6
        st.tray.set_rect(pygame.Rect(x, y, pw - 16, tray_h))
        st.log.set_rect(pygame.Rect(x, y + tray_h + 6, pw - 16, h - (y + tray_h + 6) - 8))
        self.options.relaid()

    def relayout(self) -> None:
        """The panel's column laid out again (the score shown or hidden, or grown): not while a
        dialog is open (laying out clears the screen's widgets), but as soon as it closes."""
        st, dlg = self.state, self.panels.dialogs
        if any(d is not None and d.alive() for d in (dlg.file_dialog, dlg.leave_dialog)):
            st.relayout_due = True
            return
        st.relayout_due = False
        self.layout()
        self.options.stale()
        self.refresh()

    def relayout_for(self, what) -> None:
        """The "layout" command: the score panel shown or hidden (S), said at the table's foot."""
        st = self.state
        if what == "score":
            st.note(f"score {'shown' if self.panels.score.open else 'hidden'} (S)" if st.scoreboard is not None
                    else "this game keeps no score to show (S)")
        self.relayout()

    def follow_score(self) -> None:
        """The score's room follows its content: laid out again when it needs more, or much less."""
        st = self.state
        want = self.panels.score.height_for(st.panel_w - 16)
        if want > st.score_want or want < st.score_want - 30:
            st.relayout_due = True

    def fit_camera(self) -> None:
        """The whole table in view; while the forces deploy, below the tray of models to place."""
        st = self.state
        band = 0
        if st.session.view().get("deployment") is not None:
            band = st.deploy_tray.rect.h + 6
        w, h = st.table_rect.size
        st.cam = st.renderer.fit_camera((w, max(50, h - band)), margin_px=30)
        st.cam.viewport = pygame.Rect((0, 0), (w, h))
        st.cam.oy += band / st.cam.scale
        st.fitted_for_deploy = bool(band)

    def fit(self) -> None:
        """F or Home: the whole table in view."""
        self.state.cam = self.state.renderer.fit_camera(self.state.table_rect.size, margin_px=30)

    # --- drawing ----------------------------------------------------------------------------
    def draw(self, screen, overlays, deploying) -> None:
        st = self.state
        self.panels.buttons.press_toggles(st.toggles)
        tsurf = screen.subsurface(st.table_rect)
        st.renderer.set_avoid((p["x"], p["y"], p["radius"]) for p in st.pieces if not p["out"])
        st.renderer.draw(tsurf, st.cam, now=st.t)
        overlays.draw(tsurf)
        deploying.draw(tsurf)
        st.deploy_tray.draw(screen, st.names)
        bar = st.renderer.scale_bar_rect
        st.hand.draw(screen, st.table_rect, st.t, avoid=bar.move(st.table_rect.topleft) if bar is not None else None)
        if st.ctrl is not None:
            st.hint.draw_cards(screen, st.hand.rects)
        self.draw_bar(screen)
        self.draw_panel(screen)
        st.hint.draw_box(screen, st.table_rect, st.deploy_tray.rect.bottom + 4 if st.deploy_tray.active
                         else st.table_rect.y + 8)
        sheets = self.panels.sheets
        if st.options.hover is not None and st.ctrl is not None and sheets.reference is None:
            self.draw_option_card(screen, st.options.hover)
        self.panels.score.draw_hover(screen)
        if sheets.show_help and not sheets.help_on_top:
            self.draw_help(screen)
        if sheets.reference is not None:
            sheets.reference.draw(screen, st.table_rect)
        if sheets.show_help and sheets.help_on_top:
            self.draw_help(screen)
        if st.message and st.t < st.message[1]:
            st.toast_rect = self.draw_toast(screen, st.message[0])

    def draw_toast(self, screen, text: str) -> pygame.Rect:
        """The message at the table's foot, fitted to the table's width, clear of the scale bar."""
        r0 = self.state.table_rect
        lab = toast(text, 17, r0.w - 40)
        r = lab.get_rect(midbottom=(r0.centerx, r0.bottom - 10))
        r = clear_of(r, scale_bar_on_screen(self.state.renderer, r0))
        screen.blit(lab, r)
        return r

    def memo(self, key, make):
        """Surfaces made from text (the bar, the panel) are drawn once per content."""
        memo = self.state.memo
        if key not in memo:
            if len(memo) > 64:
                memo.clear()
            memo[key] = make()
        return memo[key]

    def draw_option_card(self, screen, index: int) -> None:
        """The option under the mouse: what it does, what it costs, its odds, the rule's source."""
        from game.ui.help_panels import option_card
        d = self.state.decision
        if d is None or not 0 <= index < len(d.options):
            return
        card = option_card(self.state.session.game.setup.ruleset, self.options.with_odds(index, d.labels[index]), d.options[index])
        r = self.state.options.rect_of_row(index) if hasattr(self.state.options, "rect_of_row") else None
        y = r.y if r is not None else self.state.options.rect.y
        y = max(4, min(y, screen.get_height() - card.get_height() - 4))
        screen.blit(card, (self.state.panel_rect.x - card.get_width() - 6, y))

    def setup_words(self) -> str:
        """The header's first words: the ruleset, the map, the mission (the scoreboard's, else the
        one the options name) and the house rules that are not the ruleset's defaults."""
        g = self.state.session.game
        rules_cls = type(g.rules)
        board = self.state.scoreboard
        mission = board.mission if board is not None else None
        if mission is None and g.setup.options.get("mission"):
            m = rules_cls.missions().get(g.setup.options["mission"])
            mission = m.name if m is not None else str(g.setup.options["mission"])
        model = rules_cls.options_model()
        defaults = {k: f.default for k, f in model.model_fields.items()} if model is not None else None
        return setup_words(g.rules.name, g.setup.map.name, mission, g.setup.options, defaults)

    def draw_bar(self, screen) -> None:
        bar = pygame.Rect(0, 0, self.state.table_rect.w, BAR_H)
        top, sides = status_line(self.state.view, self.state.names)
        if self.state.header is None:
            self.state.header = self.setup_words()
        title = (self.state.header, top)
        track_key = repr(self.state.presenter.track_key(self.state.view))
        screen.blit(self.memo(("bar", bar.size, title, sides, track_key),
                               lambda: self.bar_image(bar, title, sides, self.state.view, self.state.names)), bar)

    @staticmethod
    def bar_title(setup: str, top: str, width: int):
        """The header's line and its font: the set-up's words, then the turn and phase, at 18 px,
        else 15; where even that is too wide, the set-up's words are cut with "…" (the turn and
        phase are kept whole)."""
        whole = f"{setup}   |   {top}"
        for f in (font(18), font(15)):
            if f.size(whole)[0] <= width:
                return whole, f
        f = font(15)
        tail = f"   |   {top}"
        return elide(setup, f, max(40, width - f.size(tail)[0])) + tail, f

    @classmethod
    def bar_image(cls, bar, title: tuple[str, str], sides, view, names) -> pygame.Surface:
        from game.ui.tracks import draw_tracks
        img = pygame.Surface(bar.size)
        img.fill((34, 28, 22))
        pygame.draw.line(img, (120, 100, 70), (0, bar.h - 1), (bar.w, bar.h - 1))
        words, f = cls.bar_title(*title, bar.w - 16)
        t = f.render(words, True, (240, 232, 214))
        img.blit(t, (8, 3))
        row = pygame.Rect(8, 5 + t.get_height(), bar.w - 16, bar.h - t.get_height() - 7)
        if not draw_tracks(img, row, view, names):      # a ruleset with no tracks drawn: its words
            s = font(15).render(sides, True, (250, 220, 130))
            img.blit(s, row.topleft)
        return img

    def draw_panel(self, screen) -> None:
        key = ("panel", self.state.panel_rect.size)
        screen.blit(self.memo(key, self.panel_image), self.state.panel_rect)
        self.state.options.draw(screen)
        self.panels.score.draw(screen)
        self.state.tray.draw(screen, self.state.t)
        self.state.log.draw(screen)
        self.state.thinking_rect = None          # where "AI … thinking" was drawn (None: not drawn)
        if self.state.worker is not None:
            lab = plate(self.ai.thinking_text(), 16)
            # the table's top left corner, or under the deployment tray while it shows (it was
            # drawn over the tray's words, issue 58)
            top = self.state.deploy_tray.rect.bottom + 4 if self.state.deploy_tray.active else self.state.table_rect.y + 8
            self.state.thinking_rect = screen.blit(lab, (self.state.table_rect.x + 10, top))
        banner = net_banner(self.state.session, self.state.viewer)
        if banner:      # stays while it is true, unlike a message that fades; above the scale bar
            lab = plate(banner, 18, fg=(255, 214, 120), bg=(40, 22, 12, 225), pad=(10, 5), bold=True)
            screen.blit(lab, lab.get_rect(midbottom=(self.state.table_rect.centerx, self.state.table_rect.bottom - 44)))

    def panel_image(self) -> pygame.Surface:
        img = pygame.Surface(self.state.panel_rect.size)
        img.fill((30, 25, 20))
        pygame.draw.line(img, (120, 100, 70), (0, 0), (0, self.state.panel_rect.h), 2)
        return img

    def draw_help(self, screen) -> None:
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
        screen.blit(box, box.get_rect(center=self.state.table_rect.center))
