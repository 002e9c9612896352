"""The force builder (issue 49) driven through real pygame events, as a player would: from the
launcher's "Build…" button, a model added from the catalog, a weapon changed, the total moving,
a name typed, Save writing a file that ``skirmish validate`` accepts, "Use for side 1" back to
the launcher with the force listed and chosen, and Start beginning a game with it. A force over
its limit is refused with the reason; a saved force loads back; a bad file never crashes."""
from __future__ import annotations

import json

import pygame
from client_helpers import app_fixture, click, frame

from game.forces import files
from game.kit.transitions import Switch
from game.settings import Settings

app = app_fixture(close_scene=True)


def launcher_on(app, ruleset, rosters=None, house_rules=None):
    s = Settings(ruleset=ruleset, map={"counterblast": "outpost", "frontier": "town", "doubles": "prehistoric"}[ruleset],
                 seats=["human", "ai:easy"], deployment="automatic")
    if house_rules:
        s.house_rules[ruleset] = dict(house_rules)
    if rosters:
        s.rosters[ruleset] = list(rosters)
    app.go(Switch("launcher", {"settings": s}))
    frame(app)
    return app.scene


def open_builder(app, ruleset, side=1, rosters=None, house_rules=None):
    from game.scenes.force_builder import ForceBuilderScene
    launcher = launcher_on(app, ruleset, rosters, house_rules)
    click(app, launcher.build_b[side].rect.center)
    frame(app)
    assert isinstance(app.scene, ForceBuilderScene), type(app.scene)
    return app.scene


def click_row(app, panel, name):
    r = panel.row_rect(name)
    assert r is not None, f"no row {name!r} in {[row.name for row in panel.rows]}"
    click(app, r.center)


def click_button(app, panel, name, label):
    r = panel.button_rect(name, label)
    assert r is not None, f"no button {label!r} on row {name!r}"
    click(app, r.center)


def type_name(app, scene, text):
    """Click the name box, select what is there and type over it."""
    click(app, scene.name_entry.rect.center)
    frame(app, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=pygame.KMOD_CTRL, unicode="", scancode=0)])
    frame(app, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="", scancode=0)])
    frame(app, [pygame.event.Event(pygame.TEXTINPUT, text=text)])
    click(app, scene.catalog_panel.rect.move(0, -30).topleft)        # out of the box


def gui_click(app, element):
    click(app, element.rect.center)
    frame(app)


def test_build_a_warband_save_it_pick_it_and_start_a_game(app):
    scene = open_builder(app, "doubles", rosters=["obsidian_clan", "bone_hunters"])
    assert scene.draft.name == "The Obsidian Clan" and scene.price.total == 171 and scene.price.ok
    # a model from the catalog: Chip of the Bone Hunters
    click_button(app, scene.catalog_panel, "add:bone_hunters.chip", "+ Add")
    assert [m.name for m in scene.draft.models][-1] == "Chip"
    assert scene.price.total == 193 and scene.selected == 4
    # his weapon changed: a javelin instead of the sling stone
    click_row(app, scene.loadout_panel, "gear:weapon:sling_stone")
    click_row(app, scene.loadout_panel, "gear:weapon:javelin")
    assert scene.draft.models[4].gear == ["weapon:javelin"]
    total = scene.price.total
    assert total != 193 and total <= 200 and scene.price.ok
    assert scene.status_panel.rows[0].text.startswith(f"{total} pts of 200 pts")
    type_name(app, scene, "Skull Hunters")
    assert scene.draft.name == "Skull Hunters"
    gui_click(app, scene.buttons["save"])
    path = files.forces_dir("doubles") / "skull_hunters.json"
    assert path.is_file(), scene.message
    from game.cli import validate_file
    assert "'skull_hunters'" in validate_file(path) and f"{total} of 200 points" in validate_file(path)
    # taken to the launcher for side 1: listed beside the shipped warbands, and chosen
    gui_click(app, scene.buttons["use1"])
    from game.scenes.launcher import LauncherScene
    launcher = app.scene
    assert isinstance(launcher, LauncherScene)
    assert "* Skull Hunters" in launcher.roster_ids
    assert launcher.dd_roster[1].selected_option[0] == "* Skull Hunters"
    gui_click(app, launcher.start)
    from game.scenes.play import PlayScene
    assert isinstance(app.scene, PlayScene)
    setup = app.scene.state.session.game.setup
    assert setup.rosters[0] == json.loads(path.read_text()) and setup.rosters[1] == "bone_hunters"
    assert "Chip" in json.dumps(app.scene.state.session.game.view(1))


