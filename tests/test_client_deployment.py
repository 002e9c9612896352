"""The deployment in the window, driven through ``App.step`` with real events: the tray, a click
and a drag to place, a refusal with the engine's reason, Q/E for a facing, "deploy the rest",
undo within the deployment, and the hidden mode's hot-seat privacy on every drawn frame."""
from __future__ import annotations

import pygame
from client_helpers import app, click, frame, key, play_scene, take_device  # noqa: F401

from engine.core import Game, Setup
from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.rulesets.deployment import PlaceSpace
from engine.rulesets.deployment.zones import zone_polys
from game.play.pointer import mm
from game.render import overlays as ov


def screen_of(scene, x, y):
    sx, sy = ov.mm_to_screen(scene.state.cam, x, y)
    return round(sx) + scene.state.table_rect.x, round(sy) + scene.state.table_rect.y


def legal_screen_point(scene):
    """A window point over the table where the selected model may be placed (the engine says)."""
    sp = next(s for s in scene.state.decision.spaces if isinstance(s, PlaceSpace) and s.actor == scene.state.ctrl.selected)
    polys = sp.polys
    xs = [x for p in polys for x, _ in p]
    ys = [y for p in polys for _, y in p]
    for i in range(1, 40):
        for j in range(1, 12):
            x = min(xs) + (max(xs) - min(xs)) * i / 40
            y = min(ys) + (max(ys) - min(ys)) * j / 12
            pos = screen_of(scene, x, y)
            mx, my = mm(scene.state, pos)
            if all(sp.check(sp.at_point(mx + dx, my + dy)[0]) is None for dx in (-4, 0, 4) for dy in (-4, 0, 4)):
                return pos
    raise AssertionError("no free spot found in the zone")


def new_game(ruleset, mapname, mode="alternate", seed=2):
    return Game(Setup(ruleset, load_map(resolve_map(mapname)), (), {"deployment": mode}, seed))


def test_a_click_places_the_picked_model_and_a_refused_spot_says_why(app):
    g = new_game("counterblast", "outpost")
    scene = play_scene(app, g, {1: "human", 2: "human"})
    assert scene.state.decision.kind == "deploy" and scene.state.deploy_tray.active
    p = scene.state.decision.player
    first = scene.state.ctrl.selected
    assert first == scene.state.decision.spaces[0].actor          # picked up at once
    # a point in the other zone: refused with the engine's reason, nothing changes
    other = zone_polys(g.table.mapfile, 3 - p)[0]
    h = g.state_hash()
    click(app, screen_of(scene, sum(x for x, _ in other) / len(other), sum(y for _, y in other) / len(other)))
    assert g.state_hash() == h
    assert scene.state.message and "deployment zone" in scene.state.message[0]
    # a legal point places it
    click(app, legal_screen_point(scene))
    take_device(app)
    assert first in {q["id"] for q in scene.state.session.view(p)["pieces"]}
    assert scene.state.session.game.pending().player == 3 - p


def test_a_drag_from_the_tray_places_that_model_and_undo_takes_it_back(app):
    g = new_game("frontier", "town", seed=3)
    scene = play_scene(app, g, {1: "human", 2: "ai:easy"})
    # the human places first or after the AI's first placement; the AI thinks in a process of
    # its own against the clock (docs/performance.md), so wait in wall time, not in frames
    import time
    deadline = time.monotonic() + 60
    while scene.state.decision.player != 1 and time.monotonic() < deadline:
        frame(app, n=5)
        time.sleep(0.02)
    assert scene.state.decision.player == 1 and scene.state.decision.kind == "deploy"
    chip_rect, chip = scene.state.deploy_tray.chips[-1]           # the last model in the tray
    target = legal_screen_point(scene) if scene.state.ctrl.selected == chip["id"] else None
    frame(app, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=chip_rect.center, button=1)])
    assert scene.state.ctrl.selected == chip["id"] and scene.panels.deploy.drag == chip["id"]
    target = target or legal_screen_point(scene)
    frame(app, [pygame.event.Event(pygame.MOUSEMOTION, pos=target, rel=(5, 5), buttons=(1, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=target, button=1)])
    placed = {q["id"] for q in scene.state.session.view(1)["pieces"]}
    assert chip["id"] in placed
    n = len(scene.state.session.game.decisions)
    if scene.state.session.game.decisions[-1][0] == 1:            # the AI has not answered yet: take it back
        key(app, pygame.K_z, pygame.KMOD_CTRL)
        assert len(scene.state.session.game.decisions) == n - 1
        assert chip["id"] not in {q["id"] for q in scene.state.session.view(1)["pieces"]}


def test_doubles_facing_turns_with_q_and_the_rest_deploys_with_a(app):
    g = new_game("doubles", "prehistoric", seed=4)
    scene = play_scene(app, g, {1: "human", 2: "human"})
    take_device(app)
    p = scene.state.decision.player
    default = scene.deploying.default_facing()
    key(app, pygame.K_q)
    assert scene.state.deploy_facing == (default + 45) % 360
    mid = scene.state.ctrl.selected
    click(app, legal_screen_point(scene))
    take_device(app)
    assert scene.state.session.game.state.fighters[mid].facing == (default + 45) % 360
    # the other side deploys the rest of its models at once
    while scene.state.decision.kind == "deploy" and scene.state.decision.player == p:
        click(app, legal_screen_point(scene))
        take_device(app)
    q = scene.state.decision.player
    key(app, pygame.K_a)
    take_device(app)
    left = scene.state.session.game.state.deploy
    assert left is None or not left["left"][q]


def test_hidden_deployment_in_hot_seat_never_draws_the_other_sides_placements(app, monkeypatch):
    """Every frame drawn while player 2 decides shows nothing of player 1's unseen placements:
    checked on the data the drawing code is given (the scene's pieces and view) at each frame."""
    g = new_game("frontier", "town", "hidden", seed=5)
    scene = play_scene(app, g, {1: "human", 2: "human"})
    drawn = []
    real = scene.draw

    def spy(screen):
        drawn.append((scene.state.session.viewer(), [q["id"] for q in scene.state.pieces], repr(scene.state.view)))
        real(screen)
    monkeypatch.setattr(scene, "draw", spy)
    first = scene.state.decision.player
    spots = []
    while scene.state.decision.kind == "deploy" and scene.state.decision.player == first:
        spots.append(scene.state.ctrl.selected)
        click(app, legal_screen_point(scene))
    from game.scenes.passing import PassScene
    assert isinstance(app.scene, PassScene), "a pass screen comes before the other player's frames"
    take_device(app)
    frame(app, n=3)
    assert scene.state.session.viewer() == 3 - first
    for viewer, ids, text in drawn:
        if viewer == 3 - first:
            assert not set(spots) & set(ids)
            for m in spots:
                x = g.state.deploy["hidden"][first][m][0] if g.state.deploy else None
                assert x is None or repr(x) not in text
