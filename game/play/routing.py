"""The game screen's panels in their router (``PlayPanels``), and the one place what they ask is
done (``Routing``): each intent's class to its part's method, and each named command (a button's,
a key's, a panel's) to what does it, in tables built once, when the screen is made (issue 63).
"""
from __future__ import annotations

from game.kit import TAKEN, Click, Command, Hover, PickCards, PickDice, PickOption, Router, Say, Submit, Toggle, Undo
from game.play.panels import (
    ButtonsPanel,
    DeployPanel,
    DialogsPanel,
    DiceTrayPanel,
    HandPanel,
    KeysPanel,
    LogViewPanel,
    OptionsListPanel,
    SheetsPanel,
    Shown,
    TablePanel,
)
from game.play.score_panel import ScorePanel
from game.play.tools import TableFrame, TableTools


class PlayPanels:
    """The screen's panels, bottom first (the router asks the top first): the table and its tools,
    the log, the keys, the score, the buttons, the options, the sheets, the hand, the dice tray,
    the deployment tray, the dialogs. ``titles``: each side's title, for the score."""

    def __init__(self, state, titles: dict):
        s = state
        at = lambda: s.mouse                                               # noqa: E731
        self.state = s
        self.tools = TableTools(TableFrame(lambda: s.cam, lambda: s.table_rect, lambda: s.pieces))
        self.table = TablePanel(self.tools, lambda: s.table_rect, at)
        self.buttons = ButtonsPanel(None, at)
        self.sheets = SheetsPanel(at)
        self.deploy = DeployPanel(s.deploy_tray, at)
        self.dialogs = DialogsPanel(at)
        self.score = ScorePanel(titles, at)
        self.router = Router([self.table, LogViewPanel(s.log, at), KeysPanel(at), self.score, self.buttons,
                              OptionsListPanel(s.options, at), self.sheets,
                              HandPanel(s.hand, lambda: s.table_rect, at), DiceTrayPanel(s.tray, at),
                              self.deploy, self.dialogs])

    def show(self, why_not) -> None:
        """What the screen shows now, to every panel and to the select tool."""
        s = self.state
        shown = Shown(s.view, s.decision, s.ctrl is not None, s.scoreboard)
        for p in self.router.panels:
            p.show(shown)  # type: ignore[attr-defined]  # the play screen's router holds PlayPanels
        self.tools.select.show(s.ctrl, s.decision.player if s.decision else None, why_not)


class Routing:
    """The events through the panels (``handle``); what they ask done by table (``apply``,
    ``command``). Given the state, the panels and the parts that do the work."""

    def __init__(self, state, panels: PlayPanels, *, answering, picks, deploying, options, pointer, keys, commands,
                 frame):
        s = self.state = state
        self.panels = panels
        self.answering = answering
        self.pointer = pointer

        def each(intents) -> None:          # a tool's tuple of intents: each in turn
            for one in intents:
                self.apply(one)

        def hover_drop(arg) -> None:        # the model placed where the pointer is
            self.hover(Hover(arg))
            deploying.drop(arg)

        # each intent's class -> what does it
        self.INTENTS = {
            tuple: each,
            Hover: self.hover,
            Click: lambda i: self.apply(pointer.click(i.pos)),
            Submit: lambda i: s.ctrl is not None and answering.submit(deploying.with_facing(i.choice)),
            PickOption: lambda i: pointer.pick(i.index),
            PickCards: lambda i: s.ctrl is not None and (picks.spend(i.cards) if i.spend else picks.refuse_pair(*i.cards)),
            PickDice: lambda i: picks.keep(),
            Say: lambda i: s.say(i.text, error=i.warn),
            Undo: lambda i: answering.undo(),
            Toggle: self.toggle,
            Command: lambda i: self.command(i.name, i.arg),
        }
        # each named command -> what does it, given the command's argument
        self.COMMANDS = {
            "undo": lambda arg: answering.undo(),
            "undo reply": lambda arg: commands.reply_undo(bool(arg)),
            "save": lambda arg: commands.save(),
            "load": lambda arg: commands.open_load(),
            "load path": commands.load,
            "menu": lambda arg: commands.confirm_leave(),
            "leave": lambda arg: commands.leave(),
            "history": lambda arg: s.ai_enabled and commands.open_history(),
            "glossary": lambda arg: commands.open_reference("glossary"),
            "legend": lambda arg: commands.open_reference("legend"),
            "help": lambda arg: panels.sheets.toggle_help(),
            "hint": lambda arg: options.ask_hint(),
            "fit": lambda arg: frame.fit(),
            "layout": frame.relayout_for,
            "escape": lambda arg: keys.escape(),
            "prone": lambda arg: keys.toggle_prone(),
            "next model": lambda arg: keys.next_model(),
            "animations": lambda arg: commands.set_animations(not s.tray.animate),
            "sound": lambda arg: commands.set_sound(not s.sound),
            "speed": commands.set_speed,
            "hotkey": pointer.hotkey,
            "options": options.follow_selection,
            "show dice": lambda arg: s.tray.show_again("", arg, s.t),
            "deploy rest": lambda arg: deploying.rest(),
            "deploy refresh": lambda arg: deploying.refresh(),
            "deploy pick": lambda arg: (deploying.pick(arg) and options.fill(), deploying.refresh()),
            "deploy drop": hover_drop,
            "deploy turn": deploying.turn,
        }
        for name in s.toggles:
            self.COMMANDS[name] = lambda arg, name=name: self.toggle(Toggle(name))

    def handle(self, ev) -> None:
        got = self.panels.router.route(ev)
        if got is not None and got is not TAKEN:
            self.apply(got)

    def apply(self, intent) -> None:
        """Do what a panel or a tool asked, through the controller and the session."""
        do = self.INTENTS.get(type(intent))
        if do is not None:
            do(intent)

    def command(self, key: str, arg=None) -> None:
        """A named command of the screen (a button's, a key's, a panel's)."""
        do = self.COMMANDS.get(key)
        if do is not None:
            do(arg)

    def hover(self, intent: Hover) -> None:
        self.state.mouse = intent.pos

    def toggle(self, intent: Toggle) -> None:
        """R, V, T or their buttons: a shading on or off (said at the table's foot, not in the log)."""
        s = self.state
        s.toggles[intent.name] = not s.toggles[intent.name]
        s.note(f"{intent.name} view {'on' if s.toggles[intent.name] else 'off'}")
        self.panels.buttons.press_toggles(s.toggles)
