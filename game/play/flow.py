"""The hot-seat flow as a pure function: after every change, which screen comes next.

``next_screen(session)`` reads a ``GameSession`` (no pygame, no scene) and says what the game
screen must do before it draws another frame:

- the game is over: ``Push("game_over")`` (None once the players came back to look at the table);
- in hot-seat, a human other than the one whose eyes the screen shows decides now and the two
  players' views differ (a hand of cards, a secret choice, a private log line):
  ``Push("pass", {"player": p})``, before anything of that player's view is drawn;
- otherwise None: stay (an AI seat, the same player going on, or nothing private: the eyes
  simply follow the decision, ``GameSession.pass_due``).

The privacy invariant is tested on this function alone (``tests/test_hot_seat_flow.py``).
"""
from __future__ import annotations

from game.kit.transitions import Push, Transition


def next_screen(session, game_over_seen: bool = False) -> Transition | None:
    """The screen the game screen must give way to now, or None to stay."""
    if session.game.over:
        return None if game_over_seen else Push("game_over")
    due = session.pass_due()
    if due is not None:
        return Push("pass", {"player": due})
    return None
