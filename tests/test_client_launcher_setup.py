"""The launcher's Mission list, Options dialog and seat descriptions (issue 49), driven through the
real window loop (``App.step``) by the events a hand makes: clicks on the lists and their items,
the wheel, keys and typed text."""
from __future__ import annotations

import pygame
import pytest
from client_helpers import app_fixture, click, frame, key, key_event, motion

from engine.core.rules import get_rules
from engine.data.maps import load_named_map
from game.settings import Settings

app = app_fixture()
small_app = app_fixture(size=(1024, 600))

BARE = load_named_map("outpost").model_copy(update={"objectives": [], "id": "bare-outpost", "name": "Bare Outpost"})


def launcher(app, extra_map=None, **settings):
    from game.scenes.launcher import LauncherScene
    sc = LauncherScene(app, Settings(**{"ruleset": "counterblast", "map": "outpost", **settings}), extra_map=extra_map)
    app.switch(sc)
    frame(app, n=2)
    return sc


def pick(app, dd, text_starts: str) -> None:
    """Open a drop-down by a click and click the item whose text is ``text_starts``, else the first
    that starts with it ("ai:hard" is not "ai:hard-2026", listed before it)."""
    click(app, dd.rect.center)
    frame(app)
    items = dd.menu_states["expanded"].options_selection_list.item_list
    item = next((i for i in items if i["text"] == text_starts), None) or \
        next(i for i in items if i["text"].startswith(text_starts))
    click(app, item["button_element"].rect.center)
    frame(app, n=2)


def type_into(app, entry, text: str) -> None:
    """Click the entry, clear it with Backspace, type ``text`` key by key."""
    click(app, entry.rect.center)
    frame(app, [key_event(pygame.K_END)])
    for _ in range(len(entry.get_text()) + 2):
        frame(app, [key_event(pygame.K_BACKSPACE)])
    for ch in text:
        frame(app, [pygame.event.Event(pygame.TEXTINPUT, text=ch)])
    frame(app)


def open_options(app, sc):
    click(app, sc.options_b.rect.center)
    frame(app, n=2)
    assert sc.dialog is not None and sc.dialog.window.alive()
    return sc.dialog


def scroll_to_row(app, dialog, name: str):
    """Turn the wheel over the dialog until the row of ``name`` is on screen; its widgets."""
    index = [f.name for f in dialog.form.fields].index(name)
    for _ in range(200):
        if name in dialog.rows:
            return dialog.rows[name]
        up = index < dialog.first
        frame(app, [motion(dialog.rect.center), pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1 if up else -1,
                                                                   flipped=False)])
    raise AssertionError(f"{name} never scrolled into view")


# --- the mission -------------------------------------------------------------------------------
def test_the_mission_chosen_reaches_the_game_and_is_remembered(app):
    from game.scenes.play import PlayScene
    sc = launcher(app)
    assert sc.mission == "salvage-rights"                       # the outpost's three markers
    assert "Control objective markers" in " ".join(lb.text for lb in sc.summary_lines)
    pick(app, sc.dd_mission, "Data Heist")
    assert sc.mission == "data-heist"
    words = " ".join(lb.text for lb in sc.summary_lines)
    assert "Hack objective markers" in words and "evac point" in words  # the summary follows the choice
    click(app, sc.start.rect.center)
    assert isinstance(app.scene, PlayScene)
    assert app.scene.state.session.game.setup.options["mission"] == "data-heist"
    assert app.scene.state.session.game.rules.mission.id == "data-heist"
    assert Settings.load().missions == {"counterblast": "data-heist"}
    app.scene.close()
    again = launcher(app, **{k: v for k, v in Settings.load().__dict__.items() if k != "notice"})
    assert again.mission == "data-heist"


def test_a_mission_the_map_cannot_hold_is_marked_and_start_says_why(app):
    sc = launcher(app, extra_map=BARE)
    assert sc.mission == "headhunters"                          # the map's own choice: no markers
    labels = list(sc.mission_labels)
    assert "Salvage Rights  - not on this map" in labels and "Data Heist  - not on this map" in labels
    assert "Headhunters" in labels
    pick(app, sc.dd_mission, "Salvage Rights")
    why = get_rules("counterblast").mission_problem(BARE, "salvage-rights")
    assert why in sc.reason.html_text.replace("&#x27;", "'").replace("&#39;", "'")
    assert not sc.start.is_enabled
    sc.start_game()                                             # Enter, or a call: no game either
    assert app.scene is sc and why in sc.error