def test_a_posse_over_the_budget_is_refused_with_the_reason(app):
    scene = open_builder(app, "frontier", rosters=["sheriffs", "outlawmen"])
    assert scene.draft.group == "sheriffs" and scene.price.total == 133
    click_row(app, scene.force_panel, "model:5")                        # the third posseman
    click_row(app, scene.loadout_panel, "gear:item:hooch")              # hooch beside his whiskey: $139
    assert scene.price.total == 139 and not scene.price.ok
    assert any("over the $135 budget" in r.text for r in scene.status_panel.rows if r.name == "problem")
    gui_click(app, scene.buttons["save"])
    assert not files.forces_dir("frontier").exists() or not list(files.forces_dir("frontier").iterdir())
    assert scene.message[0].startswith("Not saved")
    gui_click(app, scene.buttons["use2"])                               # not taken either
    assert app.scene is scene
    # his whiskey left at home instead: within the budget ($135), saved
    click_row(app, scene.loadout_panel, "gear:item:whiskey")
    assert scene.price.total == 135 and scene.price.ok
    gui_click(app, scene.buttons["save"])
    assert len(list(files.forces_dir("frontier").glob("*.json"))) == 1


def test_the_builder_prices_against_the_size_chosen_in_options(app):
    """The launcher's Options set the game size (Frontier's posse budget): the builder counts
    against that, not the default $135, so the same posse is within $150 and over $120."""
    scene = open_builder(app, "frontier", rosters=["sheriffs", "outlawmen"], house_rules={"posse_budget": 150})
    assert scene.price.limit == 150 and scene.price.total == 133 and scene.price.ok
    assert any("$150" in r.text for r in scene.status_panel.rows)
    gui_click(app, scene.buttons["back"])
    scene = open_builder(app, "frontier", rosters=["sheriffs", "outlawmen"], house_rules={"posse_budget": 120})
    assert scene.price.limit == 120 and not scene.price.ok
    assert any("over the $120 budget" in r.text for r in scene.status_panel.rows if r.name == "problem")


def test_two_copies_of_a_character_are_shown_as_a_problem(app):
    scene = open_builder(app, "counterblast", rosters=["dustjaw-raiders", "iron-choir"])
    tibbs = next(i for i, m in enumerate(scene.draft.models) if m.name == "Mad Tibbs")
    raiders = next(i for i, m in enumerate(scene.draft.models) if m.name == "Raider")
    for _ in range(3):                                                  # room in the points: 6 -> 3 raiders
        click_button(app, scene.force_panel, f"model:{raiders}", "\u2212")
    assert scene.price.total == 454 - 3 * 33 and scene.price.ok        # the formula's prices: a Raider 33
    click_button(app, scene.force_panel, f"model:{tibbs}", "+")
    assert scene.draft.models[tibbs].count == 2 and not scene.price.ok
    reasons = [r.text for r in scene.status_panel.rows if r.name == "problem"]
    assert any("is a character: a crew may field only one copy" in t for t in reasons), reasons
    # the leader is chosen in the loadout panel, among those who may lead
    click_row(app, scene.force_panel, "model:3")                        # Slink, a hero
    click_row(app, scene.loadout_panel, "leader")
    assert scene.draft.leader_index() == 3
    assert scene.force_panel.rows[3].text.startswith("\u2605 ")


