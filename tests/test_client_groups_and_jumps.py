"""Counterblast at the table (issue 46, items 4, 5 and 8): a group's members move one after the
other by clicking the table, a Jump shows its heading and landing range and lists the compass
headings, and a friend refused from a group says why in the engine's words. Each test drives the
real scene through ``App.step`` with the events a hand makes, on staged games (models placed by
hand, ``counterblast_fixtures``)."""
from __future__ import annotations

import pygame
import pytest
from client_helpers import app, click, frame, game_screen  # noqa: F401
from counterblast_fixtures import IN, staged, submit

from engine.rulesets.common import MoveTo
from engine.rulesets.counterblast import choices as C
from game.render import overlays as ov


def scene_for(app, g):
    return game_screen(app, g, {1: "human", 2: "ai:random"}, "outpost")


GROUP = ("1-captain", "1-ranger-1", "1-ranger-2")


def at(scene, x_in, y_in):
    """Window pixels of a point of the table given in inches."""
    x, y = ov.mm_to_screen(scene.state.cam, x_in * IN, y_in * IN)
    return round(x) + scene.state.table_rect.x, round(y) + scene.state.table_rect.y


# --- item 4: a group's move, member after member ----------------------------------------------

def test_a_group_move_selects_each_member_in_turn_and_takes_the_click(app):
    """The group chose Move: the Captain is clicked and moved; then Ranger 1 is selected at once
    and a click on the table moves it, then Ranger 2; nobody is left unselected while the group's
    members still have their move."""
    g = staged({"1-captain": (18, 7), "1-ranger-1": (18, 8.3), "1-ranger-2": (18, 5.7),
                "2-drone-1": (40, 20), "2-drone-2": (40, 22)}, moxie=(5, 0))
    submit(g, C.ActivateGroup(GROUP))
    submit(g, C.GroupAction("move"))
    scene = scene_for(app, g)
    click(app, scene.pointer.screen_pos_of("1-captain"))
    assert scene.state.ctrl.selected == "1-captain"
    n0 = len(g.decisions)
    click(app, at(scene, 20, 7))
    assert type(g.decisions[n0][1]) is MoveTo and g.decisions[n0][1].model == "1-captain"
    frame(app, n=2)
    assert g.pending().player == 1 and scene.state.ctrl.selected == "1-ranger-1"
    assert "or click the table" in scene.state.prompt.html_text
    click(app, at(scene, 20, 9))
    assert g.decisions[n0 + 1][1].model == "1-ranger-1"
    frame(app, n=2)
    assert scene.state.ctrl.selected == "1-ranger-2"
    click(app, at(scene, 20, 5))
    assert g.decisions[n0 + 2][1].model == "1-ranger-2"
    frame(app, n=2)
    assert not g.state.act.step                          # the group's Move is over


# --- item 8: the engine's reason a friend cannot join -----------------------------------------

def test_a_friend_refused_from_a_group_is_told_why_in_the_engines_words(app, monkeypatch):
    g = staged({"1-captain": (18, 7), "1-medic": (16, 7), "1-dray": (16, 9), "1-ranger-1": (18, 8.3),
                "1-ranger-2": (18, 5.7), "1-ranger-3": (19.5, 7), "1-ranger-4": (19.5, 9),
                "2-drone-1": (40, 20)}, moxie=(5, 0))
    g.state.models["1-ranger-4"].gain("spent")
    scene = scene_for(app, g)
    said = []
    monkeypatch.setattr(scene.state, "say", lambda text, error=False: said.append(text))
    click(app, scene.pointer.screen_pos_of("1-captain"))
    assert scene.state.ctrl.selected == "1-captain"
    click(app, scene.pointer.screen_pos_of("1-medic"), mods=pygame.KMOD_SHIFT)
    assert said[-1] == "Doc Harrow cannot join this group: a group activation takes exactly 1 hero, not 2"
    click(app, scene.pointer.screen_pos_of("1-dray"), mods=pygame.KMOD_SHIFT)   # a character is a hero
    assert said[-1] == "Sergeant Kessa Dray cannot join this group: a group activation takes exactly 1 hero, not 2"
    click(app, scene.pointer.screen_pos_of("1-ranger-4"), mods=pygame.KMOD_SHIFT)
    assert said[-1] == "Ranger 4 cannot join this group: Ranger 4 is Spent: it has activated this turn"
    for mid in ("1-ranger-1", "1-ranger-2", "1-ranger-3"):
        click(app, scene.pointer.screen_pos_of(mid), mods=pygame.KMOD_SHIFT)
    assert said[-1] == "no group the rules allow has these models: a group activation takes up to 2 lackeys, not 3"
    assert sorted(scene.state.ctrl.group) == ["1-ranger-1", "1-ranger-2"]


