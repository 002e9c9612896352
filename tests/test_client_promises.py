"""The client keeps its promises (issue 25): the tape measure survives its release, a hidden
hand is never drawn before its player took the device, undo stops at any reveal, lengths speak
the map's unit. Each test drives the real scenes headless with the events a hand would make."""
from __future__ import annotations

import math

import pygame
import pytest
from ai_fixtures import HOME  # each ruleset's home map, from the engine
from client_helpers import app, frame, game_screen, key, motion  # noqa: F401

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.data.maps import load_named_map
from game.render import overlays as ov
from game.session import GameSession


def empty_spot(scene):
    """A point of the table, in window pixels, with no model within 40 px."""
    r = scene.state.table_rect
    for fx in (0.5, 0.3, 0.7, 0.4, 0.6):
        for fy in (0.5, 0.3, 0.7, 0.4, 0.6):
            pos = (r.x + int(r.w * fx), r.y + int(r.h * fy))
            if all(math.dist(pos, scene.pointer.screen_pos_of(p["id"])) > 140 for p in scene.state.pieces):
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
    assert scene.panels.tools.tape.tape is not None                      # shown while dragging
    frame(app, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1)])
    assert app.scene is scene and scene.panels.tools.tape.tape is not None
    length, _, _ = scene.pointer.tape_length()
    # 100 px at the camera's scale, point to point (no model at either end)
    assert length == pytest.approx(100 / scene.state.cam.px_per_mm, rel=0.02)
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
        drawn.append((self.state.session.eyes, self.state.viewer, self.state.session.pass_due()))
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
    assert play.state.viewer == first and play.state.view["you"] == first
    # the first player moves a model; the other player's decision waits behind a pass screen
    d = session.pending()
    ch = next(iter(d.options), None)
    if ch is None:
        from engine.rulesets.common import MoveSpace
        space = next(s for s in d.spaces if isinstance(s, MoveSpace))
        ch = space.sample(__import__("random").Random(1))
    play.answering.submit(ch)
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
        g = Game(Setup("frontier", load_named_map("town"), (), {"deployment": "automatic"}, seed))
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
    g = Game(Setup("frontier", load_named_map("town"), (), {"deployment": "automatic"}, 1))
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
    g = Game(Setup("frontier", load_named_map("town"), (), {"deployment": "automatic"}, 4))
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
    assert scene.state.unit == "cm"
    assert ov.length_text(100.0, scene.state.unit).endswith("cm")


# --- item 4: lengths in the ruleset's unit --------------------------------------------------

def test_a_doubles_move_refusal_speaks_centimetres():
    from engine.rulesets.common import MoveSpace, MoveTo
    g = Game(Setup("doubles", load_named_map("prehistoric"), (), {"deployment": "automatic"}, 1))
    agents = {p: make_agent("random", p, p) for p in (1, 2)}
    d = g.pending()
    while not any(isinstance(s, MoveSpace) for s in d.spaces):
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
        d = g.pending()
    space = next(s for s in d.spaces if isinstance(s, MoveSpace))
    b = space.base
    far = space.allowance + 100.0
    reason = space.check(MoveTo(b.id, b.x + far, b.y)) or space.check(MoveTo(b.id, b.x - far, b.y))
    assert reason and " cm" in reason and '"' not in reason
    assert f"{far / 10:.1f} cm away" in reason or "cm" in reason


# --- item 5: the preview is what the click does ---------------------------------------------

def test_the_move_preview_is_the_engines_route_and_the_log_says_its_length():
    """Over many points of the town, a legal preview's route ends where the click will put the
    model, costs no more than the allowance, and Frontier logs that very length."""
    import random as _r

    from engine.rulesets.common import MoveSpace
    from game.controllers import GenericController
    g = Game(Setup("frontier", load_named_map("town"), (), {"deployment": "automatic"}, 0))
    d = g.pending()
    rng = _r.Random(5)
    checked = 0
    for space in [s for s in d.spaces if isinstance(s, MoveSpace)]:
        ctrl = GenericController(d, g.view(d.player)["pieces"])
        ctrl.selected = space.base.id
        for _ in range(60):
            x = space.base.x + rng.uniform(-1.5, 1.5) * space.allowance
            y = space.base.y + rng.uniform(-1.5, 1.5) * space.allowance
            pv = ctrl.preview(x, y)
            out = ctrl.click_table(x, y)
            assert pv.legal == (out.choice is not None)
            if not pv.legal:
                assert pv.reason == out.refusal
                continue
            checked += 1
            assert pv.cost <= space.allowance + 1e-6
            assert pv.path[-1] == pytest.approx((out.choice.x, out.choice.y))
            copy = g.clone()
            ev = copy.submit(d.player, out.choice)
            crow = math.dist((space.base.x, space.base.y), (out.choice.x, out.choice.y)) / 25.4
            assert f'moves {crow:.1f}"' in ev[0].text
            if pv.cost / 25.4 > crow + 0.05:     # the preview's cost, said in the log too
                assert f'({pv.cost / 25.4:.1f}" of its' in ev[0].text
    assert checked > 50


