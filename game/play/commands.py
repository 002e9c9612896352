"""The game screen's commands: undo, save and load, leaving for the launcher (asked first, the
game autosaved), the history (H), the glossary and legend (F2, L), sound and animations.

An owned part of the game screen (``game/scenes/play.py``). (Undo itself is the answering part's,
``game/play/answers.py``; the other player's undo question is here, a dialog.)
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from engine.core import GameError
from game.kit.transitions import Push, Switch
from game.names import who
from game.session import GameSession
from game.userdirs import saves_dir

if TYPE_CHECKING:
    from game.play.routing import PlayPanels


@dataclass(eq=False)          # a part of the game screen: one each, known by identity
class Commands:
    """Files, the menu, settings and dialogs. Given the state, the screen's pygame_gui manager
    (``ui``: the dialogs' home), the panels (the dialogs and sheets they keep) and the screen's
    ``go_to``."""

    state: Any                   # the PlayState (Any: its made-once fields are typed object)
    ui: pygame_gui.UIManager
    panels: PlayPanels
    go_to: Callable

    def ask_undo(self) -> None:
        """A network game: the other player asks to take back their last decision; the answer is
        this player's (a dialog: Allow, or Cancel, Esc or its close button to refuse). The answer
        comes by the dialog's events (``DialogsPanel``), never by finding it closed: pygame_gui
        closes it in the same step as it posts Allow's confirmation, which arrives a frame later."""
        s, dlg = self.state.session, self.panels.dialogs
        if s.undo_asked is None and dlg.undo_dialog is not None:   # the ask is void (the game went on)
            dialog, dlg.undo_dialog = dlg.undo_dialog, None         # forgotten first: its closing says nothing
            if dialog.alive():
                dialog.kill()
        if s.undo_asked is not None and dlg.undo_dialog is None:
            r = pygame.Rect(0, 0, 440, 200)
            r.center = self.state.table_rect.center
            by = s.undo_asked.by
            asker = who(by, self.state.source.player_names()) if by in self.state.source.player_names() else f"Player {by}"
            dlg.undo_dialog = pygame_gui.windows.UIConfirmationDialog(      # (its text is markup: escaped)
                r, escape(f"{asker} asks to take back their last decision. Allow it?"),
                self.ui, window_title="Undo?", action_short_name="Allow")

    def reply_undo(self, accept: bool) -> None:
        dialog, self.panels.dialogs.undo_dialog = self.panels.dialogs.undo_dialog, None
        if dialog is not None and dialog.alive():     # Esc: the answer first, then the window goes
            dialog.kill()
        self.state.session.reply_undo(accept)

    def set_sound(self, on: bool) -> None:
        from game.settings import Settings
        self.state.sound = on
        st = Settings.load()
        st.sound = on
        st.save()
        self.state.note(f"sound {'on' if on else 'off'} (M)", 3.0)

    def set_animations(self, on: bool) -> None:
        """Rolling dice, gliding moves and shots on the table, on or off (remembered)."""
        from game.settings import Settings
        self.state.tray.animate = on
        if not on:
            self.state.tray.settle()
            self.state.anim.clear()
            self.state.effects.clear()
        st = Settings.load()
        st.animations = on
        st.save()
        self.state.note(f"animations {'on' if on else 'off'} (A)", 3.0)

    def set_speed(self, factor: float) -> None:
        """+ / -: the AI's answers and the glides faster or slower."""
        self.state.speed = min(8.0, max(0.25, self.state.speed * factor))
        self.state.say(f"AI speed x{self.state.speed:.1f}")

    def confirm_leave(self) -> None:
        """Menu: ask first, and say where the game will wait: a local game in the autosave, which
        the launcher's Continue takes up again; a network game on its host, which this seat
        joins again with its code."""
        if self.panels.dialogs.leave_dialog is not None and self.panels.dialogs.leave_dialog.alive():
            return
        from game.userdirs import autosave_file
        r = pygame.Rect(0, 0, 480, 250)
        r.center = self.state.table_rect.center
        words = (self._leave_words_remote() if self.state.session.remote else
                 f"Leave this game for the launcher? It is saved as it stands to {autosave_file()}; "
                 "the launcher's Continue button takes it up again.")
        self.panels.dialogs.leave_dialog = pygame_gui.windows.UIConfirmationDialog(      # (its text is markup: escaped)
            r, escape(words), self.ui, window_title="Leave the game?", action_short_name="Leave")

    def _leave_words_remote(self) -> str:
        """A network seat leaves: nothing is saved here (the host holds the game); how to come back."""
        s = self.state.session
        code = getattr(s, "code", "")
        back = (f"come back with the launcher's Join… (address {s.address}, seat {s.seat}, code {code}) or "
                f"skirmish join {s.address} --seat {s.seat} --code {code}" if code else
                f"come back by joining {s.address} again as seat {s.seat} with your code")
        if getattr(s, "server", None) is not None:       # the launcher's Host: this program serves it
            return (f"Leave this game for the launcher? This program hosts it and keeps it while it runs "
                    f"(quitting ends the server; the host's autosave keeps the game); {back}.")
        return f"Leave this game for the launcher? The host keeps the game as it stands; {back}."

    def leave(self) -> None:
        from game.userdirs import autosave_file

        if self.state.session.remote:                    # the game stays on its server; this seat leaves
            self.state.session.close()
            self.go_to(Switch("launcher"))
            return
        try:
            autosave_file().parent.mkdir(parents=True, exist_ok=True)
            self.state.session.save(autosave_file())
        except (OSError, GameError) as err:
            self.state.say(f"could not save the game to {autosave_file()}: {err}; it stays open", error=True)
            return
        self.go_to(Switch("launcher"))

    def save(self, path=None) -> str | None:
        s = self.state.session.game.setup
        try:
            if path is None:  # the client's own saves folder is made on first use
                saves_dir().mkdir(parents=True, exist_ok=True)
                path = saves_dir() / f"{s.ruleset}-{self.state.map_name}-{datetime.now():%Y%m%d-%H%M%S}.json"
            on_host = self.state.session.save(path)      # a network game's is written on its host
        except (OSError, GameError) as err:
            self.state.say(f"could not save to {path}: {err}", error=True)
            return None
        if on_host:
            self.state.say(f"the host saved the game as {on_host} (in its saves folder)")
            return on_host
        self.state.say(f"saved to {path}")
        return str(path)

    def open_load(self) -> None:
        d = saves_dir()
        d.mkdir(parents=True, exist_ok=True)
        self.panels.dialogs.file_dialog = pygame_gui.windows.UIFileDialog(
            pygame.Rect(160, 80, 640, 480), self.ui, window_title="Load a saved game",
            initial_file_path=str(d), allow_existing_files_only=True)
        self.panels.dialogs.loading_from = self.panels.dialogs.file_dialog

    def load(self, path) -> None:
        from engine.data.errors import DataError

        try:
            session = GameSession.load(path)
        except DataError as err:
            self.state.say(str(err).split("\n")[0], error=True)
            return
        self.go_to(Switch("play", {"session": session}))   # a game (from a replay's Load too)

    def open_history(self) -> None:
        """H: any earlier position of this game on the table, as this player saw it, without
        undoing anything (Esc comes back)."""
        if self.state.worker is not None:
            self.state.say("wait for the AI to finish its move", error=True)
            return
        if self.state.session.remote:
            self.state.say("a network game's history is on its host (its saves replay it)", error=True)
            return
        g = self.state.session.game
        self.go_to(Push("replay", {"setup": g.setup, "decisions": g.decisions, "eyes": self.state.viewer,
                                "seats": self.state.session.seats}))

    def open_reference(self, which: str) -> None:
        """F2: the rules glossary; L: the legend. The same key again closes it."""
        from game.ui.help_panels import glossary_panel, legend_panel
        rs = self.state.session.game.setup.ruleset
        name = self.state.session.game.rules.name
        self.panels.sheets.open(which, lambda: glossary_panel(rs, name) if which == "glossary" else legend_panel(rs))
