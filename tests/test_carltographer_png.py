"""``skirmish import`` reads the PNG Carltographer's GUI saves (the picture, with the layout's JSON
in a ``carltographer_layout`` text chunk; engine/workshop/png_layout.py, issue 62), and refuses a
bad one with the file, the chunk and the reason, never a codec error."""
from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import pytest

from engine.data.errors import DataError
from engine.workshop.carltographer import import_layout

DATA = Path(__file__).parent / "data" / "carltographer"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(texts: list[tuple[bytes, bytes]]) -> bytes:
    """A 1x1 grey PNG with these (chunk type, data) text chunks before its picture."""
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\x00\x80")
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + b"".join(_chunk(k, d) for k, d in texts)
            + _chunk(b"IDAT", idat) + _chunk(b"IEND", b""))


def layout_json(name="small-layout.json") -> str:
    return json.dumps(json.loads((DATA / name).read_text()))


def test_a_png_save_imports_as_its_json_does(tmp_path):
    text = layout_json()
    want, _ = import_layout(DATA / "small-layout.json")
    # Pillow's add_text writes tEXt for Latin-1 text (Carltographer's json.dumps is ASCII) ...
    p = tmp_path / "small-layout.png"
    p.write_bytes(png([(b"tEXt", b"Software\0test"), (b"tEXt", b"carltographer_layout\0" + text.encode())]))
    got, notes = import_layout(p)
    same = {"id": want.id, "description": want.description}     # both name their source file
    assert got.model_copy(update=same) == want
    # ... and iTXt (compressed here) otherwise
    q = tmp_path / "small-layout-itxt.png"
    q.write_bytes(png([(b"iTXt", b"carltographer_layout\0\x01\x00\0\0" + zlib.compress(text.encode()))]))
    got2, _ = import_layout(q)
    assert got2.model_copy(update=same) == want


def test_stored_figures_are_said_to_come_from_the_engine_that_saved_the_file(tmp_path):
    data = json.loads(layout_json())
    data["visibility"] = {"overall": {"value": 41.5}}
    p = tmp_path / "with-figures.png"
    p.write_bytes(png([(b"tEXt", b"carltographer_layout\0" + json.dumps(data).encode())]))
    _, notes = import_layout(p)
    assert any("records no engine version" in n and "d4eb250a" in n for n in notes)


@pytest.mark.parametrize("make, words", [
    (lambda: png([(b"tEXt", b"Software\0test")]), "carltographer_layout: this PNG holds no Carltographer layout"),
    (lambda: png([(b"tEXt", b"carltographer_layout\0{not json")]), "carltographer_layout: not valid JSON"),
    (lambda: png([(b"tEXt", b"carltographer_layout\0" + layout_json().encode())])[:60], "cut short"),
    (lambda: png([(b"tEXt", b"carltographer_layout\0" + layout_json().encode())]).replace(b"crate", b"crbte", 1),
     "CRC does not match"),
    (lambda: png([(b"zTXt", b"carltographer_layout\0\0" + b"not zlib at all")]), "compressed text is damaged"),
    (lambda: png([(b"iTXt", b"carltographer_layout\0\0\0\0\0" + b"\xff\xfe{}")]), "not UTF-8"),
    (lambda: b"\x89PNG\r\n\x1a\n" + b"\x00\x00\xff\xffIHDR", "runs past the end of the file"),
])
def test_a_bad_png_is_refused_with_the_file_the_chunk_and_the_reason(tmp_path, make, words):
    p = tmp_path / "bad.png"
    p.write_bytes(make())
    with pytest.raises(DataError) as err:
        import_layout(p)
    assert str(p) in str(err.value) and words in str(err.value)


def test_the_command_imports_a_png_and_refuses_a_bad_one(tmp_path, capsys):
    from game.cli import main

    p = tmp_path / "layout.png"
    p.write_bytes(png([(b"tEXt", b"carltographer_layout\0" + layout_json().encode())]))
    assert main(["import", str(p), "--out", str(tmp_path / "m.json")]) == 0
    assert (tmp_path / "m.json").exists()
    bad = tmp_path / "bad.png"
    bad.write_bytes(png([]))
    assert main(["import", str(bad), "--out", str(tmp_path / "n.json")]) == 1
    err = capsys.readouterr().err
    assert "bad.png: carltographer_layout: this PNG holds no Carltographer layout" in err
    assert "codec" not in err and "Traceback" not in err
