"""The client's words read once and read right (issue 58, item 6): a condition named once on a
model's card, headings in whole degrees, Doubles' turn and its limit together in the header, the
force builder's problems named in a player's words instead of the roster's schema path."""
from __future__ import annotations

import re

import pytest
from client_helpers import app_fixture

app = app_fixture(close_scene=True)

from game.ui import help_text as H


# --- a model's card names each condition once -------------------------------------------------
def _markers(ruleset):
    """Each marker the ruleset's help knows, as a view would word it ('N' a number)."""
    hf = H._help(ruleset)
    return [w.replace("N", "2") for m in hf.markers for w in (m.marker, *m.also)]


@pytest.mark.parametrize("ruleset", H.RULESETS)
def test_a_cards_marker_line_names_the_condition_once(ruleset):
    """Issue 58: "Spent: Spent: cannot be activated…", "activated: Activated: this fighter…": the
    help text begins with the condition's name, and the card put the marker's word before it."""
    from game.ui.help_panels import marker_words
    def bare(words):
        return H._norm(re.sub(r"\d+", "", words))

    for m in _markers(ruleset):
        (line,) = marker_words(ruleset, [m])
        head, _, rest = line.partition(": ")
        again = rest.split(": ", 1)[0] if ": " in rest else ""
        # what follows the first colon does not name the same condition again
        assert not (again and (bare(again).startswith(bare(head)) or bare(head).startswith(bare(again)))), line


def test_a_marker_with_a_number_keeps_it_and_a_plain_one_reads_as_the_help_writes_it():
    from game.ui.help_panels import marker_words
    assert marker_words("counterblast", ["Spent"]) == ["Spent: cannot be activated again this turn; Upkeep clears it."]
    assert marker_words("doubles", ["activated"])[0].startswith("Activated: this fighter has had its turn")
    (aggr,) = marker_words("doubles", ["aggressiveness 2"])
    assert aggr.startswith("aggressiveness 2: each hit it takes") and "Aggressiveness:" not in aggr
    # help that does not begin with the condition's name keeps the marker before it
    assert marker_words("counterblast", ["3 damage"])[0].startswith("3 damage: Damage tokens on the model.")
    assert marker_words("doubles", ["2 AP"])[0].startswith("2 AP: Action points left this turn")
    assert marker_words("counterblast", ["Sleepy"]) == ["Sleepy"]          # no help: the word alone


# --- headings in whole degrees ----------------------------------------------------------------
def test_a_jump_heading_reads_in_whole_degrees():
    """Issue 58: "jumps a d5 toward 315.59°"."""
    from engine.rulesets.counterblast.choices import Jump
    from engine.rulesets.counterblast.flow.choice_words import _heading_words
    assert _heading_words(315.59) == "316°"
    assert _heading_words(12.4) == "12°" and _heading_words(359.7) == "0°"
    assert _heading_words(90.0) == "north (90°)" and _heading_words(315) == "south-east (315°)"
    assert Jump(model="m1", heading=315.59).heading == 315.59       # the heading itself is kept


# --- Doubles' header --------------------------------------------------------------------------
def test_doubles_header_says_the_turn_of_its_limit_in_one_part():
    """Issue 58: the header read "Turn 1 | of 6 | points 0-0"."""
    from game.ui.status import status_line
    top, _ = status_line({"ruleset": "doubles", "turn": 1, "turn_limit": 6, "phase": "deploy", "points": [0, 0]},
                         {1: "you", 2: "AI"})
    parts = [p.strip() for p in top.split("|")]
    assert parts == ["Turn 1 of 6", "deploy", "points 0-0"]
    top, _ = status_line({"ruleset": "counterblast", "turn": 2, "phase": "activation", "moxie": {}, "dread": {}},
                         {1: "you", 2: "AI"})
    assert [p.strip() for p in top.split("|")] == ["Turn 2", "activation"]


