"""A monkey at the window (issue 25): thousands of random events (clicks and drags anywhere, the
wheel, every documented key, resizes, undo, save and load, menu and back) against each ruleset,
against the AI and in hot-seat. Nothing may raise, the game must always be the one a headless
replay of its decisions gives, and in hot-seat no frame may draw what the player whose eyes
the screen does not show may not see.

The default run is sized for CI; ``-m long`` runs the full 20,000 events per ruleset and mode.
"""
from __future__ import annotations

import random

import pygame
import pytest
from ai_fixtures import HOME  # each ruleset's home map, from the engine
from client_helpers import app_fixture

from engine.core import replay
from engine.data.maps import load_named_map

app = app_fixture(check_crashes=False)   # play_monkey says which crash, with its frame

KEYS = [pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_9, pygame.K_TAB, pygame.K_ESCAPE, pygame.K_F1,
        pygame.K_f, pygame.K_HOME, pygame.K_r, pygame.K_v, pygame.K_t, pygame.K_PLUS, pygame.K_MINUS,
        pygame.K_RETURN, pygame.K_SPACE, pygame.K_a]
CTRL_KEYS = [pygame.K_z, pygame.K_z, pygame.K_s, pygame.K_o]


class Monkey:
    def __init__(self, app, rng: random.Random):
        self.app, self.rng = app, rng

    def pos(self):
        w, h = self.app.size
        return self.rng.randrange(w), self.rng.randrange(h)

    def aimed(self):
        """A point worth clicking: a model that may act, or an option's row (the game moves on,
        so pass screens, reveals and turns come up)."""
        scene = self.app.scene
        ctrl = getattr(getattr(scene, "state", None), "ctrl", None)      # the game screen's
        if ctrl is None:
            return None
        rows = [i for i, _ in ctrl.items()] + [i for i, _ in ctrl.general()]
        if rows and self.rng.random() < 0.6:
            r = scene.state.options.rect_of(self.rng.choice(rows))
            return r.center if r is not None else None
        if scene.state.deploy_tray.my_turn() and self.rng.random() < 0.5:   # a model in the tray, or its zone
            chips = [r for r, _ in scene.state.deploy_tray.chips]
            if chips and self.rng.random() < 0.5:
                return self.rng.choice(chips).center
            sp = next((s for s in scene.state.decision.spaces if s.actor == ctrl.selected), None)
            if sp is not None:
                c = sp.sample(self.rng)
                return scene.pointer.screen_of_mm(c.x, c.y) if c is not None else None
        on_table = {p["id"] for p in scene.state.pieces}
        actors = sorted(a for a in ctrl.actors() if a in on_table)
        return scene.pointer.screen_pos_of(self.rng.choice(actors)) if actors else None

    def events(self) -> list:
        """One burst: a handful of what a restless hand does."""
        r, E = self.rng.random(), pygame.event.Event
        p = self.pos()
        if self.rng.random() < 0.15:
            q = self.aimed()
            if q is not None:
                return [E(pygame.MOUSEMOTION, pos=q, rel=(1, 1), buttons=(0, 0, 0)),
                        E(pygame.MOUSEBUTTONDOWN, pos=q, button=1), E(pygame.MOUSEBUTTONUP, pos=q, button=1)]
        if r < 0.30:
            return [E(pygame.MOUSEMOTION, pos=p, rel=(1, 1), buttons=(0, 0, 0)),
                    E(pygame.MOUSEBUTTONDOWN, pos=p, button=1), E(pygame.MOUSEBUTTONUP, pos=p, button=1)]
        if r < 0.45:                                       # a drag with some button
            b = self.rng.choice((1, 1, 3, 2))
            q = self.pos()
            return [E(pygame.MOUSEBUTTONDOWN, pos=p, button=b),
                    E(pygame.MOUSEMOTION, pos=((p[0] + q[0]) // 2, (p[1] + q[1]) // 2), rel=(3, 3),
                      buttons=(1, 0, 0)),
                    E(pygame.MOUSEMOTION, pos=q, rel=(3, 3), buttons=(1, 0, 0)),
                    E(pygame.MOUSEBUTTONUP, pos=q, button=b)]
        if r < 0.60:
            return [E(pygame.MOUSEMOTION, pos=p, rel=(2, -1), buttons=(0, 0, 0))]
        if r < 0.68:
            return [E(pygame.MOUSEWHEEL, x=0, y=self.rng.choice((-1, 1)), flipped=False)]
        if r < 0.90:
            return [E(pygame.KEYDOWN, key=self.rng.choice(KEYS), mod=0, unicode="", scancode=0)]
        if r < 0.96:
            return [E(pygame.KEYDOWN, key=self.rng.choice(CTRL_KEYS), mod=pygame.KMOD_CTRL, unicode="", scancode=0)]
        if r < 0.98:
            w, h = self.rng.choice(((1280, 720), (1400, 860), (1100, 600), (1600, 900)))
            return [E(pygame.VIDEORESIZE, w=w, h=h, size=(w, h))]
        scene = self.app.scene                            # the Menu button (then the dialog)
        buttons = scene.panels.buttons.buttons if hasattr(scene, "panels") else getattr(scene, "buttons", {})
        b = buttons.get("menu")
        if b is not None:
            c = b.rect.center
            return [E(pygame.MOUSEBUTTONDOWN, pos=c, button=1), E(pygame.MOUSEBUTTONUP, pos=c, button=1)]
        return []


def play_monkey(app, ruleset: str, seats: dict, n_events: int, seed: int, tmp_path, options=None):
    from game.crash import CrashScene
    from game.scenes.game_over import GameOverScene
    from game.scenes.launcher import LauncherScene
    from game.scenes.passing import PassScene
    from game.scenes.play import PlayScene
    from game.session import GameSession

    session = GameSession.new(ruleset, load_named_map(HOME[ruleset]), (), seats, seed, options=options)
    app.switch(PlayScene(app, session, HOME[ruleset]))
    monkey = Monkey(app, random.Random(seed))
    frames = {"drawn": 0, "checked": 0}
    hot_seat = list(seats.values()).count("human") == 2
    orig_draw = PlayScene.draw

    def watched_draw(self, screen):
        """The privacy invariant, on the data the drawing code is handed."""
        s = self.state.session
        if hot_seat and s.pass_due() is None:
            frames["checked"] += 1
            eyes = s.eyes
            assert eyes is not None, "a table frame before anyone took the device"
            assert self.state.viewer == eyes
            shown = dict(self.state.view)
            want = s.game.view(eyes)
            shown.pop("log", None)
            want.pop("log", None)
            assert shown == want, "the table is drawn from another view than the confirmed player's"
            hidden = {e.text for e in s.game.log if not e.visible(eyes)} - {e.text for e in s.game.log if e.visible(eyes)}
            assert not hidden & set(self.state.log.texts), "a private log line of the other player is shown"
            if self.state.ctrl is not None:
                assert self.state.decision.player == eyes, "options of the other player's decision are listed"
        frames["drawn"] += 1
        return orig_draw(self, screen)

    PlayScene.draw = watched_draw
    try:
        sent = k = 0
        while sent < n_events:
            k += 1
            scene = app.scene
            assert not isinstance(scene, CrashScene), f"crashed: {app.crashes[-1]!r}"
            if isinstance(scene, LauncherScene):          # menu was left: come back to the game
                scene.continue_game()
                continue
            if isinstance(scene, GameOverScene):
                scene.play.state.game_over_seen = True
                app.switch(scene.play)
                continue
            if not app.running:                          # nothing quits a game but the window's close
                app.running = True
            burst = monkey.events()
            sent += max(1, len(burst))
            app.step(1 / 30, burst)
            play = scene if isinstance(scene, PlayScene) else getattr(scene, "play", None)
            if isinstance(play, PlayScene) and play.state.worker is not None:
                play.state.worker.wait(10.0)
            if isinstance(scene, PassScene) and monkey.rng.random() < 0.5:
                app.step(1 / 30, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="",
                                                     scancode=0)])
            if k % 400 == 0 and isinstance(play, PlayScene):
                g = play.state.session.game
                assert replay(g.setup, g.decisions).state_hash() == g.state_hash()
        play = app.scene if isinstance(app.scene, PlayScene) else getattr(app.scene, "play", None)
        if isinstance(play, PlayScene):
            g = play.state.session.game
            assert replay(g.setup, g.decisions).state_hash() == g.state_hash()
            assert len(g.decisions) > 0, "the monkey never got a decision through"
    finally:
        PlayScene.draw = orig_draw
    assert not app.crashes, f"the client crashed: {app.crashes[0]!r}"
    if hot_seat:
        assert frames["checked"] > 0
    return frames


@pytest.mark.parametrize("ruleset", sorted(HOME))
@pytest.mark.parametrize("mode", ["ai", "hot-seat"])
def test_a_monkey_cannot_crash_the_client_or_see_the_other_hand(app, tmp_path, ruleset, mode):
    seats = {1: "human", 2: "ai:random"} if mode == "ai" else {1: "human", 2: "human"}
    play_monkey(app, ruleset, seats, 900, 11, tmp_path)


@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_a_monkey_in_a_hidden_hot_seat_deployment(app, tmp_path, ruleset):
    """Hidden deployment (docs/rules/deployment.md): every frame drawn is checked against the
    confirmed player's view, so none shows the other side's unseen placements."""
    play_monkey(app, ruleset, {1: "human", 2: "human"}, 500, 12, tmp_path, options={"deployment": "hidden"})


@pytest.mark.long
@pytest.mark.parametrize("ruleset", sorted(HOME))
@pytest.mark.parametrize("mode", ["ai", "hot-seat"])
def test_a_long_monkey(app, tmp_path, ruleset, mode):
    seats = {1: "human", 2: "ai:random"} if mode == "ai" else {1: "human", 2: "human"}
    play_monkey(app, ruleset, seats, 20_000, 5, tmp_path)
