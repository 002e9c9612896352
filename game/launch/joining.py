"""The launcher's Join…: the dialog, then the connection under way, looked at once a frame so the
window never stops while a host is slow or absent (it used to wait up to 8 s frozen)."""
from __future__ import annotations

import time

from game.kit import Command
from game.kit.transitions import Switch

JOIN_WAIT = 8.0       # seconds Join waits for a host before it says none answered


class JoinFlow:
    """The Join dialog and, once Join is pressed, the ``RemoteSession`` connecting."""

    def __init__(self, ui, size, settings=None):
        """``settings``: the launcher's (``game.settings.Settings``): the name last given is
        offered again, and the name given is remembered there."""
        from game.ui.join_dialog import JoinDialog

        self.settings = settings
        self.dialog = JoinDialog(ui, size, name=settings.player_name if settings is not None else "")
        self.session = None
        self.end = 0.0

    def handle(self, ev) -> bool:
        """The dialog's event (it is modal); True when it closed (cancelled, Escape)."""
        got = self.dialog.handle(ev)
        if not (isinstance(got, Command) and got.name == "join"):
            return False
        if got.arg is None:
            self._drop()
            return True
        if self.session is None:
            self._connect(*got.arg)
        return False

    def _connect(self, address: str, seat: int, code: str, name: str = "") -> None:
        from game.net.remote import RemoteSession

        try:
            self.session = RemoteSession(address, seat, code, name)
        except ValueError as err:                # not an address
            self.dialog.say(str(err))
            return
        if self.settings is not None and self.settings.player_name != name:
            self.settings.player_name = name
            self.settings.save()
        self.end = time.monotonic() + JOIN_WAIT
        self.dialog.say(f"connecting to {address}…")

    def update(self) -> Switch | None:
        """A look at the connection: the play screen's ``Switch`` once the seat is welcomed; a
        refusal or no answer in time is said in the dialog, which stays open to try again."""
        from game.net.link import NotConnected, Refused

        if self.session is None:
            return None
        try:
            if not self.session.poll_ready(self.end, JOIN_WAIT):
                return None
        except (Refused, NotConnected) as err:
            self._drop()
            self.dialog.say(str(err))
            return None
        session, self.session = self.session, None
        self.dialog.close()
        return Switch("play", {"session": session})

    def _drop(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None
