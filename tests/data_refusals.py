"""A data file written with a fault and read by its loader: the refusal, for the tests that check
it names the file, the field and the reason."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.data.errors import DataError


def refused(load, doc: dict | str, path: Path, match: str | None = None) -> DataError:
    """``doc`` (a document, written as JSON, or the file's text as it is) written to ``path`` and
    read by ``load(path)``: the DataError it must raise (its message matching ``match``)."""
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    with pytest.raises(DataError, match=match) as err:
        load(path)
    return err.value
