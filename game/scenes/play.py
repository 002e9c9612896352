"""The game screen: the table in play, the decision panel, the log, the AI's turns; or, driven by a
record instead of the seats, a replay (a saved game, or this game's history: H).

Everything shown comes from ``view(viewer)`` and the pending Decision; every answer goes
through the generic controller and ``GameSession.submit``. Layout: a turn bar on top, the
table on the left, the decision panel (prompt, options, buttons, dice and cards, log) on the
right.

The screen is one state (``PlayState``, ``game/play/state.py``: every field with the part that
owns it) and owned parts, each built here with what it needs (issue 63): ``answering`` (submit,
undo, the reveals and glides: ``game/play/answers.py``), ``ai`` (the AI's turns), ``deploying``,
``picks`` (dice in the tray, cards in the hand), ``options`` (the prompt and the list),
``overlays`` (what is drawn over the table), ``frame`` (the layout, the bar, the panel, the help
box), ``keys`` and ``commands`` (what the keys and buttons name), ``pointer`` (the table's
points, the selection), ``routing`` (the panels in their router; the intents and the named
commands dispatched by table), ``handover`` (the game-over and pass screens) and the player's
``hint``. The scene reads the view again (``refresh``) and runs the frame.

What drives it is its ``source`` (``game/play/source.py``): the live seats, or a recorded setup
and decisions stepped through on a timeline (``game/play/timeline.py``).
"""
from __future__ import annotations

from game.controllers import GenericController
from game.play.ai_turns import AITurns
from game.play.answers import Answering, reveal_records
from game.play.commands import Commands
from game.play.deploying import Deploying
from game.play.frame import Frame
from game.play.handover import Handover
from game.play.hint import HintPart
from game.play.keys import Keys
from game.play.options import OptionsPart, odds_text
from game.play.panels import Shown
from game.play.picks import Picks
from game.play.pointer import Pointer
from game.play.routing import PlayPanels, Routing
from game.play.source import LiveSource
from game.play.state import PlayState
from game.play.table_overlays import Overlays
from game.presenters import presenter_for
from game.render.table_view import TableRenderer
from game.session import GameSession
from game.ui.card_hand import CardHand
from game.ui.deploy_tray import DeployTray
from game.ui.dice_tray import DiceTray
from game.ui.effects import TableEffects
from game.ui.log_panel import LogPanel
from game.ui.options_panel import OptionsPanel

from .base import Scene

__all__ = ["PlayScene", "odds_text"]     # odds_text: the options' words, still named here


