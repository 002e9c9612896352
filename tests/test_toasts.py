"""Messages over the table fit and keep clear of the scale bar (issue 46, item 12): the save
toast covered the scale bar; a long path ran off the table, the log and the window, and the
setup sheet's message was cut off. Driven through ``App.step`` with a long data folder."""
from __future__ import annotations

import pygame
from client_helpers import app_fixture, frame, key, play_scene

from engine.core import Game, Setup
from engine.data.maps import load_map
from engine.paths import resolve_map

LONG = "a-folder-with-a-long-name/and-another/and-a-third-one-for-good-measure/skirmish-home"

app = app_fixture((1024, 600), close_scene=True, home=LONG)     # the small laptop: the least room there is


def test_the_save_toast_fits_the_table_and_leaves_the_scale_bar_clear(app):
    from game.ui.toasts import scale_bar_on_screen

    g = Game(Setup("counterblast", load_map(resolve_map("outpost")), (), {}, 1))
    scene = play_scene(app, g, {1: "human", 2: "human"})
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    frame(app)
    text = scene.state.message[0]
    assert text.startswith("saved to ") and len(text) > 150          # longer than one line holds
    bar = scale_bar_on_screen(scene.state.renderer, scene.state.table_rect)
    toast = scene.state.toast_rect
    assert bar is not None and toast is not None
    assert scene.state.table_rect.contains(toast), (toast, scene.state.table_rect)
    assert not toast.colliderect(bar), (toast, bar)
    # every line of the log fits its panel: the path is broken, not cut off at the edge
    assert scene.state.log.rows and all(r.get_width() <= scene.state.log.rect.w - 14 for r in scene.state.log.rows)


def test_the_editors_messages_fit_and_its_tool_bar_fits_the_window(app):
    from client_helpers import click, editor, place

    from game.ui.toasts import scale_bar_on_screen
    from game.userdirs import sheets_dir

    scene = editor(app)
    for key_, b in scene.toolbar.buttons.items():                  # Sheet, Import, Menu were past 1024
        assert app.screen.get_rect().contains(b.rect), (key_, b.rect)
    place(app, scene, "Building with a yard", (30.0, 22.0))
    click(app, scene.toolbar.buttons["sheet"].rect.center)
    frame(app)
    last = scene.state.messages[-1][0]
    assert last == f"setup sheet: new-layout.pdf and new-layout.png in {sheets_dir()}"
    bar = scale_bar_on_screen(scene.state.renderer, scene.table_rect)
    assert scene.status.rects and bar is not None
    for r in scene.status.rects:
        assert scene.table_rect.contains(r) and not r.colliderect(bar), (r, bar, scene.table_rect)


def test_fit_lines_breaks_a_path_after_a_slash_and_elides_past_the_last_line():
    from game.render.text import elide, fit_lines, font

    pygame.font.init()
    f = font(15)
    width = f.size("x" * 30)[0]
    lines = fit_lines("saved to /" + "/".join(["folder"] * 20) + "/game.json", f, width, max_lines=10)
    assert all(f.size(line)[0] <= width for line in lines)
    assert "".join(lines[1:]).replace(" ", "") == "/" + "/".join(["folder"] * 20) + "/game.json"
    assert all(line.endswith("/") for line in lines[1:-1])          # broken after a slash
    short = fit_lines("one two three " * 20, f, width, max_lines=2)
    assert len(short) == 2 and short[1].endswith("…") and f.size(short[1])[0] <= width
    assert elide("short", f, width) == "short"
