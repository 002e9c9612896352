"""The one loader of shipped files (``engine/data/shipped.py``): read once while the files stay as
they are, read again when one changes, and a second file with a key already read is refused
with the file, the field and why (Counterblast's crews and missions silently kept the last one)."""
from __future__ import annotations

import json
import os

import pytest

from engine.data.errors import DataError
from engine.data.shipped import shipped_folder


class _Item:
    def __init__(self, path):
        data = json.loads(path.read_text())
        self.id = data["id"]
        self.value = data["value"]


def _write(path, ident, value, bump=0):
    path.write_text(json.dumps({"id": ident, "value": value}))
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + bump))


def test_read_once_and_again_when_a_file_changes(tmp_path):
    _write(tmp_path / "a.json", "a", 1)
    reads = []

    def load(p):
        reads.append(p.name)
        return _Item(p)

    first = shipped_folder("test items", tmp_path, load)
    again = shipped_folder("test items", tmp_path, load)
    assert reads == ["a.json"] and first == again and first is not again   # a new dict, the same items
    assert again["a"] is first["a"]
    _write(tmp_path / "a.json", "a", 2, bump=10**9)
    assert shipped_folder("test items", tmp_path, load)["a"].value == 2
    assert reads == ["a.json", "a.json"]


def test_a_second_file_with_the_same_key_is_refused(tmp_path):
    _write(tmp_path / "a.json", "same", 1)
    _write(tmp_path / "b.json", "same", 2)
    with pytest.raises(DataError) as err:
        shipped_folder("test duplicates", tmp_path, _Item)
    assert "b.json" in str(err.value) and "id" in str(err.value) and "used by another file" in str(err.value)


def test_counterblast_crews_come_through_it():
    from engine.rulesets.counterblast.data import shipped_crews, shipped_missions
    crews, missions = shipped_crews(), shipped_missions()
    assert crews and missions
    assert shipped_crews()[next(iter(crews))] is crews[next(iter(crews))]
