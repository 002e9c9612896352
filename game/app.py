"""The client's top: the window and its one loop (``App``), the registry of screens by name that
resolves the scenes' transitions, and the starts (the launcher, a game straight from the command
line, a screenshot, the editor, a replay).

    run_client()                                   # the launcher
    run_client(ruleset="frontier", map_id="town", seats={1: "human", 2: "ai:easy"})
    screenshot("frontier", "town", steps=40, select=..., hover=..., reach=True, out="shot.png")

Scenes never import each other: a scene hands the app a ``Switch``, ``Push``, ``Pop`` or ``Quit``
(``game.kit.transitions``) and the app builds the screen named there with the factory registered
in ``SCREENS``. ``Push`` keeps the scene under it (not closed) and gives it to the new screen's
factory as ``under``; ``Pop`` closes the top screen and shows the one under it again.
"""
from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.assets import assets_dir  # noqa: E402
from game.kit.transitions import Pop, Push, Quit, Switch, Transition  # noqa: E402
from game.scenes.base import FPS, MIN_SIZE, Scene, desktop_size, fit_to_desktop, save_png  # noqa: E402,F401

# --- the screens, by name --------------------------------------------------------------------
# A factory takes the app, ``under`` (the scene a Push keeps under the new one, else None) and the
# transition's ``args``, and returns the scene. Scenes are imported here, when first built.


def _launcher(app, under=None, settings=None, extra_map=None, editor=None, pick=None):
    """``pick``: (side, roster key) the force builder chose for a side."""
    from game.scenes.launcher import LauncherScene
    return LauncherScene(app, settings=settings, extra_map=extra_map, editor=editor, pick=pick)


def _play(app, under=None, session=None, map_id=None):
    from game.scenes.play import PlayScene
    return PlayScene(app, session, map_id or session.game.setup.map.id)


def _pass(app, under, player):
    from game.scenes.passing import PassScene
    return PassScene(app, under, player)


def _game_over(app, under=None, session=None):
    from game.scenes.game_over import GameOverScene
    return GameOverScene(app, session if session is not None else under.state.session, under)


def _replay(app, under=None, setup=None, decisions=(), eyes=None, at=None, seats=None):
    """A record stepped through; pushed over a game (its history, Esc pops back), else a save."""
    from game.play.source import RecordSource
    from game.scenes.play import PlayScene
    source = RecordSource(setup, decisions, eyes=eyes, back=under, at=at, seats=seats)
    return PlayScene(app, source.session, setup.map.id, source=source)


def _editor(app, under=None, mapfile=None, path=None, note="", scene=None):
    """The layout editor on ``mapfile`` (``scene``: the editor a launcher was opened from, again)."""
    if scene is not None:
        return scene
    from game.scenes.editor import EditorScene
    return EditorScene(app, mapfile, path, note=note)


def _force_builder(app, under=None, ruleset=None, side=None, force=None, back=None, limit=None):
    """The force builder for ``ruleset`` (``force``: the roster to start from; ``back``: the
    launcher's arguments to go back with)."""
    from game.scenes.force_builder import ForceBuilderScene
    return ForceBuilderScene(app, ruleset, side=side, force=force, back=back, limit=limit)


def _crash(app, under=None, crash=None):
    from game.crash import CrashScene
    return CrashScene(app, crash)


SCREENS = {"launcher": _launcher, "play": _play, "pass": _pass, "game_over": _game_over,
           "replay": _replay, "editor": _editor, "crash": _crash, "force_builder": _force_builder}