def _move_window_scene(app):
    """(game, decision, scene): easy v easy on the outpost up to the first one-model move window
    (a Rush's or a reaction's move), the game screen open on it for the human who moves."""
    from engine.rulesets.common import MoveSpace
    g = Game(Setup("counterblast", load_named_map("outpost"), (), {"deployment": "automatic"}, 2))
    agents = {p: make_agent("easy", p, p) for p in (1, 2)}
    for a in agents.values():
        a.attach(g.table, g.rules)
    while True:
        d = g.pending()
        if d.kind == "move" and any(isinstance(s, MoveSpace) for s in d.spaces):
            break
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    scene = game_screen(app, g, {d.player: "human", 3 - d.player: "ai:random"}, "outpost")
    return g, d, scene


# --- item 6: a reaction's move is previewed like any move -----------------------------------

def test_the_only_mover_of_a_decision_is_selected_with_its_preview(app):
    """An Action-roll's move (or a Rush) has one model to move: it is selected at once, so the
    route, the reach and the refusal box show with no click to find it."""
    from engine.rulesets.common import MoveSpace
    g, d, scene = _move_window_scene(app)
    mover = next(sp.actor for sp in d.spaces if isinstance(sp, MoveSpace))
    assert scene.state.ctrl.selected == mover
    b = next(sp.base for sp in d.spaces if isinstance(sp, MoveSpace))
    pv = scene.state.ctrl.preview(b.x + 400.0, b.y)
    assert pv is not None and not pv.legal and "allowed" in pv.reason     # the refusal box's words


# --- item 7: the smaller ones ---------------------------------------------------------------

def _missing_glyph(f, ch):
    def img(c):
        try:
            s = f.render(c, False, (255, 255, 255), (0, 0, 0))
        except pygame.error:
            return None
        return s.get_size(), pygame.image.tobytes(s, "RGB")
    return not ch.isspace() and img(ch) == img("\u0378")      # U+0378 is unassigned: the font's box


def test_every_character_the_engine_writes_has_a_glyph_in_the_client_font():
    from game.render.text import font
    pygame.font.init()
    f = font(15)
    assert _missing_glyph(pygame.font.Font(None, 15), "→")       # the old font's box, so the check bites
    texts = []
    for rs, mp in HOME.items():
        g = Game(Setup(rs, load_named_map(mp), (), {"deployment": "automatic"}, 2))
        agents = {p: make_agent("random", p, p) for p in (1, 2)}
        while (d := g.pending()) is not None:
            texts += [d.prompt, *d.labels]
            g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
        texts += [e.text for e in g.log]
    import pathlib
    import re
    for py in pathlib.Path("engine").rglob("*.py"):          # strings no random game reached
        texts += re.findall(r'"[^"\n]*[^\x00-\x7f][^"\n]*"', py.read_text(encoding="utf-8"))
    chars = {c for t in texts for c in t if ord(c) > 126}
    assert "→" in chars and "—" in chars
    assert not [c for c in sorted(chars) if _missing_glyph(f, c) and c not in "⊇"], "boxes in the log"


def test_ring_labels_stay_on_screen():
    from game.render.overlays import ring_label_at
    # a ring whose top is above the view: the label goes to a point of the ring that shows
    x, y = ring_label_at((200, 40), 120, (80, 16), (800, 600))
    assert 10 <= y <= 590 and 42 <= x <= 758
    assert math.hypot(x - 200, y - 40) == pytest.approx(120)
    assert ring_label_at((400, 300), 100, (80, 16), (800, 600)) == pytest.approx((400, 200))


def test_stat_cards_name_weapons_not_ids():
    g = Game(Setup("doubles", load_named_map("prehistoric"), (), {"deployment": "automatic"}, 3))
    lines = [ln for p in g.view(1)["pieces"] for ln in p["profile"] if ln.startswith("weapons:")]
    assert any("Sling stone" in ln for ln in lines)
    assert not any("_" in ln for ln in lines)


