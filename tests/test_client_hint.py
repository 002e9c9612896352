"""The player's hint (issue 61, item 5): G or the Hint button asks the strongest agent what it would
do in the player's own decision, from that player's world only (``game/controllers/hint.py``),
and the screen draws it (``game/play/hint.py``). Driven through ``App.step``; the agent is held to
two rounds (``iters``) and thinks in the test's process, so the answers are quick and exact; one
test runs the real process."""
from __future__ import annotations

import random
import time

import pygame
from ai_fixtures import _agents, _game
from client_helpers import app_fixture, click_element, frame, game_screen, key_event, take_device
from test_ai_search import _hidden_variant

from engine.ai import make_agent
from engine.core.worlds import WorldGame, decode_state, event_from_json, world_of
from game.controllers.hint import HintProcess, InlineHints, hint_ask
from game.play.hint import HintPart

app = app_fixture(close_scene=True)       # a hint's process is stopped with the scene

SMALL = "hard:iters=2,prefilter=6,steps=16"
G = key_event(pygame.K_g, unicode="g")


def _until(ruleset, seed, want, limit=600, player=1):
    """A game of ``ruleset`` played by easy until ``player`` decides ``want``."""
    g = _game(ruleset, seed)
    agents = _agents(g, ("easy", "easy"), seed)
    for _ in range(limit):
        d = g.pending()
        if d.player == player and want(d):
            return g
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    raise AssertionError("never came")


def _screen(app, g, seats=None):
    scene = game_screen(app, g, seats or {1: "human", 2: "ai:easy"})
    scene.state.ai_wait = 1e9                    # the AI seat holds back: the tests say when it plays
    scene.state.hint = HintPart(SMALL, apart=False)
    return scene


def _card_play(d) -> bool:
    return any(isinstance(getattr(o, "cards", None), tuple) or isinstance(getattr(o, "card", None), str)
               for o in d.options)


def test_g_and_the_button_show_a_legal_hint_for_the_players_own_decision(app):
    """Counterblast, solo: G asks, the answer is a legal answer of the decision on screen, the
    AI seat's own answer from the same seed (an agent given the real game's sampled worlds), and
    it is drawn: its box, and its option starred in the list or its mark on the table. G again
    hides it; the Hint button asks again and gets the same answer."""
    g = _until("counterblast", 5, lambda d: d.kind == "act" and len(d.options) > 3)
    scene = _screen(app, g)
    d = g.pending()
    frame(app, [G])
    h = scene.state.hint.shown
    assert h is not None and h.key == (id(g), d.seq, 1)
    assert g.check(1, h.choice, d.seq) is d                         # a legal answer of this decision
    ask = scene.state.hint.thinker.asks[-1]
    seat = make_agent(SMALL, 1, ask.seed)                           # as an AI seat would think it
    seat.attach(g.table, g.rules)
    seat.bind_worlds(lambda rng: g.sample_world(1, rng))
    assert seat.choose(d, g.view(1)) == h.choice
    lines = scene.state.hint.lines()
    assert lines[0].startswith("\u2605 Hint (hard") and lines[1] == h.words and lines[2].startswith("Why: ")
    if h.index is not None and h.index in scene.state.listed:
        assert [i for i, t in scene.state.options._key[1] if t.startswith("\u2605 hint: ")] == [h.index]
    frame(app, [G])                                                 # G again: hidden
    assert scene.state.hint.shown is None
    assert not any("\u2605" in t for _, t in scene.state.options._key[1])
    click_element(app, scene.panels.buttons.buttons["hint"])
    assert scene.state.hint.shown is not None and scene.state.hint.shown.choice == h.choice
    assert len(scene.state.hint.thinker.asks) == 2


