"""The client keeps its promises (issue 25): the tape measure survives its release, a hidden
hand is never drawn before its player took the device, undo stops at any reveal, lengths speak
the map's unit. Each test drives the real scenes headless with the events a hand would make."""
from __future__ import annotations

import math

import pygame
import pytest

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.data.maps import load_named_map
from game.render import overlays as ov
from game.session import GameSession

HOME = {"counterblast": "outpost", "frontier": "town", "doubles": "prehistoric"}


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("SKIRMISH_HOME", str(tmp_path))
    from game.scenes.base import App
    a = App((1280, 720))
    yield a
    pygame.quit()
    assert not a.crashes, f"the client crashed: {a.crashes[0]!r}"


def frame(app, events=(), n=1, dt=1 / 60):
    app.step(dt, list(events))
    for _ in range(n):
        app.step(dt)


def motion(pos, buttons=(0, 0, 0)):
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=buttons)


def key(app, k, mod=0):
    frame(app, [pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)])


def empty_spot(scene):
    """A point of the table, in window pixels, with no model within 40 px."""
    r = scene.table_rect
    for fx in (0.5, 0.3, 0.7, 0.4, 0.6):
        for fy in (0.5, 0.3, 0.7, 0.4, 0.6):
            pos = (r.x + int(r.w * fx), r.y + int(r.h * fy))
            if all(math.dist(pos, scene.screen_pos_of(p["id"])) > 140 for p in scene.pieces):
                return pos
    raise AssertionError("no empty spot on the table")


@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_releasing_a_tape_measure_keeps_the_game_and_the_tape(app, ruleset):
    """Item 1: press on empty table, drag 100 px, release: the tape stays, with its length."""
    from game.scenes.play import PlayScene
    session = GameSession.new(ruleset, load_named_map(HOME[ruleset]), (), {1: "human", 2: "ai:random"}, 3,
                              autosave=False)
    scene = PlayScene(app, session, HOME[ruleset])
    app.switch(scene)
    frame(app)
    a = empty_spot(scene)
    b = (a[0] + 100, a[1])
    frame(app, [motion(a), pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1)])
    frame(app, [motion((a[0] + 50, a[1]), (1, 0, 0)), motion(b, (1, 0, 0))])
    assert scene.tape is not None                      # shown while dragging
    frame(app, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1)])
    assert app.scene is scene and scene.tape is not None
    length, _, _ = scene.tape_length()
    # 100 px at the camera's scale, point to point (no model at either end)
    assert length == pytest.approx(100 / scene.cam.px_per_mm, rel=0.02)
    frame(app, n=3)                                    # and the frames after it draw


def hot_seat_frontier(app):
    """Launcher -> Last Hope Frontier -> town -> both sides human -> Start, as a user does."""
    from game.scenes.launcher import LauncherScene
    from game.settings import Settings
    launcher = LauncherScene(app, Settings(ruleset="frontier", map="town"))
    app.switch(launcher)
    frame(app)
    launcher.settings.sides = {1: "human", 2: "human"} if hasattr(launcher.settings, "sides") else None
    for i in (0, 1):
        launcher.side_menus[i].selected_option = ("human", "human")
    launcher.start_game()
    return app.scene


