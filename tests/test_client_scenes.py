"""The client driven headless (SDL dummy drivers) with synthetic mouse and key events."""
from __future__ import annotations

import math

import pygame
import pytest
from client_helpers import app, click, frame, key, play_fast_until, play_scene, show_launcher, take_device  # noqa: F401

from engine.core import Game, Setup
from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.rulesets.common import MoveSpace
from engine.rulesets.frontier.rules import INCH, Fight
from game.play.pointer import mm
from game.render import overlays as ov
from game.session import GameSession
from game.ui.status import hand_line

TOWN = load_map(resolve_map("town"))


def test_launcher_to_game_start(app):
    from game.scenes.play import PlayScene
    launcher = show_launcher(app)
    click(app, launcher.start.rect.center)
    assert isinstance(app.scene, PlayScene)
    s = app.scene.state.session
    assert s.game.setup.ruleset == launcher.settings.ruleset
    # the choices are remembered for next time
    from game.settings import Settings
    assert Settings.load().ruleset == launcher.settings.ruleset


def test_a_measured_move_with_its_path_and_an_illegal_destination(app):
    g = Game(Setup("frontier", TOWN, (), {"deployment": "automatic"}, 1))
    scene = play_scene(app, g, {1: "human", 2: "human"})
    d = scene.state.decision

    def toward_middle(space):
        b = space.base
        toward = 1 if b.x < TOWN.width * 25.4 / 2 else -1
        return toward, (b.x + toward * 2 * INCH, b.y)

    def free_round(s):   # the step is legal within 3 mm of its point (a screen pixel rounds)
        tx, ty = toward_middle(s)[1]
        return all(s.check(s.at_point(tx + dx, ty + dy)[0]) is None for dx in (-3, 0, 3) for dy in (-3, 0, 3))

    # the first model whose straight 2" step toward the middle is free (scenery stands close in
    # front of some of the deployment line)
    space = next(s for s in d.spaces if isinstance(s, MoveSpace) and free_round(s))
    mid, b = space.base.id, space.base
    click(app, scene.pointer.screen_pos_of(mid))
    assert scene.state.ctrl.selected == mid
    # hover 2" toward the middle of the table: the preview is legal and measures the route
    toward, target = toward_middle(space)
    sx, sy = ov.mm_to_screen(scene.state.cam, *target)
    pos = (round(sx) + scene.state.table_rect.x, round(sy) + scene.state.table_rect.y)
    frame(app, [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(0, 0, 0))])
    x, y = mm(scene.state, pos)
    pv = scene.state.ctrl.preview(x, y)
    assert pv.legal and len(pv.path) >= 2 and pv.cost == pytest.approx(math.dist((b.x, b.y), (x, y)), abs=0.5)
    # a destination 30" away is refused and nothing changes
    h0 = g.state_hash()
    far = ov.mm_to_screen(scene.state.cam, b.x + toward * 30 * INCH, b.y)
    click(app, (round(far[0]) + scene.state.table_rect.x, round(far[1]) + scene.state.table_rect.y))
    assert scene.state.session.game.state_hash() == h0
    assert scene.state.message and "allowed" in scene.state.message[0]
    # the legal click moves the model there
    click(app, pos)
    moved = next(p for p in scene.state.session.game.view(1)["pieces"] if p["id"] == mid)
    assert math.dist((moved["x"], moved["y"]), (x, y)) < 0.5
    # Ctrl+Z takes it back: the same state as before the move
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.state.session.game.state_hash() == h0


def test_hover_an_enemy_shows_the_engines_odds(app):
    g = Game(Setup("frontier", TOWN, (), {"deployment": "automatic"}, 1))
    from test_frontier_rules import contact, place, to_main
    place(g, "p2-outlaw_1", 40.0, 15.0)
    contact(g, "p1-marshal", "p2-outlaw_1")
    to_main(g, active=1)
    scene = play_scene(app, g, {1: "human", 2: "human"})
    click(app, scene.pointer.screen_pos_of("p1-marshal"))
    assert scene.state.ctrl.selected == "p1-marshal"
    target = next(p for p in scene.state.pieces if p["id"] == "p2-outlaw_1")
    lines = scene.overlays._aim_lines("p1-marshal", target)
    fight = Fight("p1-marshal", "p2-outlaw_1", "hunting_knife")
    label = scene.state.decision.labels[scene.state.decision.options.index(fight)]
    odds_fn = getattr(scene.state.session.game, "attack_odds", None)
    from game.scenes.play import odds_text
    assert odds_fn(fight) is not None
    expected = f"{label}: {odds_text(odds_fn(fight))}"
    assert odds_fn(fight).outcomes[0][1] > 0
    assert expected in lines
    assert any("visible" in t for t in lines)


