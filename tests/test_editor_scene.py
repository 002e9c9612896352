"""The layout editor driven headless with synthetic mouse and key events (SDL dummy drivers):
placing, dragging with snapping, turning, mirror mode, locks, undo and redo, saving."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pygame
import pytest
from client_helpers import (  # noqa: F401
    app_fixture,
    click,
    drag,
    editor,
    frame,
    key,
    palette_click,
    place,
    show_launcher,
    world_px,
)
from client_helpers import motion as _motion

from engine.data.maps import MapFile, load_map
from engine.workshop import edits as E
from engine.workshop import shapes as S

app = app_fixture(close_scene=True)      # the editor's analysis worker is stopped at the end


def motion(pos, buttons=(0, 0, 0)):
    return _motion(pos, buttons, rel=(0, 0))


LAYOUTS = Path(__file__).parent / "data" / "layouts"


# ----------------------------------------------------------------------------- placing, dragging

def test_place_a_template_then_drag_it_with_grid_snapping(app):
    scene = editor(app)
    n0 = len(scene.map.pieces)
    place(app, scene, "Ruin with walls", (20.2, 15.1))
    ruin = [p for p in scene.map.pieces if p.group]
    assert len(scene.map.pieces) == n0 + 3 and len(ruin) == 3 and len({p.group for p in ruin}) == 1
    # placed on the grid: the click (20.2, 15.1) snaps to (20, 15), the template's origin
    floor = next(p for p in ruin if p.name == "Ruin floor")
    assert S.bounds(floor.shape) == (15.0, 12.0, 25.0, 18.0)
    assert sorted(scene.state.selection) == sorted(("piece", p.id) for p in ruin)
    before = S.bounds(floor.shape)
    # drag the ruin by about (3.3", 3.2"), away from any edge or centre line: its lower left
    # corner lands on the 0.5" grid
    a = world_px(scene, 20.0, 15.0)
    b = world_px(scene, 23.3, 18.2)
    drag(app, a, b)
    moved = next(p for p in scene.map.pieces if p.id == floor.id)
    x0, y0, _, _ = S.bounds(moved.shape)
    raw_dx = scene.world(b)[0] - scene.world(a)[0]
    raw_dy = scene.world(b)[1] - scene.world(a)[1]
    assert x0 == round((before[0] + raw_dx) * 2) / 2 and y0 == round((before[1] + raw_dy) * 2) / 2
    assert x0 != before[0] + raw_dx          # it did snap (the raw move is not on the grid)
    # the whole group moved together, as one undo step
    assert all(S.bounds(E.get_piece(scene.map, p.id).shape)[0] == pytest.approx(S.bounds(p.shape)[0] + (x0 - before[0]))
               for p in ruin)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert S.bounds(E.get_piece(scene.map, floor.id).shape) == before
    # near the table's centre line the right edge aligns with it instead (an alignment guide)
    a = world_px(scene, 20.0, 15.0)
    b = world_px(scene, 25.2, 15.0)
    scene.table.select.sub = None
    pygame.key.set_mods(0)
    frame(app, [motion(a), pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1)])
    frame(app, [motion(b, (1, 0, 0))], n=0)
    assert ("x", 30.0) in scene.table.select.sub.guides
    assert [m.what for m in scene.table.select.sub.measures][:2] == ["edge", "edge"]
    frame(app, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1)])
    assert S.bounds(E.get_piece(scene.map, floor.id).shape)[2] == 30.0


def test_alt_places_freely(app):
    scene = editor(app)
    place(app, scene, "Crate", (20.0, 15.0))
    pid = scene.state.selection[0][1]
    b0 = S.bounds(E.get_piece(scene.map, pid).shape)
    a, b = world_px(scene, 20.0, 15.0), world_px(scene, 23.37, 16.21)
    drag(app, a, b, mods=pygame.KMOD_ALT)
    b1 = S.bounds(E.get_piece(scene.map, pid).shape)
    raw = scene.world(b)[0] - scene.world(a)[0]
    assert b1[0] == pytest.approx(b0[0] + raw, abs=1e-9)


def test_rotate_with_the_key_and_the_handle(app):
    scene = editor(app)
    place(app, scene, "Container", (20.0, 20.0))        # a 5 x 2.5" box
    pid = scene.state.selection[0][1]
    key(app, pygame.K_r)
    p = E.get_piece(scene.map, pid)
    x0, y0, x1, y1 = S.bounds(p.shape)
    # a 5 x 2.5 rectangle turned 15 degrees: its box is 5 cos15 + 2.5 sin15 wide
    assert x1 - x0 == pytest.approx(5 * math.cos(math.radians(15)) + 2.5 * math.sin(math.radians(15)))
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    # drag the round handle a quarter turn round the centre: 90 degrees (snapped)
    turn, _ = scene.input.handles()
    c = scene.to_screen(20.0, 20.0)
    r = math.dist(turn, c)
    target = (round(c[0] - r), round(c[1]))         # from above the centre to its left: +90 degrees
    drag(app, (round(turn[0]), round(turn[1])), target, steps=12)
    x0, y0, x1, y1 = S.bounds(E.get_piece(scene.map, pid).shape)
    assert (x1 - x0, y1 - y0) == pytest.approx((2.5, 5.0))


def test_mirror_mode_keeps_the_counterpart(app):
    scene = editor(app)
    key(app, pygame.K_m)                            # off -> mirror left-right
    assert scene.stack.symmetry == "mirror_x"
    place(app, scene, "Building", (14.0, 30.0))
    assert len(scene.map.pieces) == 2
    mine = E.get_piece(scene.map, scene.state.selection[0][1])
    twin = next(p for p in scene.map.pieces if p.id != mine.id)
    assert S.same_shape(S.mirror(mine.shape, "mirror_x", 60, 44), twin.shape, 1e-9)
    drag(app, world_px(scene, 14.0, 30.0), world_px(scene, 18.0, 25.0))
    mine, twin = E.get_piece(scene.map, mine.id), E.get_piece(scene.map, twin.id)
    assert S.bounds(mine.shape)[0] == pytest.approx(15.0)          # moved right
    assert S.same_shape(S.mirror(mine.shape, "mirror_x", 60, 44), twin.shape, 1e-9)
    assert E.unmatched(scene.map, "mirror_x") == []
    # one undo step takes both back
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert S.bounds(E.get_piece(scene.map, mine.id).shape)[0] == pytest.approx(11.0)
    assert E.unmatched(scene.map, "mirror_x") == []


def test_lock_stops_a_drag(app):
    scene = editor(app)
    place(app, scene, "Building", (20.0, 20.0))
    pid = scene.state.selection[0][1]
    key(app, pygame.K_l)
    assert E.get_piece(scene.map, pid).locked
    before = scene.map
    drag(app, world_px(scene, 20.0, 20.0), world_px(scene, 30.0, 25.0))
    assert scene.map is before
    assert any("locked" in m[0] for m in scene.state.messages)
    key(app, pygame.K_r)
    key(app, pygame.K_DELETE)
    assert scene.map is before                      # nor turns nor deletes it


def test_undo_and_redo_restore_the_exact_map(app):
    m0 = load_map(LAYOUTS / "take-and-hold-mirror-1.json")
    scene = editor(app, m0)
    states = [scene.map]
    p = m0.pieces[6]
    cx, cy = S.centre(p.shape)
    hit = scene.item_at((cx, cy))
    assert hit is not None
    click(app, world_px(scene, cx, cy))
    drag(app, world_px(scene, cx, cy), world_px(scene, cx + 3.1, cy - 2.2))
    states.append(scene.map)
    key(app, pygame.K_r)
    states.append(scene.map)
    key(app, pygame.K_DELETE)
    states.append(scene.map)
    place(app, scene, "Forest", (30.0, 5.0))
    states.append(scene.map)
    assert len({id(s) for s in states}) == 5
    for want in reversed(states[:-1]):
        key(app, pygame.K_z, pygame.KMOD_CTRL)
        assert scene.map == want
    assert scene.map == m0 and not scene.state.doc.dirty
    for want in states[1:]:
        key(app, pygame.K_y, pygame.KMOD_CTRL)
        assert scene.map == want


def test_box_select_shift_click_copy_and_paste(app):
    scene = editor(app)
    place(app, scene, "Crate", (20.0, 20.0))
    place(app, scene, "Barrel", (24.0, 20.0))
    click(app, world_px(scene, 40.0, 35.0))         # empty table: nothing selected
    assert scene.state.selection == []
    drag(app, world_px(scene, 18.0, 23.0), world_px(scene, 26.0, 18.0))
    assert len(scene.state.selection) == 2
    click(app, world_px(scene, 24.0, 20.0), mods=pygame.KMOD_SHIFT)
    assert len(scene.state.selection) == 1
    key(app, pygame.K_c, pygame.KMOD_CTRL)
    frame(app, [motion(world_px(scene, 40.0, 10.0))])
    key(app, pygame.K_v, pygame.KMOD_CTRL)
    assert len(scene.map.pieces) == 3
    new = E.get_piece(scene.map, scene.state.selection[0][1])
    assert S.centre(new.shape) == pytest.approx((40.0, 10.0), abs=0.51)


def test_property_panel_validates_as_you_type(app):
    scene = editor(app)
    place(app, scene, "Building", (20.0, 20.0))
    pid = scene.state.selection[0][1]
    entry = scene.properties.form.entries["height"]
    click(app, entry.rect.center)
    for ch in "4x":
        frame(app, [pygame.event.Event(pygame.TEXTINPUT, text=ch)])
    assert "not a number" in scene.properties.form.problem
    assert E.get_piece(scene.map, pid).height is None          # nothing applied
    frame(app, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="", scancode=0)])
    assert scene.properties.form.problem == ""
    frame(app, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)])
    assert E.get_piece(scene.map, pid).height == 4.0


# ----------------------------------------------------------------------------- saving, quitting

def test_a_refused_save_keeps_the_state_and_says_file_field_reason(app, tmp_path):
    scene = editor(app)
    place(app, scene, "Building", (30.0, 20.0))
    # select side 2's zone by its border and delete it: a draft may lack a zone
    z = scene.map.deployment[1]
    x = z.points[0][0]
    click(app, world_px(scene, x, 10.0))
    assert scene.state.selection == [("zone", 1)]
    key(app, pygame.K_DELETE)
    assert len(scene.map.deployment) == 1
    before, version = scene.map, scene.stack.version
    target = tmp_path / "mine.json"
    assert not scene.files.save(target)
    assert scene.map is before and scene.stack.version == version and scene.state.doc.dirty
    assert not target.exists()
    assert scene.state.save_lines and scene.state.save_lines[0].startswith(f"{target}: deployment: ")
    # a folder that does not exist: refused the same way, nothing written
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert not scene.files.save(tmp_path / "nowhere" / "mine.json")
    assert "does not exist" in scene.state.save_lines[0]


def test_the_saved_file_validates_and_plays_in_simulate(app, tmp_path, capsys):
    from game.cli import main

    scene = editor(app)
    place(app, scene, "Ruin with walls", (30.0, 22.0))
    place(app, scene, "Forest", (15.0, 10.0))
    place(app, scene, "Container stack", (45.0, 34.0))
    out = tmp_path / "editor-made.json"
    assert scene.files.save(out), scene.state.save_lines
    assert not scene.state.doc.dirty
    assert main(["validate", str(out)]) == 0
    assert main(["simulate", "--ruleset", "frontier", "--map", str(out), "--games", "2", "--p1", "random",
                 "--p2", "random", "--json"]) == 0
    res = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert res["games"] == 2 and res["errors"] == 0
    assert MapFile.model_validate_json(out.read_text()) == scene.map


def test_quitting_with_unsaved_changes_asks_first(app):
    scene = editor(app)
    place(app, scene, "Crate", (20.0, 20.0))
    frame(app, [pygame.event.Event(pygame.QUIT)])
    assert app.running and scene.dialogs.dialog is not None
    discard = next(b for b, a in scene.dialogs.dialog.buttons.items() if a == "Discard")
    click(app, discard.rect.center)
    assert not app.running


def test_play_opens_the_launcher_with_this_layout(app):
    from game.scenes.launcher import LauncherScene
    from game.scenes.play import PlayScene

    scene = editor(app)
    place(app, scene, "Building", (30.0, 22.0))
    click(app, scene.toolbar.buttons["play"].rect.center)
    assert isinstance(app.scene, LauncherScene)
    launcher = app.scene
    assert launcher.maps[launcher.settings.map] == scene.map
    click(app, launcher.start.rect.center)
    assert isinstance(app.scene, PlayScene)
    assert app.scene.state.session.game.setup.map == scene.map


def test_live_analysis_follows_each_drop(app):
    scene = editor(app, load_map(LAYOUTS / "take-and-hold-mirror-1.json"))
    assert scene.state.live is not None and not scene.state.live.coarse and scene.state.live.version == scene.stack.version
    los0 = scene.state.live.metrics["overall_los_pct"]
    p = next(p for p in scene.map.pieces if p.prop("blocks_sight") and p.height_mm("in") > 30
             and scene.item_at(S.centre(p.shape)) == ("piece", p.id))
    cx, cy = S.centre(p.shape)
    click(app, world_px(scene, cx, cy))
    key(app, pygame.K_DELETE)
    frame(app)
    assert p.id not in {q.id for q in scene.map.pieces}
    assert scene.state.live.version == scene.stack.version and not scene.state.live.coarse
    assert scene.state.live.metrics["overall_los_pct"] > los0          # a tall piece gone: more sight
    assert scene.state.baseline is not None and scene.state.baseline.metrics["overall_los_pct"] == los0


# ----------------------------------------------------------------------------- more tools

def test_draw_a_fence_run_point_by_point(app):
    scene = editor(app)
    palette_click(app, scene, "Draw a fence run")
    for pt in ((20.0, 10.0), (26.0, 10.0), (26.0, 16.0)):
        click(app, world_px(scene, *pt))
    key(app, pygame.K_RETURN, unicode="\r")
    fences = [p for p in scene.map.pieces if p.kind == "fence"]
    assert [(p.shape.a, p.shape.b) for p in fences] == [((20.0, 10.0), (26.0, 10.0)), ((26.0, 10.0), (26.0, 16.0))]
    assert len({p.group for p in fences}) == 1 and scene.table.tool is None


def test_drag_a_corner_in_corner_mode_and_a_zone_corner(app):
    scene = editor(app)
    place(app, scene, "Container", (20.0, 20.0))     # 5 x 2.5: corners (17.5, 18.75) ...
    pid = scene.state.selection[0][1]
    key(app, pygame.K_v)
    p = E.get_piece(scene.map, pid)
    c = p.shape.points[2]
    # a corner lands on the grid: (22.5, 21.25) dragged by about (1, 1.8) goes to (23.5, 23)
    drag(app, world_px(scene, *c), world_px(scene, c[0] + 1.0, c[1] + 1.8))
    assert c == (22.5, 21.25) and E.get_piece(scene.map, pid).shape.points[2] == (23.5, 23.0)
    # a zone's corners are handles as soon as it is selected
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_ESCAPE)
    z = scene.map.deployment[0]
    corner = z.points[2]                              # (12, 44) on a 60 x 44 table
    click(app, world_px(scene, corner[0], 30.0))     # its border
    assert scene.state.selection == [("zone", 0)]
    drag(app, world_px(scene, *corner), world_px(scene, corner[0] + 3.0, corner[1]))
    assert scene.map.deployment[0].points[2] == (corner[0] + 3.0, corner[1])


def test_objectives_are_placed_and_moved_like_pieces(app):
    scene = editor(app)
    palette_click(app, scene, "Objective marker")
    click(app, world_px(scene, 15.0, 30.0))
    new = [o for o in scene.map.objectives if o.id != "centre"]
    assert len(new) == 1 and new[0].at == (15.0, 30.0) and scene.state.selection == [("objective", new[0].id)]
    drag(app, world_px(scene, 15.0, 30.0), world_px(scene, 18.0, 32.0))
    assert next(o for o in scene.map.objectives if o.id == new[0].id).at == (18.0, 32.0)


def test_the_editor_autosaves_and_skirmish_edit_recovers_the_draft(app, tmp_path):
    from game.editor.document import read_autosave
    from game.userdirs import editor_autosave_file

    scene = editor(app)
    place(app, scene, "Forest", (20.0, 20.0))
    scene.state.doc._autosaved_at -= 60                    # as if 60 s had passed
    frame(app)
    found = read_autosave(editor_autosave_file())
    assert found is not None and found[0] == scene.map


def test_the_launcher_edit_button_opens_the_chosen_map(app):
    from game.scenes.editor import EditorScene

    launcher = show_launcher(app)
    click(app, launcher.edit_b.rect.center)
    assert isinstance(app.scene, EditorScene)
    assert app.scene.map == launcher.maps[launcher.settings.map]
    assert app.scene.state.doc.save_path().parent != app.scene.state.doc.path.parent     # a shipped map saves elsewhere


def test_skirmish_edit_refuses_a_bad_map_and_renders_headless(tmp_path, monkeypatch, capsys):
    from game.cli import main

    monkeypatch.setenv("SKIRMISH_HOME", str(tmp_path))
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": 1, "id": "x"}')
    assert main(["edit", str(bad)]) == 1
    assert f"{bad}: " in capsys.readouterr().err
    out = tmp_path / "shot.png"
    assert main(["edit", "outpost", "--screenshot", str(out), "--frames", "2"]) == 0
    assert out.stat().st_size > 10_000
    out.unlink()
    assert main(["edit", "outpost", "--screenshot", str(out)]) == 0     # without --frames it ended never
    assert out.stat().st_size > 10_000


def test_test_balance_runs_in_the_background_and_shows_the_table_effect(app, monkeypatch):
    import time

    from engine.paths import MAPS_DIR
    from game.editor import balance

    monkeypatch.setattr(balance, "BALANCE_GAMES", 4)
    monkeypatch.setattr(balance, "BALANCE_AGENT", "random")
    scene = editor(app, load_map(MAPS_DIR / "town.json"), MAPS_DIR / "town.json")
    click(app, scene.toolbar.buttons["balance"].rect.center)
    assert scene.state.balance is not None and scene.state.progress is not None
    assert scene.toolbar.buttons["balance"].text == "Cancel test"
    t0 = time.monotonic()
    seen_frames = 0
    while scene.state.balance is not None and time.monotonic() - t0 < 180:
        frame(app)                                  # the editor keeps drawing frames meanwhile
        seen_frames += 1
        time.sleep(0.05)
    assert scene.state.balance is None, "the balance test did not finish in 3 minutes"
    assert seen_frames > 10 and scene.state.progress is None
    assert any(line.startswith("zone 1 wins ") for line in scene.state.balance_lines), scene.state.balance_lines
    assert scene.toolbar.buttons["balance"].text == "Test balance"


def test_closing_the_window_ends_a_running_balance_test(app, monkeypatch):
    from engine.paths import MAPS_DIR
    from game.editor import balance

    monkeypatch.setattr(balance, "BALANCE_GAMES", 10_000)          # it cannot end by itself
    scene = editor(app, load_map(MAPS_DIR / "town.json"), MAPS_DIR / "town.json")
    click(app, scene.toolbar.buttons["balance"].rect.center)
    run = scene.state.balance
    assert run is not None and run.running
    scene.state.doc.stack.mark_saved()                     # nothing to ask about: the window just closes
    frame(app, [pygame.event.Event(pygame.QUIT)])
    assert not app.running and run.proc.poll() is not None


def test_import_a_carltographer_layout_through_the_file_dialog(app):
    import pygame_gui

    scene = editor(app)
    click(app, scene.toolbar.buttons["import"].rect.center)          # nothing unsaved: the dialog opens
    assert scene.dialogs.dialog is not None and scene.dialogs.kind == "import"
    small = Path(__file__).parent / "data" / "carltographer" / "small-layout.json"
    frame(app, [pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(small), ui_element=scene.dialogs.dialog)])
    assert scene.map.width == 44.0 and len(scene.map.pieces) == 9
    assert scene.state.doc.dirty and scene.state.doc.path is None
    assert scene.state.doc.save_path().name == "small-layout.json"
    assert scene.state.live is not None and scene.state.live.metrics["symmetry"]["unmatched_pct"] == 0.0


def test_the_sheet_button_writes_pdf_and_png_in_the_users_folder(app):
    from game.userdirs import sheets_dir

    scene = editor(app)
    place(app, scene, "Building with a yard", (30.0, 22.0))
    click(app, scene.toolbar.buttons["sheet"].rect.center)
    pdf, png = sheets_dir() / "new-layout.pdf", sheets_dir() / "new-layout.png"
    assert pdf.read_bytes().startswith(b"%PDF") and png.stat().st_size > 10_000
    assert any(m[0] == f"setup sheet: new-layout.pdf and new-layout.png in {sheets_dir()}" for m in scene.state.messages)


def test_skirmish_edit_without_a_map_takes_up_the_unsaved_draft(tmp_path, monkeypatch):
    import game.app as base
    from game.app import run_editor
    from game.editor.document import Document, new_map
    from game.userdirs import editor_autosave_file

    monkeypatch.setenv("SKIRMISH_HOME", str(tmp_path))
    doc = Document(new_map(), tmp_path / "mine.json", tmp_path, editor_autosave_file())
    doc.stack.do(E.Move((("objective", "centre"),), 3.0, 1.0))
    assert doc.autosave() is None
    seen = {}

    def run(self, max_frames=None, screenshot=None):
        seen["scene"] = self.scene
        self.step(1 / 60, [])
        pygame.quit()

    monkeypatch.setattr(base.App, "run", run)
    assert run_editor(None) == 0
    scene = seen["scene"]
    assert scene.map == doc.map and scene.state.doc.path == tmp_path / "mine.json" and scene.state.doc.dirty
    assert any("recovered" in m[0] for m in scene.state.messages)
    scene.close()


def test_escape_cancels_a_drag_and_keys_wait_for_the_drop(app):
    scene = editor(app)
    place(app, scene, "Crate", (20.0, 20.0))
    before = scene.map
    a, b = world_px(scene, 20.0, 20.0), world_px(scene, 26.0, 24.0)
    frame(app, [motion(a), pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1)])
    frame(app, [motion(b, (1, 0, 0))], n=0)
    assert scene.table.select.sub is not None and scene.table.select.sub.active
    key(app, pygame.K_z, pygame.KMOD_CTRL)           # ignored while dragging
    assert scene.map is before
    key(app, pygame.K_ESCAPE)
    frame(app, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1)])
    assert scene.map is before and scene.table.select.sub is None


def test_a_piece_on_the_mirror_line_slides_along_it_by_drag(app):
    scene = editor(app)
    place(app, scene, "Crate", (30.0, 20.0))         # on the left-right mirror line
    key(app, pygame.K_m)
    assert scene.stack.symmetry == "mirror_x"
    pid = scene.state.selection[0][1]
    drag(app, world_px(scene, 30.0, 20.0), world_px(scene, 33.0, 25.0))
    x0, y0, x1, y1 = S.bounds(E.get_piece(scene.map, pid).shape)
    assert (x0 + x1) / 2 == 30.0 and y0 > 20.0       # it stayed on the line and went up


def test_changing_the_unit_keeps_the_table_and_the_view(app):
    import pygame_gui

    scene = editor(app)
    place(app, scene, "Building", (20.0, 20.0))
    before = scene.to_screen(20.0, 20.0)
    dd = next(d for d, name in scene.properties.form.dropdowns.items() if name == "map.unit") if scene.state.selection == [] else None
    if dd is None:
        key(app, pygame.K_ESCAPE)
        dd = next(d for d, name in scene.properties.form.dropdowns.items() if name == "map.unit")
    frame(app, [pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text="cm", ui_element=dd)])
    assert scene.map.unit == "cm" and scene.map.width == pytest.approx(152.4)
    assert scene.state.grid == 1.0 and scene.table.cam.mm_per_unit == 10.0
    after = scene.to_screen(20.0 * 2.54, 20.0 * 2.54)
    assert math.dist(before, after) <= 1.5                 # the same spot of the table on screen
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.map.unit == "in" and scene.table.cam.mm_per_unit == 25.4


def test_esc_or_a_closed_window_drops_a_dialog_unanswered(app):
    """The discard question and the Generate dialog: Esc, or the dialog's window closed, leaves
    no dialog and does nothing (the layout stays as it is and unsaved; nothing generates); while
    one is open, keys are the dialog's (Ctrl+Z does not undo under it)."""
    from game.editor.generate_dialog import GenerateDialog
    from game.editor.panels import ChoiceDialog

    scene = editor(app)
    place(app, scene, "Crate", (20.0, 20.0))
    before = scene.map
    for kind, what in (("new", ChoiceDialog), ("generate", GenerateDialog)):
        scene.command(kind)
        d = scene.dialogs.dialog
        assert isinstance(d, what) and d.alive()
        key(app, pygame.K_z, pygame.KMOD_CTRL)
        assert scene.dialogs.dialog is d and scene.map is before
        key(app, pygame.K_ESCAPE)
        assert scene.dialogs.dialog is None and not d.alive()
        scene.command(kind)
        scene.dialogs.dialog.kill()                        # its window's close button
        frame(app, [motion((5, 5))])
        assert scene.dialogs.dialog is None
        assert scene.map is before and scene.state.doc.dirty and scene.state.generating is None
