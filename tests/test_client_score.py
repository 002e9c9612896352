"""The score in play (issue 49): the score panel of the game screen, the header's mission and house
rules, the game-over screen's breakdown. Driven through ``App.step`` with real key events, headless;
the panel is drawn from ``Rules.scoreboard`` (public) and the sides' titles only."""
from __future__ import annotations

import pygame
import pytest
from client_helpers import app_fixture, frame, game_screen, key, take_device
from counterblast_fixtures import IN, staged

from engine.core import Game, Scoreboard, ScoreLine, Setup
from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.rulesets.common import MoveTo
from engine.rulesets.counterblast import choices as C

app = app_fixture(close_scene=True)                       # 1280x720
small_app = app_fixture((1024, 600), close_scene=True)    # the small laptop: the least room there is

OUTPOST = load_map(resolve_map("outpost"))

# the staged game of tests/test_counterblast_scoreboard.py, whose scores are worked out by hand there
from test_counterblast_scoreboard import POSITIONS  # noqa: E402


def _salvage():
    g = staged(POSITIONS)
    g.state.models["1-dray"].down = True
    g.state.models["2-drone-4"].down = True
    return g


FAKE = Scoreboard("The Long Haul", "The side with the most crates on the wagon when the last turn ends wins; "
                  "a crate dropped in the river counts for the other side, and a wagon that never leaves the town "
                  "scores nothing at all", 3, 8,
                  (ScoreLine("Crates", {1: "4", 2: "2"}), ScoreLine("Wagons moved", {1: "1 of 2", 2: "2 of 2"}),
                   ScoreLine("Victory points", {1: "12", 2: "9"})),
                  ("Side 2's wagon is stuck",))


def _rects_apart(scene) -> None:
    """The score panel sits inside the side panel, under the buttons, apart from every other part."""
    sp = scene.panels.score.rect
    assert scene.state.panel_rect.contains(sp), (sp, scene.state.panel_rect)
    others = {"options": scene.state.options.rect, "tray": scene.state.tray.rect, "log": scene.state.log.rect,
              **{k: b.rect for k, b in scene.panels.buttons.buttons.items()}}
    for name, r in others.items():
        assert not sp.colliderect(r), (name, r, sp)
    assert scene.state.log.rect.bottom <= scene.app.size[1] and scene.state.log.rect.h >= scene.frame.LOG_MIN_H


def test_the_score_panel_shows_the_mission_the_turn_and_each_side_and_follows_the_game(app):
    g = _salvage()
    scene = game_screen(app, g, {1: "human", 2: "human"})
    take_device(app)
    sp = scene.panels.score
    texts = sp.texts
    assert texts[:2] == ["Salvage Rights", "turn 1 of 6"]
    assert "Side 1 (Reach Rangers)" in texts and "Side 2 (The Iron Choir)" in texts     # hot seat: no "you"
    # each side's values, in the columns of its lines (the scores tests/test_counterblast_scoreboard.py works out)
    for words in ("Hold the salvage", "2 (1 held)", "4 (2 held)", "Battle score", "1 (222/500 pts)",
                  "3 (364/500 pts)", "Mission score", "3", "7", "Standing if the game ended now"):
        assert words in texts, words
    assert " ".join(texts).count("Most mission points") == 1
    _rects_apart(scene)
    assert sp.card(sp.rect.w).height <= sp.rect.h            # nothing of it cut off at 1280x720
    # it follows the game: the captain walks off obj-1, one against one there, nobody holds it
    scene.answering.submit(C.ActivateSingle("1-captain"))
    frame(app)
    away = MoveTo("1-captain", 13 * IN, 14 * IN)            # 4" from (12, 18), 5" from the marker
    assert scene.state.decision.spaces[0].check(away) is None
    scene.answering.submit(away)
    frame(app)
    texts = sp.texts
    assert "0 (0 held)" in texts and "4 (2 held)" in texts and "1" in texts      # side 1: 0 + 1
    assert "3" not in texts