def test_hot_seat_card_play_passes_the_table_between_players(app):
    from test_frontier_rules import contact, place, stack, to_main

    from game.scenes.passing import PassScene
    from game.scenes.play import PlayScene
    g = Game(Setup("frontier", TOWN, (), {"deployment": "automatic"}, 1))
    stack(g, 1, ["JS", "2H", "3H", "4H", "5H", "6H", "8H", "9H"])
    stack(g, 2, ["7D", "2C", "3C", "4C", "5C", "6C", "8C", "9C"])
    place(g, "p2-outlaw_1", 40.0, 15.0)
    contact(g, "p1-marshal", "p2-outlaw_1")
    to_main(g, active=1)
    scene = play_scene(app, g, {1: "human", 2: "human"})
    assert "J Spades" in hand_line(scene.state.view, 1)
    fight = Fight("p1-marshal", "p2-outlaw_1", "hunting_knife")
    assert scene.answering.submit(fight)
    # the attacker's secret card: listed for player 1, picked with a hotkey
    assert scene.state.decision.kind == "attack card" and scene.state.viewer == 1
    n = next(k for k, (i, t) in enumerate(scene.state.ctrl.items()) if "Jack of Spades" in t)
    key(app, pygame.K_1 + n)
    # control passes to player 2, whose hand differs: the pass screen comes first
    assert isinstance(app.scene, PassScene) and app.scene.player == 2
    app.screen.fill((0, 0, 0))
    frame(app)
    key(app, pygame.K_RETURN)
    assert isinstance(app.scene, PlayScene) and scene.state.viewer == 2
    assert "7 Diamonds" in hand_line(scene.state.view, 2) and "J Spades" not in hand_line(scene.state.view, 2)
    assert not any("Jack of Spades" in t for t in scene.state.log.texts)


def _run_to_game_over(app, ruleset, mapname, seed):
    from game.scenes.game_over import GameOverScene
    from game.scenes.play import PlayScene
    g = Game(Setup(ruleset, load_map(resolve_map(mapname)), (), {"deployment": "automatic"}, seed))
    scene = PlayScene(app, GameSession(g, {1: "ai:random", 2: "ai:random"}, ai_seed=seed, autosave=False), mapname)
    app.switch(scene)
    play_fast_until(app, scene, lambda: isinstance(app.scene, GameOverScene))
    assert isinstance(app.scene, GameOverScene), f"{ruleset}: no game over"
    assert app.scene.result == g.result() if scene.state.session.game is g else True
    frame(app)
    return scene.state.session.game


@pytest.mark.parametrize("ruleset,mapname", [("frontier", "town"), ("doubles", "prehistoric"),
                                             ("counterblast", "outpost")])
def test_a_random_game_runs_through_the_client_loop_to_game_over(app, ruleset, mapname):
    game = _run_to_game_over(app, ruleset, mapname, 7)
    assert game.over and game.result() is not None
    # the client submitted exactly what a headless run with the same agents would, each
    # decision's answer seeded from the AI seed and the decision (game.session.decision_seed)
    from engine.ai import make_agent
    from game.session import decision_seed
    ref = Game(Setup(ruleset, game.setup.map, (), {"deployment": "automatic"}, 7))
    agents = {p: make_agent("random", p, 0) for p in (1, 2)}
    while (d := ref.pending()) is not None:
        agents[d.player].rng.seed(decision_seed(7, d.player, d.seq))
        ref.submit(d.player, agents[d.player].choose(d, ref.view(d.player)))
    assert ref.state_hash() == game.state_hash()


