"""The fixed reference agent ``hard-2026``: the ``hard`` agent as of 2026-12 (b7013c0), copied so
that later work on ``hard`` does not move it (issue 61). ``search.py`` registers it."""
from . import search  # noqa: F401  (registers "hard-2026")
