"""The game screen's panels (``game.kit.Panel``): each part of the screen owns its rect, its input
and its widget, and says what it wants done as an intent (``game.kit.intents``) that
``Routing.apply`` (``game/play/routing.py``) carries out through the session. A panel reads what it is shown (the view,
the decision, whether the viewer answers now: ``show``) and the events, never the session.

The router asks them top first, in the order of ``PlayPanels`` (``game/play/routing.py``): the dialogs, the
deployment tray, the dice tray, the card hand, the reference sheets, the options list, the
button row, the score (``game/play/score_panel.py``), the keys, the log, and last the table
(which hands the pointer to its tools, ``game/play/tools.py``).
"""
from __future__ import annotations

import pygame
import pygame_gui

from game.kit import TAKEN, Click, Command, Hover, Panel, PickDice, PickOption, Toggle, Undo
from game.kit.panel import POINTER_EVENTS

MOUSE = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION, pygame.MOUSEWHEEL)


class Shown:
    """What the screen shows now, handed to every panel after each refresh: the view, the pending
    decision, whether the viewer answers it here (a controller exists), and the ruleset's
    scoreboard (``Rules.scoreboard``: public by its contract, the same for every player; None
    where the ruleset keeps no score)."""

    def __init__(self, view=None, decision=None, answering: bool = False, scoreboard=None):
        self.view = view or {}
        self.decision = decision
        self.answering = answering
        self.scoreboard = scoreboard

    @property
    def deploying(self) -> bool:
        return self.answering and self.decision is not None and self.decision.kind == "deploy"


class PlayPanel(Panel):
    """A panel of the game screen: ``show`` gives it what is on the screen; ``pointer`` is where
    the screen last saw the mouse (a callable: a wheel event has no position of its own)."""

    def __init__(self, pointer=lambda: (0, 0)):
        super().__init__()
        self.pointer = pointer
        self.shown = Shown()

    def show(self, shown: Shown) -> None:
        self.shown = shown


class DialogsPanel(PlayPanel):
    """The file dialog (load), the leave question and (a network game) the other player's undo
    question: Esc closes them, the picked path loads, the confirmed question leaves; the undo
    question is answered by its events (Allow's confirmation: yes; its closing without one, or
    Esc: no); an open file dialog takes every other event."""

    def __init__(self, pointer=lambda: (0, 0)):
        super().__init__(pointer)
        self.file_dialog = None
        self.loading_from = None                   # the load dialog opened last, until its path comes
        self.leave_dialog = None
        self.undo_dialog = None                    # a network game: the other player asks to undo

    def sees(self, ev, pointer) -> bool:
        return True

    def handle(self, ev):
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            if self.undo_dialog is not None and self.undo_dialog.alive():
                return Command("undo reply", False)           # Esc says no to the other player
            for name in ("file_dialog", "leave_dialog"):      # Esc closes an open dialog first
                dialog = getattr(self, name)
                if dialog is not None and dialog.alive():
                    dialog.kill()
                    setattr(self, name, None)
                    return TAKEN
        if ev.type in (pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED, pygame_gui.UI_WINDOW_CLOSE) \
                and self.undo_dialog is not None and ev.ui_element is self.undo_dialog:
            # pygame_gui posts Allow's confirmation, then the window's closing: the first one that
            # comes answers (the other no longer matches). A closing with no confirmation before
            # it is Cancel or the close button: a refusal.
            self.undo_dialog = None
            return Command("undo reply", ev.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED)
        if ev.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and ev.ui_element is self.loading_from:
            # pygame_gui posts the path as it closes the dialog: it comes after the dialog is gone
            self.file_dialog = self.loading_from = None
            return Command("load path", ev.text)
        if self.file_dialog is not None and not self.file_dialog.alive():
            self.file_dialog = None
        if self.file_dialog is not None:
            if ev.type == pygame_gui.UI_WINDOW_CLOSE and ev.ui_element is self.file_dialog:
                self.file_dialog = None
            return TAKEN
        if ev.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and ev.ui_element is self.leave_dialog:
            self.leave_dialog = None
            return Command("leave")
        return None