def test_s_hides_the_score_and_the_log_takes_its_room_back(app):
    g = _salvage()
    scene = game_screen(app, g, {1: "human", 2: "human"})
    take_device(app)
    sp, log_h, list_h = scene.panels.score, scene.state.log.rect.h, scene.state.options.rect.h
    score_h = sp.rect.h
    assert sp.showing and score_h > 100
    key(app, pygame.K_s)
    assert not sp.open and sp.texts == [] and sp.rect.h == 0
    # the log and the options have the room again
    assert scene.state.log.rect.h > log_h and scene.state.options.rect.h >= list_h
    assert scene.state.log.rect.h + scene.state.options.rect.h == log_h + list_h + score_h + 6
    assert scene.state.message and "score hidden (S)" in scene.state.message[0]
    key(app, pygame.K_s)
    assert sp.showing and scene.state.log.rect.h == log_h and "Salvage Rights" in sp.texts
    # Ctrl+S still saves (not the score's key)
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert sp.open and scene.state.message[0].startswith("saved to ")


@pytest.mark.parametrize("mission", ["salvage-rights", "headhunters", "data-heist"])
def test_the_score_panel_fits_the_small_laptop_without_overlap(small_app, mission):
    g = Game(Setup("counterblast", OUTPOST, (), {"deployment": "automatic", "mission": mission}, 2))
    scene = game_screen(small_app, g, {1: "human", 2: "ai:easy"})
    sp = scene.panels.score
    _rects_apart(scene)
    card = sp.card(sp.rect.w)
    assert card.height <= sp.rect.h, (mission, card.height, sp.rect.h)      # nothing cut off: laid out whole
    assert scene.state.options.rect.h >= scene.frame.LIST_MIN_H
    # what wins is cut to two lines on the small screen: the whole card shows beside it on hover
    assert card.elided == (mission != "salvage-rights")
    if not card.elided:
        return
    from client_helpers import motion
    frame(small_app, [motion(sp.rect.center)])
    assert scene.state.mouse == sp.rect.center
    small_app.screen.fill((0, 0, 0))
    sp.draw_hover(small_app.screen)
    full = sp.hover_card()
    assert not full.elided and full.height > card.height
    assert small_app.screen.get_at((sp.rect.x - 8 - full.width // 2, sp.rect.y + 10))[:3] != (0, 0, 0)


def test_the_panel_draws_any_scoreboard(app):
    """A scoreboard of another shape (three lines, a turn limit of 8, a note): its words drawn."""
    from game.play.panels import Shown
    from game.play.score_panel import ScorePanel
    from game.render.look import SIDE_COLOURS

    panel = ScorePanel({1: "Side 1 (The Marshal's Posse, you)", 2: "Side 2 (The Diamond Gang, AI easy)"})
    panel.show(Shown(scoreboard=FAKE))
    h = panel.height_for(364)
    panel.layout(pygame.Rect(10, 10, 364, h))
    surf = pygame.Surface((400, h + 20))
    surf.fill((0, 0, 0))
    panel.draw(surf)
    texts = panel.texts
    for words in ("The Long Haul", "turn 3 of 8", "Side 1 (The Marshal's Posse, you)", "Crates", "4", "2",
                  "Wagons moved", "1 of 2", "2 of 2", "Victory points", "12", "9", "Side 2's wagon is stuck"):
        assert words in texts, words
    # the side's mark in its colour, on the row of its title
    colours = {tuple(surf.get_at((x, y))[:3]) for x in range(10, 40) for y in range(10, h)}
    assert tuple(SIDE_COLOURS[1]) in colours and tuple(SIDE_COLOURS[2]) in colours
    # no scoreboard: nothing drawn, no room taken
    panel.show(Shown(scoreboard=None))
    assert panel.height_for(364) == 0 and panel.texts == []


def test_a_ruleset_with_no_scoreboard_shows_no_panel(app, monkeypatch):
    from engine.rulesets.counterblast.rules import CounterblastRules
    monkeypatch.setattr(CounterblastRules, "scoreboard", lambda self, st: None)
    g = _salvage()
    scene = game_screen(app, g, {1: "human", 2: "ai:easy"})
    assert scene.panels.score.rect.h == 0 and scene.panels.score.texts == []
    assert scene.state.tray.rect.y == scene.panels.buttons.rect.y + 66       # the column as it was
    key(app, pygame.K_s)
    assert "keeps no score" in scene.state.message[0]
    assert "Salvage" not in scene.state.header                 # no mission named in the options: none in the header


def test_the_header_names_the_mission_and_the_house_rules(app):
    from game.play.frame import Frame
    from game.render.text import font
    from game.ui.status import house_rules

    g = Game(Setup("counterblast", OUTPOST, (), {"deployment": "automatic", "deployment_group": 3,
                                                  "short_range": 6, "mission": "headhunters"}, 2))
    scene = game_screen(app, g, {1: "human", 2: "ai:easy"})
    frame(app)
    assert scene.state.header == "Counterblast on Kessler Station \u00b7 Headhunters \u00b7 house rules: short_range 6"
    words, f = Frame.bar_title(scene.state.header, "Turn 1   |   act", scene.state.table_rect.w - 16)
    assert words.endswith("|   Turn 1   |   act") and "short_range 6" in words
    # too long for the bar: the set-up's words are cut with "…", the turn and phase kept whole
    words, f = Frame.bar_title(scene.state.header + " and many more house rules" * 6, "Turn 1   |   act", 600)
    assert f.size(words)[0] <= 600 and "…" in words and words.endswith("Turn 1   |   act")
    assert f is font(15)
    # an option at the ruleset's default is no house rule, once the ruleset says its defaults
    assert house_rules({"short_range": 8, "turns": 5, "deployment": "hidden", "mission": "x"},
                       {"short_range": 8.0, "turns": 6}) == ["turns 5"]
    assert house_rules({"flag": True, "size": [48, 36], "r": 6.0}) == ["flag on", "r 6", "size 48x36"]


def test_the_game_over_screen_gives_the_mission_and_each_sides_breakdown(app):
    """The staged game played out: at Upkeep the two Down models become casualties (no score
    changes), 3 to 7, side 2 wins a Major victory by 4 (tests/test_counterblast_scoreboard.py)."""
    from game.scenes.game_over import GameOverScene

    g = _salvage()
    g.state.turn = 6
    while (d := g.pending()) is not None:
        g.submit(d.player, C.PassTurn() if C.PassTurn() in d.options else d.options[0])
    scene = game_screen(app, g, {1: "ai:easy", 2: "ai:easy"})
    over = app.scene
    assert isinstance(over, GameOverScene) and scene is not over
    assert over.title == "Side 2 (The Iron Choir, AI easy) wins"            # kept: the side, its roster, who
    assert over.lines[0].startswith("Major victory by 4 (mission scores 3–7, Salvage Rights)")   # the degree
    assert over.breakdown == [
        "Salvage Rights, turn 6 of 6: Most mission points at the end (turn 6, or one crew left): Hold the salvage "
        "2 per marker held (max 6); battle 6/3/1 by points standing",
        "Side 1 (Reach Rangers, AI easy): Hold the salvage 2 (1 held); Objective score 2; "
        "Battle score 1 (222/500 pts); Mission score 3",
        "Side 2 (The Iron Choir, AI easy): Hold the salvage 4 (2 held); Objective score 4; "
        "Battle score 3 (364/500 pts); Mission score 7",
    ]                                   # the note "Major victory by 4" is the reason's: not said twice
    frame(app)
    card = over.card(min(app.size[0] - 80, 820), False)
    for words in ("Salvage Rights", "turn 6 of 6", "Side 2 (The Iron Choir, AI easy)", "Hold the salvage", "2 (1 held)",
                  "4 (2 held)", "Mission score", "3", "7"):
        assert words in card.texts, words
    assert "Major victory by 4" not in card.texts
    assert over.lines[-2:] == ["Side 1 (Reach Rangers, AI easy): 3", "Side 2 (The Iron Choir, AI easy): 7"]


def test_hot_seat_both_players_see_the_same_score_and_no_unseen_placement(app):
    """Hidden deployment, two humans: player 1 places every model unseen; after the pass screen
    player 2's score panel shows what player 1's did (dashes: no score while the crews deploy),
    nothing of where player 1's models stand."""
    from game.scenes.passing import PassScene

    g = Game(Setup("counterblast", OUTPOST, (), {"deployment": "hidden"}, 1))
    scene = game_screen(app, g, {1: "human", 2: "human"})
    take_device(app)
    first = scene.state.viewer
    seen = list(scene.panels.score.texts)
    assert "Scores count once both crews are on the table" in seen
    key(app, pygame.K_a)                          # deploy the rest, unseen
    frame(app)
    assert isinstance(app.scene, PassScene) and app.scene.player == 3 - first
    take_device(app)
    frame(app)
    assert scene.state.viewer == 3 - first
    assert scene.panels.score.texts == seen
    assert all(set(line.values.values()) == {"-"} for line in scene.state.scoreboard.lines)
