"""The options list under a still mouse and the G hint (issue 46, items 9 and 10; issue 61, item
5): the hover card follows the rows when the list changes without the mouse moving, the hint's
starred option is scrolled into view, and a hint that is a point on the table is drawn there.
Driven through ``App.step`` with the events a hand makes."""
from __future__ import annotations

import pygame
from client_helpers import app, frame, game_screen, motion  # noqa: F401
from client_helpers import key_event as key
from counterblast_fixtures import staged, submit

from engine.rulesets.counterblast import choices as C


def scene_for(app, g, seats=None):
    return game_screen(app, g, seats or {1: "human", 2: "human"}, "outpost", n=2)


def test_the_hover_card_follows_the_list_when_it_changes_under_a_still_mouse(app, monkeypatch):
    """The mouse rests on the Ranger's second row ("Aims"); key 1 makes it drop Prone, the list
    is rebuilt for its next action and the mouse has not moved: the card drawn is the option now
    under the mouse, never the old index's (which names another option, or none)."""
    g = staged({"1-ranger-1": (18, 7), "1-captain": (16, 7), "2-drone-1": (30, 20)}, moxie=(5, 0))
    submit(g, C.ActivateSingle("1-ranger-1"))
    scene = scene_for(app, g, {1: "human", 2: "ai:random"})
    cards = []
    monkeypatch.setattr(scene.frame, "draw_option_card", lambda screen, i: cards.append(i))
    d0 = g.pending()
    items = scene.state.ctrl.items()
    aim = next(i for i, t in items if t.endswith("Aims"))
    spot = scene.state.options.rect_of(aim).center
    frame(app, [motion(spot)])
    assert scene.state.options.hover == aim and cards[-1] == aim
    frame(app, [key(pygame.K_1)])                         # drops Prone (the first row)
    assert g.decisions[-1][1] == C.GoProne("1-ranger-1")
    n = len(cards)
    frame(app, n=2)
    d1 = g.pending()
    assert d1.seq != d0.seq and [t for _, t in scene.state.ctrl.items()] == ["Ranger 1 Aims"]
    # one row now, above the mouse: nothing under it, no card (the old index was another option)
    assert scene.state.options.row_at(spot) is None and scene.state.options.hover is None
    assert len(cards) == n
    frame(app, [motion(scene.state.options.rect_of(0).center)])       # and the card comes back on a row
    assert scene.state.options.hover == 0 and cards[-1] == 0 and d1.options[0] == C.Aim("1-ranger-1")


def test_wheeling_the_list_moves_the_hover_with_the_rows():
    from game.ui.options_panel import OptionsPanel
    pygame.init()
    p = OptionsPanel(pygame.Rect(0, 0, 300, 120))
    p.set([], [(i, f"option {i}") for i in range(12)])
    spot = p.rect_of_row(1).center
    p.handle(motion(spot))
    assert p.hover == 1
    p.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1), mouse=spot)
    assert p.scroll > 0 and p.hover == p.row_at(spot) and p.hover != 1
    p.set([], [(20 + i, f"other {i}") for i in range(2)])
    assert p.hover == p.row_at(spot)


class _Picks:
    """An agent that answers with a given choice: the hint's display under test, whatever the
    strongest agent would pick."""

    def __init__(self, choice):
        self.choice = choice

    def attach(self, table, rules):
        pass

    def choose(self, decision, view):
        return self.choice


def _ranger_with_a_suggestion(app, monkeypatch, pick):
    import engine.ai
    from game.play.hint import HintPart
    g = staged({"1-ranger-1": (18, 7), "1-captain": (16, 7), "2-drone-1": (30, 20)}, moxie=(5, 0))
    submit(g, C.ActivateSingle("1-ranger-1"))
    scene = scene_for(app, g, {1: "human", 2: "ai:random"})
    scene.state.hint = HintPart(apart=False)            # thought here, when asked (no process)
    chosen = pick(g.pending())
    monkeypatch.setattr(engine.ai, "make_agent", lambda *a, **k: _Picks(chosen))
    frame(app, [key(pygame.K_g)], n=2)
    return g, scene, chosen


def test_the_starred_suggestion_is_scrolled_into_view(app, monkeypatch):
    """The hint is the last row of a list longer than the panel (the Ranger's last compass
    Jump): G stars it and scrolls the list so that its row shows."""
    g, scene, chosen = _ranger_with_a_suggestion(app, monkeypatch, lambda d: C.Jump("1-ranger-1", 315.0))
    d = g.pending()
    i = d.options.index(chosen)
    assert scene.state.options.content_h > scene.state.options.list_h          # a list with a fold
    assert scene.state.ctrl.items()[-1][0] == i
    row = scene.state.options.rect_of_row(i)
    assert scene.state.options.list_top <= row.top and row.bottom <= scene.state.options.list_top + scene.state.options.list_h
    assert dict(scene.state.options._key[1])[i].startswith("\u2605 hint: ")


def test_a_suggested_point_on_the_table_is_drawn_there(app, monkeypatch):
    """The hint is a move (a point of the move space, not a listed option): a star is drawn on the
    table at that point, and nothing is starred in the list."""
    from engine.rulesets.common import MoveTo
    from game.render import overlays as ov
    to = (20 * 25.4, 9 * 25.4)
    g, scene, chosen = _ranger_with_a_suggestion(app, monkeypatch, lambda d: MoveTo("1-ranger-1", *to))
    assert scene.state.hint.shown is not None and scene.state.hint.shown.choice == chosen
    assert not any("hint" in t for _, t in scene.state.options._key[1])
    x, y = ov.mm_to_screen(scene.state.cam, *to)
    centre = (round(x) + scene.state.table_rect.x, round(y) + scene.state.table_rect.y)
    assert tuple(app.screen.get_at(centre))[:3] == (255, 214, 90)           # the star's gold
    frame(app, [key(pygame.K_g)], n=1)                                      # G again: gone
    assert tuple(app.screen.get_at(centre))[:3] != (255, 214, 90)