def test_save_and_load_give_back_the_same_game_and_autosave_follows_the_turns(app, tmp_path):
    from engine.core.saves import load_game
    from game.scenes.play import PlayScene
    from game.userdirs import autosave_file
    g = Game(Setup("doubles", load_map(resolve_map("prehistoric")), (), {"deployment": "automatic"}, 3))
    scene = PlayScene(app, GameSession(g, {1: "ai:random", 2: "ai:random"}, ai_seed=3), "prehistoric")
    app.switch(scene)
    play_fast_until(app, scene, lambda: scene.state.session.game.state.turn >= 2)
    # the turn changed: the autosave holds the game as it was then
    auto = load_game(autosave_file())
    assert auto.state.turn == 2 and len(auto.decisions) <= len(scene.state.session.game.decisions)
    path = scene.commands.save(tmp_path / "mine.json")
    h = scene.state.session.game.state_hash()
    scene.commands.load(path)
    assert isinstance(app.scene, PlayScene) and app.scene is not scene
    assert app.scene.state.session.game.state_hash() == h
    assert app.scene.state.session.seats == scene.state.session.seats


def test_the_window_resizes_from_1024x600_up_and_never_below(app):
    g = Game(Setup("frontier", TOWN, (), {"deployment": "automatic"}, 1))
    scene = play_scene(app, g, {1: "human", 2: "ai:random"})
    frame(app, [pygame.event.Event(pygame.VIDEORESIZE, w=1600, h=900, size=(1600, 900))])
    assert app.size == (1600, 900) and scene.state.table_rect.w == 1600 - scene.state.panel_w and scene.state.panel_rect.right == 1600
    assert scene.state.panel_w > 380                                   # scales up on a large screen
    frame(app, [pygame.event.Event(pygame.VIDEORESIZE, w=800, h=500, size=(800, 500))])
    assert app.size == (1024, 600) and scene.state.table_rect.h == 600 - 46 and scene.state.panel_w == 304
    assert scene.state.log.rect.bottom <= 600 and scene.state.log.rect.h > 60  # everything fits a small laptop


@pytest.mark.parametrize("desktop, wanted, opened", [
    ((1024, 600), (1280, 720), (1024, 600)),      # the small laptop: the whole desktop, not off it
    ((1366, 768), (1280, 720), (1280, 720)),
    ((1280, 650), (1280, 720), (1280, 650)),
    ((800, 480), (1280, 720), (1024, 600)),       # below what the scenes lay out for: their minimum
])
def test_the_window_opens_no_larger_than_the_desktop(tmp_path, monkeypatch, desktop, wanted, opened):
    """Issue 46, item 3: on a 1024x600 display the window opened at 1280x720, at -128,-60."""
    from game.app import make_app

    monkeypatch.setenv("SKIRMISH_HOME", str(tmp_path))
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [desktop])
    app = make_app(wanted, window=True)
    try:
        assert app.size == opened and app.screen.get_size() == opened
        from game.scenes.launcher import LauncherScene
        app.switch(LauncherScene(app))
        frame(app)                                 # the launcher lays out in it
        assert not app.crashes
    finally:
        pygame.quit()
    picture = make_app(wanted)                     # a headless picture keeps the size asked for
    try:
        assert picture.size == wanted
    finally:
        pygame.quit()