def test_a_frontier_card_hint_lights_the_cards_and_the_agent_sees_only_its_players_view(app, monkeypatch):
    """Frontier, a card to play: the agent asked is given player 1's view (the AI seat's view),
    in which the other hand is no card at all, and a world in which it is None; the question
    sent is the same whatever the other hand, the decks and the dice to come hold; the hinted
    card is drawn outlined in the hand."""
    from engine.ai.search import SearchAgent
    g = _until("frontier", 5, _card_play)
    seen = []
    real = SearchAgent.choose
    monkeypatch.setattr(SearchAgent, "choose", lambda self, d, view: seen.append(view) or real(self, d, view))
    scene = _screen(app, g)
    frame(app, [G])
    h = scene.state.hint.shown
    assert h is not None and h.cards and all(c in g.view(1)["cards"]["1"]["hand"] for c in h.cards)
    assert seen and seen[-1] == g.view(1)
    theirs = seen[-1]["cards"]["2"]
    assert theirs.get("hand") is None and len(g.state.cards[2].hand) > 0     # a count, no card
    ask = scene.state.hint.thinker.asks[-1]
    world = decode_state(ask.world)
    assert len(world.cards[2].hand) == len(g.state.cards[2].hand) and all(c is None for c in world.cards[2].hand)
    assert all(c is None for c in world.cards[2].deck + world.cards[1].deck)
    for k in range(2):                     # other hidden facts, the same view: the same question
        v = _hidden_variant(g, 1, k)
        assert v.state_hash() != g.state_hash() and v.view(1) == g.view(1)
        other = hint_ask(type("S", (), {"game": v, "pending": v.pending, "ai_seed": scene.state.session.ai_seed})(),
                         ask.job, SMALL, ask.asked)
        assert other == ask
    # the hinted card is outlined in the hand: its rect's edge is gold
    frame(app)
    r = dict(scene.state.hand.rects)[h.cards[0]]
    assert tuple(app.screen.get_at((r.centerx, r.top - 3)))[:3] == (255, 214, 90)


def test_a_network_seat_asks_from_its_own_world_the_same_question(app):
    """A network seat's game is its world (``WorldGame``): the question it sends is the one the
    server's game would give for that seat, nothing more (Doubles, an attack to choose)."""
    g = _until("doubles", 5, lambda d: d.kind == "action" and any(hasattr(o, "target") for o in d.options))
    d = g.pending()
    w = WorldGame(g.setup, 1, table=g.table)
    w.update(decode_state(world_of(g, 1)), d.seq, (d.player, d.kind), [p for p, _ in g.decisions],
             log=[e for e in g.log if e.visible(1)])
    local = type("S", (), {"game": g, "pending": g.pending, "ai_seed": 0})()
    seat = type("S", (), {"game": w, "pending": w.pending, "ai_seed": 0})()
    a, b = hint_ask(local, 1, SMALL, 0.0), hint_ask(seat, 1, SMALL, 0.0)
    assert a == b
    assert [event_from_json(e).text for e in a.log] == [e.text for e in g.log if e.visible(1)]


def test_an_attack_hint_draws_its_line_and_odds(app):
    """Doubles: a hint that is an attack names its target and the engine's odds, as the options
    list words them."""
    from game.play.options import odds_text
    g = _until("doubles", 5, lambda d: d.kind == "action" and any(hasattr(o, "target") for o in d.options))
    scene = _screen(app, g)
    frame(app, [G])
    h = scene.state.hint.shown
    assert h is not None
    o = g.attack_odds(h.choice)
    if o is not None:                      # the agent chose an attack: its line, its target, its odds
        assert h.target == h.choice.target and h.odds == odds_text(o)
        assert any(line == f"Odds: {h.odds}" for line in scene.state.hint.lines())


