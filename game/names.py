"""Players' names in a network game (issue 58): what a name may be, and the words that name a seat
with it. A name is given at join (``skirmish join --name``, the launcher's Join… dialog), sent in
``hello``, and shown to the other seat instead of "Player N" (its header, log lines, hover cards,
dialogs). It is drawn in another player's window, so the protocol keeps it short and printable;
and it is always put into text as a value (never as a pattern, a template or markup), so a
hostile name is only an odd name. A leaf of the client (no pygame, nothing of ``game`` or
``engine``): the protocol, the host and the screens all use it."""
from __future__ import annotations

import re

NAME_MAX = 24           # characters: a header, a log line and a hover card still read well


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (None: it can): at most ``NAME_MAX`` printable
    characters (no control characters, no line breaks), no space at either end."""
    if len(name) > NAME_MAX:
        return f"a name of {len(name)} characters; at most {NAME_MAX}"
    if not name.isprintable():
        return "a name of printable characters only (no control characters or line breaks)"
    if name != name.strip():
        return "a name with no space at either end"
    return None


def clean_name(text: str) -> str:
    """What a player typed, as a name ``name_problem`` accepts: unprintable characters made
    spaces, runs of spaces made one, cut to ``NAME_MAX``."""
    kept = "".join(ch if ch.isprintable() else " " for ch in str(text))
    return " ".join(kept.split())[:NAME_MAX].strip()


def who(player: int, names: dict[int, str] | None = None) -> str:
    """A seat in the middle of a sentence: "Alice (player 2)", or "player 2" with no name."""
    name = (names or {}).get(player)
    return f"{name} (player {player})" if name else f"player {player}"


# "Player N" naming a seat; not "(player N)", which follows a name already (``who``'s words)
_SEAT = re.compile(r"(?<!\()\b[Pp]layer ([1-9])\b")


def named(text: str, names: dict[int, str] | None) -> str:
    """``text`` (the engine's log line, a prompt, a notice) with each "Player N" / "player N" of a
    named seat read as its name: "Player 1 activates Rook" -> "Alice activates Rook"; "Alice
    (player 1) is back" stays as it is."""
    if not names:
        return text

    def one(m: re.Match) -> str:          # a function, not a template: a name's \\1 stays text
        return names.get(int(m.group(1))) or m.group(0)

    return _SEAT.sub(one, text)