class DeployPanel(PlayPanel):
    """The tray of models to place (``game/ui/deploy_tray.py``): a press on a chip picks the model
    up (dragged onto the table), the Auto button places the rest; Q/E turn the next placement,
    A places the rest. Shown only while the forces deploy."""

    def __init__(self, tray, pointer=lambda: (0, 0)):
        super().__init__(pointer)
        self.tray = tray
        self.drag: str | None = None               # a model being dragged out of the tray

    def sees(self, ev, pointer) -> bool:
        return self.tray.active

    def handle(self, ev):
        got = self.tray.handle(ev)
        if got is not None:
            kind, mid = got
            if kind == "drag" and self.shown.answering:
                self.drag = mid
                return Command("deploy pick", mid)
            if kind == "auto":
                return Command("deploy rest")
            return Command("deploy refresh")
        if ev.type == pygame.MOUSEMOTION and self.drag is not None:
            return Hover(ev.pos)
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self.drag is not None:
            self.drag = None
            return Command("deploy drop", ev.pos)
        if ev.type == pygame.KEYDOWN and self.shown.deploying:
            if ev.key in (pygame.K_q, pygame.K_e):
                return Command("deploy turn", 1 if ev.key == pygame.K_q else -1)
            if ev.key == pygame.K_a:
                return Command("deploy rest")
        return None


class DiceTrayPanel(PlayPanel):
    """The dice tray: a click on an offered die picks it (a keep once enough are); a click
    elsewhere in it settles rolling dice."""

    def __init__(self, tray, pointer=lambda: (0, 0)):
        super().__init__(pointer)
        self.tray = tray

    def sees(self, ev, pointer) -> bool:
        return ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and self.tray.rect.collidepoint(ev.pos)

    def handle(self, ev):
        if self.tray.handle(ev) is not None and self.tray.offer is not None:
            return PickDice(tuple(self.tray.offer.chosen))
        return TAKEN


class HandPanel(PlayPanel):
    """The card hand over the table's foot (``game/ui/card_hand.py``): its intents are the hand's
    own (``Submit``, ``PickCards``, ``TAKEN``); a click on no card goes on to the table."""

    def __init__(self, hand, table_rect=lambda: pygame.Rect(0, 0, 0, 0), pointer=lambda: (0, 0)):
        super().__init__(pointer)
        self.hand = hand
        self.table_rect = table_rect

    def sees(self, ev, pointer) -> bool:
        return ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION) and self.hand.active \
            and self.table_rect().collidepoint(ev.pos)

    def handle(self, ev):
        got = self.hand.handle(ev)
        return got if ev.type == pygame.MOUSEBUTTONDOWN else None


class SheetsPanel(PlayPanel):
    """The help box (F1) and the reference sheets (F2: the glossary, L: the legend): the wheel
    scrolls an open sheet. The sheets are opened and closed by the keys' commands."""

    def __init__(self, pointer=lambda: (0, 0)):
        super().__init__(pointer)
        self.reference = None                      # the glossary (F2) or the legend (L), when open
        self.reference_kind = ""
        self.show_help = False
        self.help_on_top = False                   # F1's box over the glossary / legend (opened after it)

    def sees(self, ev, pointer) -> bool:
        return self.reference is not None and ev.type == pygame.MOUSEWHEEL

    def handle(self, ev):
        self.reference.handle(ev)
        return TAKEN

    def toggle_help(self) -> None:
        self.show_help = not self.show_help
        self.help_on_top = self.show_help

    def open(self, which: str, make) -> None:
        """Open sheet ``which`` (``make()`` builds it); the same key again closes it."""
        if self.reference is not None and self.reference_kind == which:
            self.reference = None
            return
        self.reference = make()
        self.reference_kind = which
        self.help_on_top = False                 # the newest box is drawn on top

    def escape(self) -> bool:
        """Esc closes the box drawn on top first; False when none was open."""
        if self.show_help and (self.help_on_top or self.reference is None):
            self.show_help = False
        elif self.reference is not None:
            self.reference = None
        else:
            return False
        return True


class OptionsListPanel(PlayPanel):
    """The options list (``game/ui/options_panel.py``): the row under the mouse is lit, a click
    picks it, the wheel over it scrolls."""

    def __init__(self, widget, pointer=lambda: (0, 0)):
        super().__init__(pointer)
        self.widget = widget

    def sees(self, ev, pointer) -> bool:
        return ev.type in MOUSE           # the hover follows the mouse out of the list too

    def handle(self, ev):
        picked = self.widget.handle(ev, self.pointer())
        if picked is not None:
            return PickOption(picked)
        if ev.type == pygame.MOUSEWHEEL and self.widget.rect.collidepoint(self.pointer()):
            return TAKEN
        return None


BUTTONS = [[("undo", "Undo", "Ctrl+Z: take back your last decision"),
            ("hint", "Hint", "G: what the strongest agent would do in your decision, from what you can see"),
            ("save", "Save", "Ctrl+S: save the game"),
            ("load", "Load", "Ctrl+O: load a saved game"),
            ("help", "Help", "F1: the controls")],
           [("reach", "Reach", "R: shade where the selected model can move"),
            ("sight", "Sight", "V: shade what the selected model can see"),
            ("threat", "Threat", "T: shade what the enemy can see"),
            ("menu", "Menu", "back to the launcher (the game is autosaved)")]]