def test_history_and_replay_name_the_seats_as_played(app, tmp_path, monkeypatch):
    """Issue 46, item 6: H and `skirmish replay` called both sides "AI random" and said "AI random
    is thinking"; they name the seats as played (a save keeps who sat where)."""
    import game.app as base
    from game.cli import main
    from game.play.source import RecordSource

    g = Game(Setup("frontier", TOWN, (), {}, 1))
    scene = play_scene(app, g, {1: "human", 2: "ai:easy"})
    played = {1: "you (The Marshal's Posse)", 2: "AI easy (The Diamond Gang)"}
    assert scene.state.names == played
    # the AI plays first: wait for the human's turn
    play_fast_until(app, scene, lambda: scene.state.worker is None and scene.state.ctrl is not None, frames=600)
    key(app, pygame.K_h)
    history = app.scene
    assert isinstance(history.state.source, RecordSource) and history.state.names == played
    prompt = history.state.last_prompt[0]
    assert prompt.startswith(played[history.state.decision.player] + " to decide: "), prompt
    assert "random" not in prompt and "thinking" not in prompt
    key(app, pygame.K_ESCAPE)
    assert app.scene is scene

    path = tmp_path / "played.json"
    scene.state.session.save(path)
    seen = {}

    def run(self, max_frames=None, screenshot=None):
        self.step(1 / 60, [])
        seen["scene"] = self.scene

    monkeypatch.setattr(base.App, "run", run)
    assert main(["replay", str(path)]) == 0
    viewer = seen["scene"]
    assert isinstance(viewer.state.source, RecordSource) and viewer.state.names == played
    assert "random" not in viewer.state.last_prompt[0] and "thinking" not in viewer.state.last_prompt[0]
    # a save that does not say who sat where (simulate's): the sides by number, no AI invented
    from engine.core.saves import save_game
    save_game(g, tmp_path / "simulated.json")
    assert main(["replay", str(tmp_path / "simulated.json")]) == 0
    assert seen["scene"].state.names == {1: "Player 1 (The Marshal's Posse)", 2: "Player 2 (The Diamond Gang)"}


def _played_out(ruleset, mapname, seed):
    from engine.ai import make_agent
    g = Game(Setup(ruleset, load_map(resolve_map(mapname)), (), {"deployment": "automatic"}, seed))
    agents = {p: make_agent("random", p, p) for p in (1, 2)}
    while (d := g.pending()) is not None:
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    return g


def test_the_game_over_screen_names_the_winning_side_its_roster_and_why(app):
    """Issue 46, item 15: it said "AI easy won / AI easy: 135 / AI easy: 33"."""
    from game.scenes.game_over import GameOverScene
    from game.scenes.play import PlayScene

    g = _played_out("frontier", "town", 6)             # side 2 wins on wounds left, 14 to 19
    assert g.result().winner == 2
    scene = PlayScene(app, GameSession(g, {1: "ai:easy", 2: "ai:easy"}, autosave=False), "town")
    app.switch(scene)
    frame(app)
    over = app.scene
    assert isinstance(over, GameOverScene)
    assert over.title == "Side 2 (The Diamond Gang, AI easy) wins"
    assert over.lines[0] == "Turn 8 is over; more wounds left (14 to 19)"      # the engine's reason
    assert over.lines[-2:] == ["Side 1 (The Marshal's Posse, AI easy): standing 5, wounds left 14",
                               "Side 2 (The Diamond Gang, AI easy): standing 5, wounds left 19"]
    # a draw, a human against the AI
    g = _played_out("doubles", "prehistoric", 3)
    assert g.result().winner is None
    scene = PlayScene(app, GameSession(g, {1: "human", 2: "ai:normal"}, autosave=False), "prehistoric")
    app.switch(scene)
    frame(app)
    over = app.scene
    assert over.title == "A draw" and over.lines[0] == "Turn limit 6: equal points"
    assert over.lines[-2:] == ["Side 1 (The Ash Skulls, you): 0", "Side 2 (The Bone Hunters, AI normal): 0"]


def test_esc_closes_the_box_drawn_on_top_first(app):
    """Issue 46, item 11: F1's box draws over F2's glossary and L's legend, but Esc closed the
    sheet underneath first. The newest box is on top, and Esc closes the top one."""
    g = Game(Setup("counterblast", load_map(resolve_map("outpost")), (), {}, 1))
    scene = play_scene(app, g, {1: "human", 2: "human"})
    drawn = []
    real_help = scene.frame.draw_help
    scene.frame.draw_help = lambda screen: (drawn.append("help"), real_help(screen))

    def top_after_a_frame():
        drawn.clear()
        if scene.panels.sheets.reference is not None:
            ref = scene.panels.sheets.reference
            real = type(ref).draw
            ref.draw = lambda *a: (drawn.append("reference"), real(ref, *a))
        frame(app, n=0)
        return drawn[-1] if drawn else None

    key(app, pygame.K_F2)
    key(app, pygame.K_F1)                          # the controls over the glossary
    assert scene.panels.sheets.reference is not None and scene.panels.sheets.show_help
    assert top_after_a_frame() == "help"
    key(app, pygame.K_ESCAPE)
    assert not scene.panels.sheets.show_help and scene.panels.sheets.reference is not None     # the top one went, the sheet stays
    key(app, pygame.K_ESCAPE)
    assert scene.panels.sheets.reference is None

    key(app, pygame.K_F1)
    key(app, pygame.K_l)                           # the legend opened after the controls: on top
    assert top_after_a_frame() == "reference"
    key(app, pygame.K_ESCAPE)
    assert scene.panels.sheets.reference is None and scene.panels.sheets.show_help
    key(app, pygame.K_ESCAPE)
    assert not scene.panels.sheets.show_help