def test_model_free_options_stay_in_view_and_one_click_spends_nothing():
    from engine.rulesets.counterblast.choices import ActivateSingle
    from game.controllers import GenericController
    g = Game(Setup("counterblast", load_named_map("outpost"), (), {"deployment": "automatic"}, 1))
    agents = {p: make_agent("random", p, p) for p in (1, 2)}
    while (d := g.pending()).kind != "activate":
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    c = GenericController(d, g.view(d.player)["pieces"])
    general = [t for _, t in c.general()]
    assert "pass the turn" in general
    # a model with one option of its own (no group it leads)
    mid = next(o.model for o in d.options if isinstance(o, ActivateSingle)
               and sum(1 for ids in c.ids_of if ids and ids[0] == o.model) == 1)
    first = c.click_model(mid)
    assert first.choice is None and c.selected == mid           # selected, nothing spent
    assert "pass the turn" in [t for _, t in c.general()]        # still in view
    assert all("pass the turn" != t for _, t in c.items())
    second = c.click_model(mid)
    assert second.choice == ActivateSingle(mid)                  # the deliberate second click
    # with a model selected, a click on a friend that may act selects the friend (groups that
    # name both do not trap the selection)
    leader = next(ids[0] for ids in c.ids_of if len(ids) >= 2)
    friend = next(ids[1] for ids in c.ids_of if len(ids) >= 2 and ids[0] == leader)
    c.deselect()
    c.click_model(leader)
    out = c.click_model(friend)
    assert out.choice is None and c.selected == friend


def test_switching_ruleset_in_the_launcher_picks_a_map_it_accepts(app):
    import pygame_gui

    from game.launch.choices import RULESETS, refusal
    from game.scenes.launcher import LauncherScene
    from game.settings import Settings
    launcher = LauncherScene(app, Settings(ruleset="frontier", map="town"))
    app.switch(launcher)
    frame(app)
    ev = pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text=RULESETS["counterblast"],
                            ui_element=launcher.dd_ruleset)
    launcher.handle(ev)
    assert launcher.settings.ruleset == "counterblast"
    assert refusal("counterblast", launcher.settings.map) is None
    assert launcher.start.is_enabled


def _pick_ruleset(launcher, ruleset):
    import pygame_gui

    from game.launch.choices import RULESETS
    launcher.handle(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text=RULESETS[ruleset],
                                       ui_element=launcher.dd_ruleset))
    return launcher.settings.map


def test_switching_ruleset_from_a_default_table_starts_on_the_new_rulesets_home(app):
    """Issue 32: a player who keeps the launcher's defaults gets the table the default forces were
    balanced on. The town accepts Counterblast, but Counterblast's tables are the outpost and the
    quarry (docs/rules/counterblast.md), so leaving Frontier's home for Counterblast starts there."""
    from game.scenes.launcher import LauncherScene
    from game.settings import Settings
    launcher = LauncherScene(app, Settings(ruleset="frontier", map="town"))
    app.switch(launcher)
    frame(app)
    assert _pick_ruleset(launcher, "counterblast") == "outpost"
    assert _pick_ruleset(launcher, "doubles") == "prehistoric"
    assert _pick_ruleset(launcher, "frontier") == "town"


def test_switching_ruleset_keeps_a_table_the_player_picked(app):
    """A map the player chose (not the old ruleset's home) stays when the new ruleset accepts it."""
    from game.scenes.launcher import LauncherScene
    from game.settings import Settings
    launcher = LauncherScene(app, Settings(ruleset="frontier", map="field"))
    app.switch(launcher)
    frame(app)
    assert _pick_ruleset(launcher, "doubles") == "field"
    assert _pick_ruleset(launcher, "counterblast") == "outpost"     # Counterblast refuses the field


def test_menu_asks_first_then_the_launcher_continues_the_game(app):
    import pygame_gui

    from game.scenes.launcher import LauncherScene
    from game.scenes.play import PlayScene
    from game.userdirs import autosave_file
    session = GameSession.new("doubles", load_named_map("prehistoric"), (), {1: "human", 2: "ai:easy"}, 4)
    scene = PlayScene(app, session, "prehistoric")
    app.switch(scene)
    frame(app)
    from random import Random

    from engine.rulesets.common import MoveSpace
    d = session.pending()
    while d.player != 1:
        scene.update(0.5)
        if scene.state.worker:
            scene.state.worker.wait(5)
        scene.update(0.5)
        d = session.pending()
    space = next((s for s in d.spaces if isinstance(s, MoveSpace)), None)
    scene.answering.submit(space.sample(Random(1)) if space else d.options[0])
    h = session.game.state_hash()
    scene.routing.command("menu")
    assert app.scene is scene and scene.panels.dialogs.leave_dialog is not None      # asked, not gone
    frame(app, [pygame.event.Event(pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED, ui_element=scene.panels.dialogs.leave_dialog)])
    assert isinstance(app.scene, LauncherScene) and autosave_file().is_file()
    launcher = app.scene
    assert launcher.continue_b is not None
    launcher.continue_game()
    assert isinstance(app.scene, PlayScene)
    assert app.scene.state.session.game.state_hash() == h
    assert app.scene.state.session.seats == {1: "human", 2: "ai:easy"}