def test_the_engine_says_why_it_refuses_a_group_it_did_not_offer():
    from engine.core.errors import IllegalChoice
    g = staged({"1-captain": (18, 7), "1-ranger-1": (18, 8.3), "2-drone-1": (40, 20)}, moxie=(1, 0))
    with pytest.raises(IllegalChoice) as err:
        g.check(1, C.ActivateGroup(("1-captain", "1-ranger-1")))
    assert err.value.reasons == ("a group activation costs 2 Moxie; you have 1",)
    with pytest.raises(IllegalChoice) as err:
        g.check(1, C.ActivateGroup(("1-captain", "2-drone-1")))
    assert err.value.reasons == ("a group activation costs 2 Moxie; you have 1",) or \
        err.value.reasons == ("Gun Drone 1 is not in your crew",)
    g.state.moxie[1] = 4
    with pytest.raises(IllegalChoice) as err:
        g.check(1, C.ActivateGroup(("1-captain", "2-drone-1")))
    assert err.value.reasons == ("Gun Drone 1 is not in your crew",)
    with pytest.raises(IllegalChoice) as err:
        g.check(1, C.ActivateGroup(("1-ranger-1", "1-captain")))
    assert err.value.reasons == ("a group is led by its hero; Ranger 1 is not one",)


# --- item 5: a Jump's heading and landing range, and the compass headings listed -------------

FLIGHT = (255, 214, 110)          # the flight's colour (game/render/overlays.py draw_flight)


def _ranger_acts(app, size=(1280, 720)):
    from game.app import App
    if size != app.size:
        app = App(size)
    g = staged({"1-ranger-1": (18, 7), "1-captain": (16, 7), "2-drone-1": (30, 20)}, moxie=(5, 0))
    submit(g, C.ActivateSingle("1-ranger-1"))
    scene = scene_for(app, g)
    frame(app, n=2)
    assert scene.state.ctrl.selected == "1-ranger-1"
    return app, g, scene


def _near_flight_colour(app, pos, k=3) -> bool:
    return any(tuple(app.screen.get_at((pos[0] + dx, pos[1] + dy)))[:3] == FLIGHT
               for dx in range(-k, k + 1) for dy in range(-k, k + 1))


def test_shift_draws_the_jumps_heading_and_landing_range_as_the_mouse_moves(app, monkeypatch):
    """With Shift held the table shows where a Shift+click sends the Ranger: the heading toward
    the mouse and the band from 1" to 5" (a d5), and the tooltip says so; without Shift the move's
    tooltip names what Shift+click does."""
    app, g, scene = _ranger_acts(app)
    frame(app, [pygame.event.Event(pygame.MOUSEMOTION, pos=at(scene, 25, 7), rel=(1, 0), buttons=(0, 0, 0))], n=1)
    assert not _near_flight_colour(app, at(scene, 21, 7))
    monkeypatch.setattr(pygame.key, "get_mods", lambda: pygame.KMOD_SHIFT)
    frame(app, [pygame.event.Event(pygame.MOUSEMOTION, pos=at(scene, 25, 7), rel=(1, 0), buttons=(0, 0, 0))], n=1)
    pv = scene.state.ctrl.preview(25 * IN, 7 * IN, alternate=True)
    assert pv.legal and pv.choice == C.Jump("1-ranger-1", 0.0)
    assert pv.flight.heading == 0.0 and pv.flight.near == pytest.approx(IN) and pv.flight.far == pytest.approx(5 * IN)
    for x in (19.5, 21, 22.5):                             # the band, from 1" to 5" east
        assert _near_flight_colour(app, at(scene, x, 7)), x
    assert not _near_flight_colour(app, at(scene, 18, 10))
    # the mouse moves north: the heading follows it
    frame(app, [pygame.event.Event(pygame.MOUSEMOTION, pos=at(scene, 18, 14), rel=(1, 0), buttons=(0, 0, 0))], n=1)
    assert _near_flight_colour(app, at(scene, 18, 10.5)) and not _near_flight_colour(app, at(scene, 21, 7))


def test_the_compass_headings_are_listed_after_the_other_actions_and_keys_pick_them(app):
    """docs/rules/counterblast.md: the eight compass headings are shortcuts for a player with keys.
    They come after the Ranger's other actions; hovering one draws its flight; its key jumps."""
    app, g, scene = _ranger_acts(app)
    d = g.pending()
    listed = [d.options[i] for i, _ in scene.state.ctrl.items()]
    jumps = [o for o in listed if isinstance(o, C.Jump)]
    assert [o.heading for o in jumps] == [float(h) for h in range(0, 360, 45)]
    assert listed[-8:] == jumps                           # after the others: keys 1-9 keep them
    north = listed.index(C.Jump("1-ranger-1", 90.0))
    row = scene.state.options.rect_of(d.options.index(listed[north]))
    frame(app, [pygame.event.Event(pygame.MOUSEMOTION, pos=row.center, rel=(1, 0), buttons=(0, 0, 0))], n=1)
    assert _near_flight_colour(app, at(scene, 18, 10.5))
    n0 = len(g.decisions)
    g.state.rng.force(3)                                  # d5 from a d10: 3 -> 2"
    frame(app, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1 + north, mod=0, unicode="", scancode=0)])
    assert g.decisions[n0] == (1, C.Jump("1-ranger-1", 90.0))


def test_the_shift_click_hint_fits_the_prompt_on_a_small_screen(app):
    app, g, scene = _ranger_acts(app, (1024, 600))
    text = scene.state.prompt.html_text
    assert text.endswith("or click the table (Shift+click: jump a d5)")
    assert scene.state.prompt.scroll_bar is None                 # all of it in view, nothing below a fold