def test_hot_seat_never_draws_a_hand_before_its_player_takes_the_device(app, monkeypatch):
    """Item 2: from the very first decision, a pass screen comes before any private frame."""
    from game.scenes.passing import PassScene
    from game.scenes.play import PlayScene
    drawn = []                                         # (eyes confirmed, player whose table is drawn)
    orig = PlayScene.draw

    def spy(self, screen):
        drawn.append((self.session.eyes, self.viewer, self.session.pass_due()))
        return orig(self, screen)

    monkeypatch.setattr(PlayScene, "draw", spy)
    session = GameSession.new("frontier", load_named_map("town"), (), {1: "human", 2: "human"}, 1, autosave=False)
    play = PlayScene(app, session, "town")
    app.switch(play)
    frame(app, n=2)
    first = session.pending().player
    assert isinstance(app.scene, PassScene) and app.scene.player == first
    assert all(pass_due is None for _, _, pass_due in drawn)       # no table frame yet, or a blank one
    assert not any(viewer is not None for _, viewer, _ in drawn)
    key(app, pygame.K_RETURN)
    assert app.scene is play and session.eyes == first
    frame(app, n=2)
    assert play.viewer == first and play.view["you"] == first
    # the first player moves a model; the other player's decision waits behind a pass screen
    d = session.pending()
    ch = next(iter(d.options), None)
    if ch is None:
        from engine.rulesets.common import MoveSpace
        space = next(s for s in d.spaces if isinstance(s, MoveSpace))
        ch = space.sample(__import__("random").Random(1))
    play.submit(ch)
    drawn.clear()
    frame(app, n=2)
    nxt = session.pending().player
    if nxt != first:
        assert isinstance(app.scene, PassScene) and app.scene.player == nxt
        assert all(eyes == first and viewer == first for eyes, viewer, _ in drawn if _ is None)
    for eyes, viewer, _ in drawn:
        assert viewer == eyes                          # the table drawn is always the confirmed player's


def frontier_defence_against_the_ai():
    """A Frontier game where player 2 (the AI side) shoots and player 1 must choose a defend card."""
    for seed in range(1, 30):
        g = Game(Setup("frontier", load_named_map("town"), (), {}, seed))
        agents = {p: make_agent("easy", p, 11 + p) for p in (1, 2)}
        for a in agents.values():
            a.attach(g.table, g.rules)
        while (d := g.pending()) is not None:
            if d.player == 1 and d.kind == "defend card" and g.decisions[-1][0] == 2:
                return g
            g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    raise AssertionError("player 1 never had to defend")


def test_undo_stops_at_the_reveal_of_the_opponents_card():
    """Item 3: after choosing a defend card the AI's card is revealed: no taking it back."""
    g = frontier_defence_against_the_ai()
    s = GameSession(g, {1: "human", 2: "ai:random"}, autosave=False)
    d = s.pending()
    events = s.submit(1, d.options[0], d.seq).events
    assert any(e.kind == "reveal" for e in events)
    assert g.revealed[-1] is True
    assert s.undo_target() is None and not s.undo()


def test_undo_still_takes_back_a_move_that_revealed_nothing():
    g = Game(Setup("frontier", load_named_map("town"), (), {}, 1))
    s = GameSession(g, {1: "human", 2: "human"}, autosave=False)
    d = s.pending()
    from random import Random

    from engine.rulesets.common import MoveSpace
    space = next(sp for sp in d.spaces if isinstance(sp, MoveSpace))
    h0 = g.state_hash()
    s.submit(d.player, space.sample(Random(2)), d.seq)
    assert s.game.revealed[-1] is False
    assert s.undo() and s.game.state_hash() == h0


def test_a_card_drawn_is_a_reveal():
    """The end of a Frontier turn deals cards: the decision that ends it cannot be taken back."""
    g = Game(Setup("frontier", load_named_map("town"), (), {}, 4))
    agents = {p: make_agent("random", p, 5 + p) for p in (1, 2)}
    turn = g.state.turn
    while g.state.turn == turn:
        d = g.pending()
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    assert g.revealed[-1] is True


def test_tape_label_uses_the_maps_unit(app):
    """Item 4 (client side): a Doubles tape reads in centimetres."""
    from game.scenes.play import PlayScene
    session = GameSession.new("doubles", load_named_map("prehistoric"), (), {1: "human", 2: "ai:random"}, 3,
                              autosave=False)
    scene = PlayScene(app, session, "prehistoric")
    assert scene.unit == "cm"
    assert ov.length_text(100.0, scene.unit).endswith("cm")
