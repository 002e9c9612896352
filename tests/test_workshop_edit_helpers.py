"""What the editor's Add and Delete commands share (engine/workshop/edits/items.py): one way to put
items in at their old places, one refusal of an id already taken or given twice, one refusal of
what is not there; and the undo stack's one step back or forth."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.data.maps import Marker, load_map
from engine.workshop import edits as E
from engine.workshop.edits.items import inserted, refuse_missing, refuse_taken

LAYOUT = load_map(Path(__file__).parent / "data" / "layouts" / "take-and-hold-mirror-1.json")


def test_inserted_puts_items_back_where_they_stood_or_at_the_end():
    assert inserted("abc", "xy", None) == ["a", "b", "c", "x", "y"]
    assert inserted("abc", "xy", (3, 0)) == ["y", "a", "b", "x", "c"]      # positions in the result
    old = ("a", "b")
    assert inserted(old, (), None) == ["a", "b"] and old == ("a", "b")       # a new list


def test_an_id_taken_or_given_twice_is_refused_and_a_missing_one_named():
    refuse_taken({"a"}, ["b", "c"], "a piece")
    with pytest.raises(E.EditRefused, match="^a piece 'a' is already on the map$"):
        refuse_taken({"a"}, ["b", "a"], "a piece")
    with pytest.raises(E.EditRefused, match="^an objective 'b' is already on the map$"):
        refuse_taken((), ["b", "b"], "an objective")
    refuse_missing({"a"}, ["a", "b"], "piece")
    with pytest.raises(E.EditRefused, match="^no evac 'c'$"):
        refuse_missing({"d", "c", "a"}, ["a"], "evac")


def test_every_add_refuses_a_taken_id_and_every_delete_a_missing_one():
    m = LAYOUT
    first = m.pieces[0]
    with pytest.raises(E.EditRefused, match=f"^a piece {first.id!r} is already on the map$"):
        E.AddPieces((first,)).apply(m)
    with pytest.raises(E.EditRefused, match="^an objective 'x' is already on the map$"):
        E.AddMarkers("objective", (Marker(id="x", at=(1, 1)), Marker(id="x", at=(2, 2)))).apply(m)
    with pytest.raises(E.EditRefused, match="^no piece 'nowhere'$"):
        E.DeletePieces(("nowhere",)).apply(m)
    with pytest.raises(E.EditRefused, match="^no evac 'nowhere'$"):
        E.DeleteMarkers((("evac", "nowhere"),)).apply(m)
    gone = E.DeleteZones((0,))
    assert gone.inverse(m).apply(gone.apply(m)) == m        # the zone back in its place


def test_undo_and_redo_walk_the_same_steps_and_versions():
    s = E.EditStack(LAYOUT)
    pid = LAYOUT.pieces[0].id
    versions = [s.version]
    maps = [s.map]
    for dx in (1, 2):
        s.do(E.Move((("piece", pid),), dx, 0))
        versions.append(s.version)
        maps.append(s.map)
    for i in (1, 0):
        assert s.undo() is not None and (s.map, s.version) == (maps[i], versions[i])
    assert s.undo() is None and s.version == versions[0]
    for i in (1, 2):
        assert s.redo() is not None and (s.map, s.version) == (maps[i], versions[i])
    assert s.redo() is None and s.version == versions[2]


def test_a_vertex_out_of_range_is_refused_by_each_corner_edit_and_an_insertion_may_go_last():
    m = LAYOUT.model_copy(update={"pieces": [p for p in LAYOUT.pieces if p.shape.type == "polygon"][:1]})
    key = ("piece", m.pieces[0].id)
    n = len(m.pieces[0].shape.points)
    for e in (E.MoveVertex(key, n, (1, 1)), E.MoveVertex(key, -1, (1, 1)), E.InsertVertex(key, n + 1, (1, 1)),
              E.DeleteVertex(key, n)):
        with pytest.raises(E.EditRefused, match=f"^{key[1]} has no vertex {e.index}$"):
            e.apply(m)
    last = E.InsertVertex(key, n, (1, 1))
    assert last.apply(m).pieces[0].shape.points[n] == (1.0, 1.0)
    assert (last.key, last.index, last.at) == (key, n, (1, 1))       # the fields, in their order