def test_load_a_saved_force_and_a_bad_file_does_not_crash(app):
    from engine.core.rules import get_rules
    R = get_rules("doubles")
    draft = R.read_force(R.force_catalog().starts["obsidian_clan"])
    draft.name, draft.id = "Glass", "glass"
    files.save_force("doubles", R.build_force(draft))
    (files.forces_dir("doubles") / "zz_bad.json").write_text('{"schema_version": 1, "fighters": "none"}')
    launcher = launcher_on(app, "doubles")
    assert "* Glass" in launcher.roster_ids and not any("zz_bad" in k for k in launcher.roster_ids.values())
    click(app, launcher.build_b[2].rect.center)
    frame(app)
    scene = app.scene
    gui_click(app, scene.buttons["load"])
    assert scene.load_panel.visible
    assert any(r.name == "bad:user:zz_bad" for r in scene.load_panel.rows)
    click_row(app, scene.load_panel, "bad:user:zz_bad")                 # nothing happens
    assert scene.load_panel.visible
    click_row(app, scene.load_panel, "load:user:glass")
    assert not scene.load_panel.visible and scene.draft.name == "Glass" and scene.price.total == 171
    gui_click(app, scene.buttons["use2"])                               # unchanged: saved again, same file
    assert app.scene.settings.rosters["doubles"][1] == "user:glass"
    assert sorted(p.name for p in files.forces_dir("doubles").glob("*.json")) == ["glass.json", "zz_bad.json"]
    # the launcher refuses a chosen force whose file went bad, with its reason
    (files.forces_dir("doubles") / "glass.json").write_text("[]")
    gui_click(app, app.scene.start)
    assert "that force cannot be played" in app.scene.error and "glass.json" in app.scene.error


def test_a_force_naming_an_unknown_weapon_is_listed_and_the_launcher_opens(app):
    """Issue 59: a Counterblast force naming an unknown weapon stopped the launcher at start (a
    StopIteration from the armoury's look-up). The launcher, started as ``run_client`` starts it,
    opens and says the file and its reason under Start; the builder's Load… list has it as a file
    that does not read, with its reason."""
    from engine.core.rules import get_rules
    from game.scenes.launcher import LauncherScene
    crew = json.loads(json.dumps(get_rules("counterblast").force_catalog().starts["iron-choir"]))
    crew["id"], crew["name"] = "bad", "Bad Crew"
    crew["models"][0]["profile"]["shooting"] = ["nope"]
    folder = files.forces_dir("counterblast")
    folder.mkdir(parents=True)
    (folder / "bad.json").write_text(json.dumps(crew))
    Settings(ruleset="counterblast", map="outpost", seats=["human", "ai:easy"], deployment="automatic").save()
    app.go(Switch("launcher"))
    frame(app)
    launcher = app.scene
    assert isinstance(launcher, LauncherScene)
    why = "models[0].profile.shooting[0]: unknown shooting weapon 'nope'"
    said = launcher.reason.html_text.replace("&#x27;", "'").replace("&#39;", "'")
    assert f"bad.json ({why})" in said and launcher.start.is_enabled
    assert not any("Bad Crew" in label for label in launcher.roster_ids)
    click(app, launcher.build_b[1].rect.center)
    frame(app)
    scene = app.scene
    gui_click(app, scene.buttons["load"])
    [row] = [r for r in scene.load_panel.rows if r.name == "bad:user:bad"]
    assert row.text == "bad.json: does not read" and row.sub.endswith(f"bad.json: {why}")


def test_back_asks_before_dropping_changes(app):
    scene = open_builder(app, "doubles")
    click_button(app, scene.catalog_panel, "add:ash_skulls.soot", "+ Add")
    gui_click(app, scene.buttons["back"])
    assert app.scene is scene and "not saved" in scene.message[0]
    gui_click(app, scene.buttons["back"])
    from game.scenes.launcher import LauncherScene
    assert isinstance(app.scene, LauncherScene)