def test_the_ais_reasons_show_one_at_a_time_and_floats_never_overlap(app):
    """Issue 46, item 14: the AI's reason labels stacked on top of each other when it played fast."""
    from game.ui.effects import FLOAT_SECONDS
    g = Game(Setup("counterblast", load_map(resolve_map("outpost")), (), {"deployment": "automatic"}, 2))
    scene = play_scene(app, g, {1: "ai:easy", 2: "ai:easy"})
    scene.state.speed = 8.0                               # the fastest the + key gives
    reasons_seen, frames = 0, 0
    while len(g.decisions) < 30 and frames < 3000:
        frame(app, n=0)
        frames += 1
        if scene.state.worker is not None:
            scene.state.worker.wait(10.0)
        live = [e for e in scene.state.effects.effects if e.reason and 0 <= scene.state.t - e.t0 <= FLOAT_SECONDS]
        assert len(live) <= 1, [e.text for e in live]
        reasons_seen = max(reasons_seen, sum(1 for e, _ in scene.state.effects.drawn if e.reason))
        drawn = scene.state.effects.drawn
        for i, (e, r) in enumerate(drawn):          # floats over one model are laid out apart
            for f, q in drawn[i + 1:]:
                assert f.a != e.a or not r.colliderect(q), (e.text, f.text)
    assert len(g.decisions) >= 30 and reasons_seen == 1
    # an outcome and a reason over the same model at once: the later one stands above
    from game.ui.effects import Effect
    scene.state.ai_enabled = False
    while scene.state.worker is not None:               # the last answer taken: nothing else floats in
        scene.state.worker.wait(10.0)
        frame(app, n=0)
    m = next(p for p in scene.state.pieces if not p["out"])
    scene.state.effects.effects = [Effect("float", m["id"], None, "-2 tokens", (255, 120, 100), scene.state.t)]
    scene.state.effects.add_reason(m["id"], "moves to the objective", scene.state.t)
    frame(app, n=0)
    (e1, r1), (e2, r2) = scene.state.effects.drawn
    assert e2.reason and r2.bottom <= r1.top


def test_ctrl_o_loads_the_save_picked_in_the_dialog(app):
    """Issue 46, item 1 (the game's side): the game's Ctrl+O dropped the path as the editor's Open
    did (measured in the window too: the dialog closed and the game stayed). A finished game's
    save, picked in the dialog's own list and OK'd, opens on its game-over screen."""
    from test_editor_files import pick_in_dialog

    from game.scenes.game_over import GameOverScene
    from game.userdirs import saves_dir

    g = _played_out("frontier", "town", 3)
    saves_dir().mkdir(parents=True, exist_ok=True)
    GameSession(g, {1: "human", 2: "ai:easy"}, autosave=False).save(saves_dir() / "finished.json")
    scene = play_scene(app, Game(Setup("counterblast", load_map(resolve_map("outpost")), (), {}, 1)),
                       {1: "human", 2: "human"})
    key(app, pygame.K_o, pygame.KMOD_CTRL)
    assert scene.panels.dialogs.file_dialog is not None
    pick_in_dialog(app, scene, "finished.json", scene.panels.dialogs.file_dialog)
    frame(app, n=2)
    over = app.scene
    assert isinstance(over, GameOverScene), type(over).__name__
    assert over.title == "Side 2 (The Diamond Gang, AI easy) wins"