class PlayScene(Scene):
    """The game screen: its state, its parts and the frame (see the module's doc)."""

    def __init__(self, app, session: GameSession, map_name: str = "", source=None):
        super().__init__(app)
        import pygame

        from game.play.layout import PANEL_W
        from game.settings import Settings
        source = source or LiveSource(session)
        st = Settings.load()
        box = pygame.Rect(0, 0, PANEL_W - 16, 200)
        self.state = s = PlayState(
            session=session, source=source, renderer=TableRenderer(session.game.setup.map),
            presenter=presenter_for(session.game.setup.ruleset), tray=DiceTray(pygame.Rect(0, 0, PANEL_W - 16, 130)),
            hand=CardHand(), deploy_tray=DeployTray(), log=LogPanel(box), options=OptionsPanel(box.copy()),
            effects=TableEffects(), hint=HintPart(), map_name=map_name or session.game.setup.map.id,
            unit=session.game.rules.unit, ai_enabled=source.answers, speed=getattr(app, "ai_speed", 1.0),
            sound=st.sound, scoreboard=session.scoreboard())
        s.tray.animate = st.animations
        s.names = source.side_names()
        # the parts, each given what it needs (the later ones the earlier)
        self.panels = PlayPanels(s, source.side_titles())
        self.handover = Handover(s, source, self.go_to, lambda: app.scene is self)
        self.commands = Commands(s, self.ui, self.panels, self.go_to)
        self.answering = Answering(s, self.refresh, self.handover)
        self.ai = AITurns(s, self.answering, lambda: app.scene is self)
        self.picks = Picks(s, self.answering)
        self.deploying = Deploying(s, self.answering, self.panels.tools)
        self.options = OptionsPart(s, self.deploying, self.picks)
        self.pointer = Pointer(s, self.answering, self.options, self.panels.tools)
        self.keys = Keys(s, self.options, self.pointer, self.panels)
        self.frame = Frame(s, self.ui, self.panels, self.options, self.ai, self.refresh, lambda: app.size)
        self.overlays = Overlays(s, self.answering, self.ai, self.panels, lambda: app.screen)
        self.routing = Routing(s, self.panels, answering=self.answering, picks=self.picks, deploying=self.deploying,
                               options=self.options, pointer=self.pointer, keys=self.keys, commands=self.commands,
                               frame=self.frame)
        self.timeline = source.timeline(s, self.answering, self.refresh, self.go_to)
        self.panels.score.show(Shown(scoreboard=s.scoreboard))
        self.frame.layout()
        self.frame.fit_camera()
        self.refresh(rebuild_log=True)
        if self.timeline is not None:
            self.timeline.start()

    # --- the model: views, decision, controller ------------------------------------------
    def refresh(self, rebuild_log: bool = False) -> None:
        """Re-read the view and the decision after any change."""
        st, s = self.state, self.state.session
        st.viewer = s.viewer()
        st.view = s.view()
        st.pieces = st.view.get("pieces", [])
        st.decision = d = s.pending()
        st.scoreboard = s.scoreboard()
        self._take_names()
        # a decision is answered here only by the player whose eyes the screen shows
        human_turn = d is not None and s.is_human(d.player) and d.player == st.viewer
        self.pointer.remember(st.ctrl.selected if st.ctrl else None)
        st.ctrl = ctrl = GenericController(d, st.pieces) if human_turn else None
        if ctrl:
            ctrl.prone = st.prone_moves
        self.pointer.reselect(ctrl, d)
        self.deploying.refresh()
        if st.fitted_for_deploy and not st.deploy_tray.active:
            self.frame.fit_camera()      # the tray is gone: the table takes its band back
        if rebuild_log or st.shown_player != st.viewer:
            st.log.clear()
            st.tray.clear()
            for e in s.game.log:
                if e.visible(st.viewer):
                    st.log.add(e.text, e.kind, e.data.get("rolls"), private=e.visible_to is not None)
            shown = [e for e in s.game.log[-60:] if e.visible(st.viewer)
                     and (e.data.get("rolls") or (e.kind == "reveal" and isinstance(e.data.get("cards"), dict)))]
            for e in shown[-st.tray.keep:]:
                st.tray.add(e.text, e.data.get("rolls") or reveal_records(e, st.viewer), st.t, animate=False)
            st.shown_player = st.viewer
        st.seen_version = s.version
        # a hint of a decision no longer this window's to answer goes at once (the pass screen may
        # come next): never kept behind it for the other player's eyes
        st.hint.update(s, d, ctrl is not None, st.pieces, self.ai.busy())
        self.panels.buttons.press_toggles(st.toggles)
        self.options.fill()
        self.panels.show(self.pointer.why_not)
        self.frame.follow_score()          # its room follows its content

    def _take_names(self) -> None:
        """A network game's players' names, as they come (a player joins later than the other):
        they stand for "Player N" in the header, the hover cards, the log, the dice tray, the
        hand's banners and the prompt."""
        st = self.state
        names = st.source.player_names()
        if names == st.names_shown:
            return
        st.names_shown = names
        st.names = st.source.side_names()
        self.panels.score.set_titles(st.source.side_titles())
        st.log.set_names(names)
        st.tray.names = st.hand.names = names
        self.options.stale()

    def caption(self) -> str:
        """"Skirmish — Counterblast on Kessler Station", and on a network seat "— seat 2 (Alice)":
        two windows of one game say which is which."""
        s = self.state.session
        words = f"Skirmish — {s.game.rules.name} on {s.game.setup.map.name}"
        if s.remote:
            name = self.state.source.player_names().get(self.state.viewer) or getattr(s, "name", "")
            words += f" — seat {self.state.viewer}" + (f" ({name})" if name else "")
        return words

    # --- the frame ------------------------------------------------------------------------
    def handle(self, ev) -> None:
        if self.timeline is None or not self.timeline.handle(ev):
            self.routing.handle(ev)

    def resize(self, size) -> None:
        super().resize(size)
        self.frame.layout()
        self.frame.fit_camera()
        self.options.stale()
        self.refresh()

    def update(self, dt: float) -> None:
        st = self.state
        st.t += dt
        self.answering.take_remote()      # a network game's news (a local game has none)
        self.commands.ask_undo()
        if self.handover.check():         # before any frame that could show another's hand
            return
        if st.seen_version != st.session.version:
            self.refresh()
        if st.relayout_due:
            self.frame.relayout()
        self.answering.settle_glides()
        self.ai.step()
        st.hint.get_ready(st.session, st.source.answers, self.ai.busy())   # its process before the first G
        if st.hint.update(st.session, st.decision, st.ctrl is not None, st.pieces, self.ai.busy()):
            self.options.stale()
            self.options.fill()           # the hint's row starred, or no longer

    def draw(self, screen) -> None:
        if self.state.session.pass_due() is not None:   # never a frame of the wrong player's table
            screen.fill((20, 16, 13))
            return
        self.frame.draw(screen, self.overlays, self.deploying)
        if self.timeline is not None:
            self.timeline.draw(screen)

    def close(self) -> None:
        self.ai.stop()
        self.state.hint.close()
        if self.state.session.remote:     # a network seat left (a load, the launcher, the window closed)
            self.state.session.close()