class App:
    """The window, the current scene (and the scenes pushed under it) and one loop; ``step`` runs
    one frame from given events so tests can drive the client without a screen."""

    def __init__(self, size=MIN_SIZE, resizable: bool = True, fit_desktop: bool = False, screens=None):
        """``fit_desktop``: a window on a screen opens no larger than the desktop; a picture
        rendered headless keeps the size asked for. ``screens``: the registry (``SCREENS``)."""
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        pygame.init()
        from game.render.text import reset_fonts
        reset_fonts()              # fonts of an earlier pygame session are dead
        flags = pygame.RESIZABLE if resizable else 0
        self.size = fit_to_desktop(size, desktop_size() if fit_desktop else None)
        self.screen = pygame.display.set_mode(self.size, flags)
        pygame.display.set_caption("Skirmish")
        icon = assets_dir() / "icon.png"
        if icon.exists():
            try:
                pygame.display.set_icon(pygame.image.load(str(icon)))
            except pygame.error:
                pass
        self.screens = dict(SCREENS if screens is None else screens)
        self.scene: Scene | None = None
        self.under: list[Scene] = []   # the scenes a Push kept, the last one just under ``scene``
        self.running = True
        self.clock = pygame.time.Clock()
        self.frames = 0
        self.crashes: list[BaseException] = []

    # --- transitions ------------------------------------------------------------------------
    def build(self, name: str, args=None, under: Scene | None = None) -> Scene:
        """The screen registered as ``name``, built from ``args``."""
        try:
            factory = self.screens[name]
        except KeyError:
            raise ValueError(f"no screen {name!r} (screens: {', '.join(sorted(self.screens))})") from None
        return factory(self, under, **dict(args or {}))

    def go(self, t: Transition) -> None:
        """Resolve a scene's transition now."""
        if isinstance(t, Switch):
            self.switch(self.build(t.screen, t.args))
        elif isinstance(t, Push):
            under = self.scene
            scene = self.build(t.screen, t.args, under=under)
            if under is not None:
                self.under.append(under)
            self.scene = scene
        elif isinstance(t, Pop):
            if not self.under:
                raise ValueError("Pop with no screen under this one")
            self._close(self.scene)
            self.scene = self.under.pop()
        elif isinstance(t, Quit):
            self.quit()
        else:
            raise TypeError(f"not a transition: {t!r}")

    @staticmethod
    def _close(scene) -> None:
        if scene is None:
            return
        try:
            scene.close()
        except Exception:  # noqa: BLE001 - a scene that cannot close must not stop the switch
            pass

    def switch(self, scene: Scene) -> None:
        """Show ``scene``: the current one is closed, and so are those pushed under it, unless
        ``scene`` is one of them (then it is shown again, as a Pop to it would)."""
        if scene in self.under:
            while self.under and self.under[-1] is not scene:
                self._close(self.under.pop())
            self.under.pop()
        else:
            while self.under:
                self._close(self.under.pop())
        if self.scene is not scene:
            self._close(self.scene)
        self.scene = scene

    def quit(self) -> None:
        self.running = False

    # --- the loop ---------------------------------------------------------------------------
    def step(self, dt: float, events=None) -> None:
        """One frame: events (from the queue unless given), update, draw. An unexpected error
        in a scene never closes the window with the game lost: the game is saved, a crash report
        written, and the crash screen offers to go on from the save (``game.crash``)."""
        try:
            self._step(dt, events)
        except Exception as err:  # noqa: BLE001 - any bug: keep the game, say where it is
            from game.crash import CrashScene, report_crash
            if isinstance(self.scene, CrashScene):
                raise                     # the crash screen itself failed: nothing left to save
            self.crashes.append(err)      # tests assert none happened
            self.go(Switch("crash", {"crash": report_crash(self.scene, err)}))

    def _step(self, dt: float, events=None) -> None:
        for ev in (pygame.event.get() if events is None else events):
            if ev.type == pygame.QUIT:
                if self.scene is not None and not self.scene.request_quit():
                    continue
                self.quit()
                if self.scene is not None:
                    self.scene.close()
                while self.under:         # the game kept under a game-over screen: its AI stops too
                    self._close(self.under.pop())
                return
            assert self.scene is not None     # past a Quit, the loop runs with a scene shown
            if ev.type == pygame.VIDEORESIZE:
                w, h = max(MIN_SIZE[0], ev.w), max(MIN_SIZE[1], ev.h)
                self.size = (w, h)
                # asking for the size again keeps the window at MIN_SIZE or more, and gives a
                # display surface of exactly that size whatever the platform did
                self.screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
                for s in self.under:      # the scenes under come back at the window's size
                    s.resize(self.size)
                self.scene.resize(self.size)
                continue
            scene = self.scene
            if scene.ui.process_events(ev) and ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEWHEEL):
                continue                  # a press on a widget or window is not a press on the table
            scene.handle(ev)
        assert self.scene is not None
        scene = self.scene
        scene.ui.update(dt)
        t = scene.update(dt)
        if isinstance(t, Transition) and self.scene is scene:
            self.go(t)
        if self.scene is not scene:      # the update switched scenes: draw the new one next frame
            return
        scene.draw(self.screen)
        scene.ui.draw_ui(self.screen)
        caption = scene.caption()
        if caption != getattr(self, "_caption", None):     # which game, which seat: said in the title
            self._caption = caption
            pygame.display.set_caption(caption)
        self.frames += 1

    def run(self, max_frames: int | None = None, screenshot: str | None = None) -> None:
        if screenshot and max_frames is None:   # a picture is taken after a few frames (it waited for ever)
            from game.cli.args import SCREENSHOT_FRAMES

            max_frames = SCREENSHOT_FRAMES
        while self.running:
            dt = self.clock.tick(FPS) / 1000.0
            self.step(min(dt, 0.1))
            pygame.display.flip()
            if max_frames is not None and self.frames >= max_frames:
                break
        if screenshot:
            save_png(self.screen, screenshot)
        pygame.quit()



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
    return App(size, fit_desktop=window)


