"""One shared ``Table`` per distinct map: building the pymunk space and the path caches is the
costly part of a game's setup, and a table never changes, so every game on a map shares it."""
from __future__ import annotations

import atexit
import gc
import hashlib


def map_key(mapfile) -> str:
    return hashlib.blake2b(mapfile.model_dump_json().encode(), digest_size=12).hexdigest()


_TABLES: dict[str, object] = {}


@atexit.register
def _free_tables() -> None:
    """Free the tables' pymunk spaces while pymunk is still loaded (at interpreter shutdown
    its finalisers would otherwise run after the module is gone and print tracebacks)."""
    _TABLES.clear()
    gc.collect()


def table_for(mapfile):
    from engine.table import Table

    key = map_key(mapfile)
    t = _TABLES.get(key)
    if t is None:
        if len(_TABLES) > 16:
            _TABLES.clear()
        t = _TABLES[key] = Table(mapfile)
    return t


def table_without(mapfile, piece_ids):
    """The shared table of ``mapfile`` with the pieces ``piece_ids`` taken away (an opened door,
    a demolished wall): still one shared, immutable table per distinct layout."""
    gone = set(piece_ids)
    if not gone:
        return table_for(mapfile)
    return table_for(mapfile.model_copy(update={"pieces": [p for p in mapfile.pieces if p.id not in gone]}))
