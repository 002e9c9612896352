"""The client's parts kit (issue 48): panels that own their rect, state, input and drawing; tools
for input on the table; intents, the small values they return; and transitions between screens.

A leaf of ``game/``: it imports pygame and nothing of ``game`` or ``engine``, so any panel, tool
or scene may use it and it never reaches up. Nothing here reads a session: a panel gets the view,
the decision and the events, and says what it wants done by returning an intent.
"""
from .intents import (  # noqa: F401
                      Click,
                      Command,
                      Hover,
                      Intent,
                      PickCards,
                      PickDice,
                      PickOption,
                      RefuseSay,
                      Say,
                      Select,
                      Submit,
                      Toggle,
                      Undo,
)
from .panel import TAKEN, Panel, Router  # noqa: F401
from .tool import Tool  # noqa: F401
from .transitions import Pop, Push, Quit, Switch, Transition  # noqa: F401