def run_client(ruleset: str | None = None, map_id: str | None = None, seats=None, seed: int = 1,
               load: str | None = None, size=(1280, 720), frames: int | None = None,
               screenshot_path: str | None = None, options: dict | None = None) -> int:
    """Open the window: the launcher, or a game when a ruleset (or a save) is given."""
    app = make_app(size, window=screenshot_path is None)
    from game.session import GameSession

    if load:
        session = GameSession.load(load, seats)
        app.go(Switch("play", {"session": session}))
    elif ruleset:
        m = load_any_map(map_id or "town")
        session = GameSession.new(ruleset, m, (), seats, seed, options=options)
        app.go(Switch("play", {"session": session, "map_id": map_id or m.id}))
    else:
        app.go(Switch("launcher"))
    app.run(max_frames=frames, screenshot=screenshot_path)
    return 0


def run_remote(session, size=(1280, 720), frames: int | None = None, screenshot_path: str | None = None) -> int:
    """The window on a seat of a network game (``game.net.remote.RemoteSession``, welcomed):
    the game screen as for a local game, seen from that seat."""
    app = make_app(size, window=screenshot_path is None)
    app.go(Switch("play", {"session": session}))
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
               agent: str = "random", size=(1280, 720), frames: int = 3, options: dict | None = None) -> Path:
    """Render the game after ``steps`` decisions of AI play, with the overlays asked for."""
    app = make_app(size)
    from game.session import GameSession

    session = GameSession.new(ruleset, load_any_map(map_id), (), {1: "human", 2: "human"}, seed, autosave=False,
                              options=options)
    advance(session, steps, agent, seed)
    d = session.pending()
    if d is not None:                 # the picture is the table as the player deciding now sees it
        session.confirm_eyes(d.player)
    scene = app.build("play", {"session": session, "map_id": map_id})
    scene.state.toggles.update(reach=reach, sight=sight, threat=threat)
    app.switch(scene)
    if select:
        scene.pointer.select(_find_piece(scene, select))
    if hover:
        from game.kit import Hover
        scene.routing.apply(Hover(scene.pointer.screen_pos_of(_find_piece(scene, hover))))
    for _ in range(frames):
        app.step(1 / 60, events=[])
        scene.update(1.5)  # let tooltips and animations settle
    path = save_png(app.screen, out)
    pygame.quit()
    return path


def _find_piece(scene, name_or_id: str) -> str:
    pieces = scene.state.pieces
    for p in pieces:
        if name_or_id in (p["id"], p["name"]):
            return p["id"]
    raise ValueError(f"no model {name_or_id!r} on the table (models: {', '.join(p['id'] for p in pieces)})")


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
    scene = app.build("editor", {"mapfile": mapfile, "path": Path(path) if path else None, "note": note})
    if note:
        scene.state.doc.stack.saved_version = -1   # a recovered draft is not saved anywhere
    app.switch(scene)
    app.run(max_frames=frames, screenshot=screenshot_path)
    return 0


def run_replay(game, size=(1280, 720), frames: int | None = None, seats=None) -> int:
    """A saved game in a window, to step through (``game/play/timeline.py``); ``seats``: who sat
    where, as the save records it (None: not known)."""
    app = make_app(size, window=True)
    app.go(Switch("replay", {"setup": game.setup, "decisions": game.decisions, "at": 0, "seats": seats}))
    app.run(max_frames=frames)
    return 0
