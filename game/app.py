"""Start the client: the launcher, a game straight from the command line, or a screenshot.

    run_client()                                   # the launcher
    run_client(ruleset="frontier", map_id="town", seats={1: "human", 2: "ai:easy"})
    screenshot("frontier", "town", steps=40, select=..., hover=..., reach=True, out="shot.png")
"""
from __future__ import annotations

import os
from pathlib import Path


def headless_if_no_display() -> None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def load_any_map(name: str):
    from engine.data.maps import load_named_map
    return load_named_map(name)


def make_app(size=(1280, 720), window: bool = False):
    """The app; ``window``: a window on the screen, no larger than the desktop (a headless
    picture keeps ``size``)."""
    headless_if_no_display()
    from game.scenes.base import App
    return App(size, fit_desktop=window)


def run_client(ruleset: str | None = None, map_id: str | None = None, seats=None, seed: int = 1,
               load: str | None = None, size=(1280, 720), frames: int | None = None,
               screenshot_path: str | None = None, options: dict | None = None) -> int:
    """Open the window: the launcher, or a game when a ruleset (or a save) is given."""
    app = make_app(size, window=screenshot_path is None)
    from game.scenes.launcher import LauncherScene
    from game.scenes.play import PlayScene
    from game.session import GameSession
    from game.settings import DEFAULT_OPPONENT

    if load:
        session = GameSession.load(load, seats)
        app.switch(PlayScene(app, session, session.game.setup.map.id))
    elif ruleset:
        m = load_any_map(map_id or "town")
        session = GameSession.new(ruleset, m, (), seats, seed, options=options)
        app.switch(PlayScene(app, session, map_id or m.id))
    else:
        app.switch(LauncherScene(app))
    app.run(max_frames=frames, screenshot=screenshot_path)
    return 0


def advance(session, steps: int, agent: str = "random", seed: int = 0) -> int:
    """Play ``steps`` decisions with agents (whatever the seats say); returns how many were played."""
    from engine.ai import make_agent

    agents = {p: make_agent(agent, p, seed + p) for p in (1, 2)}
    for a in agents.values():
        if hasattr(a, "attach"):
            a.attach(session.game.table, session.game.rules)
    n = 0
    while n < steps and (d := session.pending()) is not None:
        session.submit(d.player, agents[d.player].choose(d, session.game.view(d.player)))
        n += 1
    return n


def screenshot(ruleset: str, map_id: str, out: str, steps: int = 0, seed: int = 1, select: str | None = None,
               hover: str | None = None, reach: bool = False, sight: bool = False, threat: bool = False,
               agent: str = "random", size=(1280, 720), frames: int = 3) -> Path:
    """Render the game after ``steps`` decisions of AI play, with the overlays asked for."""
    app = make_app(size)
    import pygame

    from game.scenes.base import save_png
    from game.scenes.play import PlayScene
    from game.session import GameSession

    session = GameSession.new(ruleset, load_any_map(map_id), (), {1: "human", 2: "human"}, seed, autosave=False)
    advance(session, steps, agent, seed)
    d = session.pending()
    if d is not None:                 # the picture is the table as the player deciding now sees it
        session.confirm_eyes(d.player)
    scene = PlayScene(app, session, map_id)
    scene.toggles.update(reach=reach, sight=sight, threat=threat)
    app.switch(scene)
    if select:
        scene.select(_find_piece(scene, select))
    if hover:
        scene.mouse = scene.screen_pos_of(_find_piece(scene, hover))
    for _ in range(frames):
        app.step(1 / 60, events=[])
        scene.update(1.5)  # let tooltips and animations settle
    path = save_png(app.screen, out)
    pygame.quit()
    return path


def _find_piece(scene, name_or_id: str) -> str:
    for p in scene.pieces:
        if name_or_id in (p["id"], p["name"]):
            return p["id"]
    raise ValueError(f"no model {name_or_id!r} on the table (models: {', '.join(p['id'] for p in scene.pieces)})")


def run_editor(map_name: str | None = None, size=(1280, 720), frames: int | None = None,
               screenshot_path: str | None = None) -> int:
    """The layout editor on a map (a file or a shipped id), or on the draft an editor left
    behind, or on a new empty table."""
    from pathlib import Path

    from engine.paths import resolve_map

    mapfile, path, note = None, None, ""
    if map_name:
        mapfile = load_any_map(map_name)           # DataError: the caller says why
        path = resolve_map(map_name)
    else:
        from game.editor.document import read_autosave
        from game.userdirs import editor_autosave_file

        found = read_autosave(editor_autosave_file())
        if found is not None:
            mapfile, path = found
            note = f"recovered the unsaved layout from {editor_autosave_file()}"
    app = make_app(size, window=screenshot_path is None)
    if screenshot_path and frames is None:
        frames = 3                                 # a picture: a few frames, then out (not a window left running)
    from game.scenes.editor import EditorScene

    scene = EditorScene(app, mapfile, Path(path) if path else None, note=note)
    if note:
        scene.doc.stack.saved_version = -1         # a recovered draft is not saved anywhere
    app.switch(scene)
    app.run(max_frames=frames, screenshot=screenshot_path)
    return 0


def run_replay(game, size=(1280, 720), frames: int | None = None, seats=None) -> int:
    """A saved game in a window, to step through (``game.scenes.replay``); ``seats``: who sat
    where, as the save records it (None: not known)."""
    app = make_app(size, window=True)
    from game.scenes.replay import ReplayScene
    app.switch(ReplayScene(app, game.setup, game.decisions, at=0, seats=seats))
    app.run(max_frames=frames)
    return 0