TOGGLES = ("reach", "sight", "threat")


def button_intent(key: str):
    if key == "undo":
        return Undo()
    if key in TOGGLES:
        return Toggle(key)
    return Command(key)


class ButtonsPanel(PlayPanel):
    """The two rows of buttons under the options (pygame_gui buttons): a press is its command."""

    def __init__(self, ui, pointer=lambda: (0, 0)):
        super().__init__(pointer)
        self.ui = ui
        self.buttons: dict = {}

    def layout(self, rect) -> None:
        """The rows of ``BUTTONS`` from ``rect``'s top left, each ``rect.w`` wide."""
        super().layout(rect)
        x, y = self.rect.topleft
        self.buttons = {}
        for row in BUTTONS:
            bw = (self.rect.w - (len(row) - 1) * 4) // len(row)
            for i, (key, text, tip) in enumerate(row):
                self.buttons[key] = pygame_gui.elements.UIButton(pygame.Rect(x + i * (bw + 4), y, bw, 28), text,
                                                                 self.ui, tool_tip_text=tip)
            y += 32

    def press_toggles(self, toggles: dict) -> None:
        """The Reach, Sight and Threat buttons stay pressed while their shading is on."""
        for key in TOGGLES:
            b = self.buttons.get(key)
            if b is not None and b.is_selected != bool(toggles.get(key)):
                (b.select if toggles.get(key) else b.unselect)()

    def sees(self, ev, pointer) -> bool:
        return ev.type == pygame_gui.UI_BUTTON_PRESSED

    def handle(self, ev):
        for key, b in self.buttons.items():
            if ev.ui_element is b:
                return button_intent(key)
        return TAKEN


class LogViewPanel(PlayPanel):
    """The game's log (``game/ui/log_panel.py``): the wheel scrolls it, a click on a roll's line
    shows its dice in the tray again."""

    def __init__(self, log, pointer=lambda: (0, 0)):
        super().__init__(pointer)
        self.log = log

    def sees(self, ev, pointer) -> bool:
        return ev.type in POINTER_EVENTS

    def handle(self, ev):
        if not self.log.handle(ev, self.pointer()):
            return None
        if self.log.clicked is not None:      # a roll's line: its dice back in the tray
            clicked, self.log.clicked = self.log.clicked, None
            return Command("show dice", clicked)
        return TAKEN


class TablePanel(PlayPanel):
    """The table: its pointer events go to the tools (``game/play/tools.py``): the pan/zoom tool
    (right or middle button, the wheel), the tape (a left drag), the select tool (a left click).
    Returns the tools' intents after a ``Hover`` of where the pointer is."""

    def __init__(self, tools, table_rect=lambda: pygame.Rect(0, 0, 0, 0), pointer=lambda: (0, 0)):
        super().__init__(pointer)
        self.tools = tools
        self.table_rect = table_rect

    def sees(self, ev, pointer) -> bool:
        return ev.type in POINTER_EVENTS

    def handle(self, ev):
        if ev.type == pygame.MOUSEWHEEL:
            if self.table_rect().collidepoint(self.pointer()):
                return self.tools.pan.wheel(ev.y, self.pointer())
            return TAKEN
        pos = ev.pos
        if ev.type == pygame.MOUSEMOTION:
            if self.tools.pan.active:
                self.tools.pan.drag(None, pos, 0, rel=ev.rel)
            else:
                self.tools.tape.drag(None, pos, 0)
            return Hover(pos)
        if not self.table_rect().collidepoint(pos) and ev.type == pygame.MOUSEBUTTONDOWN:
            return Hover(pos)
        if ev.type == pygame.MOUSEBUTTONDOWN:
            if ev.button in (2, 3):
                self.tools.pan.press(None, pos, ev.button, 0)
            elif ev.button == 1:
                self.tools.tape.press(None, pos, ev.button, 0)
            return Hover(pos)
        if ev.type == pygame.MOUSEBUTTONUP:
            if ev.button in (2, 3):
                self.tools.pan.release(None, pos, ev.button, 0)
            elif ev.button == 1:
                start = self.tools.tape.release(None, pos, ev.button, 0)
                if start is not None:          # not a drag: the select tool's click (``Pointer.click``)
                    return Hover(pos), Click(start)
        return Hover(pos)


class KeysPanel(PlayPanel):
    """The screen's keys (the help box lists them, ``game/play/keys.py``): each to an intent."""

    wants_keys = True

    def sees(self, ev, pointer) -> bool:
        return ev.type == pygame.KEYDOWN

    def handle(self, ev):
        from game.play.keys import key_intent
        return key_intent(ev, self.shown.answering) or TAKEN
