"""Who counts as a hero: read by the points formula (``points.py``) and by the crew rules
(``data.py``), so it sits below both and neither imports the other to ask."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .options import DEFAULT_OPTIONS, CounterblastOptions

if TYPE_CHECKING:  # pragma: no cover
    from .data import Profile


def is_hero(profile: Profile, options: CounterblastOptions = DEFAULT_OPTIONS) -> bool:
    """Heroes, characters (a sub-type of hero) and, by default, psifers count as heroes."""
    return profile.role in ("hero", "character") or (profile.role == "psifer" and options.psifer_is_hero)