# --- the force builder's problems in a player's words -----------------------------------------
def test_a_schema_path_reads_as_a_players_words():
    from game.forces.words import field_words
    assert field_words("models[1].count") == "the second model's count"
    assert field_words("models[0].items[0]") == "the first model's first item"
    assert field_words("fighters[41].name") == "the 42nd fighter's name"
    assert field_words("fighters[10].weapons[2]") == "the 11th fighter's third weapon"
    assert field_words("models[2].profile.shooting[0].range") == \
        "the third model's profile's first shooting weapon's range"
    assert field_words("points_limit") == "the points limit" and field_words("models") == "the models"
    assert field_words("") == "the force" and field_words("leader_rule.name") == "the leader rule's name"
    assert [field_words(f"models[{i}]") for i in (10, 11, 12, 20, 21, 22, 101, 111)] == [
        "the 11th model", "the 12th model", "the 13th model", "the 21st model", "the 22nd model", "the 23rd model",
        "the 102nd model", "the 112th model"]


def test_the_force_builder_names_a_problem_by_model_not_by_schema_path(app):
    """Issue 58: the builder showed "models[1].count" under a refused count; a player expects
    "the second model's count". A second copy of a character is such a count."""
    from test_client_force_builder import click_button, open_builder
    scene = open_builder(app, "counterblast", rosters=["dustjaw-raiders", "iron-choir"])
    tibbs = next(i for i, m in enumerate(scene.draft.models) if m.name == "Mad Tibbs")
    raiders = next(i for i, m in enumerate(scene.draft.models) if m.name == "Raider")
    for _ in range(3):                                                  # room in the points for him
        click_button(app, scene.force_panel, f"model:{raiders}", "\u2212")
    click_button(app, scene.force_panel, f"model:{tibbs}", "+")
    count = next(p for p in scene.price.problems if p.field.endswith(".count"))
    assert count.field == f"models[{tibbs}].count"                        # the engine's location, kept
    shown = [r.sub for r in scene.status_panel.rows if r.name == "problem"]
    ordinal = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"][tibbs]
    assert f"the {ordinal} model's count" in shown, shown
    assert not any(re.search(r"\[\d+\]", s) for s in shown), shown


def test_a_marker_named_at_the_end_of_the_helps_name_is_not_said_twice_either():
    """The tour's card read "Leader: The crew's leader: while it stands…"."""
    from game.ui.help_panels import marker_words
    (line,) = marker_words("counterblast", ["Leader"])
    assert line.startswith("The crew's leader: while it stands"), line
    # a sentence that merely begins with the marker's word is not a name: the marker stays before it
    from game.ui import help_panels
    assert not help_panels._same_condition("Damage tokens on the model. As many as", "3 damage")


def test_a_reactions_prompt_names_the_player_once(app):
    """Seen on the issue 58 tour: "Player 2: Player 2: Warboss Grekka shoots at Ranger 1 — react?"
    (some of Counterblast's prompts name the player, a reaction's or the leader's election, and
    the panel named it again)."""
    from client_helpers import game_screen, take_device

    from engine.ai import make_agent
    from engine.core import Game, Setup
    from engine.data.maps import load_named_map
    g = Game(Setup("counterblast", load_named_map("outpost"), (), {"deployment": "automatic"}, 4))
    agents = {p: make_agent("easy", p, 7 + p) for p in (1, 2)}
    for a in agents.values():
        a.attach(g.table, g.rules) if hasattr(a, "attach") else None
    for _ in range(200):
        d = g.pending()
        if d.prompt.startswith(f"Player {d.player}: "):
            break
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    assert d.prompt.startswith(f"Player {d.player}: "), "no reaction met"
    scene = game_screen(app, g, {1: "human", 2: "human"}, "outpost")
    take_device(app)
    text = scene.state.prompt.html_text
    name = scene.state.names[d.player]
    assert text.startswith(f"{name}: ") and f"Player {d.player}: Player {d.player}:" not in text, text
    assert text.count(f"Player {d.player}:") <= 1 and d.prompt[len(f"Player {d.player}: "):] in text, text
