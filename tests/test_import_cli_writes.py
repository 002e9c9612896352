"""``skirmish import --out MAP`` writes the map through a temporary file beside it and a rename, so
a failed write (a full disk) leaves the old map whole, and never writes through a symbolic link
that points nowhere (issue 59, item 5)."""
from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path

from game.cli import main

HAND = Path(__file__).parent / "data" / "carltographer" / "polygons-and-footprints.json"
OLD = '{"the old map": "kept"}\n'


class _FullDisk(io.TextIOBase):
    """A file being written that takes ``room`` characters, then fails as a full disk does."""

    def __init__(self, real, room: int):
        self.real, self.room = real, room

    def write(self, text: str) -> int:
        take = text[: max(0, self.room)]
        self.real.write(take)
        self.room -= len(take)
        if len(take) < len(text):
            self.real.flush()
            raise OSError(errno.ENOSPC, "No space left on device")
        return len(text)

    def flush(self):
        self.real.flush()

    def fileno(self):
        return self.real.fileno()

    def close(self):
        super().close()          # flushes first
        self.real.close()


def test_a_failed_write_leaves_the_old_map_whole(tmp_path, monkeypatch, capsys):
    out = tmp_path / "map.json"
    out.write_text(OLD)
    real_open = io.open

    def opening(file, mode="r", *args, **kwargs):
        f = real_open(file, mode, *args, **kwargs)
        return _FullDisk(f, 500) if "w" in mode else f

    monkeypatch.setattr(io, "open", opening)
    assert main(["import", str(HAND), "--out", str(out), "--force"]) == 1
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert f"cannot write {out}: No space left on device" in err and "Traceback" not in err
    assert out.read_text() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.json"]     # no half-written file left
    # and with room to write, --force replaces it
    assert main(["import", str(HAND), "--out", str(out), "--force"]) == 0
    assert json.loads(out.read_text())["pieces"]


def test_a_link_to_nowhere_is_refused_with_or_without_force(tmp_path, capsys):
    out = tmp_path / "map.json"
    out.symlink_to(tmp_path / "elsewhere.json")
    for force in ([], ["--force"]):
        assert main(["import", str(HAND), "--out", str(out), *force]) == 1
        err = capsys.readouterr().err
        assert "is a symbolic link to" in err and "which does not exist" in err
        assert not (tmp_path / "elsewhere.json").exists() and out.is_symlink()


def test_a_link_to_a_map_is_replaced_through_only_with_force(tmp_path, capsys):
    target = tmp_path / "real.json"
    target.write_text(OLD)
    out = tmp_path / "map.json"
    out.symlink_to(target)
    assert main(["import", str(HAND), "--out", str(out)]) == 1
    assert "exists" in capsys.readouterr().err and target.read_text() == OLD
    assert main(["import", str(HAND), "--out", str(out), "--force"]) == 0
    assert out.is_symlink() and os.readlink(out) == str(target)
    assert json.loads(target.read_text())["pieces"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.json", "real.json"]
