"""How long a string in a data file may be: every string field of every schema states one of
these bounds in its ``Field`` (``tests/test_data_bounds.py`` reads the schemas and fuzzes each).

Without them a 40 MB map name was accepted, then crashed the font renderer (issue 47): a name
goes into a title and a list, a description into a panel, and every character is drawn.
"""
from __future__ import annotations

from typing import Annotated

from pydantic import Field

ID_CHARS = 100       # an id (a file's, a piece's, a roster's): generated ids such as "ruin-12-3" stay far below
NAME_CHARS = 200     # a name shown in a title or a list
TEXT_CHARS = 4000    # a description or a rule's text: a few paragraphs
HASH_CHARS = 128     # a hex digest (blake2b's longest is 128)

IdText = Annotated[str, Field(min_length=1, max_length=ID_CHARS, description=f"an id, at most {ID_CHARS} characters")]
NameText = Annotated[str, Field(max_length=NAME_CHARS, description=f"a name, at most {NAME_CHARS} characters")]
