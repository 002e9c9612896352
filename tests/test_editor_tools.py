"""The editor's tools on their own (issue 48): pointer input at table points in, the exact
``Edit`` commands (and the selection they choose) out, computed by hand. No window: a tool reads
an ``EditContext`` (here a plain 10 pixels per inch view, y up) and never changes the map; the
test applies what it returns to an ``EditStack`` where that is what is being checked."""
from __future__ import annotations

import pygame
import pytest

from engine.data.maps import Marker, Piece, PolygonShape, WallShape, Zone
from engine.workshop import catalog as C
from engine.workshop import edits as E
from engine.workshop import shapes as S
from game.editor.document import new_map
from game.editor.drag_tools import BoxSelectTool, MoveTool, RotateTool, ScaleTool, VertexTool
from game.editor.place_tools import MarkerTool, PlaceTool, RunTool, ZoneTool, tool_for
from game.editor.select_tool import SelectTool
from game.kit.edit_tool import Choose, EditContext, Lift
from game.kit.intents import Say

PX = 10.0                                            # pixels per inch
ALT, SHIFT = pygame.KMOD_ALT, pygame.KMOD_SHIFT


def square(pid, x0, y0, side=2.0, **kw):
    return Piece(id=pid, kind="crate", shape=PolygonShape(points=S.rect(x0, y0, x0 + side, y0 + side)), **kw)


def table(*pieces, unit="in"):
    m = new_map()
    if unit != "in":
        m = E.ConvertUnit(unit).apply(m)
    return E.EditStack(m.model_copy(update={"pieces": list(pieces)}))


def ctx(stack, selection=(), **kw):
    m = stack.map

    def pick(xy):
        for p in m.pieces:
            x0, y0, x1, y1 = S.bounds(p.shape)
            if x0 <= xy[0] <= x1 and y0 <= xy[1] <= y1:
                return ("piece", p.id)
        return None

    scale = kw.pop("scale", PX)
    return EditContext(map=m, stack=stack, selection=tuple(selection), grid=0.5, snap_on=True, scale=scale,
                       to_screen=lambda x, y: (x * scale, (m.height - y) * scale), pick=pick, **kw)


def scr(c, x, y):
    sx, sy = c.to_screen(x, y)
    return round(sx), round(sy)