def test_no_hint_on_the_other_sides_decision_nor_behind_a_pass_screen(app):
    """Solo: while the AI seat decides, G asks nothing. Hot-seat Frontier (the hands differ):
    a hint shown for player 1 is gone once the decision is player 2's, before and after the pass
    screen; G on the pass screen asks nothing; player 2, having taken the device, may ask."""
    g = _until("counterblast", 5, lambda d: d.kind == "act", player=2)
    scene = _screen(app, g)
    frame(app, [G])
    assert scene.state.ctrl is None and scene.state.hint.shown is None and scene.state.hint.thinker is None
    assert "your own decision" in scene.state.message[0]

    g = _until("frontier", 5, lambda d: _card_play(d) and d.kind != "deploy")
    scene = _screen(app, g, {1: "human", 2: "human"})
    take_device(app)
    frame(app, [G])
    assert scene.state.hint.shown is not None and len(scene.state.hint.thinker.asks) == 1
    agents = _agents(g, ("easy", "easy"), 5)
    while g.pending().player == 1:                 # player 1 answers; player 2's turn comes
        d = g.pending()
        scene.answering.submit(agents[1].choose(d, g.view(1)))
    frame(app, [G])                                # the pass screen takes the key
    assert type(app.scene).__name__ == "PassScene"
    assert scene.state.hint.shown is None and len(scene.state.hint.thinker.asks) == 1
    take_device(app)
    frame(app)
    assert app.scene is scene and scene.state.viewer == 2 and scene.state.hint.shown is None
    frame(app, [G])
    assert scene.state.hint.shown is not None and scene.state.hint.shown.key[2] == 2
    assert scene.state.hint.thinker.asks[-1].player == 2


def test_a_stale_hint_vanishes_and_a_second_press_cancels(app):
    """The hint of a decision that was answered is dropped (its star and its box with it); two
    presses before the answer is read cancel the question: nothing is shown."""
    g = _until("counterblast", 5, lambda d: d.kind == "act" and len(d.options) > 3)
    scene = _screen(app, g)
    frame(app, [G])
    h = scene.state.hint.shown
    assert h is not None
    scene.answering.submit(h.choice)
    frame(app)
    assert scene.state.hint.shown is None and scene.state.hint.lines() == []
    assert not any("\u2605" in t for _, t in scene.state.options._key[1])
    if scene.state.ctrl is not None:                     # still player 1's: ask, and cancel at once
        frame(app, [G, G])
        assert scene.state.hint.job is None and scene.state.hint.shown is None
        assert scene.state.message[0].startswith("hint cancelled")


def test_the_hint_process_answers_in_its_budget_with_the_thinking_line_drawn(app, monkeypatch):
    """The real process (spawned, no pygame): its answer is the one thought in the window's
    process for the same question; the table says that it thinks while it does; the frames go on."""
    from game.play import hint as hint_module
    drawn = []
    real_plate = hint_module.plate
    monkeypatch.setattr(hint_module, "plate", lambda text, *a, **k: drawn.append(text) or real_plate(text, *a, **k))
    g = _until("counterblast", 5, lambda d: d.kind == "act" and len(d.options) > 3)
    scene = _screen(app, g)
    scene.state.hint = HintPart(SMALL, apart=True)
    frame(app, [G])
    assert isinstance(scene.state.hint.thinker, HintProcess) and scene.state.hint.job is not None
    end = time.monotonic() + 90
    while scene.state.hint.job is not None and time.monotonic() < end:
        frame(app)
        time.sleep(0.02)
    assert scene.state.hint.shown is not None, scene.state.hint.failed
    assert any(t.startswith("Hint: hard") for t in drawn)
    ask = hint_ask(scene.state.session, 99, SMALL)
    inline = InlineHints(g.setup, g.table)
    inline.ask(ask)
    assert inline.answer(99).choice == scene.state.hint.shown.choice
    assert scene.state.hint.thinker.alive
    scene.close()
    assert scene.state.hint.thinker is None


def test_sampled_worlds_of_a_players_world_are_the_real_games():
    """Why the hint thinks as an AI seat does: a world sampled from the player's world (all the
    hint's process holds) is the world sampled from the real game with the same RNG."""
    g = _until("frontier", 7, _card_play)
    d = g.pending()
    w = WorldGame(g.setup, 1, table=g.table)
    w.update(decode_state(world_of(g, 1)), d.seq, (1, d.kind), [p for p, _ in g.decisions],
             log=[e for e in g.log if e.visible(1)])
    assert w.sample_world(1, random.Random(3)).state_hash() == g.sample_world(1, random.Random(3)).state_hash()


# --- the process started ahead of the first press (the window's default) --------------------------