def test_an_unexpected_error_saves_the_game_and_offers_to_go_on(app, monkeypatch):
    from game.crash import CrashScene, crash_dir
    from game.scenes.play import PlayScene
    session = GameSession.new("frontier", load_named_map("town"), (), {1: "human", 2: "ai:random"}, 2)
    scene = PlayScene(app, session, "town")
    app.switch(scene)
    frame(app)
    h = session.game.state_hash()
    monkeypatch.setattr(PlayScene, "draw", lambda self, screen: 1 / 0)
    frame(app)
    assert isinstance(app.scene, CrashScene)
    crash = app.scene.crash
    assert crash.save is not None and crash.save.is_file()
    reports = list(crash_dir().glob("crash-*.txt"))
    assert reports and "ZeroDivisionError" in reports[0].read_text() and "seed 2" in reports[0].read_text()
    monkeypatch.undo()
    app.crashes.clear()                                     # this one was meant
    app.scene.resume()
    assert isinstance(app.scene, PlayScene) and app.scene.state.session.game.state_hash() == h


def test_a_save_replays_the_same_ai_choices_when_loaded(tmp_path):
    """The AI's answer depends on the game and its seed per decision: a loaded save plays on as
    the unsaved game would (easy and random think without a clock)."""
    a = GameSession.new("doubles", load_named_map("prehistoric"), (), {1: "ai:easy", 2: "ai:easy"}, 9, autosave=False)
    for _ in range(15):
        p, c = a.ai_choose()
        a.submit(p, c)
    a.save(tmp_path / "s.json")
    b = GameSession.load(tmp_path / "s.json", autosave=False)
    assert b.seats == a.seats and b.ai_seed == a.ai_seed
    for _ in range(25):
        for s in (a, b):
            p, c = s.ai_choose()
            s.submit(p, c)
    assert a.game.state_hash() == b.game.state_hash()


def test_the_model_that_acted_stays_selected(app):
    """Item 6: after an action the acting model is still selected, so hovering an enemy shows
    the odds of its next attack without another click."""
    from random import Random

    from engine.rulesets.common import MoveSpace
    g = Game(Setup("counterblast", load_named_map("outpost"), (), {"deployment": "automatic"}, 1))
    agents = {p: make_agent("random", p, p) for p in (1, 2)}
    while True:
        d = g.pending()
        if d.kind == "act" and any(isinstance(s, MoveSpace) for s in d.spaces) \
                and any(type(o).__name__ == "Aim" for o in d.options) \
                and (g.view(d.player).get("activation") or {}).get("actions_left", 0) >= 2:
            break
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    scene = game_screen(app, g, {d.player: "human", 3 - d.player: "ai:random"}, "outpost")
    s = scene.state.session
    space = next(sp for sp in d.spaces if isinstance(sp, MoveSpace))
    scene.pointer.select(space.actor)
    assert scene.state.ctrl.selected == space.actor
    scene.answering.submit(space.sample(Random(4)))
    frame(app)
    while s.pending() is not None and s.pending().player != d.player:   # (a reaction)
        scene.update(1.0)
        if scene.state.worker:
            scene.state.worker.wait(10)
        scene.update(1.0)
        frame(app)
    assert space.actor in scene.state.ctrl.actors()            # one free action left
    assert scene.state.ctrl.selected == space.actor


