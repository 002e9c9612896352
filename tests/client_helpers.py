"""The client's test helpers in one place (issue 48): an app on a user folder of its own, frames,
the events a hand makes (motion, clicks, keys), and a game screen on a game. The tests drive the
real ``App.step`` with them, headless (SDL's dummy drivers)."""
from __future__ import annotations

import pygame
import pytest


def app_fixture(size=(1280, 720), close_scene: bool = False, check_crashes: bool = True, home: str = ""):
    """An ``app`` fixture: the user's folders in the test's ``tmp_path`` (``home``: a folder under
    it), the window ``size``; at the end the current scene is closed (``close_scene``: its AI
    process or editor worker stopped), pygame shut down, and no crash allowed (``check_crashes``)."""

    @pytest.fixture
    def app(tmp_path, monkeypatch):
        monkeypatch.setenv("SKIRMISH_HOME", str(tmp_path / home if home else tmp_path))
        from game.app import App
        a = App(size)
        yield a
        if close_scene and a.scene is not None:
            a.scene.close()
        pygame.quit()
        if check_crashes:
            assert not a.crashes, f"the client crashed: {a.crashes[0]!r}"

    return app


app = app_fixture()


def frame(app, events=(), n=1, dt=1 / 60):
    """Feed events, then run ``n`` frames that also read what pygame_gui posted to the queue."""
    app.step(dt, list(events))
    for _ in range(n):
        app.step(dt)


def motion(pos, buttons=(0, 0, 0), rel=(1, 0)):
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=buttons)


def press(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


def release(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)


def click(app, pos, button=1, mods=0):
    """The pointer moves to ``pos``, presses and releases there with the modifier keys ``mods``
    held (e.g. ``pygame.KMOD_SHIFT``); then a frame."""
    pygame.key.set_mods(mods)
    frame(app, [motion(pos, rel=(0, 0)), press(pos, button), release(pos, button)])
    pygame.key.set_mods(0)


def drag(app, a, b, steps=8, mods=0, button=1):
    """Press at ``a``, move to ``b`` in steps (a frame each), release: as a hand does."""
    pygame.key.set_mods(mods)
    frame(app, [motion(a, rel=(0, 0)), press(a, button)])
    for i in range(1, steps + 1):
        p = (round(a[0] + (b[0] - a[0]) * i / steps), round(a[1] + (b[1] - a[1]) * i / steps))
        frame(app, [motion(p, (1, 0, 0), rel=(0, 0))], n=0)
    frame(app, [release(b, button)])
    pygame.key.set_mods(0)


def key_event(k, mod=0, unicode=""):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0)


def key(app, k, mod=0, unicode=""):
    """A key pressed with the modifiers ``mod`` held (and the text it types, ``unicode``)."""
    pygame.key.set_mods(mod)
    frame(app, [key_event(k, mod, unicode)])
    pygame.key.set_mods(0)


# --- the layout editor's hands ------------------------------------------------------------------

def editor(app, mapfile=None, path=None):
    """The layout editor on ``mapfile`` (a new empty table by default), shown, one frame run."""
    from game.editor.document import new_map
    from game.scenes.editor import EditorScene

    scene = EditorScene(app, mapfile or new_map(), path, inline_analysis=True)
    app.switch(scene)
    frame(app)
    return scene


def palette_click(app, scene, text):
    """Click a palette item, scrolling the list down with its arrow button until it shows."""
    lst = scene.catalog_panel.palette.list
    for _ in range(300):
        for item in lst.item_list:
            el = item.get("button_element")
            if item["text"] == text and el is not None and lst.rect.contains(el.rect):
                click(app, el.rect.center)
                frame(app)
                return
        assert lst.scroll_bar is not None, f"{text!r} is not in the palette"
        at = lst.scroll_bar.bottom_button.rect.center
        frame(app, [motion(at, rel=(0, 0)), press(at)], n=6)
        frame(app, [release(at)], n=2)
    raise AssertionError(f"{text!r} is not visible in the palette")


def world_px(scene, x, y):
    return scene.to_screen(x, y)


def place(app, scene, text, at):
    """A palette item placed on the table at ``at`` (map units)."""
    palette_click(app, scene, text)
    assert scene.table.tool is not None
    click(app, world_px(scene, *at))


def take_device(app):
    """Hot-seat: confirm the pass screen if one is up (the player takes the device)."""
    from game.scenes.passing import PassScene
    if isinstance(app.scene, PassScene):
        key(app, pygame.K_RETURN)


def game_screen(app, game, seats, map_id=None, n=1):
    """The game screen on ``game`` (a session with ``seats``, no autosave), shown, ``n`` + 1 frames run."""
    from game.scenes.play import PlayScene
    from game.session import GameSession
    scene = PlayScene(app, GameSession(game, seats, autosave=False), map_id or game.setup.map.id)
    app.switch(scene)
    frame(app, n=n)
    return scene


def show_launcher(app, settings=None):
    """The launcher (on ``settings``, else the saved ones) shown, one frame run."""
    from game.scenes.launcher import LauncherScene
    scene = LauncherScene(app) if settings is None else LauncherScene(app, settings)
    app.switch(scene)
    frame(app)
    return scene


def play_fast_until(app, scene, done, frames: int = 20000):
    """Run the game screen ``scene`` with no pauses or animations between the AI's moves, a frame
    at a time (each waits up to 5 s for the AI's worker), until ``done()`` holds or ``frames`` ran."""
    scene.state.speed = 1e6
    for _ in range(frames):
        if done():
            return
        frame(app, n=0)
        if scene.state.worker is not None:
            scene.state.worker.wait(5.0)


def play_scene(app, game, seats, map_id="town"):
    """The game screen on ``game``, with the device taken if a pass screen came first."""
    scene = game_screen(app, game, seats, map_id)
    take_device(app)
    assert app.scene is scene
    return scene


# --- pygame_gui elements clicked as a hand clicks them ------------------------------------------

def click_element(app, element, frames: int = 3):
    """A click on a pygame_gui ``element`` (a button, a dialog's Allow or Cancel) at its rect's
    centre through ``App.step`` with real events, then ``frames`` frames that read what pygame_gui
    posts back to the queue (the button's UI_BUTTON_PRESSED, then a dialog's confirmation and its
    window closing, one frame after another) — as a hand's click goes, nothing handed in."""
    assert element.alive() and element.visible, f"{element!r} is not on the screen to click"
    at = element.rect.center
    frame(app, [motion(at, rel=(0, 0)), press(at), release(at)], n=frames)


def close_window(app, window, frames: int = 3):
    """The window's own close button (the × of its title bar) clicked through ``App.step``."""
    click_element(app, window.close_window_button, frames)