def test_a_ruleset_without_missions_shows_one_way_to_play(app, monkeypatch):
    from engine.core.rules import Rules
    frontier = get_rules("frontier")
    from game.launch.choices import refusal
    monkeypatch.setattr(frontier, "missions", classmethod(Rules.missions.__func__))
    refusal.cache_clear()
    try:
        sc = launcher(app, ruleset="frontier", map="town")
        assert sc.mission is None and not sc.dd_mission.is_enabled
        assert "mission" not in sc.game_options()
    finally:    # the refusals worked out under the patch must not outlive it (another test read
        refusal.cache_clear()    # "no mission 'fight'" for the town from this cache)


# --- the seats --------------------------------------------------------------------------------
def test_each_seat_says_what_its_player_does_and_how_long_it_thinks(app):
    from engine.ai.about import about
    sc = launcher(app, seats=["human", "ai:normal"])
    assert " ".join(lb.text for lb in sc.seat_lines[2]).startswith("Thinks 0.25 s a decision.")
    pick(app, sc.dd_seat[2], "ai:hard")
    assert sc.settings.seats[1] == "ai:hard"
    assert " ".join(lb.text for lb in sc.seat_lines[2]) == about("hard")
    assert "0.8 s" in about("hard") and "at once" in about("random") and "at once" in about("easy")
    click(app, sc.dd_seat[1].rect.center)                       # the list open: the guide to every choice
    frame(app)
    assert sc.dd_seat[1].current_state is sc.dd_seat[1].menu_states["expanded"]
    frame(app, n=1)                                             # drawn without error (the app checks crashes)


# --- the options dialog -------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset,map_id", [("counterblast", "outpost"), ("frontier", "town"), ("doubles", "prehistoric")])
def test_the_options_dialog_lists_every_field_with_its_description(small_app, ruleset, map_id):
    sc = launcher(small_app, ruleset=ruleset, map=map_id)
    d = open_options(small_app, sc)
    model = get_rules(ruleset).options_model()
    want = [n for n in model.model_fields if n not in ("schema_version", "mission", "deployment")]
    seen, texts = [], []
    for _ in range(100):
        for name, row in d.rows.items():
            if name not in seen:
                seen.append(name)
                texts.append(" ".join(w.text for w in row["all"] if hasattr(w, "text") and w is not row["value"]))
        if d.first == d.last_first():
            break
        frame(small_app, [key_event(pygame.K_PAGEDOWN)])
    assert seen == want
    for name, words in zip(seen, texts):
        f = model.model_fields[name]
        assert f.description.split()[0] in words and "default" in words, name
    # every row fits in the window, which fits in the screen
    assert small_app.screen.get_rect().contains(d.rect)
    for row in d.rows.values():
        for w in row["all"]:
            assert d.window.get_container().get_rect().contains(w.rect), w


def test_options_chosen_reach_the_setup_and_are_remembered_per_ruleset(app):
    from game.scenes.play import PlayScene
    sc = launcher(app)
    d = open_options(app, sc)
    type_into(app, scroll_to_row(app, d, "dice_cap")["value"], "8")
    assert d.form.changed("dice_cap") and "changed" in d.rows["dice_cap"]["default"].text
    click(app, scroll_to_row(app, d, "cover_vs_strikes")["value"].rect.center)       # a toggle: no -> yes
    pick(app, scroll_to_row(app, d, "psi_ability")["value"], "zap")
    type_into(app, scroll_to_row(app, d, "cover_fraction")["value"], "1/2")
    click(app, d.ok_b.rect.center)
    assert sc.dialog is None
    assert sc.settings.house_rules["counterblast"] == {"dice_cap": 8, "cover_vs_strikes": True,
                                                       "psi_ability": "zap", "cover_fraction": "1/2"}
    assert "4 changed" in sc.options_b.text
    click(app, sc.start.rect.center)
    assert isinstance(app.scene, PlayScene)
    g = app.scene.state.session.game
    assert {k: g.setup.options[k] for k in ("dice_cap", "cover_vs_strikes", "psi_ability", "cover_fraction")} == \
        {"dice_cap": 8, "cover_vs_strikes": True, "psi_ability": "zap", "cover_fraction": "1/2"}
    assert g.rules.opt.dice_cap == 8 and g.rules.opt.psi_ability == "zap"
    assert Settings.load().house_rules == {"counterblast": sc.settings.house_rules["counterblast"]}
    app.scene.close()


