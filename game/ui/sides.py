"""Who sat where, in words: the short names the table uses (the turn bar, the prompt) and the
full title of a side (its number, its roster, who played it) that the game-over screen and the
replay give (a ruleset's own naming is its presenter's). No pygame: the seats, the view and the setup are all it reads.

``seats`` maps a player to "human" or "ai:NAME" as the session (or the save's ``client``) holds
them; a seat that is not known (a save written by ``simulate``) is named by its number only.
"""
from __future__ import annotations

from game.presenters import presenter_for


def seat_word(player: int, seats: dict[int, str]) -> str:
    """"you" (the one human against an AI), "Player N" (hot seat, or not known), "AI NAME"."""
    seat = seats.get(player, "")
    if seat.startswith("ai:"):
        return f"AI {seat[3:]}"
    humans = [p for p, s in seats.items() if s == "human"]
    return "you" if seat == "human" and len(humans) == 1 else f"Player {player}"


def side_names(view: dict, seats: dict[int, str]) -> dict[int, str]:
    """The short name of each side: the seat's word, and a Frontier posse's name."""
    face = presenter_for(view.get("ruleset"))
    return {p: face.side_name(view, p, seat_word(p, seats)) for p in (1, 2)}


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


def side_title(game, player: int, seats: dict[int, str]) -> str:
    """"Side 2 (The Diamond Gang, AI easy)": the side, its roster and who played it."""
    who = seat_word(player, seats)
    who = "Player" if who == f"Player {player}" else who      # "Side 1 (..., Player)" says nothing
    parts = [x for x in (roster_name(game, player), None if who == "Player" else who) if x]
    return f"Side {player}" + (f" ({', '.join(parts)})" if parts else "")
