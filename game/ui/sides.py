"""Who sat where, in words: the short names the table uses (the turn bar, the prompt) and the
full title of a side (its number, its roster, who played it) that the game-over screen and the
replay give (a ruleset's own naming is its presenter's). No pygame: the seats, the view and the setup are all it reads.

``seats`` maps a player to "human" or "ai:NAME" as the session (or the save's ``client``) holds
them; a seat that is not known (a save written by ``simulate``) is named by its number only.
``names``: the names players gave in a network game (``RemoteSession.names``), which stand for
"Player N" where they are known.
"""
from __future__ import annotations

from game.presenters import presenter_for


def seat_word(player: int, seats: dict[int, str], names: dict[int, str] | None = None) -> str:
    """"you" (the one human against an AI, or this window's seat of a network game), "AI NAME",
    the name the player gave (a network game), else "Player N" (hot seat, or not known)."""
    seat = seats.get(player, "")
    if seat.startswith("ai:"):
        return f"AI {seat[3:]}"
    humans = [p for p, s in seats.items() if s == "human"]
    if seat == "human" and len(humans) == 1:
        return "you"
    return (names or {}).get(player) or f"Player {player}"


def side_names(view: dict, seats: dict[int, str], names: dict[int, str] | None = None) -> dict[int, str]:
    """The short name of each side: the seat's word, and a Frontier posse's name."""
    face = presenter_for(view.get("ruleset"))
    return {p: face.side_name(view, p, seat_word(p, seats, names)) for p in (1, 2)}


def roster_name(game, player: int) -> str | None:
    """The name of the roster ``player`` plays: a shipped roster's name (the launcher's), a
    roster given as data by its own name or id."""
    rosters = game.setup.rosters
    if not 1 <= player <= len(rosters):
        return None
    r = rosters[player - 1]
    if isinstance(r, str):
        return type(game.rules).roster_ids().get(r, r)
    if isinstance(r, dict):
        return r.get("name") or r.get("id")
    return getattr(r, "name", None)


def side_title(game, player: int, seats: dict[int, str], names: dict[int, str] | None = None) -> str:
    """"Side 2 (The Diamond Gang, AI easy)": the side, its roster and who played it."""
    who = seat_word(player, seats, names)
    who = "Player" if who == f"Player {player}" else who      # "Side 1 (..., Player)" says nothing
    parts = [x for x in (roster_name(game, player), None if who == "Player" else who) if x]
    return f"Side {player}" + (f" ({', '.join(parts)})" if parts else "")