def test_the_p_toggle_makes_a_click_end_the_move_prone():
    """Issue 31: in Counterblast, ending a move Prone is chosen with the point (P), not asked."""
    from engine.rulesets.common import MoveSpace, MoveTo
    from engine.rulesets.counterblast.choices import MoveProne
    from game.controllers import GenericController
    g = Game(Setup("counterblast", load_named_map("outpost"), (), {"deployment": "automatic"}, 1))
    agents = {p: make_agent("random", p, p) for p in (1, 2)}
    d = g.pending()
    while not (d.kind == "act" and sum(isinstance(s, MoveSpace) for s in d.spaces) == 2):
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
        d = g.pending()
    c = GenericController(d, g.view(d.player)["pieces"])
    mid = next(s.actor for s in d.spaces if isinstance(s, MoveSpace))
    c.click_model(mid)
    b = next(s.base for s in d.spaces if isinstance(s, MoveSpace))
    assert c.prone_offered()
    import random
    pt = next(s for s in d.spaces if isinstance(s, MoveSpace)).sample(random.Random(1))
    plain = c.click_table(pt.x, pt.y)
    assert type(plain.choice) is MoveTo
    c.prone = True
    prone = c.click_table(pt.x, pt.y)
    assert type(prone.choice) is MoveProne and (prone.choice.x, prone.choice.y) == (plain.choice.x, plain.choice.y)
    events = g.submit(d.player, prone.choice)
    assert g.state.models[mid].has("prone") and any("drops Prone" in e.text for e in events)
    assert g.pending() is None or g.pending().kind != "prone"
    assert b.id == mid


def test_a_counterblast_group_is_formed_by_clicking_its_models(app):
    """Issue 31: a group activation is formed by clicking its models (the leader, then Shift+click
    the others), not read from dozens of list lines; the Jump's compass headings leave the list
    for the table."""
    from engine.rulesets.counterblast.choices import ActivateGroup, ActivateSingle
    g = Game(Setup("counterblast", load_named_map("outpost"), (), {"deployment": "automatic"}, 1))
    agents = {p: make_agent("random", p, p) for p in (1, 2)}
    while (d := g.pending()).kind != "activate" or not any(isinstance(o, ActivateGroup) and len(o.models) == 3
                                                           for o in d.options):
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    scene = game_screen(app, g, {d.player: "human", 3 - d.player: "ai:random"}, "outpost")
    assert not any(isinstance(d.options[i], ActivateGroup) and len(d.options[i].models) > 1
                   for i, _ in scene.state.ctrl.items())
    want = next(o for o in d.options if isinstance(o, ActivateGroup) and len(o.models) == 3)
    leader, *rest = want.models
    scene.pointer.select(leader)
    for mid in rest:
        frame(app, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LSHIFT, mod=pygame.KMOD_SHIFT, unicode="",
                                       scancode=0)])
        import game.play.pointer as play_mod
        orig = play_mod.pygame.key.get_mods
        play_mod.pygame.key.get_mods = lambda: pygame.KMOD_SHIFT
        try:
            pos = scene.pointer.screen_pos_of(mid)
            frame(app, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])
        finally:
            play_mod.pygame.key.get_mods = orig
    assert sorted(scene.state.ctrl.group) == sorted(rest)
    first = scene.state.ctrl.items()[0][0]
    assert d.options[first] == want                       # the group formed, first in the list
    n0 = len(g.decisions)
    key(app, pygame.K_1)
    assert g.decisions[n0] == (d.player, want)
    assert ActivateSingle(leader) != want


def test_a_click_on_the_mover_s_own_base_in_a_move_window_moves_it_there(app):
    """A Rush of 1-2" ends on or beside the model's own base: in a move window (one model, one
    thing to do) a click there is the point to move to, not a second select (seen through the
    window: tools/window_play.py's clicks on Mad Tibbs' 2" Rush were not taken)."""
    from client_helpers import click

    from engine.rulesets.common import MoveSpace
    g, d, scene = _move_window_scene(app)
    sp = next(sp for sp in d.spaces if isinstance(sp, MoveSpace))
    assert scene.state.ctrl.selected == sp.actor
    seen = len(g.decisions)
    for dx, dy in ((8.0, 0.0), (-8.0, 0.0), (0.0, 8.0), (0.0, -8.0), (6.0, 6.0)):   # within a 25 mm base
        x, y = sp.base.x + dx, sp.base.y + dy
        if scene.state.ctrl.click_table(x, y).choice is None:
            continue
        from game.render import piece_tokens as pt
        hit = pt.piece_at(scene.state.pieces, {}, x, y)
        assert hit is not None and hit["id"] == sp.actor   # the click lands on the model itself
        pos = scene.pointer.screen_of_mm(x, y)
        click(app, pos)
        frame(app, n=3)
        break
    else:
        pytest.skip("no legal point on the mover's base in this position")
    assert len(g.decisions) == seen + 1
    who, answer = g.decisions[-1][0], g.decisions[-1][1]
    assert who == d.player and getattr(answer, "model", None) == sp.actor

