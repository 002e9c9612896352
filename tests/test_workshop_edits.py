"""The layout editor's command model (engine/workshop/edits/): exact inverses, unlimited undo
and redo, symmetry twins, locks, and a map the schema accepts after every edit."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.data.maps import CircleShape, MapFile, Marker, Piece, PolygonShape, WallShape, Zone, load_map
from engine.workshop import edits as E
from engine.workshop import shapes as S

LAYOUT = load_map(Path(__file__).parent / "data" / "layouts" / "take-and-hold-mirror-1.json")


def P(pid):
    return ("piece", pid)


def empty_map(mode="point", width=60.0, height=44.0) -> MapFile:
    """A bare table whose zones and objective are symmetric under ``mode``."""
    if mode == "mirror_y":
        z1 = [(0, 0), (width, 0), (width, 10), (0, 10)]
        z2 = [(0, height - 10), (width, height - 10), (width, height), (0, height)]
    else:
        z1 = [(0, 0), (12, 0), (12, height), (0, height)]
        z2 = [(width - 12, 0), (width, 0), (width, height), (width - 12, height)]
    return MapFile(schema_version=1, id="bare", name="Bare", unit="in", width=width, height=height,
                   deployment=[Zone(side=1, points=z1), Zone(side=2, points=z2)],
                   objectives=[Marker(id="centre", at=(width / 2, height / 2))])


def box(pid, x, y, w=4.0, h=2.0, kind="container", **kw) -> Piece:
    return Piece(id=pid, kind=kind, shape=PolygonShape(points=S.rect(x, y, x + w, y + h)), **kw)


def valid(m: MapFile) -> bool:
    MapFile.model_validate(m.model_dump())
    return True


# ----------------------------------------------------------------------------- single commands

def test_move_and_its_inverse_restore_the_very_shapes():
    m = LAYOUT
    pid = m.pieces[2].id
    e = E.Move((P(pid),), 0.1, 0.2)
    after = e.apply(m)
    moved = E.get_piece(after, pid).shape.points
    assert moved[0] == pytest.approx((m.pieces[2].shape.points[0][0] + 0.1, m.pieces[2].shape.points[0][1] + 0.2))
    back = e.inverse(m).apply(after)
    assert back == m
    # the pieces that did not move are the same objects (a renderer tells changes by identity)
    assert all(a is b for a, b in zip(m.pieces, after.pieces) if a.id != pid)


def test_rotating_four_times_by_90_degrees_is_exact():
    m = LAYOUT
    pid = m.pieces[3].id
    cur = m
    for _ in range(4):
        cur = E.Rotate((P(pid),), 90).apply(cur)
    assert cur == m            # exact sines and cosines for right angles


def test_rotate_turns_about_the_selection_centre_counter_clockwise():
    m = empty_map().model_copy(update={"pieces": [box("a", 10, 10, 4, 2)]})
    out = E.Rotate((P("a"),), 90).apply(m)
    # a 4x2 box centred on (12, 11) turned a quarter: 2 wide, 4 tall, same centre
    assert S.bounds(E.get_piece(out, "a").shape) == (11.0, 9.0, 13.0, 13.0)
    # counter-clockwise: the corner that was lower left is now lower right
    assert E.get_piece(out, "a").shape.points[0] == (13.0, 9.0)


def test_scale_keeps_a_walls_thickness_and_scales_a_circles_radius():
    m = empty_map().model_copy(update={"pieces": [
        Piece(id="w", kind="wall", shape=WallShape(a=(20, 20), b=(24, 20), thickness=0.5)),
        Piece(id="c", kind="tree", shape=CircleShape(center=(30, 30), radius=1.5))]})
    out = E.Scale((P("w"),), 2.0).apply(m)
    w = E.get_piece(out, "w").shape
    assert (w.a, w.b, w.thickness) == ((18.0, 20.0), (26.0, 20.0), 0.5)
    out = E.Scale((P("c"),), 2.0).apply(m)
    assert E.get_piece(out, "c").shape.radius == 3.0


def test_delete_and_undo_put_the_piece_back_in_its_place():
    m = LAYOUT
    ids = (m.pieces[0].id, m.pieces[7].id)
    e = E.DeletePieces(ids)
    after = e.apply(m)
    assert len(after.pieces) == len(m.pieces) - 2
    assert e.inverse(m).apply(after) == m        # same order, same objects


def test_set_fields_rename_and_their_inverse():
    m = LAYOUT
    pid = m.pieces[4].id
    e = E.SetFields(((pid, "height", 2.5), (pid, "id", "tower-a"), ("tower-a", "name", "Tower A")))
    after = e.apply(m)
    p = E.get_piece(after, "tower-a")
    assert (p.height, p.name) == (2.5, "Tower A")
    assert e.inverse(m).apply(after) == m
    with pytest.raises(E.EditRefused, match="already on the map"):
        E.SetFields(((pid, "id", m.pieces[0].id),)).apply(m)


def test_vertex_edits_and_their_inverses():
    m = empty_map().model_copy(update={"pieces": [box("a", 10, 10)]})
    for e in (E.MoveVertex(P("a"), 2, (15, 14)), E.InsertVertex(P("a"), 2, (14.5, 11)), E.DeleteVertex(P("a"), 0)):
        after = e.apply(m)
        assert after != m and e.inverse(m).apply(after) == m
    tri = E.DeleteVertex(P("a"), 0).apply(m)
    with pytest.raises(E.EditRefused, match="at least three"):
        E.DeleteVertex(P("a"), 0).apply(tri)


def test_markers_and_zones_are_edited_like_pieces():
    m = empty_map()
    e = E.Compound((E.Move((("objective", "centre"),), 2, 0), E.MoveVertex(("zone", 0), 1, (14, 0)),
                    E.AddMarkers("evac", (Marker(id="exit", at=(30, 1)),))), "mission")
    after = e.apply(m)
    assert after.objectives[0].at == (32.0, 22.0) and after.deployment[0].points[1] == (14.0, 0.0)
    assert after.evac_points[0].id == "exit"
    assert e.inverse(m).apply(after) == m


def test_unit_change_keeps_the_real_size_and_undoes_exactly():
    st_ = E.EditStack(LAYOUT)
    st_.do(E.ConvertUnit("cm"))
    assert st_.map.unit == "cm" and st_.map.width == pytest.approx(60 * 2.54)
    p0, q0 = LAYOUT.pieces[2], st_.map.pieces[2]
    assert q0.shape.points[0][0] == pytest.approx(p0.shape.points[0][0] * 2.54)
    assert q0.height == pytest.approx(p0.height * 2.54)
    st_.undo()
    assert st_.map == LAYOUT


# ----------------------------------------------------------------------------- the stack

def test_refused_edits_change_nothing_and_say_why():
    s = E.EditStack(LAYOUT)
    pid = LAYOUT.pieces[1].id
    with pytest.raises(E.EditRefused, match="entirely off"):
        s.do(E.Move((P(pid),), 200, 0))
    with pytest.raises(E.EditRefused, match="edges cross"):
        # dragging a corner of a rectangle across the opposite edge makes a bow tie
        s.do(E.MoveVertex(P(pid), 0, (10, 36)))
    assert s.map == LAYOUT and not s.done and not s.dirty


def test_locks_are_respected_by_every_moving_command_and_can_be_undone():
    s = E.EditStack(LAYOUT)
    pid = LAYOUT.pieces[5].id
    s.do(E.lock([pid]))
    before = s.map
    for e in (E.Move((P(pid),), 1, 0), E.Rotate((P(pid),), 15), E.Scale((P(pid),), 1.5),
              E.MoveVertex(P(pid), 0, (1, 1)), E.DeletePieces((pid,)), E.set_field([pid], "kind", "building"),
              E.Compound((E.Move((P(LAYOUT.pieces[0].id),), 1, 0), E.Move((P(pid),), 1, 0)), "group move")):
        with pytest.raises(E.EditRefused, match="locked"):
            s.do(e)
        assert s.map is before
    s.do(E.lock([pid], False))           # unlocking is not refused by the lock
    s.do(E.Move((P(pid),), 1, 0))
    s.undo(), s.undo(), s.undo()
    assert s.map == LAYOUT


def test_dirty_follows_the_saved_state_through_undo_and_redo():
    s = E.EditStack(LAYOUT)
    pid = LAYOUT.pieces[0].id
    s.do(E.Move((P(pid),), 1, 0))
    s.mark_saved()
    assert not s.dirty
    s.undo()
    assert s.dirty
    s.redo()
    assert not s.dirty                  # back to what was saved
    s.do(E.Move((P(pid),), 1, 0))
    assert s.dirty


def test_a_draft_may_lack_a_zone_but_the_save_check_refuses_it():
    s = E.EditStack(empty_map())
    s.do(E.DeleteZones((1,)))
    assert E.draft_problems(s.map) == []
    assert E.save_problems(s.map) == [("deployment", "List should have at least 2 items after validation, not 1")]
    # a second zone for side 1 passes the count but not the sides
    s.do(E.AddZones((Zone(side=1, points=[(20, 0), (30, 0), (30, 5)]),)))
    assert E.draft_problems(s.map) == []
    assert E.save_problems(s.map) == [("deployment", "needs zones for sides 1 and 2, has [1]")]


# ----------------------------------------------------------------------------- symmetry

@pytest.mark.parametrize("mode", ["mirror_x", "mirror_y", "point"])
def test_added_pieces_get_mirrored_twins_in_one_undo_step(mode):
    s = E.EditStack(empty_map(mode), symmetry=mode)
    s.do(E.AddPieces((box("crate", 14, 5, group="stack"),)))
    assert len(s.map.pieces) == 2 and E.unmatched(s.map, mode) == []
    twin = s.map.pieces[1]
    assert twin.group not in (None, "stack")          # its own group, mirrored
    s.do(E.Move((P("crate"),), 3, 2))
    s.do(E.Rotate((P("crate"),), 30))
    assert E.unmatched(s.map, mode) == []
    f = S.mirror_fn(mode, 60, 44)
    assert S.same_shape(S.transform_shape(E.get_piece(s.map, "crate").shape, f), E.get_piece(s.map, twin.id).shape, 1e-9)
    s.undo(), s.undo(), s.undo()
    assert s.map.pieces == []


def test_a_piece_on_the_mirror_line_moves_only_along_it():
    m = empty_map("mirror_x").model_copy(update={"pieces": [box("mid", 28, 10, 4, 2)]})
    s = E.EditStack(m, symmetry="mirror_x")
    assert E.counterpart(m, P("mid"), "mirror_x") == P("mid")
    s.do(E.Move((P("mid"),), 5, 3))
    assert S.bounds(E.get_piece(s.map, "mid").shape) == (28.0, 13.0, 32.0, 15.0)
    with pytest.raises(E.EditRefused, match="own mirror image"):
        s.do(E.Rotate((P("mid"),), 30))
    s.do(E.Rotate((P("mid"),), 180))
    s2 = E.EditStack(empty_map("point").model_copy(update={"pieces": [box("hub", 28, 21, 4, 2)]}), symmetry="point")
    with pytest.raises(E.EditRefused, match="own mirror image"):
        s2.do(E.Move((P("hub"),), 5, 3))


def test_shared_layout_is_point_symmetric_and_stays_so_under_edits():
    assert E.unmatched(LAYOUT, "point") == []
    s = E.EditStack(LAYOUT, symmetry="point")
    a, b = LAYOUT.pieces[2].id, LAYOUT.pieces[3].id    # a counterpart pair in the shared layout
    assert E.counterpart(LAYOUT, P(a), "point") == P(b)
    s.do(E.Move((P(a),), 2, 1))
    pb = E.get_piece(s.map, b).shape
    assert S.bounds(pb)[0] == pytest.approx(S.bounds(LAYOUT.pieces[3].shape)[0] - 2)
    s.do(E.DeletePieces((a,)))
    assert b not in {p.id for p in s.map.pieces}
    assert E.unmatched(s.map, "point") == []


def test_moving_both_counterparts_moves_each_once():
    s = E.EditStack(LAYOUT, symmetry="point")
    a, b = LAYOUT.pieces[2].id, LAYOUT.pieces[3].id
    s.do(E.Move((P(a), P(b)), 1, 0))
    pa, pb = E.get_piece(s.map, a).shape, E.get_piece(s.map, b).shape
    assert S.bounds(pa)[0] == pytest.approx(S.bounds(LAYOUT.pieces[2].shape)[0] + 1)
    assert S.bounds(pb)[0] == pytest.approx(S.bounds(LAYOUT.pieces[3].shape)[0] - 1)


# ----------------------------------------------------------------------------- properties

FIELD_VALUES = {
    "kind": st.sampled_from(["building", "ruin", "crate", "woods", "hill"]),
    "height": st.one_of(st.none(), st.floats(0, 12, allow_nan=False)),
    "blocks_sight": st.sampled_from([None, True, False]),
    "cover": st.sampled_from([None, "none", "light", "heavy"]),
    "name": st.text(max_size=8),
    "group": st.sampled_from([None, "g1", "g2"]),
    "locked": st.sampled_from([None, True]),
}

coord = st.floats(-8, 8, allow_nan=False).map(lambda v: round(v, 3))
op = st.one_of(
    st.tuples(st.just("move"), st.integers(0, 999), coord, coord),
    st.tuples(st.just("rotate"), st.integers(0, 999), st.sampled_from([15.0, 90.0, -45.0, 180.0, 7.5])),
    st.tuples(st.just("scale"), st.integers(0, 999), st.floats(0.5, 2.0)),
    st.tuples(st.just("field"), st.integers(0, 999), st.sampled_from(sorted(FIELD_VALUES)), st.data()),
    st.tuples(st.just("delete"), st.integers(0, 999)),
    st.tuples(st.just("copy"), st.integers(0, 999), coord, coord),
    st.tuples(st.just("vertex"), st.integers(0, 999), st.integers(0, 5), coord, coord),
    st.tuples(st.just("objective"), st.integers(0, 999), coord, coord),
    st.tuples(st.just("zone"), st.integers(0, 1), st.integers(0, 3), coord, coord),
    st.tuples(st.just("undo")),
)


def make_edit(m: MapFile, o) -> E.Edit | None:
    kind = o[0]
    if kind == "undo":
        return None
    if kind == "zone":
        _, zi, vi, dx, dy = o
        z = m.deployment[zi % len(m.deployment)]
        x, y = z.points[vi % len(z.points)]
        return E.MoveVertex(("zone", zi % len(m.deployment)), vi % len(z.points), (x + dx, y + dy))
    if kind == "objective":
        if not m.objectives:
            return None
        mk = m.objectives[o[1] % len(m.objectives)]
        return E.Move((("objective", mk.id),), o[2], o[3])
    if not m.pieces:
        return None
    p = m.pieces[o[1] % len(m.pieces)]
    if kind == "move":
        return E.Move((P(p.id),), o[2], o[3])
    if kind == "rotate":
        return E.Rotate((P(p.id),), o[2])
    if kind == "scale":
        return E.Scale((P(p.id),), o[2])
    if kind == "field":
        name, data = o[2], o[3]
        return E.set_field([p.id], name, data.draw(FIELD_VALUES[name]))
    if kind == "delete":
        return E.DeletePieces((p.id,))
    if kind == "copy":
        nid = E.new_id({q.id for q in m.pieces}, p.id)
        return E.AddPieces((p.model_copy(update={"id": nid, "shape": S.translate(p.shape, o[2], o[3])}),))
    if kind == "vertex":
        vs = S.vertices(p.shape)
        i = o[2] % len(vs)
        return E.MoveVertex(P(p.id), i, (vs[i][0] + o[3], vs[i][1] + o[4]))
    raise AssertionError(kind)


def run(stack: E.EditStack, ops) -> list[MapFile]:
    """Apply ``ops`` (refused edits are skipped); the map after each successful step."""
    states = [stack.map]
    for o in ops:
        if o[0] == "undo":
            # only what this run did (the stack may hold the set-up's own steps before it)
            if len(states) > 1 and stack.undo() is not None:
                states.pop()
            continue
        e = make_edit(stack.map, o)
        if e is None:
            continue
        try:
            stack.do(e)
        except E.EditRefused:
            continue
        states.append(stack.map)
        assert valid(stack.map)          # the schema accepts the map after every edit
    return states


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(op, min_size=1, max_size=25), mode=st.sampled_from([None, "mirror_x", "mirror_y", "point"]))
def test_undo_of_any_sequence_restores_the_exact_map_and_redo_the_exact_result(ops, mode):
    s = E.EditStack(LAYOUT, symmetry=mode)
    states = run(s, ops)
    final = s.map
    # undo step by step: each earlier map comes back exactly (==: every coordinate, every field)
    for want in reversed(states[:-1]):
        s.undo()
        assert s.map == want
    assert s.map == LAYOUT and s.undo() is None and not s.dirty
    for want in states[1:]:
        s.redo()
        assert s.map == want
    assert s.map == final


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(op, min_size=1, max_size=25), mode=st.sampled_from(["mirror_x", "mirror_y", "point"]),
       seeds=st.lists(st.tuples(st.floats(1, 50), st.floats(1, 36), st.floats(0.5, 6), st.floats(0.5, 6)),
                      min_size=1, max_size=4))
def test_symmetry_modes_keep_every_counterpart_in_step(ops, mode, seeds):
    s = E.EditStack(empty_map(mode), symmetry=mode)
    for i, (x, y, w, h) in enumerate(seeds):
        try:
            s.do(E.AddPieces((box(f"p{i}", round(x, 2), round(y, 2), round(w, 2), round(h, 2)),)))
        except E.EditRefused:
            pass
    run(s, ops)
    assert E.unmatched(s.map, mode, tol=1e-6) == []


def test_counterpart_search_on_all_shared_layouts_is_fast_enough():
    import time

    t0 = time.perf_counter()
    n = 0
    for p in LAYOUT.pieces:
        E.counterpart(LAYOUT, P(p.id), "point")
        n += 1
    per = (time.perf_counter() - t0) / n
    assert per < 0.01, f"{per * 1000:.2f} ms per counterpart search"


def test_describe_reads_as_words():
    e = E.Compound((E.Move((P("a"), P("b")), 1, 2), E.Rotate((P("a"),), 15)), "")
    assert e.describe() == "move a, b by (1, 2); turn a by 15 degrees"
    assert math.isclose(1.0, 1.0)
