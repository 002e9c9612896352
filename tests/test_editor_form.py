"""The editor's words on the table and in its form (issue 46, item 13): the "locked" tag drawn
over a piece's name garbled it; heights showed as 3.93701 (100 mm in inches); the property
menus' text ("blocks sight: kind's (yes)") was cut off. Driven through ``App.step``."""
from __future__ import annotations

import pygame
import pytest
from client_helpers import app_fixture, click, editor, frame, place

from engine.data.maps import load_map
from engine.paths import MAPS_DIR
from engine.workshop import edits as E

app = app_fixture(close_scene=True)      # the editor's analysis worker is stopped at the end

TOWN = MAPS_DIR / "town.json"


def enter(app):
    """Return pressed and let go (the field takes the next Return only after the key comes up)."""
    frame(app, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0),
                pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)])


def select(app, scene, ids):
    scene.state.selection = [("piece", i) for i in ids]
    scene.refresh_form(force=True)
    frame(app, n=2)


def test_a_locked_tag_keeps_off_the_piece_names(app):
    scene = editor(app, load_map(TOWN), TOWN)
    frame(app)
    named = {p.id for p in scene.map.pieces if p.name}
    scene.apply(E.lock(sorted(named), True))
    frame(app, n=2)
    labels = scene.state.renderer.label_rects
    assert len(labels) > 10 and len(scene.view.lock_tags) == len(named)
    for pid, r in scene.view.lock_tags:                       # never over its own piece's name
        assert pid not in labels or not r.colliderect(labels[pid]), pid
    # and off every other name too, but where a crowded corner of the town leaves no room
    clashes = [pid for pid, r in scene.view.lock_tags if r.collidelist(list(labels.values())) != -1]
    assert len(clashes) <= len(scene.view.lock_tags) // 5, clashes


@pytest.mark.parametrize("unit, shown", [("in", "3.94"), ("cm", "10"), ("mm", "100")])
def test_heights_show_at_the_units_precision_and_an_unchanged_field_changes_nothing(app, unit, shown):
    scene = editor(app)
    if unit != "in":
        scene.apply(E.ConvertUnit(unit))
    place(app, scene, "Building", (scene.map.width / 3, scene.map.height / 2))
    pid = scene.state.selection[0][1]
    kind_mm = 100.0                                           # a building's height (KIND_DEFAULTS)
    assert scene.properties.form.entries["height"].placeholder_text == f"kind's: {shown}"
    exact = kind_mm / {"in": 25.4, "cm": 10.0, "mm": 1.0}[unit]
    scene.apply(E.set_field([pid], "height", exact))
    select(app, scene, [pid])
    entry = scene.properties.form.entries["height"]
    assert entry.get_text() == shown
    version = scene.stack.version
    click(app, entry.rect.center)                            # into the field and out with Enter
    enter(app)
    assert scene.stack.version == version and E.get_piece(scene.map, pid).height == exact
    click(app, entry.rect.center)                            # a new value still applies
    frame(app, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, mod=0, unicode="", scancode=0)])
    for _ in range(8):
        frame(app, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="", scancode=0)])
    frame(app, [pygame.event.Event(pygame.TEXTINPUT, text="7")])
    enter(app)
    assert E.get_piece(scene.map, pid).height == 7.0


def cut_off(scene):
    """Menus whose choices are wider than the room their closed button gives the text."""
    out = []
    for dd in list(scene.properties.form.dropdowns) + [scene.toolbar.grid_dd, scene.toolbar.sym_dd, scene.toolbar.overlay_dd]:
        b = dd.menu_states["closed"].selected_option_button
        for o in dd.options_list:
            text = o if isinstance(o, str) else o[0]
            if b.font.size(text)[0] > b.rect.w - 8:
                out.append(text)
    return out


@pytest.mark.parametrize("size", [(1024, 600), (1280, 720)])
def test_no_menu_text_is_cut_off(size, tmp_path, monkeypatch):
    from game.app import App

    monkeypatch.setenv("SKIRMISH_HOME", str(tmp_path))
    a = App(size)
    try:
        scene = editor(a, load_map(TOWN), TOWN)
        assert cut_off(scene) == []                                   # the table's own form
        select(a, scene, [scene.map.pieces[0].id])
        assert cut_off(scene) == []
        select(a, scene, [p.id for p in scene.map.pieces[:4]])        # several: "(various)"
        assert cut_off(scene) == []
        # the properties read as before: a choice sets the field, "kind's" clears it
        dd = next(d for d, name in scene.properties.form.dropdowns.items() if name == "blocks_sight")
        pid = scene.map.pieces[0].id
        select(a, scene, [pid])
        dd = next(d for d, name in scene.properties.form.dropdowns.items() if name == "blocks_sight")
        import pygame_gui
        frame(a, [pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text="no", ui_element=dd)])
        assert E.get_piece(scene.map, pid).blocks_sight is False
        dd = next(d for d, name in scene.properties.form.dropdowns.items() if name == "blocks_sight")
        frame(a, [pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text="kind's (yes)", ui_element=dd)])
        assert E.get_piece(scene.map, pid).blocks_sight is None
        if size == (1280, 720):
            assert max(b.rect.right for b in scene.toolbar.buttons.values()) <= 1280 and scene.table_rect.y == 40
    finally:
        scene.close()
        pygame.quit()


def test_the_first_unit_change_remakes_the_grid_menu_in_the_new_unit(app):
    """A fresh editor's first change of unit remade the grid menu only on the change after it (the
    unit it was laid out for was not known until a change was made): the menu offered inch steps
    for a table in centimetres. The editor's state knows it from the start (``layout_unit``)."""
    scene = editor(app)
    assert scene.map.unit == "in"
    scene.apply(E.ConvertUnit("cm"))
    frame(app)
    texts = [o[0] if isinstance(o, tuple) else o for o in scene.toolbar.grid_dd.options_list]
    assert texts and all(t.endswith(" cm") for t in texts), texts