def _wait(app, until, seconds=90.0):
    end = time.monotonic() + seconds
    while not until() and time.monotonic() < end:
        frame(app)
        time.sleep(0.02)
    return until()


def test_the_hint_process_starts_ahead_once_on_the_players_world_and_ends_with_the_screen(app, monkeypatch):
    """The window's default: a game screen with a human seat starts the hint's process at once,
    before any G, once; what it is sent is that player's world only (Frontier: no card of the
    other hand); it is ready before the press, the press is answered by the same process, and
    leaving the screen ends it (no process left behind)."""
    from game.scenes.base import Scene
    monkeypatch.setenv("SKIRMISH_HINT_AHEAD", "1")
    warms = []
    real_warm = HintProcess.warm
    monkeypatch.setattr(HintProcess, "warm", lambda self, w: warms.append(w) or real_warm(self, w))
    g = _until("frontier", 5, _card_play)
    scene = game_screen(app, g, {1: "human", 2: "ai:easy"})
    scene.state.ai_wait = 1e9
    hint = scene.state.hint
    assert hint.ahead and isinstance(hint.thinker, HintProcess) and hint.job is None   # no G yet
    proc = hint.thinker.proc
    assert proc.is_alive()
    assert len(warms) == 1 and warms[0].player == 1 and warms[0].world == world_of(g, 1)
    world = decode_state(warms[0].world)
    assert len(g.state.cards[2].hand) > 0 and all(c is None for c in world.cards[2].hand)
    assert _wait(app, lambda: hint.thinker.ready_at is not None), "the process never said it was ready"
    assert hint.thinker.proc is proc and hint.starts == 1 and len(warms) == 1    # once, not per frame
    hint.agent = SMALL                                       # quick and exact from here
    frame(app, [G])
    assert _wait(app, lambda: hint.job is None)
    assert hint.shown is not None, hint.failed
    assert g.check(1, hint.shown.choice, g.pending().seq) is g.pending()
    assert hint.thinker.proc is proc and hint.starts == 1
    app.switch(Scene(app))                                   # the player leaves the game screen
    proc.join(5.0)
    assert not proc.is_alive() and proc.exitcode is not None
    assert hint.thinker is None


def test_the_hint_process_ends_when_the_game_does(app, monkeypatch):
    """Doubles one answer from its end, the human's: the process started ahead is ended by the
    answer that ends the game (before any game-over screen)."""
    monkeypatch.setenv("SKIRMISH_HINT_AHEAD", "1")
    g = _game("doubles", 5)
    agents = _agents(g, ("easy", "easy"), 5)
    while not g.over:
        d = g.pending()
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    last_player, last = g.decisions[-1]
    from engine.core import replay
    g = replay(g.setup, g.decisions[:-1])
    seats = {last_player: "human", 3 - last_player: "ai:easy"}
    scene = game_screen(app, g, seats)
    scene.state.ai_wait = 1e9
    proc = scene.state.hint.thinker.proc
    assert proc.is_alive()
    assert scene.answering.submit(last) and g.over
    proc.join(5.0)
    assert not proc.is_alive() and scene.state.hint.thinker is None


def test_no_hint_process_starts_in_a_replay_nor_for_agents_only(app, monkeypatch):
    """Ahead of a press, a process starts only for a human seat of a live game: a replay (whose
    record answers) and a game of two agents start none, however long they are shown."""
    from game.play.source import RecordSource
    from game.scenes.play import PlayScene
    monkeypatch.setenv("SKIRMISH_HINT_AHEAD", "1")
    g = _until("counterblast", 5, lambda d: d.kind == "act")
    src = RecordSource(g.setup, g.decisions, eyes=1, seats={1: "human", 2: "ai:easy"})
    scene = PlayScene(app, src.session, g.setup.map.id, source=src)
    app.switch(scene)
    frame(app, n=30)
    assert scene.state.hint.ahead and scene.state.hint.thinker is None and scene.state.hint.starts == 0
    scene = game_screen(app, _until("counterblast", 5, lambda d: d.kind == "act"), {1: "ai:easy", 2: "ai:easy"}, n=30)
    assert scene.state.hint.ahead and scene.state.hint.thinker is None and scene.state.hint.starts == 0


