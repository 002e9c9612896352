"""Editor tools (issue 48): a ``Tool`` for the layout editor turns pointer input on the table into
a list of the workshop's ``Edit`` commands and nothing else. It never changes the document: the
scene applies what comes back through the document's undo stack, in one place.

What a tool reads comes in an ``EditContext`` (the map, the stack to *preview* on, the selection,
the snapping settings and the view's scale), built by the scene for each event. Besides edits, a
tool's list may hold a few small values the scene also applies there:

- ``Choose(keys)``: the selection becomes ``keys`` (selection is the editor's, not the map's);
- ``Lift(keys)``: these items start moving: the table image leaves them out while the drag
  lasts (the scene puts them back when the tool says ``done``);
- ``Say(text, warn)`` (``game.kit.intents``): a word for the status line (a refused drag).

A leaf of the kit: it imports the kit and nothing of ``game`` or ``engine``.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .intents import Intent
from .tool import Tool


@dataclass(frozen=True)
class Choose(Intent):
    """Select exactly ``keys`` (item keys: ("piece", id), ("objective", id), ("zone", i), ...).
    Applied after the edits before it in the same list (a refused edit drops it): ``grouped``
    adds the pieces that share a group with one of them, and ("zone", -1) names the last zone,
    both on the map as those edits left it."""
    keys: tuple = ()
    grouped: bool = False


@dataclass(frozen=True)
class Lift(Intent):
    """The items ``keys`` are being dragged: draw the table without them until the drag ends."""
    keys: frozenset = frozenset()


@dataclass
class EditContext:
    """What an editor tool may read. ``xy`` points are in the map's unit (``map.unit``: inches,
    cm or mm; ``map.mm_per_unit`` converts). ``scale`` is screen pixels per map unit;
    ``to_screen(x, y)`` the window pixel of a table point; ``pick(xy)`` the item key under a
    table point (or None); ``stack`` is read only (``preview``, ``expand``, ``symmetry``)."""
    map: Any
    stack: Any
    selection: tuple = ()
    grid: float = 0.5
    snap_on: bool = True
    scale: float = 10.0
    to_screen: Callable = field(default=lambda x, y: (x, y))
    pick: Callable = field(default=lambda xy: None)
    vertex_mode: bool = False
    t: float = 0.0

    def px(self, n: float) -> float:
        """``n`` screen pixels in map units."""
        return n / self.scale


class EditTool(Tool):
    """An editor tool. ``ctx`` is the newest ``EditContext`` (the scene sets it before each call);
    ``done`` is True once a press-drag-release is over (the scene then drops the tool if it was
    a one-drag tool); ``active`` while a drag is under way and previewed."""

    name = "edit"
    kind = ""                 # the drag kind the preview draws ("move", "rotate", ...)

    def __init__(self, ctx: EditContext | None = None):
        # the scene sets it before each call, so the tools read it as set
        self.ctx: EditContext = ctx  # type: ignore[assignment]
        self.done = False
        self.active = False