def test_a_bad_value_is_refused_in_the_dialog_with_the_field_and_reason(small_app):
    sc = launcher(small_app)
    d = open_options(small_app, sc)
    type_into(small_app, scroll_to_row(small_app, d, "dice_cap")["value"], "lots")
    assert "dice cap" in d.problem.html_text and "integer" in d.problem.html_text
    click(small_app, d.ok_b.rect.center)
    assert sc.dialog is d and d.window.alive()                  # refused: the dialog stays open
    assert "refused" in d.rows["dice_cap"]["default"].text
    type_into(small_app, d.rows["dice_cap"]["value"], "99")     # past the model's bound (30)
    assert "dice cap" in d.problem.html_text and "30" in d.problem.html_text
    key(small_app, pygame.K_RETURN)                             # Enter is the dialog's, not Start's
    assert sc.dialog is d
    # a rule between fields (the middle share above the high one)
    type_into(small_app, d.rows["dice_cap"]["value"], "10")
    type_into(small_app, scroll_to_row(small_app, d, "battle_mid_share")["value"], "9/10")
    click(small_app, d.ok_b.rect.center)
    assert sc.dialog is d and "battle_mid_share must not exceed battle_high_share" in d.problem.html_text
    click(small_app, d.reset_b.rect.center)                     # Reset: every default, nothing refused
    assert d.problem.html_text == "" and not any(d.form.changed(f.name) for f in d.form.fields)
    click(small_app, d.ok_b.rect.center)
    assert sc.dialog is None and "counterblast" not in sc.settings.house_rules
    assert not small_app.crashes


def test_cancel_and_escape_keep_the_options_as_they_were(app):
    sc = launcher(app, house_rules={"counterblast": {"turns": 4}})
    assert sc.game_options()["turns"] == 4 and "1 changed" in sc.options_b.text
    d = open_options(app, sc)
    assert d.form.raw["turns"] == "4" and d.form.changed("turns")
    type_into(app, scroll_to_row(app, d, "turns")["value"], "5")
    key(app, pygame.K_ESCAPE)
    assert sc.dialog is None and sc.settings.house_rules == {"counterblast": {"turns": 4}}
    d = open_options(app, sc)
    click(app, d.cancel_b.rect.center)
    assert sc.dialog is None and sc.settings.house_rules == {"counterblast": {"turns": 4}}


def test_remembered_options_the_model_refuses_stop_start_with_the_reason(app):
    sc = launcher(app, house_rules={"counterblast": {"dice_cap": 1000}})
    assert not sc.start.is_enabled and "dice_cap" in sc.reason.html_text
    d = open_options(app, sc)
    click(app, d.reset_b.rect.center)
    click(app, d.ok_b.rect.center)
    assert sc.start.is_enabled


def test_the_options_dialog_survives_a_resize(app):
    sc = launcher(app)
    d = open_options(app, sc)
    type_into(app, scroll_to_row(app, d, "turns")["value"], "3")
    frame(app, [pygame.event.Event(pygame.VIDEORESIZE, w=1024, h=600, size=(1024, 600))])
    assert sc.dialog is not None and sc.dialog is not d and sc.dialog.form.raw["turns"] == "3"
    assert app.screen.get_rect().contains(sc.dialog.rect)


def test_the_scroll_bar_and_the_keys_scroll_the_rows(small_app):
    from client_helpers import press, release
    sc = launcher(small_app)
    d = open_options(small_app, sc)
    shown_first = list(d.rows)
    arrow = d.bar.bottom_button.rect.center
    frame(small_app, [motion(arrow), press(arrow)], n=30)        # the bar's down arrow held
    frame(small_app, [release(arrow)], n=3)
    assert d.first > 0 and list(d.rows) != shown_first
    key(small_app, pygame.K_PAGEUP)
    key(small_app, pygame.K_PAGEUP)
    assert d.first == 0 and list(d.rows) == shown_first
    for _ in range(40):
        key(small_app, pygame.K_PAGEDOWN)
    assert d.first == d.last_first() and d.form.fields[-1].name in d.rows   # the last row reached, whole
