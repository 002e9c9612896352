"""The game screen's panels in their router, and the one place what they ask is done (``apply``, ``command``)."""
from __future__ import annotations

from game.kit import TAKEN, Click, Command, Hover, PickCards, PickDice, PickOption, Router, Say, Submit, Toggle, Undo
from game.play.panels import (ButtonsPanel, DeployPanel, DialogsPanel, DiceTrayPanel, HandPanel, KeysPanel,
                              LogViewPanel, OptionsListPanel, SheetsPanel, Shown, TablePanel)
from game.play.score_panel import ScorePanel
from game.play.tools import TableFrame, TableTools


class RoutingMixin:
    """A part of ``PlayScene`` (``game/scenes/play.py``): the events go through the panels (``handle``);
    what they ask is done in one place (``apply``, ``command``)."""

    def _panels(self) -> None:
        """The screen's panels, bottom first (the router asks the top first): the table and its
        tools, the log, the keys, the score, the buttons, the options, the sheets, the hand, the
        dice tray, the deployment tray, the dialogs."""
        at = lambda: self.mouse                                            # noqa: E731
        frame = TableFrame(lambda: self.cam, lambda: self.table_rect, lambda: self.pieces)
        self.tools = TableTools(frame)
        self.table_panel = TablePanel(self.tools, lambda: self.table_rect, at)
        self.buttons_panel = ButtonsPanel(self.ui, at)
        self.sheets = SheetsPanel(at)
        self.deploy_panel = DeployPanel(self.deploy_tray, at)
        self.dialogs = DialogsPanel(at)
        self.score_panel = ScorePanel(self._side_titles(), at)
        self.router = Router([self.table_panel, LogViewPanel(self.log, at), KeysPanel(at), self.score_panel,
                              self.buttons_panel,
                              OptionsListPanel(self.options, at), self.sheets,
                              HandPanel(self.hand, lambda: self.table_rect, at), DiceTrayPanel(self.tray, at),
                              self.deploy_panel, self.dialogs])

    def _show_panels(self) -> None:
        shown = Shown(self.view, self.decision, self.ctrl is not None, self.scoreboard)
        for p in self.router.panels:
            p.show(shown)
        # the score's room follows its content: laid out again when it needs more, or much less
        want = self.score_panel.height_for(self.panel_w - 16)
        if want > self._score_want or want < self._score_want - 30:
            self._relayout_due = True
        self.tools.select.show(self.ctrl, self.decision.player if self.decision else None, self._why_not)

    def handle(self, ev) -> None:
        got = self.router.route(ev)
        if got is not None and got is not TAKEN:
            self.apply(got)

    def apply(self, intent) -> None:
        """Do what a panel or a tool asked, through the controller and the session."""
        if isinstance(intent, tuple):                 # a tool's intents, in order
            for one in intent:
                self.apply(one)
        elif isinstance(intent, Hover):
            self.mouse = intent.pos
        elif isinstance(intent, Click):
            self.click(intent.pos)
        elif isinstance(intent, Submit):
            if self.ctrl is not None:
                self.submit(self._with_facing(intent.choice))
        elif isinstance(intent, PickOption):
            if self.ctrl:
                out = self.ctrl.pick(intent.index)
                if out.choice is not None:
                    self.submit(out.choice)
        elif isinstance(intent, PickCards):
            if self.ctrl is not None and intent.spend:
                self._spend_picked(intent.cards)
            elif self.ctrl is not None:
                self._refuse_pair(*intent.cards)
        elif isinstance(intent, PickDice):
            self._picked_keep()
        elif isinstance(intent, Say):
            self.say(intent.text, error=intent.warn)
        elif isinstance(intent, Undo):
            self.undo()
        elif isinstance(intent, Toggle):
            self.toggles[intent.name] = not self.toggles[intent.name]
            self.message = (f"{intent.name} view {'on' if self.toggles[intent.name] else 'off'}", self.t + 2.5)
            self._show_toggles()                                           # (not the log)
        elif isinstance(intent, Command):
            self.command(intent.name, intent.arg)

    def command(self, key: str, arg=None) -> None:
        """A named command of the screen (a button's, a key's, a panel's)."""
        if key == "undo":
            return self.undo()
        if key == "undo reply":
            return self.reply_undo(bool(arg))
        if key in self.toggles:
            return self.apply(Toggle(key))
        simple = {"save": self.save, "load": self.open_load, "help": self.sheets.toggle_help,
                  "menu": self.confirm_leave, "leave": self.leave, "glossary": lambda: self.open_reference("glossary"),
                  "legend": lambda: self.open_reference("legend"), "hint": self.ask_hint,
                  "fit": lambda: setattr(self, "cam", self.renderer.fit_camera(self.table_rect.size, margin_px=30)),
                  "escape": self._escape, "animations": lambda: self.set_animations(not self.tray.animate),
                  "sound": lambda: self.set_sound(not self.sound), "prone": self._toggle_prone,
                  "next model": self._next_model, "deploy rest": self._deploy_rest, "deploy refresh": self._deploy_refresh}
        if key in simple:
            simple[key]()
        elif key == "options":                          # the selection changed: prompt and list follow
            self._last_prompt = None
            if arg:
                self._fill_options()
        elif key == "layout":                           # the score panel shown or hidden (S)
            if arg == "score":
                sp = self.score_panel
                self.message = ((f"score {'shown' if sp.open else 'hidden'} (S)" if self.scoreboard is not None
                                 else "this game keeps no score to show (S)"), self.t + 2.5)
            self._relayout()
        elif key == "load path":
            self._load(arg)
        elif key == "history" and self.ai_enabled:
            self.open_history()
        elif key == "speed":
            self.speed = min(8.0, max(0.25, self.speed * arg))
            self.say(f"AI speed x{self.speed:.1f}")
        elif key == "hotkey" and self.ctrl:
            out = self.ctrl.hotkey(arg)
            if out.choice is not None:
                self.submit(out.choice)
        elif key == "show dice":
            self.tray.show_again("", arg, self.t)
        elif key.startswith("deploy "):
            self._deploy_command(key, arg)