# --- what is drawn stays readable ------------------------------------------------------------------

def test_an_attack_hint_between_models_in_reach_marks_beyond_the_target_not_over_them(app):
    """Seen in a window game of Doubles: a javelin thrown at a model in base contact drew the
    hint's star on the two models (no arrow fits between them) and hid the attacker's token. The
    star goes beyond the target, on the side away from the attacker; the arrow's midpoint stays
    the mark when there is room for it."""
    from game.play.hint import GOLD, Hint
    from game.render import overlays as ov
    g = _until("doubles", 5, lambda d: d.kind == "action")
    scene = _screen(app, g)
    cam = scene.state.cam
    r = 12.5
    for gap, far in ((0.0, False), (200.0, True)):
        pieces = [{"id": "a", "x": 300.0, "y": 300.0, "radius": r},
                  {"id": "t", "x": 300.0 + 2 * r + gap, "y": 300.0, "radius": r}]
        part = HintPart(SMALL, apart=False)
        part.shown = Hint(None, None, None, "a attacks t", "", odds="hit 82%", actor="a", target="t")
        surf = pygame.Surface(scene.state.table_rect.size)
        part.draw_table(surf, cam, pieces, {}, "cm")
        a, t = (ov.mm_to_screen(cam, p["x"], p["y"]) for p in pieces)
        mid = (round((a[0] + t[0]) / 2), round((a[1] + t[1]) / 2))
        beyond = (round(t[0] + (r * cam.px_per_mm + 22)), round(t[1]))
        assert (tuple(surf.get_at(mid))[:3] == GOLD) is far          # the star between them only when far
        assert (tuple(surf.get_at(beyond))[:3] == GOLD) is not far   # else beyond the target


def test_the_hint_box_keeps_clear_of_what_the_hint_marks(app):
    """A hint whose mark lies under the box's usual place (the table's top right: Counterblast's
    side 1 zone) moves the box to the top left, so the mark stays in sight."""
    from game.play.hint import Hint
    from game.render import overlays as ov
    g = _until("counterblast", 5, lambda d: d.kind == "act" and len(d.options) > 3)
    scene = _screen(app, g)
    st = scene.state
    inside = (st.table_rect.w - 120, 40)                             # table coordinates, under the box
    part = HintPart(SMALL, apart=False)
    part.shown = Hint(None, None, None, "a point of the table", "", point=ov.screen_to_mm(st.cam, *inside))
    part.draw_table(app.screen.subsurface(st.table_rect), st.cam, st.pieces, {}, st.unit)
    box = part.draw_box(app.screen, st.table_rect, st.table_rect.y + 8)
    mark = (inside[0] + st.table_rect.x, inside[1] + st.table_rect.y)
    assert box is not None and not box.inflate(20, 20).collidepoint(mark)
    assert box.top == st.table_rect.y + 8 and box.left < st.table_rect.centerx      # the top left


def test_a_placement_hint_names_the_model_not_its_id(app):
    """Seen in a real window (Counterblast's deployment): the box said "place 1-grekka at (567,
    806) mm", the engine's plain words. It names the model as the tray does, and points at the
    star drawn where it goes."""
    from engine.core import Game, Setup
    g0 = _game("counterblast", 5)
    g = Game(Setup("counterblast", g0.setup.map, (), {"deployment": "alternate"}, 5))
    agents = _agents(g, ("easy", "easy"), 5)
    while g.pending().player != 1:
        d = g.pending()
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    d = g.pending()
    assert d.kind == "deploy"
    scene = _screen(app, g)
    frame(app, [G])
    h = scene.state.hint.shown
    assert h is not None and h.point is not None, scene.state.hint.failed
    sp = next(sp for sp in d.spaces if getattr(sp, "model", None) == h.choice.model)
    assert h.words == f"place {sp.name} at the star" and h.choice.model not in h.words
    assert scene.state.hint.lines()[1] == h.words
