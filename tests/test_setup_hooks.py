"""Issue 49, the engine's half: a ruleset tells a launcher and the command line its options model,
its missions and why a map cannot hold one (``Rules.options_model``, ``missions``,
``default_mission``, ``mission_problem``), and Counterblast's set-up refuses with those words."""
from __future__ import annotations

import pytest

from engine.core import Game, MissionInfo, Setup, SetupError
from engine.core.rules import get_rules
from engine.data.maps import load_named_map
from engine.rulesets.counterblast.data import shipped_missions
from engine.rulesets.counterblast.options import CounterblastOptions
from engine.rulesets.doubles.data import DoublesOptions
from engine.rulesets.frontier.data import Options as FrontierOptions

OUTPOST = load_named_map("outpost")
NO_MARKERS = OUTPOST.model_copy(update={"objectives": []})
CB = get_rules("counterblast")


def test_every_ruleset_names_its_options_model():
    assert CB.options_model() is CounterblastOptions
    assert get_rules("frontier").options_model() is FrontierOptions
    assert get_rules("doubles").options_model() is DoublesOptions


def test_counterblast_lists_its_shipped_missions_from_their_data():
    got = CB.missions()
    data = shipped_missions()
    assert set(got) == set(data) == {"salvage-rights", "data-heist", "headhunters"}
    for mid, info in got.items():
        assert isinstance(info, MissionInfo) and info.id == mid
        assert info.name == data[mid].name
        assert info.min_markers == data[mid].min_markers
        # the seed names "Missions" and "Objective points" but defines none: ours (Interpretation 17)
        assert info.ours is True and "counterblast.md" in info.doc
        assert info.summary.endswith("the higher total wins.") and len(info.summary) < 260
    # the summary is written from the objectives' numbers
    assert "2 a marker, at most 6" in got["salvage-rights"].summary
    assert "evac point" in got["data-heist"].summary and "at most 4" in got["data-heist"].summary
    assert "enemy leader" in got["headhunters"].summary


def test_default_mission_is_chosen_by_the_markers_as_before():
    assert CB.default_mission(OUTPOST) == "salvage-rights"            # three markers
    assert CB.default_mission(NO_MARKERS) == "headhunters"
    assert Game(Setup("counterblast", OUTPOST, (), {}, 1)).rules.mission.id == "salvage-rights"
    assert Game(Setup("counterblast", NO_MARKERS, (), {}, 1)).rules.mission.id == "headhunters"


def test_mission_problem_says_why_and_the_setup_refuses_in_the_same_words():
    assert CB.mission_problem(OUTPOST, "data-heist") is None
    assert CB.mission_problem(NO_MARKERS, "headhunters") is None
    why = CB.mission_problem(NO_MARKERS, "salvage-rights")
    assert why == "Salvage Rights needs 3 objective markers; 'Kessler Station' has 0"
    with pytest.raises(SetupError) as err:
        Game(Setup("counterblast", NO_MARKERS, (), {"mission": "salvage-rights"}, 1))
    assert str(err.value) == why
    unknown = CB.mission_problem(OUTPOST, "bake-off")
    assert "bake-off" in unknown and "salvage-rights" in unknown
    with pytest.raises(SetupError) as err:
        Game(Setup("counterblast", OUTPOST, (), {"mission": "bake-off"}, 1))
    assert str(err.value) == unknown
    with pytest.raises(SetupError, match="a mission id"):
        Game(Setup("counterblast", OUTPOST, (), {"mission": ["x"]}, 1))


def test_a_chosen_mission_is_played():
    g = Game(Setup("counterblast", OUTPOST, (), {"mission": "data-heist"}, 1))
    assert g.rules.mission.id == "data-heist"


@pytest.mark.parametrize("ruleset", ["frontier", "doubles", "toy"])
def test_other_rulesets_need_no_missions_to_be_launched(ruleset):
    """Their missions may come later; a launcher asks and copes with none (one way to play)."""
    rules = get_rules(ruleset)
    missions = rules.missions()
    assert isinstance(missions, dict)
    if not missions:
        assert rules.default_mission(OUTPOST) is None
        assert "no " in rules.mission_problem(OUTPOST, "anything")


def test_every_agent_says_how_long_it_thinks_and_what_it_does():
    from engine.ai import agent_names
    from engine.ai.about import ABOUT, about, order
    assert set(ABOUT) == set(agent_names())                 # one table, every agent in it
    assert order(agent_names()) == ["random", "easy", "normal", "hard-2026", "hard"]
    assert about("random").startswith("Answers at once.")
    assert about("easy").startswith("Answers at once")
    assert about("normal").startswith("Thinks 0.25 s a decision.")   # SearchParams' budget
    assert about("hard").startswith("Thinks 0.8 s a decision.")      # HardParams' budget
    assert about("hard:budget=2.0").startswith("Thinks 2 s a decision.")
    assert about("normal:iters=4").startswith("4 rounds of search a decision.")
