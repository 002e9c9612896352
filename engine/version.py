"""The version a player can name: ``skirmish --version``, each save's ``written_by`` and
``CHANGELOG.md``'s headings (pyproject.toml reads it from here)."""
__version__ = "0.2.0"
