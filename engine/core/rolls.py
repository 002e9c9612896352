"""Dice as a player sees them on the table: one record per roll, carried in an Event's ``data``
under ``"rolls"`` (a list), for the client's dice tray and for anyone reading a game's log.

A record is plain JSON: ``label`` (who rolled for what), ``sides`` (10, 6 or 5: the die drawn),
``values`` in the order the dice fell, ``marks`` (per die, a list of words: ``success``,
``explode`` (it rolled another die), ``penalty``, ``set_aside``, ``kept``, ``double``,
``reroll``), ``target`` (the number a die must reach, if any), ``result`` (the roll's outcome in
words) and ``player`` (whose roll, if it is one player's).
"""
from __future__ import annotations

MARKS = ("success", "explode", "penalty", "set_aside", "kept", "double", "reroll")


def roll_record(label: str, sides: int, values, marks=None, target: int | None = None, result: str = "",
                player: int | None = None) -> dict:
    values = [int(v) for v in values]
    marks = [list(m) for m in marks] if marks is not None else [[] for _ in values]
    if len(marks) != len(values):
        raise ValueError("one list of marks per die")
    for m in marks:
        for w in m:
            if w not in MARKS:
                raise ValueError(f"unknown die mark {w!r}")
    return {"label": label, "sides": int(sides), "values": values, "marks": marks, "target": target,
            "result": result, "player": player}


def with_rolls(data: dict | None, *records: dict) -> dict:
    """``data`` with ``records`` added to its ``rolls``."""
    out = dict(data or {})
    out["rolls"] = list(out.get("rolls", [])) + list(records)
    return out