def gesture(tool, c, a, b, mods=0, steps=3):
    """Press at table point ``a``, drag to ``b`` in ``steps``, release there: everything the tool
    returned, in order."""
    out = list(tool.press(a, scr(c, *a), 1, mods) or [])
    for i in range(1, steps + 1):
        p = (a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
        out += tool.drag(p, scr(c, *p), mods) or []
    out += tool.release(b, scr(c, *b), 1, mods) or []
    return out


def edits(out):
    return [x for x in out if isinstance(x, E.Edit)]


CRATE = ("piece", "crate")


# ----------------------------------------------------------------------------- select and move

def test_a_click_selects_and_changes_nothing():
    st = table(square("crate", 10, 10))
    c = ctx(st)
    out = gesture(SelectTool(c), c, (11, 11), (11, 11))
    assert out == [Choose((CRATE,))]                 # no drag, no edit


def test_shift_click_adds_and_removes():
    st = table(square("crate", 10, 10), square("box", 20, 10))
    c = ctx(st, [CRATE])
    assert SelectTool(c).press((21, 11), scr(c, 21, 11), 1, SHIFT) == [Choose((CRATE, ("piece", "box")))]
    assert SelectTool(c).press((11, 11), scr(c, 11, 11), 1, SHIFT) == [Choose(())]


def test_a_drag_of_two_inches_right_moves_by_exactly_50_8_mm():
    st = table(square("crate", 10, 10))
    c = ctx(st, [CRATE])
    out = gesture(SelectTool(c), c, (11, 11), (13, 11), mods=ALT)     # free: as the pointer goes
    assert out == [Lift(frozenset({CRATE})), E.Move((CRATE,), 2.0, 0.0)]
    st.do(edits(out)[0])
    x0 = S.bounds(E.get_piece(st.map, "crate").shape)[0]
    assert (x0 - 10) * st.map.mm_per_unit == pytest.approx(50.8)
    # the same drag on a millimetre table: 50.8 units of 1 mm
    st = table(square("crate", 254, 254, 50.8), unit="mm")
    c = ctx(st, [CRATE], scale=PX / 25.4)
    out = gesture(MoveTool(c, (270, 270), scr(c, 270, 270)), c, (270, 270), (320.8, 270), mods=ALT)
    assert edits(out) == [E.Move((CRATE,), pytest.approx(50.8), 0.0)]


def test_a_snapped_move_puts_the_lower_left_corner_on_the_grid():
    st = table(square("crate", 10, 10))
    c = ctx(st, [CRATE])
    # raw (2.3, 0.2): the corner (12.3, 10.2) goes to the nearest half inch (12.5, 10.0)
    assert edits(gesture(SelectTool(c), c, (11, 11), (13.3, 11.2))) == [E.Move((CRATE,), 2.5, 0.0)]


def test_a_press_on_an_unselected_piece_selects_it_with_its_group_then_moves_them():
    st = table(square("crate", 10, 10, group="g"), square("box", 20, 10, group="g"), square("lone", 30, 30))
    c = ctx(st)
    out = gesture(SelectTool(c), c, (11, 11), (12, 12), mods=ALT)
    both = (CRATE, ("piece", "box"))
    assert out[0] == Choose(both) and edits(out) == [E.Move(both, 1.0, 1.0)]


def test_a_locked_piece_refuses_the_drag_before_anything_moves():
    st = table(square("crate", 10, 10, locked=True))
    c = ctx(st, [CRATE])
    out = gesture(SelectTool(c), c, (11, 11), (15, 11))
    assert edits(out) == [] and out[-1] == Say("refused: crate is locked (unlock first)", True)


def test_less_than_four_pixels_is_a_click_not_a_drag():
    st = table(square("crate", 10, 10))
    c = ctx(st, [CRATE])
    assert gesture(SelectTool(c), c, (11, 11), (11.3, 11), mods=ALT) == []   # 3 pixels


# ----------------------------------------------------------------------------- box select

def test_box_select_picks_the_items_whose_footprint_centre_lies_in_the_box():
    st = table(square("a", 10, 10), square("b", 20, 10), square("c", 30, 30), square("d", 24, 14, side=4))
    c = ctx(st, [("piece", "c")])
    # the box (5, 5)-(25, 15): a (centre 11, 11) and b (21, 11) in; d's centre (26, 16) out though it
    # overlaps the box; c far off; the objective at the table's centre (30, 22) out
    out = gesture(SelectTool(c), c, (5, 5), (25, 15))
    assert out == [Choose((("piece", "a"), ("piece", "b")))]
    # Shift: added to the selection
    out = gesture(BoxSelectTool(c, (5, 5), scr(c, 5, 5), add=True), c, (5, 5), (25, 15))
    assert out == [Choose((("piece", "c"), ("piece", "a"), ("piece", "b")))]
    # a box round the centre takes the objective marker, never a zone
    out = gesture(SelectTool(c), c, (28, 20), (32, 24))
    assert out == [Choose((("objective", "centre"),))]


def test_a_click_on_the_empty_table_selects_nothing_unless_shift():
    st = table(square("a", 10, 10))
    c = ctx(st, [("piece", "a")])
    assert gesture(SelectTool(c), c, (40, 5), (40, 5)) == [Choose(())]
    assert gesture(SelectTool(c), c, (40, 5), (40, 5), mods=SHIFT) == []


# ----------------------------------------------------------------------------- rotate and scale

def turn_handle(c):
    return SelectTool(c).handles()[0]


def test_rotate_by_the_angle_between_the_press_and_release_vectors():
    st = table(square("crate", 10, 10))
    c = ctx(st, [CRATE])
    t = SelectTool(c)
    hx, hy = turn_handle(c)                       # above the box: (110, 298) on the screen
    assert (hx, hy) == (110.0, 298.0)
    a = (hx / PX, st.map.height - hy / PX)        # (11, 14.2): straight up from the centre (11, 11)
    b = (11 - 3.2, 11 + 3.2)                      # up and left: 135 degrees against 90
    out = t.press(a, (hx, hy), 1, ALT)
    assert out == [Lift(frozenset({CRATE}))] and isinstance(t.sub, RotateTool)
    t.drag(b, scr(c, *b), ALT)
    # atan2 of (-3.2, 3.2) is 135 degrees up to the last bit of a float
    assert t.release(b, scr(c, *b), 1, ALT) == [E.Rotate((CRATE,), pytest.approx(45.0, abs=1e-12), (11.0, 11.0))]
    # snapped: a pointer at 50 degrees from the press turns by 45 (15-degree steps)
    import math
    b = (11 + 3 * math.cos(math.radians(140)), 11 + 3 * math.sin(math.radians(140)))
    t.press(a, (hx, hy), 1, 0)
    t.drag(b, scr(c, *b), 0)
    assert t.release(b, scr(c, *b), 1, 0) == [E.Rotate((CRATE,), 45.0, (11.0, 11.0))]


def test_scale_by_the_ratio_of_the_distances_from_the_centre():
    st = table(square("crate", 10, 10))
    c = ctx(st, [CRATE])
    t = SelectTool(c)
    sx, sy = t.handles()[1]                       # below right of the box: (128, 348)
    assert (sx, sy) == (128.0, 348.0)
    a = (12.8, 9.2)                               # 1.8" right and down of the centre (11, 11)
    b = (14.6, 7.4)                               # twice as far: x2, the 2" width becomes 4" (on the grid)
    assert t.press(a, (sx, sy), 1, 0) == [Lift(frozenset({CRATE}))] and isinstance(t.sub, ScaleTool)
    t.drag(b, scr(c, *b), 0)
    assert t.release(b, scr(c, *b), 1, 0) == [E.Scale((CRATE,), 2.0, None, (11.0, 11.0))]


# ----------------------------------------------------------------------------- vertices

def test_drag_a_zone_corner_to_the_grid():
    st = table()
    zone = ("zone", 0)                            # side 1's zone: (0, 0) (12, 0) (12, 44) (0, 44)
    c = ctx(st, [zone])
    t = SelectTool(c)
    out = t.press((12, 0), scr(c, 12, 0), 1, 0)
    assert isinstance(t.sub, VertexTool) and (t.sub.key, t.sub.index) == (zone, 1)
    assert out == [Lift(frozenset({zone}))]
    t.drag((14.3, 0.2), scr(c, 14.3, 0.2), 0)
    assert t.release((14.3, 0.2), scr(c, 14.3, 0.2), 1, 0) == [E.MoveVertex(zone, 1, (14.5, 0.0))]


def test_corners_of_a_piece_only_in_corner_mode_and_insert_on_the_nearest_side():
    st = table(square("crate", 10, 10))
    c = ctx(st, [CRATE])
    t = SelectTool(c)
    t.press((10, 10), scr(c, 10, 10), 1, 0)
    assert isinstance(t.sub, MoveTool)            # not corner mode: a press on the corner moves it
    c = ctx(st, [CRATE], vertex_mode=True)
    t = SelectTool(c)
    t.press((10, 10), scr(c, 10, 10), 1, 0)
    assert isinstance(t.sub, VertexTool) and t.sub.index == 0
    # Insert: a corner on the side nearest the pointer (the bottom side, after corner 0), snapped
    t = SelectTool(c)
    t.hover((11.2, 9.9), scr(c, 11.2, 9.9))
    assert t.key(pygame.K_INSERT, 0) == [E.InsertVertex(CRATE, 1, (11.0, 10.0))]
    t.hover((12, 12), scr(c, 12, 12))              # Backspace: the corner under the pointer goes
    assert t.key(pygame.K_BACKSPACE, 0) == [E.DeleteVertex(CRATE, 2)]


# ----------------------------------------------------------------------------- placing

def test_place_a_template_at_the_snapped_click():
    st = table()
    c = ctx(st)
    cat = C.load_catalog()
    tid = next(t.id for sec in cat.sections().values() for t, _ in sec if t.name == "Ruin with walls")
    tool = tool_for(("template", tid), cat, c)
    assert isinstance(tool, PlaceTool)
    out = tool.press((20.2, 15.1), scr(c, 20.2, 15.1), 1, 0)
    add, choose = out
    assert isinstance(add, E.AddPieces) and len(add.pieces) == 3 and len({p.group for p in add.pieces}) == 1
    floor = next(p for p in add.pieces if p.name == "Ruin floor")
    assert S.bounds(floor.shape) == (15.0, 12.0, 25.0, 18.0)       # its origin on (20, 15)
    assert choose == Choose((("piece", add.pieces[0].id),), grouped=True) and tool.done
    # R turns the next one 15 degrees; Shift keeps the tool
    tool = tool_for(("template", tid), cat, c)
    tool.key(pygame.K_r, 0)
    assert tool.angle == 15.0
    tool.press((20, 15), scr(c, 20, 15), 1, SHIFT)
    assert not tool.done


def test_place_a_marker_and_a_zone():
    st = table()
    c = ctx(st)
    out = MarkerTool(c, "objective").press((15.2, 29.9), scr(c, 15.2, 29.9), 1, 0)
    assert out == [E.AddMarkers("objective", (Marker(id="objective", at=(15.0, 30.0)),)),
                   Choose((("objective", "objective"),))]
    # a zone a fifth of the 60 x 44" table (12 x 8.8"), kept on the table: from (48, 35.2)
    out = ZoneTool(c, 2).press((50, 40), scr(c, 50, 40), 1, 0)
    assert out == [E.AddZones((Zone(side=2, points=S.rect(48.0, 35.2, 60.0, 44.0)),)), Choose((("zone", -1),))]


def test_draw_a_wall_run_point_by_point():
    st = table()
    c = ctx(st)
    t = RunTool(c, "wall")
    for p in ((10.1, 10), (20, 10.2), (20, 20)):
        assert t.press(p, scr(c, *p), 1, 0) == []
    out = t.key(pygame.K_RETURN, 0)
    wall = dict(kind="wall", name="Wall run", group="wall-run")
    assert out == [E.AddPieces((
        Piece(id="wall", shape=WallShape(a=(10.0, 10.0), b=(20.0, 10.0), thickness=0.5), **wall),
        Piece(id="wall-2", shape=WallShape(a=(20.0, 10.0), b=(20.0, 20.0), thickness=0.5), **wall))),
        Choose((("piece", "wall"), ("piece", "wall-2")))] and t.done
    # one segment: no group; a click on the last point ends it too
    t = RunTool(c, "fence")
    t.press((10, 10), scr(c, 10, 10), 1, 0)
    t.press((14, 10), scr(c, 14, 10), 1, 0)
    out = t.press((14, 10), scr(c, 14, 10), 1, 0)
    assert edits(out) == [E.AddPieces((Piece(id="fence", kind="fence", name="Fence run",
                                             shape=WallShape(a=(10.0, 10.0), b=(14.0, 10.0), thickness=0.2)),))]


def test_a_tool_never_changes_the_map():
    st = table(square("crate", 10, 10))
    before, version = st.map, st.version
    c = ctx(st, [CRATE])
    gesture(SelectTool(c), c, (11, 11), (15, 12))
    gesture(SelectTool(c), c, (5, 5), (25, 15))
    MarkerTool(c, "evac").press((5, 5), scr(c, 5, 5), 1, 0)
    assert st.map is before and st.version == version
