"""A refused roster's field in a player's words: the engine names where a problem is by the
roster's schema path ("models[1].count", pydantic's location); the force builder says "the
second model's count" (issue 58). Only the words change: the engine's ``Problem.field`` is kept
as it is for files and ``skirmish validate``, where the path finds the place in the JSON."""
from __future__ import annotations

import re

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")

# a list's name -> one of its entries, where dropping the "s" does not say it
_ONE_OF = {"shooting": "shooting weapon", "striking": "striking weapon", "gear": "piece of gear",
           "equipment": "piece of equipment", "abilities": "ability", "properties": "property"}

_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def ordinal(n: int) -> str:
    """1 -> "first" ... 10 -> "tenth", then "11th", "21st", "22nd", "23rd", "112th"."""
    if 1 <= n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def _one_of(name: str) -> str:
    if name in _ONE_OF:
        return _ONE_OF[name]
    if name.endswith("ies"):
        return name[:-3] + "y"
    return name[:-1] if name.endswith("s") else f"{name} entry"


def field_words(field: str, whole: str = "the force") -> str:
    """``models[1].count`` -> "the second model's count"; ``fighters[0].weapons[2]`` -> "the
    first fighter's third weapon"; ``points_limit`` -> "the points limit"; no field: ``whole``."""
    words: list[str] = []
    for name, index in _PART.findall(field or ""):
        if name:
            words.append(name.replace("_", " "))
        else:                           # an entry of the list named just before (or of the whole)
            of = words.pop() if words else None
            words.append(f"{ordinal(int(index) + 1)} {_one_of(of) if of else 'entry'}")
    return "the " + "'s ".join(words) if words else whole
