"""A Carltographer layout saved as a PNG (issue 62): its GUI saves the rendered picture with the
layout's JSON in a PNG text chunk under the keyword ``carltographer_layout`` (``tEXt``, or
``iTXt`` when the text is not Latin-1). This reads the chunks itself, by the PNG specification
(W3C, "Portable Network Graphics (PNG) Specification", 2nd ed., sections 5 and 11.3.4): the
signature, then length / type / data / CRC-32 chunks up to ``IEND``; ``tEXt`` (keyword, NUL,
Latin-1 text), ``zTXt`` (keyword, NUL, method 0, zlib data) and ``iTXt`` (keyword, NUL, flag,
method, language, NUL, translated keyword, NUL, UTF-8 text, zlib-compressed when the flag is 1).
Every fault is a ``DataError`` naming the file, the chunk and the reason, never a codec error."""
from __future__ import annotations

import struct
import zlib
from pathlib import Path

from engine.data.errors import DataError

SIGNATURE = b"\x89PNG\r\n\x1a\n"
KEY = "carltographer_layout"
MAX_FILE = 64 * 1024 * 1024          # a layout picture is a few hundred kB
MAX_TEXT = 16 * 1024 * 1024          # decompressed: a layout's JSON is tens of kB


def is_png(path: str | Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(8) == SIGNATURE
    except OSError:
        return False


def _inflate(data: bytes, path, where: str) -> bytes:
    d = zlib.decompressobj()
    try:
        out = d.decompress(data, MAX_TEXT + 1)
    except zlib.error as err:
        raise DataError(path, [(where, f"its compressed text is damaged ({err})")]) from None
    if len(out) > MAX_TEXT or d.unconsumed_tail:
        raise DataError(path, [(where, f"its text is longer than {MAX_TEXT // (1024 * 1024)} MB once inflated")])
    return out


def text_chunks(path: str | Path) -> dict[str, str]:
    """Every text chunk of the PNG at ``path``, keyword -> text (the first of a keyword wins)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE:
            raise DataError(path, [("", f"{size:,} bytes: larger than a layout picture can be ({MAX_FILE:,})")])
        blob = path.read_bytes()
    except OSError as err:
        raise DataError(path, [("", f"cannot read it: {err.strerror or err}")]) from None
    if blob[:8] != SIGNATURE:
        raise DataError(path, [("", "not a PNG file (its first bytes are not the PNG signature)")])
    out: dict[str, str] = {}
    pos, n = 8, 0
    while True:
        where = f"PNG chunk {n} at byte {pos}"
        if pos + 8 > len(blob):
            raise DataError(path, [(where, "the file ends before its IEND chunk: it is cut short")])
        length, ctype = struct.unpack(">I4s", blob[pos:pos + 8])
        name = ctype.decode("latin-1")
        where = f"PNG chunk {n} ({name}) at byte {pos}"
        end = pos + 8 + length
        if length > 2 ** 31 - 1 or end + 4 > len(blob):
            raise DataError(path, [(where, f"its length ({length:,} bytes) runs past the end of the file: it is cut short or damaged")])
        data = blob[pos + 8:end]
        (crc,) = struct.unpack(">I", blob[end:end + 4])
        if zlib.crc32(ctype + data) & 0xFFFFFFFF != crc:
            raise DataError(path, [(where, "its CRC does not match: the file is damaged")])
        if name == "IEND":
            return out
        if name in ("tEXt", "zTXt", "iTXt"):
            key, text = _text(name, data, path, where)
            out.setdefault(key, text)
        pos, n = end + 4, n + 1


def _text(name: str, data: bytes, path, where: str) -> tuple[str, str]:
    key, sep, rest = data.partition(b"\0")
    if not sep or not 1 <= len(key) <= 79:
        raise DataError(path, [(where, "no keyword of 1-79 bytes before a NUL")])
    keyword = key.decode("latin-1")
    try:
        if name == "tEXt":
            return keyword, rest.decode("latin-1")
        if name == "zTXt":
            if rest[:1] != b"\0":
                raise DataError(path, [(where, "compression method is not 0 (zlib)")])
            return keyword, _inflate(rest[1:], path, where).decode("latin-1")
        if len(rest) < 2:
            raise DataError(path, [(where, "no compression flag and method")])
        flag, method, rest = rest[0], rest[1], rest[2:]
        _lang, s1, rest = rest.partition(b"\0")
        _tkey, s2, text = rest.partition(b"\0")
        if not (s1 and s2):
            raise DataError(path, [(where, "its language tag or translated keyword is not NUL-terminated")])
        if flag == 1:
            if method != 0:
                raise DataError(path, [(where, "compression method is not 0 (zlib)")])
            text = _inflate(text, path, where)
        return keyword, text.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DataError(path, [(where, f"its text is not {'UTF-8' if name == 'iTXt' else 'Latin-1'} "
                                       f"(byte {err.start})")]) from None


def layout_text(path: str | Path) -> str:
    """The layout JSON a Carltographer PNG holds, or ``DataError`` saying why there is none."""
    chunks = text_chunks(path)
    if KEY not in chunks:
        have = ", ".join(sorted(chunks)[:5]) or "none"
        raise DataError(path, [(KEY, f"this PNG holds no Carltographer layout: no '{KEY}' text chunk "
                                     f"(text chunks: {have}); save it from Carltographer's Save button")])
    return chunks[KEY]
