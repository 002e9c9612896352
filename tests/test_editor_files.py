"""The editor's Open and Import through the file dialog's own widgets (issue 46, item 1): the
file clicked in the dialog's list, then its OK button, each a real mouse press and release fed
through ``App.step``. pygame_gui posts the picked path and closes the dialog in the same step,
so the path arrives after the dialog is gone: the editor once dropped it and did nothing.

``data/carltographer/one-crate.json`` was written by hand for this project in Carltographer's
layout format (a 60x44" table, one 5x2.5" crate at x 5", z -3" from the centre, turned 45
degrees; see that folder's README: none of Carltographer's own files is stored here).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from client_helpers import app_fixture, click, editor, frame, place

from engine.data.maps import load_map
from engine.workshop import shapes as S

app = app_fixture(close_scene=True)      # the editor's analysis worker is stopped at the end

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "carltographer" / "one-crate.json"
SHARED = DATA / "layouts"


def pick_in_dialog(app, scene, name, d=None):
    """Click ``name`` in the open file dialog's list (the editor's, or ``d``), then its OK button."""
    d = scene.dialogs.dialog if d is None else d
    assert d is not None and d.alive(), "no file dialog is open"
    for _ in range(3):                         # the list draws its rows on the next update
        rows = {item["text"]: item.get("button_element") for item in d.file_selection_list.item_list}
        if rows.get(name) is not None:
            break
        frame(app)
    button = rows.get(name)
    assert button is not None, f"{name} is not in the dialog's list: {sorted(rows)}"
    click(app, button.rect.center)
    frame(app, n=2)                            # the list's selection reaches the dialog two posts later
    assert d.current_file_path is not None and d.current_file_path.name == name
    click(app, d.ok_button.rect.center)
    frame(app, n=2)                            # the dialog's path-picked event comes a frame later


def into_maps_folder(src: Path) -> Path:
    from game.userdirs import maps_dir

    maps_dir().mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(src, maps_dir() / src.name))


def test_open_a_shared_layout_through_the_dialog(app):
    shared = sorted(SHARED.glob("*.json"))[0]
    into_maps_folder(shared)
    scene = editor(app)
    click(app, scene.toolbar.buttons["open"].rect.center)
    assert scene.dialogs.kind == "open"
    pick_in_dialog(app, scene, shared.name)
    assert scene.dialogs.dialog is None
    assert scene.map == load_map(shared)
    assert scene.state.doc.path.name == shared.name and not scene.state.doc.dirty
    assert any(m[0].startswith("opened ") for m in scene.state.messages), scene.state.messages


def test_open_the_editors_own_saved_layout(app):
    scene = editor(app)
    place(app, scene, "Building with a yard", (30.0, 22.0))
    click(app, scene.toolbar.buttons["save"].rect.center)
    saved = scene.state.doc.save_path()
    assert saved.name == "new-layout.json" and saved.exists()
    click(app, scene.toolbar.buttons["new"].rect.center)
    assert scene.map.pieces == []
    click(app, scene.toolbar.buttons["open"].rect.center)
    pick_in_dialog(app, scene, "new-layout.json")
    assert scene.map == load_map(saved) and len(scene.map.pieces) > 0
    assert scene.state.doc.path == saved


def test_import_a_carltographer_file_through_the_dialog(app):
    into_maps_folder(SAMPLE)
    scene = editor(app)
    click(app, scene.toolbar.buttons["import"].rect.center)
    assert scene.dialogs.kind == "import"
    pick_in_dialog(app, scene, SAMPLE.name)
    m = scene.map
    assert (m.width, m.height, m.unit) == (60.0, 44.0, "in") and len(m.pieces) == 1
    crate = m.pieces[0]
    # centre (5, -3) from the table's centre, z down -> (35, 25) from the lower left; the 5 x 2.5
    # box turned 45 degrees reaches 2.5 cos 45 + 1.25 sin 45 = 2.652 either way
    half = 3.75 / 2 ** 0.5
    assert S.bounds(crate.shape) == pytest.approx((35 - half, 25 - half, 35 + half, 25 + half), abs=1e-5)
    assert (crate.kind, crate.height) == ("container", 5.0)
    assert scene.state.doc.dirty and scene.state.doc.path is None
    assert any(m[0] == f"imported {SAMPLE.name}" for m in scene.state.messages), scene.state.messages


def test_import_of_a_skirmish_map_opens_it_and_says_so(app):
    shared = sorted(SHARED.glob("*.json"))[0]
    into_maps_folder(shared)
    scene = editor(app)
    click(app, scene.toolbar.buttons["import"].rect.center)
    pick_in_dialog(app, scene, shared.name)
    assert scene.map == load_map(shared) and scene.state.doc.path.name == shared.name
    assert any("is a Skirmish map, not a Carltographer layout" in m[0] for m in scene.state.messages), scene.state.messages


def test_import_of_another_file_shows_why_and_changes_nothing(app):
    from game.userdirs import maps_dir

    maps_dir().mkdir(parents=True, exist_ok=True)
    (maps_dir() / "notes.json").write_text('{"hello": "world"}')
    (maps_dir() / "broken.json").write_text('{"table_width_inches": -4, "table_depth_inches": 44}')
    scene = editor(app)
    before = scene.map
    for name, why in [("notes.json", "not a Carltographer layout"),
                      ("broken.json", "table_width_inches: Input should be greater than 0")]:
        click(app, scene.toolbar.buttons["import"].rect.center)
        pick_in_dialog(app, scene, name)
        assert scene.map == before
        errors = [m[0] for m in scene.state.messages if m[2]]
        assert errors and errors[-1].startswith(f"cannot import {name}: ") and why in errors[-1], errors
        assert any(why in line for line in scene.state.save_lines), scene.state.save_lines
    assert not any(m[2] for m in scene.state.messages if "Traceback" in m[0])
