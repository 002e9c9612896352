"""Tools: how input on the table becomes an answer (as Tiled's ``AbstractTool`` and python-tcod's
event handlers). One tool is active at a time; it gets the pointer's events already turned into
table coordinates (mm) by the table panel, keeps its own state, draws its own preview, and
returns an intent (a game tool) or a list of ``Edit`` commands (an editor tool), never touching
the session or the document itself."""
from __future__ import annotations


class Tool:
    """Override what the tool needs; every method may return an intent (game), a list of edits
    (editor) or None. ``xy`` is the table point in mm, ``pos`` the screen point, ``mods`` the
    key modifiers."""

    name = "tool"
    cursor_hint = ""          # a few words for the status line while the tool is active

    def press(self, xy, pos, button: int, mods: int):
        return None

    def drag(self, xy, pos, mods: int):
        return None

    def release(self, xy, pos, button: int, mods: int):
        return None

    def hover(self, xy, pos):
        return None

    def key(self, key: int, mods: int):
        return None

    def cancel(self) -> None:
        """Esc, or another tool chosen: drop whatever is half done."""

    def draw(self, surface, camera) -> None:
        """The tool's preview on the table (``camera`` maps mm to the screen)."""
